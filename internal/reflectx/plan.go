package reflectx

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/fields"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// Plan is the immutable decode plan of one Go type: its fields in Go order
// with their JSON names, the exact-name lookup, the required set, the
// compiled constraints and a decoder per field. Get one from [PlanFor];
// a Plan is safe for concurrent use and must not be modified.
type Plan struct {
	t    reflect.Type
	root *node
	// arenaHint is how many bytes of strings the last JSON decode copied
	// (at most arenaChunk): the size of the next decode's first string
	// arena. Only a sizing hint, the one field that changes after PlanFor.
	arenaHint atomic.Int32
	// slotHint is how many string slots the last JSON decode used (at
	// most maxFrameSlots), a sizing hint as arenaHint is.
	slotHint atomic.Int32
	// mapHint and mapSlotHint are arenaHint and slotHint of map input.
	mapHint, mapSlotHint atomic.Int32
	frames               frames // frame types of the decodes, by size
	// userMethods caches UserMethods: 0 not known yet, 1 no, 2 yes.
	userMethods atomic.Int32
}

// Type returns the Go type the plan decodes into.
func (p *Plan) Type() reflect.Type { return p.t }

// PlanFor builds the plan for t. It does not cache: the one per-type
// cache of the module (internal/typeinfo) keeps a plan per tool input
// type.
//
// t must be a struct, a map with string (or integer) keys, or the empty
// interface. Unsupported field types and malformed or misplaced tags are
// reported here, naming the Go type, the field path and the problem.
func PlanFor(t reflect.Type) (*Plan, error) {
	if t == nil {
		return nil, fields.Errorf("", "", fields.ErrNotObject, "nil type (consider a struct type)")
	}
	return buildPlan(t)
}

func buildPlan(t reflect.Type) (*Plan, error) {
	if k, err := fields.KindOf(t); err == nil && k != fields.Struct && k != fields.Map && k != fields.Any {
		return nil, fields.Under(fields.Errorf("", "", fields.ErrNotObject,
			"unsupported arguments type %s: arguments are a JSON object (consider a struct)", t), "", t)
	}
	b := &builder{nodes: map[reflect.Type]*node{}, structs: map[reflect.Type]*structPlan{}}
	root, err := b.node(t, nil, "")
	if err != nil {
		return nil, fields.Under(err, "", t)
	}
	if root.kind != kStruct && root.kind != kMap && root.kind != kAny {
		return nil, fields.Under(fields.Errorf("", "", fields.ErrNotObject,
			"unsupported arguments type %s: arguments are a JSON object decoded field by field (consider a struct without an UnmarshalJSON method)", t), "", t)
	}
	for _, check := range b.pending {
		if err := check(); err != nil {
			return nil, fields.Under(err, "", t)
		}
	}
	return &Plan{t: t, root: root}, nil
}

// kind is what a node decodes.
type kind uint8

const (
	kBool kind = iota
	kInt
	kUint
	kFloat
	kString
	kBytes // []byte from base64
	kTime  // time.Time from RFC 3339
	kText  // encoding.TextUnmarshaler, from a JSON string
	kJSONU // json.Unmarshaler, from any JSON value
	kRaw   // json.RawMessage
	kNum   // json.Number, from a JSON number, its text kept
	kAny   // interface{}
	kStruct
	kSlice
	kArray
	kMap
	kPtr
)

// node decodes one Go type, with the constraints of the field it belongs to.
// Nodes form a graph that may be cyclic through structPlan (recursive types).
type node struct {
	kind      kind
	t         reflect.Type
	bits      int    // kInt, kUint, kFloat: size in bits
	want      string // the JSON type wanted, for type errors
	rangeWant string // kInt, kUint, kFloat: the range, for out-of-range numbers
	nullable  bool   // accepts JSON null
	elem      *node  // kPtr, kSlice, kArray: the element; kMap: the value
	st        *structPlan
	length    int          // kArray
	keyKind   reflect.Kind // kMap
	c         *constraints // nil when the field has none
	arrays    *arrayTypes  // kSlice: backing array types by capacity
	size      uintptr      // t.Size(), without a call through the interface
	align     uintptr      // t.Align()
}

