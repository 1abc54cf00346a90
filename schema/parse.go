package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ErrParse is wrapped by every error of [Parse].
var ErrParse = errors.New("invalid schema document")

// Parse parses a hand-written JSON Schema into a [Schema], keeping the order
// of "properties" and of unknown keywords (kept verbatim in Extra, in
// document order); "$defs" are sorted by name. The root must be a JSON
// object. A subschema may be a boolean schema, and "type" a string or an
// array of strings.
//
// Parse is lenient about keyword values: a known keyword whose value does not
// have the shape this package models (an "items" array, a boolean
// "exclusiveMinimum", a fractional "minLength") is kept in Extra unchanged,
// so that nothing is lost; but "items", "additionalProperties",
// "propertyNames", the members of "properties" and "$defs" and the items of
// "anyOf", "oneOf" and "allOf" must be schemas (an "items" array excepted).
// Keywords with a false boolean value ("uniqueItems": false) are dropped,
// being the default. Invalid JSON, a
// duplicate key, a non-object root or a subschema that is neither an object
// nor a boolean is an error wrapping [ErrParse].
//
// For any schema s written by [Schema.MarshalJSON], Parse gives back a tree
// equal to s, with one normalisation: an empty "properties" of an object
// schema and an empty "required" parse as nil (MarshalJSON writes the former
// as {} and omits the latter).
func Parse(data []byte) (*Schema, error) {
	data = bytes.TrimSpace(data)
	var probe json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("schema: Parse: %w: %v", ErrParse, err)
	}
	if len(data) == 0 || data[0] != '{' {
		return nil, fmt.Errorf("schema: Parse: %w: the root must be a JSON object", ErrParse)
	}
	s, err := parseSchema(data, "")
	if err != nil {
		return nil, fmt.Errorf("schema: Parse: %w: %v", ErrParse, err)
	}
	return s, nil
}

type member struct {
	key string
	raw json.RawMessage
}

// members returns the members of the JSON object data in document order.
func members(data []byte, path string) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var out []member
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string)
		if seen[key] {
			return nil, fmt.Errorf("at %q: duplicate key %q", path, key)
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, member{key, raw})
	}
	return out, nil
}

func pointerEscape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

func parseSchema(data []byte, path string) (*Schema, error) {
	switch string(data) {
	case "true":
		return True(), nil
	case "false":
		return False(), nil
	}
	if len(data) == 0 || data[0] != '{' {
		return nil, fmt.Errorf("at %q: a schema must be an object or a boolean", path)
	}
	ms, err := members(data, path)
	if err != nil {
		return nil, err
	}
	s := &Schema{}
	for _, m := range ms {
		ok, err := s.setKeyword(m.key, m.raw, path+"/"+pointerEscape(m.key))
		if err != nil {
			return nil, err
		}
		if !ok {
			var buf bytes.Buffer
			if err := json.Compact(&buf, m.raw); err != nil {
				return nil, err
			}
			s.Extra = append(s.Extra, Keyword{Name: m.key, Value: json.RawMessage(buf.Bytes())})
		}
	}
	if len(s.Properties) == 0 && s.HasType("object") {
		s.Properties = nil
	}
	if len(s.Required) == 0 {
		s.Required = nil
	}
	return s, nil
}

