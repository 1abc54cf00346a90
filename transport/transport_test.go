package transport_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/transport"
)

// Every Endpoint is a Transport.
var _ transport.Transport = (*transport.Endpoint)(nil)

// The replies and streams the test servers send are the usage fixtures
// of package adapters (testdata/usage/<provider>/), written by hand in
// each provider's shape.
func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "usage", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// endpointCase is one provider's endpoint, what its requests must look
// like, and the fixtures its server sends.
type endpointCase struct {
	name           string
	ep             func() *transport.Endpoint
	path, stream   string // the request paths (with query) of Send and Stream
	header         [2]string
	whole, stream_ string // fixtures
	streamFlag     string // the body's "stream" member as Stream sends it ("" when none)
	wholeFlag      string // and as Send sends it
}

func endpointCases() []endpointCase {
	return []endpointCase{
		{"openai", func() *transport.Endpoint { return transport.OpenAI("sk-test") }, "/v1/chat/completions", "/v1/chat/completions",
			[2]string{"Authorization", "Bearer sk-test"}, "openai/reply.json", "openai/stream.sse", "true", ""},
		{"groq", func() *transport.Endpoint {
			return transport.OpenAICompatible(adapters.ForOpenAI(adapters.Server(adapters.Groq)), "https://api.groq.com/openai/v1/", "gsk")
		}, "/openai/v1/chat/completions", "/openai/v1/chat/completions", [2]string{"Authorization", "Bearer gsk"}, "groq/reply.json", "groq/stream.sse", "true", ""},
		{"xai", func() *transport.Endpoint {
			return transport.OpenAICompatible(adapters.ForOpenAI(adapters.Server(adapters.XAI)), "https://api.x.ai/v1", "xk")
		}, "/v1/chat/completions", "/v1/chat/completions", [2]string{"Authorization", "Bearer xk"}, "xai/reply.json", "xai/stream.sse", "true", ""},
		{"mistral", func() *transport.Endpoint { return transport.Mistral("mk") }, "/v1/chat/completions", "/v1/chat/completions",
			[2]string{"Authorization", "Bearer mk"}, "mistral/reply.json", "mistral/stream.sse", "true", ""},
		{"openai-responses", func() *transport.Endpoint { return transport.OpenAIResponses("sk-r") }, "/v1/responses", "/v1/responses",
			[2]string{"Authorization", "Bearer sk-r"}, "openai-responses/reply.json", "openai-responses/stream.sse", "true", ""},
		{"anthropic", func() *transport.Endpoint { return transport.Anthropic("ak") }, "/v1/messages", "/v1/messages",
			[2]string{"X-Api-Key", "ak"}, "anthropic/reply.json", "anthropic/stream.sse", "true", ""},
		{"gemini", func() *transport.Endpoint { return transport.Gemini("gk", "gemini-2.5-flash") },
			"/v1beta/models/gemini-2.5-flash:generateContent", "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
			[2]string{"X-Goog-Api-Key", "gk"}, "gemini/reply.json", "gemini/stream.sse", "", ""},
		{"bedrock", func() *transport.Endpoint {
			return transport.Bedrock("eu-west-1", "anthropic.claude-sonnet-4-v1:0", transport.SigV4{AccessKeyID: "AKIDEXAMPLE",
				SecretAccessKey: "secret", Region: "eu-west-1", Service: "bedrock"}.Sign)
		}, "/model/anthropic.claude-sonnet-4-v1:0/converse", "/model/anthropic.claude-sonnet-4-v1:0/converse-stream",
			[2]string{"X-Amz-Date", ""}, "bedrock/reply.json", "bedrock/stream.bin", "", ""},
		{"ollama", func() *transport.Endpoint { return transport.Ollama("") }, "/api/chat", "/api/chat",
			[2]string{"Content-Type", "application/json"}, "ollama/reply.json", "ollama/stream.ndjson", "true", "false"},
	}
}

const requestBody = `{"model":"m","seed":9007199254740993,"messages":[{"role":"user","content":"Weather in Oslo?"}]}`

