package fields

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// The interfaces of swaggest/jsonschema-go through which a type declares
// its values; the schema advertises them as the type's enum and the decoder
// enforces them.
type (
	enumer      interface{ Enum() []any }
	namedEnumer interface {
		NamedEnum() ([]any, []string)
	}
)

// TypeEnum returns the values t declares through an Enum or NamedEnum
// method (on the value or its pointer), as JSON values of t, or nil when it
// declares none.
func TypeEnum(t reflect.Type) ([]any, error) {
	if t.NumMethod() == 0 && reflect.PointerTo(t).NumMethod() == 0 {
		return nil, nil // no methods at all, as for most field types
	}
	for _, v := range []any{reflect.New(t).Elem().Interface(), reflect.New(t).Interface()} {
		if e, ok := v.(enumer); ok {
			return ConvertEnum(t, e.Enum())
		}
		if e, ok := v.(namedEnumer); ok {
			vals, _ := e.NamedEnum()
			return ConvertEnum(t, vals)
		}
	}
	return nil, nil
}

// ConvertEnum converts the values of a type's Enum method to t's JSON
// values (integers in canonical form). A type that is not a string,
// boolean or number, or a value of another type, is an [ErrInvalidTag]
// error with an empty path.
func ConvertEnum(t reflect.Type, vals []any) ([]any, error) {
	c := ClassOf(t)
	if !c.Scalar() {
		return nil, errorf("", "", ErrInvalidTag, "%s has an Enum method, but enums apply only to strings, booleans and numbers", t)
	}
	if len(vals) == 0 {
		return nil, errorf("", "", ErrInvalidTag, "the Enum method of %s returns no values", t)
	}
	out := make([]any, 0, len(vals))
	for _, v := range vals {
		rv := reflect.ValueOf(v)
		var (
			s   string
			err error
			val any
		)
		numeric := c == ClassInteger || c == ClassNumber
		switch {
		case !rv.IsValid():
			err = fmt.Errorf("nil")
		case c == ClassString && rv.Kind() == reflect.String:
			val = rv.String()
		case c == ClassBool && rv.Kind() == reflect.Bool:
			val = rv.Bool()
		case numeric && rv.CanInt():
			s = strconv.FormatInt(rv.Int(), 10)
		case numeric && rv.CanUint():
			s = strconv.FormatUint(rv.Uint(), 10)
		case numeric && rv.CanFloat():
			f := rv.Float()
			if math.IsInf(f, 0) || math.IsNaN(f) {
				err = fmt.Errorf("%v", f)
			} else {
				s = strconv.FormatFloat(f, 'g', -1, 64)
			}
		default:
			err = fmt.Errorf("%#v of type %T", v, v)
		}
		if err == nil && val == nil {
			val, err = numberValue(t, c, s)
		}
		if err != nil {
			return nil, errorf("", "", ErrInvalidTag, "the Enum method of %s returns %v, not a value of its type", t, err)
		}
		out = append(out, val)
	}
	return out, nil
}
