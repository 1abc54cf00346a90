package adapters_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// The Responses stream benchmarks read bodies built here: an ordinary
// stream of about the size real ones have (a response echoing its tools,
// a reasoning item, a message in word deltas, one call in small argument
// deltas), and hostile ones: one-byte argument deltas, thousands of calls,
// one huge event. Each hostile case runs at two sizes, ten times apart, so
// that ns/byte shows whether the cost is linear. Each case is compared with
// json.Valid over the events' JSON data (the baseline: checking the same
// bytes once, in the same run); the ratio is the cost of assembling.

// responsesBenchBody writes events as named SSE events and returns the
// body and the events' data.
func responsesBenchBody(events []string) ([]byte, [][]byte) {
	var b bytes.Buffer
	datas := make([][]byte, 0, len(events))
	for _, e := range events {
		var v struct{ Type string }
		_ = json.Unmarshal([]byte(e), &v)
		b.WriteString("event: " + v.Type + "\ndata: ")
		start := b.Len()
		b.WriteString(e)
		datas = append(datas, b.Bytes()[start:b.Len()])
		b.WriteString("\n\n")
	}
	body := b.Bytes()
	return body, datas
}

const benchEnvelope = `{"id":"resp_1","object":"response","status":"%s","model":"gpt-5","error":null,"incomplete_details":null,` +
	`"tools":[{"type":"function","name":"get_weather","description":"Get the weather for a city, in the units asked for.","parameters":{"type":"object","properties":{"city":{"type":"string"},"units":{"type":"string","enum":["c","f"]}},"required":["city","units"],"additionalProperties":false},"strict":true}],` +
	`"output":[],"usage":%s}`

func benchCall(i int, deltas []string, events []string) []string {
	id, call := fmt.Sprintf("fc_%d", i), fmt.Sprintf("call_%d", i)
	events = append(events, fmt.Sprintf(`{"type":"response.output_item.added","output_index":%d,"item":{"id":"%s","type":"function_call","status":"in_progress","arguments":"","call_id":"%s","name":"get_weather"},"sequence_number":1}`, i, id, call))
	var whole strings.Builder
	for _, d := range deltas {
		q, _ := json.Marshal(d)
		whole.WriteString(d)
		events = append(events, fmt.Sprintf(`{"type":"response.function_call_arguments.delta","item_id":"%s","output_index":%d,"delta":%s,"sequence_number":2}`, id, i, q))
	}
	q, _ := json.Marshal(whole.String())
	events = append(events,
		fmt.Sprintf(`{"type":"response.function_call_arguments.done","item_id":"%s","output_index":%d,"arguments":%s,"sequence_number":3}`, id, i, q),
		fmt.Sprintf(`{"type":"response.output_item.done","output_index":%d,"item":{"id":"%s","type":"function_call","status":"completed","arguments":%s,"call_id":"%s","name":"get_weather"},"sequence_number":4}`, i, id, q, call))
	return events
}

func benchStart() []string {
	return []string{
		`{"type":"response.created","response":` + fmt.Sprintf(benchEnvelope, "in_progress", "null") + `,"sequence_number":0}`,
		`{"type":"response.in_progress","response":` + fmt.Sprintf(benchEnvelope, "in_progress", "null") + `,"sequence_number":1}`,
	}
}

func benchEnd(events []string) []string {
	return append(events, `{"type":"response.completed","response":`+fmt.Sprintf(benchEnvelope, "completed", `{"input_tokens":80,"output_tokens":300,"total_tokens":380}`)+`,"sequence_number":9}`)
}

// responsesOrdinary is a stream of a recorded stream's size and shape.
func responsesOrdinary() []string {
	ev := benchStart()
	ev = append(ev,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]},"sequence_number":2}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[],"encrypted_content":"`+strings.Repeat("gAAAAB0x", 200)+`"},"sequence_number":3}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"id":"msg_1","type":"message","status":"in_progress","content":[],"role":"assistant"},"sequence_number":4}`,
		`{"type":"response.content_part.added","item_id":"msg_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"text":""},"sequence_number":5}`)
	var text strings.Builder
	for i := range 40 {
		w := fmt.Sprintf(" word%d", i)
		text.WriteString(w)
		ev = append(ev, fmt.Sprintf(`{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"%s","logprobs":[],"sequence_number":6}`, w))
	}
	t := text.String()
	ev = append(ev,
		`{"type":"response.output_text.done","item_id":"msg_1","output_index":1,"content_index":0,"text":"`+t+`","sequence_number":7}`,
		`{"type":"response.content_part.done","item_id":"msg_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"text":"`+t+`"},"sequence_number":8}`,
		`{"type":"response.output_item.done","output_index":1,"item":{"id":"msg_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"text":"`+t+`"}],"role":"assistant"},"sequence_number":9}`)
	var deltas []string
	for _, d := range strings.SplitAfter(`{"city":"San Francisco, CA","units":"c","note":"an ordinary stream has a call of some dozens of pieces"}`, " ") {
		deltas = append(deltas, d[:len(d)/2], d[len(d)/2:])
	}
	return benchEnd(benchCall(2, deltas, ev))
}

// responsesOneByteDeltas is one call whose arguments come one byte a delta.
func responsesOneByteDeltas(n int) []string {
	deltas := make([]string, 0, n+8)
	deltas = append(deltas, `{"a":"`)
	for range n {
		deltas = append(deltas, "x")
	}
	deltas = append(deltas, `"}`)
	return benchEnd(benchCall(0, deltas, benchStart()))
}

// responsesManyCalls is n calls, each in three deltas.
func responsesManyCalls(n int) []string {
	ev := benchStart()
	for i := range n {
		ev = benchCall(i, []string{`{"city":`, `"Oslo",`, `"units":"c"}`}, ev)
	}
	return benchEnd(ev)
}

// responsesHugeEvent is one call whose arguments come whole in one
// output_item.done of about n bytes.
func responsesHugeEvent(n int) []string {
	args := `{"data":"` + strings.Repeat("0123456789", n/10) + `"}`
	return benchEnd(benchCall(0, []string{args}, benchStart()))
}

func BenchmarkResponsesStream(b *testing.B) {
	// A million one-byte deltas are a body of about 120 MB: beyond the
	// default limit of 32 MiB, within these.
	p := adapters.WithReplyLimits(adapters.ForOpenAIResponses(), adapters.ReplyLimits{MaxBytes: 1 << 30})
	cases := []struct {
		name   string
		events []string
		calls  int
	}{
		{"ordinary", responsesOrdinary(), 1},
		{"one-byte-deltas-100k", responsesOneByteDeltas(100_000), 1},
		{"one-byte-deltas-1M", responsesOneByteDeltas(1_000_000), 1},
		{"calls-1k", responsesManyCalls(1_000), 1_000},
		{"calls-10k", responsesManyCalls(10_000), 10_000},
		{"huge-event-512KB", responsesHugeEvent(512 << 10), 1},
		{"huge-event-5MB", responsesHugeEvent(5 << 20), 1},
	}
	for _, c := range cases {
		body, datas := responsesBenchBody(c.events)
		turn, err := p.ParseStream(bytes.NewReader(body))
		if err != nil || len(turn.Calls) != c.calls {
			b.Fatalf("%s: %d calls, %v", c.name, len(turn.Calls), err)
		}
		b.Run(c.name+"/stream", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.ParseStream(bytes.NewReader(body)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/json.Valid", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				for _, d := range datas {
					if !json.Valid(d) {
						b.Fatal("invalid")
					}
				}
			}
		})
	}
}
