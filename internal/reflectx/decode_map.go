package reflectx

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"math"
	"reflect"
	"sort"
	"strconv"
	"time"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/echo"
	"github.com/toolnexus/toolnexus/internal/formats"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// DecodeMap decodes arguments already parsed into a map (as Gemini's
// functionCall.args or Anthropic's tool_use.input arrive) into the zero
// value of the plan's type at dst, validating them. A nil map means {}.
//
// Nested objects are map[string]any, arrays []any, and scalars any Go
// bool, string, integer or float kind or json.Number; other Go values are
// marshalled to JSON and decoded from that (slow, but correct). Values for
// `any` fields are kept as given. The result is nil or an *[ArgErrors].
func (p *Plan) DecodeMap(dst unsafe.Pointer, args map[string]any) error {
	return p.DecodeMapLimits(dst, args, Limits{})
}

func (d *decoder) decodeMap(p *Plan, dst unsafe.Pointer, args map[string]any) {
	switch p.root.kind {
	case kStruct:
		d.mstruct(p.root.st, dst, args)
	case kMap:
		if args == nil {
			d.emptyArgs(p.root, dst)
		} else {
			d.mmap(p.root, dst, args)
		}
	case kAny:
		if args == nil {
			args = map[string]any{}
		}
		if d.checkValue(args) {
			*(*any)(dst) = args
		}
	}
}

// mvalue decodes the Go value v into the node n at p: it takes null,
// and hands the rest to the decoder of n's kind. Each charges the value
// what it would be as compact JSON text (Limits.MaxBytes); its container
// charged the key and the separators around it.
func (d *decoder) mvalue(n *node, p unsafe.Pointer, v any) {
	if v == nil {
		if d.spend(4) {
			d.null(n, p)
		}
		return
	}
	switch n.kind {
	case kString:
		d.mstr(n, p, v)
	case kInt, kUint:
		d.mint(n, p, v)
	case kFloat:
		d.mfloat(n, p, v)
	case kBool:
		d.mbool(n, p, v)
	case kNum:
		d.mnumber(n, p, v)
	case kStruct, kMap:
		d.mobject(n, p, v)
	case kSlice, kArray:
		d.marrayOf(n, p, v)
	case kPtr:
		ptr := d.newPointee(n.elem)
		d.mvalue(n.elem, ptr, v)
		*(*unsafe.Pointer)(p) = ptr
	case kBytes:
		d.mbytes(n, p, v)
	case kTime:
		d.mtime(n, p, v)
	case kText:
		d.mtext(n, p, v)
	case kAny:
		if d.checkValue(v) {
			*(*any)(p) = v
		}
	case kJSONU, kRaw:
		d.mmarshalled(n, p, v)
	}
}

// mstr decodes a Go string (or a value of a named string type) into a
// string node.
func (d *decoder) mstr(n *node, p unsafe.Pointer, v any) {
	s, ok := v.(string)
	if !ok {
		if s, ok = otherString(v); !ok {
			d.fail(ErrType, n.want, gotValue(v))
			return
		}
	}
	if d.mstring(s) && d.checkStr(n, s) {
		*(*string)(p) = s
	}
}

// mbool decodes a Go bool (or a value of a named bool type) into a bool
// node.
func (d *decoder) mbool(n *node, p unsafe.Pointer, v any) {
	b, ok := v.(bool)
	if !ok {
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Bool {
			d.fail(ErrType, n.want, gotValue(v))
			return
		}
		b = rv.Bool()
	}
	if d.spend(boolLen(b)) {
		d.putBool(n, p, b)
	}
}

// mnumber decodes a json.Number or a float64 into a json.Number node.
func (d *decoder) mnumber(n *node, p unsafe.Pointer, v any) {
	switch x := v.(type) {
	case json.Number:
		if !validNumber(x) {
			d.fail(ErrType, n.want, gotValue(v))
			return
		}
		if d.spend(len(x)) {
			*(*json.Number)(p) = x
		}
	case float64:
		if d.finite(x, v) {
			*(*json.Number)(p) = json.Number(strconv.FormatFloat(x, 'g', -1, 64))
		}
	default:
		d.fail(ErrType, n.want, gotValue(v))
	}
}

