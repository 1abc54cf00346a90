package define_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/benchdata"
	"github.com/toolnexus/toolnexus/schema"
)

// countingEcho is a NewTool handler that echoes its arguments and counts
// its calls.
func countingEcho(calls *atomic.Int32) define.RawHandler {
	return func(_ context.Context, args json.RawMessage) (any, error) {
		calls.Add(1)
		return string(args), nil
	}
}

// TestNewToolValidatesLikeDefineTool: a NewTool tool made from the schema
// a typed tool renders answers a call as the typed tool does: the same
// verdict and the same error result, word for word, wherever no
// documented difference applies (none does in these arguments), and its
// handler runs only on arguments that pass. Only the words for a
// time.Time field differ: the schema says a string with format date-time.
func TestNewToolValidatesLikeDefineTool(t *testing.T) {
	ctx := context.Background()
	typed := define.MustDefineTool(func(context.Context, benchdata.Args) (string, error) { return "ok", nil }, define.WithName("search"))
	var calls atomic.Int32
	raw, err := define.NewTool("search", typed.InputSchema(), countingEcho(&calls))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{
		string(benchdata.SampleJSON),
		`{"origin":"FRA","destination":"JFK","date":"2026-03-14T09:30:00Z","passengers":2,"cabin":"business","max_price":null,"filters":{"max_stops":0,"airlines":[],"refundable":false},"tags":[]}`,
		`{"origin":"fra","destination":"JFKX","date":"2026-02-30T09:30:00Z","passengers":0,"cabin":"coach","max_price":0,"filters":{"max_stops":4,"airlines":["a","b","c","d","e","f"],"refundable":"no"},"tags":[1],"note":7,"extra":true}`,
		`{"origin":"FRA"}`,
		`{"passengers":2.5,"filters":{}}`,
		`{"origin":"FRA","origin":"MUC"}`,
		`[]`, `"x"`, `{`, `{"origin":"FRA",}`, "{\"note\":\"\xff\"}",
	} {
		want := typed.ExecuteJSON(ctx, []byte(args))
		want.Output = strings.NewReplacer(
			"/date: expected date-time string (RFC 3339) (required)", "/date: expected string (required)",
			"/date: expected date-time string (RFC 3339),", "/date: expected date-time (RFC 3339, e.g. 2006-01-02T15:04:05Z),",
		).Replace(want.Output)
		before := calls.Load()
		got := raw.ExecuteJSON(ctx, []byte(args))
		ran := calls.Load() != before
		if got.IsError != want.IsError || got.IsError && got.Output != want.Output {
			t.Errorf("arguments %s\nNewTool:    %s\nDefineTool: %s", args, got.Output, want.Output)
		}
		if ran == got.IsError {
			t.Errorf("arguments %s: handler ran %v, result error %v", args, ran, got.IsError)
		}
		var ae *define.ArgErrors
		if got.IsError && !errors.As(got.Err, &ae) {
			t.Errorf("arguments %s: Err = %v (%T), want an *ArgErrors", args, got.Err, got.Err)
		}
	}
}

// TestNewToolMapAndTextAgree: Execute (a map) and ExecuteJSON (the same
// arguments as text) give one verdict, and the handler gets the map as
// compact JSON.
func TestNewToolMapAndTextAgree(t *testing.T) {
	ctx := context.Background()
	tool, err := define.NewTool("t", json.RawMessage(`{"type":"object","properties":{
		"n":{"type":"integer","maximum":9007199254740992},
		"f":{"type":"number","exclusiveMinimum":0},
		"s":{"type":"string","maxLength":3},
		"a":{"type":"array","uniqueItems":true,"items":{"type":["string","null"]}},
		"o":{"type":"object","additionalProperties":{"type":"boolean"}}},
		"required":["n"],"additionalProperties":false}`),
		func(_ context.Context, args json.RawMessage) (any, error) { return string(args), nil })
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{
		`{"n":1}`, `{"n":9007199254740992}`, `{"n":9007199254740993}`, `{"n":1.0}`, `{"n":1e2}`, `{"n":"1"}`,
		`{"n":1,"f":0}`, `{"n":1,"f":1e-300}`, `{"n":1,"s":"abcd"}`, `{"n":1,"s":"<&>"}`,
		`{"n":1,"a":["x",null,"x"]}`, `{"n":1,"a":["x",null]}`, `{"n":1,"o":{"a":true,"b":1}}`, `{"n":1,"z":1}`, `{}`,
	} {
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(args))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		text := tool.ExecuteJSON(ctx, []byte(args))
		fromMap := tool.Execute(ctx, m)
		if text.IsError != fromMap.IsError {
			t.Errorf("arguments %s: ExecuteJSON %q, Execute %q", args, text.Output, fromMap.Output)
		}
		if !text.IsError && !jsonEqual(t, text.Output, fromMap.Output) {
			t.Errorf("arguments %s: the handler got %s from text and %s from the map", args, text.Output, fromMap.Output)
		}
	}
	// float64 numbers, as most providers' maps hold them.
	if res := tool.Execute(ctx, map[string]any{"n": float64(3), "f": 0.5}); res.IsError {
		t.Errorf("Execute(float64 numbers) = %s", res.Output)
	}
	if res := tool.Execute(ctx, map[string]any{"n": 2.5}); !res.IsError || res.Output != "invalid arguments: /n: expected integer, got 2.5" {
		t.Errorf("Execute(n: 2.5) = %q", res.Output)
	}
}

