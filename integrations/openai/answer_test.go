package tnopenai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/golden"
	"github.com/toolnexus/toolnexus/integrations/openai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

var forecast = define.MustDefineAnswer[sdktest.Forecast](define.WithDescription("The forecast the user asked for"))

// chatAnswer is a chat completion whose content is text and finish reason
// finish, and whose refusal is refusal (null when "").
func chatAnswer(content, refusal, finish string) string {
	c, _ := json.Marshal(content)
	r := []byte("null")
	if refusal != "" {
		r, _ = json.Marshal(refusal)
		c = []byte("null")
	}
	return `{"id":"chatcmpl-a","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":` +
		string(c) + `,"refusal":` + string(r) + `},"finish_reason":"` + finish + `"}]}`
}

// checkFormatSent: the request's member is the rendered format, byte for
// byte (space aside).
func checkFormatSent(t *testing.T, body json.RawMessage, key string, p adapters.Provider) {
	t.Helper()
	sent, err := sdktest.Member(body, key)
	if err != nil {
		t.Fatal(err)
	}
	req, err := adapters.ResponseFormat(p, forecast)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := json.Compact(&got, sent); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(req.Value) {
		t.Errorf("%s sent:\n%s\nwant the rendered bytes:\n%s", key, got.String(), req.Value)
	}
}

// TestChatAnswer: the official client, unmodified, asks for the typed
// answer in the same conversation as the tool calls (the tools and the
// response format in one request), and the last reply decodes into a
// Forecast; its optional note comes back null, as under strict mode.
func TestChatAnswer(t *testing.T) {
	script := append(append([]string(nil), chatScript[:2]...), chatAnswer(sdktest.ForecastStrictText, "", "stop"))
	m := sdktest.NewModel(chatPath, script...)
	defer m.Close()
	ctx := context.Background()
	client := newClient(m)
	tk := sdktest.Toolkit()
	tools, err := tnopenai.Tools(tk)
	if err != nil {
		t.Fatal(err)
	}
	format, err := tnopenai.ResponseFormat(forecast)
	if err != nil {
		t.Fatal(err)
	}
	params := openai.ChatCompletionNewParams{Model: "gpt-test", Tools: tools, ResponseFormat: format,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Forecast for Oslo?")}}
	var got sdktest.Forecast
	for turn := 1; ; turn++ {
		if turn > len(script) {
			t.Fatal("the loop did not end")
		}
		resp, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			t.Fatalf("turn %d: %v (model: %v)", turn, err, m.Err())
		}
		got, err = tnopenai.DecodeAnswer(forecast, resp)
		if errors.Is(err, adapters.ErrToolCalls) {
			next, _, err := tnopenai.Run(ctx, tk, resp)
			if err != nil {
				t.Fatal(err)
			}
			params.Messages = append(params.Messages, next...)
			continue
		}
		if err != nil {
			t.Fatalf("turn %d: DecodeAnswer: %v", turn, err)
		}
		break
	}
	if got != sdktest.ForecastValue {
		t.Errorf("answer = %+v, want %+v", got, sdktest.ForecastValue)
	}
	reqs := m.Requests()
	if len(reqs) != len(script) {
		t.Fatalf("%d requests, want %d", len(reqs), len(script))
	}
	for _, body := range reqs {
		checkFormatSent(t, body, "response_format", adapters.ForOpenAI())
	}
	golden.JSON(t, "testdata/answer_chat_requests.json", reqs)
}

