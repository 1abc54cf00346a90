package tnanthropic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/toolnexus/toolnexus/adapters"
	tnanthropic "github.com/toolnexus/toolnexus/integrations/anthropic"
	"github.com/toolnexus/toolnexus/internal/sdktest"
	"github.com/toolnexus/toolnexus/transport"
)

var _ transport.Transport = (*tnanthropic.Transport)(nil)

// transportReply is the whole reply of the transport tests, with its
// usage (cache reads and writes).
const transportReply = `{"id":"msg_t1","type":"message","role":"assistant","model":"claude-test","stop_reason":"tool_use","stop_sequence":null,
	"usage":{"input_tokens":20,"cache_read_input_tokens":100,"cache_creation_input_tokens":30,"output_tokens":15},"content":[
	{"type":"text","text":"Checking."},
	{"type":"tool_use","id":"toolu_t1","name":"get_weather","input":{"city":"Oslo"}}]}`

// anthropicBody is a whole Messages request body built by adapters.NewBody.
func anthropicBody(t *testing.T) []byte {
	t.Helper()
	p := adapters.ForAnthropic()
	b, err := adapters.NewBody(p, adapters.Request{Model: "claude-test", MaxTokens: 1024, Tools: sdktest.Toolkit().Tools(),
		Extra: map[string]json.RawMessage{"metadata": json.RawMessage(`{"user_id":"u-9007199254740993"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Append(p.Prompt("Weather in Oslo?")...); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkTurn checks the Turn of transportReply, and its usage unless
// streamed (messageStream writes a usage of its own).
func checkTurn(t *testing.T, turn adapters.Turn, streamed bool) {
	t.Helper()
	if len(turn.Calls) != 1 || turn.Calls[0].ID != "toolu_t1" || turn.Calls[0].Name != "get_weather" || turn.Text != "Checking." {
		t.Errorf("turn: calls %+v, text %q", turn.Calls, turn.Text)
	}
	if u := turn.Usage; !streamed && (u.Input != 150 || u.Output != 15 || u.CacheRead != 100 || u.CacheWrite != 30) {
		t.Errorf("usage = %+v", u)
	}
}

// TestTransport: NewTransport sends NewBody's bytes unchanged through the
// client, reads the reply whole and streamed with adapters' parser (Stream
// adds "stream": true), and an error body is a StatusError wrapping the
// provider's ReplyError and the SDK's error; a stream cut off is
// ErrIncomplete.
func TestTransport(t *testing.T) {
	stream, err := messageStream(transportReply, 2, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	cut := stream[:strings.Index(stream, "event: message_delta")]
	overloaded := "status:529\n" + `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_1"}`
	m := sdktest.NewModel(modelPath, transportReply, stream, overloaded, overloaded, cut)
	defer m.Close()
	tr := tnanthropic.NewTransport(newClient(m))
	ctx := context.Background()
	body := anthropicBody(t)
	turn, err := tr.Send(ctx, body)
	if err != nil {
		t.Fatalf("Send: %v (model: %v)", err, m.Err())
	}
	checkTurn(t, turn, false)
	var text strings.Builder
	turn, err = tr.Stream(ctx, body, adapters.StreamHooks{Text: func(d string) { text.WriteString(d) }})
	if err != nil {
		t.Fatalf("Stream: %v (model: %v)", err, m.Err())
	}
	checkTurn(t, turn, true)
	if text.String() != "Checking." {
		t.Errorf("text hook saw %q", text.String())
	}
	for _, streamed := range []bool{false, true} {
		if streamed {
			_, err = tr.Stream(ctx, body, adapters.StreamHooks{})
		} else {
			_, err = tr.Send(ctx, body)
		}
		var se *transport.StatusError
		var re *adapters.ReplyError
		var sdk *anthropic.Error
		if !errors.As(err, &se) || !errors.As(err, &re) || !errors.As(err, &sdk) || !errors.Is(err, adapters.ErrProviderError) {
			t.Fatalf("streamed %v: err = %v, want a StatusError wrapping a ReplyError, and the SDK's error", streamed, err)
		}
		if se.StatusCode != 529 || re.Message != "Overloaded" || re.Type != "overloaded_error" || !strings.Contains(err.Error(), "HTTP 529: Overloaded") {
			t.Errorf("streamed %v: %v: status %d, message %q, type %q", streamed, err, se.StatusCode, re.Message, re.Type)
		}
	}
	if _, err := tr.Stream(ctx, body, adapters.StreamHooks{}); !errors.Is(err, adapters.ErrIncomplete) {
		t.Errorf("a stream cut off: err = %v, want ErrIncomplete", err)
	}
	reqs := m.Requests()
	if !bytes.Equal(reqs[0], body) {
		t.Errorf("Send sent\n%s\nwant the body as built:\n%s", reqs[0], body)
	}
	if s, _ := sdktest.Member(reqs[1], "stream"); string(s) != "true" {
		t.Errorf("Stream sent stream %s", s)
	}
	if md, _ := sdktest.Member(reqs[1], "metadata"); string(md) != `{"user_id":"u-9007199254740993"}` {
		t.Errorf("Stream sent metadata %s", md)
	}

	// The client's retries apply: a 529, then the reply.
	r := sdktest.NewModel(modelPath, overloaded, transportReply)
	defer r.Close()
	turn, err = tnanthropic.NewTransport(newClient(r), option.WithMaxRetries(1)).Send(ctx, body)
	if err != nil {
		t.Fatalf("after a retry: %v", err)
	}
	checkTurn(t, turn, false)
}
