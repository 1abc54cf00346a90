package tnanthropic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/integrations/anthropic"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// messageStream is the Messages stream of a whole message reply, in the
// documented event format: message_start (the message without content,
// stop_reason null), each content block's start, deltas and stop (a
// block's text, thinking and tool_use input in pieces, a thinking
// signature in a signature_delta), message_delta with the stop_reason, and
// message_stop. pieces is how many pieces each text is cut into; stop, when
// not "", replaces the message's stop_reason; cut, when not 0, sends only
// the first cut bytes of the last tool_use input.
func messageStream(reply string, pieces int, stop string, cut int) (string, error) {
	var msg map[string]json.RawMessage
	if err := json.Unmarshal([]byte(reply), &msg); err != nil {
		return "", err
	}
	var content []map[string]json.RawMessage
	if err := json.Unmarshal(msg["content"], &content); err != nil {
		return "", err
	}
	if stop == "" {
		stop = string(msg["stop_reason"])
	} else {
		stop = `"` + stop + `"`
	}
	var b strings.Builder
	event := func(typ string, data string) {
		if data != "" {
			data = "," + data
		}
		fmt.Fprintf(&b, "event: %s\ndata: {\"type\":%q%s}\n\n", typ, typ, data)
	}
	split := func(s string) []string {
		var out []string
		n := (len(s) + pieces - 1) / pieces
		for len(s) > n {
			out = append(out, s[:n])
			s = s[n:]
		}
		return append(out, s)
	}
	quote := func(s string) string { q, _ := json.Marshal(s); return string(q) }
	var err error
	text := func(raw json.RawMessage) string {
		var s string
		if e := json.Unmarshal(raw, &s); e != nil {
			err = e
		}
		return s
	}
	event("message_start", fmt.Sprintf(`"message":{"id":%s,"type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}`, msg["id"]))
	for i, blk := range content {
		delta := func(d string) { event("content_block_delta", fmt.Sprintf(`"index":%d,"delta":%s`, i, d)) }
		switch typ := text(blk["type"]); typ {
		case "thinking":
			event("content_block_start", fmt.Sprintf(`"index":%d,"content_block":{"type":"thinking","thinking":"","signature":""}`, i))
			for _, p := range split(text(blk["thinking"])) {
				delta(`{"type":"thinking_delta","thinking":` + quote(p) + `}`)
			}
			delta(`{"type":"signature_delta","signature":` + string(blk["signature"]) + `}`)
		case "text":
			event("content_block_start", fmt.Sprintf(`"index":%d,"content_block":{"type":"text","text":""}`, i))
			for _, p := range split(text(blk["text"])) {
				delta(`{"type":"text_delta","text":` + quote(p) + `}`)
			}
		case "tool_use":
			event("content_block_start", fmt.Sprintf(`"index":%d,"content_block":{"type":"tool_use","id":%s,"name":%s,"input":{}}`, i, blk["id"], blk["name"]))
			input := string(blk["input"])
			if cut > 0 && i == len(content)-1 {
				input = input[:cut]
			}
			for _, p := range split(input) {
				delta(`{"type":"input_json_delta","partial_json":` + quote(p) + `}`)
			}
		default:
			return "", fmt.Errorf("block %d: type %s", i, typ)
		}
		event("content_block_stop", fmt.Sprintf(`"index":%d`, i))
	}
	event("message_delta", `"delta":{"stop_reason":`+stop+`,"stop_sequence":null},"usage":{"output_tokens":10}`)
	event("message_stop", "")
	return b.String(), err
}

// streamScript is script streamed, each text in three pieces.
var streamScript = func() []string {
	bodies := make([]string, len(script))
	for i, r := range script {
		var err error
		if bodies[i], err = messageStream(r, 3, "", 0); err != nil {
			panic(err) // a fixed, valid script
		}
	}
	return bodies
}()

