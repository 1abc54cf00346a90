package reflectx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"unsafe"
)

// tagID names one struct tag the decoder reads.
type tagID int

const (
	tagDefault tagID = iota
	tagRequired
	tagEnum
	tagConst
	tagMinimum
	tagMaximum
	tagExclMin
	tagExclMax
	tagMultipleOf
	tagMinLength
	tagMaxLength
	tagPattern
	tagFormat
	tagMinItems
	tagMaxItems
	tagUniqueItems
	tagMinProps
	tagMaxProps
	tagDeprecated
	tagReadOnly
	tagWriteOnly
	tagExamples
	tagExample
	tagNullable
	numTags
)

var tagNames = [numTags]string{
	tagDefault: "default", tagRequired: "required", tagEnum: "enum", tagConst: "const",
	tagMinimum: "minimum", tagMaximum: "maximum", tagExclMin: "exclusiveMinimum",
	tagExclMax: "exclusiveMaximum", tagMultipleOf: "multipleOf",
	tagMinLength: "minLength", tagMaxLength: "maxLength", tagPattern: "pattern",
	tagFormat: "format", tagMinItems: "minItems", tagMaxItems: "maxItems",
	tagUniqueItems: "uniqueItems", tagMinProps: "minProperties", tagMaxProps: "maxProperties",
	tagDeprecated: "deprecated", tagReadOnly: "readOnly", tagWriteOnly: "writeOnly",
	tagExamples: "examples", tagExample: "example", tagNullable: "nullable",
}

// fieldTags holds the tags of one field that the decoder reads.
type fieldTags struct {
	vals [numTags]string
	set  [numTags]bool
	any  bool
}

func (t *fieldTags) get(id tagID) (string, bool) { return t.vals[id], t.set[id] }
func (t *fieldTags) has(id tagID) bool           { return t.set[id] }

// parseFieldTags reads the decoder's tags of one field and checks the
// values whose syntax does not depend on the field's type.
func parseFieldTags(st reflect.StructTag, path string) (*fieldTags, error) {
	t := &fieldTags{}
	for id := tagID(0); id < numTags; id++ {
		if v, ok := st.Lookup(tagNames[id]); ok {
			t.vals[id], t.set[id], t.any = v, true, true
		}
	}
	if v, ok := t.get(tagNullable); ok {
		return nil, errorf(path, "tag nullable:%q is not supported: only pointers are nullable (consider a pointer type)", v)
	}
	for _, id := range []tagID{tagRequired, tagUniqueItems, tagDeprecated, tagReadOnly, tagWriteOnly} {
		if v, ok := t.get(id); ok {
			if _, err := strconv.ParseBool(v); err != nil {
				return nil, errorf(path, "malformed tag %s:%q (consider %s:\"true\" or %s:\"false\")", tagNames[id], v, tagNames[id], tagNames[id])
			}
		}
	}
	return t, nil
}

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
	format                 format
	formatWant             string

	minItems, maxItems         int
	minItemsWant, maxItemsWant string
	unique                     bool

	minProps, maxProps         int
	minPropsWant, maxPropsWant string
}

// category groups nodes by the constraint tags that fit them, as schema/
// does: time.Time and text types that are not of string kind take none.
func category(n *node) string {
	switch n.kind {
	case kString:
		return "string"
	case kText:
		if n.t.Kind() == reflect.String {
			return "string"
		}
		return "other"
	case kInt, kUint, kFloat:
		return "number"
	case kBool:
		return "boolean"
	case kSlice, kArray:
		return "array"
	case kMap:
		return "map"
	}
	return "other"
}

var tagFits = map[tagID][]string{
	tagEnum:        {"string", "number", "boolean"},
	tagConst:       {"string", "number", "boolean"},
	tagMinimum:     {"number"},
	tagMaximum:     {"number"},
	tagExclMin:     {"number"},
	tagExclMax:     {"number"},
	tagMultipleOf:  {"number"},
	tagMinLength:   {"string"},
	tagMaxLength:   {"string"},
	tagPattern:     {"string"},
	tagFormat:      {"string"},
	tagMinItems:    {"array"},
	tagMaxItems:    {"array"},
	tagUniqueItems: {"array"},
	tagMinProps:    {"map"},
	tagMaxProps:    {"map"},
}