// TestEndpoints: every provider's endpoint posts to its path with its
// headers and stream member, and reads the whole reply and the stream its
// server sends into the same Turn as the provider's parser, usage
// included.
func TestEndpoints(t *testing.T) {
	for _, c := range endpointCases() {
		t.Run(c.name, func(t *testing.T) {
			whole, stream := fixture(t, c.whole), fixture(t, c.stream_)
			var bodies []map[string]json.RawMessage
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				var m map[string]json.RawMessage
				if err := json.Unmarshal(b, &m); err != nil {
					t.Errorf("the request body is not an object: %s", b)
				}
				bodies = append(bodies, m)
				if r.Method != http.MethodPost {
					t.Errorf("method %s", r.Method)
				}
				if got := r.Header.Get(c.header[0]); got == "" || c.header[1] != "" && got != c.header[1] {
					t.Errorf("header %s = %q, want %q", c.header[0], got, c.header[1])
				}
				if c.name == "bedrock" && !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") {
					t.Errorf("Bedrock's request is not signed: %q", r.Header.Get("Authorization"))
				}
				if c.name == "anthropic" && r.Header.Get("Anthropic-Version") == "" {
					t.Error("no anthropic-version")
				}
				got := r.URL.EscapedPath()
				if r.URL.RawQuery != "" {
					got += "?" + r.URL.RawQuery
				}
				isStream := got == c.stream && (c.path != c.stream || string(m["stream"]) == "true")
				want := c.path
				if isStream {
					want = c.stream
				}
				if got != want && strings.ReplaceAll(got, "%3A", ":") != want {
					t.Errorf("path %s, want %s", got, want)
				}
				if isStream {
					w.Write(stream)
					return
				}
				w.Write(whole)
			}))
			defer srv.Close()
			ep := c.ep().Rebase(srv.URL + basePrefix(c))
			ctx := context.Background()
			got, err := ep.Send(ctx, []byte(requestBody))
			if err != nil {
				t.Fatal(err)
			}
			want, err := ep.Provider.Parse(whole)
			if err != nil {
				t.Fatal(err)
			}
			sameTurn(t, "Send", got, want)
			if got.Usage.Known == 0 {
				t.Error("Send: no usage")
			}
			var texts []string
			var calls []adapters.Call
			got, err = ep.Stream(ctx, []byte(requestBody), adapters.StreamHooks{
				Text: func(s string) { texts = append(texts, s) },
				Call: func(c adapters.Call) { calls = append(calls, c) },
			})
			if err != nil {
				t.Fatal(err)
			}
			want, err = ep.Provider.ParseStream(bytes.NewReader(stream))
			if err != nil {
				t.Fatal(err)
			}
			sameTurn(t, "Stream", got, want)
			if strings.Join(texts, "") != got.Text {
				t.Errorf("Text hook gave %q, Turn.Text %q", strings.Join(texts, ""), got.Text)
			}
			if d := cmp.Diff(got.Calls, calls); d != "" {
				t.Errorf("Call hook (-turn +hook):\n%s", d)
			}
			if len(bodies) != 2 {
				t.Fatalf("%d requests, want 2", len(bodies))
			}
			for i, flag := range []string{c.wholeFlag, c.streamFlag} {
				if string(bodies[i]["stream"]) != flag {
					t.Errorf("request %d: stream = %s, want %q", i, bodies[i]["stream"], flag)
				}
				if string(bodies[i]["seed"]) != "9007199254740993" || string(bodies[i]["model"]) != `"m"` {
					t.Errorf("request %d: the body's members changed: %v", i, bodies[i])
				}
			}
			if c.name == "openai" && string(bodies[1]["stream_options"]) != `{"include_usage":true}` {
				t.Errorf("OpenAI's stream asks no usage: %s", bodies[1]["stream_options"])
			}
		})
	}
}

// basePrefix is the path the case's base URL has beyond its host.
func basePrefix(c endpointCase) string {
	switch c.name {
	case "openai", "xai", "mistral", "openai-responses", "anthropic":
		return "/v1"
	case "groq":
		return "/openai/v1"
	case "gemini":
		return "/v1beta"
	}
	return ""
}

func sameTurn(t *testing.T, how string, got, want adapters.Turn) {
	t.Helper()
	if d := cmp.Diff(want.Calls, got.Calls); d != "" {
		t.Errorf("%s: calls (-want +got):\n%s", how, d)
	}
	if got.Text != want.Text || got.Stop != want.Stop {
		t.Errorf("%s: text %q stop %q, want %q %q", how, got.Text, got.Stop, want.Text, want.Stop)
	}
	if d := cmp.Diff(want.Usage, got.Usage); d != "" {
		t.Errorf("%s: usage (-want +got):\n%s", how, d)
	}
}