// mobject decodes a map[string]any into a struct or map node, and any
// other Go map or struct through its JSON.
func (d *decoder) mobject(n *node, p unsafe.Pointer, v any) {
	m, ok := v.(map[string]any)
	switch {
	case !ok:
		d.composite(n, p, v, reflect.Map, reflect.Struct)
	case n.kind == kStruct:
		d.mstruct(n.st, p, m)
	default:
		d.mmap(n, p, m)
	}
}

// marrayOf decodes a []any into a slice or array node, and any other Go
// slice or array through its JSON.
func (d *decoder) marrayOf(n *node, p unsafe.Pointer, v any) {
	a, ok := v.([]any)
	switch {
	case !ok:
		d.composite(n, p, v, reflect.Slice, reflect.Array)
	case n.kind == kSlice:
		d.mslice(n, p, a)
	default:
		d.marray(n, p, a)
	}
}

// mbytes decodes a base64 string, or a []byte as it is, into a []byte
// node.
func (d *decoder) mbytes(n *node, p unsafe.Pointer, v any) {
	switch x := v.(type) {
	case string:
		if !d.spend(jsonwire.StringLen(x)) {
			return
		}
		out, err := decodeBase64([]byte(x))
		if err != nil {
			d.failCause(ErrType, n.want, gotValue(v), err)
			return
		}
		*(*[]byte)(p) = out
	case []byte:
		if d.spend(base64Len(len(x))) {
			*(*[]byte)(p) = x
		}
	default:
		d.fail(ErrType, n.want, gotValue(v))
	}
}

// mtime decodes an RFC 3339 string, or a time.Time as it is, into a
// time.Time node.
func (d *decoder) mtime(n *node, p unsafe.Pointer, v any) {
	switch x := v.(type) {
	case string:
		if !d.mstring(x) || !d.checkStr(n, x) {
			return
		}
		t, err := formats.ParseDateTime(x)
		if err != nil {
			d.failCause(ErrType, n.want, gotValue(v), err)
			return
		}
		*(*time.Time)(p) = t
	case time.Time:
		if d.spend(timeLen(x)) {
			*(*time.Time)(p) = x
		}
	default:
		d.fail(ErrType, n.want, gotValue(v))
	}
}

// mtext decodes a string into a node whose type decodes itself from
// text (encoding.TextUnmarshaler).
func (d *decoder) mtext(n *node, p unsafe.Pointer, v any) {
	s, ok := v.(string)
	if !ok {
		if s, ok = otherString(v); !ok {
			d.fail(ErrType, n.want, gotValue(v))
			return
		}
	}
	if !d.mstring(s) || !d.checkStr(n, s) {
		return
	}
	u := reflect.NewAt(n.t, p).Interface().(encoding.TextUnmarshaler)
	if err := u.UnmarshalText([]byte(s)); err != nil {
		d.failCause(ErrType, "valid "+n.t.String(), gotValue(v), err)
	}
}

// mmarshalled decodes any value into a json.RawMessage node, or a node
// whose type decodes itself from JSON (json.Unmarshaler), through the
// value's JSON, once the value is checked as JSON text would be.
func (d *decoder) mmarshalled(n *node, p unsafe.Pointer, v any) {
	if !d.checkValue(v) {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		d.failCause(ErrType, n.want, gotValue(v), err)
		return
	}
	if n.kind == kRaw {
		*(*json.RawMessage)(p) = b
		return
	}
	u := reflect.NewAt(n.t, p).Interface().(json.Unmarshaler)
	if err := u.UnmarshalJSON(b); err != nil {
		d.failCause(ErrType, n.want, gotValue(v), err)
	}
}

// otherString reads a string from a named string type (not json.Number).
func otherString(v any) (string, bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.String || rv.Type() == numberType {
		return "", false
	}
	return rv.String(), true
}

