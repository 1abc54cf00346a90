//lint:file-ignore SA1019 MCP logging is deprecated from protocol 2026-07-28 (SEP-2577) but still served to clients of every version; Log serves it

package tnmcp_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

type stepsArgs struct {
	Steps int `json:"steps" minimum:"1" maximum:"10"`
}

// contextServer serves "steps", which reports its progress and logs
// through its context, and "wait", which returns when its context is
// cancelled (sending the cause on cancelled).
func contextServer(t *testing.T, cancelled chan<- error) *mcp.Server {
	t.Helper()
	steps := define.MustDefineTool(func(ctx context.Context, in stepsArgs) (string, error) {
		req := tnmcp.RequestFromContext(ctx)
		if req == nil || req.Params.Name != "steps" {
			return "", errors.New("no request in the context")
		}
		for i := 1; i <= in.Steps; i++ {
			if err := tnmcp.Progress(ctx, float64(i), float64(in.Steps), fmt.Sprintf("step %d", i)); err != nil {
				return "", err
			}
		}
		if err := tnmcp.Log(ctx, "info", "steps", map[string]any{"steps": in.Steps}); err != nil {
			return "", err
		}
		return fmt.Sprintf("%d steps", in.Steps), nil
	}, define.WithName("steps"))
	wait := define.MustDefineTool(func(ctx context.Context, in struct{}) (string, error) {
		<-ctx.Done()
		cancelled <- context.Cause(ctx)
		return "", ctx.Err()
	}, define.WithName("wait"))
	tk, err := toolnexus.NewToolkit(steps, wait)
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "ctx", Version: "v1"}, nil)
	if err := tnmcp.AddTools(server, tk); err != nil {
		t.Fatal(err)
	}
	return server
}

// TestToolContext runs a tool that reports progress and logs, and one
// that the client cancels, over the in-memory and HTTP transports.
func TestToolContext(t *testing.T) {
	for _, transport := range []string{"memory", "http"} {
		t.Run(transport, func(t *testing.T) {
			cancelled := make(chan error, 1)
			server := contextServer(t, cancelled)
			var mu sync.Mutex
			var progress, logs []string
			client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "v0"}, &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
					mu.Lock()
					defer mu.Unlock()
					progress = append(progress, fmt.Sprintf("%v %g/%g %s", r.Params.ProgressToken, r.Params.Progress, r.Params.Total, r.Params.Message))
				},
				LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
					mu.Lock()
					defer mu.Unlock()
					logs = append(logs, fmt.Sprintf("%s %s %v", r.Params.Level, r.Params.Logger, r.Params.Data))
				},
			})
			ctx := context.Background()
			var ct mcp.Transport
			if transport == "memory" {
				st, c := mcp.NewInMemoryTransports()
				ss, err := server.Connect(ctx, st, nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { ss.Close() })
				ct = c
			} else {
				ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
				t.Cleanup(ts.Close)
				ct = &mcp.StreamableClientTransport{Endpoint: ts.URL, DisableStandaloneSSE: true}
			}
			cs, err := client.Connect(ctx, ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
				t.Fatal(err)
			}
			params := &mcp.CallToolParams{Name: "steps", Arguments: map[string]any{"steps": 3}}
			params.SetProgressToken("tok")
			// The level as protocol 2026-07-28 sends it, with each request
			// (the SetLoggingLevel above is the older protocols' way).
			params.Meta[mcp.MetaKeyLogLevel] = "info"
			res, err := cs.CallTool(ctx, params)
			if err != nil {
				t.Fatal(err)
			}
			if got := text(t, res); res.IsError || got != "3 steps" {
				t.Errorf("steps: %q (isError %v)", got, res.IsError)
			}
			// Without a progress token, Progress sends nothing.
			one := &mcp.CallToolParams{Name: "steps", Arguments: map[string]any{"steps": 1}, Meta: mcp.Meta{}}
			one.Meta[mcp.MetaKeyLogLevel] = "info"
			if res, err := cs.CallTool(ctx, one); err != nil || res.IsError {
				t.Errorf("steps without a token: %v %v", res, err)
			}
			waitFor := func(what string, n int, got *[]string) []string {
				t.Helper()
				for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
					mu.Lock()
					s := append([]string(nil), (*got)...)
					mu.Unlock()
					if len(s) >= n || time.Now().After(deadline) {
						return s
					}
				}
			}
			want := "tok 1/3 step 1|tok 2/3 step 2|tok 3/3 step 3"
			if got := strings.Join(waitFor("progress", 3, &progress), "|"); got != want {
				t.Errorf("progress %q, want %q", got, want)
			}
			want = "info steps map[steps:3]|info steps map[steps:1]"
			if got := strings.Join(waitFor("logs", 2, &logs), "|"); got != want {
				t.Errorf("logs %q, want %q", got, want)
			}

			// The client's cancellation is the tool's context's.
			callCtx, cancel := context.WithCancel(ctx)
			errc := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{}})
				errc <- err
			}()
			time.Sleep(100 * time.Millisecond)
			cancel()
			select {
			case err := <-cancelled:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("the tool's context ended with %v, want context.Canceled", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the tool's context was not cancelled")
			}
			<-errc
		})
	}
}

func TestProgressOutsideMCP(t *testing.T) {
	if err := tnmcp.Progress(context.Background(), 1, 2, ""); !errors.Is(err, tnmcp.ErrNoRequest) {
		t.Errorf("Progress outside MCP: %v", err)
	}
	if err := tnmcp.Log(context.Background(), "info", "", "x"); !errors.Is(err, tnmcp.ErrNoRequest) {
		t.Errorf("Log outside MCP: %v", err)
	}
}
