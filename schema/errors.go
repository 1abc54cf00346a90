package schema

import (
	"errors"
	"reflect"
	"strings"

	"github.com/toolnexus/toolnexus/internal/fields"
)

// Sentinel errors wrapped by [*TypeError], for [errors.Is].
var (
	// ErrUnsupportedType: a Go type has no JSON Schema under our rules
	// (func, chan, complex, unsafe.Pointer, uintptr, a map with keys that are
	// neither strings nor integers, an interface with methods), or a type
	// implements an interface of swaggest/jsonschema-go whose keywords the
	// decoder cannot enforce (the oneOf, anyOf, allOf, not and if/then/else
	// exposers).
	ErrUnsupportedType = fields.ErrUnsupportedType
	// ErrInvalidTag: a struct tag is malformed, does not fit the field's
	// kind, names an unknown format, gives an empty range (min > max) or a
	// default that violates the field's own constraints.
	ErrInvalidTag = fields.ErrInvalidTag
	// ErrNotObject: the root type does not produce a JSON object.
	ErrNotObject = fields.ErrNotObject
	// ErrReflector: the underlying reflector (swaggest/jsonschema-go) failed.
	ErrReflector = fields.ErrReflector
)

// TypeError is a define-time problem with a Go type: the type cannot be
// turned into a schema that the argument decoder would honour. Every
// define-time error of this module about a type has this type, whether
// [ForType] or DefineTool (define package) finds it; DefineTool's also
// carry the Role the type plays in the tool, and are wrapped with the
// tool's name (define: tool "search": input type main.Args: field ...).
type TypeError struct {
	Type reflect.Type // the type given to ForType
	// Path is the Go field path from Type to the problem, such as
	// "Filters.When", "Items[].Name" or "Meta{}.Note" ("[]" steps into a
	// slice or array element, "{}" into a map value); "" is the type itself.
	Path string
	Tag  string // the struct tag key at fault ("minimum"), or ""
	Msg  string // the problem, with a "consider …" hint where one helps
	Err  error  // one of the sentinels above
	// Role is "input" or "output" when a tool's definition found the
	// problem (the type is the tool's In or Out), "" when ForType did.
	Role string
}

// Error names the Go type, the field path and the problem, after
// "schema: ForType(T): " or, with a Role, "input type T: ".
func (e *TypeError) Error() string {
	var b strings.Builder
	typ := "<nil>"
	if e.Type != nil {
		typ = e.Type.String()
	}
	if e.Role != "" {
		b.WriteString(e.Role)
		b.WriteString(" type ")
		b.WriteString(typ)
		b.WriteString(": ")
	} else {
		b.WriteString("schema: ForType(")
		if e.Type != nil {
			b.WriteString(typ)
		}
		b.WriteString("): ")
	}
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

// typeError converts a define-time error of internal/fields (or the decode
// plan built from it) to a *TypeError about root, with its path under
// prefix. Other errors pass through.
func typeError(err error, prefix string, root reflect.Type) error {
	var fe *fields.Error
	if !errors.As(fields.Under(err, prefix, root), &fe) {
		return err
	}
	return (*TypeError)(fe)
}
