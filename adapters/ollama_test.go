package adapters_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// Ollama results name their tool always and echo the call's id only where
// the server sent one.
func TestOllamaResults(t *testing.T) {
	calls := []adapters.Call{
		{Name: "get_weather", Args: rawJSON(`{"city":"Paris"}`)},
		{ID: "call_2", Name: "get_time", Args: rawJSON(`{}`)},
	}
	got, err := adapters.OllamaResults(calls, []define.Result{{Output: "sunny"}, {Output: "no clock", IsError: true}})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(got)
	want := `[{"role":"tool","tool_name":"get_weather","content":"sunny"},{"role":"tool","tool_name":"get_time","tool_call_id":"call_2","content":"error: no clock"}]`
	if string(data) != want {
		t.Errorf("OllamaResults:\n got %s\nwant %s", data, want)
	}
}

// The replay is the message as the next request needs it: arguments as an
// object, thinking and index kept, in the order sent.
func TestOllamaReplay(t *testing.T) {
	reply := `{"model":"m","message":{"role":"assistant","content":"","thinking":"hm","tool_calls":[{"function":{"index":0,"name":"f","arguments":{"b":1,"a":[true]}}}]},"done":true,"done_reason":"stop"}`
	turn, err := adapters.ParseOllamaReply([]byte(reply))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]adapters.Call{{Name: "f", Args: rawJSON(`{"b":1,"a":[true]}`)}}, turn.Calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	data, _ := json.Marshal(turn.Replay)
	want := `[{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{"b":1,"a":[true]},"index":0}}],"thinking":"hm"}]`
	if string(data) != want || turn.Stop != "stop" {
		t.Errorf("replay %s (stop %q), want %s", data, turn.Stop, want)
	}
}

func TestOllamaReplyShapes(t *testing.T) {
	for _, tc := range []struct {
		reply, sentinel, problem string
	}{
		{`{}`, "ErrReplyShape", `no "message"`},
		{`{"choices":[{"message":{"role":"assistant","content":"x"}}]}`, "ErrReplyShape", `no "message"`},
		{`{"message":{"role":"user","content":"x"},"done":true}`, "ErrReplyShape", "not assistant"},
		{`{"message":{"content":"x"},"done":true}`, "ErrReplyShape", "not assistant"},
		{`{"message":{"role":"assistant","tool_calls":{}},"done":true}`, "ErrReplyShape", "expected an array"},
		{`{"message":{"role":"assistant","tool_calls":[{"function":{"arguments":{}}}]},"done":true}`, "ErrReplyShape", "missing name"},
		{`{"message":{"role":"assistant","tool_calls":[{"id":"x"}]},"done":true}`, "ErrReplyShape", "no function"},
		{`{"message":{"role":"assistant","tool_calls":[{"function":{"name":"f","arguments":[1]}}]},"done":true}`, "ErrArguments", "expected a JSON object"},
		{`{"error":"boom"}`, "ErrProviderError", `"boom"`},
		{`{"error":{"message":"boom"}}`, "ErrReplyShape", "expected a string"},
	} {
		_, err := adapters.ParseOllamaReply([]byte(tc.reply))
		if !errors.Is(err, sentinels[tc.sentinel]) || !strings.Contains(err.Error(), tc.problem) {
			t.Errorf("ParseOllamaReply(%s): err = %v, want %s naming %q", tc.reply, err, tc.sentinel, tc.problem)
		}
	}
}

// The Ollama schema carries what Ollama's server keeps; every other
// constraint is in the description, and the decoder still enforces it.
func TestOllamaSchemaDescribesConstraints(t *testing.T) {
	type in struct {
		Q string `json:"q" minLength:"2" pattern:"^[a-z]+$"`
		N int    `json:"n" minimum:"1" maximum:"9"`
	}
	tool := define.MustDefineTool(func(_ context.Context, v in) (string, error) { return v.Q, nil }, define.WithName("search"))
	tools, err := adapters.ToOllama([]define.Tool{tool})
	if err != nil {
		t.Fatal(err)
	}
	params := string(tools[0].Function.Parameters)
	for _, kw := range []string{`"minLength"`, `"pattern"`, `"minimum"`, `"maximum"`} {
		if strings.Contains(params, kw) {
			t.Errorf("parameters keep %s, which Ollama drops: %s", kw, params)
		}
	}
	for _, note := range []string{"minLength: 2", "pattern: ^[a-z]+$", "minimum: 1", "maximum: 9"} {
		if !strings.Contains(params, note) {
			t.Errorf("parameters do not describe %q: %s", note, params)
		}
	}
	if r := tool.ExecuteJSON(context.Background(), []byte(`{"q":"a","n":0}`)); !r.IsError {
		t.Errorf("the decoder accepted arguments that break the described constraints: %s", r.Output)
	}
	if _, err := adapters.ToOllama([]define.Tool{tool}, adapters.Strict(true)); !errors.Is(err, adapters.ErrOption) {
		t.Errorf("ToOllama(Strict(true)): err = %v, want ErrOption", err)
	}
}

var _ = home("ollama", testHome{
	// A reply in its real shape (the fields a real reply has around the calls).
	benchReply: func(n int, args string) string {
		return repeatN(`{"model":"qwen3","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":"","thinking":"Weather first.","tool_calls":[`,
			`{"function":{"index":%d,"name":"get_weather","arguments":`+args+`}}`,
			`]},"done_reason":"stop","done":true,"total_duration":2104953125,"eval_count":61}`, n)
	},
	calls: []adapters.Call{ // no ids: the server sent none
		{Name: "get_weather", Args: fxWeather},
		{Name: "get_time", Args: fxTime},
		{Name: "list_cities", Args: fxNone},
	},
	results: func(c []adapters.Call, r []define.Result) (any, error) { return adapters.OllamaResults(c, r) },
	replay: func(t *testing.T, data []byte, add func(id, name string, args json.RawMessage, sig string)) {
		var msgs []struct {
			ToolCalls []struct {
				ID       string
				Function struct {
					Name      string
					Arguments json.RawMessage
				}
			} `json:"tool_calls"`
		}
		mustUnmarshal(t, data, &msgs)
		for _, m := range msgs {
			for _, c := range m.ToolCalls {
				add(c.ID, c.Function.Name, c.Function.Arguments, "")
			}
		}
	},
	schemas: chatSchemas,
	rules: func(string) schemaRule {
		base := keys(ollamaKeys, "Ollama")
		return func(t *testing.T, path string, node map[string]any, root bool) {
			base(t, path, node, root)
			if _, ok := node["$ref"]; ok {
				t.Errorf("Ollama: %s has a $ref (a property that is only a reference arrives empty; refs are inlined)", path)
			}
		}
	},
	closedRoot: true,
	variants: []variant{
		{"ollama_depth1", func(t []define.Tool) (any, error) { return adapters.ToOllama(t, adapters.MaxInlineDepth(1)) }},
	},
	missing:    `no "message"`,
	like:       "an Ollama /api/chat reply",
	otherShape: map[string]string{"mcp": "expected an object, got an array"},
})

// ollamaKeys: what Ollama's server keeps as it decodes a tool schema
// (additionalProperties is dropped there, harmlessly).
var ollamaKeys = only("type", "description", "enum", "properties", "items", "anyOf", "required", "additionalProperties", "const")
