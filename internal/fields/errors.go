package fields

import (
	"errors"
	"fmt"
	"reflect"
)

// The sentinels of define-time problems. schema re-exports them as
// schema.ErrUnsupportedType, schema.ErrInvalidTag, schema.ErrNotObject and
// schema.ErrReflector.
var (
	ErrUnsupportedType = errors.New("unsupported type")
	ErrInvalidTag      = errors.New("invalid tag")
	ErrNotObject       = errors.New("root is not an object")
	ErrReflector       = errors.New("reflector failed")
)

// Error is a define-time problem with a Go type. Its layout is that of
// schema.TypeError, which is what users see: schema converts a *Error to a
// *schema.TypeError with a plain pointer conversion.
type Error struct {
	Type reflect.Type // the type given to the entry point; set by At
	Path string       // the Go field path, "Filters.When", "Items[].Name", "Meta{}.Note"
	Tag  string       // the struct tag key at fault, or ""
	Msg  string
	Err  error  // one of the sentinels
	Role string // "input" or "output" when a tool's definition found it (schema.TypeError.Role)
}

// Error is the message without the entry point's prefix (schema adds it).
func (e *Error) Error() string {
	s := e.Msg
	if e.Tag != "" {
		s = "tag " + e.Tag + ": " + s
	}
	if e.Path != "" {
		s = "field " + e.Path + ": " + s
	}
	return s
}

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.Err }

// errorf returns an *Error at the field path (relative to the type being
// described) for the tag.
func errorf(path, tag string, sentinel error, format string, args ...any) *Error {
	return &Error{Path: path, Tag: tag, Msg: fmt.Sprintf(format, args...), Err: sentinel}
}

// Errorf is errorf for the builders in schema and internal/reflectx.
func Errorf(path, tag string, sentinel error, format string, args ...any) *Error {
	return errorf(path, tag, sentinel, format, args...)
}

// Under returns err with its field path put under prefix, and the root type
// set to root when it is not nil. A *Error is copied (cached errors are
// shared); any other error is returned as is.
func Under(err error, prefix string, root reflect.Type) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	cp := *e
	cp.Path = Join(prefix, e.Path)
	if root != nil {
		cp.Type = root
	}
	return &cp
}

// Join joins two Go field paths: "A" and "B" give "A.B", "A" and "[].B"
// give "A[].B".
func Join(prefix, path string) string {
	switch {
	case prefix == "":
		return path
	case path == "":
		return prefix
	case path[0] == '[' || path[0] == '{':
		return prefix + path
	}
	return prefix + "." + path
}
