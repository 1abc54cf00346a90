package tnopenai_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/toolnexus/toolnexus/define"
	tnopenai "github.com/toolnexus/toolnexus/integrations/openai"
	"github.com/toolnexus/toolnexus/internal/mediatest"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// sentMessages decodes the messages (or input items) of a request body.
func sentMessages(t *testing.T, body json.RawMessage, key string) []any {
	t.Helper()
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	msgs, _ := req[key].([]any)
	return msgs
}

func decoded(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return v
}

// TestChatParts: through the unmodified Chat client, a tool's image, PDF
// and WAV audio follow the tool message in a user message of image_url,
// file and input_audio parts, each after a text part naming its call.
func TestChatParts(t *testing.T) {
	png, pdf, wav := mediatest.PNG(), mediatest.PDF(), mediatest.WAV()
	tk := sdktest.MediaToolkit(define.ImagePart("", png), define.FilePart("application/pdf", "report.pdf", pdf), define.AudioPart("", wav))
	m := sdktest.NewModel(chatPath,
		`{"id":"c1","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"finish_reason":"tool_calls",
			"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"screenshot","arguments":"{}"}}]}}]}`,
		`{"id":"c2","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"finish_reason":"stop",
			"message":{"role":"assistant","content":"A chart."}}]}`)
	defer m.Close()
	ctx := context.Background()
	client := newClient(m)
	tools, err := tnopenai.Tools(tk)
	if err != nil {
		t.Fatal(err)
	}
	params := openai.ChatCompletionNewParams{Model: "gpt-test", Tools: tools,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("What is on screen?")}}
	for done := false; !done; {
		resp, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			t.Fatalf("%v (model: %v)", err, m.Err())
		}
		var next []openai.ChatCompletionMessageParamUnion
		if next, done, err = tnopenai.Run(ctx, tk, resp); err != nil {
			t.Fatal(err)
		}
		params.Messages = append(params.Messages, next...)
	}
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	msgs := sentMessages(t, m.Requests()[1], "messages")
	b64 := base64.StdEncoding.EncodeToString
	want := decoded(t, `[
		{"role":"tool","tool_call_id":"call_1","content":"captured\n[image: image/png, 84 bytes; attachment 1, in the next message]\n[file \"report.pdf\": application/pdf, 309 bytes; attachment 2, in the next message]\n[audio: audio/wav, 52 bytes; attachment 3, in the next message]"},
		{"role":"user","content":[
			{"type":"text","text":"Attachment 1, from the result of call call_1 (screenshot):"},
			{"type":"image_url","image_url":{"url":"data:image/png;base64,`+b64(png)+`"}},
			{"type":"text","text":"Attachment 2, from the result of call call_1 (screenshot):"},
			{"type":"file","file":{"file_data":"data:application/pdf;base64,`+b64(pdf)+`","filename":"report.pdf"}},
			{"type":"text","text":"Attachment 3, from the result of call call_1 (screenshot):"},
			{"type":"input_audio","input_audio":{"data":"`+b64(wav)+`","format":"wav"}}]}]`)
	if diff := cmp.Diff(want, msgs[2:]); diff != "" {
		t.Errorf("messages sent after the assistant's (-want +got):\n%s", diff)
	}
}

// TestResponsesParts: through the unmodified Responses client, a tool's
// image, PDF and image by URL are the function_call_output's output list.
func TestResponsesParts(t *testing.T) {
	png, pdf := mediatest.PNG(), mediatest.PDF()
	tk := sdktest.MediaToolkit(define.ImagePart("", png), define.FilePart("application/pdf", "report.pdf", pdf), define.ImageURLPart("https://example.com/chart.png"))
	m := sdktest.NewModel(responsesPath,
		`{"id":"r1","object":"response","created_at":1,"model":"gpt-test","status":"completed","output":[
			{"type":"function_call","id":"fc_1","call_id":"call_1","name":"screenshot","arguments":"{}","status":"completed"}]}`,
		`{"id":"r2","object":"response","created_at":1,"model":"gpt-test","status":"completed","output":[
			{"type":"message","id":"m_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"A chart.","annotations":[]}]}]}`)
	defer m.Close()
	ctx := context.Background()
	client := newClient(m)
	tools, err := tnopenai.ResponsesTools(tk)
	if err != nil {
		t.Fatal(err)
	}
	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage("What is on screen?", responses.EasyInputMessageRoleUser)}
	for done := false; !done; {
		resp, err := client.Responses.New(ctx, responses.ResponseNewParams{Model: "gpt-test", Tools: tools,
			Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input}})
		if err != nil {
			t.Fatalf("%v (model: %v)", err, m.Err())
		}
		var next []responses.ResponseInputItemUnionParam
		if next, done, err = tnopenai.RunResponses(ctx, tk, resp); err != nil {
			t.Fatal(err)
		}
		input = append(input, next...)
	}
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	items := sentMessages(t, m.Requests()[1], "input")
	b64 := base64.StdEncoding.EncodeToString
	want := decoded(t, `{"type":"function_call_output","call_id":"call_1","output":[
		{"type":"input_text","text":"captured"},
		{"type":"input_image","image_url":"data:image/png;base64,`+b64(png)+`","detail":"auto"},
		{"type":"input_file","file_data":"data:application/pdf;base64,`+b64(pdf)+`","filename":"report.pdf"},
		{"type":"input_image","image_url":"https://example.com/chart.png","detail":"auto"}]}`)
	if diff := cmp.Diff(want, items[len(items)-1]); diff != "" {
		t.Errorf("function_call_output sent (-want +got):\n%s", diff)
	}
}
