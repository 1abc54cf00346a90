package fields

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"reflect"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"

	"github.com/toolnexus/toolnexus/internal/formats"
)

// Rules is what a field's struct tags say, read and checked once for the
// field's type (pointers removed). Values (Enum, Const, Default, Examples)
// are JSON values: string, bool, json.Number (integers in canonical form)
// or nil for scalars, compact json.RawMessage for arrays and objects.
type Rules struct {
	Type  reflect.Type // the field's type without pointers
	Class Class

	Title, Description        string
	HasTitle, HasDescription  bool
	Deprecated, ReadOnly      bool
	WriteOnly                 bool
	Required                  *bool // the required tag, if given
	Minimum, ExclusiveMinimum *Number
	Maximum, ExclusiveMaximum *Number
	MultipleOf                *Number

	// Lower and Upper are the tighter of minimum and exclusiveMinimum
	// (maximum and exclusiveMaximum); for integer fields IntLower and
	// IntUpper are the same bounds as inclusive integers. nil when absent.
	Lower, Upper       *Bound
	IntLower, IntUpper *big.Int

	// Counts; -1 when the tag is absent.
	MinLength, MaxLength         int64
	MinItems, MaxItems           int64
	MinProperties, MaxProperties int64

	// Pattern is checked as RE2 syntax at definition and compiled by its
	// first use ([formats.Regexp], cached): compiling a pattern that parses
	// cannot fail.
	Pattern     string
	Format      string // "" when absent, or when it only restates the type (date-time on time.Time)
	UniqueItems bool

	Enum     []any // nil when absent
	Const    any
	HasConst bool

	Default     any
	DefaultJSON []byte // the default as JSON text
	HasDefault  bool
	Examples    []any    // example, then examples
	ExampleJSON [][]byte // the same, as JSON text
	HasExample  bool     // Examples[0] is the example tag

	// Set reports whether any constraint tag (one that changes what the
	// decoder accepts) is present on the field itself.
	Set bool

	// Elem are the rules of every element of a slice or array (the
	// items.* tags) or of every value of a map (values.*), read for the
	// element type without pointers, the element type's own declarations
	// included; nil when there are no such tags. See [ElemPrefix].
	Elem *Rules

	// peer says which tags came from another library's dialect (the
	// jsonschema tags), so that errors name the tag the user wrote.
	peer origins
}

// Number is a number tag, exactly.
type Number struct {
	Text string
	Rat  *big.Rat
}

// Bound is a lower or upper bound: a number tag and whether it is
// exclusive.
type Bound struct {
	*Number
	Exclusive bool
	Tag       string // "minimum", "exclusiveMinimum", ...
}

// String returns the tag and its value, "exclusiveMinimum 0".
func (b *Bound) String() string { return b.Tag + " " + b.Text }

// HasExamples reports whether r, or the rules of its elements (items.*,
// values.*), have examples.
func (r *Rules) HasExamples() bool {
	for ; r != nil; r = r.Elem {
		if len(r.ExampleJSON) > 0 {
			return true
		}
	}
	return false
}

// noRules are the rules of a field without tags, by type; Set is false.
func noRules(t reflect.Type) Rules {
	return Rules{Type: t, Class: ClassOf(t), MinLength: -1, MaxLength: -1, MinItems: -1, MaxItems: -1, MinProperties: -1, MaxProperties: -1}
}

// ParseRules reads the tags of a field whose type without pointers is t:
// swaggest's, the items.* and values.* tags of the elements ([ElemPrefix])
// and the peer dialects' jsonschema tags, translated into swaggest's
// (peerTags). Every define-time check of a tag is here: the tag fits t, its value is
// well formed, ranges are not empty, scalar defaults, examples and enum
// members are values of t. (Whether the values tags give meet the field's
// other constraints, and a default or example of another type, is checked
// by the decoder, with the code that checks a call's values.)
// Errors are [*Error]s with an empty path.
func ParseRules(t reflect.Type, tag reflect.StructTag) (*Rules, error) {
	r := new(Rules)
	if err := rulesFor(r, t, tag, false); err != nil {
		return nil, err
	}
	return r, nil
}

