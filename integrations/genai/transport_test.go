package tngenai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	tngenai "github.com/toolnexus/toolnexus/integrations/genai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
	"github.com/toolnexus/toolnexus/transport"
	"google.golang.org/genai"
)

var _ transport.Transport = (*tngenai.Transport)(nil)

// The fixtures of the transport tests, in the Gemini API's shape: a whole
// reply (a thought signature, a call with an id, usage with cached and
// thinking tokens), the same reply in two chunks, and an error body.
const (
	geminiReply = `{"candidates":[{"content":{"role":"model","parts":[{"text":"Checking."},
		{"functionCall":{"id":"fc-1","name":"get_weather","args":{"city":"Oslo"}},"thoughtSignature":"c2lnLW9uZQ=="}]},"finishReason":"STOP","index":0}],
		"usageMetadata":{"promptTokenCount":120,"cachedContentTokenCount":100,"candidatesTokenCount":30,"thoughtsTokenCount":12,"totalTokenCount":162},
		"modelVersion":"gemini-test","responseId":"r-1"}`
	geminiChunk1 = `{"candidates":[{"content":{"role":"model","parts":[{"text":"Checking."}]},"index":0}],"modelVersion":"gemini-test","responseId":"r-1"}`
	geminiChunk2 = `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"fc-1","name":"get_weather","args":{"city":"Oslo"}},"thoughtSignature":"c2lnLW9uZQ=="}]},"finishReason":"STOP","index":0}],
		"usageMetadata":{"promptTokenCount":120,"cachedContentTokenCount":100,"candidatesTokenCount":30,"thoughtsTokenCount":12,"totalTokenCount":162},"modelVersion":"gemini-test","responseId":"r-1"}`
	geminiError = "status:400\n" + `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}`
)

