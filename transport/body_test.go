package transport_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/transport"
)

// bodyRun is one provider's two-step run: the reply with a call of
// get_weather, then the reply with the answer's text.
type bodyRun struct {
	ep            func() *transport.Endpoint
	history       string // the body's history member
	call, answer  string
	system, model bool // the body carries them (in its history, for system)
	maxTokens     string
}

var bodyRuns = map[string]bodyRun{
	"openai": {func() *transport.Endpoint { return transport.OpenAI("k") }, "messages",
		`{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"choices":[{"index":0,"message":{"role":"assistant","content":"4C in Oslo."},"finish_reason":"stop"}]}`, true, true, "max_completion_tokens"},
	"groq": {func() *transport.Endpoint {
		return transport.OpenAICompatible(adapters.ForOpenAI(adapters.Server(adapters.Groq)), "https://api.groq.com/openai/v1", "k")
	}, "messages",
		`{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"choices":[{"index":0,"message":{"role":"assistant","content":"4C in Oslo."},"finish_reason":"stop"}]}`, true, true, "max_tokens"},
	"mistral": {func() *transport.Endpoint { return transport.Mistral("k") }, "messages",
		`{"choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"id":"abc123XYZ","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"choices":[{"index":0,"message":{"role":"assistant","content":"4C in Oslo."},"finish_reason":"stop"}]}`, true, true, "max_tokens"},
	"openai-responses": {func() *transport.Endpoint { return transport.OpenAIResponses("k") }, "input",
		`{"object":"response","status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}","status":"completed"}]}`,
		`{"object":"response","status":"completed","output":[{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"4C in Oslo.","annotations":[]}]}]}`, false, true, "max_output_tokens"},
	"anthropic": {func() *transport.Endpoint { return transport.Anthropic("k") }, "messages",
		`{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}}],"stop_reason":"tool_use"}`,
		`{"type":"message","role":"assistant","content":[{"type":"text","text":"4C in Oslo."}],"stop_reason":"end_turn"}`, false, true, "max_tokens"},
	"gemini": {func() *transport.Endpoint { return transport.Gemini("k", "gemini-2.5-flash") }, "contents",
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Oslo"}}}]},"finishReason":"STOP"}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"4C in Oslo."}]},"finishReason":"STOP"}]}`, false, false, ""},
	"bedrock": {func() *transport.Endpoint { return transport.Bedrock("us-east-1", "anthropic.claude-sonnet-4-5", nil) }, "messages",
		`{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"tu_1","name":"get_weather","input":{"city":"Oslo"}}}]}},"stopReason":"tool_use"}`,
		`{"output":{"message":{"role":"assistant","content":[{"text":"4C in Oslo."}]}},"stopReason":"end_turn"}`, false, false, ""},
	"ollama": {func() *transport.Endpoint { return transport.Ollama("") }, "messages",
		`{"model":"llama3.1","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Oslo"}}}]},"done":true}`,
		`{"model":"llama3.1","message":{"role":"assistant","content":"4C in Oslo."},"done":true}`, true, true, ""},
}

type cityArgs struct {
	City string `json:"city"`
}

// TestBodyEndToEnd sends, for every provider, the bodies of a two-step
// run built with adapters.NewBody through the provider's Endpoint to a
// test server, which checks each: the exact bytes the Body wrote, the
// model, the tools, the maximum, and the history grown by the step's
// replay and results.
func TestBodyEndToEnd(t *testing.T) {
	weather, err := define.DefineTool(func(_ context.Context, a cityArgs) (string, error) { return "4C in " + a.City, nil },
		define.WithName("get_weather"), define.WithDescription("The weather in a city."))
	if err != nil {
		t.Fatal(err)
	}
	for name, run := range bodyRuns {
		t.Run(name, func(t *testing.T) {
			var want [][]byte // the bodies built, in order
			step := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got, _ := io.ReadAll(r.Body)
				if step >= len(want) || !bytes.Equal(got, want[step]) {
					t.Errorf("request %d is not the body built:\n%s", step, got)
				}
				var m map[string]json.RawMessage
				if err := json.Unmarshal(got, &m); err != nil {
					t.Errorf("request %d: %v", step, err)
				}
				var hist []json.RawMessage
				if err := json.Unmarshal(m[run.history], &hist); err != nil {
					t.Errorf("request %d: %s: %v", step, run.history, err)
				}
				wantLen := map[bool]int{true: 1}[run.system] + 1 + 2*step // system, prompt, then replay and results
				if len(hist) != wantLen {
					t.Errorf("request %d: %d entries in %s, want %d", step, len(hist), run.history, wantLen)
				}
				if !strings.Contains(string(m["tools"])+string(m["toolConfig"]), `"get_weather"`) {
					t.Errorf("request %d: no tools: %s", step, got)
				}
				if _, ok := m["model"]; ok != run.model {
					t.Errorf("request %d: model member %v, want %v", step, ok, run.model)
				}
				if run.maxTokens != "" && string(m[run.maxTokens]) != "256" {
					t.Errorf("request %d: %s = %s", step, run.maxTokens, m[run.maxTokens])
				}
				if step == 0 {
					io.WriteString(w, run.call)
				} else {
					io.WriteString(w, run.answer)
				}
				step++
			}))
			defer srv.Close()
			ep := run.ep().Rebase(srv.URL)
			p := ep.Provider
			body, err := adapters.NewBody(p, adapters.Request{Model: "model-x", System: "Be terse.",
				Tools: []define.Tool{weather}, MaxTokens: 256})
			if err != nil {
				t.Fatal(err)
			}
			if err := body.Append(p.Prompt("Weather in Oslo?")...); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			for {
				b := body.Bytes()
				want = append(want, b)
				turn, err := ep.Send(ctx, b)
				if err != nil {
					t.Fatal(err)
				}
				if len(turn.Calls) == 0 {
					if turn.Text != "4C in Oslo." {
						t.Fatalf("text %q", turn.Text)
					}
					break
				}
				if len(want) > 2 {
					t.Fatal("more steps than replies")
				}
				results, err := p.Results(turn.Calls, []define.Result{{Output: "4C in " + strings.Trim(string(turn.Calls[0].Args[8:]), `"}`)}})
				if err != nil {
					t.Fatal(err)
				}
				if err := body.Append(append(turn.Replay, results...)...); err != nil {
					t.Fatal(err)
				}
			}
			if step != 2 {
				t.Fatalf("%d requests, want 2", step)
			}
		})
	}
}
