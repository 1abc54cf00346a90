package define_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus/define"
)

// boundaryArgs has a field of every kind that map input can fill, so that
// the size charged for each is checked against its JSON text.
type boundaryArgs struct {
	S     string            `json:"s"`
	Esc   string            `json:"esc,omitempty"`
	I     int               `json:"i"`
	U     uint8             `json:"u,omitempty"`
	F     float64           `json:"f"`
	F32   float32           `json:"f32,omitempty"`
	P     *float64          `json:"p"`
	B     bool              `json:"b"`
	N     json.Number       `json:"n,omitempty"`
	T     time.Time         `json:"t"`
	Raw   []byte            `json:"raw,omitempty"`
	Tags  []string          `json:"tags"`
	Pair  [2]int            `json:"pair,omitempty"`
	Inner boundaryInner     `json:"inner"`
	Any   any               `json:"any,omitempty"`
	Obj   map[string]any    `json:"obj,omitempty"`
	Ints  map[string]int    `json:"ints,omitempty"`
	Msg   json.RawMessage   `json:"msg,omitempty"`
	Named map[string]string `json:"named,omitempty"`
	Key   string            `json:"ключ <é>,omitempty"`
}

type boundaryInner struct {
	Name string `json:"name"`
	Opt  *bool  `json:"opt"`
}

// TestMaxArgBytesBoundary: a map whose compact JSON text is exactly
// WithMaxArgBytes is accepted, as that text is, and one byte less refuses
// both (issue 32 item 14): every value is charged its length as text,
// numbers as encoding/json writes them, strings with the escapes JSON
// requires, every bracket, colon and comma.
func TestMaxArgBytesBoundary(t *testing.T) {
	ctx := context.Background()
	handler := func(ctx context.Context, in boundaryArgs) (string, error) { return "ok", nil }
	base := func() map[string]any {
		return map[string]any{
			"s": "Lisbon", "i": float64(2), "f": 1450.5, "p": nil, "b": true,
			"t": "2026-03-14T09:30:00Z", "tags": []any{"a", "b"},
			"inner": map[string]any{"name": "x", "opt": false},
		}
	}
	cases := []struct {
		name string
		edit func(m map[string]any)
	}{
		{"plain", func(map[string]any) {}},
		{"escapes", func(m map[string]any) { m["esc"] = "q\"b\\n\n\t\x01\x1f<>&/é€😀" }},
		{"non-ASCII key", func(m map[string]any) { m["ключ <é>"] = "v" }},
		{"keys with escapes", func(m map[string]any) {
			m["obj"], m["named"] = map[string]any{"a\"b\\\n\x02": 1.0}, map[string]any{"\t\"": "\"", "ü": ""}
		}},
		{"empty containers", func(m map[string]any) {
			m["tags"], m["obj"], m["ints"], m["named"] = []any{}, map[string]any{}, map[string]any{}, map[string]any{}
		}},
		{"nulls", func(m map[string]any) { m["tags"], m["any"], m["obj"] = nil, nil, nil }},
		{"integers", func(m map[string]any) { m["i"], m["u"] = float64(-1234567), float64(255) }},
		{"go integers", func(m map[string]any) {
			m["i"], m["u"], m["any"] = -42, uint8(7), []any{int64(-9), uint64(1 << 63), int32(5)}
		}},
		{"negative zero", func(m map[string]any) { m["f"] = math.Copysign(0, -1) }},
		{"decimals", func(m map[string]any) { m["f"], m["p"] = 0.1, 123.456789 }},
		{"long decimal", func(m map[string]any) { m["f"] = 0.1 + 0.2 }},
		{"exponents", func(m map[string]any) {
			m["f"], m["any"] = 1e21, []any{1e-7, 5e-324, math.MaxFloat64, 1e20, 123456789012345678.0}
		}},
		{"float32", func(m map[string]any) { m["f32"], m["any"] = float32(0.1), []any{float32(1e-7), float32(3.4e38)} }},
		{"json.Number", func(m map[string]any) {
			m["n"], m["f"], m["any"] = json.Number("1.50e+3"), json.Number("-0.0"), json.Number("12")
		}},
		{"time value", func(m map[string]any) { m["t"] = time.Date(2026, 3, 14, 9, 30, 0, 120000000, time.FixedZone("", 3600)) }},
		{"bytes", func(m map[string]any) { m["raw"] = "aGVsbG8h" }},
		{"byte slice", func(m map[string]any) { m["raw"] = []byte("hello, world") }},
		{"array", func(m map[string]any) { m["pair"] = []any{float64(1), float64(-20)} }},
		{"nested any", func(m map[string]any) {
			m["any"] = map[string]any{"a": []any{map[string]any{}, []any{}, nil, true, false, "x", 1.5}, "b": map[string]any{"c": "d"}}
		}},
		{"typed values in any", func(m map[string]any) {
			m["any"] = map[string]any{"s": []string{"a", "b"}, "m": map[string]int{"k": -3}, "i": map[int]bool{10: true, -2: false}, "bs": []byte{1, 2, 3, 4}}
		}},
		{"typed slice", func(m map[string]any) { m["tags"] = []string{"x", "y\"z"} }},
		{"object field", func(m map[string]any) { m["obj"] = map[string]any{"k": []any{float64(1), "two"}} }},
		{"map of ints", func(m map[string]any) { m["ints"] = map[string]any{"a": float64(1), "bb": float64(-22)} }},
		{"raw message", func(m map[string]any) { m["msg"] = map[string]any{"x": []any{1.25, nil}} }},
		{"map of strings", func(m map[string]any) { m["named"] = map[string]any{"k": "v", "": ""} }},
	}
	for _, c := range cases {
		args := base()
		c.edit(args)
		text := argsText(t, args)
		for _, limit := range []int{len(text), len(text) - 1} {
			tool := define.MustDefineTool(handler, define.WithName("boundary"), define.WithMaxArgBytes(limit))
			fromMap, fromText := tool.Execute(ctx, args), tool.ExecuteJSON(ctx, text)
			wantOK := limit == len(text)
			for _, r := range []struct {
				how string
				res define.Result
			}{{"map", fromMap}, {"text", fromText}} {
				switch {
				case wantOK && r.res.IsError:
					t.Errorf("%s: %s of %d bytes under WithMaxArgBytes(%d): %s", c.name, r.how, len(text), limit, r.res.Output)
				case !wantOK && !errors.Is(r.res.Err, define.ErrTooLarge):
					t.Errorf("%s: %s of %d bytes under WithMaxArgBytes(%d): %q, want ErrTooLarge", c.name, r.how, len(text), limit, r.res.Output)
				}
			}
		}
	}
}

