package tnopenai_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/toolnexus/toolnexus/adapters"
)

// benchCall is the deltas of one streamed tool call: its first piece
// (index, id, name, empty arguments), then the arguments text in the
// given pieces.
func benchCall(index int, id, name string, pieces []string) []string {
	out := []string{delta(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":%q,"type":"function","function":{"name":%q,"arguments":""}}]}`, index, id, name), `null`)}
	for _, p := range pieces {
		q := strings.ReplaceAll(p, `"`, `\"`)
		out = append(out, delta(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":"%s"}}]}`, index, q), `null`))
	}
	return out
}

// argPieces cuts an arguments text into pieces of about n bytes, as a
// model's tokens cut it.
func argPieces(args string, n int) []string {
	var out []string
	for len(args) > n {
		out = append(out, args[:n])
		args = args[n:]
	}
	return append(out, args)
}

// streamBenchBodies are the streamed bodies of the stream benchmarks, in
// OpenAI's format: a text then a tool call; two calls in parallel; one
// call whose arguments (a long note) come in about 2,000 pieces.
func streamBenchBodies() []struct {
	name string
	body []byte
} {
	role := delta(`{"role":"assistant","content":"","refusal":null}`, `null`)
	var text []string
	for i := range 40 {
		text = append(text, delta(fmt.Sprintf(`{"content":"part %d of the answer, "}`, i), `null`))
	}
	textThenCall := append(append([]string{role}, text...),
		benchCall(0, "call_1", "get_weather", argPieces(`{"city": "Oslo", "unit": "C"}`, 4))...)
	textThenCall = append(textThenCall, delta(`{}`, `"tool_calls"`), "")

	parallel := append([]string{role}, benchCall(0, "call_1", "get_weather", argPieces(`{"city": "Oslo", "unit": "C"}`, 4))...)
	parallel = append(parallel, benchCall(1, "call_2", "local_time", argPieces(`{"city": "Oslo"}`, 4))...)
	parallel = append(parallel, delta(`{}`, `"tool_calls"`), "")

	var note strings.Builder
	for i := 0; note.Len() < 2000*4; i++ {
		fmt.Fprintf(&note, "w%d ", i%1000)
	}
	long := append([]string{role}, benchCall(0, "call_1", "get_weather", argPieces(`{"city": "Oslo", "note": "`+note.String()+`"}`, 4))...)
	long = append(long, delta(`{}`, `"tool_calls"`), "")

	return []struct {
		name string
		body []byte
	}{
		{"text-then-call", []byte(chatStream("chatcmpl-b", textThenCall...))},
		{"parallel-calls", []byte(chatStream("chatcmpl-b", parallel...))},
		{"long-arguments", []byte(chatStream("chatcmpl-b", long...))},
	}
}

// sdkStreamCalls reads body as openai-go does (its ssestream decoder and
// Stream over the bytes, every chunk decoded and given to a
// ChatCompletionAccumulator) and returns the accumulated calls.
func sdkStreamCalls(body []byte) ([]adapters.Call, error) {
	res := &http.Response{Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(bytes.NewReader(body))}
	stream := ssestream.NewStream[openai.ChatCompletionChunk](ssestream.NewDecoder(res), nil)
	var acc openai.ChatCompletionAccumulator
	for stream.Next() {
		if !acc.AddChunk(stream.Current()) {
			return nil, fmt.Errorf("AddChunk refused a chunk")
		}
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	tcs := acc.Choices[0].Message.ToolCalls
	calls := make([]adapters.Call, len(tcs))
	for i, tc := range tcs {
		calls[i] = adapters.Call{ID: tc.ID, Name: tc.Function.Name, Args: []byte(tc.Function.Arguments)}
	}
	return calls, nil
}

// TestStreamBenchBodies: both readers of the benchmark give the same calls
// (arguments compared as JSON values), so the benchmark times equal work.
func TestStreamBenchBodies(t *testing.T) {
	for _, tc := range streamBenchBodies() {
		ours, err := adapters.ParseOpenAIStream(bytes.NewReader(tc.body))
		if err != nil {
			t.Fatalf("%s: ParseOpenAIStream: %v", tc.name, err)
		}
		sdk, err := sdkStreamCalls(tc.body)
		if err != nil {
			t.Fatalf("%s: openai-go: %v", tc.name, err)
		}
		if len(ours.Calls) != len(sdk) || len(sdk) == 0 {
			t.Fatalf("%s: %d calls, openai-go %d", tc.name, len(ours.Calls), len(sdk))
		}
		for i := range sdk {
			if ours.Calls[i].ID != sdk[i].ID || ours.Calls[i].Name != sdk[i].Name || string(jsonCompact(t, sdk[i].Args)) != string(ours.Calls[i].Args) {
				t.Errorf("%s: call %d: %s %s %s, openai-go %s %s %s", tc.name, i, ours.Calls[i].ID, ours.Calls[i].Name, ours.Calls[i].Args, sdk[i].ID, sdk[i].Name, sdk[i].Args)
			}
		}
	}
}

func jsonCompact(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// BenchmarkStream: a streamed body in, its tool calls out. "openai-go" is
// the SDK's path (its SSE decoder and ChatCompletionAccumulator.AddChunk
// for every chunk; the arguments are not checked), the baseline;
// "ParseOpenAIStream" is ours, which checks every chunk's shape and each
// call's arguments as one JSON object. MB/s is of the body.
func BenchmarkStream(b *testing.B) {
	for _, tc := range streamBenchBodies() {
		b.Run(tc.name+"/openai-go", func(b *testing.B) {
			b.SetBytes(int64(len(tc.body)))
			b.ReportAllocs()
			for b.Loop() {
				calls, err := sdkStreamCalls(tc.body)
				if err != nil || len(calls) == 0 {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/ParseOpenAIStream", func(b *testing.B) {
			b.SetBytes(int64(len(tc.body)))
			b.ReportAllocs()
			r := bytes.NewReader(tc.body)
			for b.Loop() {
				r.Reset(tc.body)
				turn, err := adapters.ParseOpenAIStream(r)
				if err != nil || len(turn.Calls) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}
