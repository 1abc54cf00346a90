package adapters_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

type cityArgs struct {
	City string `json:"city"`
}

type cityWeather struct {
	TempC int    `json:"temp_c"`
	Sky   string `json:"sky"`
}

type zoneArgs struct {
	Zone string `json:"zone"`
}

// exampleReplies are each provider's scripted model: turn 1 calls
// get_weather and get_time, turn 2 calls get_weather again, then the model
// answers (the MCP client just stops).
var exampleReplies = []struct {
	provider adapters.Provider
	replies  []string
}{
	{adapters.ForOpenAI(), []string{
		`{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},{"id":"c2","type":"function","function":{"name":"get_time","arguments":"{\"zone\":\"Europe/Paris\"}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c3","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Atlantis\"}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"choices":[{"message":{"role":"assistant","content":"Sunny, 21C, 14:05."},"finish_reason":"stop"}]}`,
	}},
	{adapters.ForOpenAIResponses(), []string{
		`{"status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"c1","name":"get_weather","arguments":"{\"city\":\"Paris\"}"},{"type":"function_call","id":"fc_2","call_id":"c2","name":"get_time","arguments":"{\"zone\":\"Europe/Paris\"}"}]}`,
		`{"status":"completed","output":[{"type":"function_call","id":"fc_3","call_id":"c3","name":"get_weather","arguments":"{\"city\":\"Atlantis\"}"}]}`,
		`{"status":"completed","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Sunny, 21C, 14:05."}]}]}`,
	}},
	{adapters.ForAnthropic(), []string{
		`{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"get_weather","input":{"city":"Paris"}},{"type":"tool_use","id":"t2","name":"get_time","input":{"zone":"Europe/Paris"}}],"stop_reason":"tool_use"}`,
		`{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"t3","name":"get_weather","input":{"city":"Atlantis"}}],"stop_reason":"tool_use"}`,
		`{"type":"message","role":"assistant","content":[{"type":"text","text":"Sunny, 21C, 14:05."}],"stop_reason":"end_turn"}`,
	}},
	{adapters.ForGemini(), []string{
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"sig1"},{"functionCall":{"name":"get_time","args":{"zone":"Europe/Paris"}}}]},"finishReason":"STOP"}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"g3","name":"get_weather","args":{"city":"Atlantis"}},"thoughtSignature":"sig2"}]},"finishReason":"STOP"}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"Sunny, 21C, 14:05."}]},"finishReason":"STOP"}]}`,
	}},
	{adapters.ForBedrock(), []string{
		`{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"b1","name":"get_weather","input":{"city":"Paris"}}},{"toolUse":{"toolUseId":"b2","name":"get_time","input":{"zone":"Europe/Paris"}}}]}},"stopReason":"tool_use"}`,
		`{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"b3","name":"get_weather","input":{"city":"Atlantis"}}}]}},"stopReason":"tool_use"}`,
		`{"output":{"message":{"role":"assistant","content":[{"text":"Sunny, 21C, 14:05."}]}},"stopReason":"end_turn"}`,
	}},
	{adapters.ForMCP(), []string{
		`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Paris"}}},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_time","arguments":{"zone":"Europe/Paris"}}}]`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Atlantis"}}}`,
	}},
}

func exampleToolkit() *toolnexus.Toolkit {
	weather := define.MustDefineTool(func(_ context.Context, in cityArgs) (cityWeather, error) {
		if in.City != "Paris" {
			return cityWeather{}, fmt.Errorf("no station in %s", in.City)
		}
		return cityWeather{TempC: 21, Sky: "sunny"}, nil
	}, define.WithName("get_weather"), define.WithDescription("Current weather for a city"))
	clock := define.MustDefineTool(func(_ context.Context, in zoneArgs) (string, error) {
		return "14:05", nil
	}, define.WithName("get_time"), define.WithDescription("Local time in a time zone"))
	tk, err := toolnexus.NewToolkit(weather, clock)
	if err != nil {
		panic(err)
	}
	return tk
}

