package adapters_test

import (
	"bytes"
	"encoding/json"
	"errors"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
)

func FuzzResponsesStream(f *testing.F) { fuzzStream(f, adapters.ForOpenAIResponses()) }

// responsesFixture reads a stream fixture of the Responses home.
func responsesFixture(t testing.TB, name string) []byte {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "calls", adapters.NameOpenAIResponses, "streams", name))
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// sseEvent is one named Server-Sent Event of a Responses stream.
func sseEvent(data string) string {
	var v struct{ Type string }
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		panic(err)
	}
	return "event: " + v.Type + "\ndata: " + data + "\n\n"
}

// TestResponsesStreamCallBeforeEnd feeds a stream event by event and
// checks that each call reaches the Call hook at its output_item.done, in
// output order, before response.completed is written.
func TestResponsesStreamCallBeforeEnd(t *testing.T) {
	events := []string{
		`{"type":"response.created","response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"fc_a","type":"function_call","status":"in_progress","arguments":"","call_id":"call_a","name":"alpha"}}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"id":"fc_b","type":"function_call","status":"in_progress","arguments":"","call_id":"call_b","name":"beta"}}`,
		`{"type":"response.function_call_arguments.delta","item_id":"fc_b","output_index":1,"delta":"{\"y\":"}`,
		`{"type":"response.function_call_arguments.delta","item_id":"fc_a","output_index":0,"delta":"{\"x\":1}"}`,
		`{"type":"response.function_call_arguments.delta","item_id":"fc_b","output_index":1,"delta":"2}"}`,
		// Item 1 is whole first: it waits for item 0, before it in the output.
		`{"type":"response.output_item.done","output_index":1,"item":{"id":"fc_b","type":"function_call","status":"completed","arguments":"{\"y\":2}","call_id":"call_b","name":"beta"}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"id":"fc_a","type":"function_call","status":"completed","arguments":"{\"x\":1}","call_id":"call_a","name":"alpha"}}`,
		`{"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","output":[]}}`,
	}
	var got []string
	s, err := adapters.NewStream(adapters.ForOpenAIResponses(), adapters.StreamHooks{
		Call: func(c adapters.Call) { got = append(got, c.ID+" "+string(c.Args)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"call_a {\"x\":1}", "call_b {\"y\":2}"}
	for i, e := range events {
		ev := sseEvent(e)
		// Write the event in two pieces: the call must not wait for more.
		for _, piece := range []string{ev[:len(ev)/2], ev[len(ev)/2:]} {
			if _, err := s.Write([]byte(piece)); err != nil {
				t.Fatalf("event %d: %v", i+1, err)
			}
		}
		switch {
		case i < 7 && len(got) != 0:
			t.Fatalf("after event %d the Call hook got %q; no call is whole in output order yet", i+1, got)
		case i >= 7 && !cmp.Equal(got, want):
			t.Fatalf("after event %d (before response.completed) the Call hook got %q, want %q", i+1, got, want)
		}
	}
	turn, err := s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(turn.Calls) != 2 || len(got) != 2 {
		t.Fatalf("turn has %d calls, hook got %d; want 2 each", len(turn.Calls), len(got))
	}
}

// TestResponsesStreamIsReply checks that a stream whose response.completed
// carries the output gives what ParseOpenAIResponsesReply gives for that
// response, and that ParseOpenAIResponsesStream and the Provider agree.
func TestResponsesStreamIsReply(t *testing.T) {
	body := responsesFixture(t, "tool_calls.sse")
	var last []byte
	for _, line := range bytes.Split(body, []byte("\n")) {
		if bytes.HasPrefix(line, []byte(`data: {"type":"response.completed"`)) {
			last = bytes.TrimPrefix(line, []byte("data: "))
		}
	}
	var ev struct{ Response json.RawMessage }
	if err := json.Unmarshal(last, &ev); err != nil || ev.Response == nil {
		t.Fatalf("no response.completed in the fixture: %v", err)
	}
	want, err := adapters.ParseOpenAIResponsesReply(ev.Response)
	if err != nil {
		t.Fatal(err)
	}
	got, err := adapters.ParseOpenAIResponsesStream(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(resultOf(want, nil), resultOf(got, nil)); d != "" {
		t.Fatalf("stream differs from the whole reply (-reply +stream):\n%s", d)
	}
	if len(got.Calls) != 2 || len(got.Replay) != 4 {
		t.Fatalf("got %d calls and %d replay items, want 2 and 4", len(got.Calls), len(got.Replay))
	}
	viaProvider, err := adapters.ForOpenAIResponses().ParseStream(bytes.NewReader(body))
	if err != nil || !cmp.Equal(resultOf(viaProvider, nil), resultOf(got, nil)) {
		t.Fatalf("Provider.ParseStream differs from ParseOpenAIResponsesStream: %v", err)
	}
}

// TestResponsesStreamReasoningReplay checks that a reasoning item's
// encrypted_content is replayed next to the call it preceded, from the
// response's output when response.completed carries one (it may differ
// from the output_item.done copy).
func TestResponsesStreamReasoningReplay(t *testing.T) {
	rs := func(enc string) string {
		return `{"id":"rs_1","type":"reasoning","summary":[],"encrypted_content":"` + enc + `"}`
	}
	call := `{"id":"fc_1","type":"function_call","status":"completed","arguments":"{}","call_id":"call_1","name":"f"}`
	body := sseEvent(`{"type":"response.output_item.added","output_index":0,"item":`+rs("")+`}`) +
		sseEvent(`{"type":"response.output_item.done","output_index":0,"item":`+rs("first")+`}`) +
		sseEvent(`{"type":"response.output_item.added","output_index":1,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_1","name":"f"}}`) +
		sseEvent(`{"type":"response.output_item.done","output_index":1,"item":`+call+`}`)
	for _, c := range []struct{ output, enc string }{
		{"[]", "first"},
		{"[" + rs("final") + "," + call + "]", "final"},
	} {
		full := body + sseEvent(`{"type":"response.completed","response":{"id":"r","object":"response","status":"completed","output":`+c.output+`}}`)
		turn, err := adapters.ParseOpenAIResponsesStream(strings.NewReader(full))
		if err != nil {
			t.Fatal(err)
		}
		if len(turn.Replay) != 2 || len(turn.Calls) != 1 {
			t.Fatalf("output %s: %d replay items and %d calls, want 2 and 1", c.output, len(turn.Replay), len(turn.Calls))
		}
		r, _ := json.Marshal(turn.Replay[0])
		if !strings.Contains(string(r), `"encrypted_content":"`+c.enc+`"`) {
			t.Fatalf("output %s: replayed reasoning item %s, want encrypted_content %q", c.output, r, c.enc)
		}
	}
}

// TestResponsesStreamErrors checks the sentinels of the failure classes
// on small streams built here (the fixtures hold the goldens).
func TestResponsesStreamErrors(t *testing.T) {
	added := sseEvent(`{"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1","type":"function_call","arguments":"","call_id":"c","name":"f"}}`)
	for _, c := range []struct {
		name, body string
		want       error
		text       string
	}{
		{"empty", "", adapters.ErrIncomplete, "no events"},
		{"no last event", added, adapters.ErrIncomplete, "ended inside output item 0"},
		{"delta for another item", added + sseEvent(`{"type":"response.function_call_arguments.delta","item_id":"fc_2","output_index":0,"delta":"{"}`), adapters.ErrReplyShape, `"fc_2"`},
		{"delta by id only, unknown", added + sseEvent(`{"type":"response.function_call_arguments.delta","item_id":"fc_2","delta":"{"}`), adapters.ErrReplyShape, "which no response.output_item.added began"},
		{"text delta for a call", added + sseEvent(`{"type":"response.function_call_arguments.delta","output_index":0,"delta":1}`), adapters.ErrArguments, "expected a string piece"},
		{"added twice", added + added, adapters.ErrReplyShape, "added already"},
		{"error event nested", sseEvent(`{"type":"error","error":{"type":"insufficient_quota","code":"insufficient_quota","message":"quota"}}`), adapters.ErrProviderError, `"quota"`},
		{"failed without error", sseEvent(`{"type":"response.failed","response":{"status":"failed","error":null,"output":[]}}`), adapters.ErrProviderError, "with no error"},
		{"gap in output_index", sseEvent(`{"type":"response.output_item.added","output_index":1,"item":{"id":"m","type":"message","content":[]}}`) +
			sseEvent(`{"type":"response.completed","response":{"status":"completed","output":[]}}`), adapters.ErrReplyShape, "no output item 0"},
		{"completed output has more items", added + sseEvent(`{"type":"response.output_item.done","output_index":0,"item":{"id":"fc_1","type":"function_call","arguments":"{}","call_id":"c","name":"f"}}`) +
			sseEvent(`{"type":"response.completed","response":{"status":"completed","output":[{"id":"fc_1","type":"function_call","arguments":"{}","call_id":"c","name":"f"},{"id":"m","type":"message","content":[]}]}}`),
			adapters.ErrReplyShape, "output item 1 of the response"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := adapters.ParseOpenAIResponsesStream(strings.NewReader(c.body))
			var re *adapters.ReplyError
			if !errors.Is(err, c.want) || !errors.As(err, &re) || !strings.Contains(err.Error(), c.text) {
				t.Fatalf("got %v, want a *ReplyError wrapping %v that says %s", err, c.want, c.text)
			}
		})
	}
}

// TestResponsesStreamNil checks a nil body.
func TestResponsesStreamNil(t *testing.T) {
	if _, err := adapters.ParseOpenAIResponsesStream(nil); !errors.Is(err, adapters.ErrIncomplete) {
		t.Fatalf("got %v, want ErrIncomplete", err)
	}
}
