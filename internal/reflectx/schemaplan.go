package reflectx

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"reflect"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/echo"
	"github.com/toolnexus/toolnexus/internal/fields"
	"github.com/toolnexus/toolnexus/internal/formats"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
	"github.com/toolnexus/toolnexus/schema"
)

// SchemaPlan validates arguments against a hand-written JSON Schema (the
// input schema of a define.NewTool tool): the same checks as a [Plan]
// (the check functions of this package: numbers, strings with their
// lengths, patterns and formats, item and property counts, uniqueness),
// the same errors ([*ArgErrors] of [*ArgError]s with JSON Pointer paths,
// the same sentinels and cap) and the same [Limits], for every keyword
// [schema.Parse] reads. Make one with [CompileSchema]; a SchemaPlan is
// immutable and safe for concurrent use.
type SchemaPlan struct {
	root *vnode
}

// The JSON types, as bits of vnode.types.
const (
	jNull uint8 = 1 << iota
	jBool
	jInteger
	jNumber
	jString
	jArray
	jObject
)

// typeBits are the type names of "type".
var typeBits = map[string]uint8{"null": jNull, "boolean": jBool, "integer": jInteger, "number": jNumber,
	"string": jString, "array": jArray, "object": jObject}

// typeNames are the names of the bits, in the order a want lists them.
var typeNames = [...]struct {
	bit  uint8
	name string
}{{jObject, "object"}, {jArray, "array"}, {jString, "string"}, {jNumber, "number"}, {jInteger, "integer"},
	{jBool, "boolean"}, {jNull, "null"}}

// vnode is one compiled schema. Its keywords are grouped by the JSON type
// they apply to, as JSON Schema applies them: "minLength" constrains
// strings and lets every other value through.
type vnode struct {
	never    bool   // the boolean schema false
	types    uint8  // the "type" bits; 0: any type
	typeWant string // what "type" wants ("string or null")

	// Scalars: nil when no keyword applies.
	str  *constraints // strings: the string members of enum and const, lengths, pattern, format
	b64  bool         // contentEncoding base64
	num  *vnum        // numbers: bounds and multipleOf
	enum *vset        // enum, for the values that are not strings
	cnst *vset        // const, likewise

	// Arrays.
	arr   *constraints // minItems, maxItems, uniqueItems; nil: none
	items *vnode       // nil: any item

	// Objects.
	obj      *constraints   // minProperties, maxProperties; nil: none
	props    []vprop        // "properties", then the required names it lacks
	byName   map[string]int // props by name, for many properties
	required []int          // indexes into props, in "required" order
	addl     *vnode         // the schema of keys not in props; nil: any
	closed   bool           // "additionalProperties": false
	allowed  string         // the want of an unknown property
	names    *vnode         // "propertyNames"

	// Applicators: schemas the same value must (also) meet.
	ref                 *vnode
	allOf, anyOf, oneOf []*vnode
	refOnly             bool // nothing but "$ref" (and annotations): its target decides
	applies             bool // has an applicator
	anyWant             string
}

// vprop is one property of an object schema.
type vprop struct {
	name string
	esc  string // name escaped for a JSON Pointer
	// The key and its ':' as JSON text spells them without whitespace,
	// as two words and masks (keyWords); klen is 0 when the name has
	// escapes or the key is over 16 bytes.
	kw, km [2]uint64
	klen   uint8
	node   *vnode
	// undeclared: a required name that "properties" lacks, which
	// additionalProperties governs.
	undeclared bool
}

// vnum are the bounds and multipleOf of a number schema. An integer that
// fits int64 is checked by checkInt, any other number from its text (the
// exact path): both exact, never through float64, since a schema tool
// hands the text on as it came.
type vnum struct {
	intC  *constraints // integers within int64; nil: nothing applies to them
	exact bool         // every integer takes the exact path (a bound beyond int64)
	lo    *decBound
	hi    *decBound
	mult  *big.Int // multipleOf in lowest terms, mult/multQ; nil: none
	multQ *big.Int
	multW string
}

// decBound is a bound of the exact path: its canonical decimal (see
// keyer.number) and what it wants.
type decBound struct {
	key       []byte
	exclusive bool
	want      string
}

// vset is an enum or a const over the values that are not strings (the
// string members are in the node's str constraints, checked by
// checkStringLimit): their canonical keys (keyer), numbers by value.
type vset struct {
	keys map[string]struct{}
	want string
}

// Annotation keywords and others that do not change which values are
// valid: kept by Parse in Extra and not checked.
var annotationKeywords = map[string]bool{
	"$schema": true, "$id": true, "id": true, "$comment": true, "$anchor": true, "$dynamicAnchor": true,
	"$recursiveAnchor": true, "$vocabulary": true, "definitions": true, "contentMediaType": true,
	"contentSchema": true, "example": true,
}

