package schema

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolnexus/toolnexus/internal/formats"
)

var (
	typeTime            = reflect.TypeFor[time.Time]()
	typeRawMessage      = reflect.TypeFor[json.RawMessage]()
	typeTextUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// cache maps reflect.Type to the immutable *Schema built for it (or the
// error). Two goroutines may build the same type at once; the duplicate work
// is harmless and LoadOrStore keeps one result. Cached schemas are never
// handed out: callers get clones.
var cache sync.Map // reflect.Type → cacheEntry

type cacheEntry struct {
	s   *Schema
	err error
}

// For returns the canonical schema of T; see [ForType] for the rules.
func For[T any]() (*Schema, error) { return ForType(reflect.TypeFor[T]()) }

// ForType returns the canonical JSON Schema of the Go type t, the input type
// of a tool. The result is a fresh copy that the caller owns; the work is
// cached per type, and ForType is safe for concurrent use.
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
// pointer. A tag that does not fit the field's kind, a malformed value, an
// unknown format, an empty range or a default that breaks the field's own
// constraints is an error wrapping [ErrInvalidTag]. Errors are [*TypeError]s
// naming the Go type and the field path.
func ForType(t reflect.Type) (*Schema, error) {
	if t == nil {
		return nil, &TypeError{Msg: "nil type", Err: ErrNotObject}
	}
	if e, ok := cache.Load(t); ok {
		ce := e.(cacheEntry)
		return ce.s.Clone(), ce.err
	}
	s, err := build(t)
	if err != nil {
		s = nil
	}
	e, _ := cache.LoadOrStore(t, cacheEntry{s: s, err: err})
	ce := e.(cacheEntry)
	return ce.s.Clone(), ce.err
}

// build computes the schema of root without the cache.
func build(root reflect.Type) (*Schema, error) {
	t := root
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	b := &builder{root: root, fields: map[reflect.Type][]field{}}
	switch {
	case t.Kind() == reflect.Interface && t.NumMethod() == 0, t == typeRawMessage:
		return &Schema{Types: []string{"object"}}, nil
	case t.Kind() == reflect.Struct && !isTextType(t) && t != typeTime,
		t.Kind() == reflect.Map && !isTextType(t):
	default:
		return nil, b.errf("", "", ErrNotObject,
			"the root type %s is not an object (consider a struct with one field)", t)
	}

	// Our own rules first, so that their errors (with field paths and
	// hints) win over swaggest's; then again with swaggest's notes.
	if _, err := b.buildRoot(t); err != nil {
		return nil, err
	}
	notes, err := reflectNotes(root)
	if err != nil {
		return nil, err
	}
	b = &builder{root: root, fields: b.fields, notes: notes}
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
	root   reflect.Type
	notes  map[reflect.Type]typeNotes
	fields map[reflect.Type][]field

	cyclic   map[reflect.Type]bool   // types emitted under $defs
	defNames map[reflect.Type]string // their names
	defPaths map[reflect.Type]string // the field path of their first use
	queued   map[reflect.Type]bool
	pending  []reflect.Type
}

func (b *builder) errf(path, tag string, sentinel error, format string, args ...any) *TypeError {
	return &TypeError{Type: b.root, Path: path, Tag: tag, Msg: fmt.Sprintf(format, args...), Err: sentinel}
}

func (b *builder) structFields(t reflect.Type) []field {
	fs, ok := b.fields[t]
	if !ok {
		fs = typeFields(t)
		b.fields[t] = fs
	}
	return fs
}

// isTextType reports whether t is written as a plain JSON string through
// encoding.TextUnmarshaler (time.Time excepted: it has its own format).
func isTextType(t reflect.Type) bool {
	if t == typeTime {
		return false
	}
	return t.Implements(typeTextUnmarshaler) || reflect.PointerTo(t).Implements(typeTextUnmarshaler)
}

// isLeaf reports whether t's schema does not depend on other types.
func isLeaf(t reflect.Type) bool {
	return t == typeTime || t == typeRawMessage || isTextType(t) ||
		t.Kind() == reflect.Interface ||
		(t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8)
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// edges lists the types t's schema is made of, pointers removed.
func (b *builder) edges(t reflect.Type) []reflect.Type {
	if isLeaf(t) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		var out []reflect.Type
		for _, f := range b.structFields(t) {
			out = append(out, deref(f.typ))
		}
		return out
	case reflect.Slice, reflect.Array, reflect.Map:
		return []reflect.Type{deref(t.Elem())}
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
	s, err := b.kindSchema(t, path)
	if err != nil {
		return nil, err
	}
	if n, ok := b.notes[t]; ok {
		s.Title = n.title
		s.Description = n.description
		if n.enum != nil {
			vals, err := b.notesEnum(t, n.enum, path)
			if err != nil {
				return nil, err
			}
			s.Enum = vals
		}
	}
	return s, nil
}

func (b *builder) kindSchema(t reflect.Type, path string) (*Schema, error) {
	switch {
	case t == typeTime:
		return &Schema{Types: []string{"string"}, Format: "date-time"}, nil
	case t == typeRawMessage:
		return &Schema{}, nil
	case t.Kind() == reflect.Interface:
		if t.NumMethod() > 0 {
			return nil, b.errf(path, "", ErrUnsupportedType,
				"unsupported type %s: an interface with methods cannot be decoded (consider any or a concrete type)", t)
		}
		return &Schema{}, nil
	case isTextType(t):
		return &Schema{Types: []string{"string"}}, nil
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		return &Schema{Types: []string{"string"}, ContentEncoding: "base64"}, nil
	}
	s := &Schema{}
	switch t.Kind() {
	case reflect.Bool:
		s.Types = []string{"boolean"}
	case reflect.Int, reflect.Int64:
		s.Types = []string{"integer"}
	case reflect.Int8:
		s.Types, s.Minimum, s.Maximum = []string{"integer"}, num(math.MinInt8), num(math.MaxInt8)
	case reflect.Int16:
		s.Types, s.Minimum, s.Maximum = []string{"integer"}, num(math.MinInt16), num(math.MaxInt16)
	case reflect.Int32:
		s.Types, s.Minimum, s.Maximum = []string{"integer"}, num(math.MinInt32), num(math.MaxInt32)
	case reflect.Uint, reflect.Uint64:
		s.Types, s.Minimum = []string{"integer"}, "0"
	case reflect.Uint8:
		s.Types, s.Minimum, s.Maximum = []string{"integer"}, "0", num(math.MaxUint8)
	case reflect.Uint16:
		s.Types, s.Minimum, s.Maximum = []string{"integer"}, "0", num(math.MaxUint16)
	case reflect.Uint32:
		s.Types, s.Minimum, s.Maximum = []string{"integer"}, "0", num(math.MaxUint32)
	case reflect.Float32, reflect.Float64:
		s.Types = []string{"number"}
	case reflect.String:
		s.Types = []string{"string"}
	case reflect.Slice, reflect.Array:
		items, err := b.elemSchema(t.Elem(), path+"[]")
		if err != nil {
			return nil, err
		}
		s.Types, s.Items = []string{"array"}, items
		if t.Kind() == reflect.Array {
			n := int64(t.Len())
			s.MinItems, s.MaxItems = &n, ptr(n)
		}
	case reflect.Map:
		switch t.Key().Kind() {
		case reflect.String:
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			s.PropertyNames = &Schema{Pattern: formats.IntKeyPattern}
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			s.PropertyNames = &Schema{Pattern: formats.UintKeyPattern}
		default:
			return nil, b.errf(path, "", ErrUnsupportedType,
				"unsupported type %s: map keys must be strings or integers (consider map[string]%s)", t, t.Elem())
		}
		items, err := b.elemSchema(t.Elem(), path+"{}")
		if err != nil {
			return nil, err
		}
		s.Types, s.AdditionalProperties = []string{"object"}, items
	case reflect.Struct:
		if err := b.structSchema(t, path, s); err != nil {
			return nil, err
		}
	default:
		hint := "consider leaving it out of the arguments with json:\"-\""
		switch t.Kind() {
		case reflect.Complex64, reflect.Complex128:
			hint = "consider two float64 fields"
		case reflect.Uintptr:
			hint = "consider uint64"
		}
		return nil, b.errf(path, "", ErrUnsupportedType, "unsupported type %s (%s)", t, hint)
	}
	return s, nil
}

// elemSchema is the schema of a slice, array or map element: the element
// type, nullable when it is a pointer.
func (b *builder) elemSchema(t reflect.Type, path string) (*Schema, error) {
	s, err := b.typeSchema(deref(t), path, false)
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
	for _, f := range b.structFields(t) {
		fpath := f.goPath
		if path != "" {
			fpath = path + "." + f.goPath
		}
		if f.embedPtrUnexported != "" {
			return b.errf(fpath, "", ErrUnsupportedType,
				"reached through %s, an embedded pointer to an unexported struct type, which cannot be allocated when decoding (consider embedding it by value)",
				f.embedPtrUnexported)
		}
		if f.quoted {
			return b.errf(fpath, "json", ErrInvalidTag,
				`the ",string" option is not supported (consider a string field)`)
		}
		ps, required, err := b.fieldSchema(f, fpath)
		if err != nil {
			return err
		}
		s.Properties = append(s.Properties, Property{Name: f.name, Schema: ps})
		if required {
			s.Required = append(s.Required, f.name)
		}
	}
	return nil
}

// fieldSchema returns the schema of one struct field and whether the field
// is required.
func (b *builder) fieldSchema(f field, path string) (*Schema, bool, error) {
	t := deref(f.typ)
	s, err := b.typeSchema(t, path, false)
	if err != nil {
		return nil, false, err
	}
	if s.Ref != "" {
		s = &Schema{Ref: s.Ref}
	}
	tags, err := b.applyTags(s, t, f, path)
	if err != nil {
		return nil, false, err
	}
	isPtr := f.typ.Kind() == reflect.Pointer
	required := !f.omitEmpty && !f.omitZero && !isPtr && !tags.hasDefault
	if tags.required != nil {
		required = *tags.required
	}
	if isPtr {
		s = nullable(s)
	}
	return s, required, nil
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

func num(v int64) json.Number { return json.Number(strconv.FormatInt(v, 10)) }

func ptr[T any](v T) *T { return &v }