// TestProviderErrors: a reply of status 4xx is a StatusError wrapping
// the provider's error, its message as the provider wrote it; it is not
// retried.
func TestProviderErrors(t *testing.T) {
	cases := []struct {
		name     string
		ep       *transport.Endpoint
		status   int
		body     string
		msg, typ string
	}{
		{"openai", transport.OpenAI("k"), 400, `{"error":{"message":"Invalid 'tools[0].function.name': string does not match pattern.","type":"invalid_request_error","param":"tools[0].function.name","code":"invalid_value"}}`,
			"Invalid 'tools[0].function.name': string does not match pattern.", "invalid_request_error"},
		{"mistral", transport.Mistral("k"), 401, `{"message":"Unauthorized","request_id":"r1"}`, "Unauthorized", ""},
		{"responses", transport.OpenAIResponses("k"), 404, `{"error":{"message":"The model 'gpt-9' does not exist","type":"invalid_request_error","param":"model","code":"model_not_found"}}`,
			"The model 'gpt-9' does not exist", "invalid_request_error"},
		{"anthropic", transport.Anthropic("k"), 400, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: Field required"},"request_id":"req_1"}`,
			"max_tokens: Field required", "invalid_request_error"},
		{"gemini", transport.Gemini("k", "g"), 400, `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}`,
			"API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT"},
		{"bedrock", transport.Bedrock("us-east-1", "m", nil), 403, `{"message":"The security token included in the request is invalid."}`,
			"The security token included in the request is invalid.", ""},
		{"ollama", transport.Ollama(""), 404, `{"error":"model \"llama9\" not found, try pulling it first"}`, `model "llama9" not found, try pulling it first`, ""},
		{"not the provider's", transport.OpenAI("k"), 413, "<html><body>413 Request Entity Too Large</body></html>", "<html><body>413 Request Entity Too Large</body></html>", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n.Add(1)
				w.WriteHeader(c.status)
				io.WriteString(w, c.body)
			}))
			defer srv.Close()
			c.ep.Rebase(srv.URL)
			for _, stream := range []bool{false, true} {
				var err error
				if stream {
					_, err = c.ep.Stream(context.Background(), []byte(`{}`), adapters.StreamHooks{})
				} else {
					_, err = c.ep.Send(context.Background(), []byte(`{}`))
				}
				var se *transport.StatusError
				var re *adapters.ReplyError
				if !errors.As(err, &se) || !errors.As(err, &re) || !errors.Is(err, adapters.ErrProviderError) {
					t.Fatalf("stream %v: err = %v, want a StatusError wrapping a provider's ReplyError", stream, err)
				}
				if se.StatusCode != c.status || re.Message != c.msg || re.Type != c.typ || string(se.Body) != c.body || se.Attempts != 1 {
					t.Errorf("stream %v: status %d, message %q, type %q, attempts %d; want %d, %q, %q, 1", stream, se.StatusCode, re.Message, re.Type, se.Attempts, c.status, c.msg, c.typ)
				}
				if !strings.Contains(err.Error(), c.msg) {
					t.Errorf("the error does not quote the provider: %v", err)
				}
			}
			if n.Load() != 2 {
				t.Errorf("%d requests, want 2 (a 4xx is not retried)", n.Load())
			}
		})
	}
}