// parseRulesInto is [ParseRules] into r, so that the rules of a struct's
// fields can share one allocation.
func parseRulesInto(r *Rules, t reflect.Type, tag reflect.StructTag) error {
	*r = noRules(t)
	p := parser{r: r, tag: tag}
	p.scan()
	return p.parse()
}

type parser struct {
	r   *Rules
	tag reflect.StructTag
	// pairs[:n] are the tag's key:"value" pairs, read once; a tag with more
	// than len(pairs) (overflow) is read with reflect.StructTag.Lookup.
	pairs    [12]tagPair
	n        int
	overflow bool
}

// tagPair is one key:"value" of a struct tag, the value still quoted.
type tagPair struct{ key, quoted string }

// scan splits the tag into its key:"value" pairs with the grammar of
// [reflect.StructTag.Lookup], stopping where Lookup would stop looking, so
// that [parser.lookup] answers as Lookup does after one pass over the tag
// instead of one per keyword.
func (p *parser) scan() {
	tag := string(p.tag)
	for {
		key, quoted, rest, ok := nextPair(tag)
		if !ok {
			return
		}
		if p.n == len(p.pairs) {
			p.overflow = true
			return
		}
		p.pairs[p.n] = tagPair{key, quoted}
		p.n++
		tag = rest
	}
}

