package schema_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

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
		if _, err := schema.Parse(data); err != nil {
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

func BenchmarkParseHostile(b *testing.B) {
	for _, s := range []struct {
		name string
		size int
	}{{"1MB", 1 << 20}, {"10MB", 10 << 20}} {
		b.Run(s.name, func(b *testing.B) {
			data := wideDeepSchema(s.size)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				if _, err := schema.Parse(data); err != nil {
					b.Fatal(err)
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(data)), "B/inbyte")
		})
	}
}
