package fields

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/swaggest/jsonschema-go"
)

// A refusedHook is an interface of swaggest/jsonschema-go through which a
// type would put keywords in its schema that the decoder cannot enforce.
type refusedHook struct {
	t      reflect.Type
	name   string // "OneOfExposer"
	method string // "JSONSchemaOneOf"
	word   string // the keyword it adds, "oneOf"
}

// refusedHooks are swaggest's composition exposers. A type that implements
// one is a define-time error: its schema would advertise what no call is
// checked against.
var refusedHooks = []refusedHook{
	{reflect.TypeFor[jsonschema.OneOfExposer](), "OneOfExposer", "JSONSchemaOneOf", "oneOf"},
	{reflect.TypeFor[jsonschema.AnyOfExposer](), "AnyOfExposer", "JSONSchemaAnyOf", "anyOf"},
	{reflect.TypeFor[jsonschema.AllOfExposer](), "AllOfExposer", "JSONSchemaAllOf", "allOf"},
	{reflect.TypeFor[jsonschema.NotExposer](), "NotExposer", "JSONSchemaNot", "not"},
	{reflect.TypeFor[jsonschema.IfExposer](), "IfExposer", "JSONSchemaIf", "if"},
	{reflect.TypeFor[jsonschema.ThenExposer](), "ThenExposer", "JSONSchemaThen", "then"},
	{reflect.TypeFor[jsonschema.ElseExposer](), "ElseExposer", "JSONSchemaElse", "else"},
}

// CheckHooks returns an [ErrUnsupportedType] error (with an empty path)
// when t (pointers removed), or its pointer, implements one of the
// interfaces of swaggest/jsonschema-go that this module refuses: the
// one-of, any-of, all-of, not and if/then/else exposers.
func CheckHooks(t reflect.Type) error {
	switch t.Kind() {
	case reflect.Struct, reflect.Pointer, reflect.Interface:
	default:
		if t.PkgPath() == "" {
			return nil // predeclared or unnamed: no methods, on t or *t
		}
	}
	pt := reflect.PointerTo(t)
	if t.NumMethod() == 0 && pt.NumMethod() == 0 {
		return nil // no method, no interface of swaggest's
	}
	f := factsOf(t)
	if h := f.hooks.Load(); h != nil {
		return h.err
	}
	f.hooks.CompareAndSwap(nil, &hookAnswer{checkHooks(t, pt)})
	return f.hooks.Load().err
}

// hookAnswer is CheckHooks' answer for a type with methods (err nil for
// none), kept in the type's facts: the seven Implements calls on
// time.Time, say, are made once per program. The errors are shared:
// callers copy them with [Under] before adding a path, as for every
// cached error.
type hookAnswer struct{ err error }

func checkHooks(t, pt reflect.Type) error {
	for _, h := range refusedHooks {
		if t.Implements(h.t) || pt.Implements(h.t) {
			return errorf("", "", ErrUnsupportedType,
				"%s implements swaggest's jsonschema.%s (%s), whose %q the argument decoder cannot enforce "+
					"(consider removing the method and expressing the rule with enum, const, minimum/maximum, "+
					"pattern or format tags, or one struct with optional pointer fields, and checking the rest in the tool function)",
				t, h.name, h.method, h.word)
		}
	}
	return nil
}

// A schemaHook is an interface of swaggest/jsonschema-go through which a
// type declares its schema: the keywords it declares are accepted when the
// decoder enforces them (see [TypeRules]).
var (
	typeExposer    = reflect.TypeFor[jsonschema.Exposer]()
	typeRawExposer = reflect.TypeFor[jsonschema.RawExposer]()
	typePreparer   = reflect.TypeFor[jsonschema.Preparer]()
)

// typeKeywords are the keywords a type may declare through swaggest's
// Exposer, RawExposer or Preparer: each is also the struct tag that says the
// same on a field, one that [ParseRules] reads and the decoder enforces (or
// an annotation).
var typeKeywords = map[string]bool{
	"title": true, "description": true, "deprecated": true, "readOnly": true, "writeOnly": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minLength": true, "maxLength": true, "pattern": true, "format": true,
	"minItems": true, "maxItems": true, "uniqueItems": true, "minProperties": true, "maxProperties": true,
	"enum": true, "const": true, "default": true, "examples": true,
}

// boundKeywords are the type keywords a field tag may not declare again:
// the schema keeps the tighter of a type's bound and a field's, so the two
// must not disagree.
var boundKeywords = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}

type typeRules struct {
	tag   reflect.StructTag // the declared keywords as struct tags
	rules *Rules
	err   error
}

