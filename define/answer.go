package define

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/fields"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
	"github.com/toolnexus/toolnexus/internal/reflectx"
	"github.com/toolnexus/toolnexus/internal/typeinfo"
	"github.com/toolnexus/toolnexus/schema"
)

// Answer is a typed final answer: the Go type T that a model's last reply
// must be, as JSON, instead of prose. Make one with [DefineAnswer]; ask a
// provider for it with adapters.ResponseFormat, read it back with
// adapters.DecodeAnswer (or [Answer.Decode] on the answer's text).
//
// An Answer is an immutable handle, cheap to copy and safe for
// concurrent use. The zero Answer decodes nothing: its Decode returns an
// error wrapping [ErrZeroAnswer].
type Answer[T any] struct {
	c *answerCore
	d *answerDecoder[T]
}

// AnswerFormat is an [Answer] seen without its type: its name,
// description, schema and strictness, and the answer as a tool, which is
// what code that renders or reads answers for any T needs
// (adapters.ResponseFormat takes it through [AnyAnswer]). It is
// comparable and cheap to copy; the zero AnswerFormat is the zero
// Answer's.
type AnswerFormat struct {
	c *answerCore
}

// AnyAnswer is an answer of any type: every [Answer] and [AnswerFormat]
// is one. Functions that do not need the type (adapters.ResponseFormat,
// adapters.AnswerText) take it.
type AnyAnswer interface {
	// Format returns the answer without its type.
	Format() AnswerFormat
}

// ErrZeroAnswer reports the zero Answer (or AnswerFormat), which has no
// type to decode into; make answers with DefineAnswer.
var ErrZeroAnswer = errors.New("define: zero Answer (make answers with DefineAnswer)")

// WrappedKey is the one property of the object that carries an answer
// whose JSON is not an object (a slice, a string, a number...): such an
// answer is asked for, and read, as {"value": ...}.
const WrappedKey = "value"

// answerCore is what is known of an answer without its type.
type answerCore struct {
	name        string
	description string
	strict      strictPin
	t           reflect.Type   // T
	wrapped     bool           // T is carried as {"value": T}
	info        *typeinfo.Info // what the decode plan decodes: T's (its pointee), or the wrapper's
	limits      reflectx.Limits
	tool        Tool // the answer as a tool: the forced-tool pattern, and the rendering cache
}

// DefineAnswer defines a typed final answer of type T. It infers T's JSON
// Schema by the rules of a tool's input (tags, the peer dialects'
// jsonschema tags, constraints, recursion; docs/schema.md) and builds the
// decoder that [Answer.Decode] runs, once per type.
//
// T is a struct, a map with string keys or any (or a pointer to one of
// them): its JSON is an object, the root every provider's response format
// takes. Any other T (a slice, a string, a number, time.Time...) is
// wrapped: the schema is {"type":"object","properties":{"value": T's
// schema},"required":["value"]} and the answer's text is read as that
// object, so that one schema and one decode serve every provider (OpenAI's
// Structured Outputs and Anthropic's forced tool require an object root).
//
// The options that apply: [WithName] (the answer's name, which providers
// show the model as the schema's or the tool's name; by default T's Go
// name in snake_case, Invoice giving "invoice", or "answer" for a type
// without a name), [WithDescription] (what the answer is for),
// [WithStrict] (pin the provider's strict mode on or off), and
// [WithMaxArgBytes] and [WithMaxPatternBytes], which bound the answer's
// text as they bound a tool's arguments. Any other option is an error.
// A problem with T (an unsupported field type, a malformed tag) is a
// *schema.TypeError with Role "answer", naming the field.
func DefineAnswer[T any](opts ...Option) (Answer[T], error) {
	t := reflect.TypeFor[T]()
	cfg, err := answerConfig(opts)
	if err != nil {
		return Answer[T]{}, fmt.Errorf("define: DefineAnswer[%v]: %w", t, err)
	}
	name := cfg.name
	if !cfg.nameSet {
		name = answerName(t)
	}
	if err := ValidateName(name); err != nil {
		return Answer[T]{}, fmt.Errorf("define: DefineAnswer[%v]: %w", t, err)
	}
	c := &answerCore{name: name, description: cfg.description, strict: cfg.strict, t: t, limits: cfg.limits}
	if c.info, c.wrapped, err = answerInfo(t); err != nil {
		return Answer[T]{}, fmt.Errorf("define: answer %q: %w", name, err)
	}
	d := &answerDecoder[T]{c: c}
	if !c.wrapped && t.Kind() == reflect.Pointer {
		d.isPtr = true
	} else {
		d.pool = &sync.Pool{New: func() any { return new(pooledAnswer[T]) }}
	}
	c.tool = answerTool(c, d)
	return Answer[T]{c: c, d: d}, nil
}