// unsupportedKeywords are the assertions and applicators of JSON Schema
// (2020-12 and earlier drafts) that the validator does not enforce: a
// schema with one of them is a define-time error naming it.
var unsupportedKeywords = map[string]string{
	"not":                   "",
	"patternProperties":     "",
	"dependentSchemas":      "",
	"dependentRequired":     "",
	"dependencies":          "",
	"prefixItems":           "",
	"contains":              "",
	"unevaluatedItems":      "",
	"unevaluatedProperties": "",
	"additionalItems":       "",
	"$dynamicRef":           "",
	"$recursiveRef":         "",
	"extends":               "",
	"disallow":              "",
	"divisibleBy":           " (consider multipleOf)",
}

// modeledKeywords are the keywords Parse reads into the tree; one in
// Extra had a value of another shape.
var modeledKeywords = map[string]string{
	"$ref": "a string", "type": "a type name or an array of them", "title": "a string", "description": "a string",
	"format": "a string", "contentEncoding": "a string", "pattern": "a string", "enum": "an array",
	"examples": "an array", "minLength": "a non-negative integer", "maxLength": "a non-negative integer",
	"minItems": "a non-negative integer", "maxItems": "a non-negative integer",
	"minProperties": "a non-negative integer", "maxProperties": "a non-negative integer",
	"minimum": "a number", "exclusiveMinimum": "a number", "maximum": "a number",
	"exclusiveMaximum": "a number", "multipleOf": "a number", "uniqueItems": "a boolean",
	"deprecated": "a boolean", "readOnly": "a boolean", "writeOnly": "a boolean",
	"required": "an array of strings", "items": "a schema", "additionalProperties": "a schema",
	"propertyNames": "a schema", "anyOf": "an array of schemas", "oneOf": "an array of schemas",
	"allOf": "an array of schemas", "properties": "an object of schemas", "$defs": "an object of schemas",
}

// Bounds on what a hand-written schema may ask of the validator, so that
// checking a call stays linear in its size whatever the schema says.
const (
	// maxSchemaPatternInsts bounds the compiled size of a pattern: the
	// general matcher's time per byte grows with it.
	maxSchemaPatternInsts = 2000
	// maxMultipleDigits bounds the digits of multipleOf, which the exact
	// path divides by.
	maxMultipleDigits = 40
	// maxWantText bounds the list of members an enum's error shows.
	maxWantText = 1 << 10
)

// compiler compiles one schema document.
type compiler struct {
	root   *schema.Schema
	memo   map[*schema.Schema]*vnode
	defs   map[*schema.Schema]map[string]*schema.Schema // parsed "definitions", by the schema holding them
	lim    schema.ParseLimits
	parsed int // bytes of "definitions" parsed
}

// CompileSchema compiles root, a hand-written schema [schema.Parse] read
// within lim, into a [SchemaPlan]. A keyword the plan cannot enforce, or
// whose value a schema may not have, is a [*schema.KeywordError] naming
// it; annotations ("title", "examples", "$comment", ...) and keywords of
// no JSON Schema vocabulary are not checked.
func CompileSchema(root *schema.Schema, lim schema.ParseLimits) (*SchemaPlan, error) {
	if root == nil {
		return nil, &schema.KeywordError{Keyword: "(root)", Msg: "no schema", Err: schema.ErrParse}
	}
	c := &compiler{root: root, memo: map[*schema.Schema]*vnode{}, lim: lim}
	n, err := c.node(root, "")
	if err != nil {
		return nil, err
	}
	if err := checkCycles(n); err != nil {
		return nil, err
	}
	return &SchemaPlan{root: n}, nil
}

func keywordError(path, keyword string, sentinel error, format string, args ...any) error {
	return &schema.KeywordError{Path: path, Keyword: keyword, Msg: fmt.Sprintf(format, args...), Err: sentinel}
}

// node compiles s, found at the JSON Pointer path; a schema reached twice
// (through "$ref") is compiled once.
func (c *compiler) node(s *schema.Schema, path string) (*vnode, error) {
	if n, ok := c.memo[s]; ok {
		return n, nil
	}
	n := &vnode{}
	c.memo[s] = n
	if s.Bool != nil {
		n.never = !*s.Bool
		return n, nil
	}
	k := &keywords{s: s}
	if err := c.extra(k, path); err != nil {
		return nil, err
	}
	if err := c.types(s, n, path); err != nil {
		return nil, err
	}
	if err := c.values(s, n, path); err != nil {
		return nil, err
	}
	if err := c.strings(k, n, path); err != nil {
		return nil, err
	}
	if err := c.numbers(s, n, path); err != nil {
		return nil, err
	}
	if err := c.arrays(k, n, path); err != nil {
		return nil, err
	}
	if err := c.objects(k, n, path); err != nil {
		return nil, err
	}
	return n, c.applicators(s, n, path)
}

