package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// ErrParse is wrapped by every error of [Parse].
var ErrParse = errors.New("invalid schema document")

// Parse parses a hand-written JSON Schema into a [Schema], keeping the order
// of "properties" and of unknown keywords (kept verbatim in Extra, in
// document order); "$defs" are sorted by name. The root must be a JSON
// object. A subschema may be a boolean schema, and "type" a string or an
// array of strings.
//
// Parse is lenient about keyword values: a known keyword whose value does not
// have the shape this package models (an "items" array, a fractional
// "minLength") is kept in Extra unchanged, so that nothing is lost; draft 4's
// boolean "exclusiveMinimum"/"exclusiveMaximum" is the exception, read as
// what it means: true beside "minimum": m is "exclusiveMinimum": m in
// 2020-12's form (no minimum), false is dropped (the default), and true
// without its bound, which has no meaning, too; but "items", "additionalProperties",
// "propertyNames", the members of "properties" and "$defs" and the items of
// "anyOf", "oneOf" and "allOf" must be schemas (an "items" array excepted).
// Keywords with a false boolean value ("uniqueItems": false) are dropped,
// being the default. The document is read in one pass, in time linear in
// its size. Invalid JSON, nesting deeper than [MaxParseDepth], a
// duplicate key, a non-object root or a subschema that is neither an object
// nor a boolean is an error wrapping [ErrParse].
//
// For any schema s written by [Schema.MarshalJSON], Parse gives back a tree
// equal to s, with one normalisation: an empty "properties" of an object
// schema and an empty "required" parse as nil (MarshalJSON writes the former
// as {} and omits the latter).
//
// Parse applies the default [ParseLimits]; see [ParseLimited].
func Parse(data []byte) (*Schema, error) { return ParseLimited(data, ParseLimits{}) }

// Default limits of [Parse]; see [ParseLimits].
const (
	DefaultMaxParseBytes = 1 << 20 // 1 MiB
	DefaultMaxParseNodes = 1 << 15 // 32,768 schemas
)

// ErrTooLarge is wrapped (with [ErrParse]) by the error of a document over
// a [ParseLimits] bound.
var ErrTooLarge = errors.New("schema document too large")

// ParseLimits bounds the documents [ParseLimited] accepts, and so the
// memory it takes. Each schema node of the result holds a [Schema] (over
// 500 bytes) whatever its size in the document, where "{}" is 2 bytes: a
// bound on the document's size alone would let 1 MiB of "{}," make a
// 180 MB tree. A zero field means its default; a negative one, no bound.
type ParseLimits struct {
	// MaxBytes bounds the document's length (DefaultMaxParseBytes).
	MaxBytes int
	// MaxNodes bounds the number of schemas in the document, boolean
	// schemas and the root included (DefaultMaxParseNodes).
	MaxNodes int
}

// resolve returns lim with its defaults filled in and -1 for no bound.
func (lim ParseLimits) resolve() ParseLimits {
	pick := func(v, def int) int {
		switch {
		case v == 0:
			return def
		case v < 0:
			return -1
		}
		return v
	}
	return ParseLimits{MaxBytes: pick(lim.MaxBytes, DefaultMaxParseBytes), MaxNodes: pick(lim.MaxNodes, DefaultMaxParseNodes)}
}

