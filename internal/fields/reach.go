package fields

import (
	"reflect"

	"github.com/swaggest/jsonschema-go"
)

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

// ReachesSwaggestHooks reports whether any type reachable from root
// (through fields, pointers, slices, arrays and maps) implements one of
// swaggestHooks, directly or through its pointer: whether swaggest's
// reflector could tell the schema builder anything about it.
//
// Answers are remembered per type, so that the types every input shares
// (time.Time and what it reaches, a shared nested struct) are walked once
// per program. Only complete answers are stored: when the walk finds no
// hook, every type it visited reaches only types the root reaches, so
// each of them has none either; when it finds one, the types on the path
// to it (the root among them) all reach it. Answers found inside a cycle
// that is still being walked are never stored on their own.
func ReachesSwaggestHooks(root reflect.Type) bool {
	if v, ok := reachOf(root); ok {
		return v
	}
	var w hookWalk
	w.seen, w.path = w.seenBuf[:0], w.pathBuf[:0]
	found := w.walk(root)
	if found {
		for _, t := range w.path {
			factsOf(t).reach.Store(reachYes)
		}
	} else {
		for _, t := range w.seen {
			factsOf(t).reach.Store(reachNo)
		}
	}
	return found
}

// hookWalk is one walk of ReachesSwaggestHooks: the types it visited, and the
// path from the root to the type being visited. The visited types are
// looked up in a slice while few (a walk usually meets a handful of new
// types; the rest are answered by their facts), then in a map.
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
	if v, ok := reachOf(t); ok {
		return v
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

// The answers of ReachesSwaggestHooks kept in a type's facts (reach).
const (
	reachUnknown int32 = iota
	reachNo
	reachYes
)

// reachOf returns the answer kept for t, if any.
func reachOf(t reflect.Type) (yes, known bool) {
	switch factsOf(t).reach.Load() {
	case reachNo:
		return false, true
	case reachYes:
		return true, true
	}
	return false, false
}
