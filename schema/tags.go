package schema

import (
	"encoding/json"
	"math/big"
	"reflect"

	"github.com/toolnexus/toolnexus/internal/fields"
	"github.com/toolnexus/toolnexus/internal/formats"
)

// Formats returns the values the format tag accepts (a new slice each
// time).
func Formats() []string { return formats.Names() }

// applyRules adds what a field's tags say (read and checked by
// internal/fields, the rules the decoder shares) to s, the schema of the
// field's type without pointers.
func applyRules(s *Schema, r *fields.Rules) {
	if r.HasTitle {
		s.Title = r.Title
	}
	if r.HasDescription {
		s.Description = r.Description
	}
	s.Deprecated = s.Deprecated || r.Deprecated
	s.ReadOnly = s.ReadOnly || r.ReadOnly
	s.WriteOnly = s.WriteOnly || r.WriteOnly

	// A bound replaces the type's own only where it is tighter.
	if n := r.Minimum; n != nil && (s.Minimum == "" || n.Rat.Cmp(mustRat(s.Minimum)) > 0) {
		s.Minimum = json.Number(n.Text)
	}
	if n := r.Maximum; n != nil && (s.Maximum == "" || n.Rat.Cmp(mustRat(s.Maximum)) < 0) {
		s.Maximum = json.Number(n.Text)
	}
	if n := r.ExclusiveMinimum; n != nil {
		s.ExclusiveMinimum = json.Number(n.Text)
	}
	if n := r.ExclusiveMaximum; n != nil {
		s.ExclusiveMaximum = json.Number(n.Text)
	}
	if n := r.MultipleOf; n != nil {
		s.MultipleOf = json.Number(n.Text)
	}
	for _, c := range []struct {
		n   int64
		dst **int64
	}{
		{r.MinLength, &s.MinLength}, {r.MaxLength, &s.MaxLength},
		{r.MinItems, &s.MinItems}, {r.MaxItems, &s.MaxItems},
		{r.MinProperties, &s.MinProperties}, {r.MaxProperties, &s.MaxProperties},
	} {
		if c.n >= 0 {
			*c.dst = ptr(c.n)
		}
	}
	if r.Pattern != "" {
		s.Pattern = r.Pattern
	}
	if r.Format != "" {
		s.Format = r.Format
	}
	s.UniqueItems = s.UniqueItems || r.UniqueItems
	if r.Enum != nil {
		s.Enum = r.Enum
	}
	if r.HasConst {
		s.Const, s.HasConst = r.Const, true
	}
	if r.HasDefault {
		s.Default, s.HasDefault = r.Default, true
	}
	if r.Examples != nil {
		// (A field's rules include its type's: replace, do not repeat.)
		s.Examples = r.Examples
	}
}

// mustRat parses a bound this package wrote.
func mustRat(n json.Number) *big.Rat {
	r, err := fields.ParseDecimal(string(n))
	if err != nil {
		panic("schema: invalid number " + string(n))
	}
	return r
}

// typeEnum returns the enum of t from swaggest's notes, as t's JSON values.
func (b *builder) typeEnum(t reflect.Type, vals []any, path string) ([]any, error) {
	out, err := fields.ConvertEnum(t, vals)
	if err != nil {
		return nil, b.wrap(err, path)
	}
	return out, nil
}

// jsonValue decodes one JSON value in the representation Schema uses for
// enum, const, default and example values.
func jsonValue(data []byte) (any, error) { return fields.JSONValue(data) }
