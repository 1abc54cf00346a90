package adapters_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// parsers are every provider's reply parser, by provider name.
var parsers = func() map[string]func([]byte) (adapters.Turn, error) {
	m := map[string]func([]byte) (adapters.Turn, error){}
	for _, p := range adapters.Providers() {
		m[p.Name()] = p.Parse
	}
	return m
}()

func rawJSON(s string) json.RawMessage { return json.RawMessage(s) }

func TestParseFixtures(t *testing.T) {
	for _, f := range replyFixtures {
		t.Run(f.provider, func(t *testing.T) {
			turn, err := parsers[f.provider]([]byte(f.reply))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if diff := cmp.Diff(testHomes[f.provider].calls, turn.Calls); diff != "" {
				t.Errorf("calls mismatch (-want +got):\n%s", diff)
			}
			if len(turn.Replay) == 0 {
				t.Errorf("Replay is empty")
			}
			for i, r := range turn.Replay {
				if _, err := json.Marshal(r); err != nil {
					t.Errorf("Replay[%d] does not marshal: %v", i, err)
				}
			}
		})
	}
}

// TestParseVariants covers the other accepted forms of each reply and the
// argument normalisations.
func TestParseVariants(t *testing.T) {
	tests := []struct {
		name      string
		provider  string
		reply     string
		wantCalls []adapters.Call
		wantText  string
		wantStop  string
	}{
		{
			name:      "openai message alone",
			provider:  "openai",
			reply:     `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}`,
			wantCalls: []adapters.Call{{ID: "c1", Name: "f", Args: rawJSON(`{"a":1}`)}},
		},
		{
			name:      "openai blank arguments text is {}",
			provider:  "openai",
			reply:     `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"  \n "}}]}`,
			wantCalls: []adapters.Call{{ID: "c1", Name: "f", Args: rawJSON(`{}`)}},
		},
		{
			name:      "openai null arguments text is {}",
			provider:  "openai",
			reply:     `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"null"}}]}`,
			wantCalls: []adapters.Call{{ID: "c1", Name: "f", Args: rawJSON(`{}`)}},
		},
		{
			name:      "openai absent arguments are {}",
			provider:  "openai",
			reply:     `{"role":"assistant","tool_calls":[{"id":"c1","function":{"name":"f"}}]}`,
			wantCalls: []adapters.Call{{ID: "c1", Name: "f", Args: rawJSON(`{}`)}},
		},
		{
			name:      "openai arguments object instead of text (Ollama native)",
			provider:  "openai",
			reply:     `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":{"a": [1, 2]}}}]}`,
			wantCalls: []adapters.Call{{ID: "c1", Name: "f", Args: rawJSON(`{"a":[1,2]}`)}},
		},
		{
			name:      "openai big integer kept exact",
			provider:  "openai",
			reply:     `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"n\":9007199254740993}"}}]}`,
			wantCalls: []adapters.Call{{ID: "c1", Name: "f", Args: rawJSON(`{"n":9007199254740993}`)}},
		},
		{
			name:     "openai final text",
			provider: "openai",
			reply:    `{"choices":[{"message":{"role":"assistant","content":"Sunny, 21C."},"finish_reason":"stop"}]}`,
			wantText: "Sunny, 21C.",
			wantStop: "stop",
		},
		{
			name:     "openai content parts",
			provider: "openai",
			reply:    `{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`,
			wantText: "ab",
		},
		{
			name:      "responses output array alone",
			provider:  "openai-responses",
			reply:     `[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":""}]`,
			wantCalls: []adapters.Call{{ID: "call_1", Name: "f", Args: rawJSON(`{}`)}},
		},
		{
			name:     "responses final text",
			provider: "openai-responses",
			reply:    `{"status":"completed","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Sunny."}]}]}`,
			wantText: "Sunny.",
			wantStop: "completed",
		},
		{
			name:      "anthropic absent input is {}",
			provider:  "anthropic",
			reply:     `{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f"}]}`,
			wantCalls: []adapters.Call{{ID: "t1", Name: "f", Args: rawJSON(`{}`)}},
		},
		{
			name:     "anthropic server tool makes no call",
			provider: "anthropic",
			reply:    `{"role":"assistant","content":[{"type":"server_tool_use","id":"srv1","name":"web_search","input":{"query":"x"}},{"type":"text","text":"Done."}],"stop_reason":"end_turn"}`,
			wantText: "Done.",
			wantStop: "end_turn",
		},
		{
			name:      "gemini content alone, thought text excluded",
			provider:  "gemini",
			reply:     `{"role":"model","parts":[{"text":"thinking...","thought":true},{"text":"Checking."},{"functionCall":{"name":"f","args":{"a":1}},"thoughtSignature":"sig"}]}`,
			wantCalls: []adapters.Call{{Name: "f", Args: rawJSON(`{"a":1}`), ThoughtSignature: "sig"}},
			wantText:  "Checking.",
		},
		{
			name:     "gemini final text",
			provider: "gemini",
			reply:    `{"candidates":[{"content":{"role":"model","parts":[{"text":"Sunny."}]},"finishReason":"STOP"}]}`,
			wantText: "Sunny.",
			wantStop: "STOP",
		},
		{
			name:      "bedrock message alone",
			provider:  "bedrock",
			reply:     `{"role":"assistant","content":[{"toolUse":{"toolUseId":"tu1","name":"f","input":{"a":1}}}]}`,
			wantCalls: []adapters.Call{{ID: "tu1", Name: "f", Args: rawJSON(`{"a":1}`)}},
		},
		{
			name:     "bedrock final text",
			provider: "bedrock",
			reply:    `{"output":{"message":{"role":"assistant","content":[{"text":"Sunny."}]}},"stopReason":"end_turn"}`,
			wantText: "Sunny.",
			wantStop: "end_turn",
		},
		{
			name:      "mcp params alone",
			provider:  "mcp",
			reply:     `{"name":"f","arguments":{"a":1}}`,
			wantCalls: []adapters.Call{{Name: "f", Args: rawJSON(`{"a":1}`)}},
		},
		{
			name:      "mcp one request",
			provider:  "mcp",
			reply:     `{"jsonrpc":"2.0","id":"x-1","method":"tools/call","params":{"name":"f","arguments":null}}`,
			wantCalls: []adapters.Call{{ID: `"x-1"`, Name: "f", Args: rawJSON(`{}`)}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turn, err := parsers[tt.provider]([]byte(tt.reply))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if diff := cmp.Diff(tt.wantCalls, turn.Calls); diff != "" {
				t.Errorf("calls mismatch (-want +got):\n%s", diff)
			}
			if turn.Text != tt.wantText {
				t.Errorf("Text = %q, want %q", turn.Text, tt.wantText)
			}
			if turn.Stop != tt.wantStop {
				t.Errorf("Stop = %q, want %q", turn.Stop, tt.wantStop)
			}
		})
	}
}

