package tnopenai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/transport"
)

// Transport is a [transport.Transport] on an unmodified openai-go client:
// the request body, the provider's JSON as [adapters.NewBody] builds it,
// goes out as it is through client.Post, so the client's API key, base
// URL, retries, middleware and options apply; the reply is read by
// package adapters' parser, whole or streamed (the raw body, which the
// SDK hands over unread). Make one with [NewTransport] (Chat Completions)
// or [NewResponsesTransport]; its fields may be changed before its first
// use, not during.
//
// A reply whose status is not 2xx (after the client's retries) is an
// error that errors.As finds as the SDK's *openai.Error and as a
// *transport.StatusError wrapping the provider's *adapters.ReplyError
// (errors.Is(err, adapters.ErrProviderError)), as package transport
// reports it.
type Transport struct {
	// Provider parses the replies: adapters.ForOpenAI() or
	// adapters.ForOpenAIResponses(); a compatible server's provider
	// (adapters.ForOpenAI(adapters.Server(adapters.Groq))) for a client
	// whose base URL is that server.
	Provider adapters.Provider
	// MaxReplyBytes is the largest whole reply Send reads; 0 is
	// adapters.DefaultMaxReplyBytes.
	MaxReplyBytes int64

	client openai.Client
	path   string
	stream transport.BodyEdit
	opts   []option.RequestOption
}

// NewTransport is the Transport of Chat Completions over client: POST
// chat/completions (under the client's base URL) with the body as it is
// for Send; for Stream with "stream": true and "stream_options":
// {"include_usage": true} (the chunk that carries the usage), unless the
// body sets stream_options itself. opts are added to every request, after
// the client's own.
func NewTransport(client openai.Client, opts ...option.RequestOption) *Transport {
	return &Transport{Provider: adapters.ForOpenAI(), client: client, path: "chat/completions",
		stream: transport.OpenAI("").StreamBody, opts: opts}
}

// NewResponsesTransport is the Transport of the Responses API over client:
// POST responses, with "stream": true for Stream.
func NewResponsesTransport(client openai.Client, opts ...option.RequestOption) *Transport {
	return &Transport{Provider: adapters.ForOpenAIResponses(), client: client, path: "responses",
		stream: transport.OpenAIResponses("").StreamBody, opts: opts}
}

// Send posts body and parses the whole reply with Provider.Parse.
func (t *Transport) Send(ctx context.Context, body []byte) (adapters.Turn, error) {
	res, err := t.post(ctx, body)
	if err != nil {
		return adapters.Turn{}, err
	}
	defer res.Body.Close()
	max := t.MaxReplyBytes
	if max <= 0 {
		max = adapters.DefaultMaxReplyBytes
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, max+1))
	if err != nil {
		return adapters.Turn{}, t.cut(ctx, "reply", err)
	}
	if int64(len(data)) > max {
		return adapters.Turn{}, fmt.Errorf("tnopenai: %s reply: more than %d bytes: %w", t.Provider.Name(), max, adapters.ErrReplyLimit)
	}
	return t.Provider.Parse(data)
}

// Stream posts body as a streaming request and reads the Server-Sent
// Events of the reply into an [adapters.Stream] with hooks, to its end: a
// stream cut off is an error (adapters.ErrIncomplete, or the read's).
func (t *Transport) Stream(ctx context.Context, body []byte, hooks adapters.StreamHooks) (adapters.Turn, error) {
	s, err := adapters.NewStream(t.Provider, hooks)
	if err != nil {
		return adapters.Turn{}, err
	}
	body, err = t.stream(body)
	if err != nil {
		return adapters.Turn{}, err
	}
	res, err := t.post(ctx, body)
	if err != nil {
		return adapters.Turn{}, err
	}
	defer res.Body.Close()
	buf := make([]byte, 32<<10)
	for {
		n, rerr := res.Body.Read(buf)
		if n > 0 {
			if _, err := s.Write(buf[:n]); err != nil {
				return adapters.Turn{}, err
			}
		}
		if rerr == io.EOF {
			return s.Close()
		}
		if rerr != nil {
			return adapters.Turn{}, t.cut(ctx, "stream", rerr)
		}
	}
}

