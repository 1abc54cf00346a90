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

	"github.com/toolnexus/toolnexus/internal/echo"
	"github.com/toolnexus/toolnexus/internal/reflectx"
	"github.com/toolnexus/toolnexus/internal/typeinfo"
	"github.com/toolnexus/toolnexus/schema"
)

// DefineTool turns a typed Go function into a [Tool]. It does, once:
//
//   - infers the JSON Schema of In (a struct, a pointer to one, a map with
//     string keys, or any) with [schema.ForType];
//   - builds the decode plan that turns a model's arguments into In, enforcing
//     everything the schema says (types, required and unknown keys, enum,
//     bounds, lengths, patterns, formats); when nothing in In needs the
//     plan to be checked (no default or example tags, no methods), the plan
//     is built by the first call instead, once, and its build cannot fail
//     (likewise the schema tree, then built by the first rendering or
//     [Tool.InputSchema]; every check of the fields and tags still runs
//     here);
//   - infers an output schema when Out is a struct (or a pointer to one);
//   - names the tool from [WithName], or else from fn's Go name in snake_case
//     (getWeather becomes get_weather); a closure has no usable name and needs
//     WithName.
//
// Then every call through [Tool.Execute] or [Tool.ExecuteJSON] decodes and
// validates the arguments, calls fn, and renders Out: a string kind as is, a
// [Result] passed through, anything else as compact JSON (also kept in
// [Result.Value]): encoding/json's encoding, except that nil slices and
// maps are [] and {} as the output schema says, bytes that are not UTF-8
// become \ufffd, and the encoding stops at [WithMaxOutputBytes] and
// [MaxOutputDepth] with an error result. A mistake in In (an unsupported field type, a malformed
// tag) is an error here, naming the type, the field and the problem.
//
// For a tool whose schema is written by hand, see [NewTool].
func DefineTool[In, Out any](fn func(context.Context, In) (Out, error), opts ...Option) (Tool, error) {
	cfg := newConfig(opts)
	inType := reflect.TypeFor[In]()
	// The error prefixes are formatted only when an error needs them.
	if fn == nil {
		return Tool{}, fmt.Errorf("define: DefineTool[%v]: nil function", inType)
	}
	name := cfg.name
	if !cfg.nameSet {
		var err error
		if name, err = nameFromFunc(fn); err != nil {
			return Tool{}, fmt.Errorf("define: DefineTool[%v]: %w", inType, err)
		}
	}
	name, original := cfg.toolName(name)
	if err := ValidateName(name); err != nil {
		return Tool{}, fmt.Errorf("define: DefineTool[%v]: %w", inType, err)
	}

	isPtr := inType.Kind() == reflect.Pointer
	in, err := typeinfo.Input(inType)
	if err != nil {
		return Tool{}, fmt.Errorf("define: tool %q: %w", name, err)
	}
	if err := cfg.checkMeta(); err != nil {
		return Tool{}, fmt.Errorf("define: tool %q: %w", name, err)
	}
	s := &state{name: name, original: original, description: cfg.description, title: cfg.title, strict: cfg.strict, meta: cfg.meta,
		inputInfo: in, inputJSON: &schemaJSON{info: in}}
	outType := reflect.TypeFor[Out]()
	if objectOutput(outType) {
		if outType != reflect.TypeFor[Result]() {
			out, err := typeinfo.Output(outType)
			if err != nil {
				return Tool{}, fmt.Errorf("define: tool %q: %w", name, err)
			}
			s.output, s.outputJSON = out.Schema(), &schemaJSON{info: out}
		}
	}

	h := &typedHandler[In, Out]{fn: fn, name: name, info: in, render: outputRenderer[Out](), limits: cfg.limits, maxOutput: cfg.outputLimit(), parts: cfg.partLimits()}
	h.isPtr = isPtr
	if !isPtr { // used only while the plan calls no user method (decode)
		h.pool = &sync.Pool{New: func() any { return &pooledInput[In, Out]{h: h} }}
	}
	s.execMap = h.execMap
	s.execJSON = h.execJSON
	s.splitMap = h.splitMap
	s.splitJSON = h.splitJSON
	s.userDecode = h.userDecode
	if err := applyExamples(s, cfg, checkTyped(h)); err != nil {
		return Tool{}, fmt.Errorf("define: tool %q: %w", name, err)
	}
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

// schemaJSON is the JSON encoding of a tool's schema tree: the one the
// type's cache entry keeps (typeinfo.Info.JSON, encoded when first asked
// for), or, for a schema of the tool's own (NewTool, WithExamples), data
// encoded at definition, so that an encoding error is a definition error.
type schemaJSON struct {
	info *typeinfo.Info
	data []byte
}

// bytes returns the encoding, shared: callers must not modify it.
func (j *schemaJSON) bytes() []byte {
	if j.info != nil {
		return j.info.JSON()
	}
	return j.data
}

// encodedJSON returns a schemaJSON holding data.
func encodedJSON(data []byte) *schemaJSON { return &schemaJSON{data: data} }

// objectOutput reports whether outputs of type t are JSON objects, which
// an output schema can describe (MCP requires an object root): structs
// and maps with string keys, and pointers to them.
func objectOutput(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[Part]() {
		return false // content, not a structured output
	}
	return t.Kind() == reflect.Struct || t.Kind() == reflect.Map && t.Key().Kind() == reflect.String
}

// typedHandler is the call path of a tool made by DefineTool.
type typedHandler[In, Out any] struct {
	fn     func(context.Context, In) (Out, error)
	name   string
	info   *typeinfo.Info // In's: the decode plan (Info.Plan)
	render func(Out, int) Result
	isPtr  bool // In is a pointer type; the plan decodes its pointee
	// pool holds *pooledInput[In, Out] to decode into when In is not a pointer;
	// it is used only when the plan calls no user method
	// (reflectx.Plan.UserMethods), which could keep a pointer into the
	// value. The value is copied out for the handler, so a call allocates
	// only what the value points to.
	pool      *sync.Pool
	limits    reflectx.Limits
	maxOutput int
	parts     partLimits
}

// callArgs is a call's arguments, as JSON text or as a map, and how to
// decode them: into memory given (pooled), or into a new frame.
type callArgs interface {
	into(p *reflectx.Plan, s *reflectx.Scratch, v unsafe.Pointer, lim reflectx.Limits) error
	fresh(p *reflectx.Plan, lim reflectx.Limits) (unsafe.Pointer, error)
}

type jsonArgs []byte

func (a jsonArgs) into(p *reflectx.Plan, s *reflectx.Scratch, v unsafe.Pointer, lim reflectx.Limits) error {
	return p.DecodeJSONWith(s, v, a, lim)
}

func (a jsonArgs) fresh(p *reflectx.Plan, lim reflectx.Limits) (unsafe.Pointer, error) {
	return p.DecodeJSONNew(a, lim)
}

type mapArgs map[string]any

func (a mapArgs) into(p *reflectx.Plan, s *reflectx.Scratch, v unsafe.Pointer, lim reflectx.Limits) error {
	return p.DecodeMapWith(s, v, a, lim)
}

func (a mapArgs) fresh(p *reflectx.Plan, lim reflectx.Limits) (unsafe.Pointer, error) {
	return p.DecodeMapNew(a, lim)
}

func (h *typedHandler[In, Out]) execMap(ctx context.Context, args map[string]any) Result {
	return exec(h, ctx, mapArgs(args))
}

func (h *typedHandler[In, Out]) execJSON(ctx context.Context, args []byte) Result {
	return exec(h, ctx, jsonArgs(args))
}

func (h *typedHandler[In, Out]) splitMap(ctx context.Context, args map[string]any, res *Result) Decoded {
	return prepare(h, ctx, mapArgs(args), res)
}

func (h *typedHandler[In, Out]) splitJSON(ctx context.Context, args []byte, res *Result) Decoded {
	return prepare(h, ctx, jsonArgs(args), res)
}

// userDecode is [Tool.DecodeCallsUserCode]: a plan that cannot be built
// is reported as user code too, so that its error is met where the
// handler would run.
func (h *typedHandler[In, Out]) userDecode() bool {
	p, err := h.info.Plan()
	return err != nil || p.UserMethods()
}

// exec is a call whichever way its arguments came: a panic, a done
// context, the plan's error or bad arguments become the call's result.
func exec[In, Out any, A callArgs](h *typedHandler[In, Out], ctx context.Context, args A) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			res = panicResult(h.name, r)
		}
	}()
	if err := callContextError(ctx); err != nil {
		return cancelResult(err)
	}
	vp, in, err := decode(h, args)
	if err != nil {
		return argResult(err)
	}
	if vp != nil {
		in = h.release(vp)
	}
	h.finish(ctx, in, &res)
	return res
}

