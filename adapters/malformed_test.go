package adapters_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// wholeStream is p's stream parser over a whole body.
func wholeStream(p adapters.Provider) func([]byte) (adapters.Turn, error) {
	return func(body []byte) (adapters.Turn, error) { return p.ParseStream(bytes.NewReader(body)) }
}

// malformedCase is a reply of one provider with calls whose arguments text
// is no JSON object, and what each call is.
type malformedCase struct {
	name   string
	parse  func([]byte) (adapters.Turn, error)
	file   string
	stream bool
	// want, per call in order: the arguments text as sent for a malformed
	// call, "" for a well-formed one.
	want []string
}

func malformedCases() []malformedCase {
	dir := filepath.Join("..", "testdata", "golden", "calls")
	return []malformedCase{
		{"openai", adapters.ParseOpenAIReply, filepath.Join(dir, "openai", "replies", "malformed_arguments.json"), false,
			[]string{"", "```json\n{\"city\": \"Oslo\"}\n```", "{\"city\": \"Rome\"}\n\nI'll check the weather in Rome now.", "maybe"}},
		{"openai stream", wholeStream(adapters.ForOpenAI()), filepath.Join(dir, "openai", "streams", "malformed_arguments.sse"), true,
			[]string{`{"city": "Paris"} I will check it now.`, "", `{"query": "tax forms`}},
		{"openai-responses", adapters.ParseOpenAIResponsesReply, filepath.Join(dir, "openai-responses", "replies", "malformed_arguments.json"), false,
			[]string{"", "\"{\\n  \\\"city\\\": \\\"Bengaluru\\\"\\n}\"", "{'city': 'Lima', 'metric': True}"}},
		{"openai-responses stream", wholeStream(adapters.ForOpenAIResponses()), filepath.Join(dir, "openai-responses", "streams", "malformed_arguments.sse"), true,
			[]string{"{city: Paris}", ""}},
		{"mistral", adapters.ParseMistralReply, filepath.Join(dir, "mistral", "replies", "malformed_arguments.json"), false,
			[]string{`{"city": "Paris", "days": 2,}`, `{"path": "/src/query.py", "view_range": \n[2142, 2250]\n}`, ""}},
		{"mistral stream", wholeStream(adapters.ForMistral()), filepath.Join(dir, "mistral", "streams", "malformed_arguments.sse"), true,
			[]string{"{'city': 'Lyon'}", ""}},
		{"anthropic stream", wholeStream(adapters.ForAnthropic()), filepath.Join(dir, "anthropic", "streams", "unclosed_input.sse"), true,
			[]string{"{\"end_char: \nLet me use a broader search to find the tools section:\n\n<function_calls>", ""}},
		{"anthropic stream, trailing comma", wholeStream(adapters.ForAnthropic()), filepath.Join(dir, "anthropic", "streams", "invalid_arguments.sse"), true,
			[]string{`{"city": "Paris",}`}},
		{"bedrock stream", wholeStream(adapters.ForBedrock()), filepath.Join(dir, "bedrock", "streams", "unclosed_input.bin"), true,
			[]string{`{"city": "Ro`, ""}},
		{"bedrock stream, single quotes", wholeStream(adapters.ForBedrock()), filepath.Join(dir, "bedrock", "streams", "single_quoted_input.bin"), true,
			[]string{"", "{'city': 'Rome', 'days': None}"}},
	}
}

// TestMalformedCalls: a call whose arguments text is no JSON object is a
// call of the turn, marked malformed, with the text as sent as its Args;
// the reply parses, and the turn's other calls are as they would be
// without it.
func TestMalformedCalls(t *testing.T) {
	for _, tc := range malformedCases() {
		t.Run(tc.name, func(t *testing.T) {
			body, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			turn, err := tc.parse(body)
			if err != nil {
				t.Fatalf("parse: %v, want a turn", err)
			}
			if len(turn.Calls) != len(tc.want) {
				t.Fatalf("%d calls, want %d", len(turn.Calls), len(tc.want))
			}
			for i, c := range turn.Calls {
				switch {
				case tc.want[i] == "":
					if c.Malformed != "" || c.Repaired != 0 {
						t.Errorf("call %d (%s): marked (%q, %v), want well-formed", i, c.Name, c.Malformed, c.Repaired)
					}
					var v map[string]any
					if json.Unmarshal(c.Args, &v) != nil || v == nil {
						t.Errorf("call %d (%s): Args %s, want an object", i, c.Name, c.Args)
					}
				default:
					if c.Malformed == "" {
						t.Errorf("call %d (%s): not marked malformed", i, c.Name)
					}
					if string(c.Args) != tc.want[i] {
						t.Errorf("call %d (%s): Args %q, want the text as sent %q", i, c.Name, c.Args, tc.want[i])
					}
				}
				if c.ID == "" || c.Name == "" {
					t.Errorf("call %d: id %q, name %q: results need both", i, c.ID, c.Name)
				}
			}
		})
	}
}

// TestMalformedReplaysAsSent: OpenAI Chat, Responses and Mistral replay a
// malformed call's arguments text as sent (their history takes any
// text); Anthropic and Bedrock, whose history needs an object, replay
// its input as {}.
func TestMalformedReplaysAsSent(t *testing.T) {
	for _, tc := range malformedCases() {
		t.Run(tc.name, func(t *testing.T) {
			body, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			turn, err := tc.parse(body)
			if err != nil {
				t.Fatal(err)
			}
			replay, err := json.Marshal(turn.Replay)
			if err != nil {
				t.Fatal(err)
			}
			objects := strings.HasPrefix(tc.name, "anthropic") || strings.HasPrefix(tc.name, "bedrock")
			for i, c := range turn.Calls {
				if c.Malformed == "" {
					continue
				}
				quoted, _ := json.Marshal(string(c.Args))
				has := strings.Contains(string(replay), string(quoted))
				if objects == has {
					t.Errorf("call %d: replay holds the text as sent: %v, want %v\n%s", i, has, !objects, replay)
				}
			}
		})
	}
}