// MustDefineAnswer is [DefineAnswer] for package-level answers: it panics
// where DefineAnswer returns an error.
func MustDefineAnswer[T any](opts ...Option) Answer[T] {
	a, err := DefineAnswer[T](opts...)
	if err != nil {
		panic(err)
	}
	return a
}

// answerConfig applies opts, refusing those that do not apply to an
// answer (each is tried on its own, so that the error names it).
func answerConfig(opts []Option) (config, error) {
	for _, o := range opts {
		if o == nil {
			continue
		}
		var c config
		o.apply(&c)
		if c.title != "" || c.maxOutput != 0 || c.schemaLim != (schema.ParseLimits{}) || c.examplesSet || c.meta != nil {
			return config{}, fmt.Errorf("option %v does not apply to an answer (it takes WithName, WithDescription, WithStrict, WithMaxArgBytes and WithMaxPatternBytes)", o)
		}
	}
	return newConfig(opts), nil
}

// answerName is the default name of an answer of type t: its Go name in
// snake_case, without package or type arguments, or "answer".
func answerName(t reflect.Type) string {
	t = fields.Deref(t)
	n := t.Name()
	if i := strings.IndexByte(n, '['); i >= 0 {
		n = n[:i]
	}
	if n == "" || t.PkgPath() == "" { // unnamed, or predeclared (int, string)
		return "answer"
	}
	return snakeCase(n)
}

// answerInfo returns the cache entry of what an answer of type t decodes:
// t's own when its JSON is an object, else that of the wrapper
// struct{ Value T `json:"value"` }, whose memory is t's.
func answerInfo(t reflect.Type) (*typeinfo.Info, bool, error) {
	if k, err := fields.KindOf(fields.Deref(t)); err == nil && (k == fields.Struct || k == fields.Map || k == fields.Any) {
		// An object, unless it decodes itself (UnmarshalJSON): the
		// plan's verdict.
		info, err := typeinfo.Input(t)
		if err == nil {
			return info, false, nil
		}
		if !errors.Is(err, schema.ErrNotObject) {
			return nil, false, answerRole(err, t, false)
		}
	}
	info, err := typeinfo.Input(wrapperOf(t))
	if err != nil {
		return nil, false, answerRole(err, t, true)
	}
	return info, true, nil
}

// wrapperOf is the struct that carries an answer of type t as
// {"value": t}: its one field is at offset 0, so that the wrapper's
// memory is t's and the plan decodes into a T directly.
func wrapperOf(t reflect.Type) reflect.Type {
	return reflect.StructOf([]reflect.StructField{{
		Name: "Value", Type: t, Tag: reflect.StructTag(`json:"` + WrappedKey + `" required:"true"`),
	}})
}

// answerRole gives a type problem of an answer its Role, "answer", and,
// for a wrapped type, the path inside T rather than the wrapper's.
func answerRole(err error, t reflect.Type, wrapped bool) error {
	if err == nil {
		return nil
	}
	var te *schema.TypeError
	if !errors.As(err, &te) {
		return err
	}
	cp := *te
	cp.Role, cp.Type = "answer", t
	if wrapped {
		cp.Path = strings.TrimPrefix(strings.TrimPrefix(cp.Path, "Value"), ".")
	}
	return &cp
}

// Format returns the answer without its type.
func (a Answer[T]) Format() AnswerFormat { return AnswerFormat{a.c} }

// Name returns the answer's name.
func (a Answer[T]) Name() string { return a.Format().Name() }

// Schema returns the JSON Schema of the answer's text, as
// [AnswerFormat.Schema] does.
func (a Answer[T]) Schema() json.RawMessage { return a.Format().Schema() }

// String returns the answer's name and type, for debugging.
func (a Answer[T]) String() string { return a.Format().String() }

