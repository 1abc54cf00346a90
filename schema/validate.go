package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/formats"
)

// validate checks values against s, the way the decoder will check
// arguments; it is used at define time on defaults, examples and enum
// members. A $ref accepts anything (its target is checked where it is
// defined); defs is unused for now and kept for that purpose.
func validate(s *Schema, defs []Def, vals ...any) error {
	for _, v := range vals {
		if raw, ok := v.(json.RawMessage); ok {
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			if err := dec.Decode(&v); err != nil {
				return err
			}
		}
		if err := check(s, v); err != nil {
			return err
		}
	}
	return nil
}

func typeOfValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if r, err := parseDecimal(string(v)); err == nil && r.IsInt() {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func check(s *Schema, v any) error {
	if s == nil {
		return nil
	}
	if s.Bool != nil {
		if !*s.Bool {
			return fmt.Errorf("is not allowed (false schema)")
		}
		return nil
	}
	if len(s.Types) > 0 {
		got := typeOfValue(v)
		ok := false
		for _, t := range s.Types {
			if t == got || (t == "number" && got == "integer") {
				ok = true
			}
		}
		if !ok {
			return fmt.Errorf("is %s, not %v", got, typeNames(s.Types))
		}
	}
	if s.Enum != nil {
		found := false
		for _, e := range s.Enum {
			if equalJSON(e, v) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("is not one of the enum values")
		}
	}
	if s.HasConst && !equalJSON(s.Const, v) {
		return fmt.Errorf("is not the const value")
	}
	if len(s.AnyOf) > 0 {
		ok := false
		for _, a := range s.AnyOf {
			if check(a, v) == nil {
				ok = true
				break
			}
		}
		if !ok {
			return fmt.Errorf("matches no anyOf branch")
		}
	}
	switch v := v.(type) {
	case json.Number:
		return checkNumber(s, v)
	case string:
		return checkString(s, v)
	case []any:
		return checkArray(s, v)
	case map[string]any:
		return checkObject(s, v)
	}
	return nil
}

func typeNames(ts []string) string {
	if len(ts) == 1 {
		return ts[0]
	}
	return fmt.Sprint(ts)
}

func checkNumber(s *Schema, n json.Number) error {
	r, err := parseDecimal(string(n))
	if err != nil {
		return fmt.Errorf("is a malformed number")
	}
	cmp := func(bound json.Number) int { return r.Cmp(mustRat(bound)) }
	if s.Minimum != "" && cmp(s.Minimum) < 0 {
		return fmt.Errorf("is less than minimum %s", s.Minimum)
	}
	if s.ExclusiveMinimum != "" && cmp(s.ExclusiveMinimum) <= 0 {
		return fmt.Errorf("is not greater than exclusiveMinimum %s", s.ExclusiveMinimum)
	}
	if s.Maximum != "" && cmp(s.Maximum) > 0 {
		return fmt.Errorf("is greater than maximum %s", s.Maximum)
	}
	if s.ExclusiveMaximum != "" && cmp(s.ExclusiveMaximum) >= 0 {
		return fmt.Errorf("is not less than exclusiveMaximum %s", s.ExclusiveMaximum)
	}
	if s.MultipleOf != "" {
		q := new(big.Rat).Quo(r, mustRat(s.MultipleOf))
		if !q.IsInt() {
			return fmt.Errorf("is not a multiple of %s", s.MultipleOf)
		}
	}
	return nil
}

func checkString(s *Schema, v string) error {
	n := int64(utf8.RuneCountInString(v))
	if s.MinLength != nil && n < *s.MinLength {
		return fmt.Errorf("is shorter than minLength %d", *s.MinLength)
	}
	if s.MaxLength != nil && n > *s.MaxLength {
		return fmt.Errorf("is longer than maxLength %d", *s.MaxLength)
	}
	if s.Pattern != "" {
		re, err := formats.Regexp(s.Pattern)
		if err == nil && !re.MatchString(v) {
			return fmt.Errorf("does not match pattern %s", s.Pattern)
		}
	}
	if s.Format != "" && !checkFormat(s.Format, v) {
		return fmt.Errorf("is not a valid %s", s.Format)
	}
	return nil
}

// checkFormat reports whether v has the given format (one of Formats),
// with the checks the decoder applies to arguments (internal/formats).
func checkFormat(format, v string) bool { return formats.Check(format, v) }

func checkArray(s *Schema, v []any) error {
	n := int64(len(v))
	if s.MinItems != nil && n < *s.MinItems {
		return fmt.Errorf("has fewer than minItems %d items", *s.MinItems)
	}
	if s.MaxItems != nil && n > *s.MaxItems {
		return fmt.Errorf("has more than maxItems %d items", *s.MaxItems)
	}
	if s.UniqueItems {
		for i := range v {
			for j := i + 1; j < len(v); j++ {
				if equalJSON(v[i], v[j]) {
					return fmt.Errorf("has duplicate items %d and %d", i, j)
				}
			}
		}
	}
	for i, item := range v {
		if err := check(s.Items, item); err != nil {
			return fmt.Errorf("item %d %w", i, err)
		}
	}
	return nil
}

func checkObject(s *Schema, v map[string]any) error {
	n := int64(len(v))
	if s.MinProperties != nil && n < *s.MinProperties {
		return fmt.Errorf("has fewer than minProperties %d", *s.MinProperties)
	}
	if s.MaxProperties != nil && n > *s.MaxProperties {
		return fmt.Errorf("has more than maxProperties %d", *s.MaxProperties)
	}
	for _, r := range s.Required {
		if _, ok := v[r]; !ok {
			return fmt.Errorf("misses required property %q", r)
		}
	}
	for k, val := range v {
		if s.PropertyNames != nil {
			if err := check(s.PropertyNames, k); err != nil {
				return fmt.Errorf("key %q %w", k, err)
			}
		}
		if ps := s.Property(k); ps != nil {
			if err := check(ps, val); err != nil {
				return fmt.Errorf("property %q %w", k, err)
			}
			continue
		}
		if s.AdditionalProperties != nil {
			if err := check(s.AdditionalProperties, val); err != nil {
				return fmt.Errorf("property %q %w", k, err)
			}
		}
	}
	return nil
}

// equalJSON compares two values in Schema's representation as JSON values
// (numbers by value).
func equalJSON(a, b any) bool {
	na, aok := a.(json.Number)
	nb, bok := b.(json.Number)
	if aok && bok {
		ra, err1 := parseDecimal(string(na))
		rb, err2 := parseDecimal(string(nb))
		return err1 == nil && err2 == nil && ra.Cmp(rb) == 0
	}
	ca, err1 := canonical(a)
	cb, err2 := canonical(b)
	return err1 == nil && err2 == nil && ca == cb
}

// canonical renders v as JSON with sorted keys and numbers normalised.
func canonical(v any) (string, error) {
	if raw, ok := v.(json.RawMessage); ok {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return "", err
		}
	}
	v = normNumbers(v)
	b, err := json.Marshal(v)
	return string(b), err
}

func normNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		if r, err := parseDecimal(string(v)); err == nil {
			return map[string]any{"\x00number": r.RatString()}
		}
	case []any:
		for i := range v {
			v[i] = normNumbers(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = normNumbers(v[k])
		}
	}
	return v
}