// keywords is a schema being compiled, with the counts written as
// integral decimals ("maxLength": 2.0), which Parse keeps in Extra.
type keywords struct {
	s      *schema.Schema
	counts map[string]int64
}

// count returns the value of the count keyword name: Parse's v, or one
// written as a decimal.
func (k *keywords) count(v *int64, name string) *int64 {
	if v != nil {
		return v
	}
	if d, ok := k.counts[name]; ok {
		return &d
	}
	return nil
}

// extra checks the keywords Parse kept in Extra, and reads the counts
// written as integral decimals.
func (c *compiler) extra(kw *keywords, path string) error {
	s := kw.s
	has := func(name string) bool {
		for _, k := range s.Extra {
			if k.Name == name {
				return true
			}
		}
		return false
	}
	for _, k := range s.Extra {
		name := k.Name
		switch {
		case annotationKeywords[name]:
		case name == "if":
			if has("then") || has("else") {
				return keywordError(path, name, schema.ErrUnsupportedKeyword,
					"if/then/else is not enforced by the argument validator (consider anyOf, or checking it in the handler)")
			}
		case name == "then" || name == "else" || name == "minContains" || name == "maxContains":
			// Without "if" (or "contains") they assert nothing; with it,
			// that keyword is the error.
		case name == "items":
			return keywordError(path, name, schema.ErrUnsupportedKeyword,
				"an array of schemas (draft 4 tuple items) is not enforced by the argument validator (consider one schema for every item)")
		case isUnsupported(name):
			return keywordError(path, name, schema.ErrUnsupportedKeyword,
				"not enforced by the argument validator%s (consider removing it and checking the rule in the handler, or a tool without validation)",
				unsupportedKeywords[name])
		case modeledKeywords[name] != "":
			if v, ok := decimalCount(name, k.Value); ok {
				if kw.counts == nil {
					kw.counts = map[string]int64{}
				}
				kw.counts[name] = v
				continue
			}
			return keywordError(path, name, schema.ErrParse, "want %s, got %s", modeledKeywords[name], echo.Cut(k.Value, MaxEchoedValue))
		}
	}
	return nil
}

func isUnsupported(name string) bool { _, ok := unsupportedKeywords[name]; return ok }

// countKeywords are the keywords whose value is a count.
var countKeywords = map[string]bool{"minLength": true, "maxLength": true, "minItems": true, "maxItems": true,
	"minProperties": true, "maxProperties": true}

// decimalCount reads the value of a count keyword written as an integral
// decimal (2.0, 1e1), which Parse leaves in Extra.
func decimalCount(name string, raw json.RawMessage) (int64, bool) {
	if !countKeywords[name] || !validNumber(raw) {
		return 0, false
	}
	neg, mag, st := parseIntLit(raw)
	if st == numNotInteger || neg && mag != 0 {
		return 0, false
	}
	if st == numOverflow || mag > math.MaxInt64 {
		mag = math.MaxInt64 // no argument is that long or large
	}
	return int64(mag), true
}

// types compiles "type".
func (c *compiler) types(s *schema.Schema, n *vnode, path string) error {
	if s.Types == nil {
		return nil
	}
	if len(s.Types) == 0 {
		return keywordError(path, "type", schema.ErrParse, "an empty array of types admits no value (consider removing the keyword)")
	}
	for _, t := range s.Types {
		bit, ok := typeBits[t]
		if !ok {
			return keywordError(path, "type", schema.ErrParse, "%q is not a JSON Schema type (want null, boolean, integer, number, string, array or object)", t)
		}
		n.types |= bit
	}
	n.typeWant = typeWant(n.types)
	return nil
}

