package adapters_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// The hostile-schema tests: hand-written schemas (define.NewTool, which an
// MCP proxy fills with other servers' schemas) whose rendering cost more
// than linear work before the budgets of docs/limits.md.

// doublingSchema is a tool schema whose $defs d0..d(n-1) each refer to the
// next one twice, the last being a string with a description of pad
// bytes: inlined, it holds 2^n copies of the last.
func doublingSchema(n, pad int) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"x":{"$ref":"#/$defs/d0"}},"$defs":{`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `"d%d":{"type":"object","properties":{"a":{"$ref":"#/$defs/d%d"},"b":{"$ref":"#/$defs/d%d"}}},`, i, i+1, i+1)
	}
	fmt.Fprintf(&b, `"d%d":{"type":"string","description":"%s"}}}`, n, strings.Repeat("x", pad))
	return []byte(b.String())
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func hostileTool(t testing.TB, name string, schema []byte) define.Tool {
	t.Helper()
	tool, err := define.NewTool(name, json.RawMessage(schema), dummy)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// wantInlineLimit checks that err is one *adapters.Error wrapping ErrLimit
// that names the tool.
func wantInlineLimit(t *testing.T, what string, err error, tool string) {
	t.Helper()
	var e *adapters.Errors
	if !errors.As(err, &e) || !errors.Is(err, adapters.ErrLimit) {
		t.Fatalf("%s: err = %.300v, want *adapters.Errors wrapping ErrLimit", what, err)
	}
	if len(e.Errs) != 1 || e.Errs[0].Tool != tool || !strings.Contains(e.Errs[0].Msg, "inlining") {
		t.Errorf("%s: err = %.300v, want one inlining error naming tool %q", what, err, tool)
	}
}

// TestInlineBudget: inlining a $defs graph that doubles at every
// definition stops at the budget, in memory bounded by it: Gemini's
// default mode sends that declaration as parametersJsonSchema (with its
// $refs), the modes that must inline are an ErrLimit naming the tool.
func TestInlineBudget(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	const limit = 32 << 20 // the budget's floor is 4,096 schemas; 2^16 copies took about 650 MB
	data := doublingSchema(16, 8)
	tool := hostileTool(t, "doubling", data)
	var got []adapters.GeminiTool
	var err error
	if n := allocated(func() { got, err = adapters.ToGemini([]define.Tool{tool}) }); n > limit {
		t.Errorf("ToGemini allocated %d bytes for a %d-byte schema, want at most %d", n, len(data), limit)
	}
	if err != nil {
		t.Fatalf("ToGemini: %v", err)
	}
	d := got[0].FunctionDeclarations[0]
	if d.Parameters != nil || !strings.Contains(string(d.ParametersJSONSchema), `"$ref":"#/$defs/d15"`) {
		t.Errorf("ToGemini: parameters %.100s, parametersJsonSchema %.100s; want parametersJsonSchema keeping $ref", d.Parameters, d.ParametersJSONSchema)
	}
	for _, tc := range []struct {
		name   string
		render func() error
	}{
		{"ToGemini(GeminiParameters())", func() error {
			_, err := adapters.ToGemini([]define.Tool{tool}, adapters.GeminiParameters())
			return err
		}},
		{"ToAnthropic(Strict(true))", func() error {
			_, err := adapters.ToAnthropic([]define.Tool{tool}, adapters.Strict(true))
			return err
		}},
		{"ToOllama", func() error { _, err := adapters.ToOllama([]define.Tool{tool}); return err }},
	} {
		var err error
		if n := allocated(func() { err = tc.render() }); n > limit {
			t.Errorf("%s allocated %d bytes for a %d-byte schema, want at most %d", tc.name, n, len(data), limit)
		}
		wantInlineLimit(t, tc.name, err, "doubling")
	}
	// StrictWherePossible sends it non-strict, with its $refs.
	at, err := adapters.ToAnthropic([]define.Tool{tool}, adapters.StrictWherePossible())
	if err != nil || at[0].Strict {
		t.Errorf("ToAnthropic(StrictWherePossible()): strict %v, err %v; want non-strict", err == nil && at[0].Strict, err)
	}
}

// TestInlineBudgetText: a definition with a long description, referred to
// many times, is bounded by the text budget even though its schemas are
// few.
func TestInlineBudgetText(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, `"p%d":{"$ref":"#/$defs/big"},`, i)
	}
	fmt.Fprintf(&b, `"z":{"type":"integer"}},"$defs":{"big":{"type":"string","description":"%s"}}}`, strings.Repeat("y", 100<<10))
	tool := hostileTool(t, "shared", []byte(b.String()))
	_, err := adapters.ToOllama([]define.Tool{tool})
	wantInlineLimit(t, "ToOllama", err, "shared")
}

// deepNamesSchema nests objects levels deep under property names of
// nameLen bytes.
func deepNamesSchema(levels, nameLen int) []byte {
	var b strings.Builder
	for i := 0; i < levels; i++ {
		fmt.Fprintf(&b, `{"type":"object","properties":{"%s%d":`, strings.Repeat("n", nameLen), i)
	}
	b.WriteString(`{"type":"string"}`)
	b.WriteString(strings.Repeat("}}", levels))
	return []byte(b.String())
}

// exclusiveBoundsSchema has props integer properties, each with an
// exclusiveMinimum of 1e999999, whose inclusive integer has a million
// digits.
func exclusiveBoundsSchema(props int) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := 0; i < props; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"integer","exclusiveMinimum":1e999999}`, i)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// TestDeepPathsLinear: error paths are built when an error needs one, not
// for every node of the walk: rendering 240 levels of 2 KB property names
// allocated 606 bytes per input byte in OpenAI strict.
func TestDeepPathsLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	data := deepNamesSchema(240, 2048)
	tool := hostileTool(t, "deep", data)
	var err error
	n := allocated(func() { _, err = adapters.ToOpenAI([]define.Tool{tool}, adapters.Strict(true)) })
	if !errors.Is(err, adapters.ErrLimit) {
		t.Fatalf("err = %.200v, want the nesting limit", err)
	}
	if perByte := float64(n) / float64(len(data)); perByte > 30 {
		t.Errorf("OpenAI strict allocated %.0f bytes per input byte, want at most 30", perByte)
	}
}

