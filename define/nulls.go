package define

import (
	"bytes"
	"strings"
	"sync"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
	"github.com/toolnexus/toolnexus/schema"
)

// Nulls of a strict rendering. OpenAI's strict mode makes every property
// of every object required, and the optional ones nullable: the model
// cannot leave such a property out, so it sends null for it. A null there
// means "left out"; the tool's schema says nothing of it (the property is
// optional, and null is no value of its type), so the call's verdict
// would be an argument error. NullsAsAbsent and NullsAsAbsentJSON remove
// those members before the call is decoded, so that the default applies,
// or the zero value: the schema, the decoder and every other verdict stay
// as they are.

// NullsAsAbsentJSON returns args without the members whose value is null
// where the tool's input schema makes the member an optional property
// that does not accept null: the properties a strict rendering made
// nullable (see adapters.Strict), at every level of the arguments. Read
// so, a null from a model given that rendering means what it meant: the
// property was left out, and its default, or its zero value, applies.
// Members of a property that accepts null (a pointer field), of a
// required one, or of no property the schema names keep their null. args
// that hold no such member, or that are not one JSON object within the
// decoder's depth, are returned as they are; otherwise the result is new
// compact JSON. Time and memory are linear in len(args).
//
// toolnexus.Toolkit.Run reads a call's arguments so when the call came
// from a strict rendering of its tool (adapters.Call.Rendering, or a tool
// pinned strict with [WithStrict]).
func (t Tool) NullsAsAbsentJSON(args []byte) []byte {
	if t.s == nil || !bytes.Contains(args, []byte("null")) {
		return args
	}
	return nullsAsAbsentJSON(t.s.inputSchema(), args, &t.s.nullRules)
}

// nullsAsAbsentJSON is [Tool.NullsAsAbsentJSON] under the schema root: the
// one reading of a strict rendering's nulls, for a tool's arguments and
// for any other JSON text a strict rendering of root constrained.
// cache, when not nil, keeps the rules of root's object schemas for the
// next call.
func nullsAsAbsentJSON(root *schema.Schema, args []byte, cache *sync.Map) []byte {
	if !bytes.Contains(args, []byte("null")) {
		return args
	}
	trimmed := bytes.TrimSpace(args)
	if root == nil || len(trimmed) == 0 || trimmed[0] != '{' {
		return args
	}
	c := checkers.Get().(*jsonwire.Checker)
	bad := c.Check(trimmed, jsonwire.MaxDepth, nil) != nil
	checkers.Put(c)
	if bad {
		return args
	}
	n := nullStrip{root: root, data: trimmed, out: make([]byte, 0, len(trimmed)), cache: cache}
	n.value(root, 0)
	if !n.changed {
		return args
	}
	return n.out
}

// NullsAsAbsent is [Tool.NullsAsAbsentJSON] for arguments that arrived
// parsed into a map: it returns args, or, when a member is removed, a
// copy of the maps on the way to it (args itself is never modified).
// Maps nested deeper than the decoder's depth are left as they are.
func (t Tool) NullsAsAbsent(args map[string]any) map[string]any {
	if t.s == nil || args == nil {
		return args
	}
	root := t.s.inputSchema()
	if root == nil {
		return args
	}
	n := nullStrip{root: root, cache: &t.s.nullRules}
	if m, changed := n.mapValue(root, args, 0); changed {
		return m.(map[string]any)
	}
	return args
}

// checkers keeps the room of the checks of arguments for the next.
var checkers = sync.Pool{New: func() any { return new(jsonwire.Checker) }}

// nullStrip removes the nulls of optional properties that do not accept
// null from checked JSON text (data, copied compact to out) or from a map.
type nullStrip struct {
	root    *schema.Schema
	data    []byte
	i       int
	out     []byte
	changed bool
	rules   map[*schema.Schema]*objectRules // each object schema's rules, gathered once
	cache   *sync.Map                       // the tool's rules, kept across calls; nil for none
}

// rulesOf returns the rules of the object schema s, gathered once per
// schema: an array of many objects costs one gathering.
func (n *nullStrip) rulesOf(s *schema.Schema) *objectRules {
	if n.cache != nil {
		if r, ok := n.cache.Load(s); ok {
			return r.(*objectRules)
		}
		r := new(objectRules)
		n.objectOf(s, r, 0)
		r.settle(n)
		got, _ := n.cache.LoadOrStore(s, r)
		return got.(*objectRules)
	}
	if r, ok := n.rules[s]; ok {
		return r
	}
	r := new(objectRules)
	n.objectOf(s, r, 0)
	r.settle(n)
	if n.rules == nil {
		n.rules = map[*schema.Schema]*objectRules{}
	}
	n.rules[s] = r
	return r
}

