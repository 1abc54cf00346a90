package reflectx

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/fields"
	"github.com/toolnexus/toolnexus/internal/formats"
)

// valueSet is a compiled enum or const: the allowed values in the field's type.
type valueSet struct {
	strs   []string
	ints   []int64
	uints  []uint64
	floats []float64
	bools  []bool
	want   string
}

// constraints are the compiled constraint tags of one field.
type constraints struct {
	enum, cnst *valueSet
	tenum      *valueSet // the type's own Enum() values

	// Integer bounds, normalised to inclusive and clamped to the type.
	hasLo, hasHi   bool
	loI, hiI       int64
	loU, hiU       uint64
	loWant, hiWant string
	// Float bounds.
	loF, hiF     float64
	loEx, hiEx   bool
	hasMult      bool
	multU        uint64 // integers: v is a multiple iff v % multU == 0
	multZeroOnly bool   // integers: the multiple is beyond the type: only 0 fits
	multF        float64
	multWant     string

	minLen, maxLen         int // -1: none
	minLenWant, maxLenWant string
	re                     *pattern
	reWant                 string
	format                 func(string) bool // the format tag's check (internal/formats), or nil
	formatWant             string

	minItems, maxItems         int
	minItemsWant, maxItemsWant string
	unique                     bool

	minProps, maxProps         int
	minPropsWant, maxPropsWant string
}

// compileConstraints compiles the rules of a field (read and checked by
// internal/fields) whose (pointee) node is n. It returns nil when the field
// has none.
func compileConstraints(n *node, r *fields.Rules) (*constraints, error) {
	if !r.Set {
		return nil, nil
	}
	c := newConstraints()
	if n.c != nil {
		*c = *n.c // the type's own enum
	}
	if r.Enum != nil {
		c.enum = compileValueSet(n, r.Enum)
		c.enum.want = "one of " + c.enum.want
		c.tenum = nil // the tag replaces the type's Enum(), as in schema/ and swaggest
	}
	if r.HasConst {
		c.cnst = compileValueSet(n, []any{r.Const})
	}
	switch n.kind {
	case kInt, kUint, kFloat:
		compileBounds(c, n, r)
	}
	for _, it := range []struct {
		n         int64
		dst       *int
		want      *string
		bound     string
		one, many string
	}{
		{r.MinLength, &c.minLen, &c.minLenWant, "at least ", "character", "characters"},
		{r.MaxLength, &c.maxLen, &c.maxLenWant, "at most ", "character", "characters"},
		{r.MinItems, &c.minItems, &c.minItemsWant, "at least ", "item", "items"},
		{r.MaxItems, &c.maxItems, &c.maxItemsWant, "at most ", "item", "items"},
		{r.MinProperties, &c.minProps, &c.minPropsWant, "at least ", "property", "properties"},
		{r.MaxProperties, &c.maxProps, &c.maxPropsWant, "at most ", "property", "properties"},
	} {
		if it.n >= 0 {
			*it.dst, *it.want = int(it.n), it.bound+countOf(int(it.n), it.one, it.many)
		}
	}
	c.unique = r.UniqueItems
	if r.Pattern != "" {
		re, err := compilePattern(r.Pattern)
		if err != nil {
			return nil, fields.Errorf("", "pattern", fields.ErrInvalidTag, "malformed regular expression: %v", err)
		}
		c.re, c.reWant = re, "string matching "+r.Pattern
	}
	if r.Format != "" {
		c.format, c.formatWant, _ = formats.Lookup(r.Format) // a name fields accepted
	}
	if m, want := badMember(n, c); want != "" {
		return nil, r.Errorf("", "enum", fields.ErrInvalidTag,
			"the enum member %s breaks the field's other constraints: it is not %s (consider removing it or fixing the constraints)", m, want)
	}
	return c, nil
}

// badMember returns the first member of the field's enum (its tag's, or
// else its type's Enum) that the rest of c refuses, and what c wanted;
// want is "" when every member fits. It checks with the functions that
// check a call's values: a member the decoder would refuse could never be
// sent.
func badMember(n *node, c *constraints) (member, want string) {
	vs := c.enum
	if vs == nil {
		vs = c.tenum
	}
	if vs == nil {
		return "", ""
	}
	rest := *c
	rest.enum, rest.tenum = nil, nil
	switch n.kind {
	case kInt:
		for _, v := range vs.ints {
			if w := checkInt(&rest, v); w != "" {
				return strconv.FormatInt(v, 10), w
			}
		}
	case kUint:
		for _, v := range vs.uints {
			if w := checkUint(&rest, v); w != "" {
				return strconv.FormatUint(v, 10), w
			}
		}
	case kFloat:
		for _, v := range vs.floats {
			if w := checkFloat(&rest, v); w != "" {
				return strconv.FormatFloat(v, 'g', -1, n.bits), w
			}
		}
	case kBool:
		for _, v := range vs.bools {
			if w := checkBool(&rest, v); w != "" {
				return strconv.FormatBool(v), w
			}
		}
	case kString:
		for _, v := range vs.strs {
			if w := checkStringLimit(&rest, v, math.MaxInt); w != "" {
				b, _ := json.Marshal(v)
				return string(b), w
			}
		}
	}
	return "", ""
}

