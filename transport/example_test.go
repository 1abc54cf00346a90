package transport_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/transport"
)

// An Anthropic endpoint, here rebased on a test server that answers with
// one tool call: Send posts the body and parses the reply, usage included.
func ExampleEndpoint_Send() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}}],`+
			`"stop_reason":"tool_use","usage":{"input_tokens":12,"cache_read_input_tokens":100,"output_tokens":30}}`)
	}))
	defer srv.Close()

	ep := transport.Anthropic("sk-ant-...").Rebase(srv.URL)
	turn, err := ep.Send(context.Background(), []byte(`{"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[{"role":"user","content":"Weather in Oslo?"}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	c := turn.Calls[0]
	fmt.Println(c.Name, string(c.Args))
	fmt.Println("input", turn.Usage.Input, "cache read", turn.Usage.CacheRead, "output", turn.Usage.Output)
	// Output:
	// get_weather {"city":"Oslo"}
	// input 112 cache read 100 output 30
}

// A provider's error is a StatusError that quotes it.
func ExampleStatusError() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"message":"Unknown name \"tools\"","status":"INVALID_ARGUMENT","code":400}}`)
	}))
	defer srv.Close()

	ep := transport.Gemini("key", "gemini-2.5-flash").Rebase(srv.URL)
	_, err := ep.Stream(context.Background(), []byte(`{"contents":[]}`), adapters.StreamHooks{})
	fmt.Println(err)
	// Output:
	// transport: gemini: HTTP 400 Bad Request: Unknown name "tools"
}

// README: transport
// ask streams one turn of any Transport: its text as it comes, each tool
// call once its arguments are complete, then the Turn (calls, usage, the
// replay to append to the history).
func ask(ctx context.Context, t transport.Transport, body []byte) (adapters.Turn, error) {
	return t.Stream(ctx, body, adapters.StreamHooks{
		Text: func(s string) { fmt.Print(s) },
		Call: func(c adapters.Call) { fmt.Printf("\n[call %s %s]\n", c.Name, c.Args) },
	})
}

// README end

// A streamed turn over an Anthropic endpoint (here rebased on a test
// server that replays a stream).
func ExampleEndpoint_Stream() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []string{
			`{"type":"message_start","message":{"role":"assistant","content":[],"usage":{"input_tokens":20,"output_tokens":1}}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Let me "}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"check."}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}`,
			`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\":"}}`,
			`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" \"Oslo\"}"}}`,
			`{"type":"content_block_stop","index":1}`,
			`{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":41}}`,
			`{"type":"message_stop"}`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", ev)
		}
	}))
	defer srv.Close()

	body := []byte(`{"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[{"role":"user","content":"Weather in Oslo?"}]}`)
	turn, err := ask(context.Background(), transport.Anthropic("sk-ant-...").Rebase(srv.URL), body)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("stop:", turn.Stop, "input:", turn.Usage.Input, "output:", turn.Usage.Output)
	// Output:
	// Let me check.
	// [call get_weather {"city":"Oslo"}]
	// stop: tool_use input: 20 output: 41
}

// A whole run's bodies built with adapters.NewBody: each step appends the
// model's replay and the tools' results to the body already encoded.
func Example_body() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := io.ReadAll(r.Body)
		if !bytes.Contains(req, []byte(`"tool_result"`)) {
			io.WriteString(w, `{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}}],"stop_reason":"tool_use"}`)
			return
		}
		io.WriteString(w, `{"type":"message","role":"assistant","content":[{"type":"text","text":"4C and clear in Oslo."}],"stop_reason":"end_turn"}`)
	}))
	defer srv.Close()
	tk, err := toolnexus.NewToolkit(define.MustDefineTool(func(_ context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		return "4C and clear in " + in.City, nil
	}, define.WithName("get_weather"), define.WithDescription("The weather in a city.")))
	if err != nil {
		fmt.Println(err)
		return
	}
	text, err := run(context.Background(), transport.Anthropic("sk-ant-...").Rebase(srv.URL), tk, "Weather in Oslo?")
	fmt.Println(text, err)
	// Output:
	// 4C and clear in Oslo. <nil>
}

// README: body
// run is the whole loop on one Endpoint: the body is built once, with
// the tools, the system prompt and a prompt-cache breakpoint, and each
// step appends the model's replay and the tools' results to it.
func run(ctx context.Context, ep *transport.Endpoint, tk *toolnexus.Toolkit, prompt string) (string, error) {
	p := ep.Provider
	body, err := adapters.NewBody(p, adapters.Request{
		Model:       "claude-sonnet-4-5",
		System:      "Answer in one line.",
		Tools:       tk.Tools(),
		MaxTokens:   1024,
		CacheTools:  true, // Anthropic's cache_control on the last tool
		CacheSystem: true,
	})
	if err != nil {
		return "", err
	}
	if err := body.Append(p.Prompt(prompt)...); err != nil {
		return "", err
	}
	for step := 0; step < 8; step++ {
		turn, err := ep.Send(ctx, body.Bytes())
		if err != nil {
			return "", err
		}
		if len(turn.Calls) == 0 {
			return turn.Text, nil
		}
		results, err := p.Results(turn.Calls, tk.Run(ctx, turn.Calls))
		if err != nil {
			return "", err
		}
		if err := body.Append(append(turn.Replay, results...)...); err != nil {
			return "", err
		}
	}
	return "", errors.New("no answer in 8 steps")
}

// README end
