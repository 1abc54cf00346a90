package tngenai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/transport"
	"google.golang.org/genai"
)

// Transport is a [transport.Transport] on a genai client, for one model:
// the request body, the Gemini API's JSON as [adapters.NewBody] builds it,
// goes out through the SDK's Models.GenerateContent and
// GenerateContentStream, so the client's backend, credentials, base URL,
// API version, headers, timeout and retries apply; the reply's raw bytes
// are read by adapters' Gemini parser, whole or as a stream (hooks called
// as the text and each complete call arrive). Make one with
// [NewTransport].
//
// The SDK has no raw request and no raw reply of its own: it builds every
// request as a map[string]any and decodes every reply into its types,
// every number through a float64. So the Transport
//
//   - gives the SDK, through the request's HTTPOptions.ExtrasRequestProvider
//     (the SDK's hook that may replace the request's map), a map of the
//     body's members, each the member's JSON as a json.RawMessage, which
//     the SDK's encoder writes as it is (numbers keep every digit; the
//     top-level members go out in key order, and <, > and & in strings as
//     \u escapes: the same JSON);
//   - reads the reply as the SDK receives it: it sends through a client
//     of the same configuration whose HTTP client (the one of the client
//     given, its transport wrapped) hands the Transport a copy of each
//     reply body as the SDK reads it. A call's arguments therefore keep
//     their exact numbers (an integer beyond 2^53 stays exact), and the
//     Turn has every field of the reply.
//
// Automatic continuation is off: one request per Send and Stream. A
// request option of the client's that adds to the body
// (HTTPOptions.ExtraBody) or replaces it (its own ExtrasRequestProvider)
// does not apply.
//
// A reply whose status is not 2xx (after the SDK's retries) is an error
// that errors.As finds as the SDK's genai.APIError and as a
// *transport.StatusError wrapping the provider's *adapters.ReplyError read
// from the body (errors.Is(err, adapters.ErrProviderError)), as package
// transport reports it.
type Transport struct {
	// Provider parses the replies: adapters.ForGemini().
	Provider adapters.Provider
	// MaxReplyBytes is the largest whole reply Send reads; 0 is
	// adapters.DefaultMaxReplyBytes. A stream is bounded by the
	// provider's stream limits (adapters.ReplyLimits).
	MaxReplyBytes int64

	client *genai.Client
	model  string
}

// NewTransport is the Transport of model ("gemini-2.5-flash") over client:
// it makes a client of client's configuration (ClientConfig) whose HTTP
// client wraps the transport of client's, to read the raw replies; client
// itself is not changed. The error is genai.NewClient's.
func NewTransport(client *genai.Client, model string) (*Transport, error) {
	if client == nil {
		return nil, errors.New("tngenai: NewTransport: no client (nil)")
	}
	cc := client.ClientConfig()
	hc := http.Client{}
	if cc.HTTPClient != nil {
		hc = *cc.HTTPClient
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	hc.Transport = rawReplies{next}
	cc.HTTPClient = &hc
	derived, err := genai.NewClient(context.Background(), &cc)
	if err != nil {
		return nil, fmt.Errorf("tngenai: NewTransport: %w", err)
	}
	return &Transport{Provider: adapters.ForGemini(), client: derived, model: model}, nil
}

// config is the request config that makes the SDK send body's members as
// they are, with no automatic continuation.
func (t *Transport) config(body []byte) (*genai.GenerateContentConfig, error) {
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&members); err != nil || members == nil {
		return nil, fmt.Errorf("tngenai: the request body is not a JSON object: %v", err)
	}
	if dec.More() {
		return nil, errors.New("tngenai: the request body has data after its JSON object")
	}
	m := make(map[string]any, len(members))
	for k, v := range members {
		m[k] = v
	}
	off := false
	return &genai.GenerateContentConfig{AutomaticContinuation: &off, HTTPOptions: &genai.HTTPOptions{
		ExtrasRequestProvider: func(map[string]any) map[string]any { return m },
	}}, nil
}

// Send sends body through client.Models.GenerateContent and parses the
// raw reply with Provider.Parse.
func (t *Transport) Send(ctx context.Context, body []byte) (adapters.Turn, error) {
	cfg, err := t.config(body)
	if err != nil {
		return adapters.Turn{}, err
	}
	max := t.MaxReplyBytes
	if max <= 0 {
		max = adapters.DefaultMaxReplyBytes
	}
	c := &capture{max: max}
	_, err = t.client.Models.GenerateContent(context.WithValue(ctx, captureKey{}, c), t.model, nil, cfg)
	if err := c.failed(); err != nil {
		return adapters.Turn{}, err
	}
	if err != nil {
		return adapters.Turn{}, t.fail(ctx, c, err)
	}
	return t.Provider.Parse(c.whole.Bytes())
}