// agentLoop is an agent loop written once against Provider. next is the model:
// it gets the request's tools and history and returns the reply, or nil
// when it has nothing more to send.
func agentLoop(ctx context.Context, p adapters.Provider, tk *toolnexus.Toolkit, next func(tools any, history []any) []byte, onResults func(turn int, entries []any)) (string, error) {
	tools, err := p.Tools(tk.Tools())
	if err != nil {
		return "", err
	}
	history := p.Prompt("Weather and time in Paris?")
	for turn := 1; turn <= 8; turn++ {
		reply := next(tools, history)
		if reply == nil {
			return "", nil
		}
		t, err := p.Parse(reply)
		if err != nil {
			return "", err
		}
		history = append(history, t.Replay...)
		if len(t.Calls) == 0 {
			return t.Text, nil
		}
		results := tk.Run(ctx, t.Calls)
		entries, err := p.Results(t.Calls, results)
		if err != nil {
			return "", err
		}
		onResults(turn, entries)
		history = append(history, entries...)
	}
	return "", fmt.Errorf("no answer")
}

// ExampleProvider drives one agent loop, written once against Provider,
// through two tool-calling turns with a scripted model for every provider,
// and prints the results each provider is sent back.
func ExampleProvider() {
	ctx := context.Background()
	tk := exampleToolkit()
	for _, s := range exampleReplies {
		replies := s.replies
		next := func(tools any, history []any) []byte {
			if len(replies) == 0 {
				return nil
			}
			r := replies[0]
			replies = replies[1:]
			return []byte(r)
		}
		fmt.Println(s.provider.Name())
		text, err := agentLoop(ctx, s.provider, tk, next, func(turn int, entries []any) {
			data, _ := json.Marshal(entries)
			fmt.Printf("  turn %d: %s\n", turn, data)
		})
		if err != nil {
			fmt.Println("  error:", err)
			continue
		}
		fmt.Printf("  final: %q\n", text)
	}
	// Output:
	// openai
	//   turn 1: [{"role":"tool","tool_call_id":"c1","content":"{\"temp_c\":21,\"sky\":\"sunny\"}"},{"role":"tool","tool_call_id":"c2","content":"14:05"}]
	//   turn 2: [{"role":"tool","tool_call_id":"c3","content":"error: no station in Atlantis"}]
	//   final: "Sunny, 21C, 14:05."
	// openai-responses
	//   turn 1: [{"type":"function_call_output","call_id":"c1","output":"{\"temp_c\":21,\"sky\":\"sunny\"}"},{"type":"function_call_output","call_id":"c2","output":"14:05"}]
	//   turn 2: [{"type":"function_call_output","call_id":"c3","output":"error: no station in Atlantis"}]
	//   final: "Sunny, 21C, 14:05."
	// anthropic
	//   turn 1: [{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"{\"temp_c\":21,\"sky\":\"sunny\"}","is_error":false},{"type":"tool_result","tool_use_id":"t2","content":"14:05","is_error":false}]}]
	//   turn 2: [{"role":"user","content":[{"type":"tool_result","tool_use_id":"t3","content":"no station in Atlantis","is_error":true}]}]
	//   final: "Sunny, 21C, 14:05."
	// gemini
	//   turn 1: [{"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"output":{"temp_c":21,"sky":"sunny"}}}},{"functionResponse":{"name":"get_time","response":{"output":"14:05"}}}]}]
	//   turn 2: [{"role":"user","parts":[{"functionResponse":{"id":"g3","name":"get_weather","response":{"error":"no station in Atlantis"}}}]}]
	//   final: "Sunny, 21C, 14:05."
	// bedrock
	//   turn 1: [{"role":"user","content":[{"toolResult":{"toolUseId":"b1","content":[{"json":{"temp_c":21,"sky":"sunny"}}],"status":"success"}},{"toolResult":{"toolUseId":"b2","content":[{"text":"14:05"}],"status":"success"}}]}]
	//   turn 2: [{"role":"user","content":[{"toolResult":{"toolUseId":"b3","content":[{"text":"no station in Atlantis"}],"status":"error"}}]}]
	//   final: "Sunny, 21C, 14:05."
	// mcp
	//   turn 1: [{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"temp_c\":21,\"sky\":\"sunny\"}"}],"structuredContent":{"temp_c":21,"sky":"sunny"},"isError":false}},{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"14:05"}],"isError":false}}]
	//   turn 2: [{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"no station in Atlantis"}],"isError":true}}]
	//   final: ""
}

