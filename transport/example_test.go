package transport_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/toolnexus/toolnexus/adapters"
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
