package tnmcp_test

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

type benchIn struct {
	Celsius float64 `json:"celsius"`
	Label   string  `json:"label,omitempty"`
}

type benchOut struct {
	Fahrenheit float64 `json:"fahrenheit"`
	Label      string  `json:"label,omitempty"`
}

func benchConvert(_ context.Context, in benchIn) (benchOut, error) {
	return benchOut{Fahrenheit: math.Round((in.Celsius*9/5+32)*10) / 10, Label: in.Label}, nil
}

// BenchmarkToolsCall measures tools/call over streamable HTTP on loopback,
// one client calling in turn, the same tool served by tnmcp.AddTools and
// by go-sdk's typed mcp.AddTool; it reports the p50 and p99 latency of
// the calls of the run besides ns/op.
//
//	go test -run '^$' -bench ToolsCall -benchmem -count 5 ./integrations/mcp
func BenchmarkToolsCall(b *testing.B) {
	servers := map[string]func() *mcp.Server{
		"toolnexus": func() *mcp.Server {
			tool := define.MustDefineTool(benchConvert, define.WithName("convert"), define.WithDescription("Celsius to Fahrenheit."))
			tk, err := toolnexus.NewToolkit(tool)
			if err != nil {
				b.Fatal(err)
			}
			s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "v1"}, nil)
			if err := tnmcp.AddTools(s, tk); err != nil {
				b.Fatal(err)
			}
			return s
		},
		"go-sdk": func() *mcp.Server {
			s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "v1"}, nil)
			mcp.AddTool(s, &mcp.Tool{Name: "convert", Description: "Celsius to Fahrenheit."},
				func(ctx context.Context, _ *mcp.CallToolRequest, in benchIn) (*mcp.CallToolResult, benchOut, error) {
					out, err := benchConvert(ctx, in)
					return nil, out, err
				})
			return s
		},
	}
	for _, name := range []string{"toolnexus", "go-sdk"} {
		b.Run(name, func(b *testing.B) {
			server := servers[name]()
			ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
			defer ts.Close()
			ctx := context.Background()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "v0"}, nil).Connect(ctx,
				&mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: ts.Client(), DisableStandaloneSSE: true}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			params := &mcp.CallToolParams{Name: "convert", Arguments: map[string]any{"celsius": 21.5, "label": "Paris"}}
			lat := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				res, err := cs.CallTool(ctx, params)
				lat = append(lat, time.Since(start))
				if err != nil || res.IsError || len(res.Content) != 1 {
					b.Fatalf("call: %v %+v", err, res)
				}
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}
