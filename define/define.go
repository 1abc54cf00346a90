package define

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"unicode"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/fields"
	"github.com/toolnexus/toolnexus/internal/reflectx"
	"github.com/toolnexus/toolnexus/schema"
)

// DefineTool turns a typed Go function into a [Tool]. It does, once:
//
//   - infers the JSON Schema of In (a struct, a pointer to one, a map with
//     string keys, or any) with [schema.ForType];
//   - builds the decode plan that turns a model's arguments into In, enforcing
//     everything the schema says (types, required and unknown keys, enum,
//     bounds, lengths, patterns, formats);
//   - infers an output schema when Out is a struct (or a pointer to one);
//   - names the tool from [WithName], or else from fn's Go name in snake_case
//     (getWeather becomes get_weather); a closure has no usable name and needs
//     WithName.
//
// Then every call through [Tool.Execute] or [Tool.ExecuteJSON] decodes and
// validates the arguments, calls fn, and renders Out: a string kind as is, a
// [Result] passed through, anything else as compact JSON (also kept in
// [Result.Value]). A mistake in In (an unsupported field type, a malformed
// tag) is an error here, naming the type, the field and the problem.
//
// For a tool whose schema is written by hand, see [NewTool].
func DefineTool[In, Out any](fn func(context.Context, In) (Out, error), opts ...Option) (Tool, error) {
	cfg := newConfig(opts)
	inType := reflect.TypeFor[In]()
	label := fmt.Sprintf("define: DefineTool[%v]", inType)
	if fn == nil {
		return Tool{}, fmt.Errorf("%s: nil function", label)
	}
	name := cfg.name
	if !cfg.nameSet {
		var err error
		if name, err = nameFromFunc(fn); err != nil {
			return Tool{}, fmt.Errorf("%s: %w", label, err)
		}
	}
	if err := ValidateName(name); err != nil {
		return Tool{}, fmt.Errorf("%s: %w", label, err)
	}
	label = fmt.Sprintf("define: tool %q", name)

	base, isPtr := inType, false
	if inType.Kind() == reflect.Pointer {
		base, isPtr = inType.Elem(), true
	}
	switch base.Kind() {
	case reflect.Struct, reflect.Map, reflect.Interface:
	default:
		return Tool{}, fmt.Errorf("%s: input type %v: arguments are a JSON object, so the input must be a struct, a pointer to a struct, a map with string keys or any (consider wrapping it in a struct)", label, inType)
	}
	in, err := inputInfoFor(inType, base)
	if err != nil {
		return Tool{}, fmt.Errorf("%s: %w", label, err)
	}
	s := &state{name: name, description: cfg.description, title: cfg.title, strict: cfg.strict,
		input: in.schema, inputJSON: in.json}
	outType := reflect.TypeFor[Out]()
	if outType.Kind() == reflect.Struct || outType.Kind() == reflect.Pointer && outType.Elem().Kind() == reflect.Struct {
		if outType != reflect.TypeFor[Result]() {
			out, err := outputInfoFor(outType)
			if err != nil {
				return Tool{}, fmt.Errorf("%s: %w", label, err)
			}
			s.output, s.outputJSON = out.schema, out.json
		}
	}

	h := &typedHandler[In, Out]{fn: fn, name: name, plan: in.plan, render: outputRenderer[Out](), limits: cfg.limits, maxOutput: cfg.outputLimit()}
	if isPtr {
		h.newPtr = func() (unsafe.Pointer, In) {
			v := reflect.New(base)
			return v.UnsafePointer(), v.Interface().(In)
		}
	}
	s.execMap = h.execMap
	s.execJSON = h.execJSON
	return Tool{s: s}, nil
}

// MustDefineTool is [DefineTool] for package-level tool definitions: it
// panics where DefineTool returns an error.
func MustDefineTool[In, Out any](fn func(context.Context, In) (Out, error), opts ...Option) Tool {
	t, err := DefineTool(fn, opts...)
	if err != nil {
		panic(err)
	}
	return t
}

// typeInfo is what DefineTool computes once per Go type: the canonical
// schema (shared, read-only, by every tool of that type), its JSON, and for
// input types the decode plan.
type typeInfo struct {
	schema *schema.Schema
	json   []byte
	plan   *reflectx.Plan
}

// inputInfos and outputInfos cache typeInfo per reflect.Type. Two goroutines
// may compute the same entry at once; the first stored wins and the duplicate
// work is harmless. Errors are not cached (schema and reflectx cache their own).
// A program has finitely many types, so the caches are bounded by them.
var inputInfos, outputInfos sync.Map