func TestParseMalformed(t *testing.T) {
	tests := []struct {
		name     string
		provider string
		reply    string
		want     error  // the sentinel
		path     string // ReplyError.Path
	}{
		// Not JSON, for every provider.
		{"openai not json", "openai", `{"choices": [`, adapters.ErrNotJSON, ""},
		{"responses not json", "openai-responses", `<html>502 Bad Gateway</html>`, adapters.ErrNotJSON, ""},
		{"anthropic not json", "anthropic", ``, adapters.ErrNotJSON, ""},
		{"gemini not json", "gemini", `{"candidates":[]}}`, adapters.ErrNotJSON, ""},
		{"bedrock not json", "bedrock", `{'output': 1}`, adapters.ErrNotJSON, ""},
		{"mcp not json", "mcp", `tools/call`, adapters.ErrNotJSON, ""},

		// Wrong shape.
		{"openai array", "openai", `[1,2]`, adapters.ErrReplyShape, ""},
		{"openai choices not array", "openai", `{"choices":{"message":{}}}`, adapters.ErrReplyShape, "/choices"},
		{"openai no choices", "openai", `{"choices":[]}`, adapters.ErrReplyShape, "/choices"},
		{"openai no message", "openai", `{"choices":[{"finish_reason":"stop"}]}`, adapters.ErrReplyShape, "/choices/0"},
		{"openai tool_calls string", "openai", `{"role":"assistant","tool_calls":"f"}`, adapters.ErrReplyShape, "/tool_calls"},
		{"openai tool call not object", "openai", `{"role":"assistant","tool_calls":[42]}`, adapters.ErrReplyShape, "/tool_calls/0"},
		{"openai user role", "openai", `{"role":"user","content":"hi"}`, adapters.ErrReplyShape, "/role"},
		{"openai missing name", "openai", `{"tool_calls":[{"id":"c1","type":"function","function":{"arguments":"{}"}}]}`, adapters.ErrReplyShape, "/tool_calls/0/function/name"},
		{"openai legacy function_call", "openai", `{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{}"}}`, adapters.ErrReplyShape, "/function_call"},
		{"openai custom tool call", "openai", `{"tool_calls":[{"id":"c1","type":"custom","custom":{"name":"f","input":"x"}}]}`, adapters.ErrReplyShape, "/tool_calls/0/type"},
		{"openai name not string", "openai", `{"tool_calls":[{"id":"c1","type":"function","function":{"name":7}}]}`, adapters.ErrReplyShape, "/tool_calls/0/function/name"},
		{"responses number", "openai-responses", `42`, adapters.ErrReplyShape, ""},
		{"responses no output", "openai-responses", `{"id":"resp_1","status":"failed"}`, adapters.ErrReplyShape, ""},
		{"responses missing call_id", "openai-responses", `{"output":[{"type":"function_call","id":"fc_1","name":"f","arguments":"{}"}]}`, adapters.ErrReplyShape, "/output/0/call_id"},
		{"responses item without type", "openai-responses", `[{"call_id":"c"}]`, adapters.ErrReplyShape, "/0/type"},
		{"anthropic error object", "anthropic", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, adapters.ErrProviderError, "/error"},
		{"anthropic content missing", "anthropic", `{"role":"assistant"}`, adapters.ErrReplyShape, "/content"},
		{"anthropic content string", "anthropic", `{"role":"assistant","content":"hi"}`, adapters.ErrReplyShape, "/content"},
		{"anthropic tool_use without id", "anthropic", `{"content":[{"type":"tool_use","name":"f","input":{}}]}`, adapters.ErrReplyShape, "/content/0/id"},
		{"gemini neither candidates nor parts", "gemini", `{"usageMetadata":{"promptTokenCount":4}}`, adapters.ErrReplyShape, ""},
		{"gemini blocked", "gemini", `{"candidates":[{"finishReason":"SAFETY"}]}`, adapters.ErrReplyShape, "/candidates/0"},
		{"gemini parts not array", "gemini", `{"role":"model","parts":{}}`, adapters.ErrReplyShape, "/parts"},
		{"gemini functionCall without name", "gemini", `{"role":"model","parts":[{"functionCall":{"args":{}}}]}`, adapters.ErrReplyShape, "/parts/0/functionCall/name"},
		{"bedrock no message", "bedrock", `{"output":{},"stopReason":"end_turn"}`, adapters.ErrReplyShape, "/output"},
		{"bedrock toolUse without id", "bedrock", `{"role":"assistant","content":[{"toolUse":{"name":"f","input":{}}}]}`, adapters.ErrReplyShape, "/content/0/toolUse/toolUseId"},
		{"mcp other method", "mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, adapters.ErrReplyShape, "/method"},
		{"mcp notification", "mcp", `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"f"}}`, adapters.ErrReplyShape, "/id"},
		{"mcp empty batch", "mcp", `[]`, adapters.ErrReplyShape, ""},
		{"mcp batch bad entry", "mcp", `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f"}},{"jsonrpc":"2.0","id":2,"method":"tools/call"}]`, adapters.ErrReplyShape, "/1/params"},
		{"mcp params without name", "mcp", `{"arguments":{}}`, adapters.ErrReplyShape, "/name"},

		// Arguments that are not in the provider's shape. (An arguments
		// text that is not one JSON object makes a malformed call, not an
		// error: TestMalformedCalls.)
		{"openai arguments number", "openai", `{"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":3}}]}`, adapters.ErrArguments, "/tool_calls/0/function/arguments"},
		{"anthropic input string", "anthropic", `{"content":[{"type":"tool_use","id":"t","name":"f","input":"{\"a\":1}"}]}`, adapters.ErrArguments, "/content/0/input"},
		{"gemini args array", "gemini", `{"role":"model","parts":[{"functionCall":{"name":"f","args":[1]}}]}`, adapters.ErrArguments, "/parts/0/functionCall/args"},
		{"bedrock input number", "bedrock", `{"role":"assistant","content":[{"toolUse":{"toolUseId":"t","name":"f","input":1}}]}`, adapters.ErrArguments, "/content/0/toolUse/input"},
		{"mcp arguments string", "mcp", `{"name":"f","arguments":"a=1"}`, adapters.ErrArguments, "/arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turn, err := parsers[tt.provider]([]byte(tt.reply))
			if err == nil {
				t.Fatalf("parse(%s) = %+v, want an error", tt.reply, turn)
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("parse(%s) error = %v, want errors.Is %v", tt.reply, err, tt.want)
			}
			var re *adapters.ReplyError
			if !errors.As(err, &re) {
				t.Fatalf("parse(%s) error %T is not a *ReplyError", tt.reply, err)
			}
			if re.Provider != tt.provider {
				t.Errorf("Provider = %q, want %q", re.Provider, tt.provider)
			}
			if re.Path != tt.path {
				t.Errorf("Path = %q, want %q (error: %v)", re.Path, tt.path, err)
			}
			if re.Problem == "" {
				t.Errorf("Problem is empty")
			}
		})
	}
}