// typeWant names the types of bits: "string", "integer or null".
func typeWant(bits uint8) string {
	if bits&jNumber != 0 {
		bits &^= jInteger
	}
	var names []string
	for _, t := range typeNames {
		if bits&t.bit != 0 {
			names = append(names, t.name)
		}
	}
	switch len(names) {
	case 0:
		return "any JSON value"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// want returns what a value must be for n's types: "any JSON value"
// without "type" (or for a nil n, which takes any value).
func (n *vnode) want() string {
	if n == nil || n.types == 0 {
		return "any JSON value"
	}
	return n.typeWant
}

// values compiles "enum" and "const": string members into the string
// constraints, the others as canonical keys.
func (c *compiler) values(s *schema.Schema, n *vnode, path string) error {
	if s.Enum != nil {
		set, strs, err := valueKeys(s.Enum)
		if err != nil {
			return keywordError(path, "enum", schema.ErrParse, "%v", err)
		}
		set.want = "one of " + listWant(s.Enum)
		n.enum = set
		n.strConstraints().enum = &valueSet{strs: strs, want: set.want}
	}
	if s.HasConst {
		set, strs, err := valueKeys([]any{s.Const})
		if err != nil {
			return keywordError(path, "const", schema.ErrParse, "%v", err)
		}
		set.want = echo.Cut(valueText(s.Const), maxWantText)
		n.cnst = set
		n.strConstraints().cnst = &valueSet{strs: strs, want: set.want}
	}
	return nil
}

// strConstraints returns n's string constraints, made when absent.
func (n *vnode) strConstraints() *constraints {
	if n.str == nil {
		n.str = newConstraints()
	}
	return n.str
}

// valueKeys splits enum members into the strings and the canonical keys
// of the others.
func valueKeys(vals []any) (*vset, []string, error) {
	set := &vset{keys: map[string]struct{}{}}
	var strs []string
	var k keyer
	for _, v := range vals {
		if s, ok := v.(string); ok {
			strs = append(strs, s)
			continue
		}
		k.reset()
		k.dynamic(v)
		if k.opaque {
			return nil, nil, fmt.Errorf("member %s is not a JSON value", echo.Cut(valueText(v), MaxEchoedValue))
		}
		set.keys[string(k.buf)] = struct{}{}
	}
	if strs == nil {
		strs = []string{} // strings are then never members
	}
	return set, strs, nil
}

// valueText renders a value of enum or const as compact JSON.
func valueText(v any) string {
	if raw, ok := v.(json.RawMessage); ok {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// listWant renders enum members for an error, each cut, the list at most
// maxWantText bytes.
func listWant(vals []any) string {
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		if b.Len() > maxWantText {
			fmt.Fprintf(&b, "%s (%d in all)", echo.Marker, len(vals))
			break
		}
		b.WriteString(echo.Cut(valueText(v), MaxEchoedValue))
	}
	return b.String()
}

// strings compiles the string keywords.
func (c *compiler) strings(kw *keywords, n *vnode, path string) error {
	s := kw.s
	for _, it := range []struct {
		v    *int64
		dst  func(*constraints) (*int, *string)
		name string
		at   string
	}{
		{kw.count(s.MinLength, "minLength"), func(c *constraints) (*int, *string) { return &c.minLen, &c.minLenWant }, "minLength", "at least "},
		{kw.count(s.MaxLength, "maxLength"), func(c *constraints) (*int, *string) { return &c.maxLen, &c.maxLenWant }, "maxLength", "at most "},
	} {
		if it.v == nil {
			continue
		}
		dst, want := it.dst(n.strConstraints())
		*dst, *want = clampCount(*it.v), it.at+countOf(clampCount(*it.v), "character", "characters")
	}
	if s.Pattern != "" {
		p, err := schemaPattern(s.Pattern)
		if err != nil {
			return keywordError(path, "pattern", schema.ErrParse, "%v", err)
		}
		sc := n.strConstraints()
		sc.re, sc.reWant = p, "string matching "+echo.Cut(s.Pattern, maxWantText)
	}
	if s.Format != "" {
		// A format this package does not know is an annotation, as JSON
		// Schema 2020-12 makes every format by default.
		if check, want, ok := formats.Lookup(s.Format); ok {
			if s.Format == "date-time" {
				check = dateTimeString
			}
			sc := n.strConstraints()
			sc.format, sc.formatWant = check, want
		}
	}
	n.b64 = s.ContentEncoding == "base64"
	return nil
}

// dateTimeString is formats.DateTime with the fast path of time.Time
// fields for the common form ("2026-03-14T09:30:00Z"): both accept the
// same strings.
func dateTimeString(s string) bool {
	if len(s) == 20 {
		if _, ok := fastDateTime(unsafe.Slice(unsafe.StringData(s), 20)); ok {
			return true
		}
	}
	return formats.DateTime(s)
}

// clampCount returns a count keyword as an int.
func clampCount(v int64) int {
	if v > math.MaxInt32 {
		return math.MaxInt32 // no argument string, array or object is as large
	}
	return int(v)
}

// schemaPattern compiles a pattern of a hand-written schema: RE2 syntax,
// unanchored, not kept in formats' process-wide cache (the schema may
// come from another server, and so may every new pattern), and at most
// maxSchemaPatternInsts instructions.
func schemaPattern(expr string) (*pattern, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("malformed regular expression (patterns are RE2 syntax, which has no lookaround or backreferences): %v", err)
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, fmt.Errorf("malformed regular expression: %v", err)
	}
	if len(prog.Inst) > maxSchemaPatternInsts {
		return nil, fmt.Errorf("the regular expression compiles to %d instructions, more than %d: checking strings against it would take too long", len(prog.Inst), maxSchemaPatternInsts)
	}
	compiled, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("malformed regular expression: %v", err)
	}
	return newPattern(compiled, expr), nil
}

// numbers compiles the bounds and multipleOf.
func (c *compiler) numbers(s *schema.Schema, n *vnode, path string) error {
	type bound struct {
		text      json.Number
		name      string
		exclusive bool
		upper     bool
	}
	var lo, hi *fields.Bound
	for _, b := range []bound{
		{s.Minimum, "minimum", false, false}, {s.ExclusiveMinimum, "exclusiveMinimum", true, false},
		{s.Maximum, "maximum", false, true}, {s.ExclusiveMaximum, "exclusiveMaximum", true, true},
	} {
		if b.text == "" {
			continue
		}
		if !smallNumber(string(b.text)) {
			return keywordError(path, b.name, schema.ErrUnsupportedKeyword, "%s has more than %d digits or an exponent beyond ±%d", echo.Cut(string(b.text), MaxEchoedValue), maxNumberText, maxNumberExp)
		}
		q, err := fields.ParseDecimal(string(b.text))
		if err != nil {
			return keywordError(path, b.name, schema.ErrParse, "malformed number %s: %v", echo.Cut(string(b.text), MaxEchoedValue), err)
		}
		nb := &fields.Bound{Number: &fields.Number{Text: string(b.text), Rat: q}, Exclusive: b.exclusive, Tag: b.name}
		cur, sign := &lo, 1
		if b.upper {
			cur, sign = &hi, -1
		}
		// The tighter bound wins; at a tie, the exclusive one.
		if *cur == nil {
			*cur = nb
		} else if cmp := nb.Rat.Cmp((*cur).Rat) * sign; cmp > 0 || cmp == 0 && b.exclusive {
			*cur = nb
		}
	}
	var mult *fields.Number
	if s.MultipleOf != "" {
		if !smallNumber(string(s.MultipleOf)) {
			return keywordError(path, "multipleOf", schema.ErrUnsupportedKeyword, "%s has more than %d digits or an exponent beyond ±%d", echo.Cut(string(s.MultipleOf), MaxEchoedValue), maxNumberText, maxNumberExp)
		}
		q, err := fields.ParseDecimal(string(s.MultipleOf))
		if err != nil {
			return keywordError(path, "multipleOf", schema.ErrParse, "malformed number %s: %v", echo.Cut(string(s.MultipleOf), MaxEchoedValue), err)
		}
		if q.Sign() <= 0 {
			return keywordError(path, "multipleOf", schema.ErrParse, "must be greater than 0, not %s", s.MultipleOf)
		}
		if len(q.Num().String()) > maxMultipleDigits || len(q.Denom().String()) > maxMultipleDigits {
			return keywordError(path, "multipleOf", schema.ErrUnsupportedKeyword, "%s has more than %d significant digits", echo.Cut(string(s.MultipleOf), MaxEchoedValue), maxMultipleDigits)
		}
		mult = &fields.Number{Text: string(s.MultipleOf), Rat: q}
	}
	if lo == nil && hi == nil && mult == nil {
		return nil
	}
	word := "number"
	if n.types&jNumber == 0 && n.types&jInteger != 0 {
		word = "integer"
	}
	num := &vnum{}
	n.num = num
	// Integers within int64: compileBounds over an int64 node, with the
	// bounds as inclusive integers. A bound beyond int64 that excludes
	// every int64 sends integers to the exact path instead.
	intNode := &node{kind: kInt, t: reflect.TypeFor[int64](), bits: 64, want: word}
	r := &fields.Rules{Lower: lo, Upper: hi, MultipleOf: mult}
	typeLo, typeHi := fields.IntRange(reflect.Int64)
	if lo != nil {
		r.IntLower = fields.Ceil(lo.Rat)
		if lo.Exclusive && lo.Rat.IsInt() {
			r.IntLower.Add(r.IntLower, big.NewInt(1))
		}
		num.exact = num.exact || r.IntLower.Cmp(typeHi) > 0
	}
	if hi != nil {
		r.IntUpper = fields.Floor(hi.Rat)
		if hi.Exclusive && hi.Rat.IsInt() {
			r.IntUpper.Sub(r.IntUpper, big.NewInt(1))
		}
		num.exact = num.exact || r.IntUpper.Cmp(typeLo) < 0
	}
	if !num.exact {
		num.intC = newConstraints()
		compileBounds(num.intC, intNode, r)
	}
	// The exact path: canonical decimals of the bounds, and multipleOf
	// as a fraction in lowest terms.
	ops := map[string]string{"minimum": ">=", "exclusiveMinimum": ">", "maximum": "<=", "exclusiveMaximum": "<"}
	dec := func(b *fields.Bound) *decBound {
		if b == nil {
			return nil
		}
		var k keyer
		k.number([]byte(b.Text))
		return &decBound{key: k.buf, exclusive: b.Exclusive, want: word + " " + ops[b.Tag] + " " + b.Text}
	}
	num.lo, num.hi = dec(lo), dec(hi)
	if mult != nil {
		num.mult, num.multQ = new(big.Int).Set(mult.Rat.Num()), new(big.Int).Set(mult.Rat.Denom())
		num.multW = "multiple of " + mult.Text
	}
	return nil
}

// Bounds on the numbers of bounds and multipleOf, which are read exactly
// (math/big): past them the work and memory of reading one would grow
// faster than its text.
const (
	maxNumberText = 400
	maxNumberExp  = 400
)

// smallNumber reports whether the number text v is within maxNumberText
// bytes and its exponent within ±maxNumberExp.
func smallNumber(v string) bool {
	if len(v) > maxNumberText {
		return false
	}
	i := strings.IndexAny(v, "eE")
	if i < 0 {
		return true
	}
	e, err := strconv.Atoi(strings.TrimPrefix(v[i+1:], "+"))
	return err == nil && e >= -maxNumberExp && e <= maxNumberExp
}

// arrays compiles the array keywords.
func (c *compiler) arrays(kw *keywords, n *vnode, path string) error {
	s := kw.s
	minItems, maxItems := kw.count(s.MinItems, "minItems"), kw.count(s.MaxItems, "maxItems")
	if minItems != nil || maxItems != nil || s.UniqueItems {
		a := newConstraints()
		if minItems != nil {
			a.minItems = clampCount(*minItems)
			a.minItemsWant = "at least " + countOf(a.minItems, "item", "items")
		}
		if maxItems != nil {
			a.maxItems = clampCount(*maxItems)
			a.maxItemsWant = "at most " + countOf(a.maxItems, "item", "items")
		}
		a.unique = s.UniqueItems
		n.arr = a
	}
	if s.Items != nil {
		it, err := c.node(s.Items, path+"/items")
		if err != nil {
			return err
		}
		n.items = it
	}
	return nil
}

// objects compiles the object keywords.
func (c *compiler) objects(kw *keywords, n *vnode, path string) error {
	s := kw.s
	minProps, maxProps := kw.count(s.MinProperties, "minProperties"), kw.count(s.MaxProperties, "maxProperties")
	if minProps != nil || maxProps != nil {
		o := newConstraints()
		if minProps != nil {
			o.minProps = clampCount(*minProps)
			o.minPropsWant = "at least " + countOf(o.minProps, "property", "properties")
		}
		if maxProps != nil {
			o.maxProps = clampCount(*maxProps)
			o.maxPropsWant = "at most " + countOf(o.maxProps, "property", "properties")
		}
		n.obj = o
	}
	if s.AdditionalProperties != nil {
		if s.AdditionalProperties.IsFalse() {
			n.closed = true
		} else {
			a, err := c.node(s.AdditionalProperties, path+"/additionalProperties")
			if err != nil {
				return err
			}
			n.addl = a
		}
	}
	if s.PropertyNames != nil {
		pn, err := c.node(s.PropertyNames, path+"/propertyNames")
		if err != nil {
			return err
		}
		n.names = pn
	}
	index := map[string]int{}
	var allowed []string
	for _, p := range s.Properties {
		if _, dup := index[p.Name]; dup {
			continue // Parse refuses a repeated key; a tree made by hand may not
		}
		pn, err := c.node(p.Schema, path+"/properties/"+jsonwire.EscapeToken(p.Name))
		if err != nil {
			return err
		}
		index[p.Name] = len(n.props)
		n.props = append(n.props, newProp(p.Name, pn, false))
		if !p.Schema.IsFalse() {
			allowed = append(allowed, echo.Cut(p.Name, MaxEchoedKey))
		}
	}
	seen := map[string]bool{}
	for _, name := range s.Required {
		if seen[name] {
			continue
		}
		seen[name] = true
		i, ok := index[name]
		if !ok {
			// additionalProperties governs it: a key the object must have
			// and, when closed, may not.
			i = len(n.props)
			index[name] = i
			n.props = append(n.props, newProp(name, n.addl, true))
		}
		n.required = append(n.required, i)
	}
	if len(n.props) > 8 {
		n.byName = index
	}
	switch {
	case len(allowed) == 0:
		n.allowed = "no such property (this object takes none)"
	case len(allowed) > maxAllowedNames:
		n.allowed = fmt.Sprintf("no such property (allowed: %s, ... %d in all)", strings.Join(allowed[:maxAllowedNames], ", "), len(allowed))
	default:
		n.allowed = "no such property (allowed: " + strings.Join(allowed, ", ") + ")"
	}
	return nil
}

func newProp(name string, n *vnode, undeclared bool) vprop {
	p := vprop{name: name, esc: jsonwire.EscapeToken(name), node: n, undeclared: undeclared}
	if verbatimName(name) {
		p.kw, p.km, p.klen = keyWords(name)
	}
	return p
}

// applicators compiles "$ref", "allOf", "anyOf" and "oneOf".
func (c *compiler) applicators(s *schema.Schema, n *vnode, path string) error {
	if s.Ref != "" {
		target, err := c.resolve(s.Ref, path)
		if err != nil {
			return err
		}
		t, err := c.node(target, refPath(s.Ref))
		if err != nil {
			return err
		}
		n.ref = t
	}
	var err error
	list := func(name string, subs []*schema.Schema) []*vnode {
		if err != nil || len(subs) == 0 {
			return nil
		}
		out := make([]*vnode, len(subs))
		for i, sub := range subs {
			if out[i], err = c.node(sub, path+"/"+name+"/"+strconv.Itoa(i)); err != nil {
				return nil
			}
		}
		return out
	}
	n.allOf, n.anyOf, n.oneOf = list("allOf", s.AllOf), list("anyOf", s.AnyOf), list("oneOf", s.OneOf)
	if err != nil {
		return err
	}
	for name, list := range map[string][]*schema.Schema{"anyOf": s.AnyOf, "oneOf": s.OneOf, "allOf": s.AllOf} {
		if list != nil && len(list) == 0 {
			return keywordError(path, name, schema.ErrParse, "an empty array of schemas (want at least one)")
		}
	}
	n.applies = n.ref != nil || n.allOf != nil || n.anyOf != nil || n.oneOf != nil
	n.refOnly = n.ref != nil && n.allOf == nil && n.anyOf == nil && n.oneOf == nil && !n.checksOwn()
	if branches := append(append([]*vnode(nil), n.anyOf...), n.oneOf...); len(branches) > 0 {
		var bits uint8
		for _, b := range branches {
			b = b.target()
			if b.types == 0 && !b.never {
				bits = 0xff
				break
			}
			bits |= b.types
		}
		n.anyWant = "any JSON value"
		if bits != 0xff {
			n.anyWant = typeWant(bits)
		}
	}
	return nil
}

// checksOwn reports whether n has a keyword of its own that checks a
// value (not an applicator): a node with "$ref" and none is its target.
func (n *vnode) checksOwn() bool {
	return n.never || n.types != 0 || n.str != nil || n.b64 || n.num != nil || n.enum != nil || n.cnst != nil ||
		n.arr != nil || n.items != nil || n.obj != nil || n.props != nil || n.addl != nil || n.closed || n.names != nil
}

// target follows n's chain of "$ref"-only nodes to the node that decides.
func (n *vnode) target() *vnode {
	for i := 0; n.refOnly && n.ref != nil && i < 1<<16; i++ {
		n = n.ref
	}
	return n
}

// refPath is the JSON Pointer a "$ref" names, for errors.
func refPath(ref string) string {
	p := strings.TrimPrefix(ref, "#")
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}

// resolve returns the schema a "$ref" found at path names: a JSON
// Pointer into this document through the keywords that hold schemas
// ("$defs", "definitions", "properties", "items", "additionalProperties",
// "propertyNames", "anyOf", "oneOf", "allOf"), or "#" for the root.
func (c *compiler) resolve(ref, path string) (*schema.Schema, error) {
	fail := func(format string, args ...any) error {
		return keywordError(path, "$ref", schema.ErrUnsupportedKeyword, "%q: "+format, append([]any{ref}, args...)...)
	}
	if !strings.HasPrefix(ref, "#") {
		return nil, fail("a reference to another document is not resolved (consider putting the schema under $defs and referring to #/$defs/Name)")
	}
	ptr, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil, fail("malformed percent-encoding: %v", err)
	}
	if ptr == "" {
		return c.root, nil
	}
	if ptr[0] != '/' {
		return nil, fail("an anchor is not resolved (consider a JSON Pointer such as #/$defs/Name)")
	}
	toks := strings.Split(ptr[1:], "/")
	for i := range toks {
		toks[i] = jsonwire.UnescapeToken(toks[i])
	}
	cur := c.root
	for i := 0; i < len(toks); i++ {
		if cur.Bool != nil {
			return nil, fail("it points into a boolean schema")
		}
		tok := toks[i]
		named := func() (string, bool) {
			if i+1 >= len(toks) {
				return "", false
			}
			i++
			return toks[i], true
		}
		var next *schema.Schema
		switch tok {
		case "$defs":
			if name, ok := named(); ok {
				for _, d := range cur.Defs {
					if d.Name == name {
						next = d.Schema
					}
				}
			}
		case "definitions":
			if name, ok := named(); ok {
				defs, err := c.definitions(cur)
				if err != nil {
					return nil, fail("%v", err)
				}
				next = defs[name]
			}
		case "properties":
			if name, ok := named(); ok {
				next = cur.Property(name)
			}
		case "items":
			next = cur.Items
		case "additionalProperties":
			next = cur.AdditionalProperties
		case "propertyNames":
			next = cur.PropertyNames
		case "anyOf", "oneOf", "allOf":
			list := map[string][]*schema.Schema{"anyOf": cur.AnyOf, "oneOf": cur.OneOf, "allOf": cur.AllOf}[tok]
			if idx, ok := named(); ok {
				if k, err := strconv.Atoi(idx); err == nil && k >= 0 && k < len(list) && strconv.Itoa(k) == idx {
					next = list[k]
				}
			}
		default:
			return nil, fail("the validator follows pointers through $defs, definitions, properties, items, additionalProperties, propertyNames, anyOf, oneOf and allOf, not %q", tok)
		}
		if next == nil {
			return nil, fail("no schema there")
		}
		cur = next
	}
	return cur, nil
}