// TestRetries: 429 and 5xx are retried within Retry's attempts, honouring
// Retry-After; a Retry-After beyond Max is not waited; the context ends
// the wait.
func TestRetries(t *testing.T) {
	reply := fixture(t, "anthropic/reply.json")
	overloaded := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	script := func(steps ...func(w http.ResponseWriter)) (*httptest.Server, *atomic.Int32) {
		var n atomic.Int32
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			i := int(n.Add(1)) - 1
			steps[min(i, len(steps)-1)](w)
		})), &n
	}
	status := func(code int, h ...string) func(w http.ResponseWriter) {
		return func(w http.ResponseWriter) {
			for i := 0; i+1 < len(h); i += 2 {
				w.Header().Set(h[i], h[i+1])
			}
			w.WriteHeader(code)
			io.WriteString(w, overloaded)
		}
	}
	ok := func(w http.ResponseWriter) { w.Write(reply) }

	t.Run("recovers", func(t *testing.T) {
		srv, n := script(status(529), status(429, "Retry-After-Ms", "60"), ok)
		defer srv.Close()
		ep := transport.Anthropic("k").Rebase(srv.URL)
		ep.Retry = transport.Retry{Base: time.Millisecond}
		start := time.Now()
		turn, err := ep.Send(context.Background(), []byte(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		if n.Load() != 3 || len(turn.Calls) != 1 {
			t.Errorf("%d requests, %d calls; want 3, 1", n.Load(), len(turn.Calls))
		}
		if d := time.Since(start); d < 60*time.Millisecond {
			t.Errorf("took %v: Retry-After-Ms 60 was not waited", d)
		}
	})
	t.Run("gives up", func(t *testing.T) {
		srv, n := script(status(503))
		defer srv.Close()
		ep := transport.Anthropic("k").Rebase(srv.URL)
		ep.Retry = transport.Retry{Attempts: 4, Base: time.Millisecond}
		_, err := ep.Stream(context.Background(), []byte(`{}`), adapters.StreamHooks{})
		var se *transport.StatusError
		if !errors.As(err, &se) || se.Attempts != 4 || se.StatusCode != 503 || n.Load() != 4 {
			t.Errorf("err %v, %d requests; want a 503 StatusError after 4", err, n.Load())
		}
		if !strings.Contains(err.Error(), "Overloaded") || !strings.Contains(err.Error(), "after 4 attempts") {
			t.Errorf("error %q", err)
		}
	})
	t.Run("Retry-After beyond Max", func(t *testing.T) {
		srv, n := script(status(429, "Retry-After", "120"), ok)
		defer srv.Close()
		ep := transport.Anthropic("k").Rebase(srv.URL)
		ep.Retry = transport.Retry{Max: 10 * time.Second}
		start := time.Now()
		_, err := ep.Send(context.Background(), []byte(`{}`))
		var se *transport.StatusError
		if !errors.As(err, &se) || se.RetryAfter != 120*time.Second || n.Load() != 1 || time.Since(start) > 5*time.Second {
			t.Errorf("err %v, %d requests; want the 429 at once, RetryAfter 2m", err, n.Load())
		}
	})
	t.Run("Retry-After as a date", func(t *testing.T) {
		at := time.Now().Add(1500 * time.Millisecond).UTC().Format(http.TimeFormat)
		srv, n := script(status(503, "Retry-After", at), ok)
		defer srv.Close()
		ep := transport.Anthropic("k").Rebase(srv.URL)
		if _, err := ep.Send(context.Background(), []byte(`{}`)); err != nil || n.Load() != 2 {
			t.Errorf("err %v, %d requests; want the reply after 2", err, n.Load())
		}
	})
	t.Run("cancelled while waiting", func(t *testing.T) {
		srv, n := script(status(429, "Retry-After", "20"), ok)
		defer srv.Close()
		ep := transport.Anthropic("k").Rebase(srv.URL)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := ep.Send(ctx, []byte(`{}`))
		var se *transport.StatusError
		if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &se) || n.Load() != 1 {
			t.Errorf("err %v, %d requests; want the deadline, with the 429", err, n.Load())
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("took %v", d)
		}
	})
}

// TestStreamCut: a stream whose connection drops mid-call is an error,
// and is not retried even with retries left; one whose body ends early is
// the stream's ErrIncomplete; a context cancelled mid-stream ends it.
func TestStreamCut(t *testing.T) {
	stream := fixture(t, "anthropic/stream.sse")
	mid := bytes.Index(stream, []byte("input_json_delta"))
	cuts := map[string][]byte{
		"dropped":            stream[:mid+20], // inside the tool call's arguments' event
		"ended inside event": stream[:mid+20],
		"ended":              stream[:mid+bytes.Index(stream[mid:], []byte("\n\n"))+2], // after the event, inside the call
	}
	for _, how := range []string{"dropped", "ended inside event", "ended"} {
		half := cuts[how]
		t.Run(how, func(t *testing.T) {
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n.Add(1)
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write(half)
				w.(http.Flusher).Flush()
				if how == "dropped" {
					conn, buf, err := w.(http.Hijacker).Hijack()
					if err == nil {
						buf.Flush()
						conn.Close()
					}
				}
			}))
			defer srv.Close()
			ep := transport.Anthropic("k").Rebase(srv.URL)
			ep.Retry = transport.Retry{Attempts: 5, Base: time.Millisecond}
			var text strings.Builder
			_, err := ep.Stream(context.Background(), []byte(`{}`), adapters.StreamHooks{Text: func(s string) { text.WriteString(s) }})
			if err == nil {
				t.Fatal("no error")
			}
			var re *adapters.ReplyError
			if how == "ended" && !errors.Is(err, adapters.ErrIncomplete) {
				t.Errorf("err = %v, want ErrIncomplete", err)
			}
			if how == "ended inside event" && (!errors.As(err, &re) || re.Event == 0) {
				t.Errorf("err = %v, want the stream's error at its last event", err)
			}
			if how == "dropped" && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, adapters.ErrIncomplete) {
				t.Errorf("err = %v, want the cut read", err)
			}
			if n.Load() != 1 {
				t.Errorf("%d requests: a stream being read was retried", n.Load())
			}
		})
	}
	t.Run("cancelled", func(t *testing.T) {
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write(stream[:bytes.Index(stream, []byte("event: content_block_delta"))])
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}))
		defer srv.Close()
		defer close(release)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		ep := transport.Anthropic("k").Rebase(srv.URL)
		started := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			// The thinking block's start is read before the server waits:
			// its Text hook does not fire, so cancel once the first
			// bytes came (the stream is then being consumed).
			_, err := ep.Stream(ctx, []byte(`{}`), adapters.StreamHooks{})
			done <- err
		}()
		go func() {
			time.Sleep(50 * time.Millisecond)
			close(started)
			cancel()
		}()
		<-started
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the stream did not end when its context was cancelled")
		}
	})
}