// Decode reads the answer's text, the model's JSON, into a T: every
// constraint of T's schema is checked, with the rules, the limits and the
// errors of a tool's arguments ([Tool.ExecuteJSON]): an *[ArgErrors]
// listing every problem with its JSON Pointer, integers never rounded,
// unknown and duplicate keys refused. A wrapped answer is read from
// {"value": ...}, and its paths start with /value. Unlike a tool's
// arguments, empty text and null are not {}: they are an error, since
// the model gave no answer.
func (a Answer[T]) Decode(text []byte) (T, error) {
	if a.d == nil {
		var zero T
		return zero, ErrZeroAnswer
	}
	return a.d.decode(text)
}

// DecodeStrictNulls is [Answer.Decode] for the text of a model that was
// given a strict rendering of the answer's schema in which every optional
// property is required and nullable (OpenAI's Structured Outputs, the
// strict mode of OpenAI Chat Completions and Responses): there, null is
// how the model leaves an optional property out, so null for an optional
// field whose Go type takes no null (an omitempty string, a field with a
// default) means the field is absent: its default applies, or its zero
// value stays. Every other rule is Decode's: null for a required field is
// still a type error. adapters.DecodeAnswer calls it where the answer's
// format may have been strict.
func (a Answer[T]) DecodeStrictNulls(text []byte) (T, error) {
	if a.d == nil {
		var zero T
		return zero, ErrZeroAnswer
	}
	return a.d.decode(a.c.tool.NullsAsAbsentJSON(text))
}

// answerDecoder is the typed decode of an answer.
type answerDecoder[T any] struct {
	c     *answerCore
	isPtr bool       // T is a pointer whose pointee the plan decodes
	pool  *sync.Pool // *pooledAnswer[T]; nil when T is such a pointer
}

// pooledAnswer is memory to decode into and the decoder's state, as a
// tool's pooledInput: the value is copied out, so a decode allocates
// only what the value points to.
type pooledAnswer[T any] struct {
	v T
	s reflectx.Scratch
}

func (d *answerDecoder[T]) decode(text []byte) (T, error) {
	var zero T
	lim := d.c.limits
	if err := answerGiven(text); err != nil {
		return zero, err
	}
	p, err := d.c.info.Plan()
	if err != nil {
		return zero, err
	}
	if d.pool != nil && !p.UserMethods() {
		vp := d.pool.Get().(*pooledAnswer[T])
		err := p.DecodeJSONWith(&vp.s, unsafe.Pointer(&vp.v), text, lim)
		v := vp.v
		vp.v = zero
		d.pool.Put(vp)
		if err != nil {
			return zero, err
		}
		return v, nil
	}
	v, err := p.DecodeJSONNew(text, lim)
	if err != nil {
		return zero, err
	}
	if d.isPtr {
		return *(*T)(unsafe.Pointer(&v)), nil // T is *X, and v points to an X
	}
	return *(*T)(v), nil
}

// answerGiven refuses text that holds no answer: empty, all whitespace,
// or null, which a tool's arguments read as {}.
func answerGiven(text []byte) error {
	i := jsonwire.SkipSpace(text, 0)
	switch {
	case i == len(text):
		return &ArgErrors{Errs: []*ArgError{{Want: "a JSON object", Got: "nothing", Err: ErrType}}}
	case string(bytes.TrimRight(text[i:], " \t\r\n")) == "null":
		return &ArgErrors{Errs: []*ArgError{{Want: "a JSON object", Got: "null", Err: ErrType}}}
	}
	return nil
}

// answerTool is the answer as a tool: its name, description and schema
// are the answer's, and a call of it decodes its arguments as the answer
// (the same checks as Decode), its result "answer received". It is what
// the forced-tool pattern sends in place of a response format, and what
// the adapters keep their renderings of the answer on (Memo).
func answerTool[T any](c *answerCore, d *answerDecoder[T]) Tool {
	s := &state{name: c.name, description: c.description, strict: c.strict,
		inputInfo: c.info, inputJSON: &schemaJSON{info: c.info}}
	check := func(ctx context.Context, args []byte) (Result, bool) {
		if err := callContextError(ctx); err != nil {
			return cancelResult(err), false
		}
		if jsonwire.SkipSpace(args, 0) == len(args) {
			args = []byte("{}") // arguments: empty means {}
		}
		if _, err := d.decode(args); err != nil {
			return argResult(err), false
		}
		return Result{Output: "answer received"}, true
	}
	s.execJSON = func(ctx context.Context, args []byte) Result {
		res, _ := check(ctx, args)
		return res
	}
	s.execMap = func(ctx context.Context, args map[string]any) Result {
		raw, err := answerMapText(args, c.limits)
		if err != nil {
			return argResult(err)
		}
		return s.execJSON(ctx, raw)
	}
	s.splitJSON = func(ctx context.Context, args []byte, res *Result) Decoded {
		r, ok := check(ctx, args)
		*res = r
		if !ok {
			return nil
		}
		return &answerCall{args: append(json.RawMessage(nil), args...), res: res}
	}
	s.splitMap = func(ctx context.Context, args map[string]any, res *Result) Decoded {
		raw, err := answerMapText(args, c.limits)
		if err != nil {
			*res = argResult(err)
			return nil
		}
		return s.splitJSON(ctx, raw, res)
	}
	s.userDecode = func() bool {
		p, err := c.info.Plan()
		return err != nil || p.UserMethods()
	}
	return Tool{s: s}
}

