package tnanthropic_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"
	"github.com/toolnexus/toolnexus/adapters"
)

// streamBenchBodies are the streamed bodies of the stream benchmarks, in
// Anthropic's format (messageStream): a text then a tool call; two calls
// in parallel; one call whose input (a long note) comes in about 2,000
// input_json_delta pieces.
func streamBenchBodies(b *testing.B) []struct {
	name string
	body []byte
} {
	b.Helper()
	var text strings.Builder
	for i := range 40 {
		fmt.Fprintf(&text, "part %d of the answer, ", i)
	}
	var note strings.Builder
	for i := 0; note.Len() < 2000*4; i++ {
		fmt.Fprintf(&note, "w%d ", i%1000)
	}
	quote := func(s string) string { q, _ := json.Marshal(s); return string(q) }
	head := `{"id":"msg_b","type":"message","role":"assistant","model":"claude-test","stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":10},"content":[`
	replies := []struct {
		name, reply string
		pieces      int
	}{
		{"text-then-call", head + `{"type":"text","text":` + quote(text.String()) + `},{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city": "Oslo", "unit": "C"}}]}`, 40},
		{"parallel-calls", head + `{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city": "Oslo", "unit": "C"}},{"type":"tool_use","id":"toolu_2","name":"local_time","input":{"city": "Oslo"}}]}`, 8},
		{"long-arguments", head + `{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city": "Oslo", "note": ` + quote(note.String()) + `}}]}`, 2000},
	}
	var out []struct {
		name string
		body []byte
	}
	for _, r := range replies {
		body, err := messageStream(r.reply, r.pieces, "", 0)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, struct {
			name string
			body []byte
		}{r.name, []byte(body)})
	}
	return out
}

// sdkStreamCalls reads body as anthropic-sdk-go does (its ssestream
// decoder and Stream over the bytes, every event decoded and given to
// Message.Accumulate) and returns the message's tool_use calls.
func sdkStreamCalls(body []byte) ([]adapters.Call, error) {
	res := &http.Response{Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(bytes.NewReader(body))}
	stream := ssestream.NewStream[anthropic.MessageStreamEventUnion](ssestream.NewDecoder(res), nil)
	var msg anthropic.Message
	for stream.Next() {
		if err := msg.Accumulate(stream.Current()); err != nil {
			return nil, err
		}
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	var calls []adapters.Call
	for _, blk := range msg.Content {
		if blk.Type == "tool_use" {
			calls = append(calls, adapters.Call{ID: blk.ID, Name: blk.Name, Args: blk.Input})
		}
	}
	return calls, nil
}

// BenchmarkStream: a streamed body in, its tool calls out, through the
// SDK's path (its SSE decoder and Message.Accumulate for every event; the
// input is not checked beyond json.Valid at each block's stop). MB/s is of
// the body. The rows of ours read the same bodies with
// adapters.ParseAnthropicStream, which checks every event and the input
// strictly.
func BenchmarkStream(b *testing.B) {
	for _, tc := range streamBenchBodies(b) {
		b.Run(tc.name+"/toolnexus", func(b *testing.B) {
			b.SetBytes(int64(len(tc.body)))
			b.ReportAllocs()
			for b.Loop() {
				turn, err := adapters.ParseAnthropicStream(bytes.NewReader(tc.body))
				if err != nil || len(turn.Calls) == 0 {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/anthropic-sdk-go", func(b *testing.B) {
			b.SetBytes(int64(len(tc.body)))
			b.ReportAllocs()
			for b.Loop() {
				calls, err := sdkStreamCalls(tc.body)
				if err != nil || len(calls) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}
