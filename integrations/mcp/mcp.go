// Package tnmcp serves the tools of a toolnexus [toolnexus.Toolkit] from an
// MCP server of the official Go SDK, github.com/modelcontextprotocol/go-sdk:
// one call registers them all on an [mcp.Server], which then serves them
// over any of the SDK's transports (stdio, streamable HTTP, in memory).
//
//	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "v1.0.0"}, nil)
//	if err := tnmcp.AddTools(server, tk); err != nil {
//		return err
//	}
//	return server.Run(ctx, &mcp.StdioTransport{})
//
// [AddTools] bounds the calls (see [Limits]: [toolnexus.WithParallelism]
// and [toolnexus.WithCallTimeout], as for Toolkit.Run); a tool's context
// carries its MCP request ([RequestFromContext], [Progress], [Log]).
// [HTTPHandler] and [NewHTTPServer] serve streamable HTTP with
// cross-origin protection, an optional bearer token, bounded bodies, idle
// sessions closed and live sessions and open streams capped, stateless
// for replicas if asked; [CheckExposure]
// refuses an address beyond loopback without authentication.
//
// The other way round, [NewRemote] makes the tools of a connected client
// session (a server someone else wrote) into define.Tool values, so that
// one toolkit holds local and remote tools and renders them for every
// provider; see [Remote] for how names, descriptions, results and
// notifications/tools/list_changed are handled:
//
//	client := mcp.NewClient(impl, &mcp.ClientOptions{ToolListChangedHandler: tnmcp.ToolListChanged})
//	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command("some-server")}, nil)
//	...
//	remote, err := tnmcp.NewRemote(ctx, session)
//	...
//	tk, err := toolnexus.NewToolkit(append(localTools, remote.Tools()...)...)
//
// Each tool is registered with [mcp.Server.AddTool], the SDK's raw
// registration: the arguments reach [toolnexus.Toolkit.ExecuteJSON] (and
// so the toolkit's middleware, approval gate and observers) as the bytes
// the client sent, and toolnexus's decoder is the only validation (the
// SDK's typed mcp.AddTool would validate them a second time, against its
// own reading of the schema). Bad arguments, a tool's error and a tool's
// panic are results with isError set and the one-line message the model
// can act on, as MCP asks ("invalid arguments: /celsius: expected number,
// got \"21 °C\""); an MCP protocol error is left for what is not a tool
// result (an unknown tool, which the SDK answers itself).
//
// The tools/list entries carry the schemas as [adapters.ToMCP] renders them,
// byte for byte (properties in Go field order), and an outputSchema for a
// tool whose output is a struct; the result of such a tool carries its
// value as structuredContent, next to the same JSON as text. Where there is
// no output schema or no structured value the field is absent from the
// wire, never null.
package tnmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// AddTools registers every tool of tk on server, in the toolkit's order,
// each with [ToolkitHandler], so that the toolkit's middleware, approval
// gate and observers apply to every call; opts are [adapters.ToMCP]'s
// rendering options. The calls are bounded as [NewLimits] without options
// bounds them: at most [toolnexus.DefaultParallelism] tool bodies at once,
// all sessions together, the others waiting; use [Limits.AddTools] for
// other bounds and a call timeout. A tool of the same name already on the
// server is replaced, as Server.AddTool does. Nothing is registered when
// an error is returned.
func AddTools(server *mcp.Server, tk *toolnexus.Toolkit, opts ...adapters.Option) error {
	return NewLimits().AddTools(server, tk, opts...)
}

