package adapters

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
	"github.com/toolnexus/toolnexus/schema"
)

// geminiSchema is one node of Gemini's "parameters" schema, the OpenAPI 3.0
// subset of go-genai's Schema: only these fields exist, anything else is a
// parse error for the whole request. Types are lowercase (REST proto-JSON
// accepts both cases). The field order is the key order on the wire.
type geminiSchema struct {
	Type             string          `json:"type,omitempty"`
	Format           string          `json:"format,omitempty"`
	Description      string          `json:"description,omitempty"`
	Nullable         bool            `json:"nullable,omitempty"`
	Enum             []string        `json:"enum,omitempty"`
	Pattern          string          `json:"pattern,omitempty"`
	MinLength        *int64          `json:"minLength,omitempty"`
	MaxLength        *int64          `json:"maxLength,omitempty"`
	Minimum          json.Number     `json:"minimum,omitempty"`
	Maximum          json.Number     `json:"maximum,omitempty"`
	Items            *geminiSchema   `json:"items,omitempty"`
	MinItems         *int64          `json:"minItems,omitempty"`
	MaxItems         *int64          `json:"maxItems,omitempty"`
	Properties       geminiProps     `json:"properties,omitempty"`
	PropertyOrdering []string        `json:"propertyOrdering,omitempty"`
	Required         []string        `json:"required,omitempty"`
	MinProperties    *int64          `json:"minProperties,omitempty"`
	MaxProperties    *int64          `json:"maxProperties,omitempty"`
	AnyOf            []*geminiSchema `json:"anyOf,omitempty"`
	Default          json.RawMessage `json:"default,omitempty"`
	Example          json.RawMessage `json:"example,omitempty"`
}

type geminiProp struct {
	name   string
	schema *geminiSchema
}

// geminiProps are properties in order.
type geminiProps []geminiProp

// MarshalJSON writes the properties as appendJSON writes them.
func (ps geminiProps) MarshalJSON() ([]byte, error) {
	b, err := ps.appendJSON(nil)
	if err != nil {
		return nil, err
	}
	return b, nil
}

func (ps geminiProps) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendJSONString(b, p.name), ':')
		var err error
		if b, err = p.schema.appendJSON(b); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// MarshalJSON writes the node as appendJSON writes it.
func (g *geminiSchema) MarshalJSON() ([]byte, error) { return g.appendJSON(nil) }

