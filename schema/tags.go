package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus/internal/formats"
)

// class is the group of Go types a constraint tag may apply to.
type class int

const (
	clsOther   class = iota // struct, time.Time, []byte, any, other text types
	clsString               // string kind (including TextUnmarshalers of string kind)
	clsInteger              // signed and unsigned integer kinds
	clsNumber               // float kinds
	clsBool                 // bool kind
	clsArray                // slices and arrays other than []byte
	clsMap                  // maps
)

func classOf(t reflect.Type) class {
	switch {
	case t == typeTime, t == typeRawMessage, t.Kind() == reflect.Interface:
		return clsOther
	case isTextType(t):
		if t.Kind() == reflect.String {
			return clsString
		}
		return clsOther
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		return clsOther
	}
	switch t.Kind() {
	case reflect.Bool:
		return clsBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return clsInteger
	case reflect.Float32, reflect.Float64:
		return clsNumber
	case reflect.String:
		return clsString
	case reflect.Slice, reflect.Array:
		return clsArray
	case reflect.Map:
		return clsMap
	}
	return clsOther
}

func (c class) scalar() bool {
	return c == clsString || c == clsInteger || c == clsNumber || c == clsBool
}

// Formats lists the values the format tag accepts.
var Formats = []string{"date-time", "date", "time", "email", "uuid", "ipv4", "ipv6", "uri", "hostname"}

// tagInfo is what the tags say about the field beyond its schema.
type tagInfo struct {
	required   *bool
	hasDefault bool
}

// tagError is an ErrInvalidTag for one tag of the field at path.
func (b *builder) tagError(path, tag, format string, args ...any) error {
	return b.errf(path, tag, ErrInvalidTag, format, args...)
}