// accumulate reads one streamed message through the SDK's NewStreaming and
// Message.Accumulate, unmodified.
func accumulate(t *testing.T, client anthropic.Client, params anthropic.MessageNewParams) *anthropic.Message {
	t.Helper()
	stream := client.Messages.NewStreaming(context.Background(), params)
	var msg anthropic.Message
	for stream.Next() {
		if err := msg.Accumulate(stream.Current()); err != nil {
			t.Fatalf("Accumulate: %v", err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatalf("the SDK's stream: %v", err)
	}
	return &msg
}

// TestStreamAccumulate: the SDK's own streamed form (NewStreaming and
// Message.Accumulate), unmodified, answered by Run: every request carries
// the messages of the unstreamed loop, thinking signatures intact.
func TestStreamAccumulate(t *testing.T) {
	bodies := streamScript
	m := sdktest.NewModel(modelPath, bodies...)
	defer m.Close()
	ctx := context.Background()
	client := newClient(m)
	tk := sdktest.Toolkit()
	tools, err := tnanthropic.Tools(tk)
	if err != nil {
		t.Fatal(err)
	}
	params := anthropic.MessageNewParams{Model: "claude-test", MaxTokens: 1024, Tools: tools,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather and time in Oslo?"))}}
	var text string
	for turn := 1; text == ""; turn++ {
		if turn > len(bodies) {
			t.Fatalf("the loop did not end after %d turns", len(bodies))
		}
		msg := accumulate(t, client, params)
		next, done, err := tnanthropic.Run(ctx, tk, msg)
		if err != nil {
			t.Fatalf("turn %d: Run: %v", turn, err)
		}
		params.Messages = append(params.Messages, next...)
		if done {
			for _, block := range msg.Content {
				if block.Type == "text" {
					text += block.Text
				}
			}
		}
	}
	reqs := m.Finished(t, text, 3)
	data, err := os.ReadFile("testdata/requests.json")
	if err != nil {
		t.Fatal(err)
	}
	var unstreamed []json.RawMessage
	if err := json.Unmarshal(data, &unstreamed); err != nil {
		t.Fatal(err)
	}
	for i := range reqs {
		if diff := cmp.Diff(decoded(t, unstreamed[i], "messages"), decoded(t, reqs[i], "messages")); diff != "" {
			t.Errorf("request %d's messages (-unstreamed +streamed):\n%s", i+1, diff)
		}
		if s, _ := sdktest.Member(reqs[i], "stream"); string(s) != "true" {
			t.Errorf("request %d: stream = %s, want true", i+1, s)
		}
	}
}

// decoded is the member key of a request body, decoded.
func decoded(t *testing.T, body json.RawMessage, key string) any {
	t.Helper()
	raw, err := sdktest.Member(body, key)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAccumulateCutInput: what the SDK's Message.Accumulate does with a
// tool_use whose input_json_delta pieces do not make valid JSON, as when
// max_tokens cuts the input: at content_block_stop it replaces the input
// with {}, without an error, so the call would run with no arguments.
// Run refuses such a message by its stop_reason, and still runs a
// message whose last tool_use was not cut.
func TestAccumulateCutInput(t *testing.T) {
	if !strings.Contains(script[0], `"local_time","input":{"city":"Oslo"}}]`) {
		t.Fatal("the script's first message does not end with the local_time call the test cuts")
	}
	for _, tc := range []struct {
		name      string
		stop      string
		cut       int
		wantInput string // the last tool_use's input after Accumulate
		wantErr   bool   // Run refuses the message
	}{
		{"cut by max_tokens", "max_tokens", len(`{"city":"Os`), `{}`, true},
		{"cut by the context window", "model_context_window_exceeded", len(`{"ci`), `{}`, true},
		{"whole, stop max_tokens", "max_tokens", 0, `{"city":"Oslo"}`, true},
		{"whole, stop tool_use", "", 0, `{"city":"Oslo"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := messageStream(script[0], 4, tc.stop, tc.cut)
			if err != nil {
				t.Fatal(err)
			}
			m := sdktest.NewModel(modelPath, body)
			defer m.Close()
			msg := accumulate(t, newClient(m), anthropic.MessageNewParams{Model: "claude-test", MaxTokens: 16,
				Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather and time in Oslo?"))}})
			last := msg.Content[len(msg.Content)-1]
			var got bytes.Buffer
			if err := json.Compact(&got, last.Input); err != nil {
				t.Fatalf("Accumulate left input %q, not JSON: %v", last.Input, err)
			}
			if got.String() != tc.wantInput {
				t.Errorf("anthropic-sdk-go's Accumulate now leaves input %s, was %s: update the package documentation and docs/integrations.md", got.String(), tc.wantInput)
			}
			next, done, err := tnanthropic.Run(context.Background(), sdktest.Toolkit(), msg)
			if tc.wantErr {
				if !errors.Is(err, tnanthropic.ErrReply) || !strings.Contains(err.Error(), "local_time was cut off by stop_reason "+tc.stop) {
					t.Errorf("Run error = %v, want ErrReply naming local_time and stop_reason %s", err, tc.stop)
				}
				return
			}
			if err != nil || done || len(next) != 2 {
				t.Fatalf("Run = %d messages, done %v, err %v; want 2, false, nil", len(next), done, err)
			}
		})
	}
}

// TestRunTurnStreamed: each streamed reply of the script read from its raw
// body by adapters.ParseAnthropicStream and answered by RunTurn gives the
// same next messages as Run over the whole message; a tool_use cut off by
// max_tokens is refused by the parser, never run with {}.
func TestRunTurnStreamed(t *testing.T) {
	ctx := context.Background()
	tk := sdktest.Toolkit()
	for i, body := range streamScript {
		turn, err := adapters.ParseAnthropicStream(strings.NewReader(body))
		if err != nil {
			t.Fatalf("reply %d: %v", i, err)
		}
		got, gotDone, err := tnanthropic.RunTurn(ctx, tk, turn)
		if err != nil {
			t.Fatalf("reply %d: RunTurn: %v", i, err)
		}
		var msg anthropic.Message
		if err := json.Unmarshal([]byte(script[i]), &msg); err != nil {
			t.Fatal(err)
		}
		want, wantDone, err := tnanthropic.Run(ctx, tk, &msg)
		if err != nil {
			t.Fatalf("reply %d: Run: %v", i, err)
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		var gv, wv any
		_ = json.Unmarshal(gj, &gv)
		_ = json.Unmarshal(wj, &wv)
		if d := cmp.Diff(wv, gv); d != "" || gotDone != wantDone {
			t.Errorf("reply %d: RunTurn differs from Run (done %v, %v) (-Run +RunTurn):\n%s", i, wantDone, gotDone, d)
		}
	}
	cut, err := messageStream(script[0], 3, "max_tokens", 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := adapters.ParseAnthropicStream(strings.NewReader(cut)); !errors.Is(err, adapters.ErrIncomplete) && !errors.Is(err, adapters.ErrArguments) {
		t.Errorf("a tool_use cut by max_tokens: %v, want ErrIncomplete or ErrArguments", err)
	}
	if _, _, err := tnanthropic.RunTurn(ctx, tk, adapters.Turn{Replay: []any{adapters.OpenAIAssistantMessage{}}}); !errors.Is(err, tnanthropic.ErrReply) {
		t.Errorf("a Turn of another provider: %v, want ErrReply", err)
	}
}
