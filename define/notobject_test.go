package define_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/define"
)

// TestNotAnObjectMessages: arguments text that is no JSON object gets one
// message from every kind of tool (typed, from a schema, without
// validation), which says so, quotes the text where it goes wrong with
// its offset, and never suggests sending null ("nope" once read as a
// misspelt null: "expected literal null").
func TestNotAnObjectMessages(t *testing.T) {
	type args struct {
		City string `json:"city"`
	}
	typed := define.MustDefineTool(func(context.Context, args) (string, error) { return "ok", nil }, define.WithName("typed"))
	doc := json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)
	echo := func(context.Context, json.RawMessage) (any, error) { return "ok", nil }
	schemaTool, err := define.NewTool("schema", doc, echo)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := define.NewTool("raw", doc, echo, define.WithoutValidation())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ args, want string }{
		{`nope`, `invalid arguments: not a JSON object: expected '{', got "nope" at offset 0`},
		{`  maybe`, `invalid arguments: not a JSON object: expected '{', got "maybe" at offset 2`},
		{"```json\n{\"city\":\"Oslo\"}\n```", "invalid arguments: not a JSON object: expected '{', got \"```json\\n{\\\"city\\\":\\\"Oslo\\\"}\\n\"… at offset 0"},
		{`{"city":"Oslo"} I'll call it now`, `invalid arguments: not a JSON object: expected nothing after the object, got "I'll call it now" at offset 16`},
		{`{"city":"Oslo"}{"city":"Rome"}`, `invalid arguments: not a JSON object: expected nothing after the object, got "{\"city\":\"Rome\"}" at offset 15`},
		{`{'city':'Oslo'}`, `invalid arguments: not a JSON object: expected string key, got "'city':'Oslo'}" at offset 1`},
		{`{"city":nope}`, `invalid arguments: not a JSON object: expected a JSON value, got "nope}" at offset 8`},
		{`{"city":"Oslo",}`, `invalid arguments: not a JSON object: expected string key, got "}" at offset 15`},
		{`null x`, `invalid arguments: not a JSON object: expected nothing after null, got "x" at offset 5`},
		{`"{\"city\":\"Oslo\"}"`, `invalid arguments: expected object, got "{\"city\":\"Oslo\"}"`},
		{`"paths": ['app.py', "`, `invalid arguments: not a JSON object: expected '{', got "\"paths\": ['app.py', \"" at offset 0`},
		{`[1, 2] and more`, `invalid arguments: not a JSON object: expected '{', got "[1, 2] and more" at offset 0`},
		{`[1, 2]`, `invalid arguments: expected object, got [1, 2]`},
	} {
		for _, tool := range []define.Tool{typed, schemaTool, raw} {
			res := tool.ExecuteJSON(context.Background(), []byte(tc.args))
			if !res.IsError || res.Output != tc.want {
				t.Errorf("%s.ExecuteJSON(%q) = %q, want %q", tool.Name(), tc.args, res.Output, tc.want)
			}
			if strings.Contains(res.Output, "null") && !strings.Contains(tc.args, "null") {
				t.Errorf("%s.ExecuteJSON(%q) = %q: suggests null", tool.Name(), tc.args, res.Output)
			}
			if !errors.Is(res.Err, define.ErrSyntax) && !errors.Is(res.Err, define.ErrType) {
				t.Errorf("%s.ExecuteJSON(%q): Err = %v, want ErrSyntax or ErrType", tool.Name(), tc.args, res.Err)
			}
		}
	}
}