// composite decodes an unusual Go value of one of the given kinds (a typed
// map, slice or struct; pointers are followed) by marshalling it to JSON.
func (d *decoder) composite(n *node, p unsafe.Pointer, v any, k1, k2 reflect.Kind) {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if k := rv.Kind(); k != k1 && k != k2 {
		d.fail(ErrType, n.want, gotValue(v))
		return
	}
	if !d.checkValue(v) {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		d.failCause(ErrType, n.want, gotValue(v), err)
		return
	}
	data, i := d.data, d.i
	d.data, d.i = b, 0
	d.jvalue(n, p)
	d.data, d.i = data, i
}

// mint decodes a Go number into an integer node.
func (d *decoder) mint(n *node, p unsafe.Pointer, v any) {
	var (
		neg  bool
		mag  uint64
		st   numStatus
		size int // as JSON text
	)
	switch x := v.(type) {
	case float64:
		neg, mag, st = floatToInt(x)
		size = floatLen(x, 64)
	case int:
		neg, mag = x < 0, absInt(int64(x))
	case int64:
		neg, mag = x < 0, absInt(x)
	case int32:
		neg, mag = x < 0, absInt(int64(x))
	case float32:
		neg, mag, st = floatToInt(float64(x))
		size = floatLen(float64(x), 32)
	case uint64:
		mag = x
	case json.Number:
		if !validNumber(x) {
			d.fail(ErrType, n.want, gotValue(v))
			return
		}
		neg, mag, st = parseIntLit(x)
		size = len(x)
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			neg, mag = rv.Int() < 0, absInt(rv.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			mag = rv.Uint()
		case reflect.Float32, reflect.Float64:
			neg, mag, st = floatToInt(rv.Float())
			size = floatLen(rv.Float(), rv.Type().Bits())
		default:
			d.fail(ErrType, n.want, gotValue(v))
			return
		}
	}
	if size == 0 { // a Go integer
		size = intLen(neg, mag)
	}
	if d.spend(size) {
		d.putInt(n, p, neg, mag, st, src{v: v, isMap: true})
	}
}

func absInt(x int64) uint64 {
	if x < 0 {
		return uint64(-x) // -(-1<<63) wraps to itself; as uint64 it is 1<<63
	}
	return uint64(x)
}

// mfloat decodes a Go number into a float node.
func (d *decoder) mfloat(n *node, p unsafe.Pointer, v any) {
	var (
		f    float64
		size int // as JSON text
	)
	switch x := v.(type) {
	case float64:
		f, size = x, floatLen(x, 64)
	case float32:
		f, size = float64(x), floatLen(float64(x), 32)
	case int:
		f, size = float64(x), signedLen(int64(x))
	case int64:
		f, size = float64(x), signedLen(x)
	case json.Number:
		if !validNumber(x) {
			d.fail(ErrType, n.want, gotValue(v))
			return
		}
		var err error
		if f, err = strconv.ParseFloat(string(x), n.bits); err != nil {
			f = math.Inf(1) // out of range; reported by putFloat
		}
		size = len(x)
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f, size = float64(rv.Int()), signedLen(rv.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			f, size = float64(rv.Uint()), intLen(false, rv.Uint())
		case reflect.Float32, reflect.Float64:
			f = rv.Float()
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				size = floatLen(f, rv.Type().Bits())
			}
		default:
			d.fail(ErrType, n.want, gotValue(v))
			return
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		size = 0 // not JSON: refused by putFloat
	}
	if d.spend(size) {
		d.putFloat(n, p, f, src{v: v, isMap: true})
	}
}

