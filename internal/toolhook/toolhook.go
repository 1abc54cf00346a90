// Package toolhook gives the adapters and the toolkit what a define.Tool
// keeps out of its public API: the shared schema trees, a per-tool cache
// and a call split in two. The define package fills the functions in its
// init; they take the tool as any because define imports this package,
// not the other way round.
//
//	in, out := toolhook.Schemas(tool) // shared: never modify them
//	v, err := toolhook.Memo(tool, key, build)
//	call, ok := toolhook.PrepareJSON(tool, ctx, args, &result)
package toolhook

import (
	"context"

	"github.com/toolnexus/toolnexus/schema"
)

// Call is a tool call whose arguments are decoded and checked: Finish
// runs the rest of it (the handler, the rendering of its output) and
// writes the result where the call was prepared to. Finish is called at
// most once.
type Call interface {
	Finish(ctx context.Context)
}

// Inputter is implemented by the Calls that SplitJSON and SplitMap
// return: Input is the decoded arguments (a typed tool's In, a NewTool's
// json.RawMessage), boxed only when asked for.
type Inputter interface {
	Input() any
}

var (
	// Schemas returns a define.Tool's canonical input schema and its output
	// schema (or nil), shared by every copy of the tool: callers must not
	// modify them (Clone first).
	Schemas func(tool any) (in, out *schema.Schema)

	// Memo returns the value cached on a define.Tool under key, calling
	// build the first time. A build error is returned and not cached. As
	// with context.Context values, key should be of an unexported type of
	// the caller's package. Concurrent first calls may each run build; one
	// result wins and is returned to all later callers.
	Memo func(tool any, key any, build func() (any, error)) (any, error)

	// Cached returns the value Memo cached on a define.Tool under key, if
	// any, without a build function: a caller that tries it first makes
	// its build closure only on a miss.
	Cached func(tool any, key any) (any, bool)

	// PrepareJSON runs the part of a define.Tool's ExecuteJSON that is the
	// library's own code (the context check, decoding and checking the
	// arguments) and returns the rest, which calls user code, so that the
	// caller can run the two on different goroutines. res is a
	// *define.Result. ok is false when the tool does not split this call
	// (its decode may call a user's UnmarshalJSON or UnmarshalText, or it
	// is a NewTool tool): nothing was done, and the caller runs the whole
	// call. A nil call with ok true means the call is over (bad
	// arguments, a done context): its result is in *res. Otherwise
	// call.Finish writes the result to *res.
	PrepareJSON func(tool any, ctx context.Context, args []byte, res any) (call Call, ok bool)

	// ValueJSON returns a *define.Result's Value as the JSON its call
	// encoded (within the tool's output limits), if the call did: a
	// Result made by hand has none.
	ValueJSON func(res any) (data string, ok bool)

	// PrepareMap is PrepareJSON for a define.Tool's Execute, on arguments
	// already parsed into a map.
	PrepareMap func(tool any, ctx context.Context, args map[string]any, res any) (call Call, ok bool)

	// SplitJSON is PrepareJSON for every tool: a decode that calls a
	// user's UnmarshalJSON or UnmarshalText runs here too, on the caller's
	// goroutine, and a NewTool's call is split after its object check.
	// A nil call means the call is over, its result in *res; otherwise
	// call.Finish writes it there, and call is an Inputter. The toolkit's
	// middleware runs between the two.
	SplitJSON func(tool any, ctx context.Context, args []byte, res any) Call

	// SplitMap is SplitJSON for arguments already parsed into a map.
	SplitMap func(tool any, ctx context.Context, args map[string]any, res any) Call
)