// prepare is exec in two parts ([Tool.DecodeJSON]): what runs before
// the handler, here, with the same results for a panic, a done context,
// the plan's error and bad arguments, written to *res (and a nil call);
// and the rest, the call it returns: the pooled memory decode chose,
// released by its Finish, or the value decoded into a new frame.
func prepare[In, Out any, A callArgs](h *typedHandler[In, Out], ctx context.Context, args A, res *Result) (call Decoded) {
	defer func() {
		if r := recover(); r != nil {
			*res = panicResult(h.name, r)
			call = nil
		}
	}()
	if err := callContextError(ctx); err != nil {
		*res = cancelResult(err)
		return nil
	}
	vp, in, err := decode(h, args)
	if err != nil {
		*res = argResult(err)
		return nil
	}
	if vp != nil {
		vp.res = res
		return vp
	}
	return &preparedCall[In, Out]{h: h, in: in, res: res}
}

// preparedCall is the rest of a call that prepare split: the decoded
// arguments, waiting for the handler.
type preparedCall[In, Out any] struct {
	h   *typedHandler[In, Out]
	in  In
	res *Result
}

// Finish calls the handler and renders its output, as exec does after
// the decode.
func (c *preparedCall[In, Out]) Finish(ctx context.Context) {
	c.h.finish(ctx, c.in, c.res)
}

