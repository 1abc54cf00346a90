package adapters_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// Benchmarks of ParseGeminiStream, each next to json.Valid over the same
// bytes (the baseline: the ratio of the two is what to compare), at two
// sizes, 1x and 10x, whose ns/byte should be about the same: the parser
// is linear in the body.
//
//	go test ./adapters -run '^$' -bench 'GeminiStream' -benchmem -count 5

// geminiBenchLimits lets the 10x bodies through (the default limit is
// 32 MiB a body).
var geminiBenchLimits = adapters.ReplyLimits{MaxBytes: 1 << 30}

func geminiBenchStreams() []struct {
	name string
	body []byte
} {
	var out []struct {
		name string
		body []byte
	}
	add := func(name string, body []byte) {
		out = append(out, struct {
			name string
			body []byte
		}{name, body})
	}
	add("recorded", geminiRecordedSize())
	for _, k := range []int{1, 10} {
		add(fmt.Sprintf("one_byte_deltas_%dx", k), geminiDeltas(100_000*k))
		add(fmt.Sprintf("calls_%dx", k), geminiManyCalls(5_000*k))
		add(fmt.Sprintf("keys_%dx", k), geminiManyKeys(10_000*k))
		add(fmt.Sprintf("huge_event_%dx", k), geminiHugeEvent(1<<20*k))
	}
	return out
}

// geminiRecordedSize is a stream of the size Gemini sends for a turn with
// text and calls: thought text, text in pieces, two calls with a thought
// signature, a usage chunk (about 6 KB).
func geminiRecordedSize() []byte {
	sig := strings.Repeat("EpwICpkIAXLI2nxlU6gsWZaZHRYkX1orzuM8vSUFwaAt1JRxEC2hJzPAcAu3", 30)
	var chunks []string
	chunks = append(chunks, `{"candidates": [{"content": {"parts": [{"text": "**Planning** I will check the weather first, then the time.","thought": true}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 52,"totalTokenCount": 57},"modelVersion": "gemini-2.5-pro","responseId": "1lpeaMTxIpW1nvgP-O3vwQY"}`)
	for i := range 20 {
		chunks = append(chunks, fmt.Sprintf(`{"candidates": [{"content": {"parts": [{"text": "Piece %d of the answer, with a little more text — naïve café. "}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 52,"totalTokenCount": 57},"modelVersion": "gemini-2.5-pro","responseId": "1lpeaMTxIpW1nvgP-O3vwQY"}`, i))
	}
	chunks = append(chunks, `{"candidates": [{"content": {"parts": [{"functionCall": {"name": "get_weather","args": {"city": "Zürich","unit": "celsius","days": 3}},"thoughtSignature": "`+sig+`"},{"functionCall": {"name": "get_time","args": {"zone": "Europe/Zurich"}}}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 52,"candidatesTokenCount": 5,"totalTokenCount": 57},"modelVersion": "gemini-2.5-pro","responseId": "1lpeaMTxIpW1nvgP-O3vwQY"}`)
	return geminiSSE(chunks...)
}

// geminiDeltas is one Vertex streamed call whose one string argument
// comes one byte a piece, n pieces.
func geminiDeltas(n int) []byte {
	var b bytes.Buffer
	b.WriteString("data: " + `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"write","willContinue":true}}]}}]}` + "\n\n")
	for range n {
		b.WriteString("data: " + `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.text","stringValue":"x","willContinue":true}],"willContinue":true}}]}}]}` + "\n\n")
	}
	b.WriteString("data: " + `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.text","stringValue":""}]}}]},"finishReason":"STOP"}]}` + "\n\n")
	return b.Bytes()
}

// geminiManyCalls is n whole calls, one a chunk.
func geminiManyCalls(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":\"f\",\"id\":\"c%d\",\"args\":{\"i\":%d}}}]}}]}\n\n", i, i)
	}
	b.WriteString("data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"\"}]},\"finishReason\":\"STOP\"}]}\n\n")
	return b.Bytes()
}

// geminiManyKeys is one Vertex streamed call setting n distinct keys of
// one object (the member lookup must not grow with the object).
func geminiManyKeys(n int) []byte {
	var b bytes.Buffer
	b.WriteString("data: " + `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"put","willContinue":true}}]}}]}` + "\n\n")
	for i := range n {
		fmt.Fprintf(&b, "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.m.k%d\",\"numberValue\":%d}],\"willContinue\":true}}]}}]}\n\n", i, i)
	}
	b.WriteString("data: " + `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]},"finishReason":"STOP"}]}` + "\n\n")
	return b.Bytes()
}

// geminiHugeEvent is one chunk of about n bytes: a long text and a call
// with a large args object.
func geminiHugeEvent(n int) []byte {
	text := strings.Repeat("long text é ", n/2/13)
	var args bytes.Buffer
	args.WriteString(`{"items":[`)
	for i := 0; args.Len() < n/2; i++ {
		if i > 0 {
			args.WriteByte(',')
		}
		fmt.Fprintf(&args, `{"id":%d,"name":"item %d"}`, i, i)
	}
	args.WriteString("]}")
	t, _ := json.Marshal(text)
	return geminiSSE(`{"candidates":[{"content":{"role":"model","parts":[{"text":` + string(t) + `},{"functionCall":{"name":"bulk","args":` + args.String() + `}}]},"finishReason":"STOP"}]}`)
}

func BenchmarkGeminiStream(b *testing.B) {
	p := adapters.WithReplyLimits(adapters.ForGemini(), geminiBenchLimits)
	for _, st := range geminiBenchStreams() {
		// Check the body once: a benchmark of an error would measure little.
		turn, err := p.ParseStream(bytes.NewReader(st.body))
		if err != nil || len(turn.Calls) == 0 {
			b.Fatalf("%s: %d calls, %v", st.name, len(turn.Calls), err)
		}
		b.Run(st.name+"/stream", func(b *testing.B) {
			b.SetBytes(int64(len(st.body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.ParseStream(bytes.NewReader(st.body)); err != nil {
					b.Fatal(err)
				}
			}
		})
		// The baseline checks each event's JSON: the body is SSE, not JSON.
		var payloads [][]byte
		for _, line := range bytes.Split(st.body, []byte("\n")) {
			if rest, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("data: ")); ok {
				payloads = append(payloads, rest)
			}
		}
		b.Run(st.name+"/json.Valid", func(b *testing.B) {
			b.SetBytes(int64(len(st.body)))
			for b.Loop() {
				for _, pl := range payloads {
					if !json.Valid(pl) {
						b.Fatal("not JSON")
					}
				}
			}
		})
	}
}
