//lint:file-ignore SA1019 MCP logging is deprecated from protocol 2026-07-28 (SEP-2577) but still served to clients of every version; Log serves it

package tnmcp

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// requestKey is the context key of the MCP request a tool runs for.
type requestKey struct{}

// withRequest returns ctx carrying req, for [RequestFromContext].
func withRequest(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	if req == nil {
		return ctx
	}
	return context.WithValue(ctx, requestKey{}, req)
}

// RequestFromContext returns the tools/call request that a tool's call
// runs for, when the tool runs under [ToolkitHandler] or [Handler] (and so
// under [AddTools]), or nil. Its Session is the client's session: what
// the client said it supports (InitializeParams), Elicit, Log,
// NotifyProgress. The call's context is the request's: the SDK cancels it
// when the client sends notifications/cancelled, and a tool that honours
// ctx stops then.
func RequestFromContext(ctx context.Context) *mcp.CallToolRequest {
	req, _ := ctx.Value(requestKey{}).(*mcp.CallToolRequest)
	return req
}

// ErrNoRequest is returned by [Progress] and [Log] for a context that
// carries no MCP request (the tool runs outside an MCP server).
var ErrNoRequest = errors.New("tnmcp: no MCP request in the context")

// Progress sends the client a notifications/progress for the call that
// ctx runs (see [RequestFromContext]): progress so far, out of total (0:
// unknown), with an optional message. It does nothing, and returns nil,
// when the client gave no progress token (it did not ask for progress);
// it returns [ErrNoRequest] outside an MCP call. Progress should grow with
// every notification.
func Progress(ctx context.Context, progress, total float64, message string) error {
	req := RequestFromContext(ctx)
	if req == nil || req.Session == nil {
		return ErrNoRequest
	}
	if req.Params == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	return req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: token, Progress: progress, Total: total, Message: message,
	})
}

// Log sends the client a notifications/message (MCP logging) from the
// call that ctx runs: level is a syslog level ("debug", "info", "warning",
// "error", ...), data any JSON value. The SDK drops a message below the
// level the client set, and every message when it set none: with
// logging/setLevel for the session before protocol 2026-07-28, with each
// request's _meta (mcp.MetaKeyLogLevel) from 2026-07-28, which deprecates
// logging (SEP-2577) without removing it. It returns [ErrNoRequest]
// outside an MCP call.
func Log(ctx context.Context, level mcp.LoggingLevel, logger string, data any) error {
	req := RequestFromContext(ctx)
	if req == nil || req.Session == nil {
		return ErrNoRequest
	}
	return req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: level, Logger: logger, Data: data})
}