// nextPair reads the first key:"value" pair of tag with the grammar of
// [reflect.StructTag.Lookup], the value still quoted; ok is false where
// Lookup would stop looking.
func nextPair(tag string) (key, quoted, rest string, ok bool) {
	i := 0
	for i < len(tag) && tag[i] == ' ' {
		i++
	}
	tag = tag[i:]
	if tag == "" {
		return "", "", "", false
	}
	i = 0
	for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
		i++
	}
	if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
		return "", "", "", false
	}
	key = tag[:i]
	tag = tag[i+1:]
	i = 1
	for i < len(tag) && tag[i] != '"' {
		if tag[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(tag) {
		return "", "", "", false
	}
	return key, tag[:i+1], tag[i+1:], true
}

// lookup is [reflect.StructTag.Lookup] on the scanned pairs: the first
// pair with the key, unquoted.
func (p *parser) lookup(key string) (string, bool) {
	if p.overflow {
		return p.tag.Lookup(key)
	}
	for _, kv := range p.pairs[:p.n] {
		if kv.key == key {
			v, err := strconv.Unquote(kv.quoted)
			if err != nil {
				return "", false
			}
			return v, true
		}
	}
	return "", false
}

func (p *parser) errorf(tag, format string, args ...any) *Error {
	return errorf("", tag, ErrInvalidTag, format, args...)
}

func (p *parser) fits(name string, ok bool, want string) error {
	if ok {
		return nil
	}
	hint := ""
	switch p.r.Class {
	case ClassInteger, ClassNumber:
		hint = "; consider minimum/maximum for numbers"
	case ClassString:
		hint = "; consider minLength/maxLength, pattern or format for strings"
	case ClassArray:
		hint = "; consider minItems/maxItems for slices"
		if keyFits(name, ClassOf(Deref(p.r.Type.Elem()))) {
			hint = fmt.Sprintf("; consider items.%s:\"…\" to put it on every element, or minItems/maxItems for the slice", name)
		}
	case ClassMap:
		hint = "; consider minProperties/maxProperties for maps"
		if keyFits(name, ClassOf(Deref(p.r.Type.Elem()))) {
			hint = fmt.Sprintf("; consider values.%s:\"…\" to put it on every value, or minProperties/maxProperties for the map", name)
		}
	}
	return p.errorf(name, "does not apply to %s (only to %s%s)", p.r.Type, want, hint)
}

func (p *parser) boolTag(name string, dst *bool) error {
	v, ok := p.lookup(name)
	if !ok {
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return p.errorf(name, "malformed boolean %q (consider %s:\"true\" or %s:\"false\")", v, name, name)
	}
	*dst = b
	return nil
}

func (p *parser) parse() error {
	r, lookup := p.r, p.lookup
	if v, ok := lookup("nullable"); ok {
		return p.errorf("nullable", "%q is not supported: only pointers are nullable (consider a pointer type)", v)
	}
	if _, ok := lookup("required"); ok {
		r.Required = new(bool)
		if err := p.boolTag("required", r.Required); err != nil {
			return err
		}
	}
	r.Title, r.HasTitle = lookup("title")
	r.Description, r.HasDescription = lookup("description")
	for _, b := range []struct {
		name string
		dst  *bool
	}{{"deprecated", &r.Deprecated}, {"readOnly", &r.ReadOnly}, {"writeOnly", &r.WriteOnly}} {
		if err := p.boolTag(b.name, b.dst); err != nil {
			return err
		}
	}
	if err := p.numbers(); err != nil {
		return err
	}
	if err := p.counts(); err != nil {
		return err
	}
	if err := p.strings(); err != nil {
		return err
	}
	if err := p.values(); err != nil {
		return err
	}
	return p.elems()
}

func (p *parser) numbers() error {
	r := p.r
	numeric := r.Class == ClassInteger || r.Class == ClassNumber
	for _, b := range []struct {
		name string
		dst  **Number
	}{
		{"minimum", &r.Minimum}, {"exclusiveMinimum", &r.ExclusiveMinimum},
		{"maximum", &r.Maximum}, {"exclusiveMaximum", &r.ExclusiveMaximum},
		{"multipleOf", &r.MultipleOf},
	} {
		v, ok := p.lookup(b.name)
		if !ok {
			continue
		}
		if err := p.fits(b.name, numeric, "numbers"); err != nil {
			return err
		}
		n, err := numberTag(v)
		if err != nil {
			return p.errorf(b.name, "malformed number %q: %v", v, err)
		}
		*b.dst = n
		r.Set = true
	}
	if r.MultipleOf != nil && r.MultipleOf.Rat.Sign() <= 0 {
		return p.errorf("multipleOf", "must be greater than 0, not %s", r.MultipleOf.Text)
	}
	if !numeric {
		return nil
	}
	return p.numberRange()
}

// numberTags holds the parsed number tags by text: programs repeat the same
// bounds (minimum:"0", maximum:"100") across types. A *Number is shared and
// never modified (its Rat is only read); keys come from struct tags, so the
// cache is bounded by the program's types.
var numberTags sync.Map // string -> *Number

// numberTag parses a number tag, once per text.
func numberTag(v string) (*Number, error) {
	if n, ok := numberTags.Load(v); ok {
		return n.(*Number), nil
	}
	q, err := ParseDecimal(v)
	if err != nil {
		return nil, err
	}
	n, _ := numberTags.LoadOrStore(v, &Number{Text: v, Rat: q})
	return n.(*Number), nil
}

// numberRange picks the tighter bounds and rejects bounds that leave no
// value of the field's type.
func (p *parser) numberRange() error {
	r := p.r
	for _, b := range []struct {
		n     *Number
		upper bool
		ex    bool
		tag   string
	}{
		{r.Minimum, false, false, "minimum"}, {r.ExclusiveMinimum, false, true, "exclusiveMinimum"},
		{r.Maximum, true, false, "maximum"}, {r.ExclusiveMaximum, true, true, "exclusiveMaximum"},
	} {
		if b.n == nil {
			continue
		}
		nb := &Bound{Number: b.n, Exclusive: b.ex, Tag: b.tag}
		cur, sign := &r.Lower, 1
		if b.upper {
			cur, sign = &r.Upper, -1
		}
		if *cur == nil {
			*cur = nb
		} else if c := nb.Rat.Cmp((*cur).Rat) * sign; c > 0 || (c == 0 && b.ex) {
			*cur = nb
		}
	}
	lo, hi := r.Lower, r.Upper
	if lo != nil && hi != nil {
		if c := lo.Rat.Cmp(hi.Rat); c > 0 || (c == 0 && (lo.Exclusive || hi.Exclusive)) {
			return p.errorf("", "%s and %s leave no valid value", lo, hi)
		}
	}
	if r.Class != ClassInteger {
		return nil
	}
	typeLo, typeHi := IntRange(r.Type.Kind())
	if lo != nil {
		r.IntLower = Ceil(lo.Rat)
		if lo.Exclusive && lo.Rat.IsInt() {
			r.IntLower.Add(r.IntLower, big.NewInt(1))
		}
		if r.IntLower.Cmp(typeHi) > 0 {
			return p.errorf("", "%s excludes every %s", lo, r.Type)
		}
	}
	if hi != nil {
		r.IntUpper = Floor(hi.Rat)
		if hi.Exclusive && hi.Rat.IsInt() {
			r.IntUpper.Sub(r.IntUpper, big.NewInt(1))
		}
		if r.IntUpper.Cmp(typeLo) < 0 {
			return p.errorf("", "%s excludes every %s", hi, r.Type)
		}
	}
	if lo != nil && hi != nil && r.IntLower.Cmp(r.IntUpper) > 0 {
		return p.errorf("", "%s and %s leave no integer", lo, hi)
	}
	return nil
}

// Floor returns the greatest integer <= q.
func Floor(q *big.Rat) *big.Int {
	return new(big.Int).Div(q.Num(), q.Denom()) // Euclidean: floor for a positive denominator
}

// Ceil returns the least integer >= q.
func Ceil(q *big.Rat) *big.Int {
	f := Floor(q)
	if !q.IsInt() {
		f.Add(f, big.NewInt(1))
	}
	return f
}

func (p *parser) counts() error {
	r := p.r
	for _, c := range []struct {
		name string
		dst  *int64
		ok   bool
		want string
	}{
		{"minLength", &r.MinLength, r.Class == ClassString, "strings"},
		{"maxLength", &r.MaxLength, r.Class == ClassString, "strings"},
		{"minItems", &r.MinItems, r.Class == ClassArray, "slices and arrays"},
		{"maxItems", &r.MaxItems, r.Class == ClassArray, "slices and arrays"},
		{"minProperties", &r.MinProperties, r.Class == ClassMap, "maps"},
		{"maxProperties", &r.MaxProperties, r.Class == ClassMap, "maps"},
	} {
		v, ok := p.lookup(c.name)
		if !ok {
			continue
		}
		if err := p.fits(c.name, c.ok, c.want); err != nil {
			return err
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > math.MaxInt32 {
			return p.errorf(c.name, "malformed count %q (want a non-negative integer)", v)
		}
		if r.Type.Kind() == reflect.Array && n != int64(r.Type.Len()) {
			return p.errorf(c.name, "%d contradicts the array length %d (consider a slice)", n, r.Type.Len())
		}
		*c.dst = n
		r.Set = true
	}
	for _, pair := range [][2]int64{{r.MinLength, r.MaxLength}, {r.MinItems, r.MaxItems}, {r.MinProperties, r.MaxProperties}} {
		if pair[0] >= 0 && pair[1] >= 0 && pair[0] > pair[1] {
			return p.errorf("", "minimum count %d is greater than maximum count %d: no value can satisfy both", pair[0], pair[1])
		}
	}
	return nil
}

func (p *parser) strings() error {
	r := p.r
	if v, ok := p.lookup("pattern"); ok {
		if err := p.fits("pattern", r.Class == ClassString, "strings"); err != nil {
			return err
		}
		if err := checkPattern(v); err != nil {
			return p.errorf("pattern", "malformed regular expression (patterns are RE2 syntax): %v", err)
		}
		r.Pattern, r.Set = v, true
	}
	if v, ok := p.lookup("format"); ok {
		switch {
		case r.Type == TypeTime && v == "date-time":
			// What the type already says: nothing to add.
		case r.Type == TypeTime:
			return p.errorf("format", "%q does not apply to time.Time, which is always a date-time string (consider removing the tag, or a string field with format:%q)", v, v)
		default:
			if err := p.fits("format", r.Class == ClassString, "strings"); err != nil {
				return err
			}
			if !formats.Known(v) {
				return p.errorf("format", "unknown format %q (consider one of %s, or a pattern)", v, strings.Join(formats.Names(), ", "))
			}
			r.Format, r.Set = v, true
		}
	}
	if _, ok := p.lookup("uniqueItems"); ok {
		if err := p.fits("uniqueItems", r.Class == ClassArray, "slices and arrays"); err != nil {
			return err
		}
		if err := p.boolTag("uniqueItems", &r.UniqueItems); err != nil {
			return err
		}
		r.Set = true
	}
	return nil
}

func (p *parser) values() error {
	r := p.r
	if v, ok := p.lookup("enum"); ok {
		if err := p.fits("enum", r.Class.Scalar(), "strings, booleans and numbers"); err != nil {
			return err
		}
		vals, err := p.enum(v)
		if err != nil {
			return p.errorf("enum", "%v", err)
		}
		r.Enum, r.Set = vals, true
	}
	if v, ok := p.lookup("const"); ok {
		if err := p.fits("const", r.Class.Scalar(), "strings, booleans and numbers"); err != nil {
			return err
		}
		c, err := scalarValue(r.Type, r.Class, v)
		if err != nil {
			return p.errorf("const", "%v", err)
		}
		r.Const, r.HasConst, r.Set = c, true, true
	}
	// Whether the enum members, the default and the examples meet the
	// field's constraints is checked by the decoder, with the code that
	// checks a call's values (internal/reflectx: compileConstraints,
	// compileDefault, checkExamples); here only that they parse as values
	// of the field's type.
	if r.Class.Scalar() && r.Enum == nil {
		if _, err := TypeEnum(r.Type); err != nil {
			return err
		}
	}
	if v, ok := p.lookup("default"); ok {
		d, text, err := tagValue(r.Type, r.Class, v)
		if err != nil {
			return p.errorf("default", "%v", err)
		}
		r.Default, r.DefaultJSON, r.HasDefault = d, text, true
	}
	if v, ok := p.lookup("example"); ok {
		e, text, err := tagValue(r.Type, r.Class, v)
		if err != nil {
			return p.errorf("example", "%v", err)
		}
		r.Examples, r.ExampleJSON, r.HasExample = append(r.Examples, e), append(r.ExampleJSON, text), true
	}
	if v, ok := p.lookup("examples"); ok {
		vals, texts, err := jsonArray(r.Type, r.Class, v)
		if err != nil {
			return p.errorf("examples", "%v (consider example:\"...\" for one value)", err)
		}
		for _, e := range vals {
			if r.Class.Scalar() {
				if err := fitsClass(r.Type, r.Class, e); err != nil {
					return p.errorf("examples", "%v", err)
				}
			}
		}
		r.Examples, r.ExampleJSON = append(r.Examples, vals...), append(r.ExampleJSON, texts...)
	}
	return nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// goodPatterns holds the pattern tags checkPattern accepted, so that a
// pattern repeated across a program's types is parsed once. Keys come from
// struct tags: the set is bounded by the program's types.
var goodPatterns sync.Map // string -> struct{}

// checkPattern reports whether regexp.Compile accepts expr, without
// compiling it: regexp.Compile fails only where syntax.Parse in Perl mode
// does (its compile step has no error path), with the same error.
func checkPattern(expr string) error {
	if _, ok := goodPatterns.Load(expr); ok {
		return nil
	}
	if _, err := syntax.Parse(expr, syntax.Perl); err != nil {
		return err
	}
	goodPatterns.Store(expr, struct{}{})
	return nil
}

// enum parses an enum tag: a JSON array, or a comma-separated list of
// values in the field's type (items are not trimmed).
func (p *parser) enum(v string) ([]any, error) {
	if strings.HasPrefix(v, "[") {
		vals, _, err := jsonArray(p.r.Type, p.r.Class, v)
		if err != nil {
			return nil, err
		}
		if len(vals) == 0 {
			return nil, fmt.Errorf("empty enum")
		}
		for _, x := range vals {
			if err := fitsClass(p.r.Type, p.r.Class, x); err != nil {
				return nil, err
			}
		}
		return vals, nil
	}
	var out []any
	for _, item := range strings.Split(v, ",") {
		val, err := scalarValue(p.r.Type, p.r.Class, item)
		if err != nil {
			return nil, err
		}
		out = append(out, val)
	}
	return out, nil
}

// fitsClass checks that the JSON value x has the JSON type of class c.
func fitsClass(t reflect.Type, c Class, x any) error {
	ok := false
	switch x.(type) {
	case string:
		ok = c == ClassString
	case bool:
		ok = c == ClassBool
	case json.Number:
		ok = c == ClassInteger || c == ClassNumber // ranges: numberValue
	}
	if !ok {
		return fmt.Errorf("%s is not a %s value (the values must have the field's type %s)", jsonText(x), c, t)
	}
	return nil
}

// ParseDecimal parses a JSON number exactly. Exponents are limited to 400
// so that a tag cannot make us build a huge number.
func ParseDecimal(v string) (*big.Rat, error) {
	exp, ok := scanNumber(v)
	if !ok {
		return nil, fmt.Errorf("not a JSON number")
	}
	if exp != "" {
		if e, err := strconv.Atoi(exp); err != nil || e > 400 {
			return nil, fmt.Errorf("exponent out of range")
		}
	}
	r, ok := new(big.Rat).SetString(v)
	if !ok {
		return nil, fmt.Errorf("not a JSON number")
	}
	return r, nil
}

// scanNumber reports whether v is a JSON number,
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, and returns the digits of
// its exponent ("" when it has none).
func scanNumber(v string) (exp string, ok bool) {
	i := 0
	if i < len(v) && v[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(v) && '0' <= v[i] && v[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(v) && v[i] == '0':
		i++
	case digits() == 0:
		return "", false
	}
	if i < len(v) && v[i] == '.' {
		i++
		if digits() == 0 {
			return "", false
		}
	}
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		i++
		if i < len(v) && (v[i] == '+' || v[i] == '-') {
			i++
		}
		start := i
		if digits() == 0 {
			return "", false
		}
		exp = v[start:i]
	}
	if i != len(v) {
		return "", false
	}
	return exp, true
}

// IntRange returns the bounds of integer kind k. The values are shared:
// callers must not modify them.
func IntRange(k reflect.Kind) (lo, hi *big.Int) {
	if int(k) < len(intRanges) && intRanges[k][1] != nil {
		return intRanges[k][0], intRanges[k][1]
	}
	return intRangeOf(k)
}

// intRanges holds IntRange's answers, computed once.
var intRanges = func() (t [reflect.Uintptr + 1][2]*big.Int) {
	for k := reflect.Int; k <= reflect.Uintptr; k++ {
		t[k][0], t[k][1] = intRangeOf(k)
	}
	return t
}()

func intRangeOf(k reflect.Kind) (lo, hi *big.Int) {
	bits := 64
	switch k {
	case reflect.Int8, reflect.Uint8:
		bits = 8
	case reflect.Int16, reflect.Uint16:
		bits = 16
	case reflect.Int32, reflect.Uint32:
		bits = 32
	case reflect.Int, reflect.Uint, reflect.Uintptr:
		bits = strconv.IntSize
	}
	switch k {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		hi = new(big.Int).Lsh(big.NewInt(1), uint(bits))
		return big.NewInt(0), hi.Sub(hi, big.NewInt(1))
	}
	hi = new(big.Int).Lsh(big.NewInt(1), uint(bits-1))
	lo = new(big.Int).Neg(hi)
	return lo, hi.Sub(hi, big.NewInt(1))
}

// numberValue checks that the JSON number v fits a value of type t and
// returns it as a json.Number (integers in canonical form).
func numberValue(t reflect.Type, c Class, v string) (json.Number, error) {
	r, err := ParseDecimal(v)
	if err != nil {
		return "", fmt.Errorf("malformed number %q", v)
	}
	if c == ClassNumber {
		if _, err := strconv.ParseFloat(v, t.Bits()); err != nil {
			return "", fmt.Errorf("%s is out of range for %s", v, t)
		}
		return json.Number(v), nil
	}
	if !r.IsInt() {
		return "", fmt.Errorf("%s is not an integer (the field is %s)", v, t)
	}
	lo, hi := IntRange(t.Kind())
	if n := r.Num(); n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
		return "", fmt.Errorf("%s is out of range for %s", v, t)
	}
	return json.Number(r.Num().String()), nil
}

// scalarValue parses a tag value written in the field's type: text for a
// string, true/false for a bool, a JSON number for a number.
func scalarValue(t reflect.Type, c Class, v string) (any, error) {
	switch c {
	case ClassString:
		return v, nil
	case ClassBool:
		switch v {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("malformed boolean %q (want true or false)", v)
	case ClassInteger, ClassNumber:
		return numberValue(t, c, v)
	}
	return nil, fmt.Errorf("no scalar value for %s", t)
}

// tagValue parses a default or example: a scalar written plainly in the
// field's type, or JSON for other types. It returns the value and its JSON
// text.
func tagValue(t reflect.Type, c Class, v string) (any, []byte, error) {
	if c.Scalar() {
		val, err := scalarValue(t, c, v)
		if err != nil {
			return nil, nil, err
		}
		text, _ := json.Marshal(val)
		return val, text, nil
	}
	val, err := JSONValue([]byte(v))
	if err != nil {
		return nil, nil, fmt.Errorf("malformed JSON %q: %v", v, err)
	}
	return val, bytes.TrimSpace([]byte(v)), nil
}

// jsonArray parses a JSON array tag; numbers for an integer field are
// checked against its type.
func jsonArray(t reflect.Type, c Class, v string) ([]any, [][]byte, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal([]byte(v), &raws); err != nil {
		return nil, nil, fmt.Errorf("malformed JSON array %q: %v", v, err)
	}
	out := make([]any, 0, len(raws))
	texts := make([][]byte, 0, len(raws))
	for _, raw := range raws {
		val, err := JSONValue(raw)
		if err != nil {
			return nil, nil, err
		}
		if n, ok := val.(json.Number); ok && (c == ClassInteger || c == ClassNumber) {
			if val, err = numberValue(t, c, string(n)); err != nil {
				return nil, nil, err
			}
		}
		out = append(out, val)
		texts = append(texts, raw)
	}
	return out, texts, nil
}

// JSONValue decodes one JSON value: string, bool, json.Number or nil for
// scalars, compact json.RawMessage for arrays and objects (so that key
// order is kept).
func JSONValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the JSON value")
	}
	switch v.(type) {
	case []any, map[string]any:
		var buf bytes.Buffer
		if err := json.Compact(&buf, data); err != nil {
			return nil, err
		}
		return json.RawMessage(buf.Bytes()), nil
	}
	return v, nil
}
