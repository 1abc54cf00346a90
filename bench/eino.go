package bench

import (
	"context"
	"encoding/json"
	"unsafe"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
)

// DefineEino is eino's definition of a tool from a typed function.
func DefineEino[T any](fn Handler[T]) (tool.InvokableTool, error) {
	return utils.InferTool("search_flights", "Search flights.", utils.InvokeFunc[T, string](fn))
}

// Eino is github.com/cloudwego/eino's components/tool/utils.InferTool: its
// InvokableRun takes the arguments as a JSON string and unmarshals them with
// bytedance/sonic; it checks nothing beyond JSON syntax and types. A map is
// marshaled with encoding/json first (eino's own messages carry arguments as
// text, so this happens only for map input).
func Eino[T any](fn Handler[T]) (Peer, error) {
	t, err := DefineEino(fn)
	if err != nil {
		return Peer{}, err
	}
	call := func(ctx context.Context, args string) error {
		_, err := t.InvokableRun(ctx, args)
		return err
	}
	return Peer{
		Name: NameEino,
		Map: func(ctx context.Context, args map[string]any) error {
			data, err := json.Marshal(args)
			if err != nil {
				return err
			}
			return call(ctx, unsafe.String(unsafe.SliceData(data), len(data)))
		},
		JSON: func(ctx context.Context, args []byte) error {
			// eino's messages hold arguments as a string; the conversion
			// does not copy, so eino pays nothing for it.
			return call(ctx, unsafe.String(unsafe.SliceData(args), len(args)))
		},
	}, nil
}