// TestHugeExclusiveBounds: 1e999999 as an exclusive integer bound stays
// text (in the description) instead of a million-digit Gemini minimum.
func TestHugeExclusiveBounds(t *testing.T) {
	data := exclusiveBoundsSchema(3)
	// The argument validator refuses bounds it would have to read with
	// a million digits: a tool made without it.
	tool, err := define.NewTool("bounds", json.RawMessage(data), dummy, define.WithoutValidation())
	if err != nil {
		t.Fatal(err)
	}
	got, err := adapters.ToGemini([]define.Tool{tool}, adapters.GeminiParameters())
	if err != nil {
		t.Fatal(err)
	}
	if p := got[0].FunctionDeclarations[0].Parameters; len(p) > 2*len(data) || strings.Contains(string(p), `"minimum"`) {
		t.Errorf("parameters of %d bytes for a %d-byte schema (minimum kept: %v)", len(p), len(data), strings.Contains(string(p), `"minimum"`))
	}
}

// nestedObjectsSchema is a schema of about size bytes: properties c0,
// c1, ... each a chain of depth objects, each holding the next as its one
// property "a", the last a string.
func nestedObjectsSchema(depth, size int) []byte {
	chain := strings.Repeat(`{"type":"object","properties":{"a":`, depth) + `{"type":"string"}` + strings.Repeat("}}", depth)
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"c%d":%s`, i, chain)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// geminiRenderPerByte renders schema for Gemini "parameters" and returns
// the bytes allocated per schema byte.
func geminiRenderPerByte(t testing.TB, schema []byte) float64 {
	tool, err := define.NewTool("nested", json.RawMessage(schema), dummy, define.WithMaxSchemaBytes(-1), define.WithMaxSchemaNodes(-1))
	if err != nil {
		t.Fatal(err)
	}
	n := allocated(func() { _, err = adapters.ToGemini([]define.Tool{tool}, adapters.GeminiParameters()) })
	if err != nil {
		t.Fatal(err)
	}
	return float64(n) / float64(len(schema))
}

// TestGeminiRenderDepthLinear: rendering objects nested 240 deep for
// Gemini costs per schema byte what 60 deep costs (issue 32 item 14: 138
// and 438 bytes per schema byte, each node's properties marshalled again
// at every level above it; now about 72 at both: each node of the input
// is a parsed schema.Schema of 560 bytes, a rendered one and a Gemini
// node, for about 37 bytes of schema).
func TestGeminiRenderDepthLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	per60 := geminiRenderPerByte(t, nestedObjectsSchema(60, 200<<10))
	per240 := geminiRenderPerByte(t, nestedObjectsSchema(240, 200<<10))
	if per240 > 1.25*per60 || per240 > 100 {
		t.Errorf("%.1f bytes allocated per schema byte 240 deep, %.1f 60 deep: want at most 100, and flat", per240, per60)
	}
}

// BenchmarkGeminiRenderDepth renders objects nested 60 and 240 deep
// (about 1 MB of schema each) for Gemini "parameters", reporting the
// bytes allocated per schema byte (B/schemaB): flat in depth.
func BenchmarkGeminiRenderDepth(b *testing.B) {
	for _, depth := range []int{60, 240} {
		schema := nestedObjectsSchema(depth, 1<<20)
		b.Run(fmt.Sprintf("depth-%d", depth), func(b *testing.B) {
			b.SetBytes(int64(len(schema)))
			var per float64
			n := 0
			for b.Loop() {
				per += geminiRenderPerByte(b, schema)
				n++
			}
			b.ReportMetric(per/float64(n), "B/schemaB")
		})
	}
}

// BenchmarkRenderHostile renders the hostile schemas above at about 0.1,
// 1 and 10 MB, a fresh tool each time (the rendering cache would
// otherwise answer), and reports the bytes allocated and the nanoseconds
// spent per input byte by the rendering alone (B/inbyte, ns/inbyte).
func BenchmarkRenderHostile(b *testing.B) {
	cases := []struct {
		name   string
		schema func(size int) []byte
		render func(define.Tool) error
	}{
		{"doubling/gemini", func(n int) []byte { return doublingSchema(n/95, 8) }, func(t define.Tool) error {
			_, err := adapters.ToGemini([]define.Tool{t})
			return err
		}},
		{"doubling/anthropic-strict", func(n int) []byte { return doublingSchema(n/95, 8) }, func(t define.Tool) error {
			_, err := adapters.ToAnthropic([]define.Tool{t}, adapters.StrictWherePossible())
			return err
		}},
		{"doubling/ollama", func(n int) []byte { return doublingSchema(n/95, 8) }, func(t define.Tool) error {
			if _, err := adapters.ToOllama([]define.Tool{t}); !errors.Is(err, adapters.ErrLimit) {
				return fmt.Errorf("want the budget's ErrLimit, got %v", err)
			}
			return nil
		}},
		{"bounds/gemini", func(n int) []byte { return exclusiveBoundsSchema(n / 50) }, func(t define.Tool) error {
			_, err := adapters.ToGemini([]define.Tool{t})
			return err
		}},
		{"deep/openai-strict", func(n int) []byte { return deepNamesSchema(240, n/240) }, func(t define.Tool) error {
			_, err := adapters.ToOpenAI([]define.Tool{t}, adapters.StrictWherePossible())
			return err
		}},
	}
	for _, tc := range cases {
		for _, size := range []struct {
			name string
			n    int
		}{{"100KB", 100 << 10}, {"1MB", 1 << 20}, {"10MB", 10 << 20}} {
			b.Run(tc.name+"/"+size.name, func(b *testing.B) {
				data := tc.schema(size.n)
				var alloc, ns float64
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					tool, err := define.NewTool("hostile", json.RawMessage(data), dummy,
						define.WithMaxSchemaBytes(-1), define.WithMaxSchemaNodes(-1))
					if err != nil {
						b.Fatal(err)
					}
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					start := time.Now()
					b.StartTimer()
					err = tc.render(tool)
					b.StopTimer()
					ns += float64(time.Since(start))
					runtime.ReadMemStats(&after)
					alloc += float64(after.TotalAlloc - before.TotalAlloc)
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(alloc/float64(b.N)/float64(len(data)), "B/inbyte")
				b.ReportMetric(ns/float64(b.N)/float64(len(data)), "ns/inbyte")
			})
		}
	}
}

// TestInlineNesting: a chain of definitions each referring to the next
// one nests at most MaxInlineNesting of them when inlined.
func TestInlineNesting(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"x":{"$ref":"#/$defs/d0"}},"$defs":{`)
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&b, `"d%d":{"type":"object","properties":{"a":{"$ref":"#/$defs/d%d"}}},`, i, i+1)
	}
	b.WriteString(`"d600":{"type":"string"}}}`)
	tool := hostileTool(t, "chain", []byte(b.String()))
	_, err := adapters.ToOllama([]define.Tool{tool})
	wantInlineLimit(t, "ToOllama", err, "chain")
}