func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// TestNewToolLargeIntegers: integers are validated from their text, never
// rounded, and the handler gets them as sent.
func TestNewToolLargeIntegers(t *testing.T) {
	ctx := context.Background()
	tool, err := define.NewTool("ids", json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer","minimum":9007199254740993}}}`),
		func(_ context.Context, args json.RawMessage) (any, error) { return string(args), nil })
	if err != nil {
		t.Fatal(err)
	}
	if res := tool.ExecuteJSON(ctx, []byte(`{"id":9007199254740992}`)); !res.IsError || !strings.Contains(res.Output, "/id: expected integer >= 9007199254740993") {
		t.Errorf("2^53 against minimum 2^53+1: %q", res.Output)
	}
	const big = `{"id":123456789012345678901234567890}`
	if res := tool.ExecuteJSON(ctx, []byte(big)); res.IsError || res.Output != big {
		t.Errorf("a 30-digit id: %q, want the handler to get %s", res.Output, big)
	}
}

// TestNewToolDefineErrors: a keyword the validator cannot enforce is a
// define-time error naming it; WithoutValidation makes the tool anyway,
// checking only that arguments are one object.
func TestNewToolDefineErrors(t *testing.T) {
	ctx := context.Background()
	doc := json.RawMessage(`{"type":"object","properties":{"a":{"not":{"type":"string"}}}}`)
	var calls atomic.Int32
	_, err := define.NewTool("t", doc, countingEcho(&calls))
	var ke *schema.KeywordError
	if !errors.Is(err, schema.ErrUnsupportedKeyword) || !errors.As(err, &ke) || ke.Keyword != "not" || ke.Path != "/properties/a" ||
		!strings.Contains(err.Error(), `define: NewTool("t"): input schema: at "/properties/a": keyword not: `) || !strings.Contains(err.Error(), "WithoutValidation") {
		t.Fatalf("NewTool(not) = %v, want a KeywordError naming not at /properties/a", err)
	}
	tool, err := define.NewTool("t", doc, countingEcho(&calls), define.WithoutValidation())
	if err != nil {
		t.Fatal(err)
	}
	if res := tool.ExecuteJSON(ctx, []byte(`{"a":"x","b":1}`)); res.IsError {
		t.Errorf("WithoutValidation: %q, want the handler's result", res.Output)
	}
	if res := tool.ExecuteJSON(ctx, []byte(`[1]`)); !res.IsError || !strings.Contains(res.Output, "expected object, got [1]") {
		t.Errorf("WithoutValidation, an array: %q, want the one-object error", res.Output)
	}
	if _, err := define.NewTool("t", json.RawMessage(`{"type":"object","properties":{"a":{"type":"strin"}}}`), countingEcho(&calls)); !errors.Is(err, schema.ErrParse) {
		t.Errorf("NewTool(type strin) = %v, want ErrParse", err)
	}
	if got := define.WithoutValidation().String(); got != "WithoutValidation()" {
		t.Errorf("String() = %q", got)
	}
}