// TestChatAnswerOutcomes: a refusal, a cut answer and a bad answer, as
// the SDK's response carries them.
func TestChatAnswerOutcomes(t *testing.T) {
	for _, c := range []struct {
		name, reply string
		is          error
		want        string
	}{
		{"refusal", chatAnswer("", "I can't share forecasts.", "stop"), adapters.ErrRefused, "I can't share forecasts."},
		{"cut", chatAnswer(`{"city":"Os`, "", "length"), adapters.ErrIncomplete, `{"city":"Os`},
		{"bad", chatAnswer(`{"city":"Oslo","temp_c":99,"sky":"fog"}`, "", "stop"), define.ErrConstraint, "/temp_c: expected integer <= 60, got 99; /sky: expected one of"},
		{"loose null", chatAnswer(sdktest.ForecastStrictText, "", "stop"), define.ErrType, "/note: expected string, got null"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := sdktest.NewModel(chatPath, c.reply)
			defer m.Close()
			client := newClient(m)
			var opts []adapters.Option
			if c.name == "loose null" {
				opts = append(opts, adapters.Strict(false))
			}
			format, err := tnopenai.ResponseFormat(forecast, opts...)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{Model: "gpt-test", ResponseFormat: format,
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Forecast?")}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = tnopenai.DecodeAnswer(forecast, resp, opts...)
			if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("DecodeAnswer = %v, want %v with %q", err, c.is, c.want)
			}
			var ae *adapters.AnswerError
			if errors.As(err, &ae) && ae.Words != c.want {
				t.Errorf("Words = %q, want %q", ae.Words, c.want)
			}
		})
	}
	if _, err := tnopenai.DecodeAnswer(forecast, nil); !errors.Is(err, tnopenai.ErrReply) {
		t.Errorf("DecodeAnswer(nil) = %v", err)
	}
	if _, err := tnopenai.ResponseFormat(forecast, adapters.AnswerTool()); err == nil || !strings.Contains(err.Error(), "forced tool call") {
		t.Errorf("ResponseFormat with AnswerTool = %v", err)
	}
	if _, err := tnopenai.ResponseFormat(forecast, adapters.Strict(true), adapters.Strict(false)); err == nil {
		t.Error("ResponseFormat with conflicting options: no error")
	}
}

// TestResponsesAnswer: the same with the Responses API, a refusal too.
func TestResponsesAnswer(t *testing.T) {
	answer := func(content string) string {
		return `{"id":"resp_a","object":"response","created_at":1,"status":"completed","model":"gpt-test","output":[
			{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[` + content + `]}]}`
	}
	text, _ := json.Marshal(sdktest.ForecastStrictText)
	m := sdktest.NewModel(responsesPath,
		answer(`{"type":"output_text","text":`+string(text)+`,"annotations":[]}`),
		answer(`{"type":"refusal","refusal":"I can't share forecasts."}`))
	defer m.Close()
	ctx := context.Background()
	client := newClient(m)
	format, err := tnopenai.ResponsesFormat(forecast)
	if err != nil {
		t.Fatal(err)
	}
	params := responses.ResponseNewParams{Model: "gpt-test", Text: format,
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Forecast for Oslo?")}}
	resp, err := client.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tnopenai.DecodeResponsesAnswer(forecast, resp)
	if err != nil || got != sdktest.ForecastValue {
		t.Errorf("DecodeResponsesAnswer = %+v, %v", got, err)
	}
	resp, err = client.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tnopenai.DecodeResponsesAnswer(forecast, resp); !errors.Is(err, adapters.ErrRefused) {
		t.Errorf("refusal: %v", err)
	}
	reqs := m.Requests()
	for _, body := range reqs {
		checkFormatSent(t, body, "text", adapters.ForOpenAIResponses())
	}
	if _, err := tnopenai.DecodeResponsesAnswer(forecast, nil); !errors.Is(err, tnopenai.ErrReply) {
		t.Errorf("DecodeResponsesAnswer(nil) = %v", err)
	}
}

// The typed answer with the Chat Completions API: the response format in
// the params, the SDK's response decoded into a Go value.
func ExampleDecodeAnswer() {
	ctx := context.Background()
	m := sdktest.NewModel(chatPath, chatAnswer(sdktest.ForecastStrictText, "", "stop"))
	defer m.Close()
	client := newClient(m)

	forecast := define.MustDefineAnswer[sdktest.Forecast]()
	format, err := tnopenai.ResponseFormat(forecast)
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "gpt-test", ResponseFormat: format,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Forecast for Oslo?")}})
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := tnopenai.DecodeAnswer(forecast, resp)
	fmt.Printf("%+v %v\n", f, err)
	// Output:
	// {City:Oslo TempC:12 Sky:overcast Note:} <nil>
}
