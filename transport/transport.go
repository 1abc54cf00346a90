// Package transport sends a provider's request body over net/http and reads
// its reply, whole or streamed, into the provider's parser in package
// adapters: a model endpoint for every provider without its SDK.
//
// A [Transport] takes a request body and gives an [adapters.Turn]; an
// [Endpoint] is the net/http one, built for a provider by [OpenAI],
// [OpenAICompatible], [Mistral], [OpenAIResponses], [Anthropic], [Gemini],
// [Bedrock] or [Ollama]. An SDK client, or a test double, fits the same
// interface.
//
// A reply whose HTTP status is not 2xx is a [*StatusError] that wraps the
// provider's error as an [*adapters.ReplyError] (errors.Is(err,
// adapters.ErrProviderError)). 429 and 5xx replies are retried with
// exponential backoff, honouring Retry-After, within [Retry]'s bounds and
// the context; a streamed reply is never retried once its body is being
// read. docs/transport.md describes each provider's endpoint.
package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/toolnexus/toolnexus/adapters"
)

// README: transport-interface

// Transport sends one request body, the provider's JSON, and returns the
// model's turn.
type Transport interface {
	// Send sends body and reads the whole reply.
	Send(ctx context.Context, body []byte) (adapters.Turn, error)
	// Stream sends body as the provider's streaming request and reads the
	// streamed reply, calling hooks as its text and calls arrive.
	Stream(ctx context.Context, body []byte, hooks adapters.StreamHooks) (adapters.Turn, error)
}

// README end

// Signer signs a request whose body is body, before each attempt: an
// AWS SigV4 signer ([SigV4.Sign]) for Bedrock, or any other scheme.
type Signer func(req *http.Request, body []byte) error

// BodyEdit rewrites a request body before it is sent (to set its
// "stream" member); it returns a new slice and leaves body as it is.
type BodyEdit func(body []byte) ([]byte, error)

// Endpoint is a [Transport] on net/http for one provider's model endpoint.
// The constructors fill it for each provider; its fields may be changed
// before its first use, not during.
type Endpoint struct {
	// Provider parses the replies.
	Provider adapters.Provider
	// URL is where Send posts; StreamURL where Stream posts ("" for URL).
	URL, StreamURL string
	// Header is added to every request (the API key's header, a version).
	Header http.Header
	// WholeBody and StreamBody edit the body for Send and for Stream (the
	// provider's "stream" member); nil sends it as given.
	WholeBody, StreamBody BodyEdit
	// Sign, when set, signs each attempt (Bedrock's SigV4).
	Sign Signer
	// Client sends the requests; nil is http.DefaultClient.
	Client *http.Client
	// Retry bounds the retries of 429 and 5xx replies.
	Retry Retry
	// MaxReplyBytes is the largest whole reply Send reads; 0 is
	// adapters.DefaultMaxReplyBytes. A stream is bounded by the
	// provider's stream limits (adapters.ReplyLimits).
	MaxReplyBytes int64

	base string // the constructor's base URL, which Rebase replaces
}

// MaxErrorBytes is how much of an error reply's body is read and kept.
const MaxErrorBytes = 64 << 10

// Rebase replaces the base URL (scheme, host and path prefix) of URL and
// StreamURL, as the constructor set them, with base: a proxy, a gateway, a
// region's host or a test server. It returns e.
func (e *Endpoint) Rebase(base string) *Endpoint {
	base = strings.TrimSuffix(base, "/")
	for _, u := range []*string{&e.URL, &e.StreamURL} {
		if *u != "" && strings.HasPrefix(*u, e.base) {
			*u = base + (*u)[len(e.base):]
		}
	}
	e.base = base
	return e
}

// Send posts body to URL and parses the whole reply with Provider.Parse.
func (e *Endpoint) Send(ctx context.Context, body []byte) (adapters.Turn, error) {
	b, err := edit(e.WholeBody, body)
	if err != nil {
		return adapters.Turn{}, err
	}
	resp, err := e.do(ctx, e.URL, b)
	if err != nil {
		return adapters.Turn{}, err
	}
	defer resp.Body.Close()
	return ReadReply(ctx, e.Provider, resp.Body, e.MaxReplyBytes)
}

// ReadReply reads a whole reply of p's provider from body, at most max
// bytes (0 is adapters.DefaultMaxReplyBytes: a larger reply is an error
// wrapping adapters.ErrReplyLimit), and parses it with p.Parse. A read
// that fails is the context's error when ctx is done. It is how an
// Endpoint reads a reply, for other transports (an SDK client's raw
// response) to read theirs the same way.
func ReadReply(ctx context.Context, p adapters.Provider, body io.Reader, max int64) (adapters.Turn, error) {
	if max <= 0 {
		max = adapters.DefaultMaxReplyBytes
	}
	data, err := io.ReadAll(io.LimitReader(body, max+1))
	if err != nil {
		return adapters.Turn{}, readError(ctx, p, "reply", err)
	}
	if int64(len(data)) > max {
		return adapters.Turn{}, fmt.Errorf("transport: %s reply: more than %d bytes: %w", p.Name(), max, adapters.ErrReplyLimit)
	}
	return p.Parse(data)
}