// mstruct decodes a map into the struct at base. Problems come in the
// order JSON text would give for keys in Go field order: present fields,
// then unknown keys (sorted), then missing required fields.
func (d *decoder) mstruct(sp *structPlan, base unsafe.Pointer, m map[string]any) {
	if !d.enter() {
		return
	}
	if !d.spend(openLen(len(m))) {
		return
	}
	var seen bitset
	seen.init(len(sp.fields))
	found := 0
	for i := range sp.fields {
		f := &sp.fields[i]
		v, ok := m[f.name]
		if !ok {
			continue
		}
		seen.set(i)
		found++
		if !d.spend(int(f.keyLen) + 1) {
			return
		}
		d.pushField(f)
		d.mvalue(f.node, f.ptr(base), v)
		d.pop()
		if d.fatal {
			return
		}
	}
	if found != len(m) {
		d.unknownKeys(sp, m, len(m)-found)
		if d.fatal {
			return
		}
	}
	d.leave()
	d.finishStruct(sp, base, &seen)
}

// unknownKeys reports the n keys of m that are no field of sp, sorted.
// Only as many as the errors still have room for are kept and sorted;
// the rest are counted, so that many unknown keys cost no memory.
func (d *decoder) unknownKeys(sp *structPlan, m map[string]any, n int) {
	room := d.errs.Room()
	keep := make([]string, 0, min(n, room))
	for k := range m {
		if _, ok := sp.byName[k]; ok {
			continue
		}
		if !d.spend(jsonwire.StringLen(k) + 2) {
			return
		}
		switch {
		case len(keep) < room:
			keep = append(keep, k)
			if len(keep) == room {
				sort.Strings(keep)
			}
		case room > 0 && k < keep[room-1]:
			// Keep the room smallest keys: insert k, drop the largest.
			j := sort.SearchStrings(keep, k)
			copy(keep[j+1:], keep[j:room-1])
			keep[j] = k
		}
	}
	sort.Strings(keep)
	for _, k := range keep {
		d.pushKey(k)
		d.fail(ErrUnknownField, sp.allowedWant, gotValue(m[k]))
		d.pop()
	}
	d.errs.Omitted += n - len(keep)
}

// mmap decodes a map into the map at p.
func (d *decoder) mmap(n *node, p unsafe.Pointer, m map[string]any) {
	if !d.enter() {
		return
	}
	if n.c != nil && n.c.maxProps >= 0 && len(m) > n.c.maxProps {
		// Too many to be accepted: not decoded.
		d.leave()
		d.fail(ErrConstraint, n.c.maxPropsWant, countOf(len(m), "property", "properties"))
		return
	}
	if !d.spend(openLen(len(m))) {
		return
	}
	if n.t == mapStringAnyType {
		out := make(map[string]any, len(m))
		for k, v := range m {
			d.pushKey(k)
			ok := d.mkey(k) && d.checkValue(v)
			d.pop()
			if d.fatal {
				return
			}
			if ok {
				out[k] = v
			}
		}
		*(*map[string]any)(p) = out
	} else {
		mv := reflect.NewAt(n.t, p).Elem()
		mv.Set(reflect.MakeMapWithSize(n.t, len(m)))
		tmp := reflect.New(n.elem.t)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys) // deterministic error order
		for _, k := range keys {
			if d.pastCap() {
				d.leave()
				return
			}
			d.pushKey(k)
			if !d.mkey(k) {
				// reported
			} else if kv, ok := mapKey(n, k); !ok {
				d.fail(ErrType, keyWant(n, k), echo.Quote(k, MaxEchoedKey))
			} else if mv.MapIndex(kv).IsValid() {
				// Unreachable while integer keys are canonical; kept as
				// a guard, as in JSON text.
				d.fail(ErrDuplicateKey, "each key once", "a second "+echo.Quote(k, MaxEchoedKey))
			} else {
				tmp.Elem().SetZero()
				d.mvalue(n.elem, tmp.UnsafePointer(), m[k])
				mv.SetMapIndex(kv, tmp.Elem())
			}
			d.pop()
			if d.fatal {
				return
			}
		}
	}
	d.leave()
	if n.c != nil {
		if w := checkProps(n.c, len(m)); w != "" {
			d.fail(ErrConstraint, w, countOf(len(m), "property", "properties"))
		}
	}
}

