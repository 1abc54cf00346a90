package fields

import (
	"encoding"
	"encoding/json"
	"reflect"
	"time"
)

// Kind is how a Go type travels as JSON, under the rules the schema and
// the decoder share.
type Kind uint8

// The kinds, in encoding/json's order of precedence for special types.
const (
	Invalid Kind = iota
	Raw          // json.RawMessage: any JSON value
	Time         // time.Time: an RFC 3339 date-time string
	Text         // an encoding.TextUnmarshaler: a JSON string
	Bytes        // []byte: a base64 string
	Any          // the empty interface: any JSON value
	Bool
	Int
	Uint
	Float
	String
	Struct
	Slice
	Array
	Map
	Pointer
	JSONNumber // json.Number: any JSON number, its text kept exactly
)

var (
	// TypeTime is time.Time.
	TypeTime = reflect.TypeFor[time.Time]()
	// TypeRawMessage is json.RawMessage.
	TypeRawMessage = reflect.TypeFor[json.RawMessage]()
	// TypeNumber is json.Number.
	TypeNumber = reflect.TypeFor[json.Number]()

	typeTextUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	typeJSONUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
)

// UnmarshalsJSON reports whether the decoder hands t's values to its own
// UnmarshalJSON method.
func UnmarshalsJSON(t reflect.Type) bool {
	return t != TypeRawMessage && t != TypeTime && t.Kind() != reflect.Pointer &&
		t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(typeJSONUnmarshaler)
}

func unmarshalsText(t reflect.Type) bool {
	return t != TypeTime && t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		reflect.PointerTo(t).Implements(typeTextUnmarshaler)
}

// KindOf classifies t, or returns an [ErrUnsupportedType] error (with an
// empty path) for a type that has no JSON form under our rules.
func KindOf(t reflect.Type) (Kind, error) {
	switch {
	case t == TypeRawMessage:
		return Raw, nil
	case t == TypeTime:
		return Time, nil
	case t == TypeNumber:
		return JSONNumber, nil
	case unmarshalsText(t):
		return Text, nil
	}
	hint := "consider leaving it out of the arguments with json:\"-\""
	switch t.Kind() {
	case reflect.Bool:
		return Bool, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Int, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Uint, nil
	case reflect.Float32, reflect.Float64:
		return Float, nil
	case reflect.String:
		return String, nil
	case reflect.Struct:
		return Struct, nil
	case reflect.Slice:
		if e := t.Elem(); e.Kind() == reflect.Uint8 && !reflect.PointerTo(e).Implements(typeJSONUnmarshaler) &&
			!reflect.PointerTo(e).Implements(typeTextUnmarshaler) {
			return Bytes, nil
		}
		return Slice, nil
	case reflect.Array:
		return Array, nil
	case reflect.Map:
		switch t.Key().Kind() {
		case reflect.String,
			reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			return Map, nil
		}
		return Invalid, errorf("", "", ErrUnsupportedType,
			"unsupported type %s: map keys must be strings or integers (consider map[string]%s)", t, t.Elem())
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return Any, nil
		}
		return Invalid, errorf("", "", ErrUnsupportedType,
			"unsupported type %s: an interface with methods cannot be decoded (consider any or a concrete type)", t)
	case reflect.Pointer:
		if selfPointer(t) {
			return Invalid, errorf("", "", ErrUnsupportedType,
				"unsupported type %s: a pointer to itself holds no value (consider a struct)", t)
		}
		return Pointer, nil
	case reflect.Complex64, reflect.Complex128:
		hint = "JSON has no complex numbers: consider two float64 fields"
	case reflect.Uintptr:
		hint = "consider uint64"
	case reflect.Func:
		hint = "a function cannot come from JSON: " + hint
	}
	return Invalid, errorf("", "", ErrUnsupportedType, "unsupported type %s (%s)", t, hint)
}

// selfPointer reports whether following t's pointers never ends (type P *P,
// or a longer ring of named pointer types).
func selfPointer(t reflect.Type) bool {
	var seen map[reflect.Type]bool
	for n := 0; t.Kind() == reflect.Pointer; n++ {
		if n >= 8 {
			if seen == nil {
				seen = map[reflect.Type]bool{}
			}
			if seen[t] {
				return true
			}
			seen[t] = true
		}
		t = t.Elem()
	}
	return false
}

// Deref removes t's pointers. A pointer type that points to itself is
// returned as it is (a Pointer kind, which [KindOf] rejects).
func Deref(t reflect.Type) reflect.Type {
	if selfPointer(t) {
		return t
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// Class is the group of types a constraint tag may apply to.
type Class uint8

// The classes.
const (
	ClassOther   Class = iota // struct, time.Time, []byte, any, text types not of string kind
	ClassString               // string kinds, text types of string kind included
	ClassInteger              // integer kinds
	ClassNumber               // float kinds
	ClassBool                 // bool kind
	ClassArray                // slices and arrays other than []byte
	ClassMap                  // maps
)

// ClassOf returns the class of t (pointers removed).
func ClassOf(t reflect.Type) Class {
	if UnmarshalsJSON(t) {
		return ClassOther
	}
	k, err := KindOf(t)
	if err != nil {
		return ClassOther
	}
	switch k {
	case String:
		return ClassString
	case Text:
		if t.Kind() == reflect.String {
			return ClassString
		}
	case Int, Uint:
		return ClassInteger
	case Float:
		return ClassNumber
	case Bool:
		return ClassBool
	case Slice, Array:
		return ClassArray
	case Map:
		return ClassMap
	}
	return ClassOther
}

// Scalar reports whether c holds strings, numbers or booleans.
func (c Class) Scalar() bool {
	return c == ClassString || c == ClassInteger || c == ClassNumber || c == ClassBool
}

// String names the class in messages ("integer", "string", ...).
func (c Class) String() string {
	return [...]string{"other", "string", "integer", "number", "boolean", "array", "map"}[c]
}
