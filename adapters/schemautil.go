package adapters

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strings"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
	"github.com/toolnexus/toolnexus/schema"
)

// This file holds small helpers on schema nodes and JSON values shared by
// the renderings.

func hasLookaround(p string) bool {
	return strings.Contains(p, "(?=") || strings.Contains(p, "(?!") || strings.Contains(p, "(?<=") || strings.Contains(p, "(?<!")
}

func hasBackref(p string) bool {
	for i := 0; i+1 < len(p); i++ {
		if p[i] == '\\' {
			if n := p[i+1]; '1' <= n && n <= '9' || n == 'k' {
				return true
			}
			i++
		}
	}
	return false
}

// makeNullable lets s also accept null: "null" is added to its type, or,
// for a reference, an enum, a const or a union, a {"type":"null"} branch
// (an enum or const would still reject null otherwise).
func makeNullable(s *schema.Schema) *schema.Schema {
	if s.Bool != nil || s.HasType("null") || isNullable(s) {
		return s
	}
	switch {
	case s.AnyOf != nil && s.Ref == "" && len(s.Types) == 0:
		cp := *s
		cp.AnyOf = append(append([]*schema.Schema(nil), s.AnyOf...), &schema.Schema{Types: []string{"null"}})
		return &cp
	case s.Ref != "" || s.Enum != nil || s.HasConst || s.AnyOf != nil || len(s.Types) == 0:
		inner := *s
		outer := &schema.Schema{Title: s.Title, Description: s.Description}
		inner.Title, inner.Description = "", ""
		outer.AnyOf = []*schema.Schema{&inner, {Types: []string{"null"}}}
		return outer
	}
	cp := *s
	cp.Types = append(copyStrings(s.Types), "null")
	return &cp
}

func isNullable(s *schema.Schema) bool {
	for _, b := range s.AnyOf {
		if isNullSchema(b) {
			return true
		}
	}
	return false
}

// exclusiveToInclusive turns an exclusive integer bound into the inclusive
// one (x > 0 is x >= 1), which Gemini accepts; other exclusive bounds go to
// the description.
func exclusiveToInclusive(s *schema.Schema, excl, incl json.Number, delta int64, n *notes, kw string) json.Number {
	if excl == "" {
		return incl
	}
	if s.HasType("integer") && !s.HasType("number") {
		if v, ok := new(big.Rat).SetString(string(excl)); ok {
			// The first integer strictly beyond v.
			f := new(big.Int).Quo(v.Num(), v.Denom()) // truncates towards zero
			fr := new(big.Rat).SetInt(f)
			if delta > 0 && fr.Cmp(v) <= 0 {
				f.Add(f, big.NewInt(1))
			} else if delta < 0 && fr.Cmp(v) >= 0 {
				f.Sub(f, big.NewInt(1))
			}
			bound := json.Number(f.String())
			if incl == "" {
				return bound
			}
			if cur, ok := new(big.Rat).SetString(string(incl)); ok {
				if delta > 0 && new(big.Rat).SetInt(f).Cmp(cur) > 0 || delta < 0 && new(big.Rat).SetInt(f).Cmp(cur) < 0 {
					return bound
				}
				return incl
			}
		}
	}
	n.addNum(kw, excl)
	return incl
}

func withoutNull(vs []any) ([]any, bool) {
	out := make([]any, 0, len(vs))
	had := false
	for _, v := range vs {
		if v == nil {
			had = true
			continue
		}
		if hasNull(v) {
			continue
		}
		out = append(out, v)
	}
	return out, had
}

func allStringsOrNumbers(vs []any) bool {
	for _, v := range vs {
		switch v.(type) {
		case string, json.Number, float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		default:
			return false
		}
	}
	return true
}

func allStrings(vs []any) bool {
	for _, v := range vs {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}

// hasNull reports whether the JSON encoding of v contains null.
func hasNull(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string, bool, json.Number, float64, int, int64:
		return false
	case []any:
		for _, e := range x {
			if hasNull(e) {
				return true
			}
		}
		return false
	case map[string]any:
		for _, e := range x {
			if hasNull(e) {
				return true
			}
		}
		return false
	}
	data, err := json.Marshal(v)
	return err != nil || rawHasNull(data)
}

// rawHasNull reports whether JSON text contains a null value.
func rawHasNull(data []byte) bool {
	if !bytes.Contains(data, []byte("null")) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if tok == nil {
			return true
		}
	}
}

func without(ss []string, drop string) []string {
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}

func copyStrings(ss []string) []string {
	if ss == nil {
		return nil
	}
	return append([]string(nil), ss...)
}

func copyInt(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// pointerEscape escapes s as one JSON Pointer reference token.
func pointerEscape(s string) string { return jsonwire.EscapeToken(s) }

func compactJSON(s *schema.Schema) string {
	data, err := s.MarshalJSON()
	if err != nil {
		return "?"
	}
	if len(data) > 80 {
		return string(data[:77]) + "..."
	}
	return string(data)
}