func inputInfoFor(t, base reflect.Type) (*typeInfo, error) {
	if v, ok := inputInfos.Load(t); ok {
		return v.(*typeInfo), nil
	}
	sch, err := schema.ForType(t)
	if err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	data, err := sch.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	plan, err := reflectx.PlanFor(base)
	if err != nil {
		// schema.ForType has built this plan already; should it fail here,
		// the error still has the one define-time shape.
		var fe *fields.Error
		if errors.As(err, &fe) {
			err = (*schema.TypeError)(fe)
		}
		return nil, fmt.Errorf("input type: %w", err)
	}
	v, _ := inputInfos.LoadOrStore(t, &typeInfo{schema: sch, json: data, plan: plan})
	return v.(*typeInfo), nil
}

func outputInfoFor(t reflect.Type) (*typeInfo, error) {
	if v, ok := outputInfos.Load(t); ok {
		return v.(*typeInfo), nil
	}
	sch, err := schema.ForType(t)
	if err != nil {
		return nil, fmt.Errorf("output schema: %w", err)
	}
	data, err := sch.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("output schema: %w", err)
	}
	v, _ := outputInfos.LoadOrStore(t, &typeInfo{schema: sch, json: data})
	return v.(*typeInfo), nil
}

// typedHandler is the call path of a tool made by DefineTool.
type typedHandler[In, Out any] struct {
	fn     func(context.Context, In) (Out, error)
	name   string
	plan   *reflectx.Plan
	render func(Out) Result
	// newPtr allocates the pointee when In is a pointer type; nil otherwise.
	newPtr    func() (unsafe.Pointer, In)
	limits    reflectx.Limits
	maxOutput int
}

func (h *typedHandler[In, Out]) execMap(ctx context.Context, args map[string]any) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			res = panicResult(h.name, r)
		}
	}()
	if err := callContextError(ctx); err != nil {
		return cancelResult(err)
	}
	var in In
	dst := unsafe.Pointer(&in)
	if h.newPtr != nil {
		dst, in = h.newPtr()
	}
	if err := h.plan.DecodeMapLimits(dst, args, h.limits); err != nil {
		return argResult(err)
	}
	return h.call(ctx, in)
}

func (h *typedHandler[In, Out]) execJSON(ctx context.Context, args []byte) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			res = panicResult(h.name, r)
		}
	}()
	if err := callContextError(ctx); err != nil {
		return cancelResult(err)
	}
	var in In
	dst := unsafe.Pointer(&in)
	if h.newPtr != nil {
		dst, in = h.newPtr()
	}
	if err := h.plan.DecodeJSONLimits(dst, args, h.limits); err != nil {
		return argResult(err)
	}
	return h.call(ctx, in)
}

func (h *typedHandler[In, Out]) call(ctx context.Context, in In) Result {
	if ctx == nil {
		ctx = context.Background()
	}
	out, err := h.fn(ctx, in)
	if err != nil {
		return limitOutput(handlerErrorResult(err), h.maxOutput)
	}
	return limitOutput(h.render(out), h.maxOutput)
}

// RawHandler handles a call of a tool made with [NewTool]. args is the call's
// arguments as one JSON object. The returned value is rendered as for
// [DefineTool]: a string as is, a [Result] passed through, anything else as
// compact JSON.
type RawHandler func(ctx context.Context, args json.RawMessage) (any, error)