// appendJSON appends the node as JSON: its members in the order of its
// fields, omitted when empty, as encoding/json (without HTML escaping)
// writes the struct, in one pass over the tree. (Marshalling each node's
// properties through encoding/json made it compact every subtree again
// at every level above it: rendering 240 nested objects allocated 438
// bytes per schema byte, 60 of them 140.)
func (g *geminiSchema) appendJSON(b []byte) ([]byte, error) {
	first := true
	key := func(name string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(append(append(b, '"'), name...), `":`...)
	}
	str := func(name, v string) {
		if v != "" {
			key(name)
			b = appendJSONString(b, v)
		}
	}
	strs := func(name string, vs []string) {
		if len(vs) > 0 {
			key(name)
			for i, v := range vs {
				b = appendJSONString(append(b, "[,"[min(i, 1)]), v)
			}
			b = append(b, ']')
		}
	}
	num := func(name string, v *int64) {
		if v != nil {
			key(name)
			b = strconv.AppendInt(b, *v, 10)
		}
	}
	number := func(name string, v json.Number) error {
		if v == "" {
			return nil
		}
		if jsonwire.Check([]byte(v), 1) != nil || v[0] != '-' && (v[0] < '0' || v[0] > '9') {
			return fmt.Errorf("json: invalid number literal %q", string(v))
		}
		key(name)
		b = append(b, v...)
		return nil
	}
	b = append(b, '{')
	str("type", g.Type)
	str("format", g.Format)
	str("description", g.Description)
	if g.Nullable {
		key("nullable")
		b = append(b, "true"...)
	}
	strs("enum", g.Enum)
	str("pattern", g.Pattern)
	num("minLength", g.MinLength)
	num("maxLength", g.MaxLength)
	if err := number("minimum", g.Minimum); err != nil {
		return nil, err
	}
	if err := number("maximum", g.Maximum); err != nil {
		return nil, err
	}
	var err error
	if g.Items != nil {
		key("items")
		if b, err = g.Items.appendJSON(b); err != nil {
			return nil, err
		}
	}
	num("minItems", g.MinItems)
	num("maxItems", g.MaxItems)
	if len(g.Properties) > 0 {
		key("properties")
		if b, err = g.Properties.appendJSON(b); err != nil {
			return nil, err
		}
	}
	strs("propertyOrdering", g.PropertyOrdering)
	strs("required", g.Required)
	num("minProperties", g.MinProperties)
	num("maxProperties", g.MaxProperties)
	if len(g.AnyOf) > 0 {
		key("anyOf")
		for i, a := range g.AnyOf {
			if b, err = a.appendJSON(append(b, "[,"[min(i, 1)])); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	for _, raw := range [...]struct {
		name string
		v    json.RawMessage
	}{{"default", g.Default}, {"example", g.Example}} {
		if len(raw.v) > 0 {
			key(raw.name)
			b = jsonwire.AppendCompact(b, raw.v)
		}
	}
	return append(b, '}'), nil
}

// appendJSONString appends s as encoding/json (without HTML escaping)
// writes it.
func appendJSONString(b []byte, s string) []byte {
	if !strings.ContainsAny(s, "\"\\") && isPlainASCII(s) {
		return append(append(append(b, '"'), s...), '"')
	}
	data, _ := marshalNoEscape(s)
	return append(b, data...)
}

// geminiNodes are the node rules (dialect.nodes) of Gemini "parameters",
// the OpenAPI 3.0 subset: one type, null as nullable, string enums only, a
// type list or a union as anyOf, only the keywords of the node's type, maps
// and untyped values errors; the walk's result is then turned into
// Gemini's node type (toGemini). fallback: ToGemini can send a declaration
// the subset cannot carry as parametersJsonSchema (its default mode), so
// what GeminiParameters() renders with a loss (a union next to a type, an
// optional object without properties) is an error that makes it do so.
type geminiNodes struct{ fallback bool }

// shape brings one node into the shape of the OpenAPI subset before
// the walk handles its keywords (js, with geminiParamsDialect): a union
// (oneOf was folded into anyOf) and a type list become anyOf nodes whose
// branches are walked, with null branches and the null type turned into
// nullable ("null" in the node's types, read by toGemini); an untyped node
// gets its type from its keywords or is an error; enum and const keep only
// strings on a string; and the node keeps only the keywords of its type.
// final reports that node is the result (a union, a type list, a cut or an
// error); otherwise the walk goes on with node, whose enum, const and anyOf
// notes are in n.
func (r geminiNodes) shape(c *conv, s *schema.Schema, path *spath, n *notes) (node *schema.Schema, final, cut bool, err error) {
	nullable := false
	if s.AnyOf != nil {
		var branches []*schema.Schema
		for _, b := range s.AnyOf {
			if isNullSchema(b) {
				nullable = true
				continue
			}
			branches = append(branches, b)
		}
		if node, final, cut, err := r.union(c, s, branches, nullable, path, n); final {
			return node, true, cut, err
		}
	}
	types := s.Types
	if s.HasType("null") {
		nullable = true
		types = without(types, "null")
	}
	if len(types) > 1 {
		node, cut := r.typeList(c, s, types, nullable, path)
		return node, true, cut, nil
	}
	typ := ""
	if len(types) == 1 {
		typ = types[0]
	}
	return r.oneType(c, s, typ, nullable, path, n)
}

// union shapes a node with anyOf (oneOf was folded into it), its null
// branches taken out (nullable): the branches walked, the node an anyOf of
// them, or the one branch itself. final is false when the union sits next
// to a type and GeminiParameters() keeps it as a note (in n): the node is
// then shaped by its type.
func (r geminiNodes) union(c *conv, s *schema.Schema, branches []*schema.Schema, nullable bool, path *spath, n *notes) (node *schema.Schema, final, cut bool, err error) {
	var kept []*schema.Schema
	for i, b := range branches {
		g, bcut, err := c.js(b, path.key("/anyOf").index(i))
		if err == nil && len(branches) > 1 && r.empty(g) {
			// (A single branch stands for the node itself, which the
			// caller checks as a property, items or the root.)
			err = c.errf(path.key("/anyOf").index(i), ErrUnsupported, "a union branch that is an object without properties cannot be expressed in %s%s", c.d.name, c.d.hint)
		}
		if c.fail(err) {
			kept = append(kept, &schema.Schema{}) // reported; the result is discarded
			continue
		}
		if !bcut {
			kept = append(kept, g)
		}
	}
	switch {
	case len(kept) == 0:
		return nil, true, true, nil
	case len(s.Types) == 0 && len(kept) == 1 && s.Properties == nil && s.Items == nil:
		g := kept[0]
		if s.Description != "" {
			g.Description = s.Description
		}
		return withNull(g, nullable), true, false, nil
	case len(s.Types) == 0:
		for i, k := range kept {
			kept[i] = withNull(k, nullable)
		}
		return &schema.Schema{Description: s.Description, AnyOf: kept}, true, false, nil
	case r.fallback:
		return nil, true, false, c.errf(path, ErrUnsupported, "a union (anyOf) next to a type cannot be expressed in %s", c.d.name)
	}
	n.addText("anyOf", "one of several alternatives, not expressible here")
	return nil, false, false, nil
}

// typeList shapes a node with several types: one anyOf branch per type.
// cut reports a branch cut by the inlining depth, and the node with it.
func (r geminiNodes) typeList(c *conv, s *schema.Schema, types []string, nullable bool, path *spath) (node *schema.Schema, cut bool) {
	out := &schema.Schema{Description: s.Description}
	for _, t := range types {
		cp := *s
		cp.Types, cp.Description, cp.Title = []string{t}, "", ""
		cp.AnyOf = nil
		g, tcut, err := c.js(&cp, path)
		if err == nil && r.empty(g) {
			err = c.errf(path, ErrUnsupported, "an object without properties, one of several types, cannot be expressed in %s%s", c.d.name, c.d.hint)
		}
		if c.fail(err) {
			continue
		}
		if tcut {
			return nil, true
		}
		out.AnyOf = append(out.AnyOf, withNull(g, nullable))
	}
	return out, false
}

// oneType shapes a node of one type, typ ("" when s names none: it is
// told from the keywords): enum and const kept only as strings on a
// string, the keywords of other types dropped, and what the subset cannot
// say (a map, an array without typed items, an untyped value) an error.
func (r geminiNodes) oneType(c *conv, s *schema.Schema, typ string, nullable bool, path *spath, n *notes) (node *schema.Schema, final, cut bool, err error) {
	var enum []any
	if s.Enum != nil {
		var had bool
		enum, had = withoutNull(s.Enum)
		nullable = nullable || had
	}
	if s.HasConst {
		if s.Const == nil {
			nullable = true
		} else {
			enum = []any{s.Const}
		}
	}
	if typ == "" {
		switch {
		case s.Properties != nil || s.AdditionalProperties != nil:
			typ = "object"
		case s.Items != nil:
			typ = "array"
		case len(enum) > 0 && allStrings(enum):
			typ = "string"
		case s.HasType("null") && !s.HasConst:
			return nil, true, false, c.errf(path, ErrUnsupported, "a schema that only allows null cannot be expressed in %s", c.d.name)
		default:
			return nil, true, false, c.untyped(path)
		}
	}
	switch typ {
	case "string", "integer", "number", "boolean", "array", "object":
	default:
		return nil, true, false, c.errf(path, ErrUnsupported, "type %q cannot be expressed in %s", typ, c.d.name)
	}

	cp := *s
	cp.Types = []string{typ}
	if nullable {
		cp.Types = append(cp.Types, "null")
	}
	cp.Enum, cp.Const, cp.HasConst, cp.AnyOf = nil, nil, false, nil
	if len(enum) > 0 {
		switch {
		case typ == "string" && allStrings(enum):
			cp.Enum = enum
		case s.HasConst && len(s.Enum) == 0:
			n.add("const", s.Const)
		default:
			n.add("enum", enum)
		}
	}
	keepTypeKeywords(&cp, typ)
	switch typ {
	case "array":
		if s.Items == nil || s.Items.Bool != nil && *s.Items.Bool {
			return nil, true, false, c.errf(path, ErrUnsupported, "an array without typed \"items\" cannot be expressed in %s%s", c.d.name, c.d.hint)
		}
	case "object":
		if ap := s.AdditionalProperties; ap != nil && !ap.IsFalse() && len(s.Properties) == 0 {
			return nil, true, false, c.errf(path, ErrUnsupported, "a map (an object with additionalProperties and no properties) cannot be expressed in %s, which has no additionalProperties%s", c.d.name, c.d.hint)
		}
		cp.AdditionalProperties = nil // a closed or open object with properties: the subset has no such keyword
	}
	return &cp, false, false, nil
}

// keepTypeKeywords clears the keywords that do not belong to typ, which the
// OpenAPI subset leaves out; an integer without a format gets int64.
func keepTypeKeywords(s *schema.Schema, typ string) {
	if typ != "string" {
		s.ContentEncoding, s.Pattern, s.MinLength, s.MaxLength = "", "", nil, nil
	}
	numeric := typ == "integer" || typ == "number"
	if !numeric {
		s.Minimum, s.Maximum, s.ExclusiveMinimum, s.ExclusiveMaximum, s.MultipleOf = "", "", "", "", ""
	}
	if typ != "string" && !numeric {
		s.Format = ""
	}
	if typ == "integer" && s.Format == "" {
		s.Format = "int64"
	}
	if typ != "array" {
		s.Items, s.MinItems, s.MaxItems, s.UniqueItems = nil, nil, nil, false
	}
	if typ != "object" {
		s.Properties, s.Required, s.AdditionalProperties = nil, nil, nil
		s.MinProperties, s.MaxProperties, s.PropertyNames = nil, nil, nil
	}
}

// withNull makes s nullable when nullable is set: "null" joins its types
// (alone for an anyOf node), which toGemini turns into "nullable": true.
func withNull(s *schema.Schema, nullable bool) *schema.Schema {
	if nullable && !s.HasType("null") {
		s.Types = append(s.Types, "null")
	}
	return s
}

// empty reports whether a node the walk built in the OpenAPI subset is an
// object without properties (and not a union), which Gemini's "parameters"
// rejects wherever it appears.
func (geminiNodes) empty(s *schema.Schema) bool {
	return s != nil && s.HasType("object") && len(s.Properties) == 0 && s.AnyOf == nil
}

// emptyProperty handles a property whose value is an object without
// properties, which Gemini rejects: an error when it is required or when
// ToGemini can fall back to parametersJsonSchema, else left out with a note.
func (r geminiNodes) emptyProperty(c *conv, path *spath, prop string, required bool, n *notes) {
	switch {
	case required:
		c.fail(c.errf(path, ErrUnsupported,
			"required property %q is an object without properties, which %s cannot express and no call could then supply%s", prop, c.d.name, c.d.hint))
	case r.fallback:
		c.fail(c.errf(path, ErrUnsupported, "property %q is an object without properties, which %s cannot express", prop, c.d.name))
	default:
		n.addText(fmt.Sprintf("%q omitted", prop), "an object without properties")
	}
}

// toGemini turns a node the walk built in geminiParamsDialect into
// Gemini's node type: the last, small step of the one walk.
func toGemini(s *schema.Schema) *geminiSchema {
	g := &geminiSchema{
		Format: s.Format, Description: s.Description, Pattern: s.Pattern,
		MinLength: s.MinLength, MaxLength: s.MaxLength, Minimum: s.Minimum, Maximum: s.Maximum,
		MinItems: s.MinItems, MaxItems: s.MaxItems, Required: s.Required,
		MinProperties: s.MinProperties, MaxProperties: s.MaxProperties,
	}
	for _, t := range s.Types {
		if t == "null" {
			g.Nullable = true
		} else {
			g.Type = t
		}
	}
	for _, v := range s.Enum {
		g.Enum = append(g.Enum, v.(string)) // shape keeps string enums only
	}
	if s.Items != nil {
		g.Items = toGemini(s.Items)
	}
	for _, p := range s.Properties {
		g.Properties = append(g.Properties, geminiProp{p.Name, toGemini(p.Schema)})
	}
	if len(g.Properties) >= 2 {
		g.PropertyOrdering = make([]string, len(g.Properties))
		for i, p := range g.Properties {
			g.PropertyOrdering[i] = p.name
		}
	}
	for _, b := range s.AnyOf {
		g.AnyOf = append(g.AnyOf, toGemini(b))
	}
	if s.HasDefault {
		if data, err := marshalNoEscape(s.Default); err == nil {
			g.Default = data
		}
	}
	if len(s.Examples) > 0 {
		if data, err := marshalNoEscape(s.Examples[0]); err == nil {
			g.Example = data
		}
	}
	return g
}

// gemHint is the way out of a schema the "parameters" subset cannot carry;
// only GeminiParameters() shows it, since ToGemini otherwise falls back.
const gemHint = " (without GeminiParameters(), ToGemini sends this declaration as parametersJsonSchema; or change the Go type)"