// TestBodyEdits: the stream member is set in place or added, other
// members are kept byte for byte, a body that is not one JSON object is
// an error.
func TestBodyEdits(t *testing.T) {
	var got []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = io.ReadAll(r.Body)
		w.WriteHeader(500)
	}))
	defer srv.Close()
	ep := transport.OpenAI("k").Rebase(srv.URL)
	ep.Retry = transport.Retry{Attempts: 1}
	oll := transport.Ollama(srv.URL)
	oll.Retry = transport.Retry{Attempts: 1}
	cases := []struct {
		ep       *transport.Endpoint
		stream   bool
		in, want string
	}{
		{ep, true, `{}`, `{"stream":true,"stream_options":{"include_usage":true}}`},
		{ep, true, `{ "model" : "m", "stream" : false, "n":1.50}`, `{"stream_options":{"include_usage":true}, "model" : "m", "stream":true, "n":1.50}`},
		{ep, true, `{"stream_options":{"include_usage":false},"stream":null}`, `{"stream_options":{"include_usage":false},"stream":true}`},
		{ep, false, `{"stream":false,"x":"\u00e9"}`, `{"stream":false,"x":"\u00e9"}`},
		{oll, false, ` {"messages":[{"stream":true}]} `, ` {"stream":false,"messages":[{"stream":true}]} `},
		{oll, true, `{"stream":false}`, `{"stream":true}`},
	}
	for _, c := range cases {
		got = nil
		var err error
		if c.stream {
			_, err = c.ep.Stream(context.Background(), []byte(c.in), adapters.StreamHooks{})
		} else {
			_, err = c.ep.Send(context.Background(), []byte(c.in))
		}
		var se *transport.StatusError
		if !errors.As(err, &se) {
			t.Fatalf("%s: %v", c.in, err)
		}
		if string(got) != c.want {
			t.Errorf("%s: sent %s, want %s", c.in, got, c.want)
		}
	}
	for _, bad := range []string{`[]`, `{"a":1`, `{"a":1}{}`, ``, `{"a":}`} {
		got = nil
		_, err := ep.Stream(context.Background(), []byte(bad), adapters.StreamHooks{})
		var se *transport.StatusError
		if err == nil || errors.As(err, &se) || got != nil {
			t.Errorf("%q: err %v, sent %q; want an error before any request", bad, err, got)
		}
	}
}

// TestEachAttempt: each attempt is signed anew and carries the
// Endpoint's headers, however their keys are spelled; the body is sent
// whole each time.
func TestEachAttempt(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.Header.Get("X-Custom") != "a" || r.Header.Get("X-Signed") != strings.Repeat("s", int(n.Load())+1) || string(b) != `{"messages":[]}` {
			t.Errorf("attempt %d: headers %v, body %s", n.Load()+1, r.Header, b)
		}
		if n.Add(1) < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Write(fixture(t, "bedrock/reply.json"))
	}))
	defer srv.Close()
	signs := 0
	ep := transport.Bedrock("us-east-1", "m", func(req *http.Request, body []byte) error {
		signs++
		req.Header.Set("X-Signed", strings.Repeat("s", signs))
		return nil
	}).Rebase(srv.URL)
	ep.Header = http.Header{"x-custom": {"a"}}
	ep.Retry = transport.Retry{Base: time.Millisecond}
	turn, err := ep.Send(context.Background(), []byte(`{"messages":[]}`))
	if err != nil || signs != 3 || n.Load() != 3 || len(turn.Calls) != 1 {
		t.Errorf("err %v, %d signings, %d requests, %d calls; want 3, 3, 1", err, signs, n.Load(), len(turn.Calls))
	}
	// A signer's error ends the call before any request.
	ep.Sign = func(*http.Request, []byte) error { return errors.New("no credentials") }
	n.Store(0)
	if _, err := ep.Send(context.Background(), []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "no credentials") || n.Load() != 0 {
		t.Errorf("a signer's error: %v, %d requests", err, n.Load())
	}
}
