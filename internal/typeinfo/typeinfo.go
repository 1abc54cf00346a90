// Package typeinfo is the library's one cache of what a Go type used by a
// tool costs to work out: whether it can be a tool's input (the
// object-root check, with its typed error), whether its builds can wait
// for first use, its schema tree, the JSON of that tree and its decode
// plan. Each is computed at most once per type and shared by every tool
// of that type; nothing else in the module caches trees or plans
// ([schema.ForType] and [reflectx.PlanFor] build afresh each call).
//
// An input type that cannot wait has its tree and plan built (and every
// error they can report found) when [Input] first sees it; a deferrable
// one ([Deferrable]) has them built by the first rendering or call, and
// those builds cannot fail.
//
//	info, err := typeinfo.Input(reflect.TypeFor[Args]())
//	tree := info.Schema() // shared: never modify it
//	plan, err := info.Plan()
package typeinfo

import (
	"errors"
	"reflect"
	"sync"

	"github.com/toolnexus/toolnexus/internal/fields"
	"github.com/toolnexus/toolnexus/internal/reflectx"
	"github.com/toolnexus/toolnexus/schema"
)

// Info is what is known of one Go type, built once and then shared; its
// methods are safe for concurrent use.
type Info struct {
	t    reflect.Type // the type as given (a pointer for *Args)
	base reflect.Type // t without a pointer: what the plan decodes

	treeOnce sync.Once
	tree     *schema.Schema

	jsonOnce sync.Once
	json     []byte

	planOnce sync.Once
	plan     *reflectx.Plan
	planErr  error
}

// inputs and outputs map reflect.Type to *Info. Two goroutines may compute
// the same entry at once; the first stored wins and the duplicate work is
// harmless. Errors are not cached (a failing type fails its definition,
// which a program does not repeat in a loop). A program has finitely many
// types, so the maps are bounded by them.
var inputs, outputs sync.Map

// Input returns the Info of t as a tool's input type: a struct, a map
// with string (or integer) keys or the empty interface, or a pointer to
// one. Any other type is a *schema.TypeError wrapping schema.ErrNotObject;
// a problem with the type's fields or tags is a *schema.TypeError with
// the field path. Errors have Role "input".
func Input(t reflect.Type) (*Info, error) {
	if v, ok := inputs.Load(t); ok {
		return v.(*Info), nil
	}
	info := &Info{t: t, base: fields.Deref(t)}
	if err := objectRoot(t, info.base); err != nil {
		return nil, role(err, "input")
	}
	if !Deferrable(info.base) {
		if err := info.buildNow(true); err != nil {
			return nil, role(err, "input")
		}
	}
	v, _ := inputs.LoadOrStore(t, info)
	return v.(*Info), nil
}

// Output returns the Info of t as a tool's output type, whose tree is
// built (and checked) at once. Errors have Role "output".
func Output(t reflect.Type) (*Info, error) {
	if v, ok := outputs.Load(t); ok {
		return v.(*Info), nil
	}
	info := &Info{t: t, base: fields.Deref(t)}
	if err := info.buildNow(false); err != nil {
		return nil, role(err, "output")
	}
	v, _ := outputs.LoadOrStore(t, info)
	return v.(*Info), nil
}

// buildNow builds the tree and the plan, which checks what the tree's
// rules leave to the decoder: defaults and examples, decoded with the
// field's own decoder and constraints. An output type's plan is built
// only to check them (its values are encoded, never decoded), so not
// for an output that cannot fail or that decodes itself (UnmarshalJSON:
// it has no field-by-field plan, which an input must have).
func (i *Info) buildNow(input bool) error {
	tree, err := schema.ForType(i.t)
	if err != nil {
		return err
	}
	i.treeOnce.Do(func() { i.tree = tree })
	if !input && (fields.UnmarshalsJSON(i.base) || Deferrable(i.base)) {
		return nil
	}
	plan, err := reflectx.PlanFor(i.base)
	if err != nil {
		return err
	}
	i.planOnce.Do(func() { i.plan = plan })
	return nil
}

// objectRoot is the object-root check of an input type: its JSON must be
// an object, since a model's arguments are one.
func objectRoot(t, base reflect.Type) error {
	switch base.Kind() {
	case reflect.Struct, reflect.Map, reflect.Interface:
		return nil
	}
	return &schema.TypeError{Type: t, Err: schema.ErrNotObject,
		Msg: "arguments are a JSON object, so the input must be a struct, a pointer to a struct, a map with string keys or any (consider wrapping it in a struct)"}
}

