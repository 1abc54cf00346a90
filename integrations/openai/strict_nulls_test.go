package tnopenai_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/integrations/openai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

const nullUnitErr = "error: invalid arguments: /unit: expected string, got null"

// TestChatStrictNulls: with strict tools (every optional property required
// and nullable), the model leaves get_weather's unit out by sending null;
// tnopenai.Run under WithProvider of the same strict rendering reads it as
// absent (the default "C" applies); without WithProvider the verdict is
// the plain one.
func TestChatStrictNulls(t *testing.T) {
	reply := `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"finish_reason":"tool_calls",
		"message":{"role":"assistant","content":null,"refusal":null,"annotations":[],"tool_calls":[
		{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\",\"unit\":null}"}},
		{"id":"call_2","type":"function","function":{"name":"local_time","arguments":"{\"city\":null}"}}]}}]}`
	for _, tc := range []struct {
		name string
		opts []toolnexus.RunOption
		want string
	}{
		{"WithProvider", []toolnexus.RunOption{toolnexus.WithProvider(adapters.ForOpenAI(adapters.Strict(true)))}, weatherOK},
		{"WithProvider where possible", []toolnexus.RunOption{toolnexus.WithProvider(adapters.ForOpenAI(adapters.StrictWherePossible()))}, weatherOK},
		{"no provider", nil, nullUnitErr},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sdktest.NewModel(chatPath, reply)
			defer m.Close()
			ctx := context.Background()
			client := newClient(m)
			tk := sdktest.Toolkit()
			tools, err := tnopenai.Tools(tk, adapters.Strict(true))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "gpt-test", Tools: tools,
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Oslo?")}})
			if err != nil {
				t.Fatalf("%v (model: %v)", err, m.Err())
			}
			sent := m.Requests()[0]
			if !bytes.Contains(sent, []byte(`"strict":true`)) || !bytes.Contains(sent, []byte(`"required":["city","unit"]`)) {
				t.Errorf("the request's tools are not strict with unit required: %s", sent)
			}
			next, done, err := tnopenai.Run(ctx, tk, resp, tc.opts...)
			if err != nil || done {
				t.Fatalf("Run: %v, done %v", err, done)
			}
			if got := next[1].OfTool.Content.OfString.Value; got != tc.want {
				t.Errorf("get_weather's tool message %q, want %q", got, tc.want)
			}
			// city is required: its null is an error under any rendering.
			if got := next[2].OfTool.Content.OfString.Value; !strings.Contains(got, "/city: expected string, got null") {
				t.Errorf("local_time's tool message %q, want the required city's error", got)
			}
		})
	}
}

// TestResponsesStrictNulls: the same over the Responses API.
func TestResponsesStrictNulls(t *testing.T) {
	reply := `{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-test","output":[
		{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Oslo\",\"unit\":null}","status":"completed"}]}`
	for _, tc := range []struct {
		name string
		opts []toolnexus.RunOption
		want string
	}{
		{"WithProvider", []toolnexus.RunOption{toolnexus.WithProvider(adapters.ForOpenAIResponses(adapters.Strict(true)))}, weatherOK},
		{"no provider", nil, nullUnitErr},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sdktest.NewModel(responsesPath, reply)
			defer m.Close()
			ctx := context.Background()
			client := newClient(m)
			tk := sdktest.Toolkit()
			tools, err := tnopenai.ResponsesTools(tk, adapters.Strict(true))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := client.Responses.New(ctx, responses.ResponseNewParams{Model: "gpt-test", Tools: tools,
				Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Weather in Oslo?")}})
			if err != nil {
				t.Fatalf("%v (model: %v)", err, m.Err())
			}
			next, done, err := tnopenai.RunResponses(ctx, tk, resp, tc.opts...)
			if err != nil || done {
				t.Fatalf("RunResponses: %v, done %v", err, done)
			}
			if got := next[1].OfFunctionCallOutput.Output.OfString.Value; got != tc.want {
				t.Errorf("function_call_output %q, want %q", got, tc.want)
			}
		})
	}
}

// TestStreamStrictNulls: a streamed reply read by the strict Provider's
// ParseStream carries its rendering: RunTurn needs no WithProvider.
func TestStreamStrictNulls(t *testing.T) {
	body := `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\",\"unit\":null}"}}]},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

`
	ctx := context.Background()
	tk := sdktest.Toolkit()
	for _, tc := range []struct {
		p    adapters.Provider
		want string
	}{
		{adapters.ForOpenAI(adapters.Strict(true)), weatherOK},
		{adapters.ForOpenAI(), nullUnitErr},
	} {
		turn, err := tc.p.ParseStream(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		next, _, err := tnopenai.RunTurn(ctx, tk, turn)
		if err != nil {
			t.Fatal(err)
		}
		if got := next[1].OfTool.Content.OfString.Value; got != tc.want {
			t.Errorf("%v: tool message %q, want %q", tc.p, got, tc.want)
		}
	}
}