// mslice decodes a []any into the slice at p.
func (d *decoder) mslice(n *node, p unsafe.Pointer, a []any) {
	if !d.enter() {
		return
	}
	if n.c != nil && n.c.maxItems >= 0 && len(a) > n.c.maxItems {
		// Too many to be accepted: not decoded.
		d.leave()
		d.fail(ErrConstraint, n.c.maxItemsWant, countOf(len(a), "item", "items"))
		return
	}
	if !d.spend(openLen(len(a)) + len(a)) {
		return
	}
	if len(a) == 0 {
		*(*sliceHeader)(p) = sliceHeader{Data: unsafe.Pointer(&zeroBase)}
	} else {
		var data unsafe.Pointer
		capacity := len(a)
		if n.arrays.strings {
			data = d.takeSlots(len(a))
		} else {
			data, capacity = n.arrays.newExact(len(a))
		}
		size := n.elem.t.Size()
		for i, v := range a {
			if d.pastCap() {
				d.leave()
				return
			}
			d.pushIndex(i)
			d.mvalue(n.elem, unsafe.Add(data, uintptr(i)*size), v)
			d.pop()
			if d.fatal {
				return
			}
		}
		*(*sliceHeader)(p) = sliceHeader{Data: data, Len: len(a), Cap: capacity}
	}
	d.leave()
	d.checkSlice(n, p, len(a))
}

// marray decodes a []any into the Go array at p.
func (d *decoder) marray(n *node, p unsafe.Pointer, a []any) {
	if !d.enter() {
		return
	}
	if !d.spend(openLen(len(a)) + len(a)) {
		return
	}
	size := n.elem.t.Size()
	for i, v := range a {
		if i >= n.length {
			break
		}
		d.pushIndex(i)
		d.mvalue(n.elem, unsafe.Add(p, uintptr(i)*size), v)
		d.pop()
		if d.fatal {
			return
		}
	}
	d.leave()
	if len(a) != n.length {
		d.fail(ErrConstraint, "exactly "+countOf(n.length, "item", "items"), countOf(len(a), "item", "items"))
		return
	}
	d.checkSlice(n, p, len(a))
}

// mstring charges a string of map input, as the JSON text it would be
// (quotes and escapes included, so that a map and its text get the same
// verdict), and checks that it is UTF-8, as JSON text must be.
func (d *decoder) mstring(s string) bool {
	n, ok := jsonwire.StringLenUTF8(s)
	if !ok {
		d.fail(ErrSyntax, "valid UTF-8", gotString(s))
		return false
	}
	return d.spend(n)
}

// openLen is what a container of n items or members is charged besides
// them: its opening bracket, and its closing one when it is empty. An
// item is charged the separator after it (a comma, or the closing
// bracket), a member its key, its ':' and that separator.
func openLen(n int) int {
	if n == 0 {
		return 2
	}
	return 1
}

// mkey charges a key of map input, as mstring charges a string, with
// its ':' and the separator after its member, and checks that it is
// UTF-8.
func (d *decoder) mkey(k string) bool {
	n, ok := jsonwire.StringLenUTF8(k)
	if !ok {
		d.fail(ErrSyntax, "valid UTF-8 key", gotString(k))
		return false
	}
	return d.spend(n + 2)
}

// decodeBase64 decodes standard base64 with padding as RFC 4648 section
// 3.3 says: no line breaks or other bytes outside the alphabet (the
// decoder of encoding/base64 skips '\r' and '\n').
func decodeBase64(b []byte) ([]byte, error) {
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		return nil, base64.CorruptInputError(i)
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(b)))
	n, err := base64.StdEncoding.Decode(out, b)
	if err != nil {
		return nil, err
	}
	return out[:n], nil
}

// checkValue checks a Go value of map input that is kept or marshalled
// as it is (for any, json.RawMessage, json.Unmarshaler and map[string]any
// fields, and unusual Go values): nesting within MaxDepth (a cyclic value
// ends there), size within MaxBytes, UTF-8 strings and keys, finite
// numbers, and only values JSON can express. This is what JSON text gets
// from the scanner, so both ways give the same verdict, and it bounds
// what json.Marshal is later asked to walk. It reports whether v passed.
func (d *decoder) checkValue(v any) bool {
	ok := d.walk(v)
	return ok && !d.fatal
}

