package adapters_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// openAIChunk is one chat.completion.chunk event carrying delta, with
// the envelope OpenAI sends.
func openAIChunk(delta string) string {
	return `data: {"id":"chatcmpl-B1","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","system_fingerprint":"fp_1","choices":[{"index":0,"delta":` + delta + `,"logprobs":null,"finish_reason":null}]}` + "\n\n"
}

const openAIStreamEnd = `data: {"id":"chatcmpl-B1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"

// openAIManyDeltas is a stream of one call whose arguments text comes n
// bytes of a string value at a time, one byte per event.
func openAIManyDeltas(n int) []byte {
	var b strings.Builder
	b.WriteString(openAIChunk(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"write","arguments":"{\"text\":\""}}]}`))
	for range n {
		b.WriteString(openAIChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]}`))
	}
	b.WriteString(openAIChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]}`))
	b.WriteString(openAIStreamEnd)
	return []byte(b.String())
}

// openAIManyCalls is a stream of n calls, each in two pieces.
func openAIManyCalls(n int) []byte {
	var b strings.Builder
	b.WriteString(openAIChunk(`{"role":"assistant","content":null}`))
	for i := range n {
		b.WriteString(openAIChunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":"get_time","arguments":"{\"zone\":"}}]}`, i, i)))
		b.WriteString(openAIChunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":"\"UTC\"}"}}]}`, i)))
	}
	b.WriteString(openAIStreamEnd)
	return []byte(b.String())
}

// openAIManyKeys is a stream whose deltas carry n members of their own, a
// new key in each, which the replay keeps.
func openAIManyKeys(n int) []byte {
	var b strings.Builder
	b.WriteString(openAIChunk(`{"role":"assistant","content":"x"}`))
	for i := range n {
		b.WriteString(openAIChunk(fmt.Sprintf(`{"x_%d":"v"}`, i)))
	}
	b.WriteString(openAIStreamEnd)
	return []byte(b.String())
}

// openAILateIDs is a stream of n calls, each sent first without an id and
// given its id by its next piece.
func openAILateIDs(n int) []byte {
	var b strings.Builder
	b.WriteString(openAIChunk(`{"role":"assistant","content":null}`))
	for i := range n {
		b.WriteString(openAIChunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"type":"function","function":{"name":"get_time","arguments":"{\"zone\":"}}]}`, i)))
		b.WriteString(openAIChunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":"call_%d","function":{"arguments":"\"UTC\"}"}}]}`, i, i)))
	}
	b.WriteString(openAIStreamEnd)
	return []byte(b.String())
}

// BenchmarkOpenAIStream reads OpenAI Chat streams whole, against
// json.Valid over the same bytes (which checks less: each event's JSON
// only, with no SSE framing), as ns per byte. The hostile cases are a call
// whose arguments come one byte per event (1k and 10k events: linear), and
// many calls.
func BenchmarkOpenAIStream(b *testing.B) {
	fixture, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "calls", "openai", "streams", "tool_calls.sse"))
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name string
		body []byte
	}{
		{"fixture", fixture},
		{"deltas-1k", openAIManyDeltas(1000)},
		{"deltas-10k", openAIManyDeltas(10000)},
		{"deltas-100k", openAIManyDeltas(100000)},
		{"calls-1k", openAIManyCalls(1000)},
		{"keys-1k", openAIManyKeys(1000)},
		{"keys-10k", openAIManyKeys(10000)},
		{"late-ids-1k", openAILateIDs(1000)},
		{"late-ids-10k", openAILateIDs(10000)},
	}
	for _, c := range cases {
		b.Run(c.name+"/parse", func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := adapters.ParseOpenAIStream(bytes.NewReader(c.body)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/json.Valid", func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			b.ReportAllocs()
			for b.Loop() {
				for _, line := range bytes.Split(c.body, []byte("\n")) {
					if d, ok := bytes.CutPrefix(line, []byte("data: ")); ok && d[0] == '{' && !json.Valid(d) {
						b.Fatal("invalid")
					}
				}
			}
		})
	}
}

// TestOpenAIStreamHostile: the worst cases parse, and the stream limits
// hold: too many events, one event too large, a line that never ends.
func TestOpenAIStreamHostile(t *testing.T) {
	turn, err := adapters.ParseOpenAIStream(bytes.NewReader(openAIManyDeltas(20000)))
	if err != nil || len(turn.Calls) != 1 || len(turn.Calls[0].Args) != len(`{"text":""}`)+20000 {
		t.Fatalf("many deltas: %v, %d calls", err, len(turn.Calls))
	}
	turn, err = adapters.ParseOpenAIStream(bytes.NewReader(openAIManyCalls(2000)))
	if err != nil || len(turn.Calls) != 2000 || turn.Calls[1999].ID != "call_1999" {
		t.Fatalf("many calls: %v, %d calls", err, len(turn.Calls))
	}
	limited := adapters.WithReplyLimits(adapters.ForOpenAI(), adapters.ReplyLimits{MaxEvents: 100})
	if _, err := limited.ParseStream(bytes.NewReader(openAIManyDeltas(200))); !errors.Is(err, adapters.ErrReplyLimit) {
		t.Errorf("MaxEvents 100 over 202 events: %v, want ErrReplyLimit", err)
	}
	limited = adapters.WithReplyLimits(adapters.ForOpenAI(), adapters.ReplyLimits{MaxEventBytes: 1000})
	big := openAIChunk(`{"content":"` + strings.Repeat("y", 2000) + `"}`)
	if _, err := limited.ParseStream(strings.NewReader(big)); !errors.Is(err, adapters.ErrReplyLimit) {
		t.Errorf("an event of 2 KB under MaxEventBytes 1000: %v, want ErrReplyLimit", err)
	}
	if _, err := limited.ParseStream(strings.NewReader("data: " + strings.Repeat("z", 5000))); !errors.Is(err, adapters.ErrReplyLimit) {
		t.Errorf("a line that never ends: %v, want ErrReplyLimit", err)
	}
	limited = adapters.WithReplyLimits(adapters.ForOpenAI(), adapters.ReplyLimits{MaxBytes: 4096})
	if _, err := limited.ParseStream(bytes.NewReader(openAIManyDeltas(100))); !errors.Is(err, adapters.ErrReplyLimit) {
		t.Errorf("a body over MaxBytes: %v, want ErrReplyLimit", err)
	}
}
