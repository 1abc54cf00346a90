package bench

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/toolnexus/toolnexus/define"
)

// A Peer is one library's per-call path for one input type, from a
// provider's arguments to the typed handler. Both functions return the error
// the library reports (bad arguments, or the handler's own error), nil when
// the handler ran and succeeded.
type Peer struct {
	Name string

	// Map runs one call from arguments already parsed into a map (Gemini,
	// Anthropic). Libraries that take only JSON text marshal the map first,
	// inside the call.
	Map func(ctx context.Context, args map[string]any) error

	// JSON runs one call from arguments as JSON text (OpenAI, MCP).
	JSON func(ctx context.Context, args []byte) error
}

// Handler is the handler every peer calls.
type Handler[T any] func(ctx context.Context, in T) (string, error)

// Ok is the benchmarks' handler: it does no work, so the benchmarks measure
// the call path.
func Ok[T any](context.Context, T) (string, error) { return "ok", nil }

// Library names, as they appear in the tables of docs/benchmarks.md.
const (
	NameToolnexus   = "toolnexus"
	NameJSON        = "encoding/json"
	NameEino        = "eino InferTool"
	NameMCPGo       = "mcp-go typed handler"
	NameGoSDK       = "go-sdk AddTool"
	NameGoSDKSchema = "go-sdk AddTool + full schema"
	NameGenkit      = "genkit NewTool"
)

// Toolnexus is our path: define.DefineTool, then Execute or ExecuteJSON.
func Toolnexus[T any](fn Handler[T]) (Peer, error) {
	tool, err := define.DefineTool(fn, define.WithName("search_flights"))
	if err != nil {
		return Peer{}, err
	}
	return ToolnexusPeer(tool), nil
}

// ToolnexusPeer wraps a defined tool as a Peer.
func ToolnexusPeer(tool define.Tool) Peer {
	return Peer{
		Name: NameToolnexus,
		Map: func(ctx context.Context, args map[string]any) error {
			return resultErr(tool.Execute(ctx, args))
		},
		JSON: func(ctx context.Context, args []byte) error {
			return resultErr(tool.ExecuteJSON(ctx, args))
		},
	}
}

func resultErr(res define.Result) error {
	if !res.IsError {
		return nil
	}
	if res.Err != nil {
		return res.Err
	}
	return errors.New(res.Output)
}

// EncodingJSON is the reference without validation: json.Unmarshal into the
// struct (from a map: json.Marshal first, a round trip).
func EncodingJSON[T any](fn Handler[T]) Peer {
	call := func(ctx context.Context, data []byte) error {
		var in T
		if err := json.Unmarshal(data, &in); err != nil {
			return err
		}
		_, err := fn(ctx, in)
		return err
	}
	return Peer{
		Name: NameJSON,
		Map: func(ctx context.Context, args map[string]any) error {
			data, err := json.Marshal(args)
			if err != nil {
				return err
			}
			return call(ctx, data)
		},
		JSON: call,
	}
}