// resultRenderers render results for every provider as JSON.

func TestResultsCountMismatch(t *testing.T) {
	calls := []adapters.Call{{ID: "a", Name: "f", Args: rawJSON(`{}`)}, {ID: "b", Name: "g", Args: rawJSON(`{}`)}}
	for name, render := range resultRenderers {
		for _, n := range []int{0, 1, 3} {
			if _, err := render(calls, make([]define.Result, n)); !errors.Is(err, adapters.ErrResultCount) {
				t.Errorf("%s results for 2 calls and %d results: error = %v, want ErrResultCount", name, n, err)
			}
		}
	}
	if _, err := adapters.MCPResponses(calls, nil); !errors.Is(err, adapters.ErrResultCount) {
		t.Errorf("MCPResponses(2 calls, 0 results) error = %v, want ErrResultCount", err)
	}
}

func TestResultsCallID(t *testing.T) {
	calls := []adapters.Call{{Name: "f", Args: rawJSON(`{}`)}}
	results := []define.Result{{Output: "ok"}}
	needID := map[string]bool{"openai": true, "openai-responses": true, "anthropic": true, "bedrock": true, "mistral": true}
	for name, render := range resultRenderers {
		_, err := render(calls, results)
		if needID[name] && !errors.Is(err, adapters.ErrCallID) {
			t.Errorf("%s results for a call without id: error = %v, want ErrCallID", name, err)
		}
		if !needID[name] && err != nil {
			t.Errorf("%s results for a call without id: error = %v, want nil", name, err)
		}
	}
	if _, err := adapters.MCPResponses(calls, results); !errors.Is(err, adapters.ErrCallID) {
		t.Errorf("MCPResponses(call without id) error = %v, want ErrCallID", err)
	}
}

