package tnopenai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/golden"
	"github.com/toolnexus/toolnexus/integrations/openai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// list decodes the member key of a request body, a JSON array of objects.
func list(t *testing.T, body json.RawMessage, key string) []map[string]any {
	t.Helper()
	raw, err := sdktest.Member(body, key)
	if err != nil {
		t.Fatal(err)
	}
	var l []map[string]any
	if err := json.Unmarshal(raw, &l); err != nil {
		t.Fatal(err)
	}
	return l
}

// checkToolsSent: the tools of a request body are the rendered bytes.
func checkToolsSent(t *testing.T, body json.RawMessage, rendered any) {
	t.Helper()
	sent, err := sdktest.Member(body, "tools")
	if err != nil {
		t.Fatal(err)
	}
	if err := sdktest.SameTools(sent, rendered); err != nil {
		t.Error(err)
	}
}

const weatherOK = `{"city":"Oslo","temperature":12,"unit":"C","sky":"overcast"}`

// TestChatTwoTurns: the official client, unmodified, talks to a server
// playing Chat Completions; the bad unit comes back as an error tool
// message, the corrected call succeeds, and every request body is the
// golden one.
func TestChatTwoTurns(t *testing.T) {
	m := sdktest.NewModel(chatPath, chatScript...)
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
		if turn > len(chatScript) {
			t.Fatalf("the loop did not end after %d turns", len(chatScript))
		}
		resp, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			t.Fatalf("turn %d: %v (model: %v)", turn, err, m.Err())
		}
		next, done, err := tnopenai.Run(ctx, tk, resp)
		if err != nil {
			t.Fatalf("turn %d: Run: %v", turn, err)
		}
		params.Messages = append(params.Messages, next...)
		if done {
			text = resp.Choices[0].Message.Content
		}
	}
	reqs := m.Finished(t, text, 3)
	rendered, err := tk.ToOpenAI()
	if err != nil {
		t.Fatal(err)
	}
	checkToolsSent(t, reqs[0], rendered)

	want := []map[string]any{
		{"role": "user", "content": "Weather and time in Oslo?"},
		{"role": "assistant", "tool_calls": []any{
			map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "get_weather", "arguments": `{"city": "Oslo", "unit": "K"}`}},
			map[string]any{"id": "call_2", "type": "function", "function": map[string]any{"name": "local_time", "arguments": `{"city":"Oslo"}`}},
		}},
		{"role": "tool", "tool_call_id": "call_1", "content": `error: invalid arguments: /unit: expected one of "C", "F", got "K"`},
		{"role": "tool", "tool_call_id": "call_2", "content": "09:00 in Oslo"},
		{"role": "assistant", "content": "Retrying in Celsius.", "tool_calls": []any{
			map[string]any{"id": "call_3", "type": "function", "function": map[string]any{"name": "get_weather", "arguments": `{"city":"Oslo","unit":"C"}`}},
		}},
		{"role": "tool", "tool_call_id": "call_3", "content": weatherOK},
	}
	if diff := cmp.Diff(want, list(t, reqs[2], "messages")); diff != "" {
		t.Errorf("last request's messages (-want +got):\n%s", diff)
	}
	golden.JSON(t, "testdata/chat_requests.json", reqs)
}

// TestResponsesTwoTurns: the same conversation over the Responses API;
// the output items (a reasoning item included) are replayed as sent.
func TestResponsesTwoTurns(t *testing.T) {
	m := sdktest.NewModel(responsesPath, responsesScript...)
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
		if turn > len(responsesScript) {
			t.Fatalf("the loop did not end after %d turns", len(responsesScript))
		}
		resp, err := client.Responses.New(ctx, responses.ResponseNewParams{Model: "gpt-test", Tools: tools,
			Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input}})
		if err != nil {
			t.Fatalf("turn %d: %v (model: %v)", turn, err, m.Err())
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
	rendered, err := tk.ToOpenAIResponses()
	if err != nil {
		t.Fatal(err)
	}
	checkToolsSent(t, reqs[0], rendered)

	call := func(id, callID, name, args string) map[string]any {
		return map[string]any{"type": "function_call", "id": id, "call_id": callID, "name": name, "arguments": args, "status": "completed"}
	}
	output := func(callID, out string) map[string]any {
		return map[string]any{"type": "function_call_output", "call_id": callID, "output": out}
	}
	want := []map[string]any{
		{"role": "user", "content": "Weather and time in Oslo?"},
		{"type": "reasoning", "id": "rs_1", "summary": []any{}, "encrypted_content": "opaque-1"},
		call("fc_1", "call_1", "get_weather", `{"city": "Oslo", "unit": "K"}`),
		call("fc_2", "call_2", "local_time", `{"city":"Oslo"}`),
		output("call_1", `error: invalid arguments: /unit: expected one of "C", "F", got "K"`),
		output("call_2", "09:00 in Oslo"),
		call("fc_3", "call_3", "get_weather", `{"city":"Oslo","unit":"C"}`),
		output("call_3", weatherOK),
	}
	if diff := cmp.Diff(want, list(t, reqs[2], "input")); diff != "" {
		t.Errorf("last request's input (-want +got):\n%s", diff)
	}
	golden.JSON(t, "testdata/responses_requests.json", reqs)
}

