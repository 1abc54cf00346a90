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
// being the default. The document is read in one pass, in time linear in
// its size. Invalid JSON, nesting deeper than [MaxParseDepth], a
// duplicate key, a non-object root or a subschema that is neither an object
// nor a boolean is an error wrapping [ErrParse].
//
// For any schema s written by [Schema.MarshalJSON], Parse gives back a tree
// equal to s, with one normalisation: an empty "properties" of an object
// schema and an empty "required" parse as nil (MarshalJSON writes the former
// as {} and omits the latter).
func Parse(data []byte) (*Schema, error) {
	data = bytes.TrimSpace(data)
	if !json.Valid(data) {
		var probe json.RawMessage
		err := json.Unmarshal(data, &probe)
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, fmt.Errorf("schema: Parse: %w: %v", ErrParse, err)
	}
	if len(data) == 0 || data[0] != '{' {
		return nil, fmt.Errorf("schema: Parse: %w: the root must be a JSON object", ErrParse)
	}
	if depth := nesting(data); depth > MaxParseDepth {
		return nil, fmt.Errorf("schema: Parse: %w: nested %d levels deep, more than %d", ErrParse, depth, MaxParseDepth)
	}
	p := &parser{data: data}
	s, err := p.schema()
	if err != nil {
		return nil, fmt.Errorf("schema: Parse: %w: %v", ErrParse, err)
	}
	return s, nil
}

// MaxParseDepth is the deepest nesting of JSON objects and arrays that
// [Parse] accepts in a schema document, and so the deepest its recursion
// goes. Schemas from other servers (an MCP proxy's) are untrusted.
const MaxParseDepth = 512

// nesting returns the deepest nesting of objects and arrays in valid JSON.
func nesting(data []byte) int {
	depth, deepest := 0, 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}
	return deepest
}

// parser reads a schema document, valid JSON, in one pass: each
// subschema is parsed where it stands, and every other keyword value is
// skipped over once and handed to setKeyword, so that the work is linear
// in the document's size whatever its nesting.
type parser struct {
	data []byte
	i    int
	path []string // JSON Pointer tokens of the current value, rendered on error
}