// TestProviderHistory checks, for every provider, the history the loop
// builds: the prompt, then per turn the replayed model turn followed by the
// results, with every call id answered.
func TestProviderHistory(t *testing.T) {
	tk := exampleToolkit()
	wantNames := []string{"openai", "openai-responses", "anthropic", "gemini", "bedrock", "mcp"}
	for i, s := range exampleReplies {
		if got := s.provider.Name(); got != wantNames[i] {
			t.Errorf("Name() = %q, want %q", got, wantNames[i])
		}
		t.Run(s.provider.Name(), func(t *testing.T) {
			replies := s.replies
			var lastHistory []any
			next := func(tools any, history []any) []byte {
				lastHistory = history
				if len(replies) == 0 {
					return nil
				}
				r := replies[0]
				replies = replies[1:]
				return []byte(r)
			}
			if _, err := agentLoop(context.Background(), s.provider, tk, next, func(int, []any) {}); err != nil {
				t.Fatal(err)
			}
			// The model's last request holds the prompt (none for MCP), then
			// per turn the replayed model turn and the results.
			want := map[string]int{
				"openai":           1 + (1 + 2) + (1 + 1), // assistant message, one tool message per call
				"openai-responses": 1 + (2 + 2) + (1 + 1), // one item per call and per result
				"anthropic":        1 + (1 + 1) + (1 + 1),
				"gemini":           1 + (1 + 1) + (1 + 1),
				"bedrock":          1 + (1 + 1) + (1 + 1),
				"mcp":              0 + (2 + 2) + (1 + 1), // the requests and the responses
			}[s.provider.Name()]
			data, err := json.Marshal(lastHistory)
			if err != nil {
				t.Fatal(err)
			}
			if len(lastHistory) != want {
				t.Errorf("history has %d entries, want %d: %s", len(lastHistory), want, data)
			}
			// Every call id is in the history twice: in the replayed call
			// and in its result.
			ids := map[string][]string{
				"openai":           {`"c1"`, `"c2"`, `"c3"`},
				"openai-responses": {`"c1"`, `"c2"`, `"c3"`},
				"anthropic":        {`"t1"`, `"t2"`, `"t3"`},
				"gemini":           {`"g3"`, `"sig1"`, `"sig2"`}, // ids when sent; signatures replayed once
				"bedrock":          {`"b1"`, `"b2"`, `"b3"`},
				"mcp":              {`"id":1,`, `"id":2,`, `"id":3,`},
			}[s.provider.Name()]
			for _, id := range ids {
				n, want := strings.Count(string(data), id), 2
				if strings.HasPrefix(id, `"sig`) {
					want = 1
				}
				if n != want {
					t.Errorf("%s appears %d times in the history, want %d: %s", id, n, want, data)
				}
			}
		})
	}
}

func TestProviderCallsMatchesParse(t *testing.T) {
	for _, s := range exampleReplies {
		calls, err := s.provider.Calls([]byte(s.replies[0]))
		if err != nil {
			t.Fatalf("%s: %v", s.provider.Name(), err)
		}
		turn, err := s.provider.Parse([]byte(s.replies[0]))
		if err != nil {
			t.Fatalf("%s: %v", s.provider.Name(), err)
		}
		if len(calls) != 2 || len(turn.Calls) != 2 || calls[0].Name != "get_weather" || calls[1].Name != "get_time" {
			t.Errorf("%s: Calls = %+v, Parse calls = %+v", s.provider.Name(), calls, turn.Calls)
		}
	}
}

func TestProviderToolsOptions(t *testing.T) {
	tk := exampleToolkit()
	if _, err := adapters.ForGemini(adapters.GeminiJSONSchema()).Tools(tk.Tools()); err != nil {
		t.Errorf("ForGemini(GeminiJSONSchema()).Tools: %v", err)
	}
	// An option that does not apply to the provider is the renderer's error.
	if _, err := adapters.ForBedrock(adapters.GeminiJSONSchema()).Tools(tk.Tools()); err == nil {
		t.Errorf("ForBedrock(GeminiJSONSchema()).Tools: no error, want the option rejected")
	}
}