// TestToolsStrict: options reach the rendering, and the param marshals to
// the rendered bytes.
func TestToolsStrict(t *testing.T) {
	tk := sdktest.Toolkit()
	chat, err := tnopenai.Tools(tk, adapters.Strict(true))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := tnopenai.ResponsesTools(tk, adapters.Strict(true))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		params   any
		rendered func() (any, error)
	}{
		{chat, func() (any, error) { return tk.ToOpenAI(adapters.Strict(true)) }},
		{resp, func() (any, error) { return tk.ToOpenAIResponses(adapters.Strict(true)) }},
	} {
		sent, err := json.Marshal(tt.params)
		if err != nil {
			t.Fatal(err)
		}
		rendered, err := tt.rendered()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(sent, []byte(`"strict":true`)) {
			t.Errorf("%s: no strict:true", sent)
		}
		if err := sdktest.SameTools(sent, rendered); err != nil {
			t.Error(err)
		}
	}
	if _, err := tnopenai.Tools(tk, adapters.GeminiJSONSchema()); err == nil {
		t.Error("Tools(GeminiJSONSchema()) succeeded, want an error naming the option")
	}
}

func TestUnusableResponse(t *testing.T) {
	tk := sdktest.Toolkit()
	ctx := context.Background()
	chat := func(raw string) *openai.ChatCompletion {
		var c openai.ChatCompletion
		if err := json.Unmarshal([]byte(raw), &c); err != nil {
			t.Fatal(err)
		}
		return &c
	}
	for name, c := range map[string]*openai.ChatCompletion{
		"nil":        nil,
		"no choices": chat(`{"choices":[]}`),
		"no id":      chat(`{"choices":[{"message":{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"local_time","arguments":"{}"}}]}}]}`),
		"no name":    chat(`{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"arguments":"{}"}}]}}]}`),
		"custom":     chat(`{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c","type":"custom","custom":{"name":"x","input":"y"}}]}}]}`),
	} {
		if _, _, err := tnopenai.Run(ctx, tk, c); !errors.Is(err, tnopenai.ErrReply) {
			t.Errorf("Run(%s) error = %v, want ErrReply", name, err)
		}
	}
	var noCallID responses.Response
	if err := json.Unmarshal([]byte(`{"output":[{"type":"function_call","id":"fc","name":"local_time","arguments":"{}"}]}`), &noCallID); err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*responses.Response{"nil": nil, "no call_id": &noCallID} {
		if _, _, err := tnopenai.RunResponses(ctx, tk, r); !errors.Is(err, tnopenai.ErrReply) {
			t.Errorf("RunResponses(%s) error = %v, want ErrReply", name, err)
		}
	}
}

// TestArgumentsText: arguments that are not a JSON object are that call's
// error result, and empty text means {}; the batch runs in call order.
func TestArgumentsText(t *testing.T) {
	tk := sdktest.Toolkit()
	var c openai.ChatCompletion
	raw := `{"choices":[{"message":{"role":"assistant","tool_calls":[
		{"id":"a","type":"function","function":{"name":"local_time","arguments":"{\"city\":"}},
		{"id":"b","type":"function","function":{"name":"local_time","arguments":""}},
		{"id":"c","type":"function","function":{"name":"nope","arguments":"{}"}},
		{"id":"d","type":"function","function":{"name":"local_time","arguments":"{\"city\":\"Lima\"}"}}]}}]}`
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		t.Fatal(err)
	}
	next, done, err := tnopenai.Run(context.Background(), tk, &c, toolnexus.WithParallelism(2))
	if err != nil || done || len(next) != 5 {
		t.Fatalf("Run = %d messages, done %v, err %v; want 5, false, nil", len(next), done, err)
	}
	var got []string
	for _, msg := range next[1:] {
		got = append(got, msg.OfTool.ToolCallID+" "+msg.OfTool.Content.OfString.Value)
	}
	for i, prefix := range []string{"a error: invalid arguments", "b error: invalid arguments: /city", "c error: unknown tool \"nope\"", "d 09:00 in Lima"} {
		if !strings.HasPrefix(got[i], prefix) {
			t.Errorf("tool message %d = %q, want it to start with %q", i, got[i], prefix)
		}
	}
}

// TestResponsesArgumentsObject: arguments sent as an object in place of
// the text (some compatible servers) reach the tool; the SDK keeps them
// only as raw JSON.
func TestResponsesArgumentsObject(t *testing.T) {
	var r responses.Response
	if err := json.Unmarshal([]byte(`{"output":[{"type":"function_call","call_id":"c","name":"local_time","arguments":{"city":"Lima"}}]}`), &r); err != nil {
		t.Fatal(err)
	}
	next, done, err := tnopenai.RunResponses(context.Background(), sdktest.Toolkit(), &r)
	if err != nil || done || len(next) != 2 {
		t.Fatalf("RunResponses = %d items, done %v, err %v; want 2, false, nil", len(next), done, err)
	}
	if got := next[1].OfFunctionCallOutput.Output.OfString.Value; got != "09:00 in Lima" {
		t.Errorf("output = %q, want 09:00 in Lima", got)
	}
}