func TestResultsEmptyBatch(t *testing.T) {
	for name, render := range resultRenderers {
		got, err := render(nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := json.Marshal(got)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(data) == "null" || json.Valid(data) && containsNull(data) {
			t.Errorf("%s results for no calls = %s: a null where a list belongs", name, data)
		}
	}
}

func containsNull(data []byte) bool {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return false
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case nil:
			return true
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case map[string]any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// TestResultEdgeCases checks the rendering rules the goldens do not show.
func TestResultEdgeCases(t *testing.T) {
	call := []adapters.Call{{ID: "id1", Name: "f", Args: rawJSON(`{}`)}}
	tests := []struct {
		name     string
		provider string
		result   define.Result
		want     string // the rendered JSON
	}{
		{"openai error prefixed", "openai", define.Result{Output: "boom", IsError: true},
			`[{"role":"tool","tool_call_id":"id1","content":"error: boom"}]`},
		{"openai empty output", "openai", define.Result{},
			`[{"role":"tool","tool_call_id":"id1","content":""}]`},
		{"responses error prefixed", "openai-responses", define.Result{Output: "boom", IsError: true},
			`[{"type":"function_call_output","call_id":"id1","output":"error: boom"}]`},
		{"anthropic empty output omits content", "anthropic", define.Result{},
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"id1","is_error":false}]}`},
		{"anthropic error without message", "anthropic", define.Result{IsError: true},
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"id1","content":"the tool failed without a message","is_error":true}]}`},
		{"gemini array output kept as JSON", "gemini", define.Result{Output: `[1,2]`},
			`{"role":"user","parts":[{"functionResponse":{"id":"id1","name":"f","response":{"output":[1,2]}}}]}`},
		{"gemini scalar JSON output stays a string", "gemini", define.Result{Output: `42`},
			`{"role":"user","parts":[{"functionResponse":{"id":"id1","name":"f","response":{"output":"42"}}}]}`},
		{"gemini invalid JSON output is a string", "gemini", define.Result{Output: `{not json`},
			`{"role":"user","parts":[{"functionResponse":{"id":"id1","name":"f","response":{"output":"{not json"}}}]}`},
		{"gemini empty output", "gemini", define.Result{},
			`{"role":"user","parts":[{"functionResponse":{"id":"id1","name":"f","response":{"output":""}}}]}`},
		{"bedrock empty output never empty content", "bedrock", define.Result{},
			`{"role":"user","content":[{"toolResult":{"toolUseId":"id1","content":[{"text":"(no output)"}],"status":"success"}}]}`},
		{"bedrock error without message", "bedrock", define.Result{IsError: true},
			`{"role":"user","content":[{"toolResult":{"toolUseId":"id1","content":[{"text":"the tool failed without a message"}],"status":"error"}}]}`},
		{"bedrock array output is text", "bedrock", define.Result{Output: `[1]`},
			`{"role":"user","content":[{"toolResult":{"toolUseId":"id1","content":[{"text":"[1]"}],"status":"success"}}]}`},
		{"mcp map value is structured", "mcp", define.Result{Output: `{"a":1}`, Value: map[string]int{"a": 1}},
			`[{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a":1},"isError":false}]`},
		{"mcp slice value is not structured", "mcp", define.Result{Output: `[1]`, Value: []int{1}},
			`[{"content":[{"type":"text","text":"[1]"}],"isError":false}]`},
		{"mcp error drops value", "mcp", define.Result{Output: "bad", IsError: true, Value: map[string]int{"a": 1}},
			`[{"content":[{"type":"text","text":"bad"}],"isError":true}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resultRenderers[tt.provider](call, []define.Result{tt.result})
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != tt.want {
				t.Errorf("rendered\n got %s\nwant %s", data, tt.want)
			}
		})
	}
}

func TestMCPResponsesEchoID(t *testing.T) {
	calls, err := parseCalls(adapters.ParseMCPReply, []byte(`[{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"f"}},{"jsonrpc":"2.0","id":"seven","method":"tools/call","params":{"name":"f"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	calls = append(calls, adapters.Call{ID: "by-hand", Name: "f"})
	resps, err := adapters.MCPResponses(calls, []define.Result{{Output: "a"}, {Output: "b"}, {Output: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(resps)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"a"}],"isError":false}},` +
		`{"jsonrpc":"2.0","id":"seven","result":{"content":[{"type":"text","text":"b"}],"isError":false}},` +
		`{"jsonrpc":"2.0","id":"by-hand","result":{"content":[{"type":"text","text":"c"}],"isError":false}}]`
	if string(data) != want {
		t.Errorf("MCPResponses =\n%s\nwant\n%s", data, want)
	}
}

// TestReplayKeepsWhatMustSurvive checks the replayed turn keeps the pieces
// providers reject a history without.
func TestReplayKeepsWhatMustSurvive(t *testing.T) {
	tests := []struct {
		provider string
		contains []string
		excludes []string
	}{
		{"openai", []string{`"tool_calls":[`, `"arguments":""`, `"content":null`}, []string{"refusal", "annotations"}},
		{"openai-responses", []string{`"type":"reasoning"`, `"encrypted_content":"gAAAAB..."`, `"call_id":"call_w1"`}, nil},
		{"anthropic", []string{`"signature":"EqQBCgIYAhIM"`, `"type":"thinking"`, `"input":{"city":"Paris","days":2}`}, nil},
		{"gemini", []string{`"thoughtSignature":"CiQBVKhc7k1Q"`, `"role":"model"`}, []string{"candidates"}},
		{"bedrock", []string{`"toolUseId":"tooluse_w1"`, `"role":"assistant"`}, []string{"stopReason"}},
	}
	for _, tt := range tests {
		t.Run(tt.provider, func(t *testing.T) {
			var reply string
			for _, f := range replyFixtures {
				if f.provider == tt.provider {
					reply = f.reply
				}
			}
			turn, err := parsers[tt.provider]([]byte(reply))
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(turn.Replay)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.contains {
				if !jsonContains(data, s) {
					t.Errorf("Replay %s lacks %s", data, s)
				}
			}
			for _, s := range tt.excludes {
				if jsonContains(data, s) {
					t.Errorf("Replay %s has %s", data, s)
				}
			}
		})
	}
}

func jsonContains(data []byte, s string) bool { return strings.Contains(string(data), s) }

// parseCalls returns the calls of a parsed reply.
func parseCalls(parse func([]byte) (adapters.Turn, error), reply []byte) ([]adapters.Call, error) {
	t, err := parse(reply)
	return t.Calls, err
}

func TestReplyLimits(t *testing.T) {
	deep := strings.Repeat(`[`, 600) + strings.Repeat(`]`, 600)
	deepArgs := `{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":"{\"a\":` + strings.Repeat(`[`, 600) + strings.Repeat(`]`, 600) + `}"}}]}`
	big := `{"role":"assistant","content":"` + strings.Repeat("x", 2000) + `"}`
	tests := []struct {
		name   string
		limits adapters.ReplyLimits
		reply  string
		path   string
	}{
		{"default depth", adapters.ReplyLimits{}, `{"role":"model","parts":[{"functionCall":{"name":"f","args":{"a":` + deep + `}}}]}`, "/parts/0/functionCall/args/a/0/0" + strings.Repeat("/0", 241) + "/..."},
		{"depth inside an arguments text", adapters.ReplyLimits{}, deepArgs, "/tool_calls/0/function/arguments"},
		{"set depth", adapters.ReplyLimits{MaxDepth: 3}, `{"role":"assistant","content":[{"type":"text","text":"a","x":{}}]}`, "/content/0/x"},
		{"set size", adapters.ReplyLimits{MaxBytes: 1000}, big, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parse := tt.limits.ParseOpenAIReply
			if strings.Contains(tt.reply, `"model"`) {
				parse = tt.limits.ParseGeminiReply
			}
			_, err := parse([]byte(tt.reply))
			var re *adapters.ReplyError
			if !errors.Is(err, adapters.ErrReplyLimit) || !errors.As(err, &re) {
				t.Fatalf("error = %v, want ErrReplyLimit", err)
			}
			if re.Path != tt.path {
				t.Errorf("Path = %q, want %q (%v)", re.Path, tt.path, err)
			}
		})
	}
	// Within the limits, the same replies parse.
	if _, err := (adapters.ReplyLimits{MaxBytes: 4000}).ParseOpenAIReply([]byte(big)); err != nil {
		t.Errorf("a 2 KB reply under MaxBytes 4000: %v", err)
	}
	if _, err := (adapters.ReplyLimits{MaxDepth: 700}).ParseOpenAIReply([]byte(deepArgs)); err != nil {
		t.Errorf("600-deep arguments under MaxDepth 700: %v", err)
	}
}

// TestOpenAIMadeIDs: calls sent without ids get ids made from the reply:
// the same for the same reply, unique in it, different from the ids sent,
// and the same in the calls, the replay and the results.
func TestOpenAIMadeIDs(t *testing.T) {
	reply := []byte(`{"role":"assistant","tool_calls":[
		{"id":"","type":"function","function":{"name":"f","arguments":"{}"}},
		{"type":"function","function":{"name":"f","arguments":"{}"}},
		{"id":"call_2_5bc6d3e2","type":"function","function":{"name":"g","arguments":"{}"}}]}`)
	first, err := adapters.ParseOpenAIReply(reply)
	if err != nil {
		t.Fatal(err)
	}
	again, err := adapters.ParseOpenAIReply(reply)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first.Calls, again.Calls); diff != "" {
		t.Errorf("ids differ between two parses (-first +again):\n%s", diff)
	}
	seen := map[string]bool{}
	for _, c := range first.Calls {
		if c.ID == "" || seen[c.ID] {
			t.Errorf("call id %q is empty or repeated in %+v", c.ID, first.Calls)
		}
		seen[c.ID] = true
	}
	replay := first.Replay[0].(adapters.OpenAIAssistantMessage)
	results, err := adapters.OpenAIResults(first.Calls, []define.Result{{Output: "a"}, {Output: "b"}, {Output: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range first.Calls {
		if replay.ToolCalls[i].ID != c.ID || results[i].ToolCallID != c.ID {
			t.Errorf("call %d: id %q, replay %q, result %q", i, c.ID, replay.ToolCalls[i].ID, results[i].ToolCallID)
		}
	}
	if first.Calls[2].ID != "call_2_5bc6d3e2" {
		t.Errorf("a sent id was changed: %q", first.Calls[2].ID)
	}
}

func TestOpenAIReplayExtra(t *testing.T) {
	reply := []byte(`{"role":"assistant","content":null,"refusal":null,"annotations":[],"audio":null,"reasoning_content":"think",` +
		`"x_vendor": {"a" : [1, 2]},"tool_calls":[{"id":"c1","type":"function","index":0,"function":{"name":"f","arguments":"{}","x_fn":true},` +
		`"extra_content":{"google":{"thought_signature":"sig=="}}}]}`)
	turn, err := adapters.ParseOpenAIReply(reply)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(turn.Replay)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}","x_fn":true},` +
		`"extra_content":{"google":{"thought_signature":"sig=="}}}],"reasoning_content":"think","x_vendor":{"a":[1,2]}}]`
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("replay mismatch (-want +got):\n%s", diff)
	}
	// Extra set by hand must be an object.
	bad := adapters.OpenAIAssistantMessage{Role: "assistant", Content: rawJSON("null"), Extra: rawJSON(`[1]`)}
	if _, err := json.Marshal(bad); err == nil {
		t.Errorf("Marshal with Extra [1]: no error")
	}
}

