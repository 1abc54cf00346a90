package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"
	"github.com/toolnexus/toolnexus/define"
)

// DefineGoSDK is go-sdk's definition of a typed tool: mcp.AddTool on a
// server, which infers the input schema from T with jsonschema.ForType and
// resolves it (through the server's SchemaCache, if it has one). A nil
// schema means "infer from T".
func DefineGoSDK[T any](s *mcp.Server, fn Handler[T], schema *jsonschema.Schema) {
	t := &mcp.Tool{Name: "search_flights", Description: "Search flights."}
	if schema != nil {
		t.InputSchema = schema
	}
	mcp.AddTool(s, t, goSDKHandler(fn))
}

// NewGoSDKServer returns a server for DefineGoSDK, with go-sdk's opt-in
// ServerOptions.SchemaCache when cache is not nil.
func NewGoSDKServer(cache *mcp.SchemaCache) *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "v0.0.0"}, &mcp.ServerOptions{SchemaCache: cache})
}

func goSDKHandler[T any](fn Handler[T]) mcp.ToolHandlerFor[T, any] {
	return func(ctx context.Context, _ *mcp.CallToolRequest, in T) (*mcp.CallToolResult, any, error) {
		out, err := fn(ctx, in)
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out}}}, nil, nil
	}
}

// GoSDK is the per-call path of github.com/modelcontextprotocol/go-sdk's
// typed tools (mcp.AddTool, go-sdk v1.8.0 mcp/server.go toolForErr and
// mcp/tool.go applySchema), which the SDK keeps unexported, so it is
// reproduced here step by step: decode the raw arguments into a map (go-sdk's
// internal/json: a depth check, then segmentio/encoding/json with
// case-sensitive field matching), apply the schema's defaults, validate the
// map against the resolved schema with github.com/google/jsonschema-go,
// marshal the map again, and unmarshal that into T. MCP carries arguments
// as JSON text, so a map is marshaled first, inside the call.
//
// With a nil schema, the schema is the one go-sdk infers from T
// (jsonschema.ForType), which has types, required properties and
// additionalProperties: false, but no enum, bounds or patterns: go-sdk has
// no tags for them. A non-nil schema is a hand-written one (Tool.InputSchema),
// resolved the same way.
func GoSDK[T any](fn Handler[T], schema *jsonschema.Schema) (Peer, error) {
	name := NameGoSDK
	if schema == nil {
		var err error
		if schema, err = jsonschema.ForType(reflect.TypeFor[T](), &jsonschema.ForOptions{}); err != nil {
			return Peer{}, err
		}
	} else {
		name = NameGoSDKSchema
	}
	resolved, err := schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return Peer{}, err
	}
	h := goSDKHandler(fn)
	call := func(ctx context.Context, input json.RawMessage) error {
		input, err := goSDKApplySchema(input, resolved)
		if err != nil {
			return fmt.Errorf("validating \"arguments\": %v", err)
		}
		var in T
		if input != nil {
			if err := goSDKUnmarshal(input, &in); err != nil {
				return err
			}
		}
		res, _, err := h(ctx, &mcp.CallToolRequest{}, in)
		if err != nil {
			return err
		}
		if res.IsError {
			return errors.New("tool error")
		}
		return nil
	}
	return Peer{
		Name: name,
		Map: func(ctx context.Context, args map[string]any) error {
			var input json.RawMessage
			if args != nil {
				data, err := json.Marshal(args)
				if err != nil {
					return err
				}
				input = data
			}
			return call(ctx, input)
		},
		JSON: func(ctx context.Context, args []byte) error { return call(ctx, args) },
	}, nil
}

// goSDKApplySchema is go-sdk v1.8.0's applySchema for tool input.
func goSDKApplySchema(data json.RawMessage, resolved *jsonschema.Resolved) (json.RawMessage, error) {
	v := make(map[string]any)
	if len(data) > 0 {
		if err := goSDKUnmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("unmarshaling arguments: %w", err)
		}
	}
	var unmarshaled any = v
	if err := resolved.ApplyDefaults(&unmarshaled); err != nil {
		return nil, fmt.Errorf("applying schema defaults:\n%w", err)
	}
	if err := resolved.Validate(&unmarshaled); err != nil {
		return nil, err
	}
	out, err := json.Marshal(unmarshaled)
	if err != nil {
		return nil, fmt.Errorf("marshalling with defaults: %v", err)
	}
	return out, nil
}

// goSDKUnmarshal is go-sdk v1.8.0's internal/json.Unmarshal.
func goSDKUnmarshal(data []byte, v any) error {
	if err := goSDKCheckMaxDepth(data, 1000); err != nil {
		return err
	}
	dec := segjson.NewDecoder(bytes.NewReader(data))
	dec.DontMatchCaseInsensitiveStructFields()
	return dec.Decode(v)
}

// goSDKCheckMaxDepth is go-sdk v1.8.0's internal/json.checkMaxDepth.
func goSDKCheckMaxDepth(data []byte, maxDepth int) error {
	var depth int
	var inString, escaped bool
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > maxDepth {
				return fmt.Errorf("json: exceeded maximum nesting depth of %d", maxDepth)
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// GoSDKSchemaOf returns toolnexus's input schema of T as a
// github.com/google/jsonschema-go schema: what a go-sdk user writes by hand
// in Tool.InputSchema to get enum, bounds and patterns checked.
func GoSDKSchemaOf[T any]() (*jsonschema.Schema, error) {
	tool, err := define.DefineTool(Ok[T], define.WithName("schema"))
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(tool.InputSchema(), &s); err != nil {
		return nil, err
	}
	return &s, nil
}