// applyTags applies f's constraint tags to s, the schema of t (f's type
// without pointers).
func (b *builder) applyTags(s *Schema, t reflect.Type, f field, path string) (tagInfo, error) {
	var info tagInfo
	cls := classOf(t)
	tag := f.tag
	lookup := tag.Lookup

	fits := func(name string, ok bool, want string) error {
		if !ok {
			return b.tagError(path, name, "does not apply to %s (only to %s)", t, want)
		}
		return nil
	}

	if v, ok := lookup("nullable"); ok {
		return info, b.tagError(path, "nullable", "%q is not supported: only pointers are nullable (consider a pointer type)", v)
	}
	if v, ok := lookup("required"); ok {
		r, err := strconv.ParseBool(v)
		if err != nil {
			return info, b.tagError(path, "required", "malformed boolean %q", v)
		}
		info.required = &r
	}
	if v, ok := lookup("title"); ok {
		s.Title = v
	}
	if v, ok := lookup("description"); ok {
		s.Description = v
	}
	for _, name := range []string{"deprecated", "readOnly", "writeOnly"} {
		v, ok := lookup(name)
		if !ok {
			continue
		}
		r, err := strconv.ParseBool(v)
		if err != nil {
			return info, b.tagError(path, name, "malformed boolean %q", v)
		}
		switch name {
		case "deprecated":
			s.Deprecated = r
		case "readOnly":
			s.ReadOnly = r
		default:
			s.WriteOnly = r
		}
	}

	// Numbers.
	numeric := cls == clsInteger || cls == clsNumber
	for _, name := range []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf"} {
		v, ok := lookup(name)
		if !ok {
			continue
		}
		if err := fits(name, numeric, "numbers"); err != nil {
			return info, err
		}
		r, err := parseDecimal(v)
		if err != nil {
			return info, b.tagError(path, name, "malformed number %q: %v", v, err)
		}
		n := json.Number(v)
		switch name {
		case "minimum":
			if s.Minimum == "" || r.Cmp(mustRat(s.Minimum)) > 0 {
				s.Minimum = n
			}
		case "maximum":
			if s.Maximum == "" || r.Cmp(mustRat(s.Maximum)) < 0 {
				s.Maximum = n
			}
		case "exclusiveMinimum":
			s.ExclusiveMinimum = n
		case "exclusiveMaximum":
			s.ExclusiveMaximum = n
		case "multipleOf":
			if r.Sign() <= 0 {
				return info, b.tagError(path, name, "must be greater than 0, not %s", v)
			}
			s.MultipleOf = n
		}
	}
	if numeric {
		if err := checkNumRange(s); err != nil {
			return info, b.tagError(path, "", "%v", err)
		}
	}

	// Strings.
	for _, name := range []string{"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"} {
		v, ok := lookup(name)
		if !ok {
			continue
		}
		var err error
		switch name[3:] {
		case "Length":
			err = fits(name, cls == clsString, "strings")
		case "Items":
			err = fits(name, cls == clsArray, "slices and arrays")
		default:
			err = fits(name, cls == clsMap, "maps")
		}
		if err != nil {
			return info, err
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return info, b.tagError(path, name, "malformed count %q (want a non-negative integer)", v)
		}
		switch name {
		case "minLength":
			s.MinLength = &n
		case "maxLength":
			s.MaxLength = &n
		case "minItems", "maxItems":
			if t.Kind() == reflect.Array && n != int64(t.Len()) {
				return info, b.tagError(path, name, "%d contradicts the array length %d (consider a slice)", n, t.Len())
			}
			if name == "minItems" {
				s.MinItems = &n
			} else {
				s.MaxItems = &n
			}
		case "minProperties":
			s.MinProperties = &n
		case "maxProperties":
			s.MaxProperties = &n
		}
	}
	for _, pair := range [][2]*int64{{s.MinLength, s.MaxLength}, {s.MinItems, s.MaxItems}, {s.MinProperties, s.MaxProperties}} {
		if pair[0] != nil && pair[1] != nil && *pair[0] > *pair[1] {
			return info, b.tagError(path, "", "minimum count %d is greater than maximum count %d", *pair[0], *pair[1])
		}
	}
	if v, ok := lookup("pattern"); ok {
		if err := fits("pattern", cls == clsString, "strings"); err != nil {
			return info, err
		}
		if _, err := formats.Regexp(v); err != nil {
			return info, b.tagError(path, "pattern", "malformed regular expression: %v", err)
		}
		s.Pattern = v
	}
	if v, ok := lookup("format"); ok {
		if err := fits("format", cls == clsString, "strings"); err != nil {
			return info, err
		}
		if !isFormat(v) {
			return info, b.tagError(path, "format", "unknown format %q (consider one of %s, or a pattern)", v, strings.Join(Formats, ", "))
		}
		s.Format = v
	}
	if v, ok := lookup("uniqueItems"); ok {
		if err := fits("uniqueItems", cls == clsArray, "slices and arrays"); err != nil {
			return info, err
		}
		r, err := strconv.ParseBool(v)
		if err != nil {
			return info, b.tagError(path, "uniqueItems", "malformed boolean %q", v)
		}
		s.UniqueItems = r
	}

	// Values.
	if v, ok := lookup("enum"); ok {
		if err := fits("enum", cls.scalar(), "strings, booleans and numbers"); err != nil {
			return info, err
		}
		vals, err := parseEnum(t, cls, v)
		if err != nil {
			return info, b.tagError(path, "enum", "%v", err)
		}
		s.Enum = vals
	}
	if v, ok := lookup("const"); ok {
		if err := fits("const", cls.scalar(), "strings, booleans and numbers"); err != nil {
			return info, err
		}
		c, err := scalarValue(t, cls, v)
		if err != nil {
			return info, b.tagError(path, "const", "%v", err)
		}
		s.Const, s.HasConst = c, true
	}
	if s.Enum != nil {
		if err := validate(s, nil, s.Enum...); err != nil {
			return info, b.tagError(path, "enum", "a member %v", err)
		}
	}
	if v, ok := lookup("default"); ok {
		d, err := tagValue(t, cls, v)
		if err != nil {
			return info, b.tagError(path, "default", "%v", err)
		}
		if err := validate(s, nil, d); err != nil {
			return info, b.tagError(path, "default", "the default %s %v", v, err)
		}
		if info.required != nil && *info.required {
			return info, b.tagError(path, "default", "default is never used on a required field (consider removing required:\"true\" or the default)")
		}
		s.Default, s.HasDefault = d, true
		info.hasDefault = true
	}
	if v, ok := lookup("example"); ok {
		e, err := tagValue(t, cls, v)
		if err != nil {
			return info, b.tagError(path, "example", "%v", err)
		}
		if err := validate(s, nil, e); err != nil {
			return info, b.tagError(path, "example", "the example %s %v", v, err)
		}
		s.Examples = append(s.Examples, e)
	}
	if v, ok := lookup("examples"); ok {
		vals, err := jsonArray(t, cls, v)
		if err != nil {
			return info, b.tagError(path, "examples", "%v", err)
		}
		if err := validate(s, nil, vals...); err != nil {
			return info, b.tagError(path, "examples", "an example %v", err)
		}
		s.Examples = append(s.Examples, vals...)
	}
	return info, nil
}

