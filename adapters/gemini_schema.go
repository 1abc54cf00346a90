package adapters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

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

func (ps geminiProps) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, p.name)
		b.WriteByte(':')
		data, err := marshalNoEscape(p.schema)
		if err != nil {
			return nil, err
		}
		b.Write(data)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// gem converts one node into Gemini's parameters subset.
func (c *conv) gem(s *schema.Schema, path string) (*geminiSchema, bool, error) {
	if s == nil || s.Bool != nil {
		if s != nil && !*s.Bool {
			return nil, false, c.errf(path, ErrUnsupported, "the schema false (no value allowed) cannot be expressed in Gemini parameters")
		}
		return nil, false, c.gemUntyped(path)
	}
	if s.Ref != "" {
		name, def, err := c.resolve(s.Ref, path)
		if err != nil {
			return nil, false, err
		}
		if !c.enter(name) {
			return nil, true, nil
		}
		defer c.leave()
		node := def
		if s.Description != "" {
			cp := *def
			cp.Description = s.Description
			node = &cp
		}
		return c.gem(node, path)
	}
	if len(s.AllOf) > 0 {
		if len(s.AllOf) != 1 || s.AllOf[0] == nil || s.AllOf[0].Bool != nil {
			return nil, false, c.errf(path, ErrUnsupported, "allOf with %d schemas cannot be expressed in Gemini parameters (consider merging them into one object schema)", len(s.AllOf))
		}
		cp := *s
		cp.AllOf = nil
		merged, ok := mergeInto(&cp, s.AllOf[0])
		if !ok {
			return nil, false, c.errf(path, ErrUnsupported, "allOf whose schema conflicts with its siblings cannot be expressed in Gemini parameters")
		}
		return c.gem(merged, path)
	}

	var n notes
	out := &geminiSchema{}
	nullable := false

	// Unions: anyOf and oneOf (oneOf is read as anyOf), with null branches
	// turned into nullable; one remaining branch is the node itself.
	if s.AnyOf != nil || s.OneOf != nil {
		var branches []*schema.Schema
		for _, b := range append(append([]*schema.Schema(nil), s.AnyOf...), s.OneOf...) {
			if isNullSchema(b) {
				nullable = true
				continue
			}
			branches = append(branches, b)
		}
		var kept []*geminiSchema
		for i, b := range branches {
			g, cut, err := c.gem(b, fmt.Sprintf("%s/anyOf/%d", path, i))
			if c.fail(err) {
				kept = append(kept, &geminiSchema{}) // reported; the result is discarded
				continue
			}
			if !cut {
				kept = append(kept, g)
			}
		}
		if len(kept) == 0 {
			return nil, true, nil
		}
		if len(s.Types) == 0 && len(kept) == 1 && s.Properties == nil && s.Items == nil {
			g := kept[0]
			if s.Description != "" {
				g.Description = s.Description
			}
			g.Nullable = g.Nullable || nullable
			return g, false, nil
		}
		if len(s.Types) == 0 {
			out.AnyOf = kept
			out.Description = s.Description
			if nullable {
				for _, k := range kept {
					k.Nullable = true
				}
			}
			return out, false, nil
		}
		if c.cfg.gemini == geminiAuto {
			return nil, false, c.errf(path, ErrUnsupported, "a union (anyOf) next to a type cannot be expressed in Gemini parameters")
		}
		n.addText("anyOf", "one of several alternatives, not expressible here")
	}

	types := s.Types
	if s.HasType("null") {
		nullable = true
		types = without(types, "null")
	}
	if len(types) > 1 {
		// Several types: one anyOf branch per type.
		out.Description = s.Description
		for _, t := range types {
			cp := *s
			cp.Types, cp.Description, cp.Title = []string{t}, "", ""
			cp.AnyOf, cp.OneOf = nil, nil
			g, cut, err := c.gem(&cp, path)
			if c.fail(err) {
				continue
			}
			if cut {
				return nil, true, nil
			}
			g.Nullable = g.Nullable || nullable
			out.AnyOf = append(out.AnyOf, g)
		}
		return out, false, nil
	}
	typ := ""
	if len(types) == 1 {
		typ = types[0]
	}

	// enum and const: strings only.
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
			return nil, false, c.errf(path, ErrUnsupported, "a schema that only allows null cannot be expressed in Gemini parameters")
		default:
			return nil, false, c.gemUntyped(path)
		}
	}
	switch typ {
	case "string", "integer", "number", "boolean", "array", "object":
	default:
		return nil, false, c.errf(path, ErrUnsupported, "type %q cannot be expressed in Gemini parameters", typ)
	}
	out.Type = typ
	out.Description = s.Description
	if len(enum) > 0 {
		if typ == "string" && allStrings(enum) {
			out.Enum = make([]string, len(enum))
			for i, v := range enum {
				out.Enum[i] = v.(string)
			}
		} else if s.HasConst && len(s.Enum) == 0 {
			n.add("const", s.Const)
		} else {
			n.add("enum", enum)
		}
	}

	switch typ {
	case "string":
		if s.Format != "" {
			if geminiFormatOK([]string{typ}, s.Format) {
				out.Format = s.Format
			} else {
				n.addText("format", s.Format)
			}
		}
		if s.ContentEncoding != "" {
			n.addText("contentEncoding", s.ContentEncoding)
		}
		out.Pattern = s.Pattern
		out.MinLength, out.MaxLength = copyInt(s.MinLength), copyInt(s.MaxLength)
	case "integer", "number":
		switch {
		case s.Format != "" && geminiFormatOK([]string{typ}, s.Format):
			out.Format = s.Format
		case s.Format != "":
			n.addText("format", s.Format)
		case typ == "integer":
			out.Format = "int64"
		}
		out.Minimum = exclusiveToInclusive(s, s.ExclusiveMinimum, s.Minimum, +1, &n, "exclusiveMinimum")
		out.Maximum = exclusiveToInclusive(s, s.ExclusiveMaximum, s.Maximum, -1, &n, "exclusiveMaximum")
		n.addNum("multipleOf", s.MultipleOf)
	case "array":
		if s.Items == nil || s.Items.Bool != nil && *s.Items.Bool {
			return nil, false, c.errf(path, ErrUnsupported, "an array without typed \"items\" cannot be expressed in Gemini parameters%s", gemHint)
		}
		items, cut, err := c.gem(s.Items, path+"/items")
		if cut && err == nil {
			return nil, true, nil
		}
		c.fail(err)
		out.Items = items
		out.MinItems, out.MaxItems = copyInt(s.MinItems), copyInt(s.MaxItems)
		if s.UniqueItems {
			n.add("uniqueItems", true)
		}
	case "object":
		if err := c.gemObject(s, out, path, &n); err != nil {
			return nil, false, err
		}
	}
	if s.HasDefault && !hasNull(s.Default) {
		if data, err := marshalNoEscape(s.Default); err == nil {
			out.Default = data
		}
	}
	for _, e := range s.Examples {
		if !hasNull(e) {
			if data, err := marshalNoEscape(e); err == nil {
				out.Example = data
				break
			}
		}
	}
	out.Description = n.appendTo(out.Description)
	out.Nullable = nullable
	return out, false, nil
}