// maxRefs bounds how many $refs are followed in a row: a cycle of
// references is no object.
const maxRefs = 64

// resolve follows s's $ref into the root's $defs (the references the
// schema parser accepts point there or at the root itself).
func (n *nullStrip) resolve(s *schema.Schema) *schema.Schema {
	for k := 0; s != nil && s.Ref != "" && k < maxRefs; k++ {
		ref := s.Ref
		switch {
		case ref == "#":
			s = n.root
		case strings.HasPrefix(ref, "#/$defs/"):
			name := unescapePointer(ref[len("#/$defs/"):])
			var next *schema.Schema
			for _, d := range n.root.Defs {
				if d.Name == name {
					next = d.Schema
					break
				}
			}
			s = next
		default:
			return nil // another document: no context
		}
	}
	if s != nil && s.Ref != "" {
		return nil
	}
	return s
}

// unescapePointer undoes a JSON Pointer token's escapes and its URI
// percent-encoding of a space ("a%20b", as schema references write them).
func unescapePointer(tok string) string {
	tok = strings.ReplaceAll(tok, "%20", " ")
	tok = strings.ReplaceAll(tok, "~1", "/")
	return strings.ReplaceAll(tok, "~0", "~")
}

// acceptsNull reports whether null is a value of s.
func (n *nullStrip) acceptsNull(s *schema.Schema, depth int) bool {
	if depth > maxRefs {
		return true
	}
	if s == nil {
		return true
	}
	if s.Bool != nil {
		return *s.Bool
	}
	if s.Ref != "" && !n.acceptsNull(n.resolve(s), depth+1) {
		return false
	}
	if len(s.Types) > 0 && !s.HasType("null") {
		return false
	}
	if s.HasConst && s.Const != nil {
		return false
	}
	if len(s.Enum) > 0 {
		has := false
		for _, e := range s.Enum {
			has = has || e == nil
		}
		if !has {
			return false
		}
	}
	for _, branches := range [2][]*schema.Schema{s.AnyOf, s.OneOf} {
		if len(branches) == 0 {
			continue
		}
		some := false
		for _, b := range branches {
			some = some || n.acceptsNull(b, depth+1)
		}
		if !some {
			return false
		}
	}
	for _, b := range s.AllOf {
		if !n.acceptsNull(b, depth+1) {
			return false
		}
	}
	return true
}

// objectRules is what an object schema says of its members: the schema
// of each property, which are required, and the schema of the others.
type objectRules struct {
	props    map[string]*schema.Schema
	required map[string]bool
	absent   map[string]bool // the properties whose null means "left out"
	others   *schema.Schema
	ok       bool // the schema describes this object
}

// settle finds, once, the properties whose null means "left out": the
// optional ones that take no null.
func (r *objectRules) settle(n *nullStrip) {
	for name, ps := range r.props {
		if !r.required[name] && !n.acceptsNull(ps, 0) {
			if r.absent == nil {
				r.absent = map[string]bool{}
			}
			r.absent[name] = true
		}
	}
}

// objectOf gathers the rules of the object schema s: its own, those of its
// allOf members (a property is required when one of them requires it), or
// those of the one branch of its anyOf or oneOf that describes objects.
// ok is false when s says nothing of an object's members, or when which
// branch applies is not plain.
func (n *nullStrip) objectOf(s *schema.Schema, r *objectRules, depth int) {
	s = n.resolve(s)
	if s == nil || s.Bool != nil || depth > maxRefs {
		return
	}
	if len(s.Properties) > 0 || s.AdditionalProperties != nil {
		r.ok = true
		if r.props == nil {
			r.props, r.required = map[string]*schema.Schema{}, map[string]bool{}
		}
		for _, p := range s.Properties {
			if _, seen := r.props[p.Name]; !seen {
				r.props[p.Name] = p.Schema
			}
		}
		for _, name := range s.Required {
			r.required[name] = true
		}
		if r.others == nil {
			r.others = s.AdditionalProperties
		}
	}
	for _, b := range s.AllOf {
		n.objectOf(b, r, depth+1)
	}
	for _, branches := range [2][]*schema.Schema{s.AnyOf, s.OneOf} {
		var one *schema.Schema
		count := 0
		for _, b := range branches {
			if rb := n.resolve(b); rb != nil && rb.Bool == nil && (len(rb.Properties) > 0 || rb.HasType("object")) {
				one = rb
				count++
			}
		}
		if count == 1 {
			n.objectOf(one, r, depth+1)
		} else if count > 1 {
			r.ok = false // which branch applies is not plain: no member is removed
			return
		}
	}
}

