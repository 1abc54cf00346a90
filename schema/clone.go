package schema

import (
	"encoding/json"
	"slices"
)

// Clone returns a deep copy of s (nil for nil). Values in Enum, Const,
// Default and Examples are copied when they are json.RawMessage, []any or
// map[string]any; other values are immutable.
func (s *Schema) Clone() *Schema {
	if s == nil {
		return nil
	}
	c := *s
	if s.Bool != nil {
		c.Bool = ptr(*s.Bool)
	}
	c.Types = slices.Clone(s.Types)
	c.Enum = cloneValues(s.Enum)
	c.Const = cloneValue(s.Const)
	c.MinLength = clonePtr(s.MinLength)
	c.MaxLength = clonePtr(s.MaxLength)
	c.Items = s.Items.Clone()
	c.MinItems = clonePtr(s.MinItems)
	c.MaxItems = clonePtr(s.MaxItems)
	if s.Properties != nil {
		c.Properties = make([]Property, len(s.Properties))
		for i, p := range s.Properties {
			c.Properties[i] = Property{Name: p.Name, Schema: p.Schema.Clone()}
		}
	}
	c.Required = slices.Clone(s.Required)
	c.AdditionalProperties = s.AdditionalProperties.Clone()
	c.PropertyNames = s.PropertyNames.Clone()
	c.MinProperties = clonePtr(s.MinProperties)
	c.MaxProperties = clonePtr(s.MaxProperties)
	c.AnyOf = cloneSchemas(s.AnyOf)
	c.OneOf = cloneSchemas(s.OneOf)
	c.AllOf = cloneSchemas(s.AllOf)
	c.Default = cloneValue(s.Default)
	c.Examples = cloneValues(s.Examples)
	if s.Extra != nil {
		c.Extra = make([]Keyword, len(s.Extra))
		for i, k := range s.Extra {
			c.Extra[i] = Keyword{Name: k.Name, Value: slices.Clone(k.Value)}
		}
	}
	if s.Defs != nil {
		c.Defs = make([]Def, len(s.Defs))
		for i, d := range s.Defs {
			c.Defs[i] = Def{Name: d.Name, Schema: d.Schema.Clone()}
		}
	}
	return &c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneSchemas(ss []*Schema) []*Schema {
	if ss == nil {
		return nil
	}
	out := make([]*Schema, len(ss))
	for i, s := range ss {
		out[i] = s.Clone()
	}
	return out
}

func cloneValues(vs []any) []any {
	if vs == nil {
		return nil
	}
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = cloneValue(v)
	}
	return out
}

func cloneValue(v any) any {
	switch v := v.(type) {
	case json.RawMessage:
		return slices.Clone(v)
	case []byte:
		return slices.Clone(v)
	case []any:
		return cloneValues(v)
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = cloneValue(e)
		}
		return m
	}
	return v
}