// ToolkitHandler is [Handler] for the tool named name of tk, run through
// [toolnexus.Toolkit.ExecuteJSON]: the toolkit's middleware, approval
// gate and observers apply (see [toolnexus.Middleware]). The call's
// context carries the request ([RequestFromContext], [Progress], [Log]).
//
// A call of a tool that needs approval ([toolnexus.WithApproval]) does
// not run until the person at the client approves it. When the client
// supports elicitation, the handler asks it: its result requires input
// (MCP's multi round-trip requests, SEP-2322), one elicitation whose
// message names the tool and shows its validated arguments, with the
// [toolnexus.PendingCall] as the request state; the client answers and
// calls again, and the handler carries out the answer with
// [toolnexus.Toolkit.Resume]: accept runs the call, decline and cancel
// deny it (the model sees "denied: the user declined", or "dismissed").
// The SDK turns this into a plain elicitation/create request for a client
// of an older protocol version. The state comes back from the client:
// Resume checks its digest, and the handler that it is this call of this
// tool with these arguments; give the toolkit [toolnexus.WithApprovalKey]
// so that a client cannot make a state of its own. Each state is good for
// one answer: its pending call is unique (its nonce and issue time, under
// the digest), and Resume claims it in the toolkit's
// [toolnexus.ApprovalStore], so that a state sent again is refused; a
// server of several replicas needs one store for all of them
// ([toolnexus.WithApprovalStore]), and [toolnexus.WithApprovalExpiry]
// bounds how long a state stays good. A client without elicitation gets
// the pending result ("awaiting approval: ...", isError set): the tool has
// not run.
func ToolkitHandler(tk *toolnexus.Toolkit, name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx = withRequest(ctx, req)
		args := requestArgs(req)
		if req != nil && req.Params != nil && req.Params.RequestState != "" {
			return Result(resumeApproval(ctx, tk, name, args, req.Params)), nil
		}
		r := tk.ExecuteJSON(ctx, name, args)
		if pending := toolnexus.PendingCalls([]define.Result{r}); len(pending) == 1 && req != nil && canElicit(req.Session) {
			p := pending[0]
			state, err := json.Marshal(p)
			if err == nil {
				return &mcp.CallToolResult{
					InputRequests: mcp.InputRequestMap{approvalInput: &mcp.ElicitParams{
						Message:         "Allow the tool " + p.Tool + " to run with these arguments?\n" + string(p.Args),
						RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
					}},
					RequestState: string(state),
				}, nil
			}
		}
		return Result(r), nil
	}
}

// approvalInput is the id of the approval's input request.
const approvalInput = "toolnexus_approval"

// canElicit reports whether the client of ss said it supports
// elicitation.
func canElicit(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil
}

// resumeApproval carries out the client's answer to the approval of a
// call of tool name on args: the call's result, or an error result when
// the state or the answer is not one this handler asked for.
func resumeApproval(ctx context.Context, tk *toolnexus.Toolkit, name string, args json.RawMessage, params *mcp.CallToolParamsRaw) define.Result {
	refuse := func(why string) define.Result {
		return define.Result{Output: "approval refused: " + why, IsError: true, Err: errors.New("tnmcp: " + why)}
	}
	var p toolnexus.PendingCall
	if err := json.Unmarshal([]byte(params.RequestState), &p); err != nil {
		return refuse("the request state is not a pending call")
	}
	var compact bytes.Buffer
	if p.Tool != name || json.Compact(&compact, args) != nil || !bytes.Equal(compact.Bytes(), p.Args) {
		return refuse("the request state is for another call")
	}
	ans, ok := params.InputResponses[approvalInput].(*mcp.ElicitResult)
	if !ok {
		return refuse("no answer to the approval")
	}
	var d toolnexus.Decision
	switch ans.Action {
	case "accept":
		d = toolnexus.Approve(p)
	case "decline":
		d = toolnexus.Deny(p, "the user declined")
	default:
		d = toolnexus.Deny(p, "the user dismissed the request")
	}
	res, err := tk.Resume(ctx, []toolnexus.PendingCall{p}, []toolnexus.Decision{d})
	if err != nil {
		return refuse(err.Error())
	}
	return res[0]
}

// requestArgs returns a request's arguments as the client sent them;
// absent arguments are {}.
func requestArgs(req *mcp.CallToolRequest) json.RawMessage {
	var args json.RawMessage
	if req != nil && req.Params != nil {
		args = req.Params.Arguments
	}
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	return args
}