// TestMalformedResults: every provider's results pair an error result
// with a malformed call as with any other call: one result each, in call
// order, under the call's id (or name).
func TestMalformedResults(t *testing.T) {
	calls := []adapters.Call{
		{ID: "call_1", Name: "get_weather", Args: json.RawMessage(`{"city":"Paris"}`)},
		{ID: "call_2", Name: "get_time", Args: json.RawMessage("maybe"), Malformed: "not valid JSON: unexpected 'm' at byte 0: \"maybe\""},
	}
	results := []define.Result{
		{Output: "sunny in Paris"},
		{Output: `invalid arguments: not a JSON object: expected '{', got "maybe" at offset 0`, IsError: true},
	}
	for _, p := range adapters.Providers() {
		t.Run(p.Name(), func(t *testing.T) {
			entries, err := p.Results(calls, results)
			if err != nil {
				t.Fatalf("Results: %v", err)
			}
			data, err := json.Marshal(entries)
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			weather, maybe := strings.Index(text, "sunny in Paris"), strings.Index(text, "not a JSON object")
			if weather < 0 || maybe < 0 || weather > maybe {
				t.Fatalf("results %s: want both outputs, in call order", text)
			}
			// The error's entry (or part, for a provider that answers in
			// one message) names the malformed call: by its id, or by its
			// name where results are paired by name (Mistral maps ids).
			second := text[weather:]
			if len(entries) == len(calls) {
				b, _ := json.Marshal(entries[1])
				second = string(b)
			}
			if !strings.Contains(second, "call_2") && !strings.Contains(second, "get_time") {
				t.Errorf("results %s: the error is not paired with the malformed call", text)
			}
		})
	}
}

// TestMalformedCutOff: arguments cut off inside their object when the
// reply stopped at its token limit make the turn incomplete, not a
// malformed call; the same text with any other finish is the model's.
func TestMalformedCutOff(t *testing.T) {
	chat := func(args, finish string) string {
		q, _ := json.Marshal(args)
		return `{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":` + string(q) + `}}]},"finish_reason":"` + finish + `"}]}`
	}
	responses := func(args, status string) string {
		q, _ := json.Marshal(args)
		return `{"status":"` + status + `","output":[{"type":"function_call","call_id":"c1","name":"f","arguments":` + string(q) + `}]}`
	}
	for _, tc := range []struct {
		name, reply string
		parse       func([]byte) (adapters.Turn, error)
		incomplete  bool
	}{
		{"length, cut inside the object", chat(`{"city": "Par`, "length"), adapters.ParseOpenAIReply, true},
		{"mistral model_length", chat(`{"city": "Par`, "model_length"), adapters.ParseMistralReply, true},
		{"length, closed but followed by text", chat(`{"city": "Paris"} x`, "length"), adapters.ParseOpenAIReply, false},
		{"tool_calls, cut inside the object", chat(`{"city": "Par`, "tool_calls"), adapters.ParseOpenAIReply, false},
		{"responses incomplete", responses(`{"city": "Par`, "incomplete"), adapters.ParseOpenAIResponsesReply, true},
		{"responses completed", responses(`{"city": "Par`, "completed"), adapters.ParseOpenAIResponsesReply, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reply := tc.reply
			if tc.name == "mistral model_length" {
				reply = strings.Replace(reply, `"c1"`, `"c1Abcdefg"`, 1)
			}
			turn, err := tc.parse([]byte(reply))
			if tc.incomplete {
				if !errors.Is(err, adapters.ErrIncomplete) {
					t.Fatalf("parse = %v, %v; want ErrIncomplete", turn, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("parse: %v, want a malformed call", err)
			}
			if len(turn.Calls) != 1 || turn.Calls[0].Malformed == "" {
				t.Fatalf("calls %+v, want one malformed call", turn.Calls)
			}
		})
	}
}

// TestMalformedCallJSON: a malformed call's JSON has its text as a JSON
// string; a well-formed call's is what its field tags give.
func TestMalformedCallJSON(t *testing.T) {
	data, err := json.Marshal(adapters.Call{ID: "c", Name: "f", Args: json.RawMessage(`{"a": 1} x`), Malformed: "not valid JSON"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"id":"c","name":"f","args":"{\"a\": 1} x","malformed":"not valid JSON"}`; string(data) != want {
		t.Errorf("malformed call JSON = %s, want %s", data, want)
	}
	data, err = json.Marshal(adapters.Call{ID: "c", Name: "f", Args: json.RawMessage(`{"a":1}`), Repaired: adapters.RepairTrailingComma | adapters.RepairCodeFence})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"id":"c","name":"f","args":{"a":1},"repaired":"code fence, trailing comma"}`; string(data) != want {
		t.Errorf("repaired call JSON = %s, want %s", data, want)
	}
	data, err = json.Marshal(adapters.Call{Name: "f", Args: json.RawMessage(`{"a":1}`)})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"name":"f","args":{"a":1}}`; string(data) != want {
		t.Errorf("call JSON = %s, want %s", data, want)
	}
}
