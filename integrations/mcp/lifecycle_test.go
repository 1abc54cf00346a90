package tnmcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

type noteArgs struct {
	Text string `json:"text" minLength:"1"`
}

// TestAddToolsRunsTheLifecycle serves a toolkit with middleware, an
// approval gate and an observer, and calls it through a client: every
// call goes through them.
func TestAddToolsRunsTheLifecycle(t *testing.T) {
	ran := 0
	note := define.MustDefineTool(func(ctx context.Context, in noteArgs) (string, error) {
		ran++
		return "noted: " + in.Text, nil
	}, define.WithName("note"))
	wipe := define.MustDefineTool(func(ctx context.Context, in struct{}) (string, error) {
		ran++
		return "wiped", nil
	}, define.WithName("wipe"))
	censor := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			if strings.Contains(c.Input().(noteArgs).Text, "secret") {
				return toolnexus.Denied("no secrets in notes")
			}
			return next(ctx, c)
		}
	}
	var outcomes []string
	observe := func(ctx context.Context, e toolnexus.Event) {
		outcomes = append(outcomes, e.Call.Name+":"+string(e.Outcome))
	}
	tk, err := toolnexus.NewToolkitWith([]define.Tool{note, wipe},
		toolnexus.WithToolMiddleware("note", censor), toolnexus.WithApproval("wipe"), toolnexus.WithObserver(observe))
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "v1"}, nil)
	if err := tnmcp.AddTools(server, tk); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cs, _ := connectInMemory(t, ctx, server)
	call := func(name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("CallTool(%s): %v", name, err)
		}
		return res
	}
	text := func(r *mcp.CallToolResult) string { return r.Content[0].(*mcp.TextContent).Text }
	if r := call("note", map[string]any{"text": "milk"}); r.IsError || text(r) != "noted: milk" {
		t.Errorf("note: %+v", r)
	}
	if r := call("note", map[string]any{"text": "the secret"}); !r.IsError || text(r) != "denied: no secrets in notes" {
		t.Errorf("denied note: %v %q", r.IsError, text(r))
	}
	if r := call("wipe", nil); !r.IsError || !strings.HasPrefix(text(r), "awaiting approval") {
		t.Errorf("wipe: %v %q", r.IsError, text(r))
	}
	if ran != 1 {
		t.Errorf("ran %d tools, want 1", ran)
	}
	if got, want := strings.Join(outcomes, " "), "note:ok note:denied wipe:pending"; got != want {
		t.Errorf("outcomes %s, want %s", got, want)
	}
}

// TestApprovalByElicitation serves a tool that needs approval to clients
// that answer elicitation requests, and to one that cannot.
func TestApprovalByElicitation(t *testing.T) {
	ran := 0
	wipe := define.MustDefineTool(func(ctx context.Context, in noteArgs) (string, error) {
		ran++
		return "wiped " + in.Text, nil
	}, define.WithName("wipe"))
	tk, err := toolnexus.NewToolkitWith([]define.Tool{wipe}, toolnexus.WithApproval("wipe"))
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "v1"}, nil)
	if err := tnmcp.AddTools(server, tk); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	connect := func(opts *mcp.ClientOptions) *mcp.ClientSession {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Close() })
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v1"}, opts).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	var asked []string
	answer := func(action string) *mcp.ClientOptions {
		return &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &mcp.ElicitResult{Action: action, Content: map[string]any{}}, nil
		}}
	}
	for _, tc := range []struct {
		opts    *mcp.ClientOptions
		isError bool
		text    string
	}{
		{answer("accept"), false, "wiped disk"},
		{answer("decline"), true, "denied: the user declined"},
		{answer("cancel"), true, "denied: the user dismissed the request"},
		{nil, true, "awaiting approval: the tool has not run yet"},
	} {
		res, err := connect(tc.opts).CallTool(ctx, &mcp.CallToolParams{Name: "wipe", Arguments: map[string]any{"text": "disk"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; res.IsError != tc.isError || got != tc.text {
			t.Errorf("got %v %q, want %v %q", res.IsError, got, tc.isError, tc.text)
		}
	}
	// A state the server did not make is refused, and nothing runs.
	cs := connect(answer("accept"))
	for _, tc := range []struct{ state, want string }{
		{`{"index":0,"tool":"wipe","args":{"text":"everything"},"digest":"sha256:00"}`, "approval refused: the request state is for another call"},
		{`{"index":0,"tool":"wipe","args":{"text":"disk"},"digest":"sha256:00"}`, "approval refused: toolnexus: Resume: call 0"},
		{`not json`, "approval refused: the request state is not a pending call"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wipe", Arguments: map[string]any{"text": "disk"}, RequestState: tc.state,
			InputResponses: mcp.InputResponseMap{"toolnexus_approval": &mcp.ElicitResult{Action: "accept"}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; !res.IsError || !strings.HasPrefix(got, tc.want) {
			t.Errorf("state %s: %v %q, want %q", tc.state, res.IsError, got, tc.want)
		}
	}
	if ran != 1 {
		t.Errorf("ran %d, want 1", ran)
	}
	if len(asked) != 3 || asked[0] != "Allow the tool wipe to run with these arguments?\n{\"text\":\"disk\"}" {
		t.Errorf("asked %q", asked)
	}
}
