package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Schema is one node of a JSON Schema (draft 2020-12 subset) with properties
// kept in order. It is the canonical form the adapters transform per provider.
//
// A nil *Schema means "absent". Numeric bounds are [json.Number] so that an
// integer bound is never rounded through float64; the empty Number means the
// keyword is absent. Slices and maps that are nil are omitted from the JSON,
// except Properties, which is written as {} for an object type so that
// providers never see an object schema without properties.
//
// Schemas returned by this package are fresh copies: the caller owns them.
type Schema struct {
	// Bool, when non-nil, makes this node the boolean schema true or false;
	// every other field is then ignored.
	Bool *bool

	Ref   string   // "$ref"
	Types []string // "type": one name is written as a string, several as an array

	Title       string
	Description string

	Enum     []any // values are string, bool, json.Number or nil
	Const    any   // meaningful only when HasConst
	HasConst bool

	Format          string
	ContentEncoding string
	Pattern         string
	MinLength       *int64
	MaxLength       *int64

	Minimum          json.Number
	ExclusiveMinimum json.Number
	Maximum          json.Number
	ExclusiveMaximum json.Number
	MultipleOf       json.Number

	Items       *Schema
	MinItems    *int64
	MaxItems    *int64
	UniqueItems bool

	Properties           []Property
	Required             []string
	AdditionalProperties *Schema
	PropertyNames        *Schema // "propertyNames": the schema every key must meet
	MinProperties        *int64
	MaxProperties        *int64

	AnyOf []*Schema
	OneOf []*Schema
	AllOf []*Schema

	Default    any // meaningful only when HasDefault
	HasDefault bool
	Examples   []any
	Deprecated bool
	ReadOnly   bool
	WriteOnly  bool

	// Extra holds keywords this type has no field for (from a hand-written
	// schema), in their original order, written after the known keywords.
	Extra []Keyword

	// Defs holds "$defs", sorted by name, written last.
	Defs []Def
}

// Property is one named entry of an object's "properties".
type Property struct {
	Name   string
	Schema *Schema
}

// Def is one named entry of "$defs".
type Def struct {
	Name   string
	Schema *Schema
}

// Keyword is an unrecognised keyword kept verbatim.
type Keyword struct {
	Name  string
	Value json.RawMessage
}

// True returns the boolean schema true, which accepts any value.
func True() *Schema { b := true; return &Schema{Bool: &b} }

// False returns the boolean schema false, which accepts nothing.
func False() *Schema { b := false; return &Schema{Bool: &b} }

// IsFalse reports whether s is the boolean schema false.
func (s *Schema) IsFalse() bool { return s != nil && s.Bool != nil && !*s.Bool }

// HasType reports whether name is one of s's types.
func (s *Schema) HasType(name string) bool {
	if s == nil {
		return false
	}
	for _, t := range s.Types {
		if t == name {
			return true
		}
	}
	return false
}

// Property returns the schema of the named property, or nil.
func (s *Schema) Property(name string) *Schema {
	if s == nil {
		return nil
	}
	for _, p := range s.Properties {
		if p.Name == name {
			return p.Schema
		}
	}
	return nil
}

