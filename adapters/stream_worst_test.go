package adapters_test

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// The worst stream shapes: for every stream home, the bodies that cost its
// reader the most memory per byte that an attacker (a compromised or
// hostile compatible server, a proxy) can send: many unknown keys, many
// calls or parts in one event, deep and wide partialArgs paths, huge single
// deltas, many tiny events, long ids and names. TestStreamWorst holds each
// to at most maxStreamBytesPerByte bytes allocated per input byte at 1 MB;
// BenchmarkStreamWorst reports the figure (B/inputB) at 1 and 10 MB, the
// table of docs/limits.md.

// maxStreamBytesPerByte is the bound TestStreamWorst asserts.
const maxStreamBytesPerByte = 10

// streamShape is one hostile stream body of about size bytes for a
// provider; check tells whether the parse's result is the one the shape
// means (a turn with its calls, or the error it must give).
type streamShape struct {
	provider string // a key of streamProviders
	name     string
	build    func(size int) []byte
	check    func(t adapters.Turn, err error) error
}

// fill returns head, then unit(i) for i = 0, 1, ... until about size
// bytes, then tail, and how many units it holds.
func fill(head string, unit func(i int) string, sep, tail string, size int) ([]byte, int) {
	var b bytes.Buffer
	b.Grow(size + len(tail) + 256)
	b.WriteString(head)
	n := 0
	for b.Len() < size {
		if n > 0 {
			b.WriteString(sep)
		}
		b.WriteString(unit(n))
		n++
	}
	b.WriteString(tail)
	return b.Bytes(), n
}

// sse is one Server-Sent Event with data (and a name, when not "").
func sse(name, data string) string {
	if name != "" {
		return "event: " + name + "\ndata: " + data + "\n\n"
	}
	return "data: " + data + "\n\n"
}

// key is the i-th shortest distinct member name (letters and digits, the
// shortest first, none a reader's own key in any case): the densest
// members a body can hold.
func key(i int) string {
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	for len(shortKeys) <= i {
		// The next string of chars in order (shortest first), past the
		// ones a provider's reader knows (in any case).
		k, n := shortNext, 1
		for span := len(chars); k >= span; span *= len(chars) {
			k -= span
			n++
		}
		b := make([]byte, n)
		for j := n - 1; j >= 0; j-- {
			b[j] = chars[k%len(chars)]
			k /= len(chars)
		}
		shortNext++
		// Names of four letters and more are the readers' own words
		// ("done", "role", "type", ...) in some case, which a reader
		// refuses as a near-miss of its key: such a key has a digit.
		if s := strings.ToLower(string(b)); s != "id" && s != "p" && (n < 4 || strings.ContainsAny(s, "0123456789")) {
			shortKeys = append(shortKeys, string(b))
		}
	}
	return shortKeys[i]
}

var (
	shortKeys []string
	shortNext int
)

// wantCalls checks a turn of n calls (n < 0: any number, at least one).
func wantCalls(n int) func(adapters.Turn, error) error {
	return func(t adapters.Turn, err error) error {
		switch {
		case err != nil:
			return err
		case n >= 0 && len(t.Calls) != n, n < 0 && len(t.Calls) == 0:
			return fmt.Errorf("%d calls, want %d", len(t.Calls), n)
		}
		return nil
	}
}

// wantOK checks a turn without error.
func wantOK(_ adapters.Turn, err error) error { return err }

// wantLimit checks an error wrapping ErrReplyLimit.
func wantLimit(_ adapters.Turn, err error) error {
	if !errors.Is(err, adapters.ErrReplyLimit) {
		return fmt.Errorf("err = %.200v, want ErrReplyLimit", err)
	}
	return nil
}

// wantCallsOrLimit checks a turn of n calls, or, when n passes
// MaxStreamCalls, an error wrapping ErrReplyLimit.
func wantCallsOrLimit(n int) func(adapters.Turn, error) error {
	if n > adapters.MaxStreamCalls {
		return wantLimit
	}
	return wantCalls(n)
}