// argsText is args as compact JSON text: encoding/json's, without
// HTML escaping.
func argsText(t *testing.T, args map[string]any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(args); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// TestMaxArgBytesBoundaryNewTool: the same for a tool with a hand-written
// schema, which checks map input without a plan.
func TestMaxArgBytesBoundaryNewTool(t *testing.T) {
	ctx := context.Background()
	args := map[string]any{"q": "a\"b", "n": []any{1.5, -3.0, 1e-9, nil, true}, "m": map[string]any{"é": strings.Repeat("x", 40)}}
	text := argsText(t, args)
	for _, limit := range []int{len(text), len(text) - 1} {
		tool := mustNewTool(t, "raw", define.WithMaxArgBytes(limit))
		fromMap, fromText := tool.Execute(ctx, args), tool.ExecuteJSON(ctx, text)
		if limit == len(text) {
			if fromMap.IsError || fromText.IsError {
				t.Errorf("at the bound: map %q, text %q", fromMap.Output, fromText.Output)
			}
			continue
		}
		if !errors.Is(fromMap.Err, define.ErrTooLarge) || !errors.Is(fromText.Err, define.ErrTooLarge) {
			t.Errorf("one byte over: map %q, text %q, want ErrTooLarge for both", fromMap.Output, fromText.Output)
		}
	}
}
