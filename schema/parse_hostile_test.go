package schema_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/schema"
)

// nestedSchema is a schema nested depth levels through "properties".
func nestedSchema(depth int) string {
	return strings.Repeat(`{"type":"object","properties":{"a":`, depth) + `{"type":"string"}` + strings.Repeat(`}}`, depth)
}

func TestParseDepthCap(t *testing.T) {
	// 4,990 levels (185 KB) once took 11.5 s and 1.9 GB.
	if _, err := schema.Parse([]byte(nestedSchema(4990))); !errors.Is(err, schema.ErrParse) || !strings.Contains(err.Error(), "deep") {
		t.Errorf("4,990 levels: err = %v, want a depth error", err)
	}
	// 255 schemas are 510 JSON levels, within the cap.
	s, err := schema.Parse([]byte(nestedSchema(255)))
	if err != nil {
		t.Fatal(err)
	}
	depth := 0
	for ; s.Properties != nil; s = s.Properties[0].Schema {
		depth++
	}
	if depth != 255 {
		t.Errorf("parsed %d levels, want 255", depth)
	}
}

func TestParseErrorPath(t *testing.T) {
	_, err := schema.Parse([]byte(`{"properties":{"a/b":{"items":{"anyOf":[true, 3]}}}}`))
	if err == nil || !strings.Contains(err.Error(), `at "/properties/a~1b/items/anyOf/1"`) {
		t.Errorf("err = %v, want the path of the bad subschema", err)
	}
}