func TestParseMoreClasses(t *testing.T) {
	tests := []struct {
		name     string
		provider string
		reply    string
		want     error // nil: parses
		path     string
	}{
		{"responses server tool_search", "openai-responses", `[{"type":"tool_search_call","id":"ts","execution":"server","status":"completed"}]`, nil, ""},
		{"responses unknown item with call_id", "openai-responses", `[{"type":"future_call","id":"x","call_id":"c9"}]`, adapters.ErrReplyShape, "/0"},
		{"responses tool_search_output with call_id", "openai-responses", `[{"type":"tool_search_call","id":"ts","call_id":"c1","execution":"server"},{"type":"tool_search_output","id":"to","call_id":"c1","execution":"server","tools":[]}]`, nil, ""},
		{"responses unknown item without call_id", "openai-responses", `[{"type":"future_server_item","id":"x"}]`, nil, ""},
		{"responses duplicate call_id", "openai-responses", `[{"type":"function_call","call_id":"c","name":"f","arguments":""},{"type":"function_call","call_id":"c","name":"g","arguments":""}]`, adapters.ErrReplyShape, "/1/call_id"},
		{"bedrock unknown toolUse type", "bedrock", `{"role":"assistant","content":[{"toolUse":{"toolUseId":"t","name":"f","type":"other","input":{}}}]}`, adapters.ErrReplyShape, "/content/0/toolUse/type"},
		{"bedrock duplicate toolUseId", "bedrock", `{"role":"assistant","content":[{"toolUse":{"toolUseId":"t","name":"f"}},{"toolUse":{"toolUseId":"t","name":"g"}}]}`, adapters.ErrReplyShape, "/content/1/toolUse/toolUseId"},
		{"anthropic duplicate id", "anthropic", `{"content":[{"type":"tool_use","id":"t","name":"f"},{"type":"tool_use","id":"t","name":"g"}]}`, adapters.ErrReplyShape, "/content/1/id"},
		{"anthropic error without error object", "anthropic", `{"type":"error"}`, adapters.ErrProviderError, ""},
		{"gemini content alone without parts", "gemini", `{"role":"model","parts":[]}`, adapters.ErrReplyShape, "/parts"},
		{"gemini stream without parts", "gemini", `[{"candidates":[]}]`, adapters.ErrReplyShape, ""},
		{"gemini content not object", "gemini", `{"candidates":[{"content":"x"}]}`, adapters.ErrReplyShape, "/candidates/0/content"},
		{"mcp error in batch", "mcp", `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f"}},{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}]`, adapters.ErrProviderError, "/1/error"},
		{"mcp string and number ids differ", "mcp", `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f"}},{"jsonrpc":"2.0","id":"1","method":"tools/call","params":{"name":"f"}}]`, nil, ""},
		{"mcp escaped string ids are equal", "mcp", `[{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"f"}},{"jsonrpc":"2.0","id":"\u0061","method":"tools/call","params":{"name":"f"}}]`, adapters.ErrReplyShape, "/1/id"},
		{"escaped key is the key", "openai", `{"role":"assistant","tool_calls":[{"id":"c","function":{"n\u0061me":"f","name":"g"}}]}`, adapters.ErrReplyShape, "/tool_calls/0/function"},
		{"long s folds to s as in encoding/json", "anthropic", `{"content":[],"\u017ftop_reason":"end_turn"}`, adapters.ErrReplyShape, ""},
		{"an unrelated key is kept", "anthropic", `{"content":[],"stop_sequence":null,"Kind":1}`, nil, ""},
		{"invalid UTF-8", "anthropic", "{\"content\":[{\"type\":\"text\",\"text\":\"\xff\"}]}", adapters.ErrNotJSON, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parsers[tt.provider]([]byte(tt.reply))
			if tt.want == nil {
				if err != nil {
					t.Fatalf("parse: %v", err)
				}
				return
			}
			var re *adapters.ReplyError
			if !errors.Is(err, tt.want) || !errors.As(err, &re) {
				t.Fatalf("error = %v, want %v", err, tt.want)
			}
			if re.Path != tt.path {
				t.Errorf("Path = %q, want %q (%v)", re.Path, tt.path, err)
			}
		})
	}
}