// Input returns the decoded arguments (Decoded.Input).
func (c *preparedCall[In, Out]) Input() any { return c.in }

// finish is the end of a call, once its arguments are decoded: it calls
// the handler and renders its output, a panic included, into *res. It is
// one frame with the handler right below it, so that a toolkit's worker,
// which runs it first on a new goroutine, does not have to grow its stack
// for the library's frames.
func (h *typedHandler[In, Out]) finish(ctx context.Context, in In, res *Result) {
	defer func() {
		if r := recover(); r != nil {
			*res = panicResult(h.name, r)
		}
	}()
	if ctx == nil {
		ctx = context.Background()
	}
	out, err := h.fn(ctx, in)
	if err != nil {
		*res = limitOutput(handlerErrorResult(err), h.maxOutput)
		return
	}
	*res = limitOutput(h.render(out, h.maxOutput), h.maxOutput)
	if len(res.Parts) > 0 {
		*res = checkParts(h.name, *res, h.parts)
	}
}

// pooledInput is what a typedHandler's pool holds: a value to decode into
// and the decoder's state, so that a call takes one thing from a pool.
// Between prepare and Finish it is the prepared call, res its result.
type pooledInput[In, Out any] struct {
	in  In
	s   reflectx.Scratch
	h   *typedHandler[In, Out]
	res *Result
}

// Finish is preparedCall's Finish for arguments decoded into pooled
// memory: the value is copied out and the memory goes back to the pool
// before the handler runs.
func (vp *pooledInput[In, Out]) Finish(ctx context.Context) {
	h, res := vp.h, vp.res
	vp.res = nil
	h.finish(ctx, h.release(vp), res)
}

// Input returns the decoded arguments (Decoded.Input), before Finish.
func (vp *pooledInput[In, Out]) Input() any { return vp.in }