// TypeRules returns what t (not a pointer) declares about its own schema
// through swaggest's Exposer (JSONSchema), RawExposer (JSONSchemaBytes) or
// Preparer (PrepareJSONSchema), on the value or its pointer, read with the
// same rules as a field's tags, or nil when it implements none of them.
//
// For an Exposer or RawExposer the declared keywords are those of the
// schema it returns; for a Preparer, those it adds or changes in the schema
// swaggest's reflector gives the type. Every declared keyword must be one
// the decoder enforces for t (title, description, enum, const, default,
// examples, bounds, lengths, pattern, format, ...) and "type" must be t's
// JSON type; anything else is an [ErrUnsupportedType] error naming the
// keyword. Errors have an empty path. The result is cached and shared.
func TypeRules(t reflect.Type) (*Rules, error) {
	tr := typeHooks(t)
	return tr.rules, tr.err
}

func typeHooks(t reflect.Type) *typeRules {
	f := factsOf(t)
	if tr := f.declared.Load(); tr != nil {
		return tr
	}
	tr := &typeRules{}
	tr.tag, tr.err = declaredTags(t)
	if tr.err == nil && tr.tag != "" {
		tr.rules, tr.err = ParseRules(t, tr.tag)
		if tr.err != nil {
			tr.rules = nil
			tr.err = declaredError(t, tr.err)
		}
	}
	f.declared.CompareAndSwap(nil, tr)
	return f.declared.Load()
}

// declaredError restates an error of ParseRules about the tags made from
// t's declared schema: there is no struct tag to blame.
func declaredError(t reflect.Type, err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	what := "the schema " + t.String() + " declares through swaggest's interfaces: "
	if e.Tag != "" {
		what += "keyword " + e.Tag + ": "
	}
	return errorf("", "", e.Err, "%s%s", what, e.Msg)
}

// implementer returns a value of t, or of *t, that implements iface, or
// nil.
func implementer(t, iface reflect.Type) any {
	switch {
	case t.Implements(iface):
		return reflect.New(t).Elem().Interface()
	case reflect.PointerTo(t).Implements(iface):
		return reflect.New(t).Interface()
	}
	return nil
}

// declaredTags returns the keywords t declares through swaggest's Exposer,
// RawExposer or Preparer as struct tags, "" when it implements none.
func declaredTags(t reflect.Type) (tag reflect.StructTag, err error) {
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		return "", nil
	}
	var (
		via      string
		declared map[string]json.RawMessage
		whole    bool // the declared schema is the whole schema, "type" included
	)
	defer func() {
		if p := recover(); p != nil {
			tag, err = "", errorf("", "", ErrReflector, "%s panicked: %v", via, p)
		}
	}()
	switch {
	case implementer(t, typeExposer) != nil:
		via, whole = t.String()+".JSONSchema", true
		s, err := implementer(t, typeExposer).(jsonschema.Exposer).JSONSchema()
		if err != nil {
			return "", errorf("", "", ErrReflector, "%s: %v", via, err)
		}
		declared, err = schemaMap(s)
		if err != nil {
			return "", errorf("", "", ErrReflector, "%s: %v", via, err)
		}
	case implementer(t, typeRawExposer) != nil:
		via, whole = t.String()+".JSONSchemaBytes", true
		b, err := implementer(t, typeRawExposer).(jsonschema.RawExposer).JSONSchemaBytes()
		if err == nil {
			err = json.Unmarshal(b, &declared)
		}
		if err != nil {
			return "", errorf("", "", ErrReflector, "%s: %v", via, err)
		}
	case implementer(t, typePreparer) != nil:
		via = t.String() + ".PrepareJSONSchema"
		if declared, err = prepared(t); err != nil {
			return "", errorf("", "", ErrReflector, "%s: %v", via, err)
		}
	default:
		return "", nil
	}
	return tagsOf(t, via, declared, whole)
}

// prepared returns the keywords t's PrepareJSONSchema adds or changes in
// the schema swaggest's reflector gives t.
func prepared(t reflect.Type) (map[string]json.RawMessage, error) {
	var before []byte
	r := jsonschema.Reflector{}
	_, err := r.Reflect(reflect.New(t).Elem().Interface(),
		jsonschema.InterceptSchema(func(p jsonschema.InterceptSchemaParams) (bool, error) {
			if p.Processed && len(p.Context.Path) == 1 {
				var err error
				before, err = json.Marshal(p.Schema)
				return false, err
			}
			return false, nil
		}))
	if err != nil {
		return nil, err
	}
	if before == nil {
		// swaggest took t for one of its well-known types and did not call
		// the preparer either.
		return nil, nil
	}
	var after jsonschema.Schema
	if err := json.Unmarshal(before, &after); err != nil {
		return nil, err
	}
	if err := implementer(t, typePreparer).(jsonschema.Preparer).PrepareJSONSchema(&after); err != nil {
		return nil, err
	}
	was, err := schemaMap(mustSchema(before))
	if err != nil {
		return nil, err
	}
	is, err := schemaMap(after)
	if err != nil {
		return nil, err
	}
	changed := map[string]json.RawMessage{}
	for k, v := range is {
		if !bytes.Equal(was[k], v) {
			changed[k] = v
		}
	}
	for k := range was {
		if _, ok := is[k]; !ok {
			changed[k] = nil // removed
		}
	}
	return changed, nil
}

