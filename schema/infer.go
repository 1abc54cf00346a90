package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus/internal/fields"
	"github.com/toolnexus/toolnexus/internal/formats"
)

// For returns the canonical schema of T; see [ForType] for the rules.
func For[T any]() (*Schema, error) { return ForType(reflect.TypeFor[T]()) }

// ForType returns the canonical JSON Schema of the Go type t, the input type
// of a tool. Each call builds a fresh tree that the caller owns (the define
// package keeps one per type for its tools), and ForType is safe for
// concurrent use.
//
// The root must produce a JSON object: a struct, a pointer to one, a map with
// string or integer keys, or an empty interface (any, which gives the open
// object {"type":"object","properties":{}}). Anything else is an error
// wrapping [ErrNotObject].
//
// Types map as follows (the rules the argument decoder shares):
//   - bool → boolean; int, int64 → integer; int8, int16, int32 → integer with
//     the type's minimum and maximum; uint, uint64 → integer with minimum 0;
//     uint8, uint16, uint32 → integer with minimum 0 and the type's maximum;
//     float32, float64 → number; string → string;
//   - []byte → {"type":"string","contentEncoding":"base64"};
//     time.Time → {"type":"string","format":"date-time"};
//     json.RawMessage and any → {} (any JSON value); another
//     [encoding.TextUnmarshaler] → {"type":"string"};
//   - []T → array of T; [N]T → array of T with minItems = maxItems = N;
//   - map[K]T with string or integer keys → object with additionalProperties T;
//     integer keys add "propertyNames": {"pattern": "^(0|-?[1-9][0-9]*)$"}
//     (without "-?" for unsigned keys): the integer in canonical form;
//   - struct → closed object ("additionalProperties": false) whose properties
//     follow Go field order, named and flattened as encoding/json does; a
//     property is required unless its json tag has omitempty or omitzero, it
//     is a pointer, or it has a default tag; required:"true" and
//     required:"false" override (required:"true" with a default is an
//     error: the default would never be used);
//   - *T → T with "null" added to its type (and to its enum), or
//     anyOf [{"$ref":…},{"type":"null"}] for a referenced type;
//   - types in a cycle are written once under $defs and referenced as
//     "#/$defs/Name"; every other type is inlined where it is used;
//   - func, chan, complex, unsafe.Pointer, uintptr, maps with other keys and
//     interfaces with methods are errors wrapping [ErrUnsupportedType].
//
// Constraint tags use swaggest's names (description, title, example,
// examples, deprecated, readOnly, writeOnly, enum, const, default, minimum,
// maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minLength,
// maxLength, pattern, format, minItems, maxItems, uniqueItems, minProperties,
// maxProperties) and apply to the field's own schema after removing a
// pointer. The same names after items. (a slice or array) or values. (a
// map) apply to every element: items.format:"email" on a []string puts
// "format": "email" under "items". The jsonschema tags of
// google/jsonschema-go, invopop/jsonschema and mcp-go are read too, as the
// swaggest tags that say the same (docs/schema.md has the table). A tag that does not fit the field's kind, a malformed value, an
// unknown format, an empty range or a default that is not a value of the
// field's type is an error wrapping [ErrInvalidTag]. (Whether a default,
// an example or an enum member meets the field's other constraints is
// checked by the decoder, as a call's value would be, when a tool of the
// type is defined.) Errors are [*TypeError]s
// naming the Go type and the field path.
func ForType(t reflect.Type) (*Schema, error) {
	if t == nil {
		return nil, &TypeError{Msg: "nil type", Err: ErrNotObject}
	}
	return build(t)
}