// Tools renders the toolkit's tools as the SDK's tool definitions, for
// Server.AddTool: name, title, description, the input schema and, for a
// struct or map output, the output schema, each as the json.RawMessage that
// [adapters.ToMCP] renders (opts are its options), and the annotations and
// icons of define.WithAnnotations and define.WithIcons. OutputSchema is left nil
// (absent on the wire) for a tool without one. The SDK lists tools sorted
// by name.
func Tools(tk *toolnexus.Toolkit, opts ...adapters.Option) ([]*mcp.Tool, error) {
	rendered, err := tk.ToMCP(opts...)
	if err != nil {
		return nil, err
	}
	out := make([]*mcp.Tool, len(rendered))
	for i, r := range rendered {
		// adapters.ToMCP gives every input schema "type": "object"; the SDK's
		// Server.AddTool panics on any other, so check rather than trust.
		if err := checkObjectSchema(r.InputSchema); err != nil {
			return nil, fmt.Errorf("tnmcp: tool %s: input schema: %w", r.Name, err)
		}
		t := &mcp.Tool{Name: r.Name, Title: r.Title, Description: r.Description, InputSchema: r.InputSchema}
		if len(r.OutputSchema) > 0 {
			// Only a non-empty schema goes into the SDK's any field: a nil
			// json.RawMessage there would be sent as "outputSchema":null.
			t.OutputSchema = r.OutputSchema
		}
		if a := r.Annotations; a != nil {
			// The SDK's readOnlyHint and idempotentHint are plain bools,
			// always sent: unset is their default, false.
			t.Annotations = &mcp.ToolAnnotations{
				ReadOnlyHint:    a.ReadOnlyHint != nil && *a.ReadOnlyHint,
				IdempotentHint:  a.IdempotentHint != nil && *a.IdempotentHint,
				DestructiveHint: a.DestructiveHint,
				OpenWorldHint:   a.OpenWorldHint,
			}
		}
		for _, ic := range r.Icons {
			t.Icons = append(t.Icons, mcp.Icon{Source: ic.Src, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: mcp.IconTheme(ic.Theme)})
		}
		out[i] = t
	}
	return out, nil
}

// checkObjectSchema reports an error unless schema is a JSON object whose
// "type" is "object", as MCP requires of an input schema.
func checkObjectSchema(schema json.RawMessage) error {
	var top struct {
		Type json.RawMessage `json:"type"`
	}
	if err := json.Unmarshal(schema, &top); err != nil {
		return err
	}
	if !bytes.Equal(top.Type, []byte(`"object"`)) {
		if len(top.Type) == 0 {
			return errors.New(`want "type": "object", got no type`)
		}
		return fmt.Errorf(`want "type": "object", got %s`, top.Type)
	}
	return nil
}

// Handler returns the SDK's raw tool handler for tool: it runs the call's
// arguments, as the client sent them, through [define.Tool.ExecuteJSON]
// (absent arguments are {}) with the request's context, which the SDK
// cancels when the client cancels the call, and returns [Result] of what
// the tool produced. It never returns an error: every failure of the call
// is a result with isError set. It runs the tool alone, outside any
// toolkit: no middleware, approval gate or observer ([ToolkitHandler]
// has them), and no bound on calls at once or their time ([Limits] has
// them: register with [AddTools] or Limits.AddTools unless the server
// bounds its calls itself).
func Handler(tool define.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return Result(tool.ExecuteJSON(withRequest(ctx, req), requestArgs(req))), nil
	}
}

// Result converts a tool's result to the SDK's CallToolResult, as
// [adapters.MCPResult] renders it: one text block holding the output (or
// the error message, with IsError set), then a block for each of the
// result's parts (an ImageContent, an AudioContent, an EmbeddedResource
// for a file, its text for a text file, else its bytes as Blob, a
// ResourceLink for a part by URL, a TextContent for a text part), and
// StructuredContent holding the typed output when it is a JSON object.
// StructuredContent is left nil (absent on the wire) otherwise.
func Result(r define.Result) *mcp.CallToolResult {
	m := adapters.MCPResult(r)
	out := &mcp.CallToolResult{IsError: m.IsError, Content: make([]mcp.Content, len(m.Content))}
	for i, c := range m.Content {
		switch c.Type {
		case "image":
			out.Content[i] = &mcp.ImageContent{Data: c.Data, MIMEType: c.MIMEType}
		case "audio":
			out.Content[i] = &mcp.AudioContent{Data: c.Data, MIMEType: c.MIMEType}
		case "resource":
			out.Content[i] = &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: c.Resource.URI, MIMEType: c.Resource.MIMEType, Text: c.Resource.Text, Blob: c.Resource.Blob}}
		case "resource_link":
			out.Content[i] = &mcp.ResourceLink{URI: c.URI, Name: c.Name, MIMEType: c.MIMEType}
		default:
			out.Content[i] = &mcp.TextContent{Text: c.Text}
		}
	}
	if len(m.StructuredContent) > 0 {
		out.StructuredContent = m.StructuredContent
	}
	return out
}
