package toolnexus_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

type benchArgs struct {
	N int `json:"n"`
}

func benchTrivial(ctx context.Context, in benchArgs) (string, error) { return "ok", nil }

// BenchmarkRun is the overhead of Toolkit.Run for batches of a trivial
// tool; ns/call divides by the batch size. The baseline is the same calls
// through ExecuteJSON, one after another.
func BenchmarkRun(b *testing.B) {
	tool := define.MustDefineTool(benchTrivial, define.WithName("trivial"))
	tk, err := toolnexus.NewToolkit(tool)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, n := range []int{1, 8, 64} {
		calls := make([]adapters.Call, n)
		for i := range calls {
			calls[i] = adapters.Call{ID: fmt.Sprint(i), Name: "trivial", Args: []byte(`{"n":1}`)}
		}
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, r := range tk.Run(ctx, calls) {
					if r.IsError {
						b.Fatal(r.Output)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/call")
		})
		b.Run(fmt.Sprintf("calls=%d/sequential", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range calls {
					if r := tk.ExecuteJSON(ctx, c.Name, c.Args); r.IsError {
						b.Fatal(r.Output)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/call")
		})
	}
}

// BenchmarkToolkitGet finds a tool by name in toolkits of 10, 100 and
// 1,000 tools.
func BenchmarkToolkitGet(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		tools := make([]define.Tool, n)
		for i := range tools {
			tools[i] = define.MustDefineTool(benchTrivial, define.WithName(fmt.Sprintf("tool_%d", i)))
		}
		tk, err := toolnexus.NewToolkit(tools...)
		if err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("tool_%d", n/2)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := tk.Get(name); !ok {
					b.Fatal("not found")
				}
			}
		})
	}
}