// TestParseGeminiStream parses streams of Gemini responses (one JSON array,
// as streamGenerateContent sends without alt=sse) into the one turn of the
// stream, and checks what makes a stream an error and where the error
// points.
func TestParseGeminiStream(t *testing.T) {
	const (
		letMe = `{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me "}]}}]}`
		check = `{"candidates":[{"content":{"role":"model","parts":[{"text":"check."},{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"c2ln"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":9,"totalTokenCount":20}}`
		usage = `{"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":4,"totalTokenCount":13}}`
	)
	weather := adapters.Call{Name: "get_weather", Args: rawJSON(`{"city":"Paris"}`), ThoughtSignature: "c2ln"}
	tests := []struct {
		name      string
		reply     string
		wantCalls []adapters.Call
		wantText  string
		wantStop  string
		replay    string // Turn.Replay[0], byte for byte
	}{
		{
			name:      "text then a call",
			reply:     `[` + letMe + `,` + check + `]`,
			wantCalls: []adapters.Call{weather},
			wantText:  "Let me check.",
			wantStop:  "STOP",
			replay:    `{"role":"model","parts":[{"text":"Let me "},{"text":"check."},{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"c2ln"}]}`,
		},
		{
			name: "a signature on an empty text part in the last chunk stays in place",
			reply: `[{"candidates":[{"content":{"role":"model","parts":[{"text":"plan","thought":true}]}}]},
				{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"a","name":"f"},"thoughtSignature":"s1"}]}}]},
				{"candidates":[{"content":{"role":"model","parts":[{"text":"Done"},{"text":"","thoughtSignature":"s2"}]},"finishReason":"STOP"}]}]`,
			wantCalls: []adapters.Call{{ID: "a", Name: "f", Args: rawJSON(`{}`), ThoughtSignature: "s1"}},
			wantText:  "Done",
			wantStop:  "STOP",
			replay:    `{"role":"model","parts":[{"text":"plan","thought":true},{"functionCall":{"id":"a","name":"f"},"thoughtSignature":"s1"},{"text":"Done"},{"text":"","thoughtSignature":"s2"}]}`,
		},
		{
			name:     "a finishReason-only chunk, then a usage-only chunk",
			reply:    `[` + letMe + `,{"candidates":[{"content":{"role":"model"},"finishReason":"STOP","index":0}]},` + usage + `]`,
			wantText: "Let me ",
			wantStop: "STOP",
			replay:   `{"role":"model","parts":[{"text":"Let me "}]}`,
		},
		{
			name: "parts are kept as sent, without space, never re-encoded",
			reply: "[ {\"candidates\": [ {\"content\": {\"role\": \"model\", \"parts\": [ {\"text\" : \"caf\\u00e9  \\\"x\\\" \\/ <&>\"} ,\n" +
				"{\"text\": \"\", \"thoughtSignature\": \"a+b/c==\"} ] } } ] } ,\n {\"candidates\": [ {\"content\": {\"parts\": [ { \"functionCall\": {\"name\": \"f\", \"args\": {\"n\": 12345678901234567890} } } ] }, \"finishReason\": \"STOP\" } ] } ]",
			wantCalls: []adapters.Call{{Name: "f", Args: rawJSON(`{"n":12345678901234567890}`)}},
			wantText:  "café  \"x\" / <&>",
			wantStop:  "STOP",
			replay:    `{"role":"model","parts":[{"text":"caf\u00e9  \"x\" \/ <&>"},{"text":"","thoughtSignature":"a+b/c=="},{"functionCall":{"name":"f","args":{"n":12345678901234567890}}}]}`,
		},
		{
			name:     "the last finishReason is the stop; one with parts is kept as a single response keeps it",
			reply:    `[{"candidates":[{"content":{"parts":[{"text":"a"}]},"finishReason":"OTHER"}]},{"candidates":[{"content":{"parts":[{"text":"b"}]},"finishReason":"SAFETY"}]}]`,
			wantText: "ab",
			wantStop: "SAFETY",
			replay:   `{"role":"model","parts":[{"text":"a"},{"text":"b"}]}`,
		},
		{
			name:     "MAX_TOKENS in a last chunk without parts",
			reply:    `[` + letMe + `,{"candidates":[{"finishReason":"MAX_TOKENS"}]}]`,
			wantText: "Let me ",
			wantStop: "MAX_TOKENS",
			replay:   `{"role":"model","parts":[{"text":"Let me "}]}`,
		},
		{
			name:     "empty candidates and feedback without blockReason are tolerated",
			reply:    `[{"promptFeedback":{"safetyRatings":[]}},{"candidates":[]},{"candidates":null},` + letMe + `]`,
			wantText: "Let me ",
			replay:   `{"role":"model","parts":[{"text":"Let me "}]}`,
		},
		{
			name:      "model contents alone",
			reply:     `[{"role":"model","parts":[{"text":"a"}]},{"parts":[{"functionCall":{"id":"x","name":"f","args":{"a":1}}}]}]`,
			wantCalls: []adapters.Call{{ID: "x", Name: "f", Args: rawJSON(`{"a":1}`)}},
			wantText:  "a",
			replay:    `{"role":"model","parts":[{"text":"a"},{"functionCall":{"id":"x","name":"f","args":{"a":1}}}]}`,
		},
		{
			name:      "one response in an array",
			reply:     `[` + check + `]`,
			wantCalls: []adapters.Call{weather},
			wantText:  "check.",
			wantStop:  "STOP",
			replay:    `{"role":"model","parts":[{"text":"check."},{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"c2ln"}]}`,
		},
		{
			name: "calls in several chunks, in order",
			reply: `[{"candidates":[{"content":{"parts":[{"functionCall":{"id":"1","name":"f"}},{"functionCall":{"id":"2","name":"g"}}]}}]},` +
				`{"candidates":[{"content":{"parts":[{"functionCall":{"id":"3","name":"h","args":{}}}]},"finishReason":"STOP"}]}]`,
			wantCalls: []adapters.Call{{ID: "1", Name: "f", Args: rawJSON(`{}`)}, {ID: "2", Name: "g", Args: rawJSON(`{}`)}, {ID: "3", Name: "h", Args: rawJSON(`{}`)}},
			wantStop:  "STOP",
			replay:    `{"role":"model","parts":[{"functionCall":{"id":"1","name":"f"}},{"functionCall":{"id":"2","name":"g"}},{"functionCall":{"id":"3","name":"h","args":{}}}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, parse := range []func([]byte) (adapters.Turn, error){adapters.ParseGeminiReply, adapters.ReplyLimits{}.ParseGeminiReply} {
				turn, err := parse([]byte(tt.reply))
				if err != nil {
					t.Fatalf("parse: %v", err)
				}
				if diff := cmp.Diff(tt.wantCalls, turn.Calls); diff != "" {
					t.Errorf("calls mismatch (-want +got):\n%s", diff)
				}
				if turn.Text != tt.wantText || turn.Stop != tt.wantStop {
					t.Errorf("Text, Stop = %q, %q, want %q, %q", turn.Text, turn.Stop, tt.wantText, tt.wantStop)
				}
				if len(turn.Replay) != 1 {
					t.Fatalf("Replay has %d entries, want 1", len(turn.Replay))
				}
				if got, ok := turn.Replay[0].(json.RawMessage); !ok || string(got) != tt.replay {
					t.Errorf("Replay[0] = %T %s\nwant %s", turn.Replay[0], turn.Replay[0], tt.replay)
				}
				if diff := cmp.Diff(turn.Calls, callsFromReplay(t, "gemini", turn.Replay), jsonValues, ignoreMarks); diff != "" {
					t.Errorf("calls and replay disagree (-calls +replay):\n%s", diff)
				}
			}
		})
	}
}

func TestParseGeminiStreamErrors(t *testing.T) {
	const (
		letMe  = `{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me "}]}}]}`
		apiErr = `{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}`
	)
	tests := []struct {
		name    string
		reply   string
		want    error
		path    string
		problem string // a part of ReplyError.Problem
	}{
		{"empty array", `[]`, adapters.ErrReplyShape, "", "empty array"},
		{"empty array with space", "[ \n ]", adapters.ErrReplyShape, "", "empty array"},
		{"only empty chunks", `[{"candidates":[{"content":{"role":"model","parts":[]}}]},{"candidates":[{"content":{}}]},{"usageMetadata":{}}]`, adapters.ErrReplyShape, "", "no parts"},
		{"only a finishReason", `[{"candidates":[{"content":{"role":"model"}}]},{"candidates":[{"finishReason":"STOP"}]}]`, adapters.ErrReplyShape, "/1/candidates/0/finishReason", `finishReason "STOP"`},
		{"blocked last chunk", `[` + letMe + `,{"candidates":[{"content":{},"finishReason":"SAFETY","finishMessage":"Unsafe."}]},{"usageMetadata":{}}]`, adapters.ErrReplyShape, "/1/candidates/0/finishReason", `no content (finishReason "SAFETY": "Unsafe.")`},
		{"malformed call last", `[` + letMe + `,{"candidates":[{"finishReason":"MALFORMED_FUNCTION_CALL"}]}]`, adapters.ErrReplyShape, "/1/candidates/0/finishReason", `"MALFORMED_FUNCTION_CALL"`},
		{"blocked prompt", `[{"promptFeedback":{"blockReason":"SAFETY","blockReasonMessage":"No."}}]`, adapters.ErrReplyShape, "/0/promptFeedback/blockReason", `blockReason "SAFETY": "No."`},
		{"blocked prompt after text", `[` + letMe + `,{"promptFeedback":{"blockReason":"OTHER"}}]`, adapters.ErrReplyShape, "/1/promptFeedback/blockReason", `blockReason "OTHER"`},
		{"duplicate call ids across chunks", `[{"candidates":[{"content":{"parts":[{"functionCall":{"id":"c","name":"f"}}]}}]},{"candidates":[{"content":{"parts":[{"text":"x"},{"functionCall":{"id":"c","name":"g"}}]}}]}]`, adapters.ErrReplyShape, "/1/candidates/0/content/parts/1/functionCall/id", `call id "c" is used by an earlier call`},
		{"error in the middle", `[` + letMe + `,` + apiErr + `,` + letMe + `]`, adapters.ErrProviderError, "/1/error", "The model is overloaded."},
		{"error after a bad chunk", `[{"candidates":[{"content":{"role":"user","parts":[{"text":"x"}]}}]},` + apiErr + `]`, adapters.ErrProviderError, "/1/error", "UNAVAILABLE"},
		{"case-variant key after a bad chunk", `[7,{"Candidates":[]}]`, adapters.ErrReplyShape, "/1", `key "Candidates"`},
		{"user role in a chunk", `[` + letMe + `,{"candidates":[{"content":{"role":"user","parts":[{"text":"x"}]}}]}]`, adapters.ErrReplyShape, "/1/candidates/0/content/role", `role is "user"`},
		{"user role in a content alone", `[{"role":"user","parts":[{"text":"x"}]}]`, adapters.ErrReplyShape, "/0/role", `role is "user"`},
		{"not a response", `[` + letMe + `,"data: {}"]`, adapters.ErrReplyShape, "/1", "expected a response, got a string"},
		{"candidates not an array", `[{"candidates":{}}]`, adapters.ErrReplyShape, "/0/candidates", "expected an array"},
		{"candidate not an object", `[{"candidates":[[]]}]`, adapters.ErrReplyShape, "/0/candidates/0", "expected an object"},
		{"content not an object", `[{"candidates":[{"content":[]}]}]`, adapters.ErrReplyShape, "/0/candidates/0/content", "expected an object"},
		{"parts not an array", `[` + letMe + `,{"candidates":[{"content":{"parts":{}}}]}]`, adapters.ErrReplyShape, "/1/candidates/0/content/parts", "expected an array"},
		{"call without name", `[` + letMe + `,` + letMe + `,{"candidates":[{"content":{"parts":[{"functionCall":{"args":{}}}]}}]}]`, adapters.ErrReplyShape, "/2/candidates/0/content/parts/0/functionCall/name", "missing name"},
		{"signature not a string", `[{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f"},"thoughtSignature":1}]}}]}]`, adapters.ErrReplyShape, "/0/candidates/0/content/parts/0/thoughtSignature", "expected a string"},
		{"args not an object", `[` + letMe + `,{"parts":[{"functionCall":{"name":"f","args":[1]}}]}]`, adapters.ErrArguments, "/1/parts/0/functionCall/args", "expected a JSON object"},
		{"finishReason not a string", `[` + letMe + `,{"candidates":[{"finishReason":1}]}]`, adapters.ErrReplyShape, "/1/candidates/0/finishReason", "expected a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turn, err := adapters.ParseGeminiReply([]byte(tt.reply))
			var re *adapters.ReplyError
			if !errors.Is(err, tt.want) || !errors.As(err, &re) {
				t.Fatalf("parse = %+v, %v; want %v", turn, err, tt.want)
			}
			if re.Path != tt.path || re.Provider != "gemini" || !strings.Contains(re.Problem, tt.problem) {
				t.Errorf("error %q at %q, want %q at %q", re.Problem, re.Path, tt.problem, tt.path)
			}
		})
	}
}

// TestParseGeminiStreamLimits: the limits apply to the whole stream, which
// adds one level of nesting to its responses.
func TestParseGeminiStreamLimits(t *testing.T) {
	chunk := `{"candidates":[{"content":{"role":"model","parts":[{"text":"0123456789"}]}}]}`
	reply := []byte(`[` + strings.Repeat(chunk+`,`, 99) + chunk + `]`)
	turn, err := adapters.ReplyLimits{MaxBytes: len(reply), MaxDepth: 7}.ParseGeminiReply(reply)
	if err != nil {
		t.Fatalf("a stream at the limits: %v", err)
	}
	if turn.Text != strings.Repeat("0123456789", 100) {
		t.Errorf("Text = %q, want 100 chunks' text", turn.Text)
	}
	for _, tt := range []struct {
		name   string
		limits adapters.ReplyLimits
		path   string
	}{
		{"one byte past MaxBytes", adapters.ReplyLimits{MaxBytes: len(reply) - 1}, ""},
		{"one level past MaxDepth", adapters.ReplyLimits{MaxDepth: 6}, "/0/candidates/0/content/parts/0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.limits.ParseGeminiReply(reply)
			var re *adapters.ReplyError
			if !errors.Is(err, adapters.ErrReplyLimit) || !errors.As(err, &re) {
				t.Fatalf("error = %v, want ErrReplyLimit", err)
			}
			if re.Path != tt.path {
				t.Errorf("Path = %q, want %q (%v)", re.Path, tt.path, err)
			}
		})
	}
}