// post sends body through the client and returns its 2xx response, body
// unread.
func (t *Transport) post(ctx context.Context, body []byte) (*http.Response, error) {
	var res *http.Response
	err := t.client.Post(ctx, t.path, body, &res, t.opts...)
	var apiErr *openai.Error
	switch {
	case errors.As(err, &apiErr) && apiErr.Response != nil:
		return nil, statusError(t.Provider, apiErr.Response, apiErr.Request, err)
	case err != nil:
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			err = fmt.Errorf("%w: %w", cerr, err)
		}
		return nil, fmt.Errorf("tnopenai: %s: %w", t.Provider.Name(), err)
	case res.StatusCode < 200 || res.StatusCode > 299: // a 1xx or 3xx the client did not follow
		return nil, statusError(t.Provider, res, res.Request, nil)
	}
	return res, nil
}

// cut is the error of a reply body whose reading failed: the context's
// when it ended.
func (t *Transport) cut(ctx context.Context, what string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		err = cerr
	}
	return fmt.Errorf("tnopenai: %s %s cut off: %w", t.Provider.Name(), what, err)
}

// StreamTurn sends params as a streamed Chat Completions request through
// client and reads the raw body with package adapters' parser (the glue
// of the streamed loop: see the package documentation), calling hooks as
// the text and each complete call arrive: [NewTransport]'s Stream on the
// JSON of params (the SDK's own encoding of them), with "stream" and
// "stream_options" set as Stream sets them. Answer the Turn with
// [RunTurn].
func StreamTurn(ctx context.Context, client openai.Client, params openai.ChatCompletionNewParams, hooks adapters.StreamHooks, opts ...option.RequestOption) (adapters.Turn, error) {
	body, err := json.Marshal(params)
	if err != nil {
		return adapters.Turn{}, fmt.Errorf("tnopenai: the params: %w", err)
	}
	return NewTransport(client, opts...).Stream(ctx, body, hooks)
}

// sdkStatusError is a reply of a status that is not 2xx, read as package
// transport reads it, with the SDK's error when it made one.
type sdkStatusError struct {
	status *transport.StatusError
	sdk    error
}

func (e *sdkStatusError) Error() string {
	s := e.status
	msg := s.Reply.Message
	if msg == "" {
		msg = s.Reply.Problem
	}
	out := fmt.Sprintf("tnopenai: %s: HTTP %d", s.Provider, s.StatusCode)
	if txt := http.StatusText(s.StatusCode); txt != "" {
		out += " " + txt
	}
	if s.Attempts > 1 {
		out += fmt.Sprintf(" (after %d attempts)", s.Attempts)
	}
	return out + ": " + msg
}

// Unwrap returns the *transport.StatusError, then the SDK's error.
func (e *sdkStatusError) Unwrap() []error {
	if e.sdk == nil {
		return []error{e.status}
	}
	return []error{e.status, e.sdk}
}

// statusError reads the error reply resp with p's parser, as package
// transport does: the provider's *adapters.ReplyError when the body is the
// provider's error, else one quoting the body's message. It reads at most
// transport.MaxErrorBytes of the body and leaves resp.Body readable again.
func statusError(p adapters.Provider, resp *http.Response, req *http.Request, sdk error) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, transport.MaxErrorBytes))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), resp.Body), resp.Body}
	se := &transport.StatusError{Provider: p.Name(), StatusCode: resp.StatusCode, Attempts: 1, Body: body,
		RetryAfter: retryAfter(resp.Header)}
	if req != nil {
		if n, err := strconv.Atoi(req.Header.Get("X-Stainless-Retry-Count")); err == nil && n > 0 {
			se.Attempts = n + 1
		}
	}
	_, err := p.Parse(body)
	if re := (*adapters.ReplyError)(nil); errors.As(err, &re) && errors.Is(err, adapters.ErrProviderError) {
		se.Reply = re
		return &sdkStatusError{se, sdk}
	}
	msg := strings.TrimSpace(string(body))
	var generic struct {
		Message any `json:"message"`
		Error   any `json:"error"`
	}
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
	return &sdkStatusError{se, sdk}
}

// retryAfter reads retry-after-ms, else Retry-After in seconds: what the
// last reply asked for (the client has already honoured it between its
// own attempts); 0 when absent.
func retryAfter(h http.Header) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return time.Duration(min(ms, 1e9) * float64(time.Millisecond))
	}
	if s, err := strconv.ParseInt(strings.TrimSpace(h.Get("Retry-After")), 10, 64); err == nil && s > 0 {
		return time.Duration(min(s, 1e6)) * time.Second
	}
	return 0
}
