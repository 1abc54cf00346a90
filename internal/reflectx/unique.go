package reflectx

import (
	"encoding"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// uniqueItems reports the first item of the array of length n at p that
// repeats an earlier one, in time and memory linear in the items' size.
//
// Each item gets a canonical key such that two items have the same key
// exactly when they are equal as JSON values (JSON Schema's uniqueItems):
// numbers compare by value (1, 1.0 and 1e0 are one number; 0 and -0 too),
// object members regardless of order. Items are compared as decoded: an
// absent property and its zero value are one value once in a struct.
// Times compare by their RFC 3339 text, as JSON strings would.
func uniqueItems(nd *node, p unsafe.Pointer, n int) (dup, first int, found bool) {
	if plainComparable(nd.elem.t) {
		v := reflect.NewAt(nd.t, p).Elem()
		seen := make(map[any]int, n)
		for j := 0; j < n; j++ {
			x := v.Index(j).Interface()
			if i, dup := seen[x]; dup {
				return j, i, true
			}
			seen[x] = j
		}
		return 0, 0, false
	}
	base := p
	if nd.kind == kSlice {
		base = (*sliceHeader)(p).Data
	}
	size := nd.elem.t.Size()
	return firstRepeat(n, func(k *keyer, j int) { k.value(nd.elem, unsafe.Add(base, uintptr(j)*size)) })
}

// firstRepeat reports the first of n items that repeats an earlier one,
// key writing the canonical key of item j into a reset keyer, in time
// and memory linear in the items' keys.
func firstRepeat(n int, key func(k *keyer, j int)) (dup, first int, found bool) {
	// Items are indexed by a hash of their key, so that no key outlives
	// its item's turn. A hash met again is checked by building the
	// earlier item's key anew: equal keys are a repeat (and end the scan);
	// unequal ones are a collision, and the later item goes by its whole
	// key into over, which a later item whose hash collides also searches.
	seed := maphash.MakeSeed()
	seen := make(map[uint64]int, n)
	var over map[string]int
	var k, prev keyer
	for j := 0; j < n; j++ {
		k.reset()
		key(&k, j)
		if k.opaque {
			// An item without a canonical form (a value whose own
			// MarshalJSON fails) equals no other.
			continue
		}
		h := itemHash(seed, k.buf)
		i, hit := seen[h]
		if !hit {
			seen[h] = j
			continue
		}
		prev.reset()
		key(&prev, i)
		if !prev.opaque && string(prev.buf) == string(k.buf) {
			return j, i, true
		}
		if i, dup := over[string(k.buf)]; dup {
			return j, i, true
		}
		if over == nil {
			over = make(map[string]int)
		}
		over[string(k.buf)] = j
	}
	return 0, 0, false
}

// itemHash hashes an item's key for uniqueItems (a variable so that tests
// can make every hash collide).
var itemHash = maphash.Bytes

// keyer builds canonical keys. A key is a sequence of tagged values:
// 'n' null, 't'/'f' booleans, 'd' numbers (sign, significant digits,
// exponent, ';'), 's' strings (8-byte length, bytes), 'a' arrays and 'o'
// objects (members, then 'e'); object members are a string key then a
// value, sorted by key. Struct fields go in plan order, an absent embedded
// field as '-'.
type keyer struct {
	buf     []byte
	keys    []string     // stack of the sorted keys of the objects being keyed
	members []textMember // stack of the members of the objects being keyed from text (keyer.text)
	depth   int
	opaque  bool // the value has no canonical key
}

// reset readies k for the next key, keeping its buffers.
func (k *keyer) reset() {
	k.buf, k.keys = k.buf[:0], k.keys[:0]
	clear(k.members) // not to retain the input
	k.members = k.members[:0]
	k.depth, k.opaque = 0, false
}

// maxKeyDepth bounds the recursion of a keyer; decoded values are never
// deeper than MaxDepth, so only values a user's method made can reach it.
const maxKeyDepth = 2 * MaxDepth

func (k *keyer) enter() bool {
	k.depth++
	if k.depth > maxKeyDepth {
		k.opaque = true
		return false
	}
	return true
}

func (k *keyer) leave() { k.depth-- }

// str appends a string value.
func (k *keyer) str(s string) {
	k.buf = append(k.buf, 's')
	k.buf = binary.LittleEndian.AppendUint64(k.buf, uint64(len(s)))
	k.buf = append(k.buf, s...)
}

// strFunc appends a string value written by add.
func (k *keyer) strFunc(add func([]byte) []byte) {
	start := len(k.buf)
	k.buf = append(k.buf, 's', 0, 0, 0, 0, 0, 0, 0, 0)
	k.buf = add(k.buf)
	binary.LittleEndian.PutUint64(k.buf[start+1:], uint64(len(k.buf)-start-9))
}

func (k *keyer) bytes(b []byte) {
	k.strFunc(func(dst []byte) []byte { return base64.StdEncoding.AppendEncode(dst, b) })
}

func (k *keyer) time(t time.Time) {
	k.strFunc(func(dst []byte) []byte { return t.AppendFormat(dst, time.RFC3339Nano) })
}

func (k *keyer) float(f float64, bits int) {
	var tmp [32]byte
	k.number(strconv.AppendFloat(tmp[:0], f, 'g', -1, bits))
}

// value appends the key of the value of node n at p.
func (k *keyer) value(n *node, p unsafe.Pointer) {
	if !k.enter() {
		return
	}
	defer k.leave()
	var tmp [24]byte
	switch n.kind {
	case kBool:
		if *(*bool)(p) {
			k.buf = append(k.buf, 't')
		} else {
			k.buf = append(k.buf, 'f')
		}
	case kInt:
		var v int64
		switch n.bits {
		case 8:
			v = int64(*(*int8)(p))
		case 16:
			v = int64(*(*int16)(p))
		case 32:
			v = int64(*(*int32)(p))
		default:
			v = *(*int64)(p)
		}
		k.number(strconv.AppendInt(tmp[:0], v, 10))
	case kUint:
		var v uint64
		switch n.bits {
		case 8:
			v = uint64(*(*uint8)(p))
		case 16:
			v = uint64(*(*uint16)(p))
		case 32:
			v = uint64(*(*uint32)(p))
		default:
			v = *(*uint64)(p)
		}
		k.number(strconv.AppendUint(tmp[:0], v, 10))
	case kFloat:
		if n.bits == 32 {
			k.float(float64(*(*float32)(p)), 32)
		} else {
			k.float(*(*float64)(p), 64)
		}
	case kString:
		k.str(*(*string)(p))
	case kNum:
		k.dynamic(*(*json.Number)(p))
	case kBytes:
		b := *(*[]byte)(p)
		if b == nil {
			k.buf = append(k.buf, 'n')
			return
		}
		k.bytes(b)
	case kTime:
		k.time(*(*time.Time)(p))
	case kText:
		if m, ok := reflect.NewAt(n.t, p).Interface().(encoding.TextMarshaler); ok {
			text, err := m.MarshalText()
			if err != nil {
				k.opaque = true
				return
			}
			k.str(string(text))
			return
		}
		k.marshal(reflect.NewAt(n.t, p).Interface())
	case kJSONU:
		k.marshal(reflect.NewAt(n.t, p).Interface())
	case kRaw:
		k.jsonText(*(*json.RawMessage)(p))
	case kAny:
		k.dynamic(*(*any)(p))
	case kStruct:
		k.buf = append(k.buf, 'o')
		for i := range n.st.fields {
			f := &n.st.fields[i]
			fp, ok := f.peek(p)
			if !ok {
				k.buf = append(k.buf, '-')
				continue
			}
			k.value(f.node, fp)
		}
		k.buf = append(k.buf, 'e')
	case kSlice:
		h := (*sliceHeader)(p)
		if h.Data == nil {
			k.buf = append(k.buf, 'n')
			return
		}
		k.items(n.elem, h.Data, h.Len)
	case kArray:
		k.items(n.elem, p, n.length)
	case kMap:
		k.typedMap(n, p)
	case kPtr:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			k.buf = append(k.buf, 'n')
			return
		}
		k.value(n.elem, q)
	}
}

