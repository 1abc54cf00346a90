package bench

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
)

// MCPGoTool is mcp-go's definition of a typed tool: the tool with the
// schema inferred from T (mcp.WithInputSchema), and the typed handler.
type MCPGoTool struct {
	Tool    mcp.Tool
	Handler func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error)
}

// DefineMCPGo defines an mcp-go tool from a typed function.
func DefineMCPGo[T any](fn Handler[T]) MCPGoTool {
	return MCPGoTool{
		Tool: mcp.NewTool("search_flights", mcp.WithDescription("Search flights."), mcp.WithInputSchema[T]()),
		Handler: mcp.NewTypedToolHandler(func(ctx context.Context, _ mcp.CallToolRequest, in T) (*mcp.CallToolResult, error) {
			out, err := fn(ctx, in)
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			return mcp.NewToolResultText(out), nil
		}),
	}
}

// MCPGo is github.com/mark3labs/mcp-go's typed tool handler
// (mcp.NewTypedToolHandler), called the way its server calls it. From a map,
// the request's Arguments is the map and BindArguments marshals and
// unmarshals it with encoding/json. From JSON text, the server's
// CallToolParams.UnmarshalJSON keeps a copy of the text in RawArguments and
// also decodes it into Arguments; BindArguments then unmarshals RawArguments
// into the struct. Without the opt-in server.WithInputSchemaValidation
// (which needs the full server) nothing is validated.
func MCPGo[T any](fn Handler[T]) Peer {
	t := DefineMCPGo(fn)
	call := func(ctx context.Context, req mcp.CallToolRequest) error {
		res, err := t.Handler(ctx, req)
		if err != nil {
			return err
		}
		if res.IsError {
			return errors.New(toolResultText(res))
		}
		return nil
	}
	return Peer{
		Name: NameMCPGo,
		Map: func(ctx context.Context, args map[string]any) error {
			var req mcp.CallToolRequest
			req.Params.Name = t.Tool.Name
			req.Params.Arguments = args
			return call(ctx, req)
		},
		JSON: func(ctx context.Context, args []byte) error {
			var req mcp.CallToolRequest
			req.Params.Name = t.Tool.Name
			// What CallToolParams.UnmarshalJSON does with "arguments".
			if len(args) > 0 {
				req.Params.RawArguments = append(json.RawMessage(nil), args...)
				if err := json.Unmarshal(args, &req.Params.Arguments); err != nil {
					return err
				}
			}
			return call(ctx, req)
		},
	}
}

func toolResultText(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			return t.Text
		}
	}
	return "tool error"
}