// answerMapText is map arguments as JSON text, bounded first (a cyclic
// or very deep map would overflow json.Marshal's stack).
func answerMapText(args map[string]any, lim reflectx.Limits) ([]byte, error) {
	if args == nil {
		return []byte("{}"), nil
	}
	if err := reflectx.CheckMap(args, lim); err != nil {
		return nil, err
	}
	data, err := json.Marshal(args)
	if err != nil {
		return nil, &ArgErrors{Errs: []*ArgError{{Want: "a JSON object", Got: err.Error(), Err: ErrType}}}
	}
	return data, nil
}

// answerCall is a checked call of an answer's tool: its result is
// already known.
type answerCall struct {
	args json.RawMessage
	res  *Result
}

// Finish writes the call's result (already set by the decode).
func (c *answerCall) Finish(context.Context) {}

// Input returns the checked arguments (Decoded.Input).
func (c *answerCall) Input() any { return c.args }

// Format returns f itself, so that an AnswerFormat is an [AnyAnswer].
func (f AnswerFormat) Format() AnswerFormat { return f }

// IsZero reports whether f is the zero AnswerFormat.
func (f AnswerFormat) IsZero() bool { return f.c == nil }

// Name returns the answer's name: the schema's name for the providers
// that take one, and the tool's name in the forced-tool pattern.
func (f AnswerFormat) Name() string {
	if f.c == nil {
		return ""
	}
	return f.c.name
}

// Description returns the answer's description ([WithDescription]).
func (f AnswerFormat) Description() string {
	if f.c == nil {
		return ""
	}
	return f.c.description
}

// Wrapped reports whether the answer's type is carried as
// {"value": ...} ([WrappedKey]) because its JSON is not an object.
func (f AnswerFormat) Wrapped() bool { return f.c != nil && f.c.wrapped }

// Type returns the answer's Go type, T; nil for the zero AnswerFormat.
func (f AnswerFormat) Type() reflect.Type {
	if f.c == nil {
		return nil
	}
	return f.c.t
}

// Schema returns the canonical JSON Schema of the answer's text, as
// compact JSON (the wrapper object for a wrapped answer). The caller owns
// the slice. The adapters render it for each provider.
func (f AnswerFormat) Schema() json.RawMessage { return f.Tool().InputSchema() }

// SchemaTree returns the tree of [AnswerFormat.Schema]: a copy, which the
// caller owns.
func (f AnswerFormat) SchemaTree() *schema.Schema { return f.Tool().InputSchemaTree() }

// StrictPin reports the strictness pinned with [WithStrict]: pinned is
// false when the answer leaves it to the rendering.
func (f AnswerFormat) StrictPin() (strict, pinned bool) { return f.Tool().StrictPin() }

// Tool returns the answer as a tool of the same name, description and
// schema, for the providers (or models) that take a typed answer only as
// a forced tool call: send it among the request's tools and force a tool
// call. Calling it decodes its arguments as the answer, with the checks
// of Decode (a bad answer is an error Result naming each problem), and
// gives "answer received". The zero Tool for the zero AnswerFormat.
func (f AnswerFormat) Tool() Tool {
	if f.c == nil {
		return Tool{}
	}
	return f.c.tool
}

// String returns the answer's name and type, for debugging.
func (f AnswerFormat) String() string {
	if f.c == nil {
		return "define.Answer(zero)"
	}
	return "define.Answer(" + f.c.name + " " + f.c.t.String() + ")"
}
