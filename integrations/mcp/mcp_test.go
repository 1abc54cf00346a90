package tnmcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus/golden"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
	"github.com/toolnexus/toolnexus/integrations/mcp/internal/weather"
)

// wireMsg is one JSON-RPC message as it went over the wire.
type wireMsg struct {
	Dir     string          `json:"dir"` // "client->server" or "server->client"
	Message json.RawMessage `json:"message"`
}

const (
	toServer = "client->server"
	toClient = "server->client"
)

// newServer is the weather toolkit registered on a go-sdk server.
func newServer(t *testing.T) *mcp.Server {
	t.Helper()
	tk, err := weather.Toolkit()
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "v1.0.0"}, nil)
	if err := tnmcp.AddTools(server, tk); err != nil {
		t.Fatal(err)
	}
	return server
}

func newClient() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "test-host", Version: "v0.0.1"}, nil)
}

// connectInMemory connects a client to server over the in-memory
// transport; the client's side records every message it writes (before
// writing it) and reads (before handing it on), so the order is the
// conversation's.
func connectInMemory(t *testing.T, ctx context.Context, server *mcp.Server) (*mcp.ClientSession, func() []wireMsg) {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	rec := &recorder{t: t}
	cs, err := newClient().Connect(ctx, &recordingTransport{Transport: ct, rec: rec}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, rec.messages
}

// recordingTransport is an mcp.Transport that records the messages of the
// connection it makes.
type recordingTransport struct {
	mcp.Transport
	rec *recorder
}

func (r *recordingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: c, rec: r.rec}, nil
}

type recordingConn struct {
	mcp.Connection
	rec *recorder
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		c.rec.message(toClient, msg)
	}
	return msg, err
}

func (c *recordingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	c.rec.message(toServer, msg)
	return c.Connection.Write(ctx, msg)
}

// connectHTTP serves server over streamable HTTP (httptest) and connects a
// client to it through a recording http.Client: the wire is every POST
// body and the JSON-RPC messages of its response (SSE data lines or a JSON
// body).
func connectHTTP(t *testing.T, ctx context.Context, server *mcp.Server) (*mcp.ClientSession, func() []wireMsg) {
	t.Helper()
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	t.Cleanup(ts.Close)
	rec := &recorder{next: http.DefaultTransport, t: t}
	transport := &mcp.StreamableClientTransport{
		Endpoint:             ts.URL,
		HTTPClient:           &http.Client{Transport: rec},
		DisableStandaloneSSE: true, // no hanging GET: the wire is the POSTs
	}
	cs, err := newClient().Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, rec.messages
}

// recorder records wire messages: as an http.RoundTripper, the bodies of
// POST requests and their responses; for a recordingConn, each message.
type recorder struct {
	next http.RoundTripper
	t    *testing.T
	mu   sync.Mutex
	msgs []wireMsg
}

func (r *recorder) message(dir string, msg jsonrpc.Message) {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		r.t.Errorf("encoding a %s message: %v", dir, err)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, wireMsg{dir, data})
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost {
		return r.next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	resp, err := r.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(out))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, wireMsg{toServer, bytes.TrimSpace(body)})
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.Lines(string(out)) {
			if data, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "data: "); ok {
				r.msgs = append(r.msgs, wireMsg{toClient, json.RawMessage(data)})
			}
		}
	} else if len(bytes.TrimSpace(out)) > 0 {
		r.msgs = append(r.msgs, wireMsg{toClient, bytes.TrimSpace(out)})
	}
	return resp, nil
}

func (r *recorder) messages() []wireMsg {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]wireMsg(nil), r.msgs...)
}

// received is what the client got, in order.
type received struct {
	Tools []*mcp.Tool           `json:"tools"`
	Turn1 []*mcp.CallToolResult `json:"turn1"`
	Turn2 []*mcp.CallToolResult `json:"turn2"`
}

// badCelsius is the model's mistake: the temperature as text.
const badCelsius = `{"celsius":"21 °C"}`

// converse plays a host whose model makes two tool-calling turns: three
// calls, one with bad arguments; then the corrected call.
func converse(t *testing.T, ctx context.Context, cs *mcp.ClientSession) received {
	t.Helper()
	var got received
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	got.Tools = list.Tools
	call := func(name, args string) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("CallTool(%s, %s): %v", name, args, err)
		}
		return res
	}
	got.Turn1 = []*mcp.CallToolResult{
		call("get_weather", `{"city":"Paris"}`),
		call("get_time", `{"zone":"Europe/Paris"}`),
		call("celsius_to_fahrenheit", badCelsius),
	}
	got.Turn2 = []*mcp.CallToolResult{call("celsius_to_fahrenheit", `{"celsius":21}`)}
	return got
}

func text(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	if len(r.Content) != 1 {
		t.Fatalf("result has %d content blocks, want 1", len(r.Content))
	}
	tc, ok := r.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want *mcp.TextContent", r.Content[0])
	}
	return tc.Text
}

func TestTwoTurns(t *testing.T) {
	for _, tr := range []struct {
		name    string
		connect func(*testing.T, context.Context, *mcp.Server) (*mcp.ClientSession, func() []wireMsg)
	}{
		{"inmemory", connectInMemory},
		{"http", connectHTTP},
	} {
		t.Run(tr.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cs, wire := tr.connect(t, ctx, newServer(t))
			got := converse(t, ctx, cs)
			if err := cs.Close(); err != nil {
				t.Errorf("closing the session: %v", err)
			}

			// What matters, asserted directly.
			type summary struct {
				Names      []string
				IsError    []bool
				ErrorText  string
				Structured any
			}
			want := summary{
				Names:      []string{"celsius_to_fahrenheit", "get_time", "get_weather"}, // the SDK lists tools by name
				IsError:    []bool{false, false, true, false},
				ErrorText:  `invalid arguments: /celsius: expected number, got "21 °C"`,
				Structured: map[string]any{"fahrenheit": 69.8},
			}
			var s summary
			for _, tool := range got.Tools {
				s.Names = append(s.Names, tool.Name)
			}
			for _, r := range append(got.Turn1, got.Turn2...) {
				s.IsError = append(s.IsError, r.IsError)
			}
			s.ErrorText = text(t, got.Turn1[2])
			s.Structured = got.Turn2[0].StructuredContent
			if diff := cmp.Diff(want, s); diff != "" {
				t.Errorf("client received (-want +got):\n%s", diff)
			}
			if got.Turn1[1].StructuredContent != nil || got.Turn1[2].StructuredContent != nil {
				t.Errorf("structuredContent on a string output or an error: %v, %v", got.Turn1[1].StructuredContent, got.Turn1[2].StructuredContent)
			}
			for _, tool := range got.Tools {
				if hasOut := tool.OutputSchema != nil; hasOut != (tool.Name != "get_time") {
					t.Errorf("%s: has an output schema = %v, want one for struct outputs only", tool.Name, hasOut)
				}
			}

			golden.JSON(t, filepath.Join("testdata", "golden", tr.name+"_client.json"), got)
			msgs := wire()
			for _, m := range msgs {
				for _, null := range []string{`"outputSchema":null`, `"structuredContent":null`, `"inputSchema":null`, `"content":null`} {
					if bytes.Contains(m.Message, []byte(null)) {
						t.Errorf("%s sent %s: %s", m.Dir, null, m.Message)
					}
				}
			}
			golden.JSON(t, filepath.Join("testdata", "golden", tr.name+"_wire.json"), msgs)
		})
	}
}