// member returns the schema of the member name and whether a null for it
// means it was left out.
func (n *nullStrip) member(r *objectRules, name string) (*schema.Schema, bool) {
	if !r.ok {
		return nil, false
	}
	ps, isProp := r.props[name]
	if !isProp {
		return r.others, false
	}
	return ps, r.absent[name]
}

// memberBytes is member for a name without escapes, not copied.
func (n *nullStrip) memberBytes(r *objectRules, name []byte) (*schema.Schema, bool) {
	if !r.ok {
		return nil, false
	}
	ps, isProp := r.props[string(name)]
	if !isProp {
		return r.others, false
	}
	return ps, r.absent[string(name)]
}

// itemsOf returns the schema of an array's items under s.
func (n *nullStrip) itemsOf(s *schema.Schema) *schema.Schema {
	if s = n.resolve(s); s == nil {
		return nil
	}
	if s.Items != nil {
		return s.Items
	}
	for _, branches := range [2][]*schema.Schema{s.AnyOf, s.OneOf} {
		var one *schema.Schema
		count := 0
		for _, b := range branches {
			if rb := n.resolve(b); rb != nil && rb.Items != nil {
				one = rb.Items
				count++
			}
		}
		if count == 1 {
			return one
		}
	}
	return nil
}

// value copies the value at n.i, compact, under the schema s.
func (n *nullStrip) value(s *schema.Schema, depth int) {
	n.ws()
	switch n.data[n.i] {
	case '{':
		n.object(s, depth)
	case '[':
		n.array(s, depth)
	default:
		start := n.i
		n.i = jsonwire.End(n.data, n.i)
		n.out = append(n.out, n.data[start:n.i]...)
	}
}

func (n *nullStrip) ws() { n.i = jsonwire.SkipSpace(n.data, n.i) }

func (n *nullStrip) object(s *schema.Schema, depth int) {
	r := n.rulesOf(s)
	n.out = append(n.out, '{')
	n.i++
	first := true
	for {
		n.ws()
		if n.data[n.i] == '}' {
			n.i++
			break
		}
		if n.data[n.i] == ',' {
			n.i++
			n.ws()
		}
		keyStart := n.i
		n.i = jsonwire.End(n.data, n.i)
		key := n.data[keyStart:n.i]
		n.ws()
		n.i++ // ':'
		n.ws()
		var child *schema.Schema
		var absent bool
		if bytes.IndexByte(key, '\\') >= 0 {
			child, absent = n.member(r, string(jsonwire.AppendUnquoted(nil, key)))
		} else {
			child, absent = n.memberBytes(r, key[1:len(key)-1])
		}
		if absent && n.data[n.i] == 'n' {
			n.i += len("null")
			n.changed = true
			continue
		}
		if !first {
			n.out = append(n.out, ',')
		}
		first = false
		n.out = append(append(n.out, key...), ':')
		n.value(child, depth+1)
	}
	n.out = append(n.out, '}')
}

func (n *nullStrip) array(s *schema.Schema, depth int) {
	items := n.itemsOf(s)
	n.out = append(n.out, '[')
	n.i++
	first := true
	for {
		n.ws()
		if n.data[n.i] == ']' {
			n.i++
			break
		}
		if n.data[n.i] == ',' {
			n.i++
			n.ws()
		}
		if !first {
			n.out = append(n.out, ',')
		}
		first = false
		n.value(items, depth+1)
	}
	n.out = append(n.out, ']')
}

// mapValue returns v under the schema s with the members removed, and
// whether any was: a map or slice on the way to a removed member is
// copied, v itself is never modified.
func (n *nullStrip) mapValue(s *schema.Schema, v any, depth int) (any, bool) {
	if depth >= jsonwire.MaxDepth {
		return v, false
	}
	switch x := v.(type) {
	case map[string]any:
		r := n.rulesOf(s)
		var out map[string]any
		for k, e := range x {
			child, absent := n.member(r, k)
			if absent && e == nil {
				if out == nil {
					out = copyMap(x)
				}
				delete(out, k)
				continue
			}
			if e2, changed := n.mapValue(child, e, depth+1); changed {
				if out == nil {
					out = copyMap(x)
				}
				out[k] = e2
			}
		}
		if out != nil {
			return out, true
		}
	case []any:
		items := n.itemsOf(s)
		var out []any
		for i, e := range x {
			if e2, changed := n.mapValue(items, e, depth+1); changed {
				if out == nil {
					out = append([]any(nil), x...)
				}
				out[i] = e2
			}
		}
		if out != nil {
			return out, true
		}
	}
	return v, false
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