// ReadStream reads a streamed reply of p's provider from body to its end
// into an adapters.Stream with hooks: a body cut off is an error (the
// stream's adapters.ErrIncomplete, or the read's: the context's when ctx
// is done). It is how an Endpoint reads a stream, for other transports.
func ReadStream(ctx context.Context, p adapters.Provider, body io.Reader, hooks adapters.StreamHooks) (adapters.Turn, error) {
	s, err := adapters.NewStream(p, hooks)
	if err != nil {
		return adapters.Turn{}, err
	}
	return readStream(ctx, p, s, body)
}

// readStream reads body into s to its end.
func readStream(ctx context.Context, p adapters.Provider, s *adapters.Stream, body io.Reader) (adapters.Turn, error) {
	buf := make([]byte, 32<<10)
	for {
		n, rerr := body.Read(buf)
		if n > 0 {
			if _, err := s.Write(buf[:n]); err != nil {
				return adapters.Turn{}, err
			}
		}
		if rerr == io.EOF {
			return s.Close()
		}
		if rerr != nil {
			return adapters.Turn{}, readError(ctx, p, "stream", rerr)
		}
	}
}

// Stream posts body, edited by StreamBody, to StreamURL (or URL) and reads
// the streamed reply into an [adapters.Stream] with hooks. Once the
// response is 2xx its body is read to its end and never retried: a body cut
// off is an error (the stream's ErrIncomplete, or the read's error).
func (e *Endpoint) Stream(ctx context.Context, body []byte, hooks adapters.StreamHooks) (adapters.Turn, error) {
	s, err := adapters.NewStream(e.Provider, hooks)
	if err != nil {
		return adapters.Turn{}, err
	}
	b, err := edit(e.StreamBody, body)
	if err != nil {
		return adapters.Turn{}, err
	}
	url := e.StreamURL
	if url == "" {
		url = e.URL
	}
	resp, err := e.do(ctx, url, b)
	if err != nil {
		return adapters.Turn{}, err
	}
	defer resp.Body.Close()
	return readStream(ctx, e.Provider, s, resp.Body)
}

// readError is the error of a reply body whose reading failed: the
// context's when it ended.
func readError(ctx context.Context, p adapters.Provider, what string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		err = cerr
	}
	return fmt.Errorf("transport: %s %s cut off: %w", p.Name(), what, err)
}

// edit applies f to body, when set.
func edit(f BodyEdit, body []byte) ([]byte, error) {
	if f == nil {
		return body, nil
	}
	return f(body)
}

// do posts body to url, retrying 429 and 5xx replies within e.Retry, and
// returns the first 2xx response.
func (e *Endpoint) do(ctx context.Context, url string, body []byte) (*http.Response, error) {
	client := e.Client
	if client == nil {
		client = http.DefaultClient
	}
	attempts := e.Retry.attempts()
	for attempt := 1; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("transport: %s: %w", e.Provider.Name(), err)
		}
		req.Header.Set("Content-Type", "application/json")
		for k, vs := range e.Header {
			req.Header.Del(k)
			for _, v := range vs {
				req.Header.Add(k, v)
			}
		}
		if e.Sign != nil {
			if err := e.Sign(req, body); err != nil {
				return nil, fmt.Errorf("transport: %s: signing: %w", e.Provider.Name(), err)
			}
		}
		resp, err := client.Do(req)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				err = cerr
			}
			return nil, fmt.Errorf("transport: %s: %w", e.Provider.Name(), err)
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			return resp, nil
		}
		serr := e.statusError(resp, attempt)
		if !retryable(resp.StatusCode) || attempt >= attempts {
			return nil, serr
		}
		wait, ok := e.Retry.delay(attempt, serr.RetryAfter)
		if !ok {
			return nil, serr
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("transport: %s: %w (waiting to retry after %w)", e.Provider.Name(), ctx.Err(), serr)
		case <-t.C:
		}
	}
}

// retryable reports whether a reply of status is retried: 429 and 5xx.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500 && status <= 599
}