// arrayTypes caches reflect.ArrayOf(1<<i, elem) so that growing a slice
// allocates exactly one backing array, with no reflect lookup.
type arrayTypes struct {
	elem    reflect.Type
	strings bool                             // elem is of string kind and decoded as a plain string
	by      [64]atomic.Pointer[reflect.Type] // 1<<i elements
	exact   [33]atomic.Pointer[reflect.Type] // i elements
}

// newExact allocates a zeroed array of exactly n elements (n > 0), as a
// slice from map input knows its length, and returns it with its capacity.
// Beyond 32 elements it rounds up to a power of two, so that the number of
// array types made (and kept forever by reflect) stays small.
func (a *arrayTypes) newExact(n int) (unsafe.Pointer, int) {
	if a.strings {
		// The commonest element type, without reflect: string kinds share
		// the memory layout of string.
		return unsafe.Pointer(unsafe.SliceData(make([]string, n))), n
	}
	if n >= len(a.exact) {
		return a.newArray(n)
	}
	tp := a.exact[n].Load()
	if tp == nil {
		t := reflect.ArrayOf(n, a.elem)
		tp = &t
		a.exact[n].Store(tp)
	}
	return reflect.New(*tp).UnsafePointer(), n
}

// newArray allocates a zeroed array of at least n elements (the next power
// of two) and returns it with its capacity.
func (a *arrayTypes) newArray(n int) (unsafe.Pointer, int) {
	t := a.typeOf(n)
	if a.strings {
		return unsafe.Pointer(unsafe.SliceData(make([]string, t.Len()))), t.Len()
	}
	return reflect.New(t).UnsafePointer(), t.Len()
}

// typeOf returns the array type of the next power of two >= n elements
// (exactly n beyond 1<<30).
func (a *arrayTypes) typeOf(n int) reflect.Type {
	i := 0
	for 1<<i < n {
		i++
	}
	if i > 30 {
		return reflect.ArrayOf(n, a.elem)
	}
	tp := a.by[i].Load()
	if tp == nil {
		t := reflect.ArrayOf(1<<i, a.elem)
		tp = &t
		a.by[i].Store(tp)
	}
	return *tp
}

// structPlan is the plan of one struct type.
type structPlan struct {
	t           reflect.Type
	fields      []field // Go order, embedded fields at the embedding point
	byName      map[string]int
	table       []int32  // field index+1 by nameHash, open-addressed, 0 empty; nil: use byName
	required    []uint64 // bitset of required fields
	hasDefaults bool
	allowedWant string // `no such property (allowed: a, b)`
}

// nameHash hashes an object key for structPlan.table from its length and
// three of its bytes: cheap, and enough to spread the names of one struct.
func nameHash(k string) uint32 {
	n := len(k)
	if n == 0 {
		return 0
	}
	return (uint32(n)*0x9E3779B1 ^ uint32(k[0])*0x85EBCA6B ^ uint32(k[n>>1])*0x27D4EB2F ^ uint32(k[n-1])*0xC2B2AE35) >> 7
}

// maxProbe bounds the probes of a lookup in structPlan.table; a struct whose
// names collide more (names alike in length and those bytes) uses byName.
const maxProbe = 8

// buildTable fills sp.table from sp.fields: a power of two of at least
// twice the number of fields, so that probes end at an empty slot soon.
func (sp *structPlan) buildTable() {
	size := 4
	for size < 2*len(sp.fields) {
		size <<= 1
	}
	t := make([]int32, size)
	mask := uint32(size - 1)
	for i := range sp.fields {
		h, probes := nameHash(sp.fields[i].name)&mask, 1
		for t[h] != 0 {
			h = (h + 1) & mask
			if probes++; probes > maxProbe {
				return // sp.table stays nil
			}
		}
		t[h] = int32(i + 1)
	}
	// A miss ends at an empty slot: bound those probes too.
	for h := range t {
		run := 0
		for t[(uint32(h)+uint32(run))&mask] != 0 {
			if run++; run >= maxProbe {
				return
			}
		}
	}
	sp.table = t
}