// ollamaChatReply is an Ollama native /api/chat reply: no provider's
// parser here reads it.
const ollamaChatReply = `{"model":"llama3.2","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":"hi"},"done":true,"done_reason":"stop"}`

// TestParseOtherShapes gives every parser the other providers' replies
// (their tool-call fixtures), an empty object and an Ollama reply: each
// is an error wrapping ErrReplyShape that names what the reply lacks (or
// the key of another type it has), never an empty turn.
func TestParseOtherShapes(t *testing.T) {
	type input struct{ name, reply, like string }
	inputs := []input{
		{"empty object", `{}`, "an empty object"},
		{"ollama", ollamaChatReply, "an Ollama /api/chat reply"},
	}
	for _, f := range replyFixtures {
		inputs = append(inputs, input{f.provider, f.reply, testHomes[f.provider].like})
	}
	for parser, parse := range parsers {
		for _, in := range inputs {
			if in.name == parser || adapters.SameShape(parser, in.name) {
				continue // a provider of the same shape reads it (TestSameShape)
			}
			t.Run(parser+"/"+in.name, func(t *testing.T) {
				turn, err := parse([]byte(in.reply))
				if err == nil {
					t.Fatalf("parse = %+v, want an error", turn)
				}
				if !errors.Is(err, adapters.ErrReplyShape) {
					t.Fatalf("error %v does not wrap ErrReplyShape", err)
				}
				var re *adapters.ReplyError
				if !errors.As(err, &re) || re.Provider != parser {
					t.Fatalf("error %#v is not a ReplyError of %s", err, parser)
				}
				h := testHomes[parser]
				wants := []string{h.missing, "(it looks like " + in.like + ")"}
				if w, ok := h.otherShape[in.name]; ok {
					wants = []string{w}
				}
				for _, want := range wants {
					if !strings.Contains(re.Problem, want) {
						t.Errorf("Problem %q does not say %q", re.Problem, want)
					}
				}
			})
		}
	}
}

