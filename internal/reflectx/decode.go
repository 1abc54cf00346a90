package reflectx

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/echo"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// decoder is the state of one decode, shared by the map and JSON paths (the
// map path falls back to JSON for unusual Go values). It is pooled, so a warm
// decode allocates nothing for itself.
type decoder struct {
	data    []byte // JSON text being read
	i       int    // read offset in data
	depth   int
	path    []pathElem                 // reusable path stack: push on descent, cut back after
	errs    jsonwire.Capped[*ArgError] // the problems found
	fatal   bool                       // a syntax or depth error: stop everything
	scratch []byte                     // unescaped strings
	arena   []byte                     // backing store of the strings decoded by this call
	alen    int                        // bytes of arena handed out (arena itself changes only for a new one: no write barrier per string)
	copied  int                        // bytes copied into arenas by this call
	hint    int                        // size of the first arena when > 0 (Plan.arenaHint)
	slots   []string                   // backing store of the string slices decoded by this call
	slen    int                        // slots handed out or being filled, as alen
	used    int                        // string slots used by this call
	inKeys  []string                   // escaped keys from the input read so far (path steps refer to them)
	lim     Limits                     // resolved limits of this decode
	budget  int                        // map input: bytes left under lim.MaxBytes
}

var decoderPool = sync.Pool{New: func() any { return &decoder{path: make([]pathElem, 0, 16)} }}

func getDecoder() *decoder { return decoderPool.Get().(*decoder) }

// finish returns the collected errors (nil when none, as a nil interface)
// and puts d back in the pool.
func (d *decoder) finish() error {
	err := d.reset()
	decoderPool.Put(d)
	return err
}

// reset returns the collected errors (nil when none, as a nil interface)
// and makes d ready for another decode, dropping what it handed out.
func (d *decoder) reset() error {
	var err error
	if len(d.errs.Errs) > 0 {
		err = &ArgErrors{Errs: d.errs.Errs, Omitted: d.errs.Omitted}
	}
	d.errs, d.fatal = jsonwire.Capped[*ArgError]{}, false
	d.data, d.i, d.depth = nil, 0, 0
	d.lim, d.budget = Limits{}, 0
	d.arena, d.alen = nil, 0 // handed-out strings point into it: never reused
	d.copied, d.hint = 0, 0
	d.slots, d.slen, d.used = nil, 0, 0 // handed out, as the arena
	clear(d.inKeys)                     // keys from the input, not to retain them
	d.inKeys = d.inKeys[:0]
	if cap(d.inKeys) > 1024 {
		d.inKeys = nil
	}
	d.path = d.path[:0]
	if cap(d.path) > 1024 {
		d.path = make([]pathElem, 0, 16)
	}
	if cap(d.scratch) > 64<<10 {
		d.scratch = nil
	}
	return err
}

// arenaChunk bounds the bytes reserved beyond the string being copied when
// the arena is refilled.
const arenaChunk = 512

// makeString copies b into the arena and returns it as a string. Strings
// of one call share one allocation; the arena is append-only, so bytes once
// handed out are never written again, and it is fresh memory, never the
// caller's input. Later strings lie in d.data[d.i:], which bounds what the
// arena needs; the first arena is as large as the plan's last decode
// needed, when it said (d.hint), so that arguments of one tool, alike from
// call to call, take one allocation of about their strings' size.
func (d *decoder) makeString(b []byte) string {
	n := len(b)
	if n == 0 {
		return ""
	}
	d.copied += n
	if len(d.arena)-d.alen < n {
		size := n + min(len(d.data)-d.i, arenaChunk)
		if d.arena == nil && d.hint > 0 {
			size = max(n, min(d.hint, size))
		}
		d.arena, d.alen = make([]byte, size), 0
	}
	l := d.alen
	copy(d.arena[l:], b)
	d.alen = l + n
	return unsafe.String(&d.arena[l], n)
}

// pushField pushes the name of field f; pushes store no pointers, so they
// cost no write barrier.
func (d *decoder) pushField(f *field) { d.path = append(d.path, pathElem{idx: -1, ref: f.ref}) }
func (d *decoder) pushIndex(i int)    { d.path = append(d.path, pathElem{idx: i}) }

// pushKey pushes a key from the input (not a field name of the plan).
func (d *decoder) pushKey(k string) {
	d.inKeys = append(d.inKeys, jsonwire.EscapeToken(k))
	d.path = append(d.path, pathElem{idx: -1, ref: -int32(len(d.inKeys))})
}

