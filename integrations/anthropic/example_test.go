package tnanthropic_test

import (
	"context"
	"fmt"
	"log"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/toolnexus/toolnexus/integrations/anthropic"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// script is the scripted Anthropic model of the example and the tests: it
// thinks, calls get_weather with a unit the tool refuses (and local_time
// in parallel), corrects the unit after reading the error, then thinks
// again and answers (so the answer is not the first content block).
var script = []string{
	`{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","stop_reason":"tool_use","stop_sequence":null,
		"usage":{"input_tokens":10,"output_tokens":10},"content":[
		{"type":"thinking","thinking":"Weather and time, in parallel.","signature":"c2lnLW9uZQ=="},
		{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city": "Oslo", "unit": "K"}},
		{"type":"tool_use","id":"toolu_2","name":"local_time","input":{"city":"Oslo"}}]}`,
	`{"id":"msg_2","type":"message","role":"assistant","model":"claude-test","stop_reason":"tool_use","stop_sequence":null,
		"usage":{"input_tokens":10,"output_tokens":10},"content":[
		{"type":"text","text":"Retrying in Celsius."},
		{"type":"tool_use","id":"toolu_3","name":"get_weather","input":{"city":"Oslo","unit":"C"}}]}`,
	`{"id":"msg_3","type":"message","role":"assistant","model":"claude-test","stop_reason":"end_turn","stop_sequence":null,
		"usage":{"input_tokens":10,"output_tokens":10},"content":[
		{"type":"thinking","thinking":"Both answers are in.","signature":"c2lnLXR3bw=="},
		{"type":"text","text":"12 °C and overcast in Oslo, where it is 09:00."}]}`,
}

const modelPath = "/v1/messages"

// newClient returns an Anthropic client that talks to the scripted model.
func newClient(m *sdktest.Model) anthropic.Client {
	return anthropic.NewClient(option.WithBaseURL(m.URL()), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

// The whole tool loop with the Anthropic SDK: the toolkit's tools in the
// params, and one call per model turn that runs the tool_use blocks and
// returns the messages to append.
func Example() {
	ctx := context.Background()
	m := sdktest.NewModel(modelPath, script...)
	defer m.Close()
	client := newClient(m)
	tk := sdktest.Toolkit() // get_weather and local_time

	// README: sdk-anthropic
	tools, err := tnanthropic.Tools(tk)
	if err != nil {
		log.Fatal(err)
	}
	params := anthropic.MessageNewParams{Model: "claude-test", MaxTokens: 1024, Tools: tools,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather and time in Oslo?"))}}
	for {
		msg, err := client.Messages.New(ctx, params)
		if err != nil {
			log.Fatal(err)
		}
		next, done, err := tnanthropic.Run(ctx, tk, msg)
		if err != nil {
			log.Fatal(err)
		}
		params.Messages = append(params.Messages, next...)
		if done {
			for _, block := range msg.Content { // thinking may come first
				if block.Type == "text" {
					fmt.Println(block.Text)
				}
			}
			break
		}
	}
	// README end

	// Output:
	// 12 °C and overcast in Oslo, where it is 09:00.
}

// The loop with streamed replies: the SDK's NewStreaming and
// Message.Accumulate build each message, printing its text as it arrives,
// and Run answers it.
func Example_stream() {
	ctx := context.Background()
	m := sdktest.NewModel(modelPath, streamScript...)
	defer m.Close()
	client := newClient(m)
	tk := sdktest.Toolkit()

	tools, err := tnanthropic.Tools(tk)
	if err != nil {
		log.Fatal(err)
	}
	params := anthropic.MessageNewParams{Model: "claude-test", MaxTokens: 1024, Tools: tools,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather and time in Oslo?"))}}
	for {
		stream := client.Messages.NewStreaming(ctx, params)
		msg := anthropic.Message{}
		printed := false
		for stream.Next() {
			event := stream.Current()
			if err := msg.Accumulate(event); err != nil {
				log.Fatal(err)
			}
			if event.Type == "content_block_delta" && event.Delta.Type == "text_delta" {
				fmt.Print(event.Delta.Text)
				printed = true
			}
		}
		if err := stream.Err(); err != nil {
			log.Fatal(err)
		}
		if printed {
			fmt.Println()
		}
		next, done, err := tnanthropic.Run(ctx, tk, &msg)
		if err != nil {
			log.Fatal(err)
		}
		params.Messages = append(params.Messages, next...)
		if done {
			break
		}
	}
	// Output:
	// Retrying in Celsius.
	// 12 °C and overcast in Oslo, where it is 09:00.
}