func (c *conv) gemObject(s *schema.Schema, out *geminiSchema, path string, n *notes) error {
	ap := s.AdditionalProperties
	if ap != nil && !ap.IsFalse() && len(s.Properties) == 0 {
		return c.errf(path, ErrUnsupported, "a map (an object with additionalProperties and no properties) cannot be expressed in Gemini parameters, which has no additionalProperties%s", gemHint)
	}
	required := make(map[string]bool, len(s.Required))
	for _, r := range s.Required {
		required[r] = true
	}
	for _, p := range s.Properties {
		if !geminiKey.match(p.Name) {
			c.fail(c.errf(path, ErrPropertyKey, "property key %q does not match Gemini's %s", p.Name, geminiKey.text))
			continue
		}
		g, cut, err := c.gem(p.Schema, path+"/properties/"+pointerEscape(p.Name))
		if c.fail(err) {
			continue
		}
		if cut {
			if required[p.Name] {
				c.fail(c.errRequiredCut(path, p.Name))
				continue
			}
			n.cut(p.Name, c.cfg.depth)
			continue
		}
		if g.Type == "object" && len(g.Properties) == 0 && g.AnyOf == nil {
			// Gemini rejects an OBJECT without properties.
			if required[p.Name] {
				c.fail(c.errf(path, ErrUnsupported,
					"required property %q is an object without properties, which Gemini parameters cannot express and no call could then supply%s", p.Name, gemHint))
				continue
			}
			if c.cfg.gemini == geminiAuto {
				c.fail(c.errf(path, ErrUnsupported, "property %q is an object without properties, which Gemini parameters cannot express", p.Name))
				continue
			}
			n.addText(fmt.Sprintf("%q omitted", p.Name), "an object without properties")
			continue
		}
		out.Properties = append(out.Properties, geminiProp{p.Name, g})
	}
	if len(out.Properties) >= 2 {
		out.PropertyOrdering = make([]string, len(out.Properties))
		for i, p := range out.Properties {
			out.PropertyOrdering[i] = p.name
		}
	}
	for _, r := range s.Required {
		if required[r] {
			out.Required = append(out.Required, r)
		}
	}
	out.MinProperties, out.MaxProperties = copyInt(s.MinProperties), copyInt(s.MaxProperties)
	if s.PropertyNames != nil {
		n.add("propertyNames", s.PropertyNames) // no such field in Gemini's Schema
	}
	return nil
}

func (c *conv) gemUntyped(path string) error {
	return c.errf(path, ErrUnsupported, "an untyped value (any JSON) cannot be expressed in Gemini parameters, which needs a type on every schema%s", gemHint)
}

// gemHint is the way out of a schema the "parameters" subset cannot carry;
// only GeminiParameters() shows it, since ToGemini otherwise falls back.
const gemHint = " (without GeminiParameters(), ToGemini sends this declaration as parametersJsonSchema; or change the Go type)"

// marshalNoEscape is json.Marshal without HTML escaping.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func writeJSONString(b *bytes.Buffer, s string) {
	if !strings.ContainsAny(s, "\"\\<>&") && isPlainASCII(s) {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	data, _ := marshalNoEscape(s)
	b.Write(data)
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}