// decode is the one place a call's arguments are decoded, and the one
// choice of where to: into pooled memory, returned as vp (the caller
// copies the value out with release, or keeps vp as the prepared call),
// when the tool has a pool and the plan calls no user method; else into
// a new frame (one allocation for the value and, where they fit, its
// strings, string slices and scalar pointees), returned as in. On an
// error (the plan's, or the arguments'), vp is nil: pooled memory is
// already back in the pool.
func decode[In, Out any, A callArgs](h *typedHandler[In, Out], args A) (vp *pooledInput[In, Out], in In, err error) {
	p, err := h.info.Plan()
	if err != nil {
		return nil, in, err
	}
	if h.pool != nil && !p.UserMethods() {
		vp = h.pool.Get().(*pooledInput[In, Out])
		if err := args.into(p, &vp.s, unsafe.Pointer(&vp.in), h.limits); err != nil {
			h.release(vp)
			return nil, in, err
		}
		return vp, in, nil
	}
	v, err := args.fresh(p, h.limits)
	if err != nil {
		return nil, in, err
	}
	return nil, h.value(v), nil
}

// release copies the value out of pooled memory, zeroes it and returns it
// to the pool. Only for plans without user methods: nothing else keeps a
// pointer into it (the strings and slices of the value live elsewhere).
func (h *typedHandler[In, Out]) release(vp *pooledInput[In, Out]) In {
	in := vp.in
	var zero In
	vp.in = zero
	h.pool.Put(vp)
	return in
}

// value returns the In whose value the plan decoded at v.
func (h *typedHandler[In, Out]) value(v unsafe.Pointer) In {
	if h.isPtr {
		return *(*In)(unsafe.Pointer(&v)) // In is *T, and v points to a T
	}
	return *(*In)(v)
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
// Every call's arguments are validated against the schema before the
// handler runs, as [DefineTool]'s are against their type: the same errors
// (an [*ArgErrors] result with JSON Pointer paths and the same
// sentinels), the same limits ([WithMaxArgBytes], [WithMaxPatternBytes],
// the nesting depth) and the same checks, for every keyword
// [schema.Parse] reads (docs/schema.md lists them). Empty text and null
// mean {}, and the handler gets the arguments as sent (a map as compact
// JSON). A keyword the validator cannot enforce ("not", "if" with
// "then", "patternProperties", a "$ref" to another document, ...) is an
// error here wrapping [schema.ErrUnsupportedKeyword], naming it;
// annotations, formats it does not know and keywords of no JSON Schema
// vocabulary are not checked. [WithoutValidation] keeps only the check
// that the arguments are one JSON object, for a schema the validator
// cannot take.
func NewTool(name string, inputSchema json.RawMessage, handler RawHandler, opts ...Option) (Tool, error) {
	cfg := newConfig(opts)
	if cfg.nameSet {
		name = cfg.name
	}
	name, original := cfg.toolName(name)
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
		return Tool{}, fmt.Errorf("%s: input schema: root must have \"type\": \"object\" (every provider requires it): %w", label, schema.ErrNotObject)
	}
	if err := cfg.checkMeta(); err != nil {
		return Tool{}, fmt.Errorf("%s: %w", label, err)
	}
	var plan *reflectx.SchemaPlan
	if !cfg.noValidation {
		if plan, err = reflectx.CompileSchema(in, cfg.schemaLim); err != nil {
			return Tool{}, fmt.Errorf("%s: input schema: %w (consider define.WithoutValidation)", label, err)
		}
	}
	s := &state{name: name, original: original, description: cfg.description, title: cfg.title, strict: cfg.strict, meta: cfg.meta, input: in}
	limits, maxOutput, parts := cfg.limits, cfg.outputLimit(), cfg.partLimits()
	data, err := in.MarshalJSON()
	if err != nil {
		return Tool{}, fmt.Errorf("%s: input schema: %w", label, err)
	}
	s.inputJSON = encodedJSON(data)
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
		return limitResult(name, renderAny(out, maxOutput), maxOutput, parts)
	}
	// jsonObject checks arguments as JSON text: against the schema, or
	// without validation only that they are one object.
	jsonObject := func(args []byte) (json.RawMessage, error) {
		if plan == nil {
			return rawObject(args, limits)
		}
		return validObject(plan, args, limits)
	}
	mapObject := func(args map[string]any) (json.RawMessage, error) {
		if args == nil {
			args = map[string]any{}
		}
		// Bounded before json.Marshal walks it: a cyclic or very deep map
		// would otherwise overflow the stack.
		if err := reflectx.CheckMap(args, limits); err != nil {
			return nil, err
		}
		data, err := marshalArgs(args)
		if err != nil {
			return nil, &ArgErrors{Errs: []*ArgError{{Want: "a JSON object", Got: echo.Cut(oneLine(err.Error()), MaxEchoedCause), Err: ErrType}}}
		}
		if plan != nil {
			// The map's JSON is what the handler gets, and what is
			// validated: map and text arguments get one verdict.
			return validObject(plan, data, reflectx.Limits{MaxBytes: -1, MaxPatternBytes: limits.MaxPatternBytes})
		}
		return data, nil
	}
	s.execMap = func(ctx context.Context, args map[string]any) Result {
		raw, err := mapObject(args)
		if err != nil {
			return argResult(err)
		}
		return call(ctx, raw)
	}
	s.execJSON = func(ctx context.Context, args []byte) Result {
		raw, err := jsonObject(args)
		if err != nil {
			return argResult(err)
		}
		return call(ctx, raw)
	}
	// The split of a NewTool call: the validation, then the whole call on
	// the arguments.
	split := func(ctx context.Context, raw json.RawMessage, err error, res *Result) Decoded {
		if err != nil {
			*res = argResult(err)
			return nil
		}
		if err := callContextError(ctx); err != nil {
			*res = cancelResult(err)
			return nil
		}
		return &rawCall{call: call, args: raw, res: res}
	}
	s.splitMap = func(ctx context.Context, args map[string]any, res *Result) Decoded {
		raw, err := mapObject(args)
		return split(ctx, raw, err, res)
	}
	s.splitJSON = func(ctx context.Context, args []byte, res *Result) Decoded {
		raw, err := jsonObject(args)
		return split(ctx, raw, err, res)
	}
	if err := applyExamples(s, cfg, func(args []byte) error { _, err := jsonObject(args); return err }); err != nil {
		return Tool{}, fmt.Errorf("%s: %w", label, err)
	}
	return Tool{s: s}, nil
}

