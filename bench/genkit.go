package bench

import (
	"context"
	"encoding/json"

	"github.com/firebase/genkit/go/ai"
)

// DefineGenkit is genkit's definition of a tool without a registry
// (ai.NewTool, which infers the input schema from T with
// invopop/jsonschema).
func DefineGenkit[T any](fn Handler[T]) *ai.ToolDef[T, string] {
	return ai.NewTool("search_flights", "Search flights.", func(ctx *ai.ToolContext, in T) (string, error) {
		return fn(ctx, in)
	})
}

// Genkit is github.com/firebase/genkit/go's tool run path without a model:
// ToolDef.RunRaw, which genkit's generate loop calls with the arguments a
// model plugin parsed into a map. RunRaw marshals the map, normalizes and
// validates it against the inferred schema (gojsonschema), unmarshals it
// into T, validates again inside the action's trace span, calls the
// function and round-trips the output through JSON. From JSON text the
// arguments are first unmarshaled into a map, as the model plugins do.
func Genkit[T any](fn Handler[T]) Peer {
	t := DefineGenkit(fn)
	call := func(ctx context.Context, args any) error {
		_, err := t.RunRaw(ctx, args)
		return err
	}
	return Peer{
		Name: NameGenkit,
		Map: func(ctx context.Context, args map[string]any) error {
			if args == nil {
				return call(ctx, nil)
			}
			return call(ctx, args)
		},
		JSON: func(ctx context.Context, args []byte) error {
			var m map[string]any
			if len(args) > 0 {
				if err := json.Unmarshal(args, &m); err != nil {
					return err
				}
			}
			if m == nil {
				return call(ctx, nil)
			}
			return call(ctx, m)
		},
	}
}
