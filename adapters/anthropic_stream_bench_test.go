package adapters_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// anthropicBenchStream builds an Anthropic stream: its events' data, one
// JSON text each. kind and n say what and how much:
//   - "ordinary": n units of a text block in 5 deltas and a tool_use whose
//     input comes in 6 pieces (3 units are about a recorded stream's size);
//   - "one-byte-deltas": one tool_use whose input comes one byte a delta,
//     n deltas;
//   - "many-calls": n tool_use blocks, each with a small input in 2 pieces;
//   - "huge-event": one tool_use whose input, n bytes of a string, comes
//     in one delta.
func anthropicBenchStream(kind string, n int) []string {
	ev := []string{`{"type":"message_start","message":{"id":"msg_b","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":400,"output_tokens":1}}}`}
	block := 0
	start := func(b string) {
		ev = append(ev, fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":%s}`, block, b))
	}
	delta := func(d string) {
		ev = append(ev, fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":%s}`, block, d))
	}
	piece := func(s string) {
		q, _ := json.Marshal(s)
		delta(`{"type":"input_json_delta","partial_json":` + string(q) + `}`)
	}
	stop := func() {
		ev = append(ev, fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, block))
		block++
	}
	tool := func(name string) {
		start(fmt.Sprintf(`{"type":"tool_use","id":"toolu_%d","name":"%s","input":{}}`, block, name))
	}
	switch kind {
	case "ordinary":
		for range n {
			start(`{"type":"text","text":""}`)
			for _, t := range []string{"I'll check ", "the weather ", "in Zürich ", "for you ", "right now."} {
				delta(`{"type":"text_delta","text":"` + t + `"}`)
			}
			stop()
			tool("get_weather")
			for _, p := range []string{"", `{"city": "Zü`, `rich", "un`, `its": "cels`, `ius", "days"`, `: 3}`} {
				piece(p)
			}
			stop()
		}
	case "one-byte-deltas":
		tool("write")
		text := `{"t":"` + strings.Repeat("x", n-8) + `"}`
		for i := range len(text) {
			piece(text[i : i+1])
		}
		stop()
	case "many-calls":
		for range n {
			tool("lookup")
			piece(`{"key": `)
			piece(`"abc"}`)
			stop()
		}
	case "huge-event":
		tool("write")
		piece(`{"t":"` + strings.Repeat("y", n) + `"}`)
		stop()
	}
	ev = append(ev, `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":90}}`, `{"type":"message_stop"}`)
	return ev
}

// BenchmarkAnthropicStream reads Anthropic streams, ordinary and hostile,
// each at two sizes ten times apart, next to json.Valid over the same
// events' data: ns/byte should be about the same at both sizes (the cost
// is linear), and within a small factor of the validation's.
func BenchmarkAnthropicStream(b *testing.B) {
	p := adapters.WithReplyLimits(adapters.ForAnthropic(), adapters.ReplyLimits{MaxBytes: 1 << 30})
	for _, c := range []struct {
		kind string
		n    int
	}{{"ordinary", 3}, {"one-byte-deltas", 100_000}, {"many-calls", 1000}, {"huge-event", 1 << 20}} {
		for _, scale := range []int{1, 10} {
			events := anthropicBenchStream(c.kind, c.n*scale)
			var body bytes.Buffer
			for _, e := range events {
				body.WriteString("data: ")
				body.WriteString(e)
				body.WriteString("\n\n")
			}
			data := make([][]byte, len(events))
			for i, e := range events {
				data[i] = []byte(e)
			}
			raw := body.Bytes()
			if _, err := p.ParseStream(bytes.NewReader(raw)); err != nil {
				b.Fatalf("%s: %v", c.kind, err)
			}
			name := fmt.Sprintf("%s/%dx", c.kind, scale)
			b.Run(name+"/stream", func(b *testing.B) {
				b.SetBytes(int64(len(raw)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := p.ParseStream(bytes.NewReader(raw)); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(name+"/valid", func(b *testing.B) {
				b.SetBytes(int64(len(raw)))
				for b.Loop() {
					for _, d := range data {
						if !json.Valid(d) {
							b.Fatal("not valid")
						}
					}
				}
			})
		}
	}
}
