package tnopenai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/toolnexus/toolnexus/adapters"
	tnopenai "github.com/toolnexus/toolnexus/integrations/openai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
	"github.com/toolnexus/toolnexus/transport"
)

// Both are Transports.
var _ transport.Transport = (*tnopenai.Transport)(nil)

// The fixtures of the transport tests, written in Chat Completions' shape:
// a whole reply, the same reply streamed, and an error body.
const (
	chatReply = `{"id":"chatcmpl-T1","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"finish_reason":"tool_calls",
		"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_t1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]}}],
		"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150,"prompt_tokens_details":{"cached_tokens":100},"completion_tokens_details":{"reasoning_tokens":12}}}`
	chatStreamReply = "data: {\"id\":\"chatcmpl-T1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Checking\"},\"finish_reason\":null}]}\n\n" +
		"data: {\"id\":\"chatcmpl-T1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_t1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\"}}]},\"finish_reason\":null}]}\n\n" +
		"data: {\"id\":\"chatcmpl-T1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"Oslo\\\"}\"}}]},\"finish_reason\":null}]}\n\n" +
		streamTail
	streamTail = "data: {\"id\":\"chatcmpl-T1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n" +
		"data: {\"id\":\"chatcmpl-T1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-test\",\"choices\":[],\"usage\":{\"prompt_tokens\":120,\"completion_tokens\":30,\"total_tokens\":150,\"prompt_tokens_details\":{\"cached_tokens\":100},\"completion_tokens_details\":{\"reasoning_tokens\":12}}}\n\n" +
		"data: [DONE]\n\n"
	chatError = "status:404\n" + `{"error":{"message":"The model 'gpt-nope' does not exist","type":"invalid_request_error","param":null,"code":"model_not_found"}}`
)