// counted is a shape whose check needs the number of units the body holds.
func counted(build func(size int) ([]byte, int), check func(n int) func(adapters.Turn, error) error) (func(int) []byte, func(adapters.Turn, error) error) {
	var n int
	return func(size int) []byte {
			b, k := build(size)
			n = k
			return b
		}, func(t adapters.Turn, err error) error {
			return check(n)(t, err)
		}
}

func chatShapes(provider string) []streamShape {
	const (
		end  = "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
		endT = "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"
	)
	// A tool call id of the server's shape: Mistral's are nine characters.
	id := func(i int) string { return fmt.Sprintf("c%d", i) }
	if provider == "mistral" {
		id = func(i int) string { return fmt.Sprintf("%09d", i) }
	}
	callsOne, callsOneCheck := counted(func(size int) ([]byte, int) {
		return fill(`data: {"choices":[{"delta":{"tool_calls":[`, func(i int) string {
			return `{"index":` + strconv.Itoa(i) + `,"id":"` + id(i) + `","function":{"name":"f"}}`
		}, ",", "]}}]}\n\n"+endT, size)
	}, wantCallsOrLimit)
	callsEvents, callsEventsCheck := counted(func(size int) ([]byte, int) {
		return fill("", func(i int) string {
			return sse("", `{"choices":[{"delta":{"tool_calls":[{"index":`+strconv.Itoa(i)+`,"id":"`+id(i)+`","function":{"name":"f"}}]}}]}`)
		}, "", endT, size)
	}, wantCallsOrLimit)
	return []streamShape{
		{provider, "keys-one-event", func(size int) []byte {
			b, _ := fill(`data: {"choices":[{"delta":{"role":"assistant"`, func(i int) string { return `,"` + key(i) + `":1` }, "", "}}]}\n\n"+end, size)
			return b
		}, wantLimit},
		{provider, "keys-events", func(size int) []byte {
			b, _ := fill("", func(i int) string { return sse("", `{"choices":[{"delta":{"`+key(i)+`":1}}]}`) }, "", end, size)
			return b
		}, wantLimit},
		{provider, "calls-one-event", callsOne, callsOneCheck},
		{provider, "calls-events", callsEvents, callsEventsCheck},
		{provider, "args-tiny-events", func(size int) []byte {
			b, _ := fill(sse("", `{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"`+id(0)+`","function":{"name":"f","arguments":"{\"a\":\""}}]}}]}`),
				func(int) string {
					return sse("", `{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"x"}}]}}]}`)
				},
				"", sse("", `{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"\"}"}}]}}]}`)+endT, size)
			return b
		}, wantCalls(1)},
		{provider, "text-tiny-events", func(size int) []byte {
			b, _ := fill("", func(int) string { return sse("", `{"choices":[{"delta":{"content":"x"}}]}`) }, "", end, size)
			return b
		}, wantOK},
		{provider, "huge-text", func(size int) []byte {
			return []byte(sse("", `{"choices":[{"delta":{"content":"`+strings.Repeat("x", size)+`"}}]}`) + end)
		}, wantOK},
		{provider, "huge-args", func(size int) []byte {
			return []byte(sse("", `{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"`+id(0)+`","function":{"name":"f","arguments":"{\"a\":\"`+strings.Repeat("x", size)+`\"}"}}]}}]}`) + endT)
		}, wantCalls(1)},
		{provider, "huge-name", func(size int) []byte {
			return []byte(sse("", `{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"`+id(0)+`","function":{"name":"`+strings.Repeat("n", size)+`","arguments":"{}"}}]}}]}`) + endT)
		}, wantCalls(1)},
		{provider, "name-tiny-events", func(size int) []byte {
			b, _ := fill(sse("", `{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"`+id(0)+`","function":{"name":"f","arguments":"{}"}}]}}]}`),
				func(i int) string {
					return sse("", `{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"`+string(rune('a'+i%2))+`"}}]}}]}`)
				}, "", endT, size)
			return b
		}, wantCalls(1)},
	}
}