var tagHints = map[string]string{
	"number": "consider minimum/maximum for numbers",
	"string": "consider minLength/maxLength, pattern or format for strings",
	"array":  "consider minItems/maxItems for slices",
	"map":    "consider minProperties/maxProperties for maps",
}

// compileConstraints compiles the constraint tags of a field whose
// (pointee) node is n. It returns nil when the field has none.
func compileConstraints(n *node, t *fieldTags, path string) (*constraints, error) {
	if !t.any {
		return nil, nil
	}
	cat := category(n)
	used := false
	for id, cats := range tagFits {
		if !t.has(id) {
			continue
		}
		used = true
		ok := false
		for _, c := range cats {
			ok = ok || c == cat
		}
		if !ok {
			hint := "it applies to " + strings.Join(cats, ", ") + " fields"
			if h, ok := tagHints[cat]; ok {
				hint = h
			}
			return nil, errorf(path, "tag %s does not apply to type %s (%s)", tagNames[id], n.t, hint)
		}
	}
	if !used {
		return nil, nil
	}
	c := newConstraints()
	if n.c != nil {
		*c = *n.c // the type's own enum
	}
	var err error
	if v, ok := t.get(tagEnum); ok {
		if c.enum, err = compileValueSet(n, v, true, path, "enum"); err != nil {
			return nil, err
		}
		c.enum.want = "one of " + c.enum.want
		c.tenum = nil // the tag replaces the type's Enum(), as in schema/ and swaggest
	}
	if v, ok := t.get(tagConst); ok {
		if c.cnst, err = compileValueSet(n, v, false, path, "const"); err != nil {
			return nil, err
		}
	}
	if cat == "number" {
		if err := compileBounds(c, n, t, path); err != nil {
			return nil, err
		}
	}
	intTag := func(id tagID, dst *int, want *string, format string) error {
		v, ok := t.get(id)
		if !ok {
			return nil
		}
		x, err := strconv.Atoi(v)
		if err != nil || x < 0 {
			return errorf(path, "malformed tag %s:%q: want a non-negative integer", tagNames[id], v)
		}
		*dst, *want = x, fmt.Sprintf(format, x)
		return nil
	}
	for _, it := range []struct {
		id     tagID
		dst    *int
		want   *string
		format string
	}{
		{tagMinLength, &c.minLen, &c.minLenWant, "at least %d characters"},
		{tagMaxLength, &c.maxLen, &c.maxLenWant, "at most %d characters"},
		{tagMinItems, &c.minItems, &c.minItemsWant, "at least %d items"},
		{tagMaxItems, &c.maxItems, &c.maxItemsWant, "at most %d items"},
		{tagMinProps, &c.minProps, &c.minPropsWant, "at least %d properties"},
		{tagMaxProps, &c.maxProps, &c.maxPropsWant, "at most %d properties"},
	} {
		if err := intTag(it.id, it.dst, it.want, it.format); err != nil {
			return nil, err
		}
	}
	for _, mm := range [][2]int{{c.minLen, c.maxLen}, {c.minItems, c.maxItems}, {c.minProps, c.maxProps}} {
		if mm[0] >= 0 && mm[1] >= 0 && mm[0] > mm[1] {
			return nil, errorf(path, "minimum %d is greater than maximum %d: no value can satisfy both", mm[0], mm[1])
		}
	}
	if n.kind == kArray {
		if (c.minItems >= 0 && c.minItems != n.length) || (c.maxItems >= 0 && c.maxItems != n.length) {
			return nil, errorf(path, "minItems/maxItems contradict the array length %d (consider a slice)", n.length)
		}
	}
	c.unique, _ = strconv.ParseBool(t.vals[tagUniqueItems])
	if v, ok := t.get(tagPattern); ok {
		re, err := compilePattern(v)
		if err != nil {
			return nil, errorf(path, "malformed tag pattern:%q: %v (patterns are RE2 syntax)", v, err)
		}
		c.re, c.reWant = re, "string matching "+v
	}
	if v, ok := t.get(tagFormat); ok {
		f, ok := formatByName[v]
		if !ok {
			return nil, errorf(path, "unknown format %q (consider one of date-time, date, time, email, uuid, ipv4, ipv6, uri, hostname, or a pattern)", v)
		}
		c.format, c.formatWant = f, formatWants[f]
	}
	if c.enum != nil {
		// Every member must meet the other constraints, as in schema/.
		others := *c
		others.enum = nil
		if w := checkSet(&others, n, c.enum); w != "" {
			return nil, errorf(path, "an enum member breaks the field's constraints: expected %s", w)
		}
	}
	return c, nil
}