// chatBody is a whole Chat request body built by adapters.NewBody, with a
// number that float64 would round, to show the bytes go out as they are.
func chatBody(t *testing.T) []byte {
	t.Helper()
	p := adapters.ForOpenAI()
	b, err := adapters.NewBody(p, adapters.Request{Model: "gpt-test", Tools: sdktest.Toolkit().Tools(),
		Extra: map[string]json.RawMessage{"seed": json.RawMessage("9007199254740993")}})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Append(p.Prompt("Weather in Oslo?")...); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkTurn checks the Turn of chatReply (whole or streamed).
func checkTurn(t *testing.T, turn adapters.Turn) {
	t.Helper()
	if len(turn.Calls) != 1 || turn.Calls[0].ID != "call_t1" || turn.Calls[0].Name != "get_weather" || string(turn.Calls[0].Args) != `{"city":"Oslo"}` {
		t.Errorf("calls = %+v", turn.Calls)
	}
	if u := turn.Usage; u.Input != 120 || u.Output != 30 || u.CacheRead != 100 || u.Reasoning != 12 {
		t.Errorf("usage = %+v", u)
	}
}

// TestTransport: NewTransport sends NewBody's bytes unchanged through the
// client (its base URL, its key), and reads the reply whole and streamed
// with adapters' parser; Stream adds "stream" and "stream_options".
func TestTransport(t *testing.T) {
	m := sdktest.NewModel(chatPath, chatReply, chatStreamReply)
	defer m.Close()
	tr := tnopenai.NewTransport(newClient(m))
	body := chatBody(t)
	ctx := context.Background()
	turn, err := tr.Send(ctx, body)
	if err != nil {
		t.Fatalf("Send: %v (model: %v)", err, m.Err())
	}
	checkTurn(t, turn)
	var text strings.Builder
	var called []string
	turn, err = tr.Stream(ctx, body, adapters.StreamHooks{Text: func(d string) { text.WriteString(d) }, Call: func(c adapters.Call) { called = append(called, c.Name) }})
	if err != nil {
		t.Fatalf("Stream: %v (model: %v)", err, m.Err())
	}
	checkTurn(t, turn)
	if text.String() != "Checking" || len(called) != 1 {
		t.Errorf("hooks saw text %q and calls %v", text.String(), called)
	}
	reqs := m.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if !bytes.Equal(reqs[0], body) {
		t.Errorf("Send sent\n%s\nwant the body as built:\n%s", reqs[0], body)
	}
	var sent map[string]json.RawMessage
	if err := json.Unmarshal(reqs[1], &sent); err != nil {
		t.Fatal(err)
	}
	if string(sent["stream"]) != "true" || string(sent["stream_options"]) != `{"include_usage":true}` || string(sent["seed"]) != "9007199254740993" {
		t.Errorf("Stream sent stream %s, stream_options %s, seed %s", sent["stream"], sent["stream_options"], sent["seed"])
	}
}

// TestTransportErrors: an error body is a *transport.StatusError wrapping
// the provider's *adapters.ReplyError, and the SDK's *openai.Error; a body
// that is not OpenAI's error is quoted; a stream cut off is
// ErrIncomplete; the client's retries apply.
func TestTransportErrors(t *testing.T) {
	ctx := context.Background()
	for _, stream := range []bool{false, true} {
		m := sdktest.NewModel(chatPath, chatError, "status:502\n<html>bad gateway</html>")
		tr := tnopenai.NewTransport(newClient(m))
		for i, wantMsg := range []string{"The model 'gpt-nope' does not exist", "<html>bad gateway</html>"} {
			var err error
			if stream {
				_, err = tr.Stream(ctx, chatBody(t), adapters.StreamHooks{})
			} else {
				_, err = tr.Send(ctx, chatBody(t))
			}
			var se *transport.StatusError
			var re *adapters.ReplyError
			var sdk *openai.Error
			if !errors.As(err, &se) || !errors.As(err, &re) || !errors.As(err, &sdk) || !errors.Is(err, adapters.ErrProviderError) {
				t.Fatalf("stream %v, reply %d: err = %v, want a StatusError wrapping a ReplyError, and the SDK's error", stream, i, err)
			}
			if re.Message != wantMsg || se.StatusCode != sdk.StatusCode || se.Attempts != 1 {
				t.Errorf("stream %v, reply %d: message %q, status %d (SDK's %d), attempts %d", stream, i, re.Message, se.StatusCode, sdk.StatusCode, se.Attempts)
			}
			if i == 0 && (re.Code != "model_not_found" || re.Type != "invalid_request_error" || se.StatusCode != 404 ||
				!strings.Contains(err.Error(), "HTTP 404 Not Found: The model 'gpt-nope' does not exist")) {
				t.Errorf("stream %v: %v: code %q, type %q", stream, err, re.Code, re.Type)
			}
		}
		m.Close()
	}

	// A 500, then the reply: the client's own retry (option.WithMaxRetries)
	// makes the second request.
	m := sdktest.NewModel(chatPath, "status:500\n"+`{"error":{"message":"overloaded","type":"server_error"}}`, chatReply)
	defer m.Close()
	turn, err := tnopenai.NewTransport(newClient(m), option.WithMaxRetries(1)).Send(ctx, chatBody(t))
	if err != nil {
		t.Fatalf("after a retry: %v", err)
	}
	checkTurn(t, turn)
	if n := len(m.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}

	// A stream cut off before its end.
	cut := sdktest.NewModel(chatPath, strings.TrimSuffix(chatStreamReply, streamTail))
	defer cut.Close()
	if _, err := tnopenai.NewTransport(newClient(cut)).Stream(ctx, chatBody(t), adapters.StreamHooks{}); !errors.Is(err, adapters.ErrIncomplete) {
		t.Errorf("a stream cut off: err = %v, want ErrIncomplete", err)
	}
}

// TestResponsesTransport: NewResponsesTransport posts to responses, whole
// and streamed ("stream": true), and reads the replies with
// adapters.ForOpenAIResponses.
func TestResponsesTransport(t *testing.T) {
	m := sdktest.NewModel(responsesPath, responsesScript[0], responsesStream(t, responsesScript[2]),
		"status:400\n"+`{"error":{"message":"Unknown parameter: 'inputs'.","type":"invalid_request_error","param":"inputs","code":"unknown_parameter"}}`)
	defer m.Close()
	p := adapters.ForOpenAIResponses()
	b, err := adapters.NewBody(p, adapters.Request{Model: "gpt-test", Tools: sdktest.Toolkit().Tools()})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Append(p.Prompt("Weather and time in Oslo?")...); err != nil {
		t.Fatal(err)
	}
	tr := tnopenai.NewResponsesTransport(newClient(m))
	ctx := context.Background()
	turn, err := tr.Send(ctx, b.Bytes())
	if err != nil {
		t.Fatalf("Send: %v (model: %v)", err, m.Err())
	}
	if len(turn.Calls) != 2 || turn.Calls[0].ID != "call_1" || turn.Calls[1].Name != "local_time" {
		t.Errorf("calls = %+v", turn.Calls)
	}
	var text strings.Builder
	turn, err = tr.Stream(ctx, b.Bytes(), adapters.StreamHooks{Text: func(d string) { text.WriteString(d) }})
	if err != nil {
		t.Fatalf("Stream: %v (model: %v)", err, m.Err())
	}
	if turn.Text != sdktest.FinalText || text.String() != sdktest.FinalText || turn.Calls != nil {
		t.Errorf("streamed turn: text %q (hooks %q), calls %v", turn.Text, text.String(), turn.Calls)
	}
	if s, _ := sdktest.Member(m.Requests()[1], "stream"); string(s) != "true" {
		t.Errorf("Stream sent stream %s", s)
	}
	_, err = tr.Send(ctx, b.Bytes())
	var re *adapters.ReplyError
	if !errors.As(err, &re) || re.Code != "unknown_parameter" || re.Message != "Unknown parameter: 'inputs'." {
		t.Errorf("an error reply: %v", err)
	}
}

// TestStreamTurn: StreamTurn is the raw-body streamed request of params:
// the SDK's encoding of them with "stream" and "stream_options" set, read
// by adapters' parser.
func TestStreamTurn(t *testing.T) {
	m := sdktest.NewModel(chatPath, chatStreamReply)
	defer m.Close()
	params := openai.ChatCompletionNewParams{Model: "gpt-test",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Oslo?")}}
	var text strings.Builder
	turn, err := tnopenai.StreamTurn(context.Background(), newClient(m), params, adapters.StreamHooks{Text: func(d string) { text.WriteString(d) }})
	if err != nil {
		t.Fatalf("%v (model: %v)", err, m.Err())
	}
	checkTurn(t, turn)
	if text.String() != "Checking" {
		t.Errorf("text hook saw %q", text.String())
	}
	want, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	var sent, asParams map[string]json.RawMessage
	if err := json.Unmarshal(m.Requests()[0], &sent); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &asParams); err != nil {
		t.Fatal(err)
	}
	asParams["stream"], asParams["stream_options"] = json.RawMessage("true"), json.RawMessage(`{"include_usage":true}`)
	if len(sent) != len(asParams) {
		t.Errorf("sent %d members, want %d: %s", len(sent), len(asParams), m.Requests()[0])
	}
	for k, v := range asParams {
		if !bytes.Equal(sent[k], v) {
			t.Errorf("member %s: sent %s, want %s", k, sent[k], v)
		}
	}
}