func (p *parser) ws() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// pathString renders the path as a JSON Pointer.
func (p *parser) pathString() string {
	var b strings.Builder
	for _, t := range p.path {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("at %q: "+format, append([]any{p.pathString()}, args...)...)
}

// skip moves past the value at p.i and returns its text.
func (p *parser) skip() []byte {
	start, depth := p.i, 0
	for {
		switch c := p.data[p.i]; c {
		case '"':
			for p.i++; p.data[p.i] != '"'; p.i++ {
				if p.data[p.i] == '\\' {
					p.i++
				}
			}
			p.i++
		case '{', '[':
			depth++
			p.i++
		case '}', ']':
			depth--
			p.i++
		default:
			for p.i < len(p.data) && !strings.ContainsRune(",:]} \t\r\n", rune(p.data[p.i])) {
				p.i++
			}
		}
		if depth == 0 {
			return p.data[start:p.i]
		}
		p.ws()
		if p.data[p.i] == ',' || p.data[p.i] == ':' {
			p.i++
			p.ws()
		}
	}
}

// key reads the object key at p.i and the colon after it.
func (p *parser) key() (string, error) {
	tok := p.skip()
	var k string
	if bytes.IndexByte(tok, '\\') < 0 {
		k = string(tok[1 : len(tok)-1])
	} else if err := json.Unmarshal(tok, &k); err != nil {
		return "", err
	}
	p.ws()
	p.i++ // ':'
	p.ws()
	return k, nil
}

// members calls f for each member of the object at p.i, with the path
// extended by its key, f reading the member's value; a key given twice is
// an error.
func (p *parser) members(f func(key string) error) error {
	p.i++ // '{'
	p.ws()
	var (
		few  [8]string // the keys of a small object, searched in turn
		n    int
		seen map[string]bool // the keys of a larger one
	)
	for p.data[p.i] != '}' {
		k, err := p.key()
		if err != nil {
			return err
		}
		if slices.Contains(few[:min(n, len(few))], k) || seen[k] {
			return p.errorf("duplicate key %q", k)
		}
		switch {
		case n < len(few):
			few[n] = k
		case n == len(few):
			seen = make(map[string]bool, 2*len(few))
			for _, f := range few {
				seen[f] = true
			}
			fallthrough
		default:
			seen[k] = true
		}
		n++
		p.path = append(p.path, k)
		if err := f(k); err != nil {
			return err
		}
		p.path = p.path[:len(p.path)-1]
		p.ws()
		if p.data[p.i] == ',' {
			p.i++
			p.ws()
		}
	}
	p.i++ // '}'
	return nil
}

// schema parses the schema at p.i.
func (p *parser) schema() (*Schema, error) {
	switch p.data[p.i] {
	case 't':
		p.i += len("true")
		return True(), nil
	case 'f':
		p.i += len("false")
		return False(), nil
	case '{':
	default:
		return nil, p.errorf("a schema must be an object or a boolean")
	}
	s := &Schema{}
	err := p.members(func(key string) error {
		ok, err := p.subschemas(s, key)
		if err != nil || ok {
			return err
		}
		raw := json.RawMessage(p.skip())
		if ok, err = s.setKeyword(key, raw); err != nil || ok {
			return err
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return err
		}
		s.Extra = append(s.Extra, Keyword{Name: key, Value: json.RawMessage(buf.Bytes())})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(s.Properties) == 0 && s.HasType("object") {
		s.Properties = nil
	}
	if len(s.Required) == 0 {
		s.Required = nil
	}
	return s, nil
}

// subschemas parses the value of key at p.i when it is one made of
// schemas ("items" not an array, "anyOf" an array, "properties" an
// object, ...), reporting whether it did; other values are left to
// setKeyword (and Extra).
func (p *parser) subschemas(s *Schema, key string) (bool, error) {
	c := p.data[p.i]
	one := func(dst **Schema) (bool, error) {
		v, err := p.schema()
		*dst = v
		return err == nil, err
	}
	list := func(dst *[]*Schema) (bool, error) {
		out := []*Schema{}
		p.i++ // '['
		p.ws()
		for n := 0; p.data[p.i] != ']'; n++ {
			p.path = append(p.path, strconv.Itoa(n))
			v, err := p.schema()
			if err != nil {
				return false, err
			}
			p.path = p.path[:len(p.path)-1]
			out = append(out, v)
			p.ws()
			if p.data[p.i] == ',' {
				p.i++
				p.ws()
			}
		}
		p.i++ // ']'
		*dst = out
		return true, nil
	}
	switch {
	case key == "items" && c != '[': // an array: draft-04 tuple "items", kept in Extra
		return one(&s.Items)
	case key == "additionalProperties":
		return one(&s.AdditionalProperties)
	case key == "propertyNames":
		return one(&s.PropertyNames)
	case key == "anyOf" && c == '[':
		return list(&s.AnyOf)
	case key == "oneOf" && c == '[':
		return list(&s.OneOf)
	case key == "allOf" && c == '[':
		return list(&s.AllOf)
	case key == "properties" && c == '{':
		props := []Property{}
		err := p.members(func(name string) error {
			v, err := p.schema()
			props = append(props, Property{name, v})
			return err
		})
		if err != nil {
			return false, err
		}
		s.Properties = props
		return true, nil
	case key == "$defs" && c == '{':
		var defs []Def
		err := p.members(func(name string) error {
			v, err := p.schema()
			defs = append(defs, Def{name, v})
			return err
		})
		if err != nil {
			return false, err
		}
		if len(defs) > 0 {
			slices.SortFunc(defs, func(a, b Def) int { return strings.Compare(a.Name, b.Name) })
			s.Defs = defs
		}
		return true, nil
	}
	return false, nil
}

// setKeyword stores one keyword whose value is not made of schemas in s.
// It returns false when the keyword is unknown or its value has a shape s
// does not model.
func (s *Schema) setKeyword(key string, raw json.RawMessage) (bool, error) {
	str := func(dst *string) bool {
		if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
			*dst = string(raw[1 : len(raw)-1]) // valid JSON: no escapes, nothing to decode
			return true
		}
		return json.Unmarshal(raw, dst) == nil
	}
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
		if str(&one) {
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
	case "required":
		var req []string
		if json.Unmarshal(raw, &req) != nil || req == nil {
			return false, nil
		}
		s.Required = req
		return true, nil
	}
	return false, nil
}
