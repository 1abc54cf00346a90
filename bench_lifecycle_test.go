package toolnexus

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// BenchmarkLifecycle times BenchmarkBatch's calls through a toolkit with
// a lifecycle: one middleware that only calls next, and that plus a
// SlogObserver whose handler discards the records (the observer's clock
// reads and its record, without the I/O). Compare with BenchmarkBatch's
// rows of the same names, the toolkit without one.
func BenchmarkLifecycle(b *testing.B) {
	ctx := context.Background()
	tool, err := define.DefineTool(benchEcho, define.WithName("tool_0000"))
	if err != nil {
		b.Fatal(err)
	}
	pass := func(next Handler) Handler {
		return func(ctx context.Context, c *Call) define.Result { return next(ctx, c) }
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, kit := range []struct {
		name string
		opts []ToolkitOption
	}{
		{"middleware", []ToolkitOption{WithMiddleware(pass)}},
		{"middleware+slog", []ToolkitOption{WithMiddleware(pass), WithObserver(SlogObserver(logger))}},
	} {
		tk, err := NewToolkitWith([]define.Tool{tool}, kit.opts...)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(kit.name+"/Toolkit.ExecuteJSON", func(b *testing.B) {
			b.ReportAllocs()
			report := perCall(b, 1)
			for b.Loop() {
				if res := tk.ExecuteJSON(ctx, "tool_0000", benchEchoCall); res.IsError || res.Output != "hi" {
					b.Fatalf("ExecuteJSON = %+v", res)
				}
			}
			report()
		})
		for _, n := range []int{1, 8} {
			calls := make([]adapters.Call, n)
			for i := range calls {
				calls[i] = adapters.Call{ID: fmt.Sprintf("call_%d", i), Name: "tool_0000", Args: benchEchoCall}
			}
			b.Run(fmt.Sprintf("%s/Run/parallel/calls=%d", kit.name, n), func(b *testing.B) {
				b.ReportAllocs()
				report := perCall(b, n)
				for b.Loop() {
					results := tk.Run(ctx, calls)
					for i, res := range results {
						if res.IsError || res.Output != "hi" {
							b.Fatalf("results[%d] = %+v", i, res)
						}
					}
				}
				report()
			})
		}
	}
}