func mustSchema(b []byte) jsonschema.Schema {
	var s jsonschema.Schema
	_ = json.Unmarshal(b, &s) // b came from json.Marshal of a Schema
	return s
}

// schemaMap returns the top-level keywords of s.
func schemaMap(s jsonschema.Schema) (map[string]json.RawMessage, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	return m, json.Unmarshal(b, &m)
}

// jsonTypes are the JSON types of each class, as "type" names them.
var jsonTypes = [...]string{ClassString: "string", ClassInteger: "integer", ClassNumber: "number",
	ClassBool: "boolean", ClassArray: "array", ClassMap: "object"}

// tagsOf converts declared keywords of t to struct tags, refusing the
// keywords the decoder does not enforce.
func tagsOf(t reflect.Type, via string, declared map[string]json.RawMessage, whole bool) (reflect.StructTag, error) {
	c := ClassOf(t)
	keys := make([]string, 0, len(declared))
	for k := range declared {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		v := declared[k]
		if k == "type" && whole {
			var name string
			if json.Unmarshal(v, &name) == nil && (name == jsonTypes[c] || name == "number" && c == ClassInteger) ||
				c == ClassOther && t.Kind() == reflect.Struct && name == "object" {
				continue
			}
			return "", errorf("", "", ErrUnsupportedType,
				"%s declares \"type\": %s, but %s decodes from %s (consider declaring that type, or none)",
				via, v, t, describeClass(c))
		}
		if !typeKeywords[k] || v == nil {
			what := "declares"
			if v == nil {
				what = "removes"
			}
			return "", errorf("", "", ErrUnsupportedType,
				"%s %s %q, a keyword the argument decoder cannot enforce (consider the tags title, description, enum, const, default, examples, minimum/maximum, minLength/maxLength, pattern, format, minItems/maxItems, uniqueItems or minProperties/maxProperties, which the decoder checks)",
				via, what, k)
		}
		text, err := tagText(c, k, v)
		if err != nil {
			return "", errorf("", "", ErrInvalidTag, "%s declares %q: %v", via, k, err)
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k + ":" + strconv.Quote(text))
	}
	return reflect.StructTag(b.String()), nil
}

func describeClass(c Class) string {
	if c == ClassOther {
		return "another JSON type"
	}
	return "JSON " + jsonTypes[c] + "s"
}

// tagText writes a declared keyword's JSON value v as the tag value that
// says the same.
func tagText(c Class, k string, v json.RawMessage) (string, error) {
	switch k {
	case "title", "description", "pattern", "format":
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", fmt.Errorf("want a string, got %s", v)
		}
		return s, nil
	case "const", "default":
		if !c.Scalar() {
			return string(v), nil
		}
		x, err := JSONValue(v)
		if err != nil {
			return "", err
		}
		switch x := x.(type) {
		case string:
			return x, nil
		case bool:
			return strconv.FormatBool(x), nil
		case json.Number:
			return string(x), nil
		}
		return "", fmt.Errorf("%s is not a value of the type", v)
	}
	return string(v), nil // numbers, booleans, enum and examples arrays
}

// MergeTypeTags returns the tags of a field of type t: the field's own,
// then those t declares through swaggest's interfaces (see [TypeRules]),
// which the field's replace. A field tag that declares a bound t declares
// too is an [ErrInvalidTag] error with an empty path.
func MergeTypeTags(t reflect.Type, field reflect.StructTag) (reflect.StructTag, error) {
	tr := typeHooks(t)
	if tr.err != nil || tr.tag == "" {
		return field, tr.err
	}
	for _, k := range boundKeywords {
		if _, ok := field.Lookup(k); ok {
			if _, ok := tr.tag.Lookup(k); ok {
				return "", errorf("", k, ErrInvalidTag,
					"%s declares %s already through swaggest's interfaces (consider removing the tag, or the type's declaration)", t, k)
			}
		}
	}
	return field + " " + tr.tag, nil
}