// ParseLimited is [Parse] within the limits lim: a longer document, or
// one holding more schemas, is an error wrapping [ErrParse] and
// [ErrTooLarge], found before the tree is built (the length) or as soon as
// the schema over the limit is met.
func ParseLimited(data []byte, lim ParseLimits) (*Schema, error) {
	lim = lim.resolve()
	if lim.MaxBytes >= 0 && len(data) > lim.MaxBytes {
		return nil, fmt.Errorf("schema: Parse: %w: %w: %d bytes, more than %d", ErrParse, ErrTooLarge, len(data), lim.MaxBytes)
	}
	data = bytes.TrimSpace(data)
	// The check (syntax, depth, duplicate keys) reads strings as
	// encoding/json does: invalid UTF-8 and lone surrogates are U+FFFD.
	c := jsonwire.Checker{LenientText: true}
	if e := c.Check(data, MaxParseDepth, nil); e != nil {
		if e.Path == "" && !e.Limit {
			return nil, fmt.Errorf("schema: Parse: %w: %s", ErrParse, e.Problem)
		}
		return nil, fmt.Errorf("schema: Parse: %w: at %q: %s", ErrParse, e.Path, e.Problem)
	}
	if data[0] != '{' {
		return nil, fmt.Errorf("schema: Parse: %w: the root must be a JSON object", ErrParse)
	}
	p := &parser{data: data, maxNodes: lim.MaxNodes}
	s, err := p.schema()
	if err != nil {
		if p.tooLarge {
			return nil, fmt.Errorf("schema: Parse: %w: %w: %v", ErrParse, ErrTooLarge, err)
		}
		return nil, fmt.Errorf("schema: Parse: %w: %v", ErrParse, err)
	}
	return s, nil
}

// MaxParseDepth is the deepest nesting of JSON objects and arrays that
// [Parse] accepts in a schema document, and so the deepest its recursion
// goes. Schemas from other servers (an MCP proxy's) are untrusted.
const MaxParseDepth = jsonwire.MaxDepth

// parser reads a schema document, checked JSON, in one pass: each
// subschema is parsed where it stands, and every other keyword value is
// skipped over once and handed to setKeyword, so that the work is linear
// in the document's size whatever its nesting.
//
// To take little more memory than the tree it returns, the parser cuts
// the tree's nodes, counts, booleans and one-name type lists from slabs
// (each value its own element: a caller's change to one touches no
// other), copies key strings into one byte arena, and gathers the
// members of "properties" and the items of "anyOf" on reusable stacks
// copied once to slices of their exact length.
type parser struct {
	data []byte
	i    int
	path []pathTok // the JSON Pointer of the current value, rendered on error

	maxNodes int  // bound on nodes; < 0: none
	nodes    int  // schemas made
	tooLarge bool // the error is maxNodes passed

	slab  []Schema
	ints  []int64
	bools []bool
	types []string
	text  []byte     // arena of key strings
	buf   []byte     // scratch for unquoting a string
	props []Property // stack of the "properties" being read
	subs  []*Schema  // stack of the "anyOf" (...) items being read
}

// slabSize is the length of the next slab of a kind for a parser that
// has made n nodes: growing with the document, up to 64.
func slabSize(n int) int { return min(max(n, 4), 64) }

// nodeSlab is the length of the next slab of nodes for a parser that has
// made n nodes: as many nodes as fit in a block of 2 KiB to 64 KiB, the
// block growing with the document (a Schema is 560 bytes, and a
// slab of a length not chosen so would be rounded up to a larger block).
func nodeSlab(n int) int {
	block := min(max(n*int(unsafe.Sizeof(Schema{})), 2<<10), 64<<10)
	return max(block/int(unsafe.Sizeof(Schema{})), 1)
}

// node returns a fresh node, or an error once there are more than
// p.maxNodes.
func (p *parser) node() (*Schema, error) {
	p.nodes++
	if p.maxNodes >= 0 && p.nodes > p.maxNodes {
		p.tooLarge = true
		return nil, p.errorf("more than %d schemas", p.maxNodes)
	}
	if len(p.slab) == 0 {
		p.slab = make([]Schema, nodeSlab(p.nodes))
	}
	s := &p.slab[0]
	p.slab = p.slab[1:]
	return s, nil
}

func (p *parser) newInt(v int64) *int64 {
	if len(p.ints) == 0 {
		p.ints = make([]int64, slabSize(p.nodes))
	}
	n := &p.ints[0]
	p.ints = p.ints[1:]
	*n = v
	return n
}