// newConstraints returns constraints with no limits.
func newConstraints() *constraints {
	return &constraints{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
}

// typeEnum returns the values a type declares through Enum or NamedEnum
// (read by internal/fields), or nil.
func typeEnum(n *node) (*valueSet, error) {
	vals, err := fields.TypeEnum(n.t)
	if err != nil || vals == nil {
		return nil, err
	}
	vs := compileValueSet(n, vals)
	vs.want = "one of " + vs.want
	return vs, nil
}

// compileValueSet converts JSON values of the field's type (checked by
// internal/fields) to a valueSet.
func compileValueSet(n *node, vals []any) *valueSet {
	vs := &valueSet{}
	wants := make([]string, 0, len(vals))
	for _, x := range vals {
		switch x := x.(type) {
		case string:
			vs.strs = append(vs.strs, x)
			b, _ := json.Marshal(x)
			wants = append(wants, string(b))
		case bool:
			vs.bools = append(vs.bools, x)
			wants = append(wants, strconv.FormatBool(x))
		case json.Number:
			switch n.kind {
			case kInt:
				neg, mag, _ := parseIntLit(string(x))
				i, _ := fitInt(neg, mag, n.bits)
				vs.ints = append(vs.ints, i)
				wants = append(wants, strconv.FormatInt(i, 10))
			case kUint:
				neg, mag, _ := parseIntLit(string(x))
				u, _ := fitUint(neg, mag, n.bits)
				vs.uints = append(vs.uints, u)
				wants = append(wants, strconv.FormatUint(u, 10))
			default:
				f, _ := strconv.ParseFloat(string(x), n.bits)
				vs.floats = append(vs.floats, f)
				wants = append(wants, strconv.FormatFloat(f, 'g', -1, n.bits))
			}
		}
	}
	vs.want = strings.Join(wants, ", ")
	return vs
}

// compileBounds compiles the bounds and multipleOf that internal/fields
// has read (and checked to leave values).
func compileBounds(c *constraints, n *node, r *fields.Rules) {
	ops := map[string]string{"minimum": ">=", "exclusiveMinimum": ">", "maximum": "<=", "exclusiveMaximum": "<"}
	want := func(b *fields.Bound) string { return n.want + " " + ops[b.Tag] + " " + b.Text }
	switch n.kind {
	case kInt, kUint:
		typeLo, typeHi := fields.IntRange(n.t.Kind())
		if l := r.IntLower; l != nil && l.Cmp(typeLo) > 0 {
			c.hasLo, c.loWant = true, want(r.Lower)
			if n.kind == kInt {
				c.loI = l.Int64()
			} else {
				c.loU = l.Uint64()
			}
		}
		if h := r.IntUpper; h != nil && h.Cmp(typeHi) < 0 {
			c.hasHi, c.hiWant = true, want(r.Upper)
			if n.kind == kInt {
				c.hiI = h.Int64()
			} else {
				c.hiU = h.Uint64()
			}
		}
	case kFloat:
		if b := r.Lower; b != nil {
			f, _ := b.Rat.Float64()
			c.hasLo, c.loF, c.loEx, c.loWant = true, f, b.Exclusive, want(b)
		}
		if b := r.Upper; b != nil {
			f, _ := b.Rat.Float64()
			c.hasHi, c.hiF, c.hiEx, c.hiWant = true, f, b.Exclusive, want(b)
		}
	}
	if m := r.MultipleOf; m != nil {
		c.hasMult, c.multWant = true, "multiple of "+m.Text
		if n.kind == kFloat {
			c.multF, _ = m.Rat.Float64()
		} else {
			// An integer v is a multiple of p/q (in lowest terms) iff p divides v.
			p := m.Rat.Num()
			if p.IsUint64() && p.Uint64() <= math.MaxUint64>>(64-n.bits) {
				c.multU = p.Uint64()
			} else {
				c.multZeroOnly = true
			}
		}
	}
}

// isScalar reports whether values of kind k are copied as plain memory
// (or a string header) when filling a default.
func isScalar(k kind) bool {
	switch k {
	case kBool, kInt, kUint, kFloat, kString:
		return true
	}
	return false
}

// compileDefault decodes a field's default (JSON text from internal/fields)
// with the field's node: the decoder is what checks a default against the
// field's type and constraints. It keeps a ready value for scalars. r are
// the field's rules, which name the tag the default came from.
func compileDefault(n *node, r *fields.Rules, path string) (*defaultValue, error) {
	text := r.DefaultJSON
	val := reflect.New(n.t)
	if err := decodeDefault(n, val.UnsafePointer(), text); err != nil {
		return nil, r.Errorf(path, "default", fields.ErrInvalidTag,
			"the default %s does not fit the field: %v (consider fixing the default or the constraints)", text, err)
	}
	d := &defaultValue{json: text}
	if isScalar(n.kind) {
		d.scalar = val.UnsafePointer()
	}
	return d, nil
}

// checkExamples decodes a field's examples with the field's node, as
// compileDefault does for its default, and those of its elements with the
// element node.
func checkExamples(n *node, r *fields.Rules, path string) error {
	top, prefix := r, ""
	for r != nil && n != nil {
		for n.kind == kPtr {
			n = n.elem
		}
		for i, text := range r.ExampleJSON {
			tag := "examples"
			if i == 0 && r.HasExample {
				tag = "example"
			}
			if err := decodeDefault(n, reflect.New(n.t).UnsafePointer(), text); err != nil {
				return top.Errorf(path, prefix+tag, fields.ErrInvalidTag, "the example %s does not fit the field: %v", text, err)
			}
		}
		if r.Elem == nil {
			break
		}
		prefix += fields.ElemPrefix(fields.ClassOf(n.t))
		r, n = r.Elem, n.elem
	}
	return nil
}

// copyScalar copies a scalar default of node n from src to dst.
func copyScalar(n *node, dst, src unsafe.Pointer) {
	if n.kind == kString {
		*(*string)(dst) = *(*string)(src)
		return
	}
	size := n.t.Size()
	copy(unsafe.Slice((*byte)(dst), size), unsafe.Slice((*byte)(src), size))
}

// countOf is n and the noun, singular when n is 1: "1 character",
// "0 items".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