// build computes the schema of root.
func build(root reflect.Type) (*Schema, error) {
	t := fields.Deref(root)
	b := &builder{root: root}
	k, err := fields.KindOf(t)
	switch {
	case err != nil:
		return nil, b.wrap(err, "")
	case k == fields.Any, k == fields.Raw:
		return &Schema{Types: []string{"object"}}, nil
	case k == fields.Struct, k == fields.Map:
	default:
		return nil, b.errf("", "", ErrNotObject,
			"the root type %s is not an object (consider a struct with one field)", t)
	}

	// Our own rules first, so that their errors (with field paths and
	// hints) win over swaggest's; then again with swaggest's notes, when
	// there are any. (Defaults and examples of fields that are not
	// scalars are checked by the decoder, which decodes them, when a tool
	// of the type is defined.)
	s, err := b.buildRoot(t)
	if err != nil {
		return nil, err
	}
	notes, err := reflectNotes(root)
	if err != nil {
		return nil, err
	}
	if len(notes) == 0 {
		return s, nil // the second build would give the same tree
	}
	b = &builder{root: root, notes: notes}
	return b.buildRoot(t)
}

func (b *builder) buildRoot(t reflect.Type) (*Schema, error) {
	b.findCycles(t)
	s, err := b.typeSchema(t, "", true)
	if err != nil {
		return nil, err
	}
	// Build $defs: each recursive type once, in a deterministic order, until
	// no new ones are referenced.
	for len(b.pending) > 0 {
		dt := b.pending[0]
		b.pending = b.pending[1:]
		body, err := b.typeSchema(dt, b.defPaths[dt], true)
		if err != nil {
			return nil, err
		}
		s.Defs = append(s.Defs, Def{Name: b.defNames[dt], Schema: body})
	}
	slices.SortFunc(s.Defs, func(a, b Def) int { return strings.Compare(a.Name, b.Name) })
	return s, nil
}

type builder struct {
	root  reflect.Type
	notes map[reflect.Type]typeNotes

	cyclic   map[reflect.Type]bool   // types emitted under $defs
	defNames map[reflect.Type]string // their names
	defPaths map[reflect.Type]string // the field path of their first use
	queued   map[reflect.Type]bool
	pending  []reflect.Type
}

func (b *builder) errf(path, tag string, sentinel error, format string, args ...any) *TypeError {
	return &TypeError{Type: b.root, Path: path, Tag: tag, Msg: fmt.Sprintf(format, args...), Err: sentinel}
}

// wrap turns an error of internal/fields at path into a *TypeError.
func (b *builder) wrap(err error, path string) error { return typeError(err, path, b.root) }

// edges lists the types t's schema is made of, pointers removed. A type
// the rules reject has none (building it reports the error).
func (b *builder) edges(t reflect.Type) []reflect.Type {
	k, err := fields.KindOf(t)
	if err != nil {
		return nil
	}
	switch k {
	case fields.Struct:
		fs, err := fields.Describe(t)
		if err != nil {
			return nil
		}
		out := make([]reflect.Type, 0, len(fs))
		for _, f := range fs {
			out = append(out, fields.Deref(f.Type))
		}
		return out
	case fields.Slice, fields.Array, fields.Map:
		return []reflect.Type{fields.Deref(t.Elem())}
	}
	return nil
}

// findCycles marks every named type that lies on a cycle of the type graph
// reachable from root (Tarjan's strongly connected components) and names
// them for $defs.
func (b *builder) findCycles(root reflect.Type) {
	b.cyclic = map[reflect.Type]bool{}
	index := map[reflect.Type]int{}
	low := map[reflect.Type]int{}
	onStack := map[reflect.Type]bool{}
	var stack []reflect.Type
	next := 0
	var strong func(v reflect.Type)
	strong = func(v reflect.Type) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		selfLoop := false
		for _, w := range b.edges(v) {
			if w == v {
				selfLoop = true
			}
			if _, seen := index[w]; !seen {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var comp []reflect.Type
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			comp = append(comp, w)
			if w == v {
				break
			}
		}
		if len(comp) > 1 || selfLoop {
			for _, w := range comp {
				if w.Name() != "" {
					b.cyclic[w] = true
				}
			}
		}
	}
	strong(root)
	b.nameDefs()
}

var (
	nonNameChars = regexp.MustCompile(`[^A-Za-z0-9_.\-]+`)
	importPaths  = regexp.MustCompile(`[\w./-]*/`)
)