// wideDeepSchema is about size bytes: properties each nested 200 levels.
func wideDeepSchema(size int) []byte {
	one := nestedSchema(200)
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"p` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + itoa(i) + `":`)
		b.WriteString(one)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// TestParseLinear: ten times the document, about ten times the memory.
func TestParseLinear(t *testing.T) {
	cost := func(size int) float64 {
		data := wideDeepSchema(size)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := schema.ParseLimited(data, unlimited); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(data))
	}
	small, large := cost(100<<10), cost(1<<20)
	if large > 1.5*small {
		t.Errorf("bytes allocated per input byte: %.1f at 100 KB, %.1f at 1 MB", small, large)
	}
}

var unlimited = schema.ParseLimits{MaxBytes: -1, MaxNodes: -1}

// manyEmptySchemas is about size bytes of "anyOf" items {}: the most
// schemas a document can hold per byte.
func manyEmptySchemas(size int) []byte {
	return []byte(`{"anyOf":[` + strings.Repeat(`{},`, size/3) + `{}]}`)
}

// BenchmarkParseHostile reports the bytes allocated per document byte
// (B/inbyte), without limits, of a schema nested deep and wide (about 38
// bytes per schema) and of one made of empty schemas (3 bytes each).
func BenchmarkParseHostile(b *testing.B) {
	docs := []struct {
		name string
		make func(int) []byte
	}{{"deep", wideDeepSchema}, {"empty", manyEmptySchemas}}
	for _, doc := range docs {
		for _, s := range []struct {
			name string
			size int
		}{{"1MB", 1 << 20}, {"10MB", 10 << 20}} {
			b.Run(doc.name+"/"+s.name, func(b *testing.B) { benchParse(b, doc.make(s.size)) })
		}
	}
}

func benchParse(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		if _, err := schema.ParseLimited(data, unlimited); err != nil {
			b.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(data)), "B/inbyte")
}

func TestParseLimits(t *testing.T) {
	nodes := func(n int) []byte { return manyEmptySchemas(3 * (n - 2)) } // the root, n-1 items
	big := []byte(`{"description":"` + strings.Repeat("x", schema.DefaultMaxParseBytes) + `"}`)
	for _, tc := range []struct {
		name    string
		data    []byte
		lim     schema.ParseLimits
		tooBig  bool
		nodeErr bool
	}{
		{"default nodes, at the bound", nodes(schema.DefaultMaxParseNodes), schema.ParseLimits{}, false, false},
		{"default nodes, over", nodes(schema.DefaultMaxParseNodes + 1), schema.ParseLimits{}, true, true},
		{"default bytes, over", big, schema.ParseLimits{}, true, false},
		{"bytes unbounded", big, schema.ParseLimits{MaxBytes: -1}, false, false},
		{"nodes unbounded", nodes(schema.DefaultMaxParseNodes + 1), schema.ParseLimits{MaxNodes: -1}, false, false},
		{"set nodes, at", nodes(10), schema.ParseLimits{MaxNodes: 10}, false, false},
		{"set nodes, over", nodes(11), schema.ParseLimits{MaxNodes: 10}, true, true},
		{"boolean schemas count", []byte(`{"anyOf":[true,false,{"items":true}]}`), schema.ParseLimits{MaxNodes: 4}, true, true},
		{"set bytes, at", []byte(`{"type":"string"}`), schema.ParseLimits{MaxBytes: 17}, false, false},
		{"set bytes, over", []byte(`{"type":"string"}`), schema.ParseLimits{MaxBytes: 16}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.ParseLimited(tc.data, tc.lim)
			if got := errors.Is(err, schema.ErrTooLarge); got != tc.tooBig {
				t.Fatalf("err = %.200v, want ErrTooLarge %v", err, tc.tooBig)
			}
			if err != nil && !errors.Is(err, schema.ErrParse) {
				t.Errorf("err = %.200v, want it to wrap ErrParse", err)
			}
			if tc.nodeErr && !strings.Contains(err.Error(), "schemas") {
				t.Errorf("err = %.200v, want it to name the schema count", err)
			}
		})
	}
	// Parse is ParseLimited with the defaults.
	if _, err := schema.Parse(big); !errors.Is(err, schema.ErrTooLarge) {
		t.Errorf("Parse of %d bytes: err = %.200v, want ErrTooLarge", len(big), err)
	}
}

// TestParseOwnedValues: nodes, counts and type lists come from shared
// slabs, yet changing one schema's never changes another's.
func TestParseOwnedValues(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"a":{"type":"string","minLength":1},"b":{"type":"string","minLength":1},"c":true,"d":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.Property("a"), s.Property("b")
	a.Types[0] = "integer"
	a.Types = append(a.Types, "null")
	*a.MinLength = 7
	*s.Property("c").Bool = false
	want := &schema.Schema{Types: []string{"string"}, MinLength: ptr(int64(1))}
	if diff := cmp.Diff(want, b); diff != "" {
		t.Errorf("b after changing a (-want +got):\n%s", diff)
	}
	if d := s.Property("d"); d.IsFalse() {
		t.Errorf("d became false with c")
	}
	s.Properties = append(s.Properties, schema.Property{Name: "e", Schema: schema.True()})
	if diff := cmp.Diff(want, b); diff != "" {
		t.Errorf("b after appending a property (-want +got):\n%s", diff)
	}
}

// FuzzParse: Parse never panics, and what it accepts goes through
// MarshalJSON and back to the same tree.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"type":"object","properties":{"a":{"type":"string","minLength":1}},"required":["a"]}`,
		`{"anyOf":[true,false,{}],"items":{"enum":[1,"x",null]},"x-k":[1,{"a":2}]}`,
		`{"$defs":{"b":{"type":["integer","null"]},"a":{"$ref":"#/$defs/b"}},"title":"t\u00e9"}`,
		nestedSchema(20),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := schema.ParseLimited(data, schema.ParseLimits{MaxNodes: 1000})
		if err != nil {
			if !errors.Is(err, schema.ErrParse) {
				t.Fatalf("Parse(%q) = %v, want an error wrapping ErrParse", data, err)
			}
			return
		}
		out, err := s.MarshalJSON()
		if err != nil {
			return // a keyword value MarshalJSON refuses (an invalid number kept as is)
		}
		back, err := schema.Parse(out)
		if err != nil {
			t.Fatalf("Parse(MarshalJSON(Parse(%q))) = %v; marshalled %s", data, err, out)
		}
		again, err := back.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(out), string(again)); diff != "" {
			t.Fatalf("round trip of %q (-first +second):\n%s", data, diff)
		}
	})
}
