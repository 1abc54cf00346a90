package adapters

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strconv"
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
// one (x > 0 is x >= 1), which Gemini accepts; other exclusive bounds, and
// those whose inclusive integer would have more than maxBoundDigits digits,
// go to the description. The work is linear in the bounds' text: a bound
// like 1e999999 is never expanded.
func exclusiveToInclusive(s *schema.Schema, excl, incl json.Number, delta int64, n *notes, kw string) json.Number {
	if excl == "" {
		return incl
	}
	if s.HasType("integer") && !s.HasType("number") {
		if lo, hi, _, ok := floorCeil(string(excl)); ok {
			// The first integer strictly beyond excl.
			var f *big.Int
			if delta > 0 {
				f = lo.Add(lo, big.NewInt(1))
			} else {
				f = hi.Sub(hi, big.NewInt(1))
			}
			bound := json.Number(f.String())
			if incl == "" {
				return bound
			}
			// For an integer f and a number x, f > x exactly when
			// f > floor(x), and f < x when f < ceil(x).
			clo, chi, cneg, ok := floorCeil(string(incl))
			switch {
			case !ok: // incl is beyond maxBoundDigits: the tighter unless on the far side
				if delta > 0 == cneg {
					return bound
				}
				return incl
			case delta > 0 && f.Cmp(clo) > 0, delta < 0 && f.Cmp(chi) < 0:
				return bound
			}
			return incl
		}
	}
	n.addNum(kw, excl)
	return incl
}

// maxBoundDigits is the most digits of an integer bound exclusiveToInclusive
// computes (an int64 has 19, a uint64 20).
const maxBoundDigits = 40

// floorCeil returns the floor and ceiling of the JSON number lit, and
// whether it is negative, in time linear in lit and without building the
// number: ok is false when its integer part has more than maxBoundDigits
// digits.
func floorCeil(lit string) (floor, ceil *big.Int, neg, ok bool) {
	neg = strings.HasPrefix(lit, "-")
	lit = strings.TrimPrefix(lit, "-")
	i := 0
	for i < len(lit) && '0' <= lit[i] && lit[i] <= '9' {
		i++
	}
	intPart, frac := lit[:i], ""
	if i < len(lit) && lit[i] == '.' {
		j := i + 1
		for j < len(lit) && '0' <= lit[j] && lit[j] <= '9' {
			j++
		}
		frac, i = lit[i+1:j], j
	}
	expNeg, expLit := false, ""
	if i < len(lit) && (lit[i] == 'e' || lit[i] == 'E') {
		expLit = lit[i+1:]
		if expLit != "" && (expLit[0] == '+' || expLit[0] == '-') {
			expNeg, expLit = expLit[0] == '-', expLit[1:]
		}
		expLit = strings.TrimLeft(expLit, "0")
	}
	digit := func(j int) byte { // the j-th digit of intPart and frac
		if j < len(intPart) {
			return intPart[j]
		}
		return frac[j-len(intPart)]
	}
	total := len(intPart) + len(frac)
	lead := 0
	for lead < total && digit(lead) == '0' {
		lead++
	}
	if lead == total {
		return new(big.Int), new(big.Int), neg, true
	}
	// The integer part is digits [lead, point) of intPart and frac, padded
	// with zeros beyond them.
	var point int64
	switch {
	case len(expLit) > 9 && !expNeg:
		return nil, nil, neg, false
	case len(expLit) > 9:
		point = int64(lead) // below 1 (a nonzero digit follows)
	default:
		e, _ := strconv.ParseInt(expLit, 10, 64)
		if expNeg {
			e = -e
		}
		point = int64(len(intPart)) + e
	}
	if point-int64(lead) > maxBoundDigits {
		return nil, nil, neg, false
	}
	var mag []byte
	for j := int64(lead); j < point; j++ {
		if j < int64(total) {
			mag = append(mag, digit(int(j)))
		} else {
			mag = append(mag, '0')
		}
	}
	fracNonzero := false
	for j := max(point, int64(lead)); j < int64(total) && !fracNonzero; j++ {
		fracNonzero = digit(int(j)) != '0'
	}
	m := new(big.Int)
	if len(mag) > 0 {
		m.SetString(string(mag), 10)
	}
	up := new(big.Int).Set(m)
	if fracNonzero {
		up.Add(up, big.NewInt(1))
	}
	if neg {
		return up.Neg(up), m.Neg(m), true, true
	}
	return m, up, false, true
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

// walkSchema calls fn on every schema node under s with its JSON Pointer
// and its object nesting level (the root object is level 1).
func walkSchema(s *schema.Schema, path *spath, level int, fn func(n *schema.Schema, path *spath, level int)) {
	if s == nil || s.Bool != nil {
		return
	}
	if len(s.Properties) > 0 || s.HasType("object") {
		level++
	}
	fn(s, path, level)
	for _, p := range s.Properties {
		walkSchema(p.Schema, path.name("/properties/", p.Name), level, fn)
	}
	walkSchema(s.Items, path.key("/items"), level, fn)
	walkSchema(s.AdditionalProperties, path.key("/additionalProperties"), level, fn)
	walkSchema(s.PropertyNames, path.key("/propertyNames"), level, fn)
	for _, list := range []struct {
		kw string
		bs []*schema.Schema
	}{{"/anyOf", s.AnyOf}, {"/oneOf", s.OneOf}, {"/allOf", s.AllOf}} {
		for i, b := range list.bs {
			walkSchema(b, path.key(list.kw).index(i), level, fn)
		}
	}
	for _, d := range s.Defs {
		walkSchema(d.Schema, path.name("/$defs/", d.Name), 0, fn)
	}
}

// marshalNoEscape is json.Marshal without HTML escaping.
func marshalNoEscape(v any) ([]byte, error) { return jsonwire.MarshalNoEscape(v) }

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
