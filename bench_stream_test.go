package toolnexus

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// benchStreamBody is an OpenAI Chat stream of n calls of tool, each call
// in two pieces (its name, then its arguments), as a model streams them.
func benchStreamBody(n int, tool string) []byte {
	var b strings.Builder
	chunk := func(delta string) {
		b.WriteString(`data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":`)
		b.WriteString(delta)
		b.WriteString(`,"finish_reason":null}]}` + "\n\n")
	}
	chunk(`{"role":"assistant","content":null}`)
	for i := range n {
		chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":%q,"arguments":""}}]}`, i, i, tool))
		chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":"{\"text\":\"hi\"}"}}]}`, i))
	}
	b.WriteString(`data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n")
	b.WriteString("data: [DONE]\n\n")
	return []byte(b.String())
}

// BenchmarkRunStream times Toolkit.RunStream over an OpenAI Chat stream of
// 1, 8 and 64 calls of BenchmarkBatch's trivial tool, read from memory:
// the stream's parse and the scheduling of its calls as they complete.
// ns/call and allocs/call divide by the number of calls.
func BenchmarkRunStream(b *testing.B) {
	ctx := context.Background()
	tk, names := benchToolkit(b, 1)
	p := adapters.ForOpenAI()
	for _, n := range []int{1, 8, 64} {
		body := benchStreamBody(n, names[0])
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			report := perCall(b, n)
			for b.Loop() {
				turn, results, err := tk.RunStream(ctx, p, bytes.NewReader(body), adapters.StreamHooks{})
				if err != nil || len(turn.Calls) != n || len(results) != n {
					b.Fatalf("RunStream = %d calls, %d results, %v", len(turn.Calls), len(results), err)
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
