package tnmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
	"github.com/toolnexus/toolnexus/schema"
)

// validatingServer lists a tool with a plain schema and, with hard, one
// whose schema uses "not", which the validator does not enforce; calls
// counts the calls that reach it.
func validatingServer(calls *atomic.Int32, hard bool) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "v", Version: "v1"}, &mcp.ServerOptions{Logger: quiet})
	count := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		calls.Add(1)
		return argsEcho(ctx, req)
	}
	server.AddTool(&mcp.Tool{Name: "book", InputSchema: json.RawMessage(`{"type":"object","properties":{` +
		`"seats":{"type":"integer","minimum":1,"maximum":9},"id":{"type":"integer"},"date":{"type":"string","format":"date"}},` +
		`"required":["seats"],"additionalProperties":false}`)}, count)
	if hard {
		server.AddTool(&mcp.Tool{Name: "odd", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"not":{"type":"string"}}}}`)}, count)
	}
	return server
}

// TestRemoteValidation: a remote tool validates its arguments before the
// network, as a local tool does; bad arguments never reach the server.
func TestRemoteValidation(t *testing.T) {
	ctx := context.Background()
	var calls atomic.Int32
	remote, err := tnmcp.NewRemote(ctx, connect(t, validatingServer(&calls, false), nil))
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	book := remote.Tools()[0]
	for _, tc := range []struct{ args, want string }{
		{`{"seats":0}`, "invalid arguments: /seats: expected integer >= 1, got 0"},
		{`{"seats":2,"date":"2026-02-30"}`, `invalid arguments: /date: expected date (YYYY-MM-DD), got "2026-02-30"`},
		// (The go-sdk client hands the schema over with its keys sorted.)
		{`{"seats":2,"name":"x"}`, "invalid arguments: /name: expected no such property (allowed: date, id, seats), got \"x\""},
		{`{}`, "invalid arguments: /seats: expected integer (required), got nothing"},
	} {
		res := book.ExecuteJSON(ctx, []byte(tc.args))
		var ae *define.ArgErrors
		if !res.IsError || res.Output != tc.want || !errors.As(res.Err, &ae) {
			t.Errorf("ExecuteJSON(%s) = %q, want %q", tc.args, res.Output, tc.want)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("%d calls reached the server, want none", n)
	}
	// A valid call goes out as the model wrote it, an integer beyond
	// 2^53 included.
	if res := book.ExecuteJSON(ctx, []byte(`{"seats":2,"id":9007199254740993}`)); res.IsError || res.Output != `book {"seats":2,"id":9007199254740993}` {
		t.Errorf("valid call: %+v", res)
	}
	if calls.Load() != 1 {
		t.Errorf("%d calls reached the server, want 1", calls.Load())
	}
}

// TestRemoteWithoutValidation: a tool with a keyword the validator cannot
// enforce is skipped, its error naming it, while the server's other tool
// loads; WithoutValidation makes every tool of the server, and their
// calls reach the server unchecked.
func TestRemoteWithoutValidation(t *testing.T) {
	ctx := context.Background()
	var calls atomic.Int32
	checked, err := tnmcp.NewRemote(ctx, connect(t, validatingServer(&calls, true), nil))
	if err != nil {
		t.Fatal(err)
	}
	defer checked.Close()
	skipped := checked.Skipped()
	if len(skipped) != 1 || skipped[0].Remote != "odd" || !errors.Is(skipped[0].Err, schema.ErrUnsupportedKeyword) ||
		!strings.Contains(skipped[0].Err.Error(), `tool "odd"`) || !strings.Contains(skipped[0].Err.Error(), "keyword not") {
		t.Fatalf("Skipped() = %v, want odd with its unsupported keyword", skipped)
	}
	if n := len(checked.Tools()); n != 1 {
		t.Fatalf("%d tools with validation, want 1 (odd skipped)", n)
	}
	remote, err := tnmcp.NewRemote(ctx, connect(t, validatingServer(&calls, true), nil), tnmcp.WithoutValidation())
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	if s := remote.Skipped(); len(s) != 0 {
		t.Fatalf("Skipped() = %v without validation, want none", s)
	}
	if n := len(remote.Tools()); n != 2 {
		t.Fatalf("%d tools, want 2", n)
	}
	if res := remote.Tools()[0].ExecuteJSON(ctx, []byte(`{"seats":0}`)); res.IsError || calls.Load() != 1 {
		t.Errorf("unvalidated call: %+v, %d calls; want it to reach the server", res, calls.Load())
	}
	if res := remote.Tools()[0].ExecuteJSON(ctx, []byte(`[1]`)); !res.IsError || calls.Load() != 1 {
		t.Errorf("an array: %+v, %d calls; want the one-object error before the network", res, calls.Load())
	}
}
