package tngenai_test

import (
	"context"
	"fmt"
	"log"

	"github.com/toolnexus/toolnexus/integrations/genai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
	"google.golang.org/genai"
)

// The scripted Gemini model of the example and the tests: it first calls
// get_weather with a unit the tool refuses (and local_time in parallel),
// corrects the unit after reading the error, then answers.
var script = []string{
	`{"candidates":[{"content":{"role":"model","parts":[
		{"functionCall":{"id":"call-1","name":"get_weather","args":{"city":"Oslo","unit":"K"}},"thoughtSignature":"c2lnLW9uZQ=="},
		{"functionCall":{"id":"call-2","name":"local_time","args":{"city":"Oslo"}}}]},"finishReason":"STOP"}]}`,
	`{"candidates":[{"content":{"role":"model","parts":[
		{"functionCall":{"name":"get_weather","args":{"city":"Oslo","unit":"C"}},"thoughtSignature":"c2lnLXR3bw=="}]},"finishReason":"STOP"}]}`,
	`{"candidates":[{"content":{"role":"model","parts":[{"text":"12 °C and overcast in Oslo, where it is 09:00."}]},"finishReason":"STOP"}]}`,
}

const modelPath = "/v1beta/models/gemini-test:generateContent"

// newClient returns a genai client that talks to the scripted model.
func newClient(ctx context.Context, m *sdktest.Model) (*genai.Client, error) {
	return genai.NewClient(ctx, &genai.ClientConfig{
		APIKey: "test-key", Backend: genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: m.URL(), APIVersion: "v1beta"},
	})
}

// The whole tool loop with the genai SDK: the toolkit's tools in the
// config, and one call per model turn that runs the function calls and
// returns what to append to the history.
func Example() {
	ctx := context.Background()
	m := sdktest.NewModel(modelPath, script...)
	defer m.Close()
	client, err := newClient(ctx, m)
	if err != nil {
		log.Fatal(err)
	}
	tk := sdktest.Toolkit() // get_weather and local_time

	// README: sdk-genai
	tools, err := tngenai.Tools(tk)
	if err != nil {
		log.Fatal(err)
	}
	config := &genai.GenerateContentConfig{Tools: tools}
	history := []*genai.Content{genai.NewContentFromText("Weather and time in Oslo?", genai.RoleUser)}
	for {
		resp, err := client.Models.GenerateContent(ctx, "gemini-test", history, config)
		if err != nil {
			log.Fatal(err)
		}
		next, done, err := tngenai.Run(ctx, tk, resp)
		if err != nil {
			log.Fatal(err)
		}
		history = append(history, next...)
		if done {
			fmt.Println(resp.Text())
			break
		}
	}
	// README end

	// Output:
	// 12 °C and overcast in Oslo, where it is 09:00.
}

// With a genai.Chat, which keeps the history itself, RunParts gives the
// function responses to send back.
func ExampleRunParts() {
	ctx := context.Background()
	m := sdktest.NewModel(modelPath, script...)
	defer m.Close()
	client, err := newClient(ctx, m)
	if err != nil {
		log.Fatal(err)
	}
	tk := sdktest.Toolkit()

	tools, err := tngenai.Tools(tk)
	if err != nil {
		log.Fatal(err)
	}
	chat, err := client.Chats.Create(ctx, "gemini-test", &genai.GenerateContentConfig{Tools: tools}, nil)
	if err != nil {
		log.Fatal(err)
	}
	resp, err := chat.SendMessage(ctx, genai.Part{Text: "Weather and time in Oslo?"})
	for err == nil {
		var parts []*genai.Part
		parts, err = tngenai.RunParts(ctx, tk, resp)
		if err != nil || parts == nil {
			break
		}
		resp, err = chat.Send(ctx, parts...)
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Text())
	// Output:
	// 12 °C and overcast in Oslo, where it is 09:00.
}

// The loop with streamed responses: Collect joins the chunks of
// GenerateContentStream into the one response Run answers.
func ExampleCollect() {
	ctx := context.Background()
	m := sdktest.NewModel(streamPath, streamBodies(true)...)
	defer m.Close()
	client, err := newClient(ctx, m)
	if err != nil {
		log.Fatal(err)
	}
	tk := sdktest.Toolkit()

	tools, err := tngenai.Tools(tk)
	if err != nil {
		log.Fatal(err)
	}
	config := &genai.GenerateContentConfig{Tools: tools}
	history := []*genai.Content{genai.NewContentFromText("Weather and time in Oslo?", genai.RoleUser)}
	for {
		resp, err := tngenai.Collect(client.Models.GenerateContentStream(ctx, "gemini-test", history, config))
		if err != nil {
			log.Fatal(err)
		}
		next, done, err := tngenai.Run(ctx, tk, resp)
		if err != nil {
			log.Fatal(err)
		}
		history = append(history, next...)
		if done {
			fmt.Println(resp.Text())
			break
		}
	}
	// Output:
	// 12 °C and overcast in Oslo, where it is 09:00.
}