func (d *decoder) walk(v any) bool {
	switch x := v.(type) {
	case nil:
		return d.spend(4)
	case string:
		return d.mstring(x)
	case bool:
		return d.spend(boolLen(x))
	case json.Number:
		if !validNumber(x) {
			d.fail(ErrType, "a JSON number", gotValue(v))
			return false
		}
		return d.spend(len(x))
	case float64:
		return d.finite(x, v)
	case map[string]any:
		if !d.enter() {
			return false
		}
		ok := d.spend(openLen(len(x)))
		for k, e := range x {
			if ok = ok && d.mkey(k) && d.walk(e); !ok {
				break
			}
		}
		d.leave()
		return ok
	case []any:
		if !d.enter() {
			return false
		}
		ok := d.spend(openLen(len(x)) + len(x))
		for _, e := range x {
			if ok = ok && d.walk(e); !ok {
				break
			}
		}
		d.leave()
		return ok
	}
	return d.walkReflect(reflect.ValueOf(v))
}

func (d *decoder) finite(f float64, v any) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		d.fail(ErrType, "a finite number", gotValue(v))
		return false
	}
	return d.spend(floatLen(f, 64))
}

// walkReflect is walk for Go values of other types; pointers and
// interfaces count as a level, so that a cycle through them ends too.
func (d *decoder) walkReflect(rv reflect.Value) bool {
	switch rv.Kind() {
	case reflect.Invalid:
		return d.spend(4)
	case reflect.Bool:
		return d.spend(boolLen(rv.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return d.spend(signedLen(rv.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return d.spend(intLen(false, rv.Uint()))
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			d.fail(ErrType, "a finite number", strconv.FormatFloat(f, 'g', -1, 64))
			return false
		}
		return d.spend(floatLen(f, rv.Type().Bits()))
	case reflect.String:
		return d.mstring(rv.String())
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return d.spend(4)
		}
		if !d.enter() {
			return false
		}
		ok := d.walkReflect(rv.Elem())
		d.leave()
		return ok
	case reflect.Map:
		if rv.IsNil() {
			return d.spend(4)
		}
		if !d.enter() {
			return false
		}
		ok := d.spend(openLen(rv.Len()))
		for it := rv.MapRange(); ok && it.Next(); {
			switch k := it.Key(); k.Kind() {
			case reflect.String:
				ok = d.mkey(k.String())
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				ok = d.spend(signedLen(k.Int()) + 4) // "-12":,
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				ok = d.spend(intLen(false, k.Uint()) + 4)
			default: // a key of its own text (encoding.TextMarshaler): about
				ok = d.spend(8)
			}
			ok = ok && d.walkReflect(it.Value())
		}
		d.leave()
		return ok
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return d.spend(4)
		}
		if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
			return d.spend(base64Len(rv.Len()))
		}
		if !d.enter() {
			return false
		}
		ok := d.spend(openLen(rv.Len()) + rv.Len())
		for i := 0; ok && i < rv.Len(); i++ {
			ok = d.walkReflect(rv.Index(i))
		}
		d.leave()
		return ok
	case reflect.Struct:
		if rv.Type() == timeType && rv.CanInterface() {
			return d.spend(timeLen(rv.Interface().(time.Time)))
		}
		if !d.enter() {
			return false
		}
		// About: the Go names of the exported fields, not their JSON
		// names, and every field, omitempty or not.
		ok := d.spend(openLen(0))
		t := rv.Type()
		for i := 0; ok && i < t.NumField(); i++ {
			if t.Field(i).IsExported() {
				ok = d.spend(len(t.Field(i).Name)+4) && d.walkReflect(rv.Field(i))
			}
		}
		d.leave()
		return ok
	}
	d.fail(ErrType, "a JSON value", "a "+rv.Type().String())
	return false
}
