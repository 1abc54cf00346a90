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
// registration: the arguments reach [define.Tool.ExecuteJSON] as the bytes
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
// each with [Handler]; opts are [adapters.ToMCP]'s rendering options. A
// tool of the same name already on the server is replaced, as
// Server.AddTool does. Nothing is registered when an error is returned.
func AddTools(server *mcp.Server, tk *toolnexus.Toolkit, opts ...adapters.Option) error {
	tools, err := Tools(tk, opts...)
	if err != nil {
		return err
	}
	for i, t := range tk.Tools() {
		server.AddTool(tools[i], Handler(t))
	}
	return nil
}

// Tools renders the toolkit's tools as the SDK's tool definitions, for
// Server.AddTool: name, title, description, the input schema and, for a
// struct output, the output schema, each as the json.RawMessage that
// [adapters.ToMCP] renders (opts are its options). OutputSchema is left nil
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
// is a result with isError set.
func Handler(tool define.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args json.RawMessage
		if req != nil && req.Params != nil {
			args = req.Params.Arguments
		}
		if len(bytes.TrimSpace(args)) == 0 {
			args = json.RawMessage("{}")
		}
		return Result(tool.ExecuteJSON(ctx, args)), nil
	}
}

// Result converts a tool's result to the SDK's CallToolResult, as
// [adapters.MCPResult] renders it: one text block holding the output (or
// the error message, with IsError set), and StructuredContent holding the
// typed output when it is a JSON object. StructuredContent is left nil
// (absent on the wire) otherwise.
func Result(r define.Result) *mcp.CallToolResult {
	m := adapters.MCPResult(r)
	out := &mcp.CallToolResult{IsError: m.IsError, Content: make([]mcp.Content, len(m.Content))}
	for i, c := range m.Content {
		out.Content[i] = &mcp.TextContent{Text: c.Text}
	}
	if len(m.StructuredContent) > 0 {
		out.StructuredContent = m.StructuredContent
	}
	return out
}
