package tnopenai_test

import (
	"context"
	"fmt"
	"log"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/integrations/openai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// chatScript is the scripted Chat Completions model of the examples and
// tests: it first calls get_weather with a unit the tool refuses (and
// local_time in parallel), corrects the unit after reading the error, then
// answers.
var chatScript = []string{
	`{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"finish_reason":"tool_calls",
		"message":{"role":"assistant","content":null,"refusal":null,"annotations":[],"tool_calls":[
		{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\": \"Oslo\", \"unit\": \"K\"}"}},
		{"id":"call_2","type":"function","function":{"name":"local_time","arguments":"{\"city\":\"Oslo\"}"}}]}}]}`,
	`{"id":"chatcmpl-2","object":"chat.completion","created":2,"model":"gpt-test","choices":[{"index":0,"finish_reason":"tool_calls",
		"message":{"role":"assistant","content":"Retrying in Celsius.","tool_calls":[
		{"id":"call_3","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\",\"unit\":\"C\"}"}}]}}]}`,
	`{"id":"chatcmpl-3","object":"chat.completion","created":3,"model":"gpt-test","choices":[{"index":0,"finish_reason":"stop",
		"message":{"role":"assistant","content":"12 °C and overcast in Oslo, where it is 09:00."}}]}`,
}

// responsesScript is the same conversation for the Responses API, with a
// reasoning item before the first calls.
var responsesScript = []string{
	`{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-test","output":[
		{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"opaque-1"},
		{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\": \"Oslo\", \"unit\": \"K\"}","status":"completed"},
		{"type":"function_call","id":"fc_2","call_id":"call_2","name":"local_time","arguments":"{\"city\":\"Oslo\"}","status":"completed"}]}`,
	`{"id":"resp_2","object":"response","created_at":2,"status":"completed","model":"gpt-test","output":[
		{"type":"function_call","id":"fc_3","call_id":"call_3","name":"get_weather","arguments":"{\"city\":\"Oslo\",\"unit\":\"C\"}","status":"completed"}]}`,
	`{"id":"resp_3","object":"response","created_at":3,"status":"completed","model":"gpt-test","output":[
		{"type":"message","id":"msg_1","role":"assistant","status":"completed",
		"content":[{"type":"output_text","text":"12 °C and overcast in Oslo, where it is 09:00.","annotations":[]}]}]}`,
}

const (
	chatPath      = "/v1/chat/completions"
	responsesPath = "/v1/responses"
)

// newClient returns an OpenAI client that talks to the scripted model.
func newClient(m *sdktest.Model) openai.Client {
	return openai.NewClient(option.WithBaseURL(m.URL()+"/v1/"), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

// The whole tool loop with Chat Completions: the toolkit's tools in the
// params, and one call per model turn that runs the tool calls and returns
// the messages to append.
func Example() {
	ctx := context.Background()
	m := sdktest.NewModel(chatPath, chatScript...)
	defer m.Close()
	client := newClient(m)
	tk := sdktest.Toolkit() // get_weather and local_time

	// README: sdk-openai-chat
	tools, err := tnopenai.Tools(tk)
	if err != nil {
		log.Fatal(err)
	}
	params := openai.ChatCompletionNewParams{Model: "gpt-test", Tools: tools,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather and time in Oslo?")}}
	for {
		resp, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			log.Fatal(err)
		}
		next, done, err := tnopenai.Run(ctx, tk, resp)
		if err != nil {
			log.Fatal(err)
		}
		params.Messages = append(params.Messages, next...)
		if done {
			fmt.Println(resp.Choices[0].Message.Content)
			break
		}
	}
	// README end

	// Output:
	// 12 °C and overcast in Oslo, where it is 09:00.
}

// The same loop with the Responses API.
func ExampleRunResponses() {
	ctx := context.Background()
	m := sdktest.NewModel(responsesPath, responsesScript...)
	defer m.Close()
	client := newClient(m)
	tk := sdktest.Toolkit()

	// README: sdk-openai-responses
	tools, err := tnopenai.ResponsesTools(tk)
	if err != nil {
		log.Fatal(err)
	}
	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage("Weather and time in Oslo?", responses.EasyInputMessageRoleUser)}
	for {
		resp, err := client.Responses.New(ctx, responses.ResponseNewParams{Model: "gpt-test", Tools: tools,
			Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input}})
		if err != nil {
			log.Fatal(err)
		}
		next, done, err := tnopenai.RunResponses(ctx, tk, resp)
		if err != nil {
			log.Fatal(err)
		}
		input = append(input, next...)
		if done {
			fmt.Println(resp.OutputText())
			break
		}
	}
	// README end

	// Output:
	// 12 °C and overcast in Oslo, where it is 09:00.
}

// The loop with a streamed reply: StreamTurn sends the params through the
// client's Post, which hands over the raw body (the SSE stream, unread),
// and reads it with adapters' parser, printing the text as it arrives;
// RunTurn answers the Turn. The stream's calls arrive through
// StreamHooks.Call as soon as each is complete, too.
func ExampleRunTurn() {
	ctx := context.Background()
	m := sdktest.NewModel(chatPath, chatStreamScript...) // the conversation above, streamed
	defer m.Close()
	client := newClient(m)
	tk := sdktest.Toolkit()

	// README: sdk-openai-stream
	tools, err := tnopenai.Tools(tk)
	if err != nil {
		log.Fatal(err)
	}
	params := openai.ChatCompletionNewParams{Model: "gpt-test", Tools: tools,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather and time in Oslo?")}}
	for {
		turn, err := tnopenai.StreamTurn(ctx, client, params, adapters.StreamHooks{
			Text: func(delta string) { fmt.Print(delta) },
		})
		if err != nil {
			log.Fatal(err)
		}
		if turn.Text != "" {
			fmt.Println()
		}
		next, done, err := tnopenai.RunTurn(ctx, tk, turn)
		if err != nil {
			log.Fatal(err)
		}
		params.Messages = append(params.Messages, next...)
		if done {
			break
		}
	}
	// README end

	// Output:
	// Retrying in Celsius.
	// 12 °C and overcast in Oslo, where it is 09:00.
}