// peek is ptr without allocating: ok is false when an embedded pointer on
// the way is nil.
func (f *field) peek(base unsafe.Pointer) (unsafe.Pointer, bool) {
	for _, s := range f.embeds {
		base = *(*unsafe.Pointer)(unsafe.Add(base, s.Offset))
		if base == nil {
			return nil, false
		}
	}
	return unsafe.Add(base, f.offset), true
}

func (k *keyer) items(elem *node, data unsafe.Pointer, n int) {
	k.buf = append(k.buf, 'a')
	size := elem.t.Size()
	for i := 0; i < n; i++ {
		k.value(elem, unsafe.Add(data, uintptr(i)*size))
	}
	k.buf = append(k.buf, 'e')
}

// typedMap appends the key of a Go map decoded by the plan node n.
func (k *keyer) typedMap(n *node, p unsafe.Pointer) {
	if n.t == mapStringAnyType {
		m := *(*map[string]any)(p)
		if m == nil {
			k.buf = append(k.buf, 'n')
			return
		}
		k.object(m)
		return
	}
	mv := reflect.NewAt(n.t, p).Elem()
	if mv.IsNil() {
		k.buf = append(k.buf, 'n')
		return
	}
	type entry struct {
		key string
		val reflect.Value
	}
	entries := make([]entry, 0, mv.Len())
	for it := mv.MapRange(); it.Next(); {
		kv := it.Key()
		var ks string
		switch n.keyKind {
		case reflect.String:
			ks = kv.String()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			ks = strconv.FormatInt(kv.Int(), 10)
		default:
			ks = strconv.FormatUint(kv.Uint(), 10)
		}
		entries = append(entries, entry{ks, it.Value()})
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	tmp := reflect.New(n.elem.t)
	k.buf = append(k.buf, 'o')
	for _, e := range entries {
		k.str(e.key)
		tmp.Elem().Set(e.val)
		k.value(n.elem, tmp.UnsafePointer())
	}
	k.buf = append(k.buf, 'e')
}

// object appends the key of a JSON object held as a map.
func (k *keyer) object(m map[string]any) {
	// The keys go on k.keys, shared by every object of the item: nested
	// objects push theirs above and cut back, so no slice is made per
	// object.
	start := len(k.keys)
	for key := range m {
		k.keys = append(k.keys, key)
	}
	slices.Sort(k.keys[start:])
	k.buf = append(k.buf, 'o')
	for i := start; i < start+len(m); i++ {
		key := k.keys[i] // k.keys may move while the value is keyed
		k.str(key)
		k.dynamic(m[key])
	}
	clear(k.keys[start:]) // not to retain the input's keys
	k.keys = k.keys[:start]
	k.buf = append(k.buf, 'e')
}

// dynamic appends the key of a value held in an interface: what JSON text
// decodes into (json.Number, string, bool, nil, map[string]any, []any) or
// what map input holds (Go numbers, []byte, time.Time, typed values).
func (k *keyer) dynamic(v any) {
	if !k.enter() {
		return
	}
	defer k.leave()
	var tmp [24]byte
	switch x := v.(type) {
	case nil:
		k.buf = append(k.buf, 'n')
	case bool:
		if x {
			k.buf = append(k.buf, 't')
		} else {
			k.buf = append(k.buf, 'f')
		}
	case string:
		k.str(x)
	case json.Number:
		if !validNumber(x) {
			k.str(string(x)) // encoding/json renders an invalid Number as an error; keep it distinct
			k.opaque = true
			return
		}
		k.number([]byte(x))
	case float64:
		k.float(x, 64)
	case float32:
		k.float(float64(x), 32)
	case int:
		k.number(strconv.AppendInt(tmp[:0], int64(x), 10))
	case int64:
		k.number(strconv.AppendInt(tmp[:0], x, 10))
	case uint64:
		k.number(strconv.AppendUint(tmp[:0], x, 10))
	case map[string]any:
		if x == nil {
			k.buf = append(k.buf, 'n')
			return
		}
		k.object(x)
	case []any:
		if x == nil {
			k.buf = append(k.buf, 'n')
			return
		}
		k.buf = append(k.buf, 'a')
		for _, e := range x {
			k.dynamic(e)
		}
		k.buf = append(k.buf, 'e')
	case []byte:
		if x == nil {
			k.buf = append(k.buf, 'n')
			return
		}
		k.bytes(x)
	case time.Time:
		k.time(x)
	case json.RawMessage:
		k.jsonText(x)
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			k.number(strconv.AppendInt(tmp[:0], rv.Int(), 10))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			k.number(strconv.AppendUint(tmp[:0], rv.Uint(), 10))
		case reflect.Float32:
			k.float(rv.Float(), 32)
		case reflect.Float64:
			k.float(rv.Float(), 64)
		case reflect.Bool:
			k.dynamic(rv.Bool())
		case reflect.String:
			k.str(rv.String())
		default:
			k.marshal(v)
		}
	}
}