// Stream sends body through client.Models.GenerateContentStream and reads
// the raw stream into an [adapters.Stream] with hooks as the SDK reads it:
// a stream that ends before the reply is whole is an error
// (adapters.ErrIncomplete).
func (t *Transport) Stream(ctx context.Context, body []byte, hooks adapters.StreamHooks) (adapters.Turn, error) {
	s, err := adapters.NewStream(t.Provider, hooks)
	if err != nil {
		return adapters.Turn{}, err
	}
	cfg, err := t.config(body)
	if err != nil {
		return adapters.Turn{}, err
	}
	c := &capture{stream: s}
	for _, err := range t.client.Models.GenerateContentStream(context.WithValue(ctx, captureKey{}, c), t.model, nil, cfg) {
		if err := c.failed(); err != nil {
			return adapters.Turn{}, err
		}
		if err != nil {
			return adapters.Turn{}, t.fail(ctx, c, err)
		}
	}
	if err := c.failed(); err != nil {
		return adapters.Turn{}, err
	}
	return s.Close()
}

// fail is the error of a request the SDK did not answer with a reply: a
// status error for the SDK's genai.APIError (the provider's error read
// from the body), else the SDK's error (the context's first, when it
// ended).
func (t *Transport) fail(ctx context.Context, c *capture, err error) error {
	var apiErr genai.APIError
	if !errors.As(err, &apiErr) {
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			err = fmt.Errorf("%w: %w", cerr, err)
		}
		return fmt.Errorf("tngenai: %s: %w", t.Provider.Name(), err)
	}
	c.mu.Lock()
	body, status, attempts := bytes.Clone(c.errBody.Bytes()), c.status, c.attempts
	c.mu.Unlock()
	if status == 0 {
		status = apiErr.Code
	}
	se := transport.ReadStatusError(t.Provider, &http.Response{StatusCode: status, Header: http.Header{},
		Body: io.NopCloser(bytes.NewReader(body))}, max(attempts, 1))
	se.Cause = err
	return se
}

// captureKey is the context key of a request's capture.
type captureKey struct{}

// capture receives the raw reply of one Send or Stream as the SDK reads
// it: a whole reply's bytes, or a stream's, written to its
// adapters.Stream; and the last error reply's body and status.
type capture struct {
	mu       sync.Mutex
	max      int64 // of whole
	whole    bytes.Buffer
	stream   *adapters.Stream
	err      error // the reply's limit, or the stream's parse error
	errBody  bytes.Buffer
	status   int // of the last error reply
	attempts int
}

func (c *capture) failed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// rawReplies is the http.RoundTripper of a Transport's client: it hands
// the capture of the request's context a copy of each reply body as it
// is read.
type rawReplies struct{ next http.RoundTripper }

func (r rawReplies) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	c, _ := req.Context().Value(captureKey{}).(*capture)
	if err != nil || c == nil {
		return resp, err
	}
	c.mu.Lock()
	c.attempts++
	ok := resp.StatusCode >= 200 && resp.StatusCode <= 299
	if !ok {
		c.errBody.Reset()
		c.status = resp.StatusCode
	}
	c.mu.Unlock()
	resp.Body = &teeBody{ReadCloser: resp.Body, c: c, ok: ok}
	return resp, nil
}

// teeBody passes a reply body to the SDK and a copy to its capture.
type teeBody struct {
	io.ReadCloser
	c  *capture
	ok bool // a 2xx reply
}

func (b *teeBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n == 0 {
		return n, err
	}
	c := b.c
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.err != nil:
	case !b.ok:
		if room := transport.MaxErrorBytes - c.errBody.Len(); room > 0 {
			c.errBody.Write(p[:min(n, room)])
		}
	case c.stream != nil:
		if _, werr := c.stream.Write(p[:n]); werr != nil {
			c.err = werr
		}
	case int64(c.whole.Len()+n) > c.max:
		c.err = fmt.Errorf("tngenai: gemini reply: more than %d bytes: %w", c.max, adapters.ErrReplyLimit)
	default:
		c.whole.Write(p[:n])
	}
	if c.err != nil && b.ok {
		return n, c.err // the SDK stops reading
	}
	return n, err
}
