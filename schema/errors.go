package schema

import (
	"errors"
	"reflect"
	"strings"
)

// Sentinel errors wrapped by [*TypeError], for [errors.Is].
var (
	// ErrUnsupportedType: a Go type has no JSON Schema under our rules
	// (func, chan, complex, unsafe.Pointer, uintptr, a map with keys that are
	// neither strings nor integers, an interface with methods).
	ErrUnsupportedType = errors.New("unsupported type")
	// ErrInvalidTag: a struct tag is malformed, does not fit the field's
	// kind, names an unknown format, gives an empty range (min > max) or a
	// default that violates the field's own constraints.
	ErrInvalidTag = errors.New("invalid tag")
	// ErrNotObject: the root type does not produce a JSON object.
	ErrNotObject = errors.New("root is not an object")
	// ErrReflector: the underlying reflector (swaggest/jsonschema-go) failed.
	ErrReflector = errors.New("reflector failed")
)

// TypeError is a define-time problem with a Go type: the type cannot be
// turned into a schema that the argument decoder would honour.
type TypeError struct {
	Type reflect.Type // the type given to ForType
	// Path is the Go field path from Type to the problem, such as
	// "Filters.When", "Items[].Name" or "Meta{}.Note" ("[]" steps into a
	// slice or array element, "{}" into a map value); "" is the type itself.
	Path string
	Tag  string // the struct tag key at fault ("minimum"), or ""
	Msg  string // the problem, with a "consider …" hint where one helps
	Err  error  // one of the sentinels above
}

// Error names the Go type, the field path and the problem.
func (e *TypeError) Error() string {
	var b strings.Builder
	b.WriteString("schema: ForType(")
	if e.Type != nil {
		b.WriteString(e.Type.String())
	}
	b.WriteString("): ")
	if e.Path != "" {
		b.WriteString("field ")
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.Tag != "" {
		b.WriteString("tag ")
		b.WriteString(e.Tag)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the sentinel.
func (e *TypeError) Unwrap() error { return e.Err }
