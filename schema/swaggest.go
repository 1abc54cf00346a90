package schema

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/swaggest/jsonschema-go"

	"github.com/toolnexus/toolnexus/internal/fields"
)

// typeNotes is what the swaggest reflector tells about a type beyond its
// kind: a title and a description (the Titled and Described interfaces) and
// an enum (the Enum and NamedEnum interfaces).
type typeNotes struct {
	title, description string
	enum               []any
}

// reflectNotes runs swaggest's reflector over root and collects the notes of
// every type it visits.
//
// swaggest does the reflection of everything a type declares through
// swaggest's own interfaces; the structure, names, order, required set and
// field tags are computed by this package from the reflect.Type (swaggest
// sorts properties, requires nothing by default, reads bounds as float64,
// keeps comma-separated numeric enums as strings and makes slices nullable,
// none of which fits the rules the decoder shares). A new Reflector is used
// per call: a Reflector is not safe for concurrent use.
func reflectNotes(root reflect.Type) (notes map[reflect.Type]typeNotes, err error) {
	notes = map[reflect.Type]typeNotes{}
	if !usesSwaggestHooks(root) {
		// Nothing in the type graph can tell swaggest anything: its reflector
		// would find no notes. Skipping it halves the cost of a first ForType.
		return notes, nil
	}
	var lastPath []string
	defer func() {
		if p := recover(); p != nil {
			err = &TypeError{Type: root, Path: strings.Join(lastPath, "."), Err: ErrReflector,
				Msg: fmt.Sprintf("swaggest reflector panicked: %v", p)}
		}
	}()
	r := jsonschema.Reflector{}
	_, err = r.Reflect(reflect.New(root).Interface(),
		jsonschema.ProcessWithoutTags,
		jsonschema.InterceptProp(func(p jsonschema.InterceptPropParams) error {
			if !p.Processed {
				lastPath = append(lastPath[:0], p.Path[1:]...)
			}
			return nil
		}),
		jsonschema.InterceptSchema(func(p jsonschema.InterceptSchemaParams) (bool, error) {
			if !p.Processed || !p.Value.IsValid() {
				return false, nil
			}
			t := fields.Deref(p.Value.Type())
			var n typeNotes
			if p.Schema.Title != nil {
				n.title = *p.Schema.Title
			}
			if p.Schema.Description != nil {
				n.description = *p.Schema.Description
			}
			n.enum = p.Schema.Enum
			if n.title != "" || n.description != "" || n.enum != nil {
				notes[t] = n
			}
			return false, nil
		}),
	)
	if err != nil {
		return nil, &TypeError{Type: root, Path: strings.Join(lastPath, "."), Err: ErrReflector,
			Msg: "swaggest: " + err.Error()}
	}
	return notes, nil
}

// swaggestHooks are the interfaces through which a Go type can speak to
// swaggest's reflector about its own schema.
var swaggestHooks = []reflect.Type{
	reflect.TypeFor[jsonschema.Titled](),
	reflect.TypeFor[jsonschema.Described](),
	reflect.TypeFor[jsonschema.Enum](),
	reflect.TypeFor[jsonschema.NamedEnum](),
	reflect.TypeFor[jsonschema.Preparer](),
	reflect.TypeFor[jsonschema.Exposer](),
	reflect.TypeFor[jsonschema.RawExposer](),
	reflect.TypeFor[jsonschema.OneOfExposer](),
	reflect.TypeFor[jsonschema.AnyOfExposer](),
	reflect.TypeFor[jsonschema.AllOfExposer](),
	reflect.TypeFor[jsonschema.NotExposer](),
	reflect.TypeFor[jsonschema.IfExposer](),
	reflect.TypeFor[jsonschema.ThenExposer](),
	reflect.TypeFor[jsonschema.ElseExposer](),
	reflect.TypeFor[jsonschema.IgnoreTypeName](),
	reflect.TypeFor[jsonschema.SchemaInliner](),
	reflect.TypeFor[jsonschema.EmbedReferencer](),
}

// hookReach caches usesSwaggestHooks' complete answers per type: whether
// any type reachable from it implements one of swaggestHooks. A program has
// finitely many types, so the cache is bounded by the program; a duplicate
// computation under concurrent first use is harmless (the answers agree).
var hookReach sync.Map // reflect.Type -> bool

// implementsHook reports whether t or *t implements one of swaggestHooks.
// A type whose method sets are empty implements none of them, which spares
// most field types the seventeen Implements calls.
func implementsHook(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	if t.NumMethod() == 0 && pt.NumMethod() == 0 {
		return false
	}
	for _, h := range swaggestHooks {
		if t.Implements(h) || pt.Implements(h) {
			return true
		}
	}
	return false
}

// usesSwaggestHooks reports whether any type reachable from root (through
// fields, pointers, slices, arrays and maps) implements one of
// swaggestHooks, directly or through its pointer.
//
// Answers are remembered per type, so that the types every input shares
// (time.Time and what it reaches, a shared nested struct) are walked once
// per program. Only complete answers are stored: when the walk finds no
// hook, every type it visited reaches only types the root reaches, so
// each of them has none either; when it finds one, the types on the path
// to it (the root among them) all reach it. Answers found inside a cycle
// that is still being walked are never stored on their own.
func usesSwaggestHooks(root reflect.Type) bool {
	if v, ok := hookReach.Load(root); ok {
		return v.(bool)
	}
	var w hookWalk
	w.seen, w.path = w.seenBuf[:0], w.pathBuf[:0]
	found := w.walk(root)
	if found {
		for _, t := range w.path {
			hookReach.Store(t, true)
		}
	} else {
		for _, t := range w.seen {
			hookReach.Store(t, false)
		}
	}
	return found
}

// hookWalk is one walk of usesSwaggestHooks: the types it visited, and the
// path from the root to the type being visited. The visited types are
// looked up in a slice while few (a walk usually meets a handful of new
// types; the rest are answered by hookReach), then in a map.
type hookWalk struct {
	seen    []reflect.Type
	seenMap map[reflect.Type]bool
	path    []reflect.Type
	seenBuf [16]reflect.Type
	pathBuf [8]reflect.Type
}

// visit records t as seen and reports whether it was seen before.
func (w *hookWalk) visit(t reflect.Type) bool {
	if w.seenMap != nil {
		if w.seenMap[t] {
			return true
		}
		w.seenMap[t] = true
		w.seen = append(w.seen, t)
		return false
	}
	for _, s := range w.seen {
		if s == t {
			return true
		}
	}
	w.seen = append(w.seen, t)
	if len(w.seen) > len(w.seenBuf) {
		w.seenMap = make(map[reflect.Type]bool, 2*len(w.seen))
		for _, s := range w.seen {
			w.seenMap[s] = true
		}
	}
	return false
}

func (w *hookWalk) walk(t reflect.Type) bool {
	if v, ok := hookReach.Load(t); ok {
		return v.(bool)
	}
	if w.visit(t) {
		return false
	}
	w.path = append(w.path, t)
	if implementsHook(t) {
		return true
	}
	found := false
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		found = w.walk(t.Elem())
	case reflect.Map:
		found = w.walk(t.Key()) || w.walk(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if w.walk(t.Field(i).Type) {
				found = true
				break
			}
		}
	}
	if !found {
		w.path = w.path[:len(w.path)-1]
	}
	return found
}