func (p *parser) boolSchema(v bool) (*Schema, error) {
	s, err := p.node()
	if err != nil {
		return nil, err
	}
	if len(p.bools) == 0 {
		p.bools = make([]bool, slabSize(p.nodes))
	}
	s.Bool = &p.bools[0]
	p.bools = p.bools[1:]
	*s.Bool = v
	return s, nil
}

// oneType returns the type list []string{name}, its capacity 1 so that
// an append by the caller copies it out of the slab.
func (p *parser) oneType(name string) []string {
	if len(p.types) == 0 {
		p.types = make([]string, slabSize(p.nodes))
	}
	t := p.types[0:1:1]
	p.types = p.types[1:]
	t[0] = name
	return t
}

// jsonTypes are the type names, shared rather than copied per schema.
var jsonTypes = []string{"object", "string", "integer", "number", "boolean", "array", "null"}

// makeString returns b as a string: a type name shared, other text copied
// into the parser's arena.
func (p *parser) makeString(b []byte) string {
	for _, t := range jsonTypes {
		if string(b) == t {
			return t
		}
	}
	if len(b) == 0 {
		return ""
	}
	if cap(p.text)-len(p.text) < len(b) {
		p.text = make([]byte, 0, max(len(b), min(4<<10, 16*p.nodes)))
	}
	at := len(p.text)
	p.text = append(p.text, b...)
	return unsafe.String(&p.text[at], len(b))
}

func (p *parser) ws() { p.i = jsonwire.SkipSpace(p.data, p.i) }

// pathTok is a token of a JSON Pointer: an array index when idx >= 0,
// else an object key (rendered only on error, so that no index is
// formatted on the way).
type pathTok struct {
	key string
	idx int
}

// pathString renders the path as a JSON Pointer.
func (p *parser) pathString() string {
	var b strings.Builder
	var buf []byte
	for _, t := range p.path {
		if t.idx >= 0 {
			buf = jsonwire.AppendIndex(buf, t.idx)
			continue
		}
		buf = jsonwire.AppendToken(buf, t.key)
	}
	b.Write(buf)
	return b.String()
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("at %q: "+format, append([]any{p.pathString()}, args...)...)
}

// skip moves past the value at p.i and returns its text.
func (p *parser) skip() []byte {
	start := p.i
	p.i = jsonwire.End(p.data, p.i)
	return p.data[start:p.i]
}

// key reads the object key at p.i and the colon after it.
func (p *parser) key() (string, error) {
	tok := p.skip()
	k := p.unquote(tok)
	p.ws()
	p.i++ // ':'
	p.ws()
	return k, nil
}

// unquote returns the text of the checked JSON string token tok: copied
// into the parser's arena, with each byte of invalid UTF-8 as U+FFFD, as
// encoding/json reads it and as MarshalJSON writes it.
func (p *parser) unquote(tok []byte) string {
	inner := tok[1 : len(tok)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return p.makeString(inner) // nothing to decode
	}
	p.buf = jsonwire.AppendUnquotedValid(p.buf[:0], tok)
	return p.makeString(p.buf)
}

// members calls f for each member of the object at p.i, with the path
// extended by its key, f reading the member's value (the check rejected
// a key given twice).
func (p *parser) members(f func(key string) error) error {
	p.i++ // '{'
	p.ws()
	for p.data[p.i] != '}' {
		k, err := p.key()
		if err != nil {
			return err
		}
		p.path = append(p.path, pathTok{key: k, idx: -1})
		if err := f(k); err != nil {
			return err
		}
		p.path = p.path[:len(p.path)-1]
		p.ws()
		if p.data[p.i] == ',' {
			p.i++
			p.ws()
		}
	}
	p.i++ // '}'
	return nil
}