// verbatimName reports whether name is spelled in JSON text as is, with
// no escapes: printable ASCII other than '"' and '\\'.
func verbatimName(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// lookup returns the index of the field named exactly k. k is not retained.
func (sp *structPlan) lookup(k string) (int, bool) {
	t := sp.table
	if t == nil {
		idx, ok := sp.byName[k]
		return idx, ok
	}
	mask := uint32(len(t) - 1)
	for h := nameHash(k) & mask; ; h = (h + 1) & mask {
		e := t[h]
		if e == 0 {
			return 0, false
		}
		if sp.fields[e-1].name == k {
			return int(e - 1), true
		}
	}
}

// field is one JSON property of a struct.
type field struct {
	name     string         // JSON name
	ref      int32          // the name escaped for a JSON Pointer, numbered by nameRef
	offset   uintptr        // from the last embedded pointer (or the struct)
	embeds   []fields.Embed // embedded pointers on the way, usually none
	node     *node
	required bool
	verbatim bool // name is printable ASCII without '"' or '\\': JSON text spells it as is
	// keyLen is the length of the key and its ':' as compact JSON text
	// ("name":), what a member of map input is charged before its value.
	keyLen int32
	// The key and its ':' as JSON text spells them without whitespace,
	// "name":, for names whose whole key fits in 16 bytes (klen > 0): the
	// bytes as two little-endian words (kw) and the masks of their used
	// bytes (km), so that one key costs two loads and compares.
	kw, km [2]uint64
	klen   uint8
	def    *defaultValue
}

// keyWords sets f.kw, f.km and f.klen from f.name.
func (f *field) keyWords() {
	if f.verbatim {
		f.kw, f.km, f.klen = keyWords(f.name)
	}
}

// keyWords returns the words and masks of the key "name": as JSON text
// spells it without whitespace (name printable ASCII without '"' or
// '\\'), when it fits in 16 bytes (klen > 0).
func keyWords(name string) (kw, km [2]uint64, klen uint8) {
	key := `"` + name + `":`
	if len(key) > 16 {
		return kw, km, 0
	}
	var buf [16]byte
	copy(buf[:], key)
	for i := range len(key) {
		km[i/8] |= 0xff << (8 * (i % 8))
	}
	kw[0] = binary.LittleEndian.Uint64(buf[:8])
	kw[1] = binary.LittleEndian.Uint64(buf[8:])
	return kw, km, uint8(len(key))
}

// ptr returns the address of the field in the struct at base, allocating
// embedded pointers on the way.
func (f *field) ptr(base unsafe.Pointer) unsafe.Pointer {
	if len(f.embeds) == 0 {
		return unsafe.Add(base, f.offset) // the common case, inlined
	}
	return f.ptrEmbedded(base)
}

func (f *field) ptrEmbedded(base unsafe.Pointer) unsafe.Pointer {
	for _, s := range f.embeds {
		pp := (*unsafe.Pointer)(unsafe.Add(base, s.Offset))
		if *pp == nil {
			*pp = reflect.New(s.Elem).UnsafePointer()
		}
		base = *pp
	}
	return unsafe.Add(base, f.offset)
}

// defaultValue is a field's default: JSON text decoded on use, or for scalar
// kinds a ready value copied in.
type defaultValue struct {
	json   []byte
	scalar unsafe.Pointer // points to a value of the node's type; nil if not scalar
}

var (
	timeType   = fields.TypeTime
	numberType = reflect.TypeFor[json.Number]()
)

// builder builds the nodes of one plan. structs holds the struct plans of
// this build: a struct plan is registered before its fields are built, so a
// recursive type refers to it while it is still empty (the placeholder), and
// it is complete before the plan is published to the cache, so nobody decodes
// through an unfinished plan.
type builder struct {
	nodes   map[reflect.Type]*node // bare nodes, by type
	structs map[reflect.Type]*structPlan
	pending []func() error // default tags, checked after the build
}

// node builds the node of type t for a field with the given rules (nil for
// none) at Go path path.
func (b *builder) node(t reflect.Type, r *fields.Rules, path string) (*node, error) {
	n, err := b.bare(t, path)
	if err != nil || r == nil {
		return n, err
	}
	n, err = withConstraints(n, r)
	if err != nil {
		return nil, fields.Under(err, path, nil)
	}
	return n, nil
}

// withConstraints returns n with the field's constraints attached to the
// innermost non-pointer node (constraints describe the pointee).
func withConstraints(n *node, r *fields.Rules) (*node, error) {
	if n.kind == kPtr {
		inner, err := withConstraints(n.elem, r)
		if err != nil || inner == n.elem {
			return n, err
		}
		cp := *n
		cp.elem = inner
		return &cp, nil
	}
	c, err := compileConstraints(n, r)
	if err != nil {
		return n, err
	}
	elem := n.elem
	if r.Elem != nil && (n.kind == kSlice || n.kind == kArray || n.kind == kMap) {
		// The items.* or values.* tags: every element is checked as a
		// field with those tags would be.
		if elem, err = withConstraints(n.elem, r.Elem); err != nil {
			return n, r.ElemError(err)
		}
	}
	if c == nil && elem == n.elem {
		return n, nil
	}
	cp := *n
	if c != nil {
		cp.c = c
	}
	cp.elem = elem
	return &cp, nil
}

// bare builds the node of type t without constraints. Nodes are shared
// within a build and registered before their elements are built, so that
// recursive non-struct types (type M map[string]M) end in a cycle of nodes
// rather than in endless recursion.
func (b *builder) bare(t reflect.Type, path string) (*node, error) {
	if n, ok := b.nodes[t]; ok {
		return n, nil
	}
	n := &node{t: t, size: t.Size(), align: uintptr(t.Align())}
	b.nodes[t] = n
	k, err := fields.KindOf(t)
	if err == nil {
		err = fields.CheckHooks(t)
	}
	var tr *fields.Rules
	if err == nil {
		tr, err = fields.TypeRules(t)
	}
	if err != nil {
		return nil, fields.Under(err, path, nil)
	}
	if fields.UnmarshalsJSON(t) {
		// (The type's own UnmarshalJSON decides; internal/fields lets a type
		// of this kind declare only annotations.)
		n.kind, n.want, n.nullable = kJSONU, "valid "+t.String(), true
		return n, nil
	}
	switch k {
	case fields.Raw:
		n.kind, n.want, n.nullable = kRaw, "any JSON value", true
		return n, nil
	case fields.Time:
		n.kind, n.want = kTime, "date-time string (RFC 3339)"
		return n, nil
	case fields.JSONNumber:
		n.kind, n.want = kNum, "number"
		return n, nil
	case fields.Text:
		n.kind, n.want = kText, "string"
	case fields.Bool:
		n.kind, n.want = kBool, "boolean"
	case fields.Int:
		n.kind, n.want, n.bits = kInt, "integer", t.Bits()
		lo, hi := -(int64(1) << (n.bits - 1)), int64(1)<<(n.bits-1)-1
		n.rangeWant = fmt.Sprintf("integer from %d to %d", lo, hi)
	case fields.Uint:
		n.kind, n.want, n.bits = kUint, "integer", t.Bits()
		n.rangeWant = fmt.Sprintf("integer from 0 to %d", uint64(1)<<(n.bits-1)*2-1)
	case fields.Float:
		n.kind, n.want, n.bits = kFloat, "number", t.Bits()
		n.rangeWant = fmt.Sprintf("number within float%d range", n.bits)
	case fields.String:
		n.kind, n.want = kString, "string"
	case fields.Any:
		n.kind, n.want, n.nullable = kAny, "any JSON value", true
	case fields.Struct:
		sp, err := b.structPlan(t, path)
		if err != nil {
			return nil, err
		}
		n.kind, n.want, n.st = kStruct, "object", sp
	case fields.Bytes:
		n.kind, n.want, n.nullable = kBytes, "base64 string", true
		return n, nil
	case fields.Slice:
		e, err := b.bare(t.Elem(), path+"[]")
		if err != nil {
			return nil, err
		}
		n.kind, n.want, n.nullable, n.elem = kSlice, "array", true, e
		n.arrays = &arrayTypes{elem: t.Elem(), strings: e.kind == kString}
	case fields.Array:
		e, err := b.bare(t.Elem(), path+"[]")
		if err != nil {
			return nil, err
		}
		n.kind, n.want, n.elem, n.length = kArray, "array", e, t.Len()
	case fields.Map:
		e, err := b.bare(t.Elem(), path+"{}")
		if err != nil {
			return nil, err
		}
		n.kind, n.want, n.nullable, n.elem, n.keyKind = kMap, "object", true, e, t.Key().Kind()
	case fields.Pointer:
		e, err := b.bare(t.Elem(), path)
		if err != nil {
			return nil, err
		}
		n.kind, n.want, n.nullable, n.elem = kPtr, e.want, true, e
	}
	if fields.ClassOf(t).Scalar() {
		vs, err := typeEnum(n)
		if err != nil {
			return nil, fields.Under(err, path, nil)
		}
		if vs != nil {
			n.c = newConstraints()
			n.c.tenum = vs
		}
	}
	if tr != nil {
		// What the type declares through swaggest's Exposer or Preparer
		// holds wherever it is used, as its schema says.
		c, err := compileConstraints(n, tr)
		if err != nil {
			return nil, fields.Under(err, path, nil)
		}
		if c != nil {
			n.c = c
		}
	}
	return n, nil
}

// structPlan returns the plan of struct type t: from this build (possibly
// still being filled, for recursive types), or built now.
func (b *builder) structPlan(t reflect.Type, path string) (*structPlan, error) {
	if sp, ok := b.structs[t]; ok {
		return sp, nil
	}
	sp := &structPlan{t: t, byName: map[string]int{}}
	b.structs[t] = sp // placeholder for recursive references
	fs, err := fields.Describe(t)
	if err != nil {
		return nil, fields.Under(err, path, nil)
	}
	for _, c := range fs {
		fpath := fields.Join(path, c.GoPath)
		fn, err := b.node(c.Type, c.Rules, fpath)
		if err != nil {
			return nil, err
		}
		f := field{
			name:     c.Name,
			ref:      nameRef(jsonwire.EscapeToken(c.Name)),
			offset:   c.Offset,
			embeds:   c.Embeds,
			node:     fn,
			required: c.Required,
			verbatim: verbatimName(c.Name),
			keyLen:   int32(jsonwire.StringLen(c.Name) + 1),
		}
		if r := c.Rules; r.HasDefault {
			// Checked once the whole plan exists: decoding the default may
			// need struct plans still being built (recursive types).
			idx := len(sp.fields)
			b.pending = append(b.pending, func() error {
				def, err := compileDefault(fn, r, fpath)
				if err == nil {
					sp.fields[idx].def = def
				}
				return err
			})
			sp.hasDefaults = true
		}
		if r := c.Rules; r.HasExamples() {
			b.pending = append(b.pending, func() error { return checkExamples(fn, r, fpath) })
		}
		f.keyWords()
		sp.byName[f.name] = len(sp.fields)
		sp.fields = append(sp.fields, f)
	}
	sp.buildTable()
	sp.required = make([]uint64, (len(sp.fields)+63)/64)
	names := make([]string, len(sp.fields))
	for i, f := range sp.fields {
		if f.required {
			sp.required[i/64] |= 1 << (i % 64)
		}
		names[i] = f.name
	}
	switch {
	case len(names) == 0:
		sp.allowedWant = "no such property (this object takes none)"
	case len(names) > maxAllowedNames:
		sp.allowedWant = fmt.Sprintf("no such property (allowed: %s, ... %d in all)", strings.Join(names[:maxAllowedNames], ", "), len(names))
	default:
		sp.allowedWant = "no such property (allowed: " + strings.Join(names, ", ") + ")"
	}
	return sp, nil
}

// maxAllowedNames is how many property names an unknown-property error lists.
const maxAllowedNames = 30