// MarshalJSON writes s with a fixed key order: $ref, type, title,
// description, then the keywords in the order of the struct's fields, then
// Extra, then $defs. The output is compact and deterministic.
func (s *Schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := s.write(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// AppendJSON appends the JSON encoding of s to dst.
func (s *Schema) AppendJSON(dst []byte) ([]byte, error) {
	b := bytes.NewBuffer(dst)
	if err := s.write(b); err != nil {
		return dst, err
	}
	return b.Bytes(), nil
}

type objWriter struct {
	b     *bytes.Buffer
	first bool
	err   error
}

func (w *objWriter) key(k string) {
	if w.first {
		w.first = false
	} else {
		w.b.WriteByte(',')
	}
	writeString(w.b, k)
	w.b.WriteByte(':')
}

func (w *objWriter) str(k, v string) {
	if v == "" {
		return
	}
	w.key(k)
	writeString(w.b, v)
}

func (w *objWriter) num(k string, v json.Number) {
	if v == "" {
		return
	}
	if !json.Valid([]byte(v)) {
		if w.err == nil {
			w.err = fmt.Errorf("schema: %s: invalid number %q", k, string(v))
		}
		return
	}
	w.key(k)
	w.b.WriteString(string(v))
}

func (w *objWriter) int(k string, v *int64) {
	if v == nil {
		return
	}
	w.key(k)
	w.b.WriteString(strconv.FormatInt(*v, 10))
}

func (w *objWriter) boolean(k string, v bool) {
	if !v {
		return
	}
	w.key(k)
	w.b.WriteString("true")
}

func (w *objWriter) value(k string, v any) {
	w.key(k)
	w.writeValue(v)
}

func (w *objWriter) writeValue(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		if w.err == nil {
			w.err = fmt.Errorf("schema: %w", err)
		}
		w.b.WriteString("null")
		return
	}
	w.b.Write(data)
}

func (w *objWriter) values(k string, vs []any) {
	if vs == nil {
		return
	}
	w.key(k)
	w.b.WriteByte('[')
	for i, v := range vs {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.writeValue(v)
	}
	w.b.WriteByte(']')
}

func (w *objWriter) schema(k string, s *Schema) {
	if s == nil {
		return
	}
	w.key(k)
	if err := s.write(w.b); err != nil && w.err == nil {
		w.err = err
	}
}

func (w *objWriter) schemas(k string, ss []*Schema) {
	if ss == nil {
		return
	}
	w.key(k)
	w.b.WriteByte('[')
	for i, s := range ss {
		if i > 0 {
			w.b.WriteByte(',')
		}
		if s == nil {
			w.b.WriteString("true")
			continue
		}
		if err := s.write(w.b); err != nil && w.err == nil {
			w.err = err
		}
	}
	w.b.WriteByte(']')
}

func (s *Schema) write(b *bytes.Buffer) error {
	if s == nil {
		b.WriteString("true")
		return nil
	}
	if s.Bool != nil {
		b.WriteString(strconv.FormatBool(*s.Bool))
		return nil
	}
	w := &objWriter{b: b, first: true}
	b.WriteByte('{')
	w.str("$ref", s.Ref)
	switch len(s.Types) {
	case 0:
	case 1:
		w.str("type", s.Types[0])
	default:
		w.key("type")
		b.WriteByte('[')
		for i, t := range s.Types {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, t)
		}
		b.WriteByte(']')
	}
	w.str("title", s.Title)
	w.str("description", s.Description)
	w.values("enum", s.Enum)
	if s.HasConst {
		w.value("const", s.Const)
	}
	w.str("format", s.Format)
	w.str("contentEncoding", s.ContentEncoding)
	w.str("pattern", s.Pattern)
	w.int("minLength", s.MinLength)
	w.int("maxLength", s.MaxLength)
	w.num("minimum", s.Minimum)
	w.num("exclusiveMinimum", s.ExclusiveMinimum)
	w.num("maximum", s.Maximum)
	w.num("exclusiveMaximum", s.ExclusiveMaximum)
	w.num("multipleOf", s.MultipleOf)
	w.schema("items", s.Items)
	w.int("minItems", s.MinItems)
	w.int("maxItems", s.MaxItems)
	w.boolean("uniqueItems", s.UniqueItems)
	if s.Properties != nil || s.HasType("object") {
		w.key("properties")
		b.WriteByte('{')
		for i, p := range s.Properties {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, p.Name)
			b.WriteByte(':')
			if err := p.Schema.write(b); err != nil && w.err == nil {
				w.err = err
			}
		}
		b.WriteByte('}')
	}
	if len(s.Required) > 0 {
		w.key("required")
		b.WriteByte('[')
		for i, r := range s.Required {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, r)
		}
		b.WriteByte(']')
	}
	w.schema("additionalProperties", s.AdditionalProperties)
	w.schema("propertyNames", s.PropertyNames)
	w.int("minProperties", s.MinProperties)
	w.int("maxProperties", s.MaxProperties)
	w.schemas("anyOf", s.AnyOf)
	w.schemas("oneOf", s.OneOf)
	w.schemas("allOf", s.AllOf)
	if s.HasDefault {
		w.value("default", s.Default)
	}
	w.values("examples", s.Examples)
	w.boolean("deprecated", s.Deprecated)
	w.boolean("readOnly", s.ReadOnly)
	w.boolean("writeOnly", s.WriteOnly)
	for _, k := range s.Extra {
		if !json.Valid(k.Value) {
			if w.err == nil {
				w.err = fmt.Errorf("schema: keyword %q: invalid JSON value", k.Name)
			}
			continue
		}
		w.key(k.Name)
		if err := json.Compact(b, k.Value); err != nil && w.err == nil {
			w.err = err
		}
	}
	if len(s.Defs) > 0 {
		w.key("$defs")
		b.WriteByte('{')
		for i, d := range s.Defs {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, d.Name)
			b.WriteByte(':')
			if err := d.Schema.write(b); err != nil && w.err == nil {
				w.err = err
			}
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return w.err
}

// writeString writes s as a JSON string, escaping as encoding/json does
// (without HTML escaping).
func writeString(b *bytes.Buffer, s string) {
	data, _ := json.Marshal(s) // a string always marshals
	// json.Marshal escapes <, > and & for HTML; undo that for readability.
	if bytes.ContainsAny(data, `\`) {
		var tmp bytes.Buffer
		enc := json.NewEncoder(&tmp)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
		data = bytes.TrimSuffix(tmp.Bytes(), []byte("\n"))
	}
	b.Write(data)
}
