package adapters_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
)

func FuzzAnthropicStream(f *testing.F) { fuzzStream(f, adapters.ForAnthropic()) }

// anthropicEvent is one SSE event of an Anthropic stream, its data given
// as JSON text.
func anthropicEvent(name, data string) string {
	return "event: " + name + "\ndata: " + data + "\n\n"
}

// anthropicCallEvents are the events of a stream with text and two
// tool_use blocks, one event a string.
var anthropicCallEvents = []string{
	anthropicEvent("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}`),
	anthropicEvent("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
	anthropicEvent("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Looking."}}`),
	anthropicEvent("content_block_stop", `{"type":"content_block_stop","index":0}`),
	anthropicEvent("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_a","name":"get_weather","input":{}}}`),
	anthropicEvent("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": "}}`),
	anthropicEvent("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"Oslo\"}"}}`),
	anthropicEvent("content_block_stop", `{"type":"content_block_stop","index":1}`),
	anthropicEvent("content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_b","name":"get_time","input":{}}}`),
	anthropicEvent("content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"zone\":\"CET\"}"}}`),
	anthropicEvent("content_block_stop", `{"type":"content_block_stop","index":2}`),
	anthropicEvent("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":40}}`),
	anthropicEvent("message_stop", `{"type":"message_stop"}`),
}

// TestAnthropicStreamCallAtBlockStop writes a stream one event at a time
// and checks that each call reaches the Call hook when its
// content_block_stop is written, not before (its input was already whole
// JSON one event earlier) and not at the end of the stream.
func TestAnthropicStreamCallAtBlockStop(t *testing.T) {
	var got []adapters.Call
	s, err := adapters.NewStream(adapters.ForAnthropic(), adapters.StreamHooks{
		Call: func(c adapters.Call) { got = append(got, c) },
	})
	if err != nil {
		t.Fatal(err)
	}
	// want[i] is how many calls the hook has after event i is written.
	want := []int{0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2}
	for i, ev := range anthropicCallEvents {
		// Each event in two writes, cut before its blank line: the event
		// is not whole until the blank line comes.
		cut := len(ev) - 1
		if _, err := s.Write([]byte(ev[:cut])); err != nil {
			t.Fatalf("event %d: %v", i+1, err)
		}
		if prev := want[max(i-1, 0)] * min(i, 1); len(got) != prev {
			t.Fatalf("event %d: the hook has %d calls before the event's blank line was written, want %d", i+1, len(got), prev)
		}
		if _, err := s.Write([]byte(ev[cut:])); err != nil {
			t.Fatalf("event %d: %v", i+1, err)
		}
		if len(got) != want[i] {
			t.Fatalf("after event %d (%s): the hook has %d calls, want %d", i+1, strings.SplitN(ev, "\n", 2)[0], len(got), want[i])
		}
	}
	turn, err := s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(turn.Calls, got); d != "" {
		t.Fatalf("hook calls differ from the turn's (-turn +hook):\n%s", d)
	}
	if len(got) != 2 || string(got[0].Args) != `{"city":"Oslo"}` || got[1].Name != "get_time" {
		t.Fatalf("calls: %+v", got)
	}
}

// TestAnthropicStreamIsWholeReply checks that a stream's Turn is exactly
// what ParseAnthropicReply gives for the message the stream amounts to,
// written by hand: calls, text, stop and replay.
func TestAnthropicStreamIsWholeReply(t *testing.T) {
	whole := `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[` +
		`{"type":"text","text":"Looking."},` +
		`{"type":"tool_use","id":"toolu_a","name":"get_weather","input":{"city":"Oslo"}},` +
		`{"type":"tool_use","id":"toolu_b","name":"get_time","input":{"zone":"CET"}}],` +
		`"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":40}}`
	want, err := adapters.ParseAnthropicReply([]byte(whole))
	if err != nil {
		t.Fatal(err)
	}
	got, err := adapters.ParseAnthropicStream(strings.NewReader(strings.Join(anthropicCallEvents, "")))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("stream turn differs from the whole reply's (-reply +stream):\n%s", d)
	}
}