// definitions parses the "definitions" (draft 7's $defs) that s keeps in
// Extra, once, within the document's byte limit in all.
func (c *compiler) definitions(s *schema.Schema) (map[string]*schema.Schema, error) {
	if d, ok := c.defs[s]; ok {
		return d, nil
	}
	var raw json.RawMessage
	for _, k := range s.Extra {
		if k.Name == "definitions" {
			raw = k.Value
		}
	}
	var members map[string]json.RawMessage
	if raw == nil || json.Unmarshal(raw, &members) != nil {
		return nil, fmt.Errorf("no \"definitions\" object there")
	}
	max := c.lim.MaxBytes
	if max == 0 {
		max = schema.DefaultMaxParseBytes
	}
	c.parsed += len(raw)
	if max > 0 && c.parsed > max {
		return nil, fmt.Errorf("the definitions parsed pass %d bytes", max)
	}
	out := make(map[string]*schema.Schema, len(members))
	for name, m := range members {
		var d *schema.Schema
		switch string(m) {
		case "true":
			d = schema.True()
		case "false":
			d = schema.False()
		default:
			var err error
			if d, err = schema.ParseLimited(m, c.lim); err != nil {
				return nil, fmt.Errorf("definitions/%s: %w", name, err)
			}
		}
		out[name] = d
	}
	if c.defs == nil {
		c.defs = map[*schema.Schema]map[string]*schema.Schema{}
	}
	c.defs[s] = out
	return out, nil
}