// setKeyword stores one keyword in s. It returns false when the keyword is
// unknown or its value has a shape s does not model.
func (s *Schema) setKeyword(key string, raw json.RawMessage, path string) (bool, error) {
	str := func(dst *string) bool { return json.Unmarshal(raw, dst) == nil }
	count := func(dst **int64) bool {
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || n < 0 {
			return false
		}
		*dst = &n
		return true
	}
	number := func(dst *json.Number) bool {
		if len(raw) == 0 || !(raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
			return false
		}
		*dst = json.Number(raw)
		return true
	}
	flag := func(dst *bool) bool { return json.Unmarshal(raw, dst) == nil }
	sub := func(dst **Schema) (bool, error) {
		if len(raw) > 0 && raw[0] == '[' {
			return false, nil // e.g. draft-04 tuple "items"
		}
		v, err := parseSchema(raw, path)
		*dst = v
		return err == nil, err
	}
	list := func(dst *[]*Schema) (bool, error) {
		var raws []json.RawMessage
		if json.Unmarshal(raw, &raws) != nil {
			return false, nil
		}
		out := make([]*Schema, len(raws))
		for i, r := range raws {
			v, err := parseSchema(r, path+"/"+strconv.Itoa(i))
			if err != nil {
				return false, err
			}
			out[i] = v
		}
		*dst = out
		return true, nil
	}
	named := func(add func(name string, v *Schema)) (bool, error) {
		if len(raw) == 0 || raw[0] != '{' {
			return false, nil
		}
		ms, err := members(raw, path)
		if err != nil {
			return false, err
		}
		for _, m := range ms {
			v, err := parseSchema(m.raw, path+"/"+pointerEscape(m.key))
			if err != nil {
				return false, err
			}
			add(m.key, v)
		}
		return true, nil
	}
	values := func(dst *[]any) (bool, error) {
		var raws []json.RawMessage
		if json.Unmarshal(raw, &raws) != nil {
			return false, nil
		}
		out := make([]any, len(raws))
		for i, r := range raws {
			v, err := jsonValue(r)
			if err != nil {
				return false, err
			}
			out[i] = v
		}
		*dst = out
		return true, nil
	}

	switch key {
	case "$ref":
		return str(&s.Ref), nil
	case "type":
		var one string
		if json.Unmarshal(raw, &one) == nil {
			s.Types = []string{one}
			return true, nil
		}
		var types []string
		if json.Unmarshal(raw, &types) != nil {
			return false, nil
		}
		s.Types = types
		return true, nil
	case "title":
		return str(&s.Title), nil
	case "description":
		return str(&s.Description), nil
	case "format":
		return str(&s.Format), nil
	case "contentEncoding":
		return str(&s.ContentEncoding), nil
	case "pattern":
		return str(&s.Pattern), nil
	case "enum":
		return values(&s.Enum)
	case "examples":
		return values(&s.Examples)
	case "const", "default":
		v, err := jsonValue(raw)
		if err != nil {
			return false, err
		}
		if key == "const" {
			s.Const, s.HasConst = v, true
		} else {
			s.Default, s.HasDefault = v, true
		}
		return true, nil
	case "minLength":
		return count(&s.MinLength), nil
	case "maxLength":
		return count(&s.MaxLength), nil
	case "minItems":
		return count(&s.MinItems), nil
	case "maxItems":
		return count(&s.MaxItems), nil
	case "minProperties":
		return count(&s.MinProperties), nil
	case "maxProperties":
		return count(&s.MaxProperties), nil
	case "minimum":
		return number(&s.Minimum), nil
	case "exclusiveMinimum":
		return number(&s.ExclusiveMinimum), nil
	case "maximum":
		return number(&s.Maximum), nil
	case "exclusiveMaximum":
		return number(&s.ExclusiveMaximum), nil
	case "multipleOf":
		return number(&s.MultipleOf), nil
	case "uniqueItems":
		return flag(&s.UniqueItems), nil
	case "deprecated":
		return flag(&s.Deprecated), nil
	case "readOnly":
		return flag(&s.ReadOnly), nil
	case "writeOnly":
		return flag(&s.WriteOnly), nil
	case "items":
		return sub(&s.Items)
	case "additionalProperties":
		return sub(&s.AdditionalProperties)
	case "propertyNames":
		return sub(&s.PropertyNames)
	case "anyOf":
		return list(&s.AnyOf)
	case "oneOf":
		return list(&s.OneOf)
	case "allOf":
		return list(&s.AllOf)
	case "required":
		var req []string
		if json.Unmarshal(raw, &req) != nil || req == nil {
			return false, nil
		}
		s.Required = req
		return true, nil
	case "properties":
		props := []Property{}
		ok, err := named(func(name string, v *Schema) { props = append(props, Property{name, v}) })
		if ok {
			s.Properties = props
		}
		return ok, err
	case "$defs":
		var defs []Def
		ok, err := named(func(name string, v *Schema) { defs = append(defs, Def{name, v}) })
		if ok && len(defs) > 0 {
			slices.SortFunc(defs, func(a, b Def) int { return strings.Compare(a.Name, b.Name) })
			s.Defs = defs
		}
		return ok, err
	}
	return false, nil
}