// TestNoCallsIsNil: a reply without calls gives nil Calls, also when it
// held blocks that looked like calls and were skipped.
func TestNoCallsIsNil(t *testing.T) {
	for _, c := range []struct{ provider, reply string }{
		{"bedrock", `{"output":{"message":{"content":[{"toolUse":{"type":"server_tool_use"}}]}}}`},
		{"bedrock", `{"output":{"message":{"role":"assistant","content":[{"text":"hi"}]}}}`},
		{"anthropic", `{"type":"message","role":"assistant","content":[{"type":"text","text":"hi"}]}`},
		{"openai", `{"choices":[{"message":{"role":"assistant","content":"hi","tool_calls":[]}}]}`},
	} {
		turn, err := parsers[c.provider]([]byte(c.reply))
		if err != nil {
			t.Errorf("%s %s: %v", c.provider, c.reply, err)
			continue
		}
		if turn.Calls != nil {
			t.Errorf("%s %s: Calls = %#v, want nil", c.provider, c.reply, turn.Calls)
		}
	}
}

// TestGeminiTextPartSignature: a thoughtSignature that is not a string is
// refused on a text part as on a call's part, with its path.
func TestGeminiTextPartSignature(t *testing.T) {
	for _, reply := range []string{
		`{"role":"model","parts":[{"text":"hi","thoughtSignature":{"a":1}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"x"},{"text":"hi","thoughtSignature":[1]}]}}]}`,
		`[{"candidates":[{"content":{"role":"model","parts":[{"text":"hi","thoughtSignature":7}]}}]}]`,
	} {
		_, err := adapters.ParseGeminiReply([]byte(reply))
		if !errors.Is(err, adapters.ErrReplyShape) || !strings.Contains(err.Error(), "/thoughtSignature") {
			t.Errorf("%s: err = %v, want ErrReplyShape at its thoughtSignature", reply, err)
		}
	}
	if _, err := adapters.ParseGeminiReply([]byte(`{"role":"model","parts":[{"text":"hi","thoughtSignature":"c2ln"}]}`)); err != nil {
		t.Errorf("a string signature: %v", err)
	}
}

// TestCallsOwnTheirMemory: the calls of one reply are cut from shared
// chunks, not from the reply; writing over the reply, appending to one
// call's Args, or writing over them, changes no other call's Args, no id
// or name, and (where the replay keeps its own copy, as OpenAI Chat's
// arguments texts) not the replay.
func TestCallsOwnTheirMemory(t *testing.T) {
	for _, pr := range adapters.Providers() {
		name := pr.Name()
		t.Run(name, func(t *testing.T) {
			for _, args := range []string{plainArgs, escapedArgs, plainArgs + " compact", escapedArgs + " compact"} {
				reply := []byte(testHomes[name].benchReply(200, strings.TrimSuffix(args, " compact")))
				if strings.HasSuffix(args, " compact") {
					var b bytes.Buffer
					if err := json.Compact(&b, reply); err != nil {
						t.Fatal(err)
					}
					reply = b.Bytes()
				}
				turn, err := parsers[name](reply)
				if err != nil {
					t.Fatal(err)
				}
				if len(turn.Calls) != 200 {
					t.Fatalf("%d calls, want 200", len(turn.Calls))
				}
				type seen struct{ id, name, args string }
				before := make([]seen, len(turn.Calls))
				for i, c := range turn.Calls {
					before[i] = seen{c.ID, c.Name, string(c.Args)}
				}
				replay, err := json.Marshal(turn.Replay)
				if err != nil {
					t.Fatal(err)
				}
				for i := range reply {
					reply[i] = 'X'
				}
				if again, _ := json.Marshal(turn.Replay); string(again) != string(replay) {
					t.Fatal("writing over the reply changed the replay")
				}
				for i := range turn.Calls {
					_ = append(turn.Calls[i].Args, `,"x":1}`...)
				}
				if again, _ := json.Marshal(turn.Replay); string(again) != string(replay) {
					t.Fatal("appending to Args changed the replay")
				}
				for i := range turn.Calls {
					if i%2 == 0 {
						a := turn.Calls[i].Args
						for k := range a {
							a[k] = ' '
						}
					}
				}
				for i, c := range turn.Calls {
					got := seen{c.ID, c.Name, string(c.Args)}
					if i%2 == 0 {
						got.args = before[i].args
					}
					if got != before[i] {
						t.Fatalf("call %d changed: %+v, want %+v", i, got, before[i])
					}
				}
				if name == adapters.NameOpenAI {
					if again, _ := json.Marshal(turn.Replay); string(again) != string(replay) {
						t.Fatal("writing over Args changed the replay")
					}
				}
			}
		})
	}
}