// checkCycles refuses a schema that applies itself to the same value
// forever: a cycle of "$ref", "allOf", "anyOf" and "oneOf" edges that
// never steps into a property or an item.
func checkCycles(root *vnode) error {
	const (
		open = 1
		done = 2
	)
	state := map[*vnode]uint8{}
	var visit func(n *vnode) bool
	visit = func(n *vnode) bool {
		switch state[n] {
		case open:
			return false
		case done:
			return true
		}
		state[n] = open
		for _, list := range [][]*vnode{{n.ref}, n.allOf, n.anyOf, n.oneOf} {
			for _, m := range list {
				if m != nil && !visit(m) {
					return false
				}
			}
		}
		state[n] = done
		return true
	}
	// Every node reachable through any edge, each checked once.
	seen := map[*vnode]bool{}
	stack := []*vnode{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil || seen[n] {
			continue
		}
		seen[n] = true
		if !visit(n) {
			return keywordError("", "$ref", schema.ErrUnsupportedKeyword,
				"a cycle of $ref, allOf, anyOf or oneOf that applies a schema to the same value again without end")
		}
		stack = append(stack, n.ref, n.items, n.addl, n.names)
		stack = append(stack, n.allOf...)
		stack = append(stack, n.anyOf...)
		stack = append(stack, n.oneOf...)
		for _, p := range n.props {
			stack = append(stack, p.node)
		}
	}
	return nil
}