// Ollama's chunks are JSON lines.
func ollamaShapes() []streamShape {
	const end = `{"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}` + "\n"
	callsOne, callsOneCheck := counted(func(size int) ([]byte, int) {
		return fill(`{"message":{"role":"assistant","content":"","tool_calls":[`, func(i int) string {
			return `{"id":"` + strconv.Itoa(i) + `","function":{"name":"f","arguments":{}}}`
		}, ",", "]},\"done\":false}\n"+end, size)
	}, wantCallsOrLimit)
	return []streamShape{
		{"ollama", "top-keys-one-chunk", func(size int) []byte {
			b, _ := fill(`{"message":{"content":""}`, func(i int) string { return `,"` + key(i) + `":1` }, "", "}\n"+end, size)
			return b
		}, wantOK},
		{"ollama", "top-keys-chunks", func(size int) []byte {
			b, _ := fill("", func(i int) string { return `{"` + key(i) + `":1}` + "\n" }, "", end, size)
			return b
		}, wantOK},
		{"ollama", "message-keys", func(size int) []byte {
			b, _ := fill(`{"message":{"content":""`, func(i int) string { return `,"` + key(i) + `":1` }, "", "}}\n"+end, size)
			return b
		}, wantLimit},
		{"ollama", "message-keys-chunks", func(size int) []byte {
			b, _ := fill("", func(i int) string { return `{"message":{"` + key(i) + `":1}}` + "\n" }, "", end, size)
			return b
		}, wantLimit},
		{"ollama", "calls-one-chunk", callsOne, callsOneCheck},
		{"ollama", "text-tiny-chunks", func(size int) []byte {
			b, _ := fill("", func(int) string { return `{"message":{"content":"x"}}` + "\n" }, "", end, size)
			return b
		}, wantOK},
		{"ollama", "huge-name", func(size int) []byte {
			return []byte(`{"message":{"tool_calls":[{"function":{"name":"` + strings.Repeat("n", size) + `","arguments":{}}}]}}` + "\n" + end)
		}, wantCalls(1)},
		{"ollama", "huge-text", func(size int) []byte {
			return []byte(`{"message":{"content":"` + strings.Repeat("x", size) + `"}}` + "\n" + end)
		}, wantOK},
	}
}