// StatusError is a reply whose HTTP status is not 2xx. It wraps the
// provider's error read from the body: errors.As finds the
// [*adapters.ReplyError], whose Message, Type and Code are the provider's,
// and errors.Is(err, adapters.ErrProviderError) holds.
type StatusError struct {
	Provider   string        // the provider's name
	StatusCode int           // the HTTP status
	RetryAfter time.Duration // what Retry-After (or retry-after-ms) asked for; 0 when absent
	Attempts   int           // the requests made, this one included
	Body       []byte        // the body, up to MaxErrorBytes
	Reply      *adapters.ReplyError
	// Cause is the error of the client that made the request, when it
	// made one (an SDK's *openai.Error, for the SDK modules' transports);
	// nil for an Endpoint's.
	Cause error
}

// Error reports the provider, the status and the provider's message.
func (e *StatusError) Error() string {
	msg := e.Reply.Message
	if msg == "" {
		msg = e.Reply.Problem
	}
	s := fmt.Sprintf("transport: %s: HTTP %d", e.Provider, e.StatusCode)
	if t := http.StatusText(e.StatusCode); t != "" {
		s += " " + t
	}
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (after %d attempts)", e.Attempts)
	}
	return s + ": " + msg
}

// Unwrap returns the provider's error, and the client's Cause when set.
func (e *StatusError) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.Reply}
	}
	return []error{e.Reply, e.Cause}
}

// statusError reads the error reply resp (closing its body) with the
// provider's parser.
func (e *Endpoint) statusError(resp *http.Response, attempt int) *StatusError {
	se := ReadStatusError(e.Provider, resp, attempt)
	resp.Body.Close()
	return se
}

// ReadStatusError reads resp, a reply whose status is not 2xx, as an
// Endpoint reads it: its body (at most MaxErrorBytes of it, after which
// resp.Body reads from its start again, for a caller that reads it too)
// parsed by p, the provider's error when it is one, else one quoting the
// body's message; its Retry-After. attempts is the requests made for it.
func ReadStatusError(p adapters.Provider, resp *http.Response, attempts int) *StatusError {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, MaxErrorBytes))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), resp.Body), resp.Body}
	se := &StatusError{Provider: p.Name(), StatusCode: resp.StatusCode, Attempts: attempts,
		Body: body, RetryAfter: retryAfter(resp.Header, time.Now())}
	_, err := p.Parse(body)
	var re *adapters.ReplyError
	if errors.As(err, &re) && errors.Is(err, adapters.ErrProviderError) {
		se.Reply = re
		return se
	}
	// Not the provider's error shape (a gateway's error, a proxy's page,
	// an empty body): a JSON object's "message" or "error" string, else
	// the body's text, trimmed, is the message.
	var generic struct {
		Message any `json:"message"`
		Error   any `json:"error"`
	}
	msg := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &generic) == nil {
		for _, v := range []any{generic.Message, generic.Error} {
			if m, ok := v.(string); ok && m != "" {
				msg = m
				break
			}
		}
	}
	if len(msg) > 512 {
		msg = strings.ToValidUTF8(msg[:512], "") + "..."
	}
	if msg == "" {
		msg = "(empty body)"
	}
	se.Reply = &adapters.ReplyError{Provider: se.Provider, Err: adapters.ErrProviderError,
		Problem: "HTTP " + strconv.Itoa(resp.StatusCode) + ", a body that is not the provider's error", Message: msg}
	return se
}

// Retry bounds the retries of an Endpoint. The zero Retry makes 3 attempts,
// waiting about 0.5 s then 1 s (each wait a random fraction between a half
// and the whole of Base doubled at each retry), or what the reply's
// Retry-After asks; a wait longer than Max is not made, and the error is
// returned at once.
type Retry struct {
	// Attempts is the most requests made for one call, the first included:
	// 0 is 3, 1 never retries.
	Attempts int
	// Base is the first backoff: 0 is 500 ms.
	Base time.Duration
	// Max is the longest wait: 0 is 30 s. A Retry-After beyond it ends
	// the retries.
	Max time.Duration
}

func (r Retry) attempts() int {
	if r.Attempts <= 0 {
		return 3
	}
	return r.Attempts
}

// delay is the wait before the retry that follows attempt (from 1), and
// whether to make it.
func (r Retry) delay(attempt int, after time.Duration) (time.Duration, bool) {
	base, max := r.Base, r.Max
	if base <= 0 {
		base = 500 * time.Millisecond
	}
	if max <= 0 {
		max = 30 * time.Second
	}
	if after > 0 {
		return after, after <= max
	}
	d := base
	for i := 1; i < attempt && d < max; i++ {
		d *= 2
	}
	d = min(d, max)
	return d/2 + rand.N(d/2+1), true
}

// retryAfter reads retry-after-ms (milliseconds, as OpenAI and Anthropic
// send), else Retry-After (seconds, or an HTTP date from now): 0 when
// absent or unreadable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(min(ms, 1e9) * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(min(s, 1e6)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}