// pop drops the last path step. Keys from the input stay in d.inKeys
// until finish (16 bytes per key read, as the input bounds).
func (d *decoder) pop() { d.path = d.path[:len(d.path)-1] }

// pathString renders the path stack as a JSON Pointer; only called when an
// error is recorded. Each key from the input is cut at MaxEchoedKey bytes,
// and a path longer than MaxEchoedPath keeps its first and last steps
// around "/… (N steps)", so that what it costs is bounded whatever the
// keys and the depth.
func (d *decoder) pathString() string {
	var b []byte
	for i := range d.path {
		b = d.appendStep(b, i)
		if len(b) > MaxEchoedPath {
			return d.longPath(b[:0])
		}
	}
	return string(b)
}

// longPath renders a path that is longer than MaxEchoedPath into b.
func (d *decoder) longPath(b []byte) string {
	const half = MaxEchoedPath / 2
	head := 0
	for ; head < len(d.path); head++ {
		l := len(b)
		if b = d.appendStep(b, head); len(b) > half {
			b = b[:l]
			break
		}
	}
	var tmp [2 * MaxEchoedKey]byte
	tail, tl := len(d.path), 0
	for tail > head {
		l := len(d.appendStep(tmp[:0], tail-1))
		if tl+l > half {
			break
		}
		tl += l
		tail--
	}
	b = append(b, "/"+echo.Marker+" ("...)
	b = strconv.AppendInt(b, int64(tail-head), 10)
	b = append(b, " steps)"...)
	for i := tail; i < len(d.path); i++ {
		b = d.appendStep(b, i)
	}
	return string(b)
}

// appendStep appends "/" and step i of the path to b.
func (d *decoder) appendStep(b []byte, i int) []byte {
	e := d.path[i]
	b = append(b, '/')
	switch {
	case e.idx >= 0:
		return strconv.AppendInt(b, int64(e.idx), 10)
	case e.ref < 0:
		return echo.Append(b, d.inKeys[-e.ref-1], MaxEchoedKey)
	default:
		return echo.Append(b, refName(e.ref), MaxEchoedKey)
	}
}

// fail records a problem at the current path.
func (d *decoder) fail(sentinel error, want, got string) {
	if d.fatal {
		return
	}
	if d.errs.Full() { // counted only: no path rendered
		d.errs.Omitted++
		return
	}
	d.errs.Add(&ArgError{Path: d.pathString(), Want: want, Got: got, Err: sentinel})
}

// failCause records a problem caused by an error from a user's method.
func (d *decoder) failCause(sentinel error, want, got string, cause error) {
	if cause == nil {
		d.fail(sentinel, want, got)
		return
	}
	d.fail(&causeError{sentinel: sentinel, cause: cause}, want, got)
}

// abort replaces every problem found so far with one that ends the decode.
func (d *decoder) abort(sentinel error, want, got string) {
	if d.fatal {
		return
	}
	d.fatal = true
	d.errs.Errs = append(d.errs.Errs[:0], &ArgError{Want: want, Got: got, Err: sentinel})
	d.errs.Omitted = 0
}

// syntax aborts with ErrSyntax at the current offset.
func (d *decoder) syntax(want string) {
	d.syntaxAt(want, d.i)
}

// syntaxAt aborts with ErrSyntax at offset i: what came there is quoted,
// up to [maxSyntaxExcerpt] bytes of it, so that the model sees the text
// it has to fix ("got \"I'll now search…\" at offset 14").
func (d *decoder) syntaxAt(want string, i int) {
	got := "end of input"
	if i < len(d.data) {
		if c := d.data[i]; c >= 0x80 {
			got = fmt.Sprintf("byte 0x%02x at offset %d", c, i)
		} else {
			got = excerpt(d.data[i:]) + " at offset " + strconv.Itoa(i)
		}
	} else {
		got += " at offset " + strconv.Itoa(i)
	}
	d.abort(ErrSyntax, want, got)
}

// maxSyntaxExcerpt is how many bytes of the text at a syntax error its
// message quotes.
const maxSyntaxExcerpt = 24

// excerpt quotes the first bytes of text, up to maxSyntaxExcerpt and cut at
// a UTF-8 boundary before a byte that does not start one, with "…" when
// text goes on.
func excerpt(text []byte) string {
	n := len(text)
	if n > maxSyntaxExcerpt {
		n = echo.Keep(text, maxSyntaxExcerpt)
	}
	for k := 0; k < n; {
		if text[k] < utf8.RuneSelf {
			k++
			continue
		}
		r, size := utf8.DecodeRune(text[k:n])
		if r == utf8.RuneError && size <= 1 {
			n = k // invalid UTF-8: the quote stops before it
			break
		}
		k += size
	}
	q := strconv.Quote(string(text[:n]))
	if n < len(text) {
		q += echo.Marker
	}
	return q
}

