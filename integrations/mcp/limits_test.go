package tnmcp_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

type blockArgs struct {
	Block bool `json:"block"`
}

// TestLimitsBoundBlockedTools serves a tool that, when asked to block,
// ignores its context until the test releases it, under a bound of two
// calls and a call timeout. Of five blocking calls made at once, two run
// and time out, and the other three wait and are refused as busy; never
// more than two tool bodies run, and once the tools return the slots serve
// the next call.
func TestLimitsBoundBlockedTools(t *testing.T) {
	release := make(chan struct{})
	var running, most atomic.Int32
	var bodies sync.WaitGroup
	tool := define.MustDefineTool(func(ctx context.Context, in blockArgs) (string, error) {
		bodies.Add(1)
		defer bodies.Done()
		n := running.Add(1)
		defer running.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		if in.Block {
			<-release // ignores ctx on purpose
		}
		return "done", nil
	}, define.WithName("block"))
	tk, err := toolnexus.NewToolkit(tool)
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "block", Version: "v1"}, nil)
	lim := tnmcp.NewLimits(toolnexus.WithParallelism(2), toolnexus.WithCallTimeout(300*time.Millisecond))
	if err := lim.AddTools(server, tk); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cs, _ := connectInMemory(t, ctx, server)
	call := func(block bool) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "block", Arguments: map[string]any{"block": block}})
		if err != nil {
			return "protocol error: " + err.Error()
		}
		s := res.Content[0].(*mcp.TextContent).Text
		if res.IsError {
			s = "error: " + s
		}
		return s
	}
	const calls = 5
	got := make([]string, calls)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range calls {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = call(true) }()
	}
	wg.Wait()
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the calls took %v; the timeout is 300ms", d)
	}
	var timedOut, busy int
	for _, s := range got {
		switch {
		case s == "error: the tool timed out":
			timedOut++
		case strings.HasPrefix(s, "error: the server is busy: the tool block was not started"):
			busy++
		default:
			t.Errorf("unexpected answer %q", s)
		}
	}
	if timedOut != 2 || busy != 3 {
		t.Errorf("%d timed out and %d busy, want 2 and 3: %q", timedOut, busy, got)
	}
	if m := most.Load(); m != 2 {
		t.Errorf("at most %d tool bodies ran at once, want 2 (the bound)", m)
	}
	// The abandoned tools still hold their slots: a call now waits and is
	// refused.
	if s := call(false); !strings.Contains(s, "busy") {
		t.Errorf("a call while the abandoned tools run: %q, want busy", s)
	}
	close(release)
	bodies.Wait()
	if s := call(false); s != "done" {
		t.Errorf("a call after the tools returned: %q, want done", s)
	}
}

// TestLimitsHandlerPanic: a panic of a wrapped handler is an error result.
func TestLimitsHandlerPanic(t *testing.T) {
	h := tnmcp.NewLimits().Wrap("boom", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		panic("kaboom")
	})
	res, err := h(context.Background(), req(`{}`))
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "kaboom") {
		t.Errorf("got %+v, %v", res, err)
	}
}