// schema parses the schema at p.i.
func (p *parser) schema() (*Schema, error) {
	switch p.data[p.i] {
	case 't':
		p.i += len("true")
		return p.boolSchema(true)
	case 'f':
		p.i += len("false")
		return p.boolSchema(false)
	case '{':
	default:
		return nil, p.errorf("a schema must be an object or a boolean")
	}
	s, err := p.node()
	if err != nil {
		return nil, err
	}
	err = p.members(func(key string) error {
		ok, err := p.subschemas(s, key)
		if err != nil || ok {
			return err
		}
		raw := json.RawMessage(p.skip())
		if ok, err = p.setKeyword(s, key, raw); err != nil || ok {
			return err
		}
		s.Extra = append(s.Extra, Keyword{Name: key, Value: jsonwire.AppendCompact(make([]byte, 0, len(raw)), raw)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(s.Extra) > 0 {
		draft4Bounds(s)
	}
	if len(s.Properties) == 0 && s.HasType("object") {
		s.Properties = nil
	}
	if len(s.Required) == 0 {
		s.Required = nil
	}
	return s, nil
}

// draft4Bounds turns draft 4's boolean exclusive bounds, which setKeyword
// left in Extra, into the 2020-12 numeric form: "exclusiveMinimum": true
// beside "minimum": m becomes "exclusiveMinimum": m (and no minimum), the
// same for the maximum. A false one, draft 4's default, is dropped, and so
// is a true one without its bound, which draft 4 gives no meaning.
func draft4Bounds(s *Schema) {
	kept := s.Extra[:0]
	for _, k := range s.Extra {
		var bound, excl *json.Number
		switch k.Name {
		case "exclusiveMinimum":
			bound, excl = &s.Minimum, &s.ExclusiveMinimum
		case "exclusiveMaximum":
			bound, excl = &s.Maximum, &s.ExclusiveMaximum
		}
		v := string(k.Value)
		if bound == nil || v != "true" && v != "false" {
			kept = append(kept, k)
			continue
		}
		if v == "true" && *bound != "" {
			*excl, *bound = *bound, ""
		}
	}
	clear(s.Extra[len(kept):])
	s.Extra = kept
	if len(s.Extra) == 0 {
		s.Extra = nil
	}
}

// subschemas parses the value of key at p.i when it is one made of
// schemas ("items" not an array, "anyOf" an array, "properties" an
// object, ...), reporting whether it did; other values are left to
// setKeyword (and Extra).
func (p *parser) subschemas(s *Schema, key string) (bool, error) {
	c := p.data[p.i]
	one := func(dst **Schema) (bool, error) {
		v, err := p.schema()
		*dst = v
		return err == nil, err
	}
	list := func(dst *[]*Schema) (bool, error) {
		start := len(p.subs)
		p.i++ // '['
		p.ws()
		for n := 0; p.data[p.i] != ']'; n++ {
			p.path = append(p.path, pathTok{idx: n})
			v, err := p.schema()
			if err != nil {
				return false, err
			}
			p.path = p.path[:len(p.path)-1]
			p.subs = append(p.subs, v)
			p.ws()
			if p.data[p.i] == ',' {
				p.i++
				p.ws()
			}
		}
		p.i++ // ']'
		*dst = append(make([]*Schema, 0, len(p.subs)-start), p.subs[start:]...)
		clear(p.subs[start:])
		p.subs = p.subs[:start]
		return true, nil
	}
	switch {
	case key == "items" && c != '[': // an array: draft-04 tuple "items", kept in Extra
		return one(&s.Items)
	case key == "additionalProperties":
		return one(&s.AdditionalProperties)
	case key == "propertyNames":
		return one(&s.PropertyNames)
	case key == "anyOf" && c == '[':
		return list(&s.AnyOf)
	case key == "oneOf" && c == '[':
		return list(&s.OneOf)
	case key == "allOf" && c == '[':
		return list(&s.AllOf)
	case key == "properties" && c == '{':
		start := len(p.props)
		err := p.members(func(name string) error {
			v, err := p.schema()
			p.props = append(p.props, Property{name, v})
			return err
		})
		if err != nil {
			return false, err
		}
		s.Properties = append(make([]Property, 0, len(p.props)-start), p.props[start:]...)
		clear(p.props[start:])
		p.props = p.props[:start]
		return true, nil
	case key == "$defs" && c == '{':
		var defs []Def
		err := p.members(func(name string) error {
			v, err := p.schema()
			defs = append(defs, Def{name, v})
			return err
		})
		if err != nil {
			return false, err
		}
		if len(defs) > 0 {
			slices.SortFunc(defs, func(a, b Def) int { return strings.Compare(a.Name, b.Name) })
			s.Defs = defs
		}
		return true, nil
	}
	return false, nil
}

// setKeyword stores one keyword whose value is not made of schemas in s.
// It returns false when the keyword is unknown or its value has a shape s
// does not model.
func (p *parser) setKeyword(s *Schema, key string, raw json.RawMessage) (bool, error) {
	str := func(dst *string) bool {
		if len(raw) < 2 || raw[0] != '"' {
			return string(raw) == "null" // as json.Unmarshal: null leaves dst as is
		}
		*dst = p.unquote(raw)
		return true
	}
	count := func(dst **int64) bool {
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || n < 0 {
			return false
		}
		*dst = p.newInt(n)
		return true
	}
	number := func(dst *json.Number) bool {
		if len(raw) == 0 || !(raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
			return false
		}
		*dst = json.Number(raw)
		return true
	}
	flag := func(dst *bool) bool { return json.Unmarshal(raw, dst) == nil }
	values := func(dst *[]any) (bool, error) {
		var raws []json.RawMessage
		if json.Unmarshal(raw, &raws) != nil {
			return false, nil
		}
		out := make([]any, len(raws))
		for i, r := range raws {
			v, err := jsonValue(r)
			if err != nil {
				return false, err
			}
			out[i] = v
		}
		*dst = out
		return true, nil
	}

	switch key {
	case "$ref":
		return str(&s.Ref), nil
	case "type":
		var one string
		if str(&one) {
			s.Types = p.oneType(one)
			return true, nil
		}
		var types []string
		if json.Unmarshal(raw, &types) != nil {
			return false, nil
		}
		s.Types = types
		return true, nil
	case "title":
		return str(&s.Title), nil
	case "description":
		return str(&s.Description), nil
	case "format":
		return str(&s.Format), nil
	case "contentEncoding":
		return str(&s.ContentEncoding), nil
	case "pattern":
		return str(&s.Pattern), nil
	case "enum":
		return values(&s.Enum)
	case "examples":
		return values(&s.Examples)
	case "const", "default":
		v, err := jsonValue(raw)
		if err != nil {
			return false, err
		}
		if key == "const" {
			s.Const, s.HasConst = v, true
		} else {
			s.Default, s.HasDefault = v, true
		}
		return true, nil
	case "minLength":
		return count(&s.MinLength), nil
	case "maxLength":
		return count(&s.MaxLength), nil
	case "minItems":
		return count(&s.MinItems), nil
	case "maxItems":
		return count(&s.MaxItems), nil
	case "minProperties":
		return count(&s.MinProperties), nil
	case "maxProperties":
		return count(&s.MaxProperties), nil
	case "minimum":
		return number(&s.Minimum), nil
	case "exclusiveMinimum":
		return number(&s.ExclusiveMinimum), nil
	case "maximum":
		return number(&s.Maximum), nil
	case "exclusiveMaximum":
		return number(&s.ExclusiveMaximum), nil
	case "multipleOf":
		return number(&s.MultipleOf), nil
	case "uniqueItems":
		return flag(&s.UniqueItems), nil
	case "deprecated":
		return flag(&s.Deprecated), nil
	case "readOnly":
		return flag(&s.ReadOnly), nil
	case "writeOnly":
		return flag(&s.WriteOnly), nil
	case "required":
		var req []string
		if json.Unmarshal(raw, &req) != nil || req == nil {
			return false, nil
		}
		s.Required = req
		return true, nil
	}
	return false, nil
}