// TestAnthropicStreamRefusals checks the failures of single events that
// the fixtures do not show, each with its sentinel and a word of its
// message.
func TestAnthropicStreamRefusals(t *testing.T) {
	head := strings.Join(anthropicCallEvents[:5], "") // block 1 (tool_use) open
	for _, c := range []struct {
		name, body string
		want       error
		text       string
	}{
		{"index not an integer", head + anthropicEvent("content_block_delta", `{"type":"content_block_delta","index":1.0,"delta":{"type":"input_json_delta","partial_json":"{}"}}`), adapters.ErrReplyShape, "/index"},
		{"negative index", head + anthropicEvent("content_block_stop", `{"type":"content_block_stop","index":-1}`), adapters.ErrReplyShape, "/index"},
		{"partial_json not a string", head + anthropicEvent("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":{}}}`), adapters.ErrArguments, "/delta/partial_json"},
		{"index out of order", head + anthropicEvent("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`), adapters.ErrReplyShape, "started again"},
		{"message_start twice", head + anthropicCallEvents[0], adapters.ErrReplyShape, "message_start again"},
		{"block before message_start", strings.Join(anthropicCallEvents[1:], ""), adapters.ErrReplyShape, "before message_start"},
		{"content in message_start", anthropicEvent("message_start", `{"type":"message_start","message":{"id":"m","content":[{"type":"text","text":"x"}]}}`), adapters.ErrReplyShape, "/message/content"},
		{"string onto array", head[:len(head)-len(anthropicCallEvents[4])] + anthropicEvent("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"","citations":[]}}`) +
			anthropicEvent("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"x_delta","citations":"no"}}`), adapters.ErrReplyShape, "/delta/citations"},
		{"block without type", head + anthropicEvent("content_block_start", `{"type":"content_block_start","index":2,"content_block":{"text":""}}`), adapters.ErrReplyShape, "missing type"},
		{"block after message_delta", strings.Join(anthropicCallEvents[:12], "") + anthropicEvent("content_block_start", `{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}`), adapters.ErrReplyShape, "after message_delta"},
		{"error event, no error object", head + anthropicEvent("error", `{"type":"error","detail":"gone"}`), adapters.ErrProviderError, "gone"},
		{"tool_use input a string", strings.Join(anthropicCallEvents[:4], "") + anthropicEvent("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"n","input":"{}"}}`) + anthropicEvent("content_block_stop", `{"type":"content_block_stop","index":1}`), adapters.ErrArguments, "input"},
		{"tool_use without id", strings.Join(anthropicCallEvents[:4], "") + anthropicEvent("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","name":"n","input":{}}}`) + anthropicEvent("content_block_stop", `{"type":"content_block_stop","index":1}`), adapters.ErrReplyShape, "missing id"},
		{"body ends in the open block", head, adapters.ErrIncomplete, "inside block 1"},
		{"no body", "", adapters.ErrIncomplete, "no events"},
	} {
		t.Run(c.name, func(t *testing.T) {
			turn, err := adapters.ParseAnthropicStream(strings.NewReader(c.body))
			if !errors.Is(err, c.want) {
				t.Fatalf("got %+v, %v; want an error wrapping %v", turn, err, c.want)
			}
			var re *adapters.ReplyError
			if !errors.As(err, &re) || re.Provider != adapters.NameAnthropic {
				t.Fatalf("%v: not an anthropic *ReplyError", err)
			}
			if !strings.Contains(err.Error(), c.text) {
				t.Fatalf("%v: does not say %q", err, c.text)
			}
		})
	}
}

// TestAnthropicStreamSkips checks what a stream may carry and be read as
// if it did not: pings anywhere, event types this package does not know,
// SSE comments; and that message_delta's stop_reason stands for a
// message_stop that never came.
func TestAnthropicStreamSkips(t *testing.T) {
	want, err := adapters.ParseAnthropicStream(strings.NewReader(strings.Join(anthropicCallEvents, "")))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(anthropicEvent("ping", `{"type":"ping"}`))
	for i, ev := range anthropicCallEvents[:len(anthropicCallEvents)-1] {
		b.WriteString(ev)
		b.WriteString(": keep-alive\n")
		b.WriteString(anthropicEvent("ping", `{"type":"ping"}`))
		b.WriteString(anthropicEvent("future_event", fmt.Sprintf(`{"type":"future_event","n":%d,"index":99}`, i)))
	}
	got, err := adapters.ParseAnthropicStream(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("(-plain +with skips):\n%s", d)
	}
}

// TestAnthropicStreamLimits checks that the stream limits hold for
// Anthropic's streams: an event larger than MaxEventBytes, more events
// than MaxEvents.
func TestAnthropicStreamLimits(t *testing.T) {
	body := []byte(strings.Join(anthropicCallEvents, ""))
	for _, l := range []adapters.ReplyLimits{{MaxEventBytes: 100}, {MaxEvents: 5}, {MaxBytes: len(body) - 1}} {
		p := adapters.WithReplyLimits(adapters.ForAnthropic(), l)
		_, err := p.ParseStream(bytes.NewReader(body))
		if !errors.Is(err, adapters.ErrReplyLimit) {
			t.Fatalf("%+v: got %v, want ErrReplyLimit", l, err)
		}
	}
}