// TestNewToolExamplesValidated: examples, the tool's own or a hand-written
// schema's, must pass the validator.
func TestNewToolExamplesValidated(t *testing.T) {
	var calls atomic.Int32
	doc := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]}`)
	if _, err := define.NewTool("t", doc, countingEcho(&calls), define.WithExamples(map[string]int{"n": 0})); err == nil ||
		!strings.Contains(err.Error(), "examples[0] would be refused as arguments: /n: expected integer >= 1, got 0") {
		t.Errorf("an example below the minimum: %v", err)
	}
	if _, err := define.NewTool("t", json.RawMessage(`{"type":"object","required":["n"],"examples":[{}]}`), countingEcho(&calls)); err == nil {
		t.Error("a schema whose own example lacks a required key: no error")
	}
	if _, err := define.NewTool("t", doc, countingEcho(&calls), define.WithExamples(map[string]int{"n": 2})); err != nil {
		t.Errorf("a valid example: %v", err)
	}
}

// TestNewToolSplitValidates: DecodeJSON and DecodeMap, the two halves of a
// call, end a call with bad arguments in the first half.
func TestNewToolSplitValidates(t *testing.T) {
	ctx := context.Background()
	var calls atomic.Int32
	tool, err := define.NewTool("t", json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":false}`), countingEcho(&calls))
	if err != nil {
		t.Fatal(err)
	}
	var res define.Result
	if call := tool.DecodeJSON(ctx, []byte(`{"n":"x"}`), &res); call != nil || !res.IsError || res.Output != `invalid arguments: /n: expected integer, got "x"` {
		t.Errorf("DecodeJSON(bad) = %v, %+v", call, res)
	}
	if call := tool.DecodeMap(ctx, map[string]any{"m": 1}, &res); call != nil || !res.IsError || !strings.Contains(res.Output, "/m: expected no such property (allowed: n)") {
		t.Errorf("DecodeMap(bad) = %v, %+v", call, res)
	}
	call := tool.DecodeJSON(ctx, []byte(` {"n":1} `), &res)
	if call == nil {
		t.Fatalf("DecodeJSON(good) = nil, %+v", res)
	}
	if in, ok := call.Input().(json.RawMessage); !ok || string(in) != `{"n":1}` {
		t.Errorf("Input() = %v", call.Input())
	}
	call.Finish(ctx)
	if res.IsError || calls.Load() != 1 {
		t.Errorf("Finish: %+v, %d calls", res, calls.Load())
	}
}

// TestNewToolValidationLimits: the argument limits of a typed tool apply.
func TestNewToolValidationLimits(t *testing.T) {
	ctx := context.Background()
	var calls atomic.Int32
	tool, err := define.NewTool("t", json.RawMessage(`{"type":"object","properties":{"s":{"type":"string","pattern":"[a-z]{2,64}x"}}}`),
		countingEcho(&calls), define.WithMaxArgBytes(100), define.WithMaxPatternBytes(10))
	if err != nil {
		t.Fatal(err)
	}
	long := `{"s":"` + strings.Repeat("a", 200) + `"}`
	if res := tool.ExecuteJSON(ctx, []byte(long)); !res.IsError || !errors.Is(res.Err, define.ErrTooLarge) {
		t.Errorf("over WithMaxArgBytes: %q", res.Output)
	}
	if res := tool.Execute(ctx, map[string]any{"s": strings.Repeat("a", 200)}); !res.IsError || !errors.Is(res.Err, define.ErrTooLarge) {
		t.Errorf("map over WithMaxArgBytes: %q", res.Output)
	}
	if res := tool.ExecuteJSON(ctx, []byte(`{"s":"aaaaaaaaaaaax"}`)); !res.IsError || !strings.Contains(res.Output, "checked on strings of at most 10 bytes") {
		t.Errorf("over WithMaxPatternBytes: %q", res.Output)
	}
	deep := strings.Repeat(`{"a":`, 600) + `1` + strings.Repeat(`}`, 600)
	open, err := define.NewTool("o", json.RawMessage(`{"type":"object"}`), countingEcho(&calls), define.WithMaxArgBytes(-1))
	if err != nil {
		t.Fatal(err)
	}
	if res := open.ExecuteJSON(ctx, []byte(deep)); !res.IsError || !errors.Is(res.Err, define.ErrTooDeep) {
		t.Errorf("600 levels: %q", res.Output)
	}
	if calls.Load() != 0 {
		t.Errorf("the handler ran %d times on refused arguments", calls.Load())
	}
}
