package define

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/toolnexus/toolnexus/internal/toolhook"
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
	// prepMap and prepJSON split a call in two (toolhook.PrepareMap and
	// PrepareJSON); nil for a tool that does not (NewTool's).
	prepMap  func(ctx context.Context, args map[string]any, res *Result) (toolhook.Call, bool)
	prepJSON func(ctx context.Context, args []byte, res *Result) (toolhook.Call, bool)
	// splitMap and splitJSON split every call, a NewTool's or one whose
	// decode calls a user's method included (toolhook.SplitMap and
	// SplitJSON).
	splitMap  func(ctx context.Context, args map[string]any, res *Result) toolhook.Call
	splitJSON func(ctx context.Context, args []byte, res *Result) toolhook.Call

	memo sync.Map
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

func init() {
	toolhook.Schemas = func(tool any) (in, out *schema.Schema) {
		t := tool.(Tool)
		if t.s == nil {
			return nil, nil
		}
		return t.s.inputSchema(), t.s.output
	}
	toolhook.Memo = func(tool any, key any, build func() (any, error)) (any, error) {
		return tool.(Tool).memo(key, build)
	}
	toolhook.Cached = func(tool any, key any) (any, bool) {
		if s := tool.(Tool).s; s != nil {
			return s.memo.Load(key)
		}
		return nil, false
	}
	toolhook.ValueJSON = func(res any) (string, bool) {
		r := res.(*Result)
		return r.valueJSON, r.valueJSON != ""
	}
	toolhook.PrepareJSON = func(tool any, ctx context.Context, args []byte, res any) (toolhook.Call, bool) {
		s := tool.(Tool).s
		if s == nil || s.prepJSON == nil {
			return nil, false
		}
		return s.prepJSON(ctx, args, res.(*Result))
	}
	toolhook.SplitJSON = func(tool any, ctx context.Context, args []byte, res any) toolhook.Call {
		s := tool.(Tool).s
		if s == nil {
			*res.(*Result) = errorResult(ErrZeroTool)
			return nil
		}
		return s.splitJSON(ctx, args, res.(*Result))
	}
	toolhook.SplitMap = func(tool any, ctx context.Context, args map[string]any, res any) toolhook.Call {
		s := tool.(Tool).s
		if s == nil {
			*res.(*Result) = errorResult(ErrZeroTool)
			return nil
		}
		return s.splitMap(ctx, args, res.(*Result))
	}
	toolhook.PrepareMap = func(tool any, ctx context.Context, args map[string]any, res any) (toolhook.Call, bool) {
		s := tool.(Tool).s
		if s == nil || s.prepMap == nil {
			return nil, false
		}
		return s.prepMap(ctx, args, res.(*Result))
	}
}

// inputSchema returns the canonical input schema, shared.
func (s *state) inputSchema() *schema.Schema {
	if s.inputInfo != nil && s.input == nil { // s.input: a schema of its own (WithExamples)
		return s.inputInfo.Schema()
	}
	return s.input
}

// memo is toolhook.Memo: adapters render a tool once per provider and
// option set.
func (t Tool) memo(key any, build func() (any, error)) (any, error) {
	if t.s == nil {
		return build()
	}
	if v, ok := t.s.memo.Load(key); ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return nil, err
	}
	v, _ = t.s.memo.LoadOrStore(key, v)
	return v, nil
}