func isFormat(v string) bool {
	for _, f := range Formats {
		if f == v {
			return true
		}
	}
	return false
}

// checkNumRange reports an empty interval between the lower and upper
// bounds of s.
func checkNumRange(s *Schema) error {
	var lo, hi *big.Rat
	var loEx, hiEx bool
	var loName, hiName string
	for _, b := range []struct {
		n    json.Number
		ex   bool
		name string
	}{{s.Minimum, false, "minimum"}, {s.ExclusiveMinimum, true, "exclusiveMinimum"}} {
		if b.n == "" {
			continue
		}
		r := mustRat(b.n)
		if lo == nil || r.Cmp(lo) > 0 || (r.Cmp(lo) == 0 && b.ex) {
			lo, loEx, loName = r, b.ex, b.name+" "+string(b.n)
		}
	}
	for _, b := range []struct {
		n    json.Number
		ex   bool
		name string
	}{{s.Maximum, false, "maximum"}, {s.ExclusiveMaximum, true, "exclusiveMaximum"}} {
		if b.n == "" {
			continue
		}
		r := mustRat(b.n)
		if hi == nil || r.Cmp(hi) < 0 || (r.Cmp(hi) == 0 && b.ex) {
			hi, hiEx, hiName = r, b.ex, b.name+" "+string(b.n)
		}
	}
	if lo == nil || hi == nil {
		return nil
	}
	if c := lo.Cmp(hi); c > 0 || (c == 0 && (loEx || hiEx)) {
		return fmt.Errorf("%s and %s leave no valid value", loName, hiName)
	}
	return nil
}

