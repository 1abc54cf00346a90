package tnanthropic

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/transport"
)

// Transport is a [transport.Transport] on an unmodified anthropic-sdk-go
// client: the request body, the Messages API's JSON as [adapters.NewBody]
// builds it, goes out as it is through client.Post to v1/messages, so the
// client's API key, base URL, anthropic-version, retries, middleware and
// options apply; the reply is read by package adapters' parser, whole or
// streamed (the raw body, which the SDK hands over unread). Make one with
// [NewTransport]; its fields may be changed before its first use, not
// during.
//
// A reply whose status is not 2xx (after the client's retries) is an
// error that errors.As finds as the SDK's *anthropic.Error and as a
// *transport.StatusError wrapping the provider's *adapters.ReplyError
// (errors.Is(err, adapters.ErrProviderError)), as package transport
// reports it.
type Transport struct {
	// Provider parses the replies: adapters.ForAnthropic().
	Provider adapters.Provider
	// MaxReplyBytes is the largest whole reply Send reads; 0 is
	// adapters.DefaultMaxReplyBytes.
	MaxReplyBytes int64

	client anthropic.Client
	stream transport.BodyEdit
	opts   []option.RequestOption
}

// NewTransport is the Transport of the Messages API over client: POST
// v1/messages (under the client's base URL) with the body as it is for
// Send, and with "stream": true for Stream. opts are added to every
// request, after the client's own.
func NewTransport(client anthropic.Client, opts ...option.RequestOption) *Transport {
	return &Transport{Provider: adapters.ForAnthropic(), client: client, stream: transport.Anthropic("").StreamBody, opts: opts}
}

// Send posts body and parses the whole reply with Provider.Parse.
func (t *Transport) Send(ctx context.Context, body []byte) (adapters.Turn, error) {
	res, err := t.post(ctx, body)
	if err != nil {
		return adapters.Turn{}, err
	}
	defer res.Body.Close()
	return transport.ReadReply(ctx, t.Provider, res.Body, t.MaxReplyBytes)
}

// Stream posts body as a streaming request and reads the Server-Sent
// Events of the reply into an [adapters.Stream] with hooks, to its end: a
// stream cut off is an error (adapters.ErrIncomplete, or the read's).
func (t *Transport) Stream(ctx context.Context, body []byte, hooks adapters.StreamHooks) (adapters.Turn, error) {
	body, err := t.stream(body)
	if err != nil {
		return adapters.Turn{}, err
	}
	res, err := t.post(ctx, body)
	if err != nil {
		return adapters.Turn{}, err
	}
	defer res.Body.Close()
	return transport.ReadStream(ctx, t.Provider, res.Body, hooks)
}

// post sends body through the client and returns its 2xx response, body
// unread.
func (t *Transport) post(ctx context.Context, body []byte) (*http.Response, error) {
	var res *http.Response
	err := t.client.Post(ctx, "v1/messages", body, &res, t.opts...)
	var apiErr *anthropic.Error
	switch {
	case errors.As(err, &apiErr) && apiErr.Response != nil:
		return nil, statusError(t.Provider, apiErr.Response, apiErr.Request, err)
	case err != nil:
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			err = fmt.Errorf("%w: %w", cerr, err)
		}
		return nil, fmt.Errorf("tnanthropic: %s: %w", t.Provider.Name(), err)
	case res.StatusCode < 200 || res.StatusCode > 299: // a 1xx or 3xx the client did not follow
		return nil, statusError(t.Provider, res, res.Request, nil)
	}
	return res, nil
}

// statusError reads the error reply resp with p's parser, as package
// transport does (transport.ReadStatusError), with the SDK's error when it
// made one; the attempts are the client's, from its retry count header.
func statusError(p adapters.Provider, resp *http.Response, req *http.Request, sdk error) error {
	attempts := 1
	if req != nil {
		if n, err := strconv.Atoi(req.Header.Get("X-Stainless-Retry-Count")); err == nil && n > 0 {
			attempts = n + 1
		}
	}
	se := transport.ReadStatusError(p, resp, attempts)
	se.Cause = sdk
	return se
}