// NewTool makes a [Tool] from a hand-written JSON Schema and an untyped
// handler, for tools whose input is not a Go type (a proxy to a remote MCP
// server, say). The schema must be a JSON object schema; it is parsed with
// [schema.ParseLimited] so adapters can transform it like an inferred one,
// within the limits [WithMaxSchemaBytes] and [WithMaxSchemaNodes] set.
//
// Unlike [DefineTool], NewTool does not validate arguments against the
// schema: it checks only that they are one JSON object (empty text and null
// mean {}), and the handler must check the rest. For validated arguments,
// describe them with a Go type and use DefineTool.
func NewTool(name string, inputSchema json.RawMessage, handler RawHandler, opts ...Option) (Tool, error) {
	cfg := newConfig(opts)
	if cfg.nameSet {
		name = cfg.name
	}
	if err := ValidateName(name); err != nil {
		return Tool{}, fmt.Errorf("define: NewTool: %w", err)
	}
	label := fmt.Sprintf("define: NewTool(%q)", name)
	if handler == nil {
		return Tool{}, fmt.Errorf("%s: nil handler", label)
	}
	in, err := schema.ParseLimited(inputSchema, cfg.schemaLim)
	if err != nil {
		return Tool{}, fmt.Errorf("%s: input schema: %w", label, err)
	}
	if !in.HasType("object") {
		return Tool{}, fmt.Errorf("%s: input schema: root must have \"type\": \"object\" (every provider requires it)", label)
	}
	s := &state{name: name, description: cfg.description, title: cfg.title, strict: cfg.strict, input: in}
	limits, maxOutput := cfg.limits, cfg.outputLimit()
	if s.inputJSON, err = in.MarshalJSON(); err != nil {
		return Tool{}, fmt.Errorf("%s: input schema: %w", label, err)
	}
	call := func(ctx context.Context, args json.RawMessage) (res Result) {
		defer func() {
			if r := recover(); r != nil {
				res = panicResult(name, r)
			}
		}()
		if err := callContextError(ctx); err != nil {
			return cancelResult(err)
		}
		if ctx == nil {
			ctx = context.Background()
		}
		out, err := handler(ctx, args)
		if err != nil {
			return limitOutput(handlerErrorResult(err), maxOutput)
		}
		return limitOutput(renderAny(out), maxOutput)
	}
	s.execMap = func(ctx context.Context, args map[string]any) Result {
		if args == nil {
			return call(ctx, json.RawMessage("{}"))
		}
		// Bounded before json.Marshal walks it: a cyclic or very deep map
		// would otherwise overflow the stack.
		if err := reflectx.CheckMap(args, limits); err != nil {
			return argResult(err)
		}
		data, err := json.Marshal(args)
		if err != nil {
			return argResult(&ArgErrors{Errs: []*ArgError{{Want: "a JSON object", Got: oneLine(err.Error()), Err: ErrType}}})
		}
		return call(ctx, data)
	}
	s.execJSON = func(ctx context.Context, args []byte) Result {
		raw, err := rawObject(args, limits)
		if err != nil {
			return argResult(err)
		}
		return call(ctx, raw)
	}
	return Tool{s: s}, nil
}

// rawObject checks that args is one JSON object, mapping empty text and null
// to {}.
func rawObject(args []byte, limits reflectx.Limits) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return json.RawMessage("{}"), nil
	}
	// The nesting, size and UTF-8 rules of DefineTool's decoder, so
	// that text and map arguments get the same verdict.
	if err := reflectx.CheckJSON(trimmed, limits); err != nil {
		return nil, err
	}
	if trimmed[0] != '{' {
		return nil, &ArgErrors{Errs: []*ArgError{{Want: "a JSON object", Got: jsonKind(trimmed[0]), Err: ErrType}}}
	}
	return json.RawMessage(trimmed), nil
}

func jsonKind(c byte) string {
	switch c {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	default:
		return "a number"
	}
}

// outputLimit is the resolved WithMaxOutputBytes: < 0 for no bound.
func (c config) outputLimit() int {
	if c.maxOutput == 0 {
		return DefaultMaxOutputBytes
	}
	return c.maxOutput
}

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		if o != nil {
			o.apply(&c)
		}
	}
	return c
}

// ValidateName reports whether name is a tool name every provider accepts:
// ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$ (docs/providers.md: OpenAI, Anthropic, Gemini,
// Bedrock and MCP all accept this set).
func ValidateName(name string) error {
	switch {
	case name == "":
		return errors.New("empty tool name (consider WithName)")
	case len(name) > 64:
		return fmt.Errorf("tool name %q is %d characters; the portable maximum is 64", name, len(name))
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && (c == '-' || '0' <= c && c <= '9')
		if !ok {
			return fmt.Errorf("tool name %q: character %q at %d is outside the portable set ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$", name, rune(c), i)
		}
	}
	return nil
}

// nameFromFunc derives a tool name from a function's Go name in snake_case.
func nameFromFunc(fn any) (string, error) {
	f := runtime.FuncForPC(reflect.ValueOf(fn).Pointer())
	if f == nil {
		return "", errors.New("cannot find the function's name (consider WithName)")
	}
	full := f.Name() // e.g. example.com/pkg.getWeather, pkg.(*T).Method-fm, pkg.main.func1
	short := full[strings.LastIndexByte(full, '/')+1:]
	if i := strings.IndexByte(short, '['); i >= 0 { // generic instantiation
		short = short[:i]
	}
	short = strings.TrimSuffix(short, "-fm") // method value
	parts := strings.Split(short, ".")
	for _, p := range parts[1:] {
		if p == "" || isDigits(p) || strings.HasPrefix(p, "func") && isDigits(p[4:]) {
			return "", fmt.Errorf("%s is a function literal and has no name (consider WithName)", full)
		}
	}
	last := parts[len(parts)-1]
	return snakeCase(last), nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// snakeCase turns a Go identifier into snake_case: getWeather → get_weather,
// HTTPServer → http_server, getURLData → get_url_data.
func snakeCase(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			prevLower := i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]))
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			prevUpper := i > 0 && unicode.IsUpper(rs[i-1])
			if i > 0 && rs[i-1] != '_' && (prevLower || prevUpper && nextLower) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