// marshal appends the key of a value as encoding/json renders it.
func (k *keyer) marshal(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		k.opaque = true
		return
	}
	k.jsonText(b)
}

// jsonText appends the key of JSON text.
func (k *keyer) jsonText(b []byte) {
	d := &decoder{data: b}
	d.ws()
	v := d.anyValue()
	if d.ws(); d.fatal || len(d.errs.Errs) > 0 || d.i != len(b) {
		k.opaque = true
		return
	}
	k.dynamic(v)
}

// number appends the key of a valid JSON number literal: its value as sign,
// significant digits without trailing zeros, and the decimal exponent of
// the first digit, so that 10, 1e1 and 10.0 share one key, as do 0 and -0.
func (k *keyer) number(lit []byte) {
	neg := len(lit) > 0 && lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	i := 0
	for i < len(lit) && lit[i] >= '0' && lit[i] <= '9' {
		i++
	}
	intPart := lit[:i]
	var frac []byte
	if i < len(lit) && lit[i] == '.' {
		j := i + 1
		for j < len(lit) && lit[j] >= '0' && lit[j] <= '9' {
			j++
		}
		frac = lit[i+1 : j]
		i = j
	}
	var expLit []byte
	if i < len(lit) && (lit[i] == 'e' || lit[i] == 'E') {
		expLit = lit[i+1:]
	}
	// The value is 0.D × 10^point, D the digits of intPart and frac.
	point := int64(len(intPart))
	lead := 0 // leading zeros of intPart+frac
	for lead < len(intPart) && intPart[lead] == '0' {
		lead++
	}
	if lead == len(intPart) {
		for lead-len(intPart) < len(frac) && frac[lead-len(intPart)] == '0' {
			lead++
		}
	}
	total := len(intPart) + len(frac)
	if lead == total {
		k.buf = append(k.buf, 'd', '0', ';')
		return
	}
	point -= int64(lead)
	end := total // trailing zeros cut
	digitAt := func(j int) byte {
		if j < len(intPart) {
			return intPart[j]
		}
		return frac[j-len(intPart)]
	}
	for digitAt(end-1) == '0' {
		end--
	}
	k.buf = append(k.buf, 'd')
	if neg {
		k.buf = append(k.buf, '-')
	}
	for j := lead; j < end; j++ {
		k.buf = append(k.buf, digitAt(j))
	}
	k.buf = append(k.buf, 'e')
	k.buf = appendExponent(k.buf, expLit, point)
	k.buf = append(k.buf, ';')
}