// rawCall is a NewTool call whose arguments were checked: the rest of
// it is its handler on them.
type rawCall struct {
	call func(context.Context, json.RawMessage) Result
	args json.RawMessage
	res  *Result
}

// Finish runs the handler.
func (c *rawCall) Finish(ctx context.Context) { *c.res = c.call(ctx, c.args) }

// Input returns the checked arguments, a json.RawMessage
// (Decoded.Input).
func (c *rawCall) Input() any { return c.args }

// validObject validates args against plan and returns them as the
// handler gets them: trimmed, with empty text and null as {}.
func validObject(plan *reflectx.SchemaPlan, args []byte, limits reflectx.Limits) (json.RawMessage, error) {
	if err := plan.ValidateJSON(args, limits); err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return json.RawMessage("{}"), nil
	}
	return json.RawMessage(trimmed), nil
}

// rawObject checks that args is one JSON object, mapping empty text and null
// to {}.
func rawObject(args []byte, limits reflectx.Limits) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return json.RawMessage("{}"), nil
	}
	// The nesting, size and UTF-8 rules of DefineTool's decoder, and its
	// messages, so that text and map arguments get the same verdict.
	if err := reflectx.CheckArgs(args, limits); err != nil {
		return nil, err
	}
	return json.RawMessage(trimmed), nil
}

// outputLimit is the resolved WithMaxOutputBytes: < 0 for no bound.
func (c config) outputLimit() int {
	if c.maxOutput == 0 {
		return DefaultMaxOutputBytes
	}
	return c.maxOutput
}

// partLimits are the resolved WithMaxPartBytes and the bound of a result
// with parts: WithMaxOutputBytes when given, else DefaultMaxResultBytes.
func (c config) partLimits() partLimits {
	l := partLimits{part: c.maxPart, result: c.maxOutput}
	if l.part == 0 {
		l.part = DefaultMaxPartBytes
	}
	if l.result == 0 {
		l.result = DefaultMaxResultBytes
	}
	return l
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