func geminiShapes() []streamShape {
	const (
		start = `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","willContinue":true}}]}}]}` + "\n"
		end   = `{"candidates":[{"content":{"parts":[{"functionCall":{}}]},"finishReason":"STOP"}]}` + "\n"
		stop  = `{"candidates":[{"content":{"parts":[{"text":""}]},"finishReason":"STOP"}]}` + "\n"
	)
	piece := func(list string) string {
		return `{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[` + list + `],"willContinue":true}}]}}]}` + "\n"
	}
	deep := strings.Repeat(".a", 500)
	partsOne, partsOneCheck := counted(func(size int) ([]byte, int) {
		return fill(`{"candidates":[{"content":{"parts":[`, func(i int) string { return `{"functionCall":{"name":"f"}}` }, ",", "]},\"finishReason\":\"STOP\"}]}\n", size)
	}, wantCallsOrLimit)
	callChunks, callChunksCheck := counted(func(size int) ([]byte, int) {
		return fill("", func(int) string {
			return `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f"}}]}}]}` + "\n"
		}, "", stop, size)
	}, wantCallsOrLimit)
	return []streamShape{
		{"gemini", "partial-deep-paths", func(size int) []byte {
			b, _ := fill(start, func(i int) string {
				return piece(`{"jsonPath":"$.` + key(i) + deep + `","numberValue":1}`)
			}, "", end, size)
			return b
		}, wantCalls(1)},
		{"gemini", "partial-deep-one-chunk", func(size int) []byte {
			b, _ := fill(start+`{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[`, func(i int) string {
				return `{"jsonPath":"$.` + key(i) + deep + `","numberValue":1}`
			}, ",", `],"willContinue":true}}]}}]}`+"\n"+end, size)
			return b
		}, wantCalls(1)},
		{"gemini", "partial-wide", func(size int) []byte {
			b, _ := fill(start+`{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[`, func(i int) string {
				return `{"jsonPath":"$.` + key(i) + `","nullValue":null}`
			}, ",", `],"willContinue":true}}]}}]}`+"\n"+end, size)
			return b
		}, wantCalls(1)},
		{"gemini", "partial-array", func(size int) []byte {
			b, _ := fill(start+`{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[`, func(i int) string {
				return `{"jsonPath":"$.a[` + strconv.Itoa(i) + `]","nullValue":null}`
			}, ",", `],"willContinue":true}}]}}]}`+"\n"+end, size)
			return b
		}, wantCalls(1)},
		{"gemini", "partial-deep-arrays", func(size int) []byte {
			deep := strings.Repeat("[0]", 330)
			b, _ := fill(start, func(i int) string {
				return piece(`{"jsonPath":"$.` + key(i) + deep + `","numberValue":1}`)
			}, "", end, size)
			return b
		}, wantCalls(1)},
		{"gemini", "partial-string-pieces", func(size int) []byte {
			b, _ := fill(start, func(int) string { return piece(`{"jsonPath":"$.s","stringValue":"x","willContinue":true}`) }, "",
				piece(`{"jsonPath":"$.s","stringValue":""}`)+end, size)
			return b
		}, wantCalls(1)},
		{"gemini", "parts-one-chunk", partsOne, partsOneCheck},
		{"gemini", "call-chunks", callChunks, callChunksCheck},
		{"gemini", "text-parts-one-chunk", func(size int) []byte {
			b, _ := fill(`{"candidates":[{"content":{"parts":[`, func(int) string { return `{"text":"x"}` }, ",", "]},\"finishReason\":\"STOP\"}]}\n", size)
			return b
		}, wantOK},
		{"gemini", "huge-name", func(size int) []byte {
			return []byte(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"` + strings.Repeat("n", size) + `"}}]},"finishReason":"STOP"}]}` + "\n")
		}, wantCalls(1)},
		{"gemini", "text-tiny-chunks", func(size int) []byte {
			b, _ := fill("", func(int) string { return `{"candidates":[{"content":{"parts":[{"text":"x"}]}}]}` + "\n" }, "", stop, size)
			return b
		}, wantOK},
		{"gemini", "part-keys", func(size int) []byte {
			b, _ := fill(`{"candidates":[{"content":{"parts":[{"text":"x"`, func(i int) string { return `,"` + key(i) + `":1` }, "", "}]},\"finishReason\":\"STOP\"}]}\n", size)
			return b
		}, wantOK},
		{"gemini", "huge-text", func(size int) []byte {
			return []byte(`{"candidates":[{"content":{"parts":[{"text":"` + strings.Repeat("x", size) + `"}]},"finishReason":"STOP"}]}` + "\n")
		}, wantOK},
	}
}

func anthropicShapes() []streamShape {
	const (
		start = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"role\":\"assistant\",\"content\":[]}}\n\n"
		stop  = "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	)
	blocks, blocksCheck := counted(func(size int) ([]byte, int) {
		return fill(start, func(i int) string {
			n := strconv.Itoa(i)
			return sse("", `{"type":"content_block_start","index":`+n+`,"content_block":{"type":"tool_use","id":"`+n+`","name":"f","input":{}}}`) +
				sse("", `{"type":"content_block_stop","index":`+n+`}`)
		}, "", stop, size)
	}, wantCallsOrLimit)
	return []streamShape{
		{"anthropic", "message-delta-keys", func(size int) []byte {
			b, _ := fill(start+`data: {"type":"message_delta","delta":{"stop_reason":"end_turn"`, func(i int) string { return `,"` + key(i) + `":1` }, "", "}}\n\n"+stop, size)
			return b
		}, wantOK},
		{"anthropic", "message-delta-events", func(size int) []byte {
			b, _ := fill(start, func(i int) string { return sse("", `{"type":"message_delta","delta":{"`+key(i)+`":1}}`) }, "",
				sse("", `{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`)+stop, size)
			return b
		}, wantOK},
		{"anthropic", "usage-keys", func(size int) []byte {
			b, _ := fill(start+`data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1`, func(i int) string { return `,"` + key(i) + `":1` }, "", "}}\n\n"+stop, size)
			return b
		}, wantOK},
		{"anthropic", "start-keys", func(size int) []byte {
			b, _ := fill(`data: {"type":"message_start","message":{"role":"assistant","content":[]`, func(i int) string { return `,"` + key(i) + `":1` }, "", "}}\n\n"+stop, size)
			return b
		}, wantOK},
		{"anthropic", "block-keys", func(size int) []byte {
			b, _ := fill(start+`data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""`, func(i int) string { return `,"` + key(i) + `":1` }, "",
				"}}\n\n"+sse("", `{"type":"content_block_stop","index":0}`)+stop, size)
			return b
		}, wantLimit},
		{"anthropic", "delta-keys", func(size int) []byte {
			b, _ := fill(start+sse("", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)+`data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta"`,
				func(i int) string { return `,"` + key(i) + `":1` }, "",
				"}}\n\n"+sse("", `{"type":"content_block_stop","index":0}`)+stop, size)
			return b
		}, wantLimit},
		{"anthropic", "delta-key-events", func(size int) []byte {
			b, _ := fill(start+sse("", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
				func(i int) string {
					return sse("", `{"type":"content_block_delta","index":0,"delta":{"`+key(i)+`":1}}`)
				}, "", sse("", `{"type":"content_block_stop","index":0}`)+stop, size)
			return b
		}, wantLimit},
		{"anthropic", "tool-blocks", blocks, blocksCheck},
		{"anthropic", "text-blocks", func(size int) []byte {
			b, _ := fill(start, func(i int) string {
				n := strconv.Itoa(i)
				return sse("", `{"type":"content_block_start","index":`+n+`,"content_block":{"type":"text","text":""}}`) +
					sse("", `{"type":"content_block_stop","index":`+n+`}`)
			}, "", stop, size)
			return b
		}, wantOK},
		{"anthropic", "huge-id", func(size int) []byte {
			return []byte(start + sse("", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"`+strings.Repeat("i", size)+`","name":"f","input":{}}}`) +
				sse("", `{"type":"content_block_stop","index":0}`) + stop)
		}, wantCalls(1)},
		{"anthropic", "text-tiny-deltas", func(size int) []byte {
			b, _ := fill(start+sse("", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
				func(int) string { return sse("", `{"type":"content_block_delta","index":0,"delta":{"text":"x"}}`) }, "",
				sse("", `{"type":"content_block_stop","index":0}`)+stop, size)
			return b
		}, wantOK},
		{"anthropic", "input-tiny-deltas", func(size int) []byte {
			b, _ := fill(start+sse("", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`)+
				sse("", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":\""}}`),
				func(int) string {
					return sse("", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"x"}}`)
				}, "", sse("", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"}"}}`)+
					sse("", `{"type":"content_block_stop","index":0}`)+stop, size)
			return b
		}, wantCalls(1)},
		{"anthropic", "citations", func(size int) []byte {
			b, _ := fill(start+sse("", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
				func(int) string {
					return sse("", `{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{}}}`)
				}, "", sse("", `{"type":"content_block_stop","index":0}`)+stop, size)
			return b
		}, wantOK},
		{"anthropic", "huge-input", func(size int) []byte {
			return []byte(start + sse("", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`) +
				sse("", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":\"`+strings.Repeat("x", size)+`\"}"}}`) +
				sse("", `{"type":"content_block_stop","index":0}`) + stop)
		}, wantCalls(1)},
	}
}

func responsesShapes() []streamShape {
	const done = `data: {"type":"response.completed","response":{"status":"completed"}}` + "\n\n"
	items, itemsCheck := counted(func(size int) ([]byte, int) {
		return fill("", func(i int) string {
			n := strconv.Itoa(i)
			return sse("", `{"type":"response.output_item.done","output_index":`+n+`,"item":{"type":"function_call","call_id":"`+n+`","name":"f","arguments":"{}"}}`)
		}, "", done, size)
	}, wantCallsOrLimit)
	added, addedCheck := counted(func(size int) ([]byte, int) {
		return fill("", func(i int) string {
			n := strconv.Itoa(i)
			return sse("", `{"type":"response.output_item.added","output_index":`+n+`,"item":{"type":"function_call","call_id":"`+n+`","name":"f","arguments":"{}"}}`)
		}, "", done, size)
	}, wantCallsOrLimit)
	output, outputCheck := counted(func(size int) ([]byte, int) {
		return fill(`data: {"type":"response.completed","response":{"status":"completed","output":[`, func(i int) string {
			return `{"type":"function_call","call_id":"` + strconv.Itoa(i) + `","name":"f","arguments":""}`
		}, ",", "]}}\n\n", size)
	}, wantCallsOrLimit)
	return []streamShape{
		{"openai-responses", "items-done", items, itemsCheck},
		{"openai-responses", "items-added", added, addedCheck},
		{"openai-responses", "completed-output", output, outputCheck},
		{"openai-responses", "message-items", func(size int) []byte {
			b, _ := fill("", func(i int) string {
				return sse("", `{"type":"response.output_item.done","output_index":`+strconv.Itoa(i)+`,"item":{"type":"reasoning","id":"`+strconv.Itoa(i)+`"}}`)
			}, "", done, size)
			return b
		}, wantOK},
		{"openai-responses", "message-items-added", func(size int) []byte {
			b, _ := fill("", func(i int) string {
				return sse("", `{"type":"response.output_item.added","output_index":`+strconv.Itoa(i)+`,"item":{"type":"reasoning","id":"`+strconv.Itoa(i)+`"}}`)
			}, "", done, size)
			return b
		}, wantOK},
		{"openai-responses", "completed-messages", func(size int) []byte {
			b, _ := fill(`data: {"type":"response.completed","response":{"status":"completed","output":[`, func(i int) string {
				return `{"type":"reasoning","id":"` + strconv.Itoa(i) + `"}`
			}, ",", "]}}\n\n", size)
			return b
		}, wantOK},
		{"openai-responses", "huge-call-id", func(size int) []byte {
			return []byte(sse("", `{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"`+strings.Repeat("c", size)+`","name":"f","arguments":"{}"}}`) + done)
		}, wantCalls(1)},
		{"openai-responses", "args-tiny-deltas", func(size int) []byte {
			b, _ := fill(sse("", `{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":"{\"a\":\""}}`),
				func(int) string {
					return sse("", `{"type":"response.function_call_arguments.delta","output_index":0,"delta":"x"}`)
				}, "", sse("", `{"type":"response.function_call_arguments.delta","output_index":0,"delta":"\"}"}`)+done, size)
			return b
		}, wantCalls(1)},
		{"openai-responses", "text-tiny-deltas", func(size int) []byte {
			b, _ := fill(sse("", `{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m","role":"assistant","content":[]}}`),
				func(int) string {
					return sse("", `{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"x"}`)
				}, "", done, size)
			return b
		}, wantOK},
		{"openai-responses", "parts", func(size int) []byte {
			b, _ := fill(sse("", `{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m","role":"assistant","content":[]}}`),
				func(i int) string {
					return sse("", `{"type":"response.content_part.added","output_index":0,"content_index":`+strconv.Itoa(i)+`,"part":{}}`)
				}, "", done, size)
			return b
		}, wantOK},
		{"openai-responses", "item-keys", func(size int) []byte {
			b, _ := fill(`data: {"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"m"`,
				func(i int) string { return `,"` + key(i) + `":1` }, "", "}}\n\n"+done, size)
			return b
		}, wantOK},
		{"openai-responses", "envelope-keys", func(size int) []byte {
			b, _ := fill(`data: {"type":"response.completed","response":{"status":"completed"`,
				func(i int) string { return `,"` + key(i) + `":1` }, "", "}}\n\n", size)
			return b
		}, wantOK},
		{"openai-responses", "huge-args", func(size int) []byte {
			return []byte(sse("", `{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":""}}`) +
				sse("", `{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"a\":\"`+strings.Repeat("x", size)+`\"}"}`) + done)
		}, wantCalls(1)},
	}
}

func bedrockShapes() []streamShape {
	start := string(esEvent("messageStart", `{"role":"assistant"}`))
	stop := string(esEvent("messageStop", `{"stopReason":"end_turn"}`))
	uses, usesCheck := counted(func(size int) ([]byte, int) {
		return fill(start, func(i int) string {
			n := strconv.Itoa(i)
			return string(esEvent("contentBlockStart", `{"contentBlockIndex":`+n+`,"start":{"toolUse":{"toolUseId":"`+n+`","name":"f"}}}`))
		}, "", stop, size)
	}, wantCallsOrLimit)
	return []streamShape{
		{"bedrock", "text-tiny-deltas", func(size int) []byte {
			b, _ := fill(start, func(int) string {
				return string(esEvent("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"x"}}`))
			}, "", stop, size)
			return b
		}, wantOK},
		{"bedrock", "text-blocks", func(size int) []byte {
			b, _ := fill(start, func(i int) string {
				return string(esEvent("contentBlockDelta", `{"contentBlockIndex":`+strconv.Itoa(i)+`,"delta":{"text":""}}`))
			}, "", stop, size)
			return b
		}, wantOK},
		{"bedrock", "empty-blocks", func(size int) []byte {
			b, _ := fill(start, func(i int) string {
				return string(esEvent("contentBlockStop", `{"contentBlockIndex":`+strconv.Itoa(i)+`}`))
			}, "", stop, size)
			return b
		}, wantOK},
		{"bedrock", "tool-blocks", uses, usesCheck},
		{"bedrock", "huge-id", func(size int) []byte {
			return []byte(start + string(esEvent("contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"`+strings.Repeat("t", size)+`","name":"f"}}}`)) + stop)
		}, wantCalls(1)},
		{"bedrock", "reasoning-blocks", func(size int) []byte {
			b, _ := fill(start, func(i int) string {
				return string(esEvent("contentBlockDelta", `{"contentBlockIndex":`+strconv.Itoa(i)+`,"delta":{"reasoningContent":{"text":""}}}`))
			}, "", stop, size)
			return b
		}, wantOK},
		{"bedrock", "citations", func(size int) []byte {
			b, _ := fill(start, func(int) string {
				return string(esEvent("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"citation":{}}}`))
			}, "", stop, size)
			return b
		}, wantOK},
		{"bedrock", "metadata-keys", func(size int) []byte {
			b, _ := fill("", func(i int) string { return `,"` + key(i) + `":1` }, "", "", size)
			return []byte(start + stop + string(esEvent("metadata", `{"usage":{}`+string(b)+`}`)))
		}, wantOK},
		{"bedrock", "huge-input", func(size int) []byte {
			return []byte(start + string(esEvent("contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t","name":"f"}}}`)) +
				string(esEvent("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{\"a\":\"`+strings.Repeat("x", size)+`\"}"}}}`)) + stop)
		}, wantCalls(1)},
	}
}

// streamProviders are the providers of the shapes: every stream home,
// and a profile of the OpenAI home with quirks.
var streamProviders = map[string]adapters.Provider{
	"openai":           adapters.ForOpenAI(),
	"snowflake":        adapters.ForOpenAI(adapters.Server(adapters.Snowflake)),
	"mistral":          adapters.ForMistral(),
	"ollama":           adapters.ForOllama(),
	"gemini":           adapters.ForGemini(),
	"anthropic":        adapters.ForAnthropic(),
	"openai-responses": adapters.ForOpenAIResponses(),
	"bedrock":          adapters.ForBedrock(),
}

// streamWorstShapes are every stream home's worst shapes.
func streamWorstShapes() []streamShape {
	var all []streamShape
	all = append(all, chatShapes("openai")...)
	all = append(all, chatShapes("snowflake")[:2]...)
	all = append(all, chatShapes("mistral")...)
	all = append(all, ollamaShapes()...)
	all = append(all, geminiShapes()...)
	all = append(all, anthropicShapes()...)
	all = append(all, responsesShapes()...)
	all = append(all, bedrockShapes()...)
	for i := range all {
		if all[i].check == nil {
			all[i].check = wantOK
		}
	}
	return all
}

// streamBytesPerByte parses body as p's stream and returns the bytes the
// parse allocated per byte of body, and its result.
func streamBytesPerByte(p adapters.Provider, body []byte) (float64, adapters.Turn, error) {
	var turn adapters.Turn
	var err error
	n := allocated(func() { turn, err = p.ParseStream(bytes.NewReader(body)) })
	return float64(n) / float64(len(body)), turn, err
}

// TestStreamWorst: every stream home reads its worst shapes at 1 MB
// within maxStreamBytesPerByte bytes allocated per input byte, and gives
// the result the shape means.
func TestStreamWorst(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	for _, sh := range streamWorstShapes() {
		t.Run(sh.provider+"/"+sh.name, func(t *testing.T) {
			p := streamProviders[sh.provider]
			body := sh.build(1 << 20)
			per, turn, err := streamBytesPerByte(p, body)
			if cerr := sh.check(turn, err); cerr != nil {
				t.Fatalf("%d bytes: %v", len(body), cerr)
			}
			t.Logf("%.2f B/inputB", per)
			if per > maxStreamBytesPerByte {
				t.Errorf("%d bytes: %.2f bytes allocated per input byte, want at most %d", len(body), per, maxStreamBytesPerByte)
			}
		})
	}
}

// BenchmarkStreamWorst reports the bytes allocated per input byte
// (B/inputB) of every worst shape at 1 and 10 MB.
func BenchmarkStreamWorst(b *testing.B) {
	for _, sh := range streamWorstShapes() {
		p := streamProviders[sh.provider]
		for _, size := range []int{1 << 20, 10 << 20} {
			body := sh.build(size)
			b.Run(fmt.Sprintf("%s/%s/%dMB", sh.provider, sh.name, size>>20), func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				var total float64
				n := 0
				for b.Loop() {
					per, turn, err := streamBytesPerByte(p, body)
					if cerr := sh.check(turn, err); cerr != nil {
						b.Fatal(cerr)
					}
					total += per
					n++
				}
				b.ReportMetric(total/float64(n), "B/inputB")
			})
		}
	}
}

// TestStreamBounds: an object of the reply gathers MaxStreamMembers
// members from a stream, and a stream begins MaxStreamCalls calls; the
// piece that passes either is ErrReplyLimit, in its own event.
func TestStreamBounds(t *testing.T) {
	const end = "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	for _, n := range []int{adapters.MaxStreamMembers, adapters.MaxStreamMembers + 1} {
		// The message's own members, a delta each (role is not one).
		var b strings.Builder
		b.WriteString(sse("", `{"choices":[{"delta":{"role":"assistant"}}]}`))
		for i := range n {
			b.WriteString(sse("", `{"choices":[{"delta":{"`+key(i)+`":[`+strconv.Itoa(i)+`]}}]}`))
		}
		b.WriteString(end)
		turn, err := adapters.ParseOpenAIStream(strings.NewReader(b.String()))
		var re *adapters.ReplyError
		switch {
		case n == adapters.MaxStreamMembers:
			if err != nil || len(turn.Replay) != 1 {
				t.Fatalf("%d members: %v", n, err)
			}
			extra := turn.Replay[0].(adapters.OpenAIAssistantMessage).Extra
			if !strings.Contains(string(extra), `"`+key(n-1)+`":[`+strconv.Itoa(n-1)+`]`) {
				t.Fatalf("%d members: the last is not in the replay: ...%s", n, extra[max(len(extra)-80, 0):])
			}
		case !errors.As(err, &re) || !errors.Is(err, adapters.ErrReplyLimit) || re.Event != n+1:
			t.Fatalf("%d members: err = %v, want ErrReplyLimit in event %d", n, err, n+1)
		}
	}
	for _, n := range []int{adapters.MaxStreamCalls, adapters.MaxStreamCalls + 1} {
		var b strings.Builder
		for i := range n {
			b.WriteString(sse("", `{"choices":[{"delta":{"tool_calls":[{"index":`+strconv.Itoa(i)+`,"id":"c`+strconv.Itoa(i)+`","function":{"name":"f","arguments":"{}"}}]}}]}`))
		}
		b.WriteString(end)
		turn, err := adapters.ParseOpenAIStream(strings.NewReader(b.String()))
		var re *adapters.ReplyError
		switch {
		case n == adapters.MaxStreamCalls:
			if err != nil || len(turn.Calls) != n {
				t.Fatalf("%d calls: %v, %d", n, err, len(turn.Calls))
			}
		case !errors.As(err, &re) || !errors.Is(err, adapters.ErrReplyLimit) || re.Event != n:
			t.Fatalf("%d calls: err = %v, want ErrReplyLimit in event %d", n, err, n)
		}
	}
}