var numberSyntax = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?([0-9]+))?$`)

// parseDecimal parses a JSON number exactly. Exponents are limited to 400
// digits' worth so that a tag cannot make us build a huge number.
func parseDecimal(v string) (*big.Rat, error) {
	m := numberSyntax.FindStringSubmatch(v)
	if m == nil {
		return nil, fmt.Errorf("not a JSON number")
	}
	if m[4] != "" {
		if e, err := strconv.Atoi(m[4]); err != nil || e > 400 {
			return nil, fmt.Errorf("exponent out of range")
		}
	}
	r, ok := new(big.Rat).SetString(v)
	if !ok {
		return nil, fmt.Errorf("not a JSON number")
	}
	return r, nil
}

func mustRat(n json.Number) *big.Rat {
	r, err := parseDecimal(string(n))
	if err != nil {
		panic("schema: invalid number " + string(n))
	}
	return r
}

// intRange returns the bounds of integer kind k.
func intRange(k reflect.Kind) (lo, hi *big.Int) {
	switch k {
	case reflect.Int8:
		return big.NewInt(math.MinInt8), big.NewInt(math.MaxInt8)
	case reflect.Int16:
		return big.NewInt(math.MinInt16), big.NewInt(math.MaxInt16)
	case reflect.Int32:
		return big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
	case reflect.Int, reflect.Int64:
		if k == reflect.Int && strconv.IntSize == 32 {
			return big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
		}
		return big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	case reflect.Uint8:
		return big.NewInt(0), big.NewInt(math.MaxUint8)
	case reflect.Uint16:
		return big.NewInt(0), big.NewInt(math.MaxUint16)
	case reflect.Uint32:
		return big.NewInt(0), big.NewInt(math.MaxUint32)
	default: // Uint, Uint64, Uintptr
		if k == reflect.Uint && strconv.IntSize == 32 {
			return big.NewInt(0), big.NewInt(math.MaxUint32)
		}
		return big.NewInt(0), new(big.Int).SetUint64(math.MaxUint64)
	}
}

// numberValue checks that the JSON number v fits a value of type t and
// returns it as a json.Number (integers in canonical form).
func numberValue(t reflect.Type, cls class, v string) (json.Number, error) {
	r, err := parseDecimal(v)
	if err != nil {
		return "", fmt.Errorf("malformed number %q", v)
	}
	if cls == clsNumber {
		if _, err := strconv.ParseFloat(v, t.Bits()); err != nil {
			return "", fmt.Errorf("%s is out of range for %s", v, t)
		}
		return json.Number(v), nil
	}
	if !r.IsInt() {
		return "", fmt.Errorf("%s is not an integer (the field is %s)", v, t)
	}
	lo, hi := intRange(t.Kind())
	if n := r.Num(); n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
		return "", fmt.Errorf("%s is out of range for %s", v, t)
	}
	return json.Number(r.Num().String()), nil
}

// scalarValue parses a tag value written in the field's type: text for a
// string, true/false for a bool, a JSON number for a number.
func scalarValue(t reflect.Type, cls class, v string) (any, error) {
	switch cls {
	case clsString:
		return v, nil
	case clsBool:
		switch v {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("malformed boolean %q (want true or false)", v)
	case clsInteger, clsNumber:
		return numberValue(t, cls, v)
	}
	return nil, fmt.Errorf("no scalar value for %s", t)
}

// tagValue parses a default or example: a scalar in the field's type, or
// JSON for other types.
func tagValue(t reflect.Type, cls class, v string) (any, error) {
	if cls.scalar() {
		return scalarValue(t, cls, v)
	}
	val, err := jsonValue([]byte(v))
	if err != nil {
		return nil, fmt.Errorf("malformed JSON %q: %v", v, err)
	}
	return val, nil
}

// jsonArray parses a JSON array tag whose members must be values of the
// field's type when it is a scalar one.
func jsonArray(t reflect.Type, cls class, v string) ([]any, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal([]byte(v), &raws); err != nil {
		return nil, fmt.Errorf("malformed JSON array %q: %v", v, err)
	}
	out := make([]any, 0, len(raws))
	for _, raw := range raws {
		val, err := jsonValue(raw)
		if err != nil {
			return nil, err
		}
		if n, ok := val.(json.Number); ok && cls == clsInteger {
			if val, err = numberValue(t, cls, string(n)); err != nil {
				return nil, err
			}
		}
		out = append(out, val)
	}
	return out, nil
}

// parseEnum parses an enum tag: a JSON array, or a comma-separated list of
// values in the field's type (items are not trimmed).
func parseEnum(t reflect.Type, cls class, v string) ([]any, error) {
	if strings.HasPrefix(v, "[") {
		vals, err := jsonArray(t, cls, v)
		if err != nil {
			return nil, err
		}
		if len(vals) == 0 {
			return nil, fmt.Errorf("empty enum")
		}
		return vals, nil
	}
	var out []any
	for _, item := range strings.Split(v, ",") {
		val, err := scalarValue(t, cls, item)
		if err != nil {
			return nil, err
		}
		out = append(out, val)
	}
	return out, nil
}

// notesEnum converts the values of a type's Enum() method (through swaggest)
// to the type's JSON representation.
func (b *builder) notesEnum(t reflect.Type, vals []any, path string) ([]any, error) {
	cls := classOf(t)
	if !cls.scalar() {
		return nil, b.errf(path, "", ErrInvalidTag, "%s has an Enum method, but enums apply only to strings, booleans and numbers", t)
	}
	out := make([]any, 0, len(vals))
	for _, v := range vals {
		rv := reflect.ValueOf(v)
		var (
			s   string
			err error
			val any
		)
		switch {
		case !rv.IsValid():
			err = fmt.Errorf("nil")
		case cls == clsString && rv.Kind() == reflect.String:
			val = rv.String()
		case cls == clsBool && rv.Kind() == reflect.Bool:
			val = rv.Bool()
		case (cls == clsInteger || cls == clsNumber) && rv.CanInt():
			s = strconv.FormatInt(rv.Int(), 10)
		case (cls == clsInteger || cls == clsNumber) && rv.CanUint():
			s = strconv.FormatUint(rv.Uint(), 10)
		case (cls == clsInteger || cls == clsNumber) && rv.CanFloat():
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
			val, err = numberValue(t, cls, s)
		}
		if err != nil {
			return nil, b.errf(path, "", ErrInvalidTag, "the Enum method of %s returns %v, not a value of its type", t, err)
		}
		out = append(out, val)
	}
	return out, nil
}

// jsonValue decodes one JSON value into the representation Schema uses for
// enum, const, default and example values: string, bool, json.Number or nil
// for scalars, compact json.RawMessage for arrays and objects (so that key
// order is kept).
func jsonValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the JSON value")
	}
	switch v.(type) {
	case []any, map[string]any:
		var buf bytes.Buffer
		if err := json.Compact(&buf, data); err != nil {
			return nil, err
		}
		return json.RawMessage(buf.Bytes()), nil
	}
	return v, nil
}
