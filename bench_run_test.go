package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// These benchmarks measure what an agent turn costs beyond the tools
// themselves: routing a batch of calls through Toolkit.Run, and finding a
// tool by name. The tool is trivial (one string argument, no work), so the
// numbers are the library's overhead.

// benchEchoArgs is the trivial tool's input.
type benchEchoArgs struct {
	Text string `json:"text"`
}

func benchEcho(_ context.Context, in benchEchoArgs) (string, error) { return in.Text, nil }

var benchEchoCall = json.RawMessage(`{"text":"hi"}`)

// benchToolkit returns a toolkit of n trivial tools named tool_0000,
// tool_0001, ... and their names.
func benchToolkit(b *testing.B, n int) (*Toolkit, []string) {
	b.Helper()
	tools := make([]define.Tool, n)
	names := make([]string, n)
	for i := range tools {
		names[i] = fmt.Sprintf("tool_%04d", i)
		t, err := define.DefineTool(benchEcho, define.WithName(names[i]))
		if err != nil {
			b.Fatal(err)
		}
		tools[i] = t
	}
	tk, err := NewToolkit(tools...)
	if err != nil {
		b.Fatal(err)
	}
	return tk, names
}

// perCall is called just before a benchmark's loop over batches of calls
// calls; the function it returns, called just after the loop, reports the
// time and the allocations of one call: the loop's totals divided by
// b.N*calls.
func perCall(b *testing.B, calls int) func() {
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	return func() {
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		n := float64(b.N * calls)
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/call")
		b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/call")
	}
}

// BenchmarkBatch compares one Tool.ExecuteJSON (the floor: the tool alone),
// the same call decoded here and finished on a new goroutine (what a batch
// of one cannot do without),
// one Toolkit.ExecuteJSON (plus the lookup) and Toolkit.Run on batches of
// 1, 8 and 64 calls of the trivial tool, with the default parallelism and
// one call at a time, and a batch of one on a context that can be done.
// ns/call and allocs/call divide by the batch size.
func BenchmarkBatch(b *testing.B) {
	ctx := context.Background()
	tk, names := benchToolkit(b, 1)
	tool, _ := tk.Get(names[0])

	b.Run("Tool.ExecuteJSON", func(b *testing.B) {
		b.ReportAllocs()
		report := perCall(b, 1)
		for b.Loop() {
			if res := tool.ExecuteJSON(ctx, benchEchoCall); res.IsError || res.Output != "hi" {
				b.Fatalf("ExecuteJSON = %+v", res)
			}
		}
		report()
	})
	// The least a batch of one can cost while its tool's code runs off
	// the caller's goroutine and no goroutine outlives the batch: the
	// call is decoded here, as Run does (define.Tool.DecodeJSON), one new
	// goroutine runs its handler, and the caller waits for it.
	b.Run("goroutine", func(b *testing.B) {
		b.ReportAllocs()
		report := perCall(b, 1)
		var wg sync.WaitGroup
		var res define.Result
		for b.Loop() {
			call := tool.DecodeJSON(ctx, benchEchoCall, &res)
			if call == nil {
				b.Fatalf("DecodeJSON = nil, %+v", res)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				call.Finish(ctx)
			}()
			wg.Wait()
			if res.IsError || res.Output != "hi" {
				b.Fatalf("ExecuteJSON = %+v", res)
			}
		}
		report()
	})
	b.Run("Toolkit.ExecuteJSON", func(b *testing.B) {
		b.ReportAllocs()
		report := perCall(b, 1)
		for b.Loop() {
			if res := tk.ExecuteJSON(ctx, names[0], benchEchoCall); res.IsError || res.Output != "hi" {
				b.Fatalf("ExecuteJSON = %+v", res)
			}
		}
		report()
	})
	for _, par := range []struct {
		name string
		opts []RunOption
	}{
		{"parallel", nil},
		{"sequential", []RunOption{WithParallelism(1)}},
	} {
		for _, n := range []int{1, 8, 64} {
			calls := make([]adapters.Call, n)
			for i := range calls {
				calls[i] = adapters.Call{ID: fmt.Sprintf("call_%d", i), Name: names[0], Args: benchEchoCall}
			}
			b.Run(fmt.Sprintf("Run/%s/calls=%d", par.name, n), func(b *testing.B) {
				b.ReportAllocs()
				report := perCall(b, n)
				for b.Loop() {
					results := tk.Run(ctx, calls, par.opts...)
					if len(results) != n {
						b.Fatalf("Run returned %d results for %d calls", len(results), n)
					}
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
	// The same batch of one on a context that can be done, as an agent's
	// request context is: Run then also watches ctx.Done.
	b.Run("Run/cancellable/calls=1", func(b *testing.B) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		calls := []adapters.Call{{ID: "call_0", Name: names[0], Args: benchEchoCall}}
		b.ReportAllocs()
		report := perCall(b, 1)
		for b.Loop() {
			if results := tk.Run(ctx, calls); len(results) != 1 || results[0].IsError || results[0].Output != "hi" {
				b.Fatalf("Run = %+v", results)
			}
		}
		report()
	})
}

// BenchmarkLookup times finding a tool by name in toolkits of 10, 100 and
// 1,000 tools: Toolkit.Get of a name that is there (the names are visited
// in turn, so no one entry stays hot), of a name that is not, and
// Toolkit.ExecuteJSON of an unknown name (the error result names the
// closest few tools: finding them reads every tool's name once, so its
// time grows linearly with the toolkit, but its size does not).
func BenchmarkLookup(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{10, 100, 1000} {
		tk, names := benchToolkit(b, n)
		b.Run(fmt.Sprintf("Get/hit/tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if t, ok := tk.Get(names[i]); !ok || t.Name() != names[i] {
					b.Fatalf("Get(%q) = %q, %v", names[i], t.Name(), ok)
				}
				if i++; i == n {
					i = 0
				}
			}
		})
		b.Run(fmt.Sprintf("Get/miss/tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := tk.Get("no_such_tool"); ok {
					b.Fatal("Get(no_such_tool) found a tool")
				}
			}
		})
		b.Run(fmt.Sprintf("ExecuteJSON/unknown/tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := tk.ExecuteJSON(ctx, "no_such_tool", benchEchoCall); !res.IsError {
					b.Fatal("ExecuteJSON(no_such_tool) succeeded")
				}
			}
		})
	}
}

// BenchmarkRunCancelPending: Run over a batch whose calls cannot start
// (one slot, held by a tool that waits for the context), cancelled: the
// calls not started get their results on the caller's goroutine, in time
// linear in their number, sharing one allocation for their errors.
func BenchmarkRunCancelPending(b *testing.B) {
	hold := define.MustDefineTool(func(ctx context.Context, _ struct{}) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}, define.WithName("hold"))
	tk, err := NewToolkit(hold)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1000, 100000, 1000000} {
		calls := make([]adapters.Call, n)
		for i := range calls {
			calls[i] = adapters.Call{ID: "c", Name: "hold", Args: json.RawMessage(`{}`)}
		}
		b.Run(fmt.Sprintf("calls-%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(time.Millisecond, cancel)
				results := tk.Run(ctx, calls, WithParallelism(1))
				if !errors.Is(results[n-1].Err, context.Canceled) {
					b.Fatalf("last result: %v", results[n-1].Err)
				}
			}
		})
	}
}