// nameDefs names the $defs: the Go type name, with the package name in
// front when two cyclic types share a name, and a number after as a last
// resort. Generic arguments are reduced to package.Name.
func (b *builder) nameDefs() {
	b.defNames = map[reflect.Type]string{}
	b.defPaths = map[reflect.Type]string{}
	b.queued = map[reflect.Type]bool{}
	types := make([]reflect.Type, 0, len(b.cyclic))
	for t := range b.cyclic {
		types = append(types, t)
	}
	slices.SortFunc(types, func(x, y reflect.Type) int {
		return strings.Compare(x.PkgPath()+"."+x.Name(), y.PkgPath()+"."+y.Name())
	})
	short := func(t reflect.Type) string { return cleanName(t.Name()) }
	qualified := func(t reflect.Type) string {
		pkg := t.PkgPath()
		if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
			pkg = pkg[i+1:]
		}
		if pkg == "" {
			return short(t)
		}
		return cleanName(pkg) + "." + short(t)
	}
	count := map[string]int{}
	for _, t := range types {
		count[short(t)]++
	}
	used := map[string]bool{}
	for _, t := range types {
		name := short(t)
		if count[name] > 1 {
			name = qualified(t)
		}
		base := name
		for i := 2; used[name]; i++ {
			name = base + strconv.Itoa(i)
		}
		used[name] = true
		b.defNames[t] = name
	}
}

// cleanName turns a Go type name into a $defs key: generic arguments lose
// their import path, and characters outside [A-Za-z0-9_.-] become "_".
func cleanName(name string) string {
	name = importPaths.ReplaceAllString(name, "")
	return strings.Trim(nonNameChars.ReplaceAllString(name, "_"), "_")
}

// ref returns the $ref to the cyclic type t, queueing its definition.
func (b *builder) ref(t reflect.Type, path string) string {
	if !b.queued[t] {
		b.queued[t] = true
		b.defPaths[t] = path
		b.pending = append(b.pending, t)
	}
	return "#/$defs/" + b.defNames[t]
}

// typeSchema returns the schema of t (no pointer) itself, without anything a
// field's tags add. A cyclic type becomes a $ref unless body is set.
func (b *builder) typeSchema(t reflect.Type, path string, body bool) (*Schema, error) {
	if b.cyclic[t] && !body {
		return &Schema{Ref: b.ref(t, path)}, nil
	}
	if err := fields.CheckHooks(t); err != nil {
		return nil, b.wrap(err, path)
	}
	s, err := b.kindSchema(t, path)
	if err != nil {
		return nil, err
	}
	if n, ok := b.notes[t]; ok {
		s.Title = n.title
		s.Description = n.description
		if n.enum != nil {
			vals, err := b.typeEnum(t, n.enum, path)
			if err != nil {
				return nil, err
			}
			s.Enum = vals
		}
	}
	tr, err := fields.TypeRules(t)
	if err != nil {
		return nil, b.wrap(err, path)
	}
	if tr != nil {
		applyRules(s, tr)
	}
	return s, nil
}

