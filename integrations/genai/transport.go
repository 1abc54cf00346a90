package tngenai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/transport"
	"google.golang.org/genai"
)

// Transport is a [transport.Transport] on an unmodified genai client, for
// one model: the request body, the Gemini API's JSON as
// [adapters.NewBody] builds it, goes out through client.Models'
// GenerateContent and GenerateContentStream, so the client's backend,
// credentials, base URL, API version, headers, timeout and retries
// apply. Make one with [NewTransport].
//
// The SDK sends no raw body of its own, and returns no raw reply: it
// builds every request as a map[string]any and decodes every reply into
// its types. The Transport therefore gives the SDK, through the request's
// HTTPOptions.ExtrasRequestProvider (the SDK's hook that may replace the
// request's map), a map of the body's members, each the member's JSON as
// a json.RawMessage, which the SDK's encoder writes as it is (numbers
// keep every digit; only the top-level members go out in key order, and
// <, > and & in strings as \u escapes, the same JSON). The reply is the
// SDK's GenerateContentResponse, or its stream's chunks, written back as
// JSON and read by adapters' Gemini parser, whole or as a stream (hooks
// called as the text and each complete call arrive): what the SDK keeps
// of a reply is what the Turn has, so an integer beyond 2^53 in a call's
// arguments is already rounded (see the package documentation) and a
// field the SDK has no type for is lost. Automatic continuation is off:
// the Transport sends exactly one request per Send and Stream. A request
// option of the client that adds to the body (HTTPOptions.ExtraBody) or
// replaces it (its own ExtrasRequestProvider) does not apply.
//
// A reply whose status is not 2xx is an error that errors.As finds as the
// SDK's genai.APIError and as a *transport.StatusError wrapping the
// provider's *adapters.ReplyError (errors.Is(err,
// adapters.ErrProviderError)), as package transport reports it.
type Transport struct {
	// Provider parses the replies: adapters.ForGemini().
	Provider adapters.Provider

	client *genai.Client
	model  string
}

// NewTransport is the Transport of model ("gemini-2.5-flash") over
// client.
func NewTransport(client *genai.Client, model string) *Transport {
	return &Transport{Provider: adapters.ForGemini(), client: client, model: model}
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
// reply, as the SDK decoded it, with Provider.Parse.
func (t *Transport) Send(ctx context.Context, body []byte) (adapters.Turn, error) {
	cfg, err := t.config(body)
	if err != nil {
		return adapters.Turn{}, err
	}
	resp, err := t.client.Models.GenerateContent(ctx, t.model, nil, cfg)
	if err != nil {
		return adapters.Turn{}, t.fail(ctx, err)
	}
	data, err := replyJSON(resp)
	if err != nil {
		return adapters.Turn{}, err
	}
	return t.Provider.Parse(data)
}

// Stream sends body through client.Models.GenerateContentStream and reads
// its chunks, as the SDK decoded them, into an [adapters.Stream] with
// hooks: a stream that ends before the reply is whole is an error
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
	var event []byte
	for chunk, err := range t.client.Models.GenerateContentStream(ctx, t.model, nil, cfg) {
		if err != nil {
			return adapters.Turn{}, t.fail(ctx, err)
		}
		data, err := replyJSON(chunk)
		if err != nil {
			return adapters.Turn{}, err
		}
		event = append(append(append(event[:0], "data: "...), data...), "\n\n"...)
		if _, err := s.Write(event); err != nil {
			return adapters.Turn{}, err
		}
	}
	return s.Close()
}

// replyJSON is the JSON of a reply as the SDK decoded it, without the
// SDK's own record of the HTTP response.
func replyJSON(resp *genai.GenerateContentResponse) ([]byte, error) {
	if resp == nil {
		return nil, fmt.Errorf("tngenai: the SDK returned no response: %w", ErrReply)
	}
	r := *resp
	r.SDKHTTPResponse = nil
	data, err := json.Marshal(&r)
	if err != nil {
		return nil, fmt.Errorf("tngenai: the SDK's response: %w", err)
	}
	return data, nil
}

// fail is the error of a request the SDK did not answer with a reply: a
// status error for the SDK's genai.APIError, else the SDK's error (the
// context's first, when it ended).
func (t *Transport) fail(ctx context.Context, err error) error {
	var apiErr genai.APIError
	if !errors.As(err, &apiErr) {
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			err = fmt.Errorf("%w: %w", cerr, err)
		}
		return fmt.Errorf("tngenai: %s: %w", t.Provider.Name(), err)
	}
	// The SDK keeps the error object of the body, not the body: the
	// provider's error shape is made again from it.
	body, merr := json.Marshal(struct {
		Error genai.APIError `json:"error"`
	}{apiErr})
	if merr != nil {
		body = nil
	}
	se := &transport.StatusError{Provider: t.Provider.Name(), StatusCode: apiErr.Code, Attempts: 1, Body: body}
	_, perr := t.Provider.Parse(body)
	if re := (*adapters.ReplyError)(nil); errors.As(perr, &re) && errors.Is(perr, adapters.ErrProviderError) {
		se.Reply = re
	} else {
		se.Reply = &adapters.ReplyError{Provider: se.Provider, Err: adapters.ErrProviderError,
			Problem: fmt.Sprintf("HTTP %d, an error the SDK read without a message", apiErr.Code), Message: apiErr.Message}
	}
	return &sdkStatusError{se, err}
}

// sdkStatusError is a reply of a status that is not 2xx, read as package
// transport reads it, with the SDK's error.
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
	out := fmt.Sprintf("tngenai: %s: HTTP %d", s.Provider, s.StatusCode)
	if txt := http.StatusText(s.StatusCode); txt != "" {
		out += " " + txt
	}
	return out + ": " + msg
}

// Unwrap returns the *transport.StatusError, then the SDK's error.
func (e *sdkStatusError) Unwrap() []error { return []error{e.status, e.sdk} }