// geminiBody is a whole Gemini request body built by adapters.NewBody,
// with a number that float64 would round.
func geminiBody(t *testing.T) []byte {
	t.Helper()
	p := adapters.ForGemini()
	b, err := adapters.NewBody(p, adapters.Request{System: "Be brief.", Tools: sdktest.Toolkit().Tools(),
		Extra: map[string]json.RawMessage{"labels": json.RawMessage(`{"seed":9007199254740993}`)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Append(p.Prompt("Weather in Oslo?")...); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func checkTurn(t *testing.T, turn adapters.Turn) {
	t.Helper()
	if len(turn.Calls) != 1 || turn.Calls[0].ID != "fc-1" || turn.Calls[0].Name != "get_weather" || turn.Calls[0].ThoughtSignature != "c2lnLW9uZQ==" || turn.Text != "Checking." {
		t.Errorf("turn: calls %+v, text %q", turn.Calls, turn.Text)
	}
	if u := turn.Usage; u.Input != 120 || u.Output != 42 || u.CacheRead != 100 || u.Reasoning != 12 {
		t.Errorf("usage = %+v", u)
	}
}

// sameMembers fails t unless sent has body's members, each byte for byte.
func sameMembers(t *testing.T, sent, body []byte) {
	t.Helper()
	var got, want map[string]json.RawMessage
	if err := json.Unmarshal(sent, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(body, &want); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("sent %d members, want %d:\n%s", len(got), len(want), sent)
	}
	for k, v := range want {
		if !bytes.Equal(got[k], v) {
			t.Errorf("member %s: sent\n%s\nwant\n%s", k, got[k], v)
		}
	}
}

// TestTransport: NewTransport sends NewBody's members unchanged through
// the client's GenerateContent and GenerateContentStream (its base URL,
// API version and key), and reads the SDK's reply, whole and streamed,
// with adapters' parser; an error body is a StatusError wrapping the
// provider's ReplyError and the SDK's APIError.
func TestTransport(t *testing.T) {
	ctx := context.Background()
	whole := sdktest.NewModel(modelPath, geminiReply, geminiError)
	defer whole.Close()
	streamed := sdktest.NewModel(streamPath, sse(geminiChunk1, geminiChunk2), geminiError, sse(geminiChunk1))
	defer streamed.Close()
	body := geminiBody(t)

	client, err := newClient(ctx, whole)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tngenai.NewTransport(client, "gemini-test")
	if err != nil {
		t.Fatal(err)
	}
	turn, err := tr.Send(ctx, body)
	if err != nil {
		t.Fatalf("Send: %v (model: %v)", err, whole.Err())
	}
	checkTurn(t, turn)
	sameMembers(t, whole.Requests()[0], body)

	sclient, err := newClient(ctx, streamed)
	if err != nil {
		t.Fatal(err)
	}
	st, err := tngenai.NewTransport(sclient, "gemini-test")
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	var called []string
	turn, err = st.Stream(ctx, body, adapters.StreamHooks{Text: func(d string) { text.WriteString(d) }, Call: func(c adapters.Call) { called = append(called, c.ID) }})
	if err != nil {
		t.Fatalf("Stream: %v (model: %v)", err, streamed.Err())
	}
	checkTurn(t, turn)
	if text.String() != "Checking." || len(called) != 1 {
		t.Errorf("hooks saw text %q, calls %v", text.String(), called)
	}
	sameMembers(t, streamed.Requests()[0], body)

	for i, tr := range []*tngenai.Transport{tr, st} {
		var err error
		if i == 0 {
			_, err = tr.Send(ctx, body)
		} else {
			_, err = tr.Stream(ctx, body, adapters.StreamHooks{})
		}
		var se *transport.StatusError
		var re *adapters.ReplyError
		var sdk genai.APIError
		if !errors.As(err, &se) || !errors.As(err, &re) || !errors.As(err, &sdk) || !errors.Is(err, adapters.ErrProviderError) {
			t.Fatalf("%d: err = %v, want a StatusError wrapping a ReplyError, and the SDK's APIError", i, err)
		}
		if se.StatusCode != 400 || re.Message != "API key not valid. Please pass a valid API key." || re.Type != "INVALID_ARGUMENT" ||
			!strings.Contains(err.Error(), "HTTP 400 Bad Request: API key not valid") {
			t.Errorf("%d: %v: status %d, message %q, type %q", i, err, se.StatusCode, re.Message, re.Type)
		}
	}
	if _, err := st.Stream(ctx, body, adapters.StreamHooks{}); !errors.Is(err, adapters.ErrIncomplete) {
		t.Errorf("a stream without its finish: err = %v, want ErrIncomplete", err)
	}
	if _, err := tr.Send(ctx, []byte(`[1]`)); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
		t.Errorf("a body that is not an object: err = %v", err)
	}
}

// TestTransportRaw: the Transport reads the raw reply, not the SDK's
// decoding of it: an integer beyond 2^53 in a call's arguments stays
// exact (the SDK's float64 would make it ...992), and the client given is
// not changed. A body that is not Gemini's error is quoted.
func TestTransportRaw(t *testing.T) {
	ctx := context.Background()
	reply := `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Oslo","id":9007199254740993}}}]},"finishReason":"STOP","index":0}]}`
	m := sdktest.NewModel(modelPath, reply, "status:502\n<html>bad gateway</html>")
	defer m.Close()
	client, err := newClient(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	before := client.ClientConfig().HTTPClient
	tr, err := tngenai.NewTransport(client, "gemini-test")
	if err != nil {
		t.Fatal(err)
	}
	turn, err := tr.Send(ctx, geminiBody(t))
	if err != nil {
		t.Fatalf("%v (model: %v)", err, m.Err())
	}
	if len(turn.Calls) != 1 || string(turn.Calls[0].Args) != `{"city":"Oslo","id":9007199254740993}` {
		t.Errorf("calls %+v, want the arguments as sent", turn.Calls)
	}
	if after := client.ClientConfig().HTTPClient; after != before || after.Transport != before.Transport {
		t.Error("NewTransport changed the client's HTTP client")
	}
	_, err = tr.Send(ctx, geminiBody(t))
	var se *transport.StatusError
	var re *adapters.ReplyError
	if !errors.As(err, &se) || !errors.As(err, &re) || se.StatusCode != 502 || re.Message != "<html>bad gateway</html>" || string(se.Body) != "<html>bad gateway</html>" {
		t.Errorf("a gateway's page: %v", err)
	}
}
