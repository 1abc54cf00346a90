package tnopenai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/integrations/openai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// chatStream is an OpenAI Chat Completions stream body in the documented
// format: one chat.completion.chunk per choice given (each the JSON of the
// chunk's only choice), all with the completion id id, then "data: [DONE]".
// An empty choice is the usage chunk that stream_options.include_usage
// adds, with "choices": [].
func chatStream(id string, choices ...string) string {
	var b strings.Builder
	for _, c := range choices {
		fmt.Fprintf(&b, `data: {"id":%q,"object":"chat.completion.chunk","created":1,"model":"gpt-test","system_fingerprint":"fp_test",`, id)
		if c == "" {
			b.WriteString(`"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":10,"total_tokens":20}}`)
		} else {
			b.WriteString(`"choices":[` + c + `],"usage":null}`)
		}
		b.WriteString("\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}

// delta is one choice of a chunk: its delta object and its finish_reason
// (JSON: null or a string).
func delta(d, finish string) string {
	return `{"index":0,"delta":` + d + `,"logprobs":null,"finish_reason":` + finish + `}`
}

// chatStreamScript is chatScript streamed, as OpenAI streams it: the first
// delta holds the role, each call's first piece its id, type and name with
// empty arguments, later pieces only arguments, the finish_reason comes in
// a chunk of its own, and the usage last.
var chatStreamScript = []string{
	chatStream("chatcmpl-1",
		delta(`{"role":"assistant","content":null,"refusal":null}`, `null`),
		delta(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]}`, `null`),
		delta(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\": "}}]}`, `null`),
		delta(`{"tool_calls":[{"index":0,"function":{"arguments":"\"Oslo\", \"unit\": \"K\"}"}}]}`, `null`),
		delta(`{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"local_time","arguments":""}}]}`, `null`),
		delta(`{"tool_calls":[{"index":1,"function":{"arguments":"{\"city\":\"Oslo\"}"}}]}`, `null`),
		delta(`{}`, `"tool_calls"`),
		""),
	chatStream("chatcmpl-2",
		delta(`{"role":"assistant","content":""}`, `null`),
		delta(`{"content":"Retrying "}`, `null`),
		delta(`{"content":"in Celsius."}`, `null`),
		delta(`{"tool_calls":[{"index":0,"id":"call_3","type":"function","function":{"name":"get_weather","arguments":""}}]}`, `null`),
		delta(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Oslo\","}}]}`, `null`),
		delta(`{"tool_calls":[{"index":0,"function":{"arguments":"\"unit\":\"C\"}"}}]}`, `null`),
		delta(`{}`, `"tool_calls"`),
		""),
	chatStream("chatcmpl-3",
		delta(`{"role":"assistant","content":""}`, `null`),
		delta(`{"content":"12 °C and overcast in Oslo, "}`, `null`),
		delta(`{"content":"where it is 09:00."}`, `null`),
		delta(`{}`, `"stop"`),
		""),
}

// goldenMember returns the member key of every request in a golden file of
// the unstreamed loop, decoded, with null members removed.
func goldenMember(t *testing.T, file, key string) []any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var reqs []json.RawMessage
	if err := json.Unmarshal(data, &reqs); err != nil {
		t.Fatal(err)
	}
	return members(t, reqs, key)
}

// members decodes the member key of each request body, with null members
// removed: a replayed "content": null means what a missing one does.
func members(t *testing.T, reqs []json.RawMessage, key string) []any {
	t.Helper()
	var out []any
	for _, r := range reqs {
		raw, err := sdktest.Member(r, key)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, dropNulls(v))
	}
	return out
}

func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil {
				delete(v, k)
			} else {
				v[k] = dropNulls(x)
			}
		}
	case []any:
		for i := range v {
			v[i] = dropNulls(v[i])
		}
	}
	return v
}

// TestChatStreamAccumulator: the SDK's own streamed form, unmodified
// (NewStreaming and a ChatCompletionAccumulator), with Run on the
// accumulated completion: over OpenAI's own kind of stream, every request
// carries the messages of the unstreamed loop, and the streams' calls are
// the ones adapters.ParseOpenAIStream reads from the same bodies.
func TestChatStreamAccumulator(t *testing.T) {
	m := sdktest.NewModel(chatPath, chatStreamScript...)
	defer m.Close()
	ctx := context.Background()
	client := newClient(m)
	tk := sdktest.Toolkit()
	tools, err := tnopenai.Tools(tk)
	if err != nil {
		t.Fatal(err)
	}
	params := openai.ChatCompletionNewParams{Model: "gpt-test", Tools: tools,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather and time in Oslo?")}}
	var text string
	for turn := 1; text == ""; turn++ {
		if turn > len(chatStreamScript) {
			t.Fatalf("the loop did not end after %d turns", len(chatStreamScript))
		}
		stream := client.Chat.Completions.NewStreaming(ctx, params)
		var acc openai.ChatCompletionAccumulator
		for stream.Next() {
			if !acc.AddChunk(stream.Current()) {
				t.Fatalf("turn %d: AddChunk refused a chunk", turn)
			}
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("turn %d: %v (model: %v)", turn, err, m.Err())
		}
		ours, err := adapters.ParseOpenAIStream(strings.NewReader(chatStreamScript[turn-1]))
		if err != nil {
			t.Fatalf("turn %d: ParseOpenAIStream: %v", turn, err)
		}
		if diff := cmp.Diff(accCalls(&acc.ChatCompletion), ours.Calls); diff != "" {
			t.Errorf("turn %d: the accumulator's calls (-) and ParseOpenAIStream's (+):\n%s", turn, diff)
		}
		if got := string(acc.Choices[0].FinishReason); got != ours.Stop {
			t.Errorf("turn %d: finish_reason: accumulator %q, ParseOpenAIStream %q", turn, got, ours.Stop)
		}
		next, done, err := tnopenai.Run(ctx, tk, &acc.ChatCompletion)
		if err != nil {
			t.Fatalf("turn %d: Run: %v", turn, err)
		}
		params.Messages = append(params.Messages, next...)
		if done {
			text = acc.Choices[0].Message.Content
		}
	}
	reqs := m.Finished(t, text, 3)
	if diff := cmp.Diff(goldenMember(t, "testdata/chat_requests.json", "messages"), members(t, reqs, "messages")); diff != "" {
		t.Errorf("streamed requests' messages (-unstreamed +streamed):\n%s", diff)
	}
	for i, r := range reqs {
		if s, _ := sdktest.Member(r, "stream"); string(s) != "true" {
			t.Errorf("request %d: stream = %s, want true", i+1, s)
		}
	}
}

// accCalls are the tool calls of an accumulated completion, in the form
// ParseOpenAIStream gives them (compact arguments).
func accCalls(c *openai.ChatCompletion) []adapters.Call {
	var calls []adapters.Call
	for _, tc := range c.Choices[0].Message.ToolCalls {
		args := []byte(tc.Function.Arguments)
		var b bytes.Buffer
		if json.Compact(&b, args) == nil {
			args = b.Bytes()
		}
		calls = append(calls, adapters.Call{ID: tc.ID, Name: tc.Function.Name, Args: args})
	}
	return calls
}

// TestChatStreamAccumulatorFails: streams that compatible servers send, or
// that a connection cuts, over which the SDK's ChatCompletionAccumulator
// goes wrong without an error while adapters.ParseOpenAIStream reads them
// right or refuses them. The accumulator's results are checked too, as the
// record of what the package documentation tells users: if openai-go
// changes, this test says so.
func TestChatStreamAccumulatorFails(t *testing.T) {
	callStart := `{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]}`
	for _, tc := range []struct {
		name string
		body string
		// what the accumulator gives
		accName, accStop string
		accCalls         int
		// what ParseOpenAIStream gives: the call's name and the stop, or
		// the error it wraps
		ourName, ourStop string
		ourErr           error
	}{
		{
			name: "name resent in every piece",
			body: chatStream("chatcmpl-r",
				delta(callStart, `null`),
				delta(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":"}}]}`, `null`),
				delta(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"\"Oslo\"}"}}]}`, `null`),
				delta(`{}`, `"tool_calls"`)),
			accName: "get_weatherget_weatherget_weather", accStop: "tool_calls", accCalls: 1,
			ourName: "get_weather", ourStop: "tool_calls",
		},
		{
			name: "finish_reason null after the finish",
			body: chatStream("chatcmpl-f",
				delta(callStart, `null`),
				delta(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Oslo\"}"}}]}`, `null`),
				delta(`{}`, `"tool_calls"`),
				delta(`{}`, `null`)),
			accName: "get_weather", accStop: "", accCalls: 1,
			ourName: "get_weather", ourStop: "tool_calls",
		},
		{
			name: "cut off before the second call",
			body: strings.TrimSuffix(chatStream("chatcmpl-c",
				delta(callStart, `null`),
				delta(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Oslo\"}"}}]}`, `null`)),
				"data: [DONE]\n\n"),
			accName: "get_weather", accStop: "", accCalls: 1,
			ourErr: adapters.ErrIncomplete,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sdktest.NewModel(chatPath, tc.body)
			defer m.Close()
			client := newClient(m)
			stream := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{Model: "gpt-test",
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Oslo?")}})
			var acc openai.ChatCompletionAccumulator
			for stream.Next() {
				if !acc.AddChunk(stream.Current()) {
					t.Fatal("AddChunk refused a chunk")
				}
			}
			if err := stream.Err(); err != nil {
				t.Fatalf("the SDK's stream: %v (model: %v)", err, m.Err())
			}
			calls := acc.Choices[0].Message.ToolCalls
			if len(calls) != tc.accCalls || calls[0].Function.Name != tc.accName || string(acc.Choices[0].FinishReason) != tc.accStop {
				t.Errorf("openai-go's accumulator now gives %d calls, the first named %q, finish_reason %q; was %d, %q, %q: update the package documentation and docs/integrations.md",
					len(calls), calls[0].Function.Name, acc.Choices[0].FinishReason, tc.accCalls, tc.accName, tc.accStop)
			}

			turn, err := adapters.ParseOpenAIStream(strings.NewReader(tc.body))
			if tc.ourErr != nil {
				if !errors.Is(err, tc.ourErr) {
					t.Fatalf("ParseOpenAIStream: %v, want an error wrapping %v", err, tc.ourErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseOpenAIStream: %v", err)
			}
			if len(turn.Calls) != 1 || turn.Calls[0].Name != tc.ourName || turn.Stop != tc.ourStop || string(turn.Calls[0].Args) != `{"city":"Oslo"}` {
				t.Fatalf("ParseOpenAIStream = %+v, stop %q; want one %s call with {\"city\":\"Oslo\"}, stop %q", turn.Calls, turn.Stop, tc.ourName, tc.ourStop)
			}
			// And the turn runs: RunTurn's tool message is the tool's output.
			next, done, err := tnopenai.RunTurn(context.Background(), sdktest.Toolkit(), turn)
			if err != nil || done || len(next) != 2 {
				t.Fatalf("RunTurn = %d messages, done %v, err %v; want 2, false, nil", len(next), done, err)
			}
			if got := next[1].OfTool.Content.OfString.Value; got != weatherOK {
				t.Errorf("tool message = %q, want %q", got, weatherOK)
			}
		})
	}
}

// TestChatStreamRawBody: the loop of ExampleRunTurn (the raw body from
// client.Post, read by ParseOpenAIStream, answered by RunTurn) sends the
// messages of the unstreamed loop.
func TestChatStreamRawBody(t *testing.T) {
	m := sdktest.NewModel(chatPath, chatStreamScript...)
	defer m.Close()
	ctx := context.Background()
	client := newClient(m)
	tk := sdktest.Toolkit()
	tools, err := tnopenai.Tools(tk)
	if err != nil {
		t.Fatal(err)
	}
	params := openai.ChatCompletionNewParams{Model: "gpt-test", Tools: tools,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather and time in Oslo?")}}
	var text string
	for turn := 1; text == ""; turn++ {
		if turn > len(chatStreamScript) {
			t.Fatalf("the loop did not end after %d turns", len(chatStreamScript))
		}
		var res *http.Response
		if err := client.Post(ctx, "chat/completions", params, &res, option.WithJSONSet("stream", true)); err != nil {
			t.Fatalf("turn %d: %v (model: %v)", turn, err, m.Err())
		}
		got, err := adapters.ParseOpenAIStream(res.Body)
		_ = res.Body.Close()
		if err != nil {
			t.Fatalf("turn %d: ParseOpenAIStream: %v", turn, err)
		}
		next, done, err := tnopenai.RunTurn(ctx, tk, got)
		if err != nil {
			t.Fatalf("turn %d: RunTurn: %v", turn, err)
		}
		params.Messages = append(params.Messages, next...)
		if done {
			text = got.Text
		}
	}
	reqs := m.Finished(t, text, 3)
	if diff := cmp.Diff(goldenMember(t, "testdata/chat_requests.json", "messages"), members(t, reqs, "messages")); diff != "" {
		t.Errorf("streamed requests' messages (-unstreamed +streamed):\n%s", diff)
	}
}

// TestRunTurnRefuses: a Turn that is not an OpenAI Chat turn, or a call
// without an id, is ErrReply.
func TestRunTurnRefuses(t *testing.T) {
	tk := sdktest.Toolkit()
	ctx := context.Background()
	chat, err := adapters.ParseOpenAIReply([]byte(`{"choices":[{"message":{"role":"assistant","content":"hi"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	gemini, err := adapters.ParseGeminiReply([]byte(`{"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	noID := chat
	noID.Calls = []adapters.Call{{Name: "local_time", Args: json.RawMessage(`{}`)}}
	for name, turn := range map[string]adapters.Turn{"empty": {}, "gemini": gemini, "no id": noID} {
		if _, _, err := tnopenai.RunTurn(ctx, tk, turn); !errors.Is(err, tnopenai.ErrReply) {
			t.Errorf("RunTurn(%s) error = %v, want ErrReply", name, err)
		}
	}
	next, done, err := tnopenai.RunTurn(ctx, tk, chat)
	if err != nil || !done || len(next) != 1 {
		t.Fatalf("RunTurn(text) = %d messages, done %v, err %v; want 1, true, nil", len(next), done, err)
	}
	sent, err := json.Marshal(next[0])
	if err != nil {
		t.Fatal(err)
	}
	if string(sent) != `{"role":"assistant","content":"hi"}` {
		t.Errorf("replayed message = %s", sent)
	}
}

// responsesStream is the Responses stream of the whole response reply (a
// response object, as responsesScript holds): response.created, then for
// each output item its added event, its deltas (a function call's
// arguments and a message's text, each in two pieces) and its done
// events, then response.completed with the whole response.
func responsesStream(t *testing.T, reply string) string {
	t.Helper()
	var whole bytes.Buffer
	if err := json.Compact(&whole, []byte(reply)); err != nil {
		t.Fatal(err)
	}
	var r struct {
		ID     string           `json:"id"`
		Output []map[string]any `json:"output"`
	}
	if err := json.Unmarshal(whole.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	seq := 0
	event := func(typ string, fields map[string]any) {
		fields["type"], fields["sequence_number"] = typ, seq
		seq++
		data, err := json.Marshal(fields)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", typ, data)
	}
	halves := func(s string) [2]string { n := len(s) / 2; return [2]string{s[:n], s[n:]} }
	event("response.created", map[string]any{"response": map[string]any{"id": r.ID, "object": "response", "created_at": 1, "status": "in_progress", "model": "gpt-test", "output": []any{}}})
	for i, it := range r.Output {
		event("response.output_item.added", map[string]any{"output_index": i, "item": it})
		switch it["type"] {
		case "function_call":
			args := it["arguments"].(string)
			for _, piece := range halves(args) {
				event("response.function_call_arguments.delta", map[string]any{"output_index": i, "item_id": it["id"], "delta": piece})
			}
			event("response.function_call_arguments.done", map[string]any{"output_index": i, "item_id": it["id"], "arguments": args})
		case "message":
			text := it["content"].([]any)[0].(map[string]any)["text"].(string)
			for _, piece := range halves(text) {
				event("response.output_text.delta", map[string]any{"output_index": i, "item_id": it["id"], "content_index": 0, "delta": piece})
			}
			event("response.output_text.done", map[string]any{"output_index": i, "item_id": it["id"], "content_index": 0, "text": text})
		}
		event("response.output_item.done", map[string]any{"output_index": i, "item": it})
	}
	event("response.completed", map[string]any{"response": json.RawMessage(whole.Bytes())})
	return b.String()
}

// TestResponsesStream: the Responses API streamed through the SDK's
// NewStreaming, unmodified: the response of the response.completed event
// is what RunResponses takes, and the loop sends the input items of the
// unstreamed loop.
func TestResponsesStream(t *testing.T) {
	bodies := make([]string, len(responsesScript))
	for i, r := range responsesScript {
		bodies[i] = responsesStream(t, r)
	}
	m := sdktest.NewModel(responsesPath, bodies...)
	defer m.Close()
	ctx := context.Background()
	client := newClient(m)
	tk := sdktest.Toolkit()
	tools, err := tnopenai.ResponsesTools(tk)
	if err != nil {
		t.Fatal(err)
	}
	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage("Weather and time in Oslo?", responses.EasyInputMessageRoleUser)}
	var text string
	for turn := 1; text == ""; turn++ {
		if turn > len(bodies) {
			t.Fatalf("the loop did not end after %d turns", len(bodies))
		}
		stream := client.Responses.NewStreaming(ctx, responses.ResponseNewParams{Model: "gpt-test", Tools: tools,
			Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input}})
		var resp *responses.Response
		var streamed strings.Builder
		for stream.Next() {
			switch ev := stream.Current(); ev.Type {
			case "response.output_text.delta":
				streamed.WriteString(ev.Delta)
			case "response.completed":
				resp = &ev.Response
			}
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("turn %d: %v (model: %v)", turn, err, m.Err())
		}
		if resp == nil {
			t.Fatalf("turn %d: no response.completed event", turn)
		}
		if streamed.String() != resp.OutputText() {
			t.Errorf("turn %d: the text deltas joined = %q, the completed response's text = %q", turn, streamed.String(), resp.OutputText())
		}
		next, done, err := tnopenai.RunResponses(ctx, tk, resp)
		if err != nil {
			t.Fatalf("turn %d: RunResponses: %v", turn, err)
		}
		input = append(input, next...)
		if done {
			text = resp.OutputText()
		}
	}
	reqs := m.Finished(t, text, 3)
	if diff := cmp.Diff(goldenMember(t, "testdata/responses_requests.json", "input"), members(t, reqs, "input")); diff != "" {
		t.Errorf("streamed requests' input (-unstreamed +streamed):\n%s", diff)
	}
}