// role gives a define-time error its one shape: a *schema.TypeError about
// the type, marked with the role the type plays in the tool.
func role(err error, r string) error {
	var te *schema.TypeError
	if !errors.As(err, &te) {
		var fe *fields.Error
		if !errors.As(err, &fe) {
			return err
		}
		te = (*schema.TypeError)(fe)
	}
	cp := *te
	cp.Role = r
	return &cp
}

// Schema returns the type's schema tree, shared by every caller (never
// modify it), building it on first use. A deferred build cannot fail;
// should that promise break, the tree is the empty object schema rather
// than nil.
func (i *Info) Schema() *schema.Schema {
	i.treeOnce.Do(func() {
		tree, err := schema.ForType(i.t)
		if err != nil {
			tree = &schema.Schema{Types: []string{"object"}}
		}
		i.tree = tree
	})
	return i.tree
}

// JSON returns the JSON encoding of the tree, shared (never modify it),
// encoding it on first use. An inferred tree holds only values that
// internal/fields has checked, so its encoding cannot fail; were it ever
// to, JSON returns nil rather than a truncated schema.
func (i *Info) JSON() []byte {
	i.jsonOnce.Do(func() {
		if data, err := i.Schema().MarshalJSON(); err == nil {
			i.json = data
		}
	})
	return i.json
}

// Plan returns the decode plan of the type (its pointee for a pointer),
// building it on first use.
func (i *Info) Plan() (*reflectx.Plan, error) {
	i.planOnce.Do(func() {
		if i.plan, i.planErr = reflectx.PlanFor(i.base); i.planErr != nil {
			i.planErr = role(i.planErr, "input")
		}
	})
	return i.plan, i.planErr
}

// Deferrable reports whether the tree and plan of t may wait for first
// use: whether everything that can make their builds fail has been
// checked already by the field rules of internal/fields, which Deferrable
// itself runs over every reachable struct ([fields.Describe]). It is true
// when, in every type reachable from t through fields, pointers, slices,
// arrays and maps:
//
//   - [fields.KindOf] accepts the type;
//   - no type other than time.Time and json.RawMessage has a method, on
//     the value or its pointer (map keys included): such a type may declare
//     an enum, swaggest keywords (its reflector then runs) or its own
//     decoding, which only the builds compile and check;
//   - no field has a default, example or examples tag (items.example and
//     the like included): the plan checks those by decoding them;
//   - no field has an enum tag beside other constraints on its values (a
//     const, bounds, lengths, a pattern, a format; items.enum and the like
//     included): the plan checks every member against them.
//
// What remains of the builds (the tree of described fields, the cycle
// search, $defs names, the compiled constraints) reads the same cached
// field descriptions and patterns the rules accepted and has no error
// path. A type whose fields cannot be described is not deferrable (its
// definition fails anyway).
func Deferrable(t reflect.Type) bool {
	if t == nil {
		return false
	}
	seen := map[reflect.Type]bool{}
	var ok func(t reflect.Type) bool
	ok = func(t reflect.Type) bool {
		if t == fields.TypeTime || t == fields.TypeRawMessage || seen[t] {
			return true
		}
		seen[t] = true
		if _, err := fields.KindOf(t); err != nil {
			return false
		}
		switch t.Kind() {
		case reflect.Pointer:
			return ok(t.Elem())
		case reflect.Interface:
			return true // (KindOf accepts only the empty interface)
		}
		if t.NumMethod() > 0 || reflect.PointerTo(t).NumMethod() > 0 {
			return false
		}
		switch t.Kind() {
		case reflect.Map:
			return ok(t.Key()) && ok(t.Elem())
		case reflect.Slice, reflect.Array:
			return ok(t.Elem())
		case reflect.Struct:
			fs, err := fields.Describe(t)
			if err != nil {
				return false
			}
			for _, f := range fs {
				if r := f.Rules; r.HasDefault || r.HasExamples() || membersChecked(r) || !ok(f.Type) {
					return false
				}
			}
		}
		return true
	}
	return ok(fields.Deref(t))
}

// membersChecked reports whether r, or the rules of its elements, have an
// enum whose members the plan checks against other constraints.
func membersChecked(r *fields.Rules) bool {
	for ; r != nil; r = r.Elem {
		if r.Enum != nil && (r.HasConst || r.Lower != nil || r.Upper != nil || r.MultipleOf != nil ||
			r.MinLength >= 0 || r.MaxLength >= 0 || r.Pattern != "" || r.Format != "") {
			return true
		}
	}
	return false
}
