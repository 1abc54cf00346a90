package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// fakeAPI is a local stand-in for one provider's API. Every request must
// carry the tools exactly as our adapter rendered them and the whole
// conversation so far (the prompt, each model turn replayed, each turn's
// results paired with its calls); the reply is the next turn of
// [conversation] in the provider's real response shape, and finally a text.
type fakeAPI struct {
	t         *testing.T
	name      string
	path      string   // the request path the SDK must use
	authKeys  []string // headers one of which must carry the API key
	wantTools []byte   // our adapter's tools, as JSON
	toolsOf   func(body map[string]any) any
	history   func(body map[string]any, turn int) error
	reply     func(turn int) string
	errShape  func(msg string) string

	mu       sync.Mutex
	requests int
}

const fakeKey = "test-key-not-secret"

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	turn := f.requests
	f.requests++
	f.mu.Unlock()

	fail := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		f.t.Errorf("%s server, request %d: %s", f.name, turn, msg)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, f.errShape(msg))
	}
	if r.Method != http.MethodPost || r.URL.Path != f.path {
		fail("got %s %s, want POST %s", r.Method, r.URL.Path, f.path)
		return
	}
	authed := false
	for _, h := range f.authKeys {
		authed = authed || strings.Contains(r.Header.Get(h), fakeKey)
	}
	if !authed {
		fail("none of the headers %v carries the API key", f.authKeys)
		return
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		fail("reading body: %v", err)
		return
	}
	v, err := decodeJSON(data)
	if err != nil {
		fail("body is not JSON: %v", err)
		return
	}
	body, ok := v.(map[string]any)
	if !ok {
		fail("body is not a JSON object")
		return
	}
	if turn > len(conversation) {
		fail("request %d: the conversation had already ended", turn)
		return
	}
	gotTools := mustJSON(f.t, f.toolsOf(body))
	if d := jsonDiff(f.wantTools, gotTools, false); d != "" {
		fail("the tools in the request are not our adapter's output (-adapter +request):\n%s", d)
		return
	}
	if err := f.history(body, turn); err != nil {
		fail("history: %v\nbody: %s", err, short(string(data), 4000))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, f.reply(turn))
}

// callID is the id the fake server gives call i of turn j.
func callID(prefix string, turn, i int) string { return fmt.Sprintf("%s%d_%d", prefix, turn+1, i+1) }

// capture is an http.RoundTripper that keeps the last response body, so
// that our parsers read exactly the bytes the SDK received.
type capture struct {
	mu   sync.Mutex
	last []byte
}

func (c *capture) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.last = data
	c.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(data))
	return resp, nil
}

func (c *capture) Last() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// Helpers to walk a decoded request body.

func obj(v any, what string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: want an object, got %s", what, short(fmt.Sprint(v), 200))
	}
	return m, nil
}

func arr(v any, what string) ([]any, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: want an array, got %s", what, short(fmt.Sprint(v), 200))
	}
	return a, nil
}

func str(v any, what string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s: want a string, got %s", what, short(fmt.Sprint(v), 200))
	}
	return s, nil
}

// textOf reads a content value that is a string or an array of text parts
// (OpenAI, Anthropic and Responses accept both for user and tool content).
func textOf(v any, what string) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	parts, err := arr(v, what)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, p := range parts {
		m, err := obj(p, fmt.Sprintf("%s[%d]", what, i))
		if err != nil {
			return "", err
		}
		s, err := str(m["text"], fmt.Sprintf("%s[%d].text", what, i))
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// sameArgs compares call arguments sent back in replayed history with the
// planned ones, as JSON values. v is either JSON text (OpenAI) or a decoded
// object (Anthropic, Gemini).
func sameArgs(v any, want string, what string) error {
	var got []byte
	if s, ok := v.(string); ok {
		got = []byte(s)
	} else {
		got, _ = json.Marshal(v)
	}
	if d := jsonDiff([]byte(want), got, false); d != "" {
		return fmt.Errorf("%s: arguments differ from the model's (-model +replayed):\n%s", what, d)
	}
	return nil
}