// enter goes one level deeper, aborting with ErrTooDeep beyond MaxDepth.
func (d *decoder) enter() bool {
	d.depth++
	if d.depth > MaxDepth {
		d.tooDeep()
		return false
	}
	return true
}

func (d *decoder) tooDeep() {
	d.abort(ErrTooDeep, "nesting at most "+strconv.Itoa(MaxDepth)+" levels deep", "deeper nesting")
}

func (d *decoder) leave() { d.depth-- }

// bitset records which fields of a struct were seen.
type bitset struct {
	small [4]uint64
	big   []uint64
}

func (b *bitset) init(n int) {
	if n > 256 {
		b.big = make([]uint64, (n+63)/64)
	}
}

func (b *bitset) has(i int) bool {
	if b.big != nil {
		return b.big[i>>6]&(1<<(i&63)) != 0
	}
	return b.small[i>>6]&(1<<(i&63)) != 0
}

func (b *bitset) set(i int) {
	if b.big != nil {
		b.big[i>>6] |= 1 << (i & 63)
	} else {
		b.small[i>>6] |= 1 << (i & 63)
	}
}

func (b *bitset) covers(req []uint64) bool {
	for k, w := range req {
		s := uint64(0)
		if b.big != nil {
			s = b.big[k]
		} else {
			s = b.small[k]
		}
		if s&w != w {
			return false
		}
	}
	return true
}

// finishStruct fills defaults and reports missing required fields, for the
// fields of sp not in seen.
func (d *decoder) finishStruct(sp *structPlan, base unsafe.Pointer, seen *bitset) {
	if !sp.hasDefaults && seen.covers(sp.required) {
		return
	}
	for i := range sp.fields {
		if seen.has(i) {
			continue
		}
		d.absent(&sp.fields[i], base)
	}
}

// absent handles a field whose key is absent: default or missing.
func (d *decoder) absent(f *field, base unsafe.Pointer) {
	switch {
	case f.def != nil:
		p := f.ptr(base)
		if f.def.scalar != nil {
			copyScalar(f.node, p, f.def.scalar)
			return
		}
		data, i := d.data, d.i
		d.data, d.i = f.def.json, 0
		d.pushField(f)
		d.jvalue(f.node, p)
		d.pop()
		d.data, d.i = data, i
	case f.required:
		d.pushField(f)
		d.fail(ErrMissing, f.node.want+" (required)", "nothing")
		d.pop()
	}
}

// decodeDefault decodes a default's JSON text, checking it as arguments
// would be checked.
func decodeDefault(n *node, p unsafe.Pointer, text []byte) error {
	d := getDecoder()
	d.lim = Limits{}.resolve()
	d.data = text
	d.ws()
	d.jvalue(n, p)
	if !d.fatal {
		d.ws()
		if d.i != len(d.data) {
			d.syntax("end of value")
		}
	}
	return d.finish()
}

// src is where an offending value came from, rendered only on error.
type src struct {
	raw   []byte // JSON text
	v     any    // map input
	isMap bool
}

func (s src) got() string {
	if s.isMap {
		return gotValue(s.v)
	}
	return truncate(s.raw)
}

// putInt stores an integer read as sign and magnitude into an int or uint
// node, checking range and constraints.
func (d *decoder) putInt(n *node, p unsafe.Pointer, neg bool, mag uint64, st numStatus, s src) {
	switch st {
	case numNotInteger:
		d.fail(ErrType, "integer", s.got())
		return
	case numOverflow:
		d.fail(ErrType, n.rangeWant, s.got())
		return
	}
	if n.kind == kInt {
		v, ok := fitInt(neg, mag, n.bits)
		if !ok {
			d.fail(ErrType, n.rangeWant, s.got())
			return
		}
		if n.c != nil {
			if w := checkInt(n.c, v); w != "" {
				d.fail(ErrConstraint, w, s.got())
				return
			}
		}
		switch n.bits {
		case 8:
			*(*int8)(p) = int8(v)
		case 16:
			*(*int16)(p) = int16(v)
		case 32:
			*(*int32)(p) = int32(v)
		default:
			*(*int64)(p) = v
		}
		return
	}
	v, ok := fitUint(neg, mag, n.bits)
	if !ok {
		d.fail(ErrType, n.rangeWant, s.got())
		return
	}
	if n.c != nil {
		if w := checkUint(n.c, v); w != "" {
			d.fail(ErrConstraint, w, s.got())
			return
		}
	}
	switch n.bits {
	case 8:
		*(*uint8)(p) = uint8(v)
	case 16:
		*(*uint16)(p) = uint16(v)
	case 32:
		*(*uint32)(p) = uint32(v)
	default:
		*(*uint64)(p) = v
	}
}