func TestWithReplyLimits(t *testing.T) {
	reply := []byte(`{"choices":[{"message":{"role":"assistant","content":"` + strings.Repeat("x", 100) + `"},"finish_reason":"stop"}]}`)
	p := adapters.ForOpenAI()
	if _, err := p.Parse(reply); err != nil {
		t.Fatalf("default limits: %v", err)
	}
	limited := adapters.WithReplyLimits(p, adapters.ReplyLimits{MaxBytes: 64})
	if limited.Name() != adapters.NameOpenAI {
		t.Errorf("Name = %q", limited.Name())
	}
	if _, err := limited.Parse(reply); !errors.Is(err, adapters.ErrReplyLimit) {
		t.Errorf("Parse over MaxBytes: error = %v, want ErrReplyLimit", err)
	}
	if _, err := limited.Calls(reply); !errors.Is(err, adapters.ErrReplyLimit) {
		t.Errorf("Calls over MaxBytes: error = %v, want ErrReplyLimit", err)
	}
	deep := adapters.WithReplyLimits(p, adapters.ReplyLimits{MaxDepth: 3})
	if _, err := deep.Parse(reply); !errors.Is(err, adapters.ErrReplyLimit) {
		t.Errorf("Parse over MaxDepth 3: error = %v, want ErrReplyLimit", err)
	}
	// A type that embeds a Provider is that Provider: the limits apply to
	// the one it embeds.
	wrapped := adapters.WithReplyLimits(embedding{p}, adapters.ReplyLimits{MaxBytes: 64})
	if _, err := wrapped.Parse(reply); !errors.Is(err, adapters.ErrReplyLimit) {
		t.Errorf("embedding Parse over MaxBytes: error = %v, want ErrReplyLimit", err)
	}
	if _, err := wrapped.Calls(reply[:0]); !errors.Is(err, adapters.ErrNotJSON) {
		t.Errorf("embedding Calls of an empty reply: error = %v, want ErrNotJSON", err)
	}
	if _, err := wrapped.ParseStream(strings.NewReader("data: " + string(reply) + "\n\n")); !errors.Is(err, adapters.ErrReplyLimit) {
		t.Errorf("embedding ParseStream over MaxBytes: error = %v, want ErrReplyLimit", err)
	}
}

// embedding is a type that embeds a Provider, the one way to write a
// Provider outside this package (the interface is sealed).
type embedding struct{ adapters.Provider }

// TestProviderSealed: every Provider is one of this package's, so that
// NewStream, ToolChoice and Searcher.Answer, which read its home, take
// every Provider; nil, and MCP's streams, are errors, not panics.
func TestProviderSealed(t *testing.T) {
	body := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	for _, p := range []adapters.Provider{adapters.ForOpenAI(), embedding{adapters.ForOpenAI()}} {
		var text strings.Builder
		s, err := adapters.NewStream(p, adapters.StreamHooks{Text: func(d string) { text.WriteString(d) }})
		if err != nil {
			t.Fatalf("NewStream(%T): %v", p, err)
		}
		if _, err := s.Write([]byte(body)); err != nil {
			t.Fatalf("%T: Write: %v", p, err)
		}
		if turn, err := s.Close(); err != nil || turn.Text != "hi" || text.String() != "hi" {
			t.Errorf("%T: Close = %q, %v; hooked text %q; want hi", p, turn.Text, err, text.String())
		}
		if field, _, err := adapters.ToolChoice(p, exampleToolkit().Tools(), adapters.Choice{}); err != nil || field != "tool_choice" {
			t.Errorf("ToolChoice(%T) = %q, %v", p, field, err)
		}
	}
	if _, err := adapters.NewStream(nil, adapters.StreamHooks{}); err == nil {
		t.Error("NewStream(nil): no error")
	}
	if _, err := adapters.NewStream(adapters.ForMCP(), adapters.StreamHooks{}); err == nil {
		t.Error("NewStream(ForMCP()): no error, want MCP's replies refused as not streamed")
	}
	if _, _, err := adapters.ToolChoice(nil, nil, adapters.Choice{}); err == nil {
		t.Error("ToolChoice(nil): no error")
	}
	if _, err := adapters.NewSearcher(nil, 0).Answer(nil, nil); err == nil {
		t.Error("Searcher.Answer(nil): no error")
	}
}
