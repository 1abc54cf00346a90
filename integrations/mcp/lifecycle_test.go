package tnmcp_test

import (
	"context"
	"encoding/json"
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

// TestApprovalStateSingleUse: a request state that was answered once is
// refused when a client sends it again, with the same answer, and the
// tool runs once; a state of the same tool and arguments made for an
// earlier call does not fit a later one either.
func TestApprovalStateSingleUse(t *testing.T) {
	ran := 0
	wipe := define.MustDefineTool(func(ctx context.Context, in noteArgs) (string, error) {
		ran++
		return "wiped " + in.Text, nil
	}, define.WithName("wipe"))
	for _, opts := range [][]toolnexus.ToolkitOption{
		{toolnexus.WithApproval("wipe")},
		{toolnexus.WithApproval("wipe"), toolnexus.WithApprovalKey([]byte("server secret"))},
	} {
		ran = 0
		tk, err := toolnexus.NewToolkitWith([]define.Tool{wipe}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		server := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "v1"}, nil)
		if err := tnmcp.AddTools(server, tk); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		cs, _ := connectInMemory(t, ctx, server)
		// The states the server gives two calls of wipe on "disk" (what
		// ToolkitHandler sends: the pending call as JSON).
		var states []string
		for range 2 {
			pending := toolnexus.PendingCalls([]define.Result{tk.ExecuteJSON(ctx, "wipe", []byte(`{"text":"disk"}`))})
			if len(pending) != 1 || pending[0].Index != 0 || pending[0].ID != "" {
				t.Fatalf("pending = %+v", pending)
			}
			state, err := json.Marshal(pending[0])
			if err != nil {
				t.Fatal(err)
			}
			states = append(states, string(state))
		}
		if states[0] == states[1] {
			t.Fatalf("two calls got one state: %s", states[0])
		}
		send := func(state string) (bool, string) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wipe", Arguments: map[string]any{"text": "disk"}, RequestState: state,
				InputResponses: mcp.InputResponseMap{"toolnexus_approval": &mcp.ElicitResult{Action: "accept"}}})
			if err != nil {
				t.Fatal(err)
			}
			return res.IsError, res.Content[0].(*mcp.TextContent).Text
		}
		if isErr, text := send(states[0]); isErr || text != "wiped disk" {
			t.Fatalf("first answer: %v %q", isErr, text)
		}
		for range 3 {
			if isErr, text := send(states[0]); !isErr || !strings.HasPrefix(text, "approval refused: toolnexus: Resume: call 0") || !strings.Contains(text, "decided already") {
				t.Errorf("the same state again: %v %q", isErr, text)
			}
		}
		if isErr, text := send(states[1]); isErr || text != "wiped disk" {
			t.Errorf("the second call's own state: %v %q", isErr, text)
		}
		if ran != 2 {
			t.Errorf("ran %d, want 2", ran)
		}
	}
}
