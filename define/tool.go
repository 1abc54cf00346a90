package define

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/toolnexus/toolnexus/internal/typeinfo"
	"github.com/toolnexus/toolnexus/schema"
)

// Tool is a tool a model can call: a name, a description, an input schema and
// a handler. It is an immutable handle, cheap to copy and comparable; make one
// with [DefineTool] (from a typed Go function) or [NewTool] (from a
// hand-written schema).
//
// The zero Tool has an empty name and schema, and its Execute methods return
// an error [Result].
type Tool struct {
	s *state
}

type state struct {
	name        string
	original    string // the name before WithSanitizedName made it valid; "" when it was
	description string
	title       string
	strict      strictPin
	meta        *meta // annotations and icons; nil for none

	input      *schema.Schema // canonical input schema of a NewTool; never modified
	inputInfo  *typeinfo.Info // DefineTool's input type: its schema, built when first needed
	inputJSON  *schemaJSON
	output     *schema.Schema // nil when the tool has no structured output
	outputJSON *schemaJSON    // nil when output is nil

	execMap  func(ctx context.Context, args map[string]any) Result
	execJSON func(ctx context.Context, args []byte) Result
	// splitMap and splitJSON split a call in two ([Tool.DecodeMap] and
	// [Tool.DecodeJSON]).
	splitMap  func(ctx context.Context, args map[string]any, res *Result) Decoded
	splitJSON func(ctx context.Context, args []byte, res *Result) Decoded
	// userDecode is [Tool.DecodeCallsUserCode]; nil for false.
	userDecode func() bool

	memo sync.Map
	// nullRules holds the rules of each object schema of the input, as
	// the strict-null reading gathered them (nulls.go): *schema.Schema to
	// *objectRules.
	nullRules sync.Map
}

// Name returns the name the model calls the tool by.
func (t Tool) Name() string {
	if t.s == nil {
		return ""
	}
	return t.s.name
}

// Description returns the tool's description.
func (t Tool) Description() string {
	if t.s == nil {
		return ""
	}
	return t.s.description
}

// Title returns the human-readable title set with [WithTitle], or "".
func (t Tool) Title() string {
	if t.s == nil {
		return ""
	}
	return t.s.title
}

// InputSchema returns the canonical JSON Schema of the tool's arguments as
// compact JSON, properties in Go field order. The caller owns the returned
// slice. Adapters transform this schema for each provider.
func (t Tool) InputSchema() json.RawMessage {
	if t.s == nil {
		return nil
	}
	return append(json.RawMessage(nil), t.s.inputJSON.bytes()...)
}

// OutputSchema returns the JSON Schema of the tool's structured output, or
// nil when the tool has none: its output type is not a struct or a map
// with string keys (or a pointer to one), the JSON objects an output
// schema can describe.
func (t Tool) OutputSchema() json.RawMessage {
	if t.s == nil || t.s.outputJSON == nil {
		return nil
	}
	return append(json.RawMessage(nil), t.s.outputJSON.bytes()...)
}

// StrictPin reports the strictness pinned with [WithStrict]: pinned is
// false when the tool leaves it to the rendering call's options.
func (t Tool) StrictPin() (strict, pinned bool) {
	if t.s == nil || t.s.strict == strictUnset {
		return false, false
	}
	return t.s.strict == strictOn, true
}

// IsZero reports whether t is the zero Tool.
func (t Tool) IsZero() bool { return t.s == nil }

// String returns the tool's name, for debugging.
func (t Tool) String() string {
	if t.s == nil {
		return "define.Tool(zero)"
	}
	return "define.Tool(" + t.s.name + ")"
}

// Execute runs the tool on arguments that arrived as an already-parsed JSON
// object (Gemini functionCall.args, Anthropic tool_use.input). A nil map means
// no arguments ({}).
//
// The arguments are decoded into the tool's input type and validated against
// everything its schema says, the handler is called, and its output rendered.
// Execute never panics and never returns a Go error: a bad argument, a
// handler's error, a cancelled context and a recovered panic all become a
// [Result] with IsError set and a one-line Output a model can act on.
func (t Tool) Execute(ctx context.Context, args map[string]any) Result {
	if t.s == nil {
		return errorResult(ErrZeroTool)
	}
	return t.s.execMap(ctx, args)
}

// ExecuteJSON is [Tool.Execute] for arguments that arrived as JSON text
// (OpenAI's function.arguments). Empty or all-whitespace text, and the JSON
// literal null, mean no arguments ({}).
func (t Tool) ExecuteJSON(ctx context.Context, args []byte) Result {
	if t.s == nil {
		return errorResult(ErrZeroTool)
	}
	return t.s.execJSON(ctx, args)
}