// putFloat stores a float into a float node, checking range and constraints.
func (d *decoder) putFloat(n *node, p unsafe.Pointer, f float64, s src) {
	if math.IsNaN(f) || math.IsInf(f, 0) || (n.bits == 32 && math.IsInf(float64(float32(f)), 0)) {
		d.fail(ErrType, n.rangeWant, s.got())
		return
	}
	if n.c != nil {
		if w := checkFloat(n.c, f); w != "" {
			d.fail(ErrConstraint, w, s.got())
			return
		}
	}
	if n.bits == 32 {
		*(*float32)(p) = float32(f)
	} else {
		*(*float64)(p) = f
	}
}

// putBool stores a bool, checking enum and const.
func (d *decoder) putBool(n *node, p unsafe.Pointer, v bool) {
	if n.c != nil {
		if w := checkBool(n.c, v); w != "" {
			d.fail(ErrConstraint, w, strconv.FormatBool(v))
			return
		}
	}
	*(*bool)(p) = v
}

// checkStr checks a string's constraints; it reports whether it passed.
func (d *decoder) checkStr(n *node, s string) bool {
	if n.c == nil {
		return true
	}
	if w := checkStringLimit(n.c, s, d.lim.MaxPatternBytes); w != "" {
		d.fail(ErrConstraint, w, gotString(s))
		return false
	}
	return true
}

// sliceHeader is the memory layout of a slice; Data is a pointer so that
// writes through it have write barriers.
type sliceHeader struct {
	Data unsafe.Pointer
	Len  int
	Cap  int
}

// zeroBase is the backing store of empty, non-nil slices.
var zeroBase [0]uint64

// checkSlice checks the item constraints of an array of length n at p.
func (d *decoder) checkSlice(nd *node, p unsafe.Pointer, n int) {
	if nd.c == nil {
		return
	}
	if w := checkItems(nd.c, n); w != "" {
		d.fail(ErrConstraint, w, countOf(n, "item", "items"))
		return
	}
	if nd.c.unique && n > 1 {
		if j, i, dup := uniqueItems(nd, p, n); dup {
			d.fail(ErrConstraint, "unique items", "item "+strconv.Itoa(j)+" repeats item "+strconv.Itoa(i))
		}
	}
}

// plainComparable reports whether == on values of t is JSON equality:
// scalars and strings, and structs and arrays made of them (no pointers or
// interfaces, which compare identity or may panic as map keys).
func plainComparable(t reflect.Type) bool {
	if t == numberType {
		return false // 1 and 1.0 are one JSON value
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	case reflect.Array:
		return plainComparable(t.Elem())
	case reflect.Struct:
		if t == timeType {
			return false // == compares the location pointer
		}
		for i := 0; i < t.NumField(); i++ {
			if !plainComparable(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// gotString renders a string value for ArgError.Got.
func gotString(s string) string {
	return echo.Quote(s, maxGot)
}

// gotValue renders a Go value from map input for ArgError.Got, compact and
// truncated; cyclic maps are safe because rendering stops at the budget.
func gotValue(v any) string {
	return truncate(string(appendGot(nil, v)))
}

func appendGot(b []byte, v any) []byte {
	if len(b) > maxGot {
		return b
	}
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case string:
		return append(b, gotString(x)...)
	case bool:
		return strconv.AppendBool(b, x)
	case float64:
		return strconv.AppendFloat(b, x, 'g', -1, 64)
	case float32:
		return strconv.AppendFloat(b, float64(x), 'g', -1, 32)
	case json.Number:
		return append(b, x...)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
			if len(b) > maxGot {
				break
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, echo.Quote(k, maxGot)...)
			b = append(b, ':')
			b = appendGot(b, x[k])
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if len(b) > maxGot {
				break
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = appendGot(b, e)
		}
		return append(b, ']')
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Struct, reflect.Pointer, reflect.Interface:
		// Other composites are not walked: they may be cyclic.
		return fmt.Appendf(b, "a %T", v)
	}
	return fmt.Appendf(b, "%v", v)
}