// appendExponent appends exp+point in decimal, exp being the literal of a
// JSON number's exponent (sign and digits; empty for none), in time linear
// in the literal's length: a long exponent is added to in its decimal
// digits, never converted to binary (math/big's conversions are
// superlinear, seconds for a megabyte of digits).
func appendExponent(b, expLit []byte, point int64) []byte {
	neg := false
	if len(expLit) > 0 && (expLit[0] == '+' || expLit[0] == '-') {
		neg = expLit[0] == '-'
		expLit = expLit[1:]
	}
	for len(expLit) > 1 && expLit[0] == '0' {
		expLit = expLit[1:]
	}
	if len(expLit) <= 15 {
		var e int64
		for _, c := range expLit {
			e = e*10 + int64(c-'0')
		}
		if neg {
			e = -e
		}
		return strconv.AppendInt(b, e+point, 10)
	}
	// |exp| ≥ 10^15 > |point| (point is at most the literal's length), so
	// the sum has exp's sign and its magnitude is |exp| ± |point|, which
	// is at most one digit longer or shorter than exp.
	if neg {
		b = append(b, '-')
		point = -point
	}
	start := len(b)
	b = append(b, expLit...)
	digits := b[start:]
	if point >= 0 {
		carry := point
		for i := len(digits) - 1; i >= 0 && carry > 0; i-- {
			d := int64(digits[i]-'0') + carry
			digits[i] = byte('0' + d%10)
			carry = d / 10
		}
		if carry > 0 { // carry < 10^15: at most 16 digits in front
			var tmp [20]byte
			lead := strconv.AppendInt(tmp[:0], carry, 10)
			b = append(b, lead...)
			copy(b[start+len(lead):], b[start:len(b)-len(lead)])
			copy(b[start:], lead)
		}
		return b
	}
	borrow := -point
	for i := len(digits) - 1; i >= 0 && borrow > 0; i-- {
		d := int64(digits[i]-'0') - borrow%10
		borrow /= 10
		if d < 0 {
			d += 10
			borrow++
		}
		digits[i] = byte('0' + d)
	}
	// |exp| > |point|, so a nonzero digit remains; drop the zeros the
	// borrow left in front.
	z := 0
	for z < len(digits)-1 && digits[z] == '0' {
		z++
	}
	if z > 0 {
		copy(digits, digits[z:])
		b = b[:len(b)-z]
	}
	return b
}