func (b *builder) kindSchema(t reflect.Type, path string) (*Schema, error) {
	k, err := fields.KindOf(t)
	if err != nil {
		return nil, b.wrap(err, path)
	}
	s := &Schema{}
	switch k {
	case fields.Time:
		s.Types, s.Format = []string{"string"}, "date-time"
	case fields.Raw, fields.Any:
	case fields.Text:
		s.Types = []string{"string"}
	case fields.Bytes:
		s.Types, s.ContentEncoding = []string{"string"}, "base64"
	case fields.Bool:
		s.Types = []string{"boolean"}
	case fields.Int, fields.Uint:
		s.Types = []string{"integer"}
		lo, hi := fields.IntRange(t.Kind())
		if t.Bits() < 64 || k == fields.Uint {
			s.Minimum = json.Number(lo.String())
		}
		if t.Bits() < 64 {
			s.Maximum = json.Number(hi.String())
		}
	case fields.Float, fields.JSONNumber:
		s.Types = []string{"number"}
	case fields.String:
		s.Types = []string{"string"}
	case fields.Slice, fields.Array:
		items, err := b.elemSchema(t.Elem(), path+"[]")
		if err != nil {
			return nil, err
		}
		s.Types, s.Items = []string{"array"}, items
		if k == fields.Array {
			n := int64(t.Len())
			s.MinItems, s.MaxItems = &n, ptr(n)
		}
	case fields.Map:
		switch t.Key().Kind() {
		case reflect.String:
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			s.PropertyNames = &Schema{Pattern: formats.IntKeyPattern}
		default:
			s.PropertyNames = &Schema{Pattern: formats.UintKeyPattern}
		}
		items, err := b.elemSchema(t.Elem(), path+"{}")
		if err != nil {
			return nil, err
		}
		s.Types, s.AdditionalProperties = []string{"object"}, items
	case fields.Struct:
		if err := b.structSchema(t, path, s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// elemSchema is the schema of a slice, array or map element: the element
// type, nullable when it is a pointer.
func (b *builder) elemSchema(t reflect.Type, path string) (*Schema, error) {
	s, err := b.typeSchema(fields.Deref(t), path, false)
	if err != nil {
		return nil, err
	}
	if t.Kind() == reflect.Pointer {
		s = nullable(s)
	}
	return s, nil
}

func (b *builder) structSchema(t reflect.Type, path string, s *Schema) error {
	s.Types = []string{"object"}
	s.AdditionalProperties = False()
	fs, err := fields.Describe(t)
	if err != nil {
		return b.wrap(err, path)
	}
	for _, f := range fs {
		fpath := fields.Join(path, f.GoPath)
		ps, err := b.fieldSchema(f, fpath)
		if err != nil {
			return err
		}
		s.Properties = append(s.Properties, Property{Name: f.Name, Schema: ps})
		if f.Required {
			s.Required = append(s.Required, f.Name)
		}
	}
	return nil
}

// fieldSchema returns the schema of one struct field.
func (b *builder) fieldSchema(f fields.Field, path string) (*Schema, error) {
	return b.ruledSchema(f.Type, f.Rules, path)
}

// ruledSchema returns the schema of type t with the rules r of a field's
// tags: those of t itself, and through r.Elem those of its items
// (items.*) or its values (values.*), which replace the element schema
// with one that carries them.
func (b *builder) ruledSchema(t reflect.Type, r *fields.Rules, path string) (*Schema, error) {
	base := fields.Deref(t)
	s, err := b.typeSchema(base, path, false)
	if err != nil {
		return nil, err
	}
	if s.Ref != "" {
		s = &Schema{Ref: s.Ref}
	}
	applyRules(s, r)
	if r.Elem != nil {
		switch base.Kind() {
		case reflect.Slice, reflect.Array:
			if s.Items, err = b.ruledSchema(base.Elem(), r.Elem, path+"[]"); err != nil {
				return nil, err
			}
		case reflect.Map:
			if s.AdditionalProperties, err = b.ruledSchema(base.Elem(), r.Elem, path+"{}"); err != nil {
				return nil, err
			}
		}
	}
	if t.Kind() == reflect.Pointer {
		s = nullable(s)
	}
	return s, nil
}

// nullable adds null to the values s accepts: to its type (and its enum), or
// through anyOf for a $ref. The empty schema {} already accepts null.
func nullable(s *Schema) *Schema {
	switch {
	case s.Ref != "":
		s.AnyOf = []*Schema{{Ref: s.Ref}, {Types: []string{"null"}}}
		s.Ref = ""
	case len(s.Types) > 0 && !s.HasType("null"):
		s.Types = append(s.Types, "null")
		if s.HasConst {
			s.Enum = []any{s.Const, nil}
			s.Const, s.HasConst = nil, false
		} else if s.Enum != nil && !slices.Contains(s.Enum, nil) {
			s.Enum = append(s.Enum, nil)
		}
	}
	return s
}

func ptr[T any](v T) *T { return &v }