// checkSet checks every member of vs against c; it returns the first want.
func checkSet(c *constraints, n *node, vs *valueSet) string {
	for _, x := range vs.strs {
		if w := checkString(c, x); w != "" {
			return w
		}
	}
	for _, x := range vs.ints {
		if w := checkInt(c, x); w != "" {
			return w
		}
	}
	for _, x := range vs.uints {
		if w := checkUint(c, x); w != "" {
			return w
		}
	}
	for _, x := range vs.floats {
		if w := checkFloat(c, x); w != "" {
			return w
		}
	}
	for _, x := range vs.bools {
		if w := checkBool(c, x); w != "" {
			return w
		}
	}
	return ""
}

// newConstraints returns constraints with no limits.
func newConstraints() *constraints {
	return &constraints{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
}

// enumer and namedEnumer are swaggest's interfaces through which a type
// declares its values; schema/ advertises them as the type's enum.
type (
	enumer      interface{ Enum() []any }
	namedEnumer interface {
		NamedEnum() ([]any, []string)
	}
)

// typeEnum returns the values a type declares through Enum or NamedEnum,
// converted to its type, or nil.
func typeEnum(n *node, path string) (*valueSet, error) {
	var vals []any
	found := false
	for _, v := range []any{reflect.New(n.t).Elem().Interface(), reflect.New(n.t).Interface()} {
		if e, ok := v.(enumer); ok {
			vals, found = e.Enum(), true
			break
		}
		if e, ok := v.(namedEnumer); ok {
			vals, _ = e.NamedEnum()
			found = true
			break
		}
	}
	if !found {
		return nil, nil
	}
	text, err := json.Marshal(vals)
	if err != nil || len(vals) == 0 {
		return nil, errorf(path, "the Enum method of %s returns no usable values", n.t)
	}
	vs, err := compileValueSet(n, string(text), true, path, "Enum()")
	if err != nil {
		return nil, err
	}
	vs.want = "one of " + vs.want
	return vs, nil
}

// compileValueSet converts an enum (list) or const (one value) tag to the
// field's type. An enum is a JSON array or a comma-separated list.
func compileValueSet(n *node, v string, list bool, path, tag string) (*valueSet, error) {
	var raws []any // string (unparsed, from a comma list or const) or decoded JSON
	if list && strings.HasPrefix(v, "[") {
		dec := json.NewDecoder(strings.NewReader(v))
		dec.UseNumber()
		var xs []any
		if err := dec.Decode(&xs); err != nil || dec.More() {
			return nil, errorf(path, "malformed tag %s:%q: not a JSON array", tag, v)
		}
		raws = xs
	} else if list {
		for _, s := range strings.Split(v, ",") {
			raws = append(raws, s)
		}
	} else {
		raws = []any{v}
	}
	vs := &valueSet{}
	var wants []string
	bad := func(x any) error {
		return errorf(path, "malformed tag %s:%q: %v is not a %s value (the values must have the field's type %s)", tag, v, x, category(n), n.t)
	}
	for _, x := range raws {
		text := ""
		switch x := x.(type) {
		case string:
			text = x
		case json.Number:
			text = string(x)
		case bool:
			text = strconv.FormatBool(x)
		default:
			return nil, bad(x)
		}
		_, isStr := x.(string)
		switch n.kind {
		case kString, kText, kTime:
			if !isStr {
				return nil, bad(x)
			}
			vs.strs = append(vs.strs, text)
			b, _ := json.Marshal(text)
			wants = append(wants, string(b))
		case kBool:
			if text != "true" && text != "false" {
				return nil, bad(x)
			}
			vs.bools = append(vs.bools, text == "true")
			wants = append(wants, text)
		case kInt, kUint:
			if !validNumber(text) {
				return nil, bad(x)
			}
			neg, mag, st := parseIntLit(text)
			if st != numOK {
				return nil, bad(x)
			}
			if n.kind == kInt {
				i, ok := fitInt(neg, mag, n.bits)
				if !ok {
					return nil, bad(x)
				}
				vs.ints = append(vs.ints, i)
				wants = append(wants, strconv.FormatInt(i, 10))
			} else {
				u, ok := fitUint(neg, mag, n.bits)
				if !ok {
					return nil, bad(x)
				}
				vs.uints = append(vs.uints, u)
				wants = append(wants, strconv.FormatUint(u, 10))
			}
		case kFloat:
			if !validNumber(text) {
				return nil, bad(x)
			}
			f, err := strconv.ParseFloat(text, n.bits)
			if err != nil {
				return nil, bad(x)
			}
			vs.floats = append(vs.floats, f)
			wants = append(wants, strconv.FormatFloat(f, 'g', -1, n.bits))
		}
	}
	if len(wants) == 0 {
		return nil, errorf(path, "malformed tag %s:%q: no values", tag, v)
	}
	vs.want = strings.Join(wants, ", ")
	return vs, nil
}

// parseRat parses a decimal number tag value exactly.
func parseRat(v, tag, path string) (*big.Rat, error) {
	if !validNumber(v) {
		return nil, errorf(path, "malformed tag %s:%q: want a decimal number", tag, v)
	}
	if i := strings.IndexAny(v, "eE"); i >= 0 {
		if e, err := strconv.Atoi(strings.TrimPrefix(v[i+1:], "+")); err != nil || e > 400 || e < -400 {
			return nil, errorf(path, "malformed tag %s:%q: exponent out of range", tag, v)
		}
	}
	r, ok := new(big.Rat).SetString(v)
	if !ok {
		return nil, errorf(path, "malformed tag %s:%q: want a decimal number", tag, v)
	}
	return r, nil
}

func ratFloor(r *big.Rat) *big.Int {
	return new(big.Int).Div(r.Num(), r.Denom()) // Euclidean: floor for a positive denominator
}

func ratCeil(r *big.Rat) *big.Int {
	f := ratFloor(r)
	if !r.IsInt() {
		f.Add(f, big.NewInt(1))
	}
	return f
}

// compileBounds compiles minimum, maximum, the exclusive bounds and multipleOf.
func compileBounds(c *constraints, n *node, t *fieldTags, path string) error {
	type bound struct {
		r    *big.Rat
		ex   bool
		want string
	}
	var lo, hi *bound
	for _, b := range []struct {
		id    tagID
		upper bool
		ex    bool
		op    string
	}{
		{tagMinimum, false, false, ">="}, {tagExclMin, false, true, ">"},
		{tagMaximum, true, false, "<="}, {tagExclMax, true, true, "<"},
	} {
		v, ok := t.get(b.id)
		if !ok {
			continue
		}
		r, err := parseRat(v, tagNames[b.id], path)
		if err != nil {
			return err
		}
		nb := &bound{r: r, ex: b.ex, want: n.want + " " + b.op + " " + v}
		if !b.upper {
			if lo == nil || r.Cmp(lo.r) > 0 || (r.Cmp(lo.r) == 0 && b.ex) {
				lo = nb
			}
		} else if hi == nil || r.Cmp(hi.r) < 0 || (r.Cmp(hi.r) == 0 && b.ex) {
			hi = nb
		}
	}
	if lo != nil && hi != nil {
		cmp := lo.r.Cmp(hi.r)
		if cmp > 0 || (cmp == 0 && (lo.ex || hi.ex)) {
			return errorf(path, "lower bound (%s) is above upper bound (%s): no value can satisfy both", lo.want, hi.want)
		}
	}
	switch n.kind {
	case kInt, kUint:
		typeLo, typeHi := big.NewInt(0), new(big.Int).SetUint64(math.MaxUint64>>(64-n.bits))
		if n.kind == kInt {
			typeLo = big.NewInt(-1 << (n.bits - 1))
			typeHi = big.NewInt(1<<(n.bits-1) - 1)
		}
		var l, h *big.Int
		if lo != nil {
			if lo.ex {
				l = ratFloor(lo.r)
				l.Add(l, big.NewInt(1))
			} else {
				l = ratCeil(lo.r)
			}
			if l.Cmp(typeHi) > 0 {
				return errorf(path, "bound %s excludes every %s", lo.want, n.t)
			}
			if l.Cmp(typeLo) > 0 {
				c.hasLo, c.loWant = true, lo.want
				if n.kind == kInt {
					c.loI = l.Int64()
				} else {
					c.loU = l.Uint64()
				}
			}
		}
		if hi != nil {
			if hi.ex {
				h = ratCeil(hi.r)
				h.Sub(h, big.NewInt(1))
			} else {
				h = ratFloor(hi.r)
			}
			if h.Cmp(typeLo) < 0 {
				return errorf(path, "bound %s excludes every %s", hi.want, n.t)
			}
			if h.Cmp(typeHi) < 0 {
				c.hasHi, c.hiWant = true, hi.want
				if n.kind == kInt {
					c.hiI = h.Int64()
				} else {
					c.hiU = h.Uint64()
				}
			}
		}
		if l != nil && h != nil && l.Cmp(h) > 0 {
			return errorf(path, "bounds %s and %s leave no integer", lo.want, hi.want)
		}
	case kFloat:
		if lo != nil {
			f, _ := lo.r.Float64()
			c.hasLo, c.loF, c.loEx, c.loWant = true, f, lo.ex, lo.want
		}
		if hi != nil {
			f, _ := hi.r.Float64()
			c.hasHi, c.hiF, c.hiEx, c.hiWant = true, f, hi.ex, hi.want
		}
	}
	if v, ok := t.get(tagMultipleOf); ok {
		r, err := parseRat(v, "multipleOf", path)
		if err != nil {
			return err
		}
		if r.Sign() <= 0 {
			return errorf(path, "malformed tag multipleOf:%q: want a number greater than 0", v)
		}
		c.hasMult, c.multWant = true, "multiple of "+v
		if n.kind == kFloat {
			c.multF, _ = r.Float64()
		} else {
			// An integer v is a multiple of p/q (in lowest terms) iff p divides v.
			p := r.Num()
			if p.IsUint64() && p.Uint64() <= math.MaxUint64>>(64-n.bits) {
				c.multU = p.Uint64()
			} else {
				c.multZeroOnly = true
			}
		}
	}
	return nil
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

// compileDefault turns a default tag into JSON text, checks it against the
// field's type and constraints, and keeps a ready value for scalars.
func compileDefault(n *node, v, path string) (*defaultValue, error) {
	base := n
	for base.kind == kPtr {
		base = base.elem
	}
	text, err := tagJSON(base, v)
	if err != nil {
		return nil, errorf(path, "malformed tag default:%q: %v", v, err)
	}
	text = bytes.TrimSpace(text)
	val := reflect.New(n.t)
	if err := decodeDefault(n, val.UnsafePointer(), text); err != nil {
		return nil, errorf(path, "default %q does not fit the field: %v (consider fixing the default or the constraints)", v, err)
	}
	d := &defaultValue{json: text}
	if isScalar(n.kind) {
		d.scalar = val.UnsafePointer()
	}
	return d, nil
}

// tagJSON converts a default or example tag to JSON text: for strings
// (and text types of string kind), booleans and numbers the tag is the value
// written plainly; for every other type it is JSON, as in schema/.
func tagJSON(base *node, v string) ([]byte, error) {
	switch category(base) {
	case "string":
		return json.Marshal(v)
	case "boolean", "number":
		return []byte(v), nil
	}
	if !json.Valid([]byte(v)) {
		return nil, fmt.Errorf("want JSON for type %s", base.t)
	}
	return []byte(v), nil
}

// checkExamples checks that the example and examples tags hold values of
// the field's type that meet its constraints, as schema/ does.
func checkExamples(n *node, t *fieldTags, path string) error {
	base := n
	for base.kind == kPtr {
		base = base.elem
	}
	var texts [][]byte
	if v, ok := t.get(tagExample); ok {
		text, err := tagJSON(base, v)
		if err != nil {
			return errorf(path, "malformed tag example:%q: %v", v, err)
		}
		texts = append(texts, text)
	}
	if v, ok := t.get(tagExamples); ok {
		var xs []json.RawMessage
		if err := json.Unmarshal([]byte(v), &xs); err != nil {
			return errorf(path, "malformed tag examples:%q: want a JSON array (consider example:\"...\" for one value)", v)
		}
		for _, x := range xs {
			texts = append(texts, x)
		}
	}
	for _, text := range texts {
		if err := decodeDefault(n, reflect.New(n.t).UnsafePointer(), bytes.TrimSpace(text)); err != nil {
			return errorf(path, "example %s does not fit the field: %v", text, err)
		}
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