// Decoded is a call of a tool whose arguments are decoded and checked and
// whose handler has not run yet: what [Tool.DecodeJSON] and
// [Tool.DecodeMap] return. It lets a runner put something between the
// two halves of a call (a middleware, an approval, a move to another
// goroutine), as toolnexus.Toolkit.Run does.
type Decoded interface {
	// Input returns the decoded arguments: the tool's input value (the In
	// of DefineTool, as an any) or, for a NewTool tool, its arguments as a
	// compact json.RawMessage. It may allocate (boxing the value) and is
	// valid until Finish.
	Input() any
	// Finish runs the handler on the decoded arguments and writes the
	// call's Result where the decode was told to. Call it at most once.
	Finish(ctx context.Context)
}

// DecodeJSON runs the first half of [Tool.ExecuteJSON]: the context
// check, and the decode and validation of the arguments. When the call
// ends there (bad arguments, a done context, the zero Tool), DecodeJSON
// returns nil and *res holds the call's Result; otherwise the returned
// call's Finish runs the handler and writes the Result to *res. For a
// NewTool tool the first half checks that the arguments are one object.
// The decode may call UnmarshalJSON or UnmarshalText methods of the
// input type (see [Tool.DecodeCallsUserCode]).
func (t Tool) DecodeJSON(ctx context.Context, args []byte, res *Result) Decoded {
	if t.s == nil {
		*res = errorResult(ErrZeroTool)
		return nil
	}
	return t.s.splitJSON(ctx, args, res)
}

// DecodeMap is [Tool.DecodeJSON] for arguments already parsed into a map,
// the first half of [Tool.Execute].
func (t Tool) DecodeMap(ctx context.Context, args map[string]any, res *Result) Decoded {
	if t.s == nil {
		*res = errorResult(ErrZeroTool)
		return nil
	}
	return t.s.splitMap(ctx, args, res)
}

// DecodeCallsUserCode reports whether decoding the tool's arguments may
// run code of the program's own: an UnmarshalJSON or UnmarshalText method
// of a type in the tool's input. A runner that keeps the program's code
// off its own goroutine (toolnexus.Toolkit.Run runs handlers on workers,
// under their timeouts) decodes such a call where the handler runs.
func (t Tool) DecodeCallsUserCode() bool {
	return t.s != nil && t.s.userDecode != nil && t.s.userDecode()
}

// InputSchemaTree returns the tool's canonical input schema as a tree
// ([Tool.InputSchema] is its JSON): a copy, which the caller owns. The
// adapters render each provider's form from it.
func (t Tool) InputSchemaTree() *schema.Schema {
	if t.s == nil {
		return nil
	}
	return t.s.inputSchema().Clone()
}

// OutputSchemaTree returns the tree of [Tool.OutputSchema], a copy the
// caller owns, or nil when the tool has no output schema.
func (t Tool) OutputSchemaTree() *schema.Schema {
	if t.s == nil || t.s.output == nil {
		return nil
	}
	return t.s.output.Clone()
}

// Memo returns the value kept on tool t under key, calling build to make
// it the first time: a per-tool cache for what is derived from a tool
// once and used many times. The adapters keep each tool's rendering per
// provider and option set so; a package rendering tools for a provider
// of its own can do the same. A build error is returned and nothing is
// kept. Concurrent first calls may each run build; one result is kept
// and returned to every later call. As with context values, key should
// be of an unexported type of the caller's package, and used with one
// V: a value of another type under key is an error. On the zero Tool,
// build runs every time.
func Memo[V any](t Tool, key any, build func() (V, error)) (V, error) {
	if t.s == nil {
		return build()
	}
	v, ok := t.s.memo.Load(key)
	if !ok {
		made, err := build()
		if err != nil {
			return made, err
		}
		v, _ = t.s.memo.LoadOrStore(key, made)
	}
	got, ok := v.(V)
	if !ok {
		var zero V
		return zero, fmt.Errorf("define: Memo: tool %q keeps a %T under the key %T, not a %T", t.s.name, v, key, zero)
	}
	return got, nil
}

// inputSchema returns the canonical input schema, shared.
func (s *state) inputSchema() *schema.Schema {
	if s.inputInfo != nil && s.input == nil { // s.input: a schema of its own (WithExamples)
		return s.inputInfo.Schema()
	}
	return s.input
}
