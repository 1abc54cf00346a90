package reflectx

import (
	"encoding"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"reflect"
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/echo"
	"github.com/toolnexus/toolnexus/internal/formats"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// DecodeJSON decodes JSON text into the zero value of the plan's type at
// dst, validating it. Empty, all-whitespace or `null` text means {}.
//
// The text is read in one pass by a scanner of this package, straight into
// the fields; only fields whose type implements json.Unmarshaler go through
// their own method. The result is nil or an *[ArgErrors].
func (p *Plan) DecodeJSON(dst unsafe.Pointer, data []byte) error {
	return p.DecodeJSONLimits(dst, data, Limits{})
}

func (d *decoder) decodeJSON(p *Plan, dst unsafe.Pointer, data []byte) {
	d.data = data
	switch empty, object := d.argsStart(); {
	case empty:
		d.emptyArgs(p.root, dst)
	case object:
		d.jvalue(p.root, dst)
		d.argsEnd()
	}
}

// argsStart reads the start of an arguments text, which must be one JSON
// object: empty reports text that is empty, all space or null (they mean
// {}), and object that d.i is at the object's '{'. Any other text gets its
// error here: one JSON value of another type a type error (ErrType,
// "object"), anything else (a value followed by more text included) a syntax error at its first byte expecting '{'
// (a word such as "nope" is not read as a misspelt null, which would mean
// no arguments: the message must not suggest sending it).
func (d *decoder) argsStart() (empty, object bool) {
	d.ws()
	if d.i == len(d.data) {
		return true, false
	}
	switch c := d.data[d.i]; {
	case c == '{':
		return false, true
	case c == 'n' && d.at("null"):
		d.i += len("null")
		d.ws()
		if d.i != len(d.data) {
			d.syntax("nothing after null")
			return false, false
		}
		return true, false
	case c == '[' || c == '"' || c == '-' || '0' <= c && c <= '9' || c == 't' && d.at("true") || c == 'f' && d.at("false"):
		if jsonwire.Check(d.data[d.i:], jsonwire.MaxDepth) != nil {
			// Not one JSON value either ("paths": [...], a string and
			// then members): no value's type is the point.
			d.syntax("'{'")
			return false, false
		}
		d.mismatch("object")
	default:
		d.syntax("'{'")
	}
	return false, false
}

// argsEnd checks that nothing but space follows the arguments object.
func (d *decoder) argsEnd() {
	if !d.fatal {
		d.ws()
		if d.i != len(d.data) {
			d.syntax("nothing after the object")
		}
	}
}

// at reports whether the text at d.i begins with word.
func (d *decoder) at(word string) bool {
	return len(d.data)-d.i >= len(word) && string(d.data[d.i:d.i+len(word)]) == word
}

// emptyArgs decodes {} into the root.
func (d *decoder) emptyArgs(root *node, dst unsafe.Pointer) {
	switch root.kind {
	case kStruct:
		var seen bitset
		seen.init(len(root.st.fields))
		d.finishStruct(root.st, dst, &seen)
	case kMap:
		reflect.NewAt(root.t, dst).Elem().Set(reflect.MakeMap(root.t))
	case kAny:
		*(*any)(dst) = map[string]any{}
	}
}

func (d *decoder) ws() {
	if d.i < len(d.data) && d.data[d.i] > ' ' {
		return // the common case: no whitespace
	}
	d.wsSlow()
}

func (d *decoder) wsSlow() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\n', '\r', '\t':
			d.i++
		default:
			return
		}
	}
}

// literal reads one of true, false, null. What came instead is a
// misspelt literal only when its letters begin the word ("tru"): any other
// word ("nope") is reported as no JSON value, without suggesting the
// literal.
func (d *decoder) literal(word string) bool {
	if d.at(word) {
		d.i += len(word)
		return true
	}
	n := 0
	for d.i+n < len(d.data) && n < len(word) && d.data[d.i+n] == word[n] {
		n++
	}
	if n > 1 && (d.i+n == len(d.data) || !isLetter(d.data[d.i+n])) {
		d.syntax("literal " + word)
	} else {
		d.syntax("a JSON value")
	}
	return false
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// mismatch skips the value at d.i and reports it as being of the wrong type.
func (d *decoder) mismatch(want string) {
	start := d.i
	d.skip()
	if !d.fatal {
		d.fail(ErrType, want, truncate(d.data[start:d.i]))
	}
}

// expectColon reads the ':' after an object key, with whitespace around.
func (d *decoder) expectColon() bool {
	d.ws()
	if d.i >= len(d.data) || d.data[d.i] != ':' {
		d.syntax("':' after object key")
		return false
	}
	d.i++
	d.ws()
	return true
}

// next reads what follows a member or element: ',' (true) or the closing
// byte (false, with ok). Anything else is a syntax error.
func (d *decoder) next(closing byte) (more, ok bool) {
	d.ws()
	if d.i < len(d.data) {
		switch d.data[d.i] {
		case ',':
			d.i++
			d.ws()
			return true, true
		case closing:
			d.i++
			return false, true
		}
	}
	if closing == '}' {
		d.syntax("',' or '}' after object member")
	} else {
		d.syntax("',' or ']' after array element")
	}
	return false, false
}

// key reads an object key; the bytes may alias d.scratch.
func (d *decoder) key() ([]byte, bool) {
	if d.i >= len(d.data) || d.data[d.i] != '"' {
		d.syntax("string key")
		return nil, false
	}
	k, ok := d.str()
	if !ok {
		return nil, false
	}
	if !d.expectColon() {
		return nil, false
	}
	return k, true
}

// str reads the string at d.i (a '"'). The result aliases d.data when the
// string has no escapes, else d.scratch. Invalid UTF-8 is a syntax error.
func (d *decoder) str() ([]byte, bool) {
	data := d.data
	start := d.i + 1
	i := start
	for {
		// Skip 8 plain bytes at a time: none of '"', '\\', a control byte
		// or a non-ASCII byte. The lowest flagged byte is a true match
		// (borrows only run upwards from one), and the loop below handles
		// whichever byte it stops at.
		for i+8 <= len(data) {
			w := binary.LittleEndian.Uint64(data[i : i+8])
			q := w ^ (swarOnes * '"')
			b := w ^ (swarOnes * '\\')
			m := ((q - swarOnes) &^ q) | ((b - swarOnes) &^ b) | ((w - swarOnes*0x20) &^ w) | w
			if m &= swarHigh; m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(data) {
			break
		}
		c := data[i]
		switch {
		case c == '"':
			d.i = i + 1
			return data[start:i], true
		case c == '\\':
			return d.strSlow(start, i)
		case c < 0x20:
			d.i = i
			d.syntax("string without raw control characters")
			return nil, false
		case c >= 0x80:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				d.i = i
				d.syntax("valid UTF-8")
				return nil, false
			}
			i += size
		default:
			i++
		}
	}
	d.i = len(data)
	d.syntax("closing '\"'")
	return nil, false
}

const (
	swarOnes = jsonwire.SWAROnes
	swarHigh = jsonwire.SWARHigh
)

// strSlow unescapes a string into d.scratch; data[start:i] has no escapes.
func (d *decoder) strSlow(start, i int) ([]byte, bool) {
	data := d.data
	buf := append(d.scratch[:0], data[start:i]...)
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			d.i = i + 1
			d.scratch = buf
			return buf, true
		case c == '\\':
			if i+1 >= len(data) {
				d.i = len(data)
				d.syntax("escape sequence")
				return nil, false
			}
			switch e := data[i+1]; e {
			case '"', '\\', '/':
				buf = append(buf, e)
				i += 2
			case 'b':
				buf = append(buf, '\b')
				i += 2
			case 'f':
				buf = append(buf, '\f')
				i += 2
			case 'n':
				buf = append(buf, '\n')
				i += 2
			case 'r':
				buf = append(buf, '\r')
				i += 2
			case 't':
				buf = append(buf, '\t')
				i += 2
			case 'u':
				r, n, ok := jsonwire.UnescapeU(data, i)
				if !ok {
					d.i = i
					d.syntax("4 hex digits after \\u")
					return nil, false
				}
				if r == utf8.RuneError && d.loneSurrogate(i) { // else an escaped U+FFFD
					return nil, false
				}
				i += n
				buf = utf8.AppendRune(buf, r)
			default:
				d.i = i
				d.syntax("valid escape sequence")
				return nil, false
			}
		case c < 0x20:
			d.i = i
			d.syntax("string without raw control characters")
			return nil, false
		case c >= 0x80:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				d.i = i
				d.syntax("valid UTF-8")
				return nil, false
			}
			buf = append(buf, data[i:i+size]...)
			i += size
		default:
			buf = append(buf, c)
			i++
		}
	}
	d.i = len(data)
	d.syntax("closing '\"'")
	return nil, false
}

// loneSurrogate reports whether the \\u escape at data[i:], which reads as
// U+FFFD, is half of a UTF-16 surrogate pair without its other half, and
// then ends the decode with ErrSyntax at the value's path. Such a string
// has no UTF-8 spelling: it is refused, as the reply reader refuses it
// (jsonwire), rather than read as U+FFFD, as encoding/json reads it. Map
// input cannot hold it (a Go string carrying its bytes is not UTF-8, and
// is refused as such).
func (d *decoder) loneSurrogate(i int) bool {
	if r, _ := jsonwire.Hex4(d.data, i+2); !utf16.IsSurrogate(r) {
		return false
	}
	d.i = i
	d.abort(ErrSyntax, "a valid UTF-16 surrogate pair", "lone surrogate "+string(d.data[i:i+6])+" at offset "+strconv.Itoa(i))
	d.errs.Errs[0].Path = d.pathString()
	return true
}

// fatalAt gives the error that ended the decode in item i of the array
// being read, read without a path step, that step, when the error names
// a path (a lone surrogate's does; other syntax errors name none).
func (d *decoder) fatalAt(i int) {
	if e := d.errs.Errs; len(e) == 1 && e[0].Path != "" {
		d.pushIndex(i)
		e[0].Path = d.pathString()
		d.pop()
	}
}

// number scans a number literal at d.i and returns it.
func (d *decoder) number() ([]byte, bool) {
	data := d.data
	start, i := d.i, d.i
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	default:
		s := i
		i = digits(data, i)
		if i == s {
			d.i = i
			d.syntax("digit")
			return nil, false
		}
	}
	if i < len(data) && data[i] == '.' {
		i++
		s := i
		if i = digits(data, i); i == s {
			d.i = i
			d.syntax("digit after decimal point")
			return nil, false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		s := i
		if i = digits(data, i); i == s {
			d.i = i
			d.syntax("digit in exponent")
			return nil, false
		}
	}
	d.i = i
	return data[start:i], true
}

// digits returns the offset after the decimal digits at data[i:].
func digits(data []byte, i int) int { return jsonwire.Digits(data, i) }

// skip reads and validates one value of any type.
func (d *decoder) skip() {
	if d.i >= len(d.data) {
		d.syntax("a JSON value")
		return
	}
	switch c := d.data[d.i]; {
	case c == '{':
		d.i++
		if !d.enter() {
			return
		}
		d.ws()
		if d.i < len(d.data) && d.data[d.i] == '}' {
			d.i++
			d.leave()
			return
		}
		for {
			if _, ok := d.key(); !ok {
				return
			}
			if d.skip(); d.fatal {
				return
			}
			more, ok := d.next('}')
			if !ok {
				return
			}
			if !more {
				break
			}
		}
		d.leave()
	case c == '[':
		d.i++
		if !d.enter() {
			return
		}
		d.ws()
		if d.i < len(d.data) && d.data[d.i] == ']' {
			d.i++
			d.leave()
			return
		}
		for {
			if d.skip(); d.fatal {
				return
			}
			more, ok := d.next(']')
			if !ok {
				return
			}
			if !more {
				break
			}
		}
		d.leave()
	case c == '"':
		d.str()
	case c == 't':
		d.literal("true")
	case c == 'f':
		d.literal("false")
	case c == 'n':
		d.literal("null")
	case c == '-' || ('0' <= c && c <= '9'):
		d.number()
	default:
		d.syntax("a JSON value")
	}
}

// jvalue decodes the value at d.i into the node n at p.
func (d *decoder) jvalue(n *node, p unsafe.Pointer) {
	if d.i >= len(d.data) {
		d.syntax("a JSON value")
		return
	}
	c := d.data[d.i]
	if c == 'n' && n.kind != kJSONU {
		if !d.literal("null") {
			return
		}
		d.null(n, p)
		return
	}
	switch n.kind {
	case kString:
		if c != '"' {
			d.mismatch(n.want)
			return
		}
		d.jstring(n, p)
	case kNum:
		if c != '-' && (c < '0' || c > '9') {
			d.mismatch(n.want)
			return
		}
		if lit, ok := d.number(); ok {
			*(*json.Number)(p) = json.Number(d.makeString(lit))
		}
	case kBool:
		if c != 't' && c != 'f' {
			d.mismatch(n.want)
			return
		}
		d.jbool(n, p, c)
	case kInt, kUint:
		if c != '-' && (c < '0' || c > '9') {
			d.mismatch(n.want)
			return
		}
		d.jint(n, p)
	case kFloat:
		if c != '-' && (c < '0' || c > '9') {
			d.mismatch(n.want)
			return
		}
		d.jfloat(n, p)
	case kBytes:
		b, start, ok := d.strValue(n, c)
		if !ok {
			return
		}
		out, err := decodeBase64(b)
		if err != nil {
			d.failCause(ErrType, n.want, truncate(d.data[start:d.i]), err)
			return
		}
		*(*[]byte)(p) = out
	case kTime:
		if c != '"' {
			d.mismatch(n.want)
			return
		}
		d.jtime(n, p)
	case kText:
		b, start, ok := d.strValue(n, c)
		if !ok {
			return
		}
		if n.c != nil && !d.checkStr(n, string(b)) {
			return
		}
		u := reflect.NewAt(n.t, p).Interface().(encoding.TextUnmarshaler)
		if err := u.UnmarshalText(b); err != nil {
			d.failCause(ErrType, "valid "+n.t.String(), truncate(d.data[start:d.i]), err)
		}
	case kJSONU:
		start := d.i
		if d.skip(); d.fatal {
			return
		}
		u := reflect.NewAt(n.t, p).Interface().(json.Unmarshaler)
		if err := u.UnmarshalJSON(d.data[start:d.i]); err != nil {
			d.failCause(ErrType, n.want, truncate(d.data[start:d.i]), err)
		}
	case kRaw:
		start := d.i
		if d.skip(); d.fatal {
			return
		}
		*(*json.RawMessage)(p) = append(json.RawMessage(nil), d.data[start:d.i]...)
	case kAny:
		v := d.anyValue()
		if !d.fatal {
			*(*any)(p) = v
		}
	case kStruct:
		if c != '{' {
			d.mismatch(n.want)
			return
		}
		d.object(n.st, p)
	case kMap:
		if c != '{' {
			d.mismatch(n.want)
			return
		}
		d.jmap(n, p)
	case kSlice:
		if c != '[' {
			d.mismatch(n.want)
			return
		}
		d.jslice(n, p)
	case kArray:
		if c != '[' {
			d.mismatch(n.want)
			return
		}
		d.jarray(n, p)
	case kPtr:
		ptr := d.newPointee(n.elem)
		d.member(n.elem, ptr)
		*(*unsafe.Pointer)(p) = ptr
	}
}

// The j* functions below decode the value at d.i, whose first byte has
// been checked to start a value of the node's JSON type, into the node n
// at p: jvalue's cases, which member and the loop over elements also call
// directly, skipping jvalue's null check and switch.

// jbool decodes true or false; c is the value's first byte.
func (d *decoder) jbool(n *node, p unsafe.Pointer, c byte) {
	if c == 't' {
		if d.literal("true") {
			d.putBool(n, p, true)
		}
	} else if d.literal("false") {
		d.putBool(n, p, false)
	}
}

// jint decodes a number into an int or uint node. An integer of at most
// 19 digits in plain form, the common case, is read in one pass; any
// other number goes through the scanner and parseIntLit.
func (d *decoder) jint(n *node, p unsafe.Pointer) {
	data, i := d.data, d.i
	neg := data[i] == '-'
	if neg {
		i++
	}
	first := i
	var mag uint64
	for i < len(data) && i-first < 19 {
		c := data[i] - '0'
		if c > 9 {
			break
		}
		mag = mag*10 + uint64(c)
		i++
	}
	// Plain: some digits, no leading zero, and not followed by another
	// digit, a fraction or an exponent.
	if i > first && (data[first] != '0' || i == first+1) && (i == len(data) || !numberTail(data[i])) {
		lit := data[d.i:i]
		d.i = i
		if mag == 0 {
			neg = false
		}
		d.putInt(n, p, neg, mag, numOK, src{raw: lit})
		return
	}
	lit, ok := d.number()
	if !ok {
		return
	}
	neg, mag, st := parseIntLit(lit)
	d.putInt(n, p, neg, mag, st, src{raw: lit})
}

// numberTail reports whether c may continue a number after its digits.
func numberTail(c byte) bool {
	return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E'
}

// jfloat decodes a number into a float node. A float64 in plain form
// (no exponent) of at most 15 digits, the common case, is read and
// converted in one pass, as fastFloat would; any other number goes
// through the scanner, fastFloat and strconv.
func (d *decoder) jfloat(n *node, p unsafe.Pointer) {
	data, i := d.data, d.i
	neg := data[i] == '-'
	if neg {
		i++
	}
	first := i
	var mant uint64
	for i < len(data) && data[i]-'0' <= 9 {
		mant = mant*10 + uint64(data[i]-'0')
		i++
	}
	nInt, nFrac := i-first, 0
	if i < len(data) && data[i] == '.' {
		i++
		for i < len(data) && data[i]-'0' <= 9 {
			mant = mant*10 + uint64(data[i]-'0')
			i++
			nFrac++
		}
	}
	if n.bits == 64 && nInt > 0 && (data[first] != '0' || nInt == 1) && (nFrac > 0 || data[i-1] != '.') &&
		nInt+nFrac <= 15 && (i == len(data) || (data[i] != 'e' && data[i] != 'E')) {
		// The digits are an exact integer below 2^53 and 10^nFrac is
		// exact: one division, rounded once.
		f := float64(mant)
		if nFrac > 0 {
			f /= exactPow10[nFrac]
		}
		if neg {
			f = -f
		}
		lit := data[d.i:i]
		d.i = i
		d.putFloat(n, p, f, src{raw: lit})
		return
	}
	d.jfloatSlow(n, p)
}

// jfloatSlow is jfloat's general case.
func (d *decoder) jfloatSlow(n *node, p unsafe.Pointer) {
	lit, ok := d.number()
	if !ok {
		return
	}
	f, ok := fastFloat(lit)
	var err error
	if !ok || n.bits != 64 {
		f, err = strconv.ParseFloat(string(lit), n.bits)
	}
	if err != nil {
		d.fail(ErrType, n.rangeWant, truncate(lit))
		return
	}
	d.putFloat(n, p, f, src{raw: lit})
}

// jtime decodes a JSON string (at d.i, a '"') into a time.Time node.
func (d *decoder) jtime(n *node, p unsafe.Pointer) {
	if n.c == nil && d.i+22 <= len(d.data) && d.data[d.i+21] == '"' {
		// The common form, read in place: when fastDateTime takes the
		// 20 bytes, none is a '"' or '\\', so they are the string.
		if t, ok := fastDateTime(d.data[d.i+1 : d.i+21]); ok {
			d.i += 22
			*(*time.Time)(p) = t
			return
		}
	}
	start := d.i
	b, ok := d.str()
	if !ok {
		return
	}
	if n.c != nil && !d.checkStr(n, string(b)) {
		return
	}
	t, err := parseDateTime(b)
	if err != nil {
		d.failCause(ErrType, n.want, truncate(d.data[start:d.i]), err)
		return
	}
	*(*time.Time)(p) = t
}

// jstring decodes the JSON string at d.i (a '"') into the string node n at
// p: jvalue's case for strings, which the loops over fields and over
// elements also call directly for a string, skipping the dispatch.
func (d *decoder) jstring(n *node, p unsafe.Pointer) {
	if d.strToArena(n, p) {
		return
	}
	b, ok := d.str()
	if !ok {
		return
	}
	// Checked before it is copied: a string breaking maxLength costs no
	// memory. (checkStr, inline.)
	if c := n.c; c != nil {
		s := unsafe.String(unsafe.SliceData(b), len(b))
		if w := checkStringLimit(c, s, d.lim.MaxPatternBytes); w != "" {
			d.fail(ErrConstraint, w, gotString(s))
			return
		}
	}
	*(*string)(p) = d.makeString(b)
}

// strToArena is jstring's common case: a string without escapes, control
// or non-ASCII bytes, which fits the room left in the arena, is copied
// there 8 bytes at a time while it is scanned, as str scans it. Up to 8
// bytes past the string are written too, within the arena and past what
// it has handed out (newPointee zeroes what it hands out). The string is
// checked before it is kept: one breaking a constraint leaves the arena
// as it was, and costs no memory. It reports false, having read nothing,
// for any other string, which str and makeString then take.
func (d *decoder) strToArena(n *node, p unsafe.Pointer) bool {
	start := d.i + 1
	// The bytes that may be read and written: the input after the '"',
	// as far as the arena has room. The loop reads and writes them
	// through pointers, k+8 <= limit keeping every access within both.
	limit := min(len(d.data)-start, len(d.arena)-d.alen)
	if limit <= 0 {
		return false
	}
	src := unsafe.Pointer(&d.data[start])
	dst := unsafe.Pointer(&d.arena[d.alen])
	k := 0
	for k+8 <= limit {
		w := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(src, k))[:])
		binary.LittleEndian.PutUint64((*[8]byte)(unsafe.Add(dst, k))[:], w)
		q := w ^ (swarOnes * '"')
		b := w ^ (swarOnes * '\\')
		m := ((q - swarOnes) &^ q) | ((b - swarOnes) &^ b) | ((w - swarOnes*0x20) &^ w) | w
		if m &= swarHigh; m != 0 {
			k += bits.TrailingZeros64(m) >> 3
			break
		}
		k += 8
	}
	if k+8 > limit {
		// The last bytes before the limit (the end of the input or of
		// the arena's room), one at a time.
		for ; k < limit; k++ {
			c := *(*byte)(unsafe.Add(src, k))
			if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
				break
			}
			*(*byte)(unsafe.Add(dst, k)) = c
		}
	}
	// Every byte before k is copied; the string ends at k if it is a '"'.
	if k >= limit || *(*byte)(unsafe.Add(src, k)) != '"' {
		return false
	}
	s := unsafe.String((*byte)(dst), k)
	if c := n.c; c != nil {
		if w := checkStringLimit(c, s, d.lim.MaxPatternBytes); w != "" {
			d.i = start + k + 1
			d.fail(ErrConstraint, w, gotString(s))
			return true
		}
	}
	d.i = start + k + 1
	if k == 0 {
		s = ""
	}
	d.alen += k
	d.copied += k
	*(*string)(p) = s
	return true
}

// null stores JSON null (or nil from a map) into n at p, where allowed.
func (d *decoder) null(n *node, p unsafe.Pointer) {
	switch n.kind {
	case kPtr, kMap:
		*(*unsafe.Pointer)(p) = nil
	case kSlice, kBytes:
		*(*sliceHeader)(p) = sliceHeader{}
	case kAny:
		*(*any)(p) = nil
	case kRaw:
		*(*json.RawMessage)(p) = json.RawMessage("null")
	case kJSONU:
		u := reflect.NewAt(n.t, p).Interface().(json.Unmarshaler)
		if err := u.UnmarshalJSON([]byte("null")); err != nil {
			d.failCause(ErrType, n.want, "null", err)
		}
	default:
		d.fail(ErrType, n.want, "null")
	}
}

// object decodes a JSON object into the struct at base.
func (d *decoder) object(sp *structPlan, base unsafe.Pointer) {
	d.i++ // '{'
	if !d.enter() {
		return
	}
	var seen bitset
	seen.init(len(sp.fields))
	var unknown map[string]bool // unknown keys of this object, to report repeats as duplicates
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
	} else {
		fields := sp.fields
		guess := 0 // the field expected next: arguments usually follow the schema's order
		for {
			if guess < len(fields) && d.atKey(&fields[guess]) && !seen.has(guess) {
				// The common case, inline: the key expected next, as
				// is, with its ':', and not seen before.
				f := &fields[guess]
				d.i += int(f.klen)
				d.ws()
				seen.set(guess)
				guess++
				d.pushField(f)
				d.member(f.node, f.ptr(base))
				d.pop()
				if d.fatal {
					return
				}
			} else {
				var ok bool
				if guess, ok = d.objectMember(sp, base, &seen, &unknown, guess); !ok {
					return
				}
			}
			if d.i < len(d.data) && d.data[d.i] == ',' {
				// next's common case, inline: a comma right after the value.
				d.i++
				d.ws()
				continue
			}
			more, ok := d.next('}')
			if !ok {
				return
			}
			if !more {
				break
			}
		}
	}
	d.leave()
	d.finishStruct(sp, base, &seen)
}

// objectMember decodes one member of an object into the struct at base,
// by any key: object's general case. guess is the field expected next;
// it returns the one expected after this member, and false when the
// decode stops (d.fatal).
func (d *decoder) objectMember(sp *structPlan, base unsafe.Pointer, seen *bitset, unknown *map[string]bool, guess int) (int, bool) {
	var k []byte // the key, when not verbatim
	idx, known := guess, true
	if !d.verbatimKey(sp, guess) {
		var ok bool
		if k, ok = d.key(); !ok {
			return 0, false
		}
		idx, known = sp.lookup(unsafe.String(unsafe.SliceData(k), len(k))) // not retained
	} else if d.fatal {
		return 0, false
	}
	switch {
	case !known && d.errs.Full():
		// Past the error cap: counted, not kept.
		if d.skip(); d.fatal {
			return 0, false
		}
		d.errs.Omitted++
	case !known:
		name := string(k)
		start := d.i
		if d.skip(); d.fatal {
			return 0, false
		}
		d.pushKey(name)
		if (*unknown)[name] {
			d.fail(ErrDuplicateKey, "each key once", "a second "+echo.Quote(name, MaxEchoedKey))
		} else {
			if *unknown == nil {
				*unknown = map[string]bool{}
			}
			(*unknown)[name] = true
			d.fail(ErrUnknownField, sp.allowedWant, truncate(d.data[start:d.i]))
		}
		d.pop()
	case seen.has(idx):
		f := &sp.fields[idx]
		if d.skip(); d.fatal {
			return 0, false
		}
		d.pushField(f)
		d.fail(ErrDuplicateKey, "each key once", "a second "+echo.Quote(f.name, MaxEchoedKey))
		d.pop()
	default:
		seen.set(idx)
		f := &sp.fields[idx]
		d.pushField(f)
		d.member(f.node, f.ptr(base))
		d.pop()
		if d.fatal {
			return 0, false
		}
	}
	return idx + 1, true
}

// member decodes the value at d.i into n at p as jvalue does, taking the
// common kinds of struct fields to their decoder directly: no null check
// and no switch over every kind when the value has the expected type.
func (d *decoder) member(n *node, p unsafe.Pointer) {
	if d.i < len(d.data) {
		c := d.data[d.i]
		switch n.kind {
		case kString:
			if c == '"' {
				d.jstring(n, p)
				return
			}
		case kStruct:
			if c == '{' {
				d.object(n.st, p)
				return
			}
		case kSlice:
			if c == '[' {
				d.jslice(n, p)
				return
			}
		case kInt, kUint:
			if c == '-' || (c >= '0' && c <= '9') {
				d.jint(n, p)
				return
			}
		case kFloat:
			if c == '-' || (c >= '0' && c <= '9') {
				d.jfloat(n, p)
				return
			}
		case kBool:
			if c == 't' || c == 'f' {
				d.jbool(n, p, c)
				return
			}
		case kTime:
			if c == '"' {
				d.jtime(n, p)
				return
			}
		case kPtr:
			if c != 'n' {
				ptr := d.newPointee(n.elem)
				d.member(n.elem, ptr)
				*(*unsafe.Pointer)(p) = ptr
				return
			}
		}
	}
	d.jvalue(n, p)
}

// verbatimKey reads the key at d.i and the ':' after it when the key is
// the name of field idx of sp spelled as is, the common case, which then
// costs one comparison instead of a scan and a lookup. It reports false,
// having read nothing, for any other key (decoded by the general path:
// escapes, unknown or out-of-order keys). A true result with d.fatal set
// means a syntax error after the key.
func (d *decoder) verbatimKey(sp *structPlan, idx int) bool {
	if idx >= len(sp.fields) {
		return false
	}
	f := &sp.fields[idx]
	if d.atKey(f) {
		d.i += int(f.klen)
		d.ws()
		return true
	}
	if !f.verbatim {
		return false
	}
	name := f.name
	start, end := d.i+1, d.i+1+len(name)
	if end >= len(d.data) || d.data[d.i] != '"' || d.data[end] != '"' || string(d.data[start:end]) != name {
		return false
	}
	d.i = end + 1
	d.expectColon()
	return true
}

// atKey reports whether the text at d.i starts with the key of f and
// its ':', without whitespace, as two words compared (f.kw, f.km).
func (d *decoder) atKey(f *field) bool {
	if f.klen == 0 || d.i+16 > len(d.data) {
		return false
	}
	w := (*[16]byte)(d.data[d.i : d.i+16])
	return binary.LittleEndian.Uint64(w[:8])&f.km[0] == f.kw[0] &&
		binary.LittleEndian.Uint64(w[8:])&f.km[1] == f.kw[1]
}

var mapStringAnyType = reflect.TypeFor[map[string]any]()

// jmap decodes a JSON object into the map at p.
func (d *decoder) jmap(n *node, p unsafe.Pointer) {
	d.i++ // '{'
	if !d.enter() {
		return
	}
	var (
		fast = n.t == mapStringAnyType
		m    map[string]any
		mv   reflect.Value
		tmp  reflect.Value
	)
	if fast {
		mp := (*map[string]any)(p)
		if *mp == nil {
			*mp = map[string]any{}
		}
		m = *mp
	} else {
		mv = reflect.NewAt(n.t, p).Elem()
		if mv.IsNil() {
			mv.Set(reflect.MakeMap(n.t))
		}
		tmp = reflect.New(n.elem.t)
	}
	count, end := 0, d.tailOf(n.c, false)
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
	} else {
		for {
			if end.stops(d, count) {
				d.skipTail(end, count, '}')
				return
			}
			count++
			kb, ok := d.key()
			if !ok {
				return
			}
			k := d.makeString(kb)
			d.pushKey(k)
			if fast {
				if _, dup := m[k]; dup {
					d.dupKey(k)
				} else if v := d.anyValue(); !d.fatal {
					m[k] = v
				}
			} else {
				kv, ok := mapKey(n, k)
				switch {
				case !ok:
					d.mismatchKey(n, k)
				case mv.MapIndex(kv).IsValid():
					d.dupKey(k)
				default:
					tmp.Elem().SetZero()
					d.jvalue(n.elem, tmp.UnsafePointer())
					mv.SetMapIndex(kv, tmp.Elem())
				}
			}
			d.pop()
			if d.fatal {
				return
			}
			more, ok := d.next('}')
			if !ok {
				return
			}
			if !more {
				break
			}
		}
	}
	d.leave()
	if n.c != nil {
		l := len(m)
		if !fast {
			l = mv.Len()
		}
		if w := checkProps(n.c, l); w != "" {
			d.fail(ErrConstraint, w, countOf(l, "property", "properties"))
		}
	}
}

// tail is where the decode of an array (items) or object may stop early:
// past its limit (maxItems or maxProperties of c; < 0 for none), or past the
// error cap; mark and omitted are the problems found before it began. It
// holds no strings, so that taking one costs a few stores.
type tail struct {
	limit         int
	c             *constraints
	items         bool
	mark, omitted int
}

// tailOf returns the tail of an array (items) or object with constraints c.
func (d *decoder) tailOf(c *constraints, items bool) tail {
	t := tail{limit: -1, c: c, items: items, mark: len(d.errs.Errs), omitted: d.errs.Omitted}
	switch {
	case c == nil:
	case items:
		t.limit = c.maxItems
	default:
		t.limit = c.maxProps
	}
	return t
}

// stops reports whether the decode stops before item or member count.
func (t *tail) stops(d *decoder, count int) bool { return count == t.limit || d.pastCap() }

// skipTail skips the rest of an array or object that has count items or
// members so far, without decoding them. When the total is over t's
// limit, the problems found in it give way to the one that it has too
// many, as for map input, which is not decoded at all then.
func (d *decoder) skipTail(t tail, count int, closing byte) {
	rest, ok := d.skipRest(closing)
	if !ok {
		return
	}
	d.leave()
	if t.limit < 0 || count+rest <= t.limit {
		return
	}
	if t.mark < len(d.errs.Errs) {
		d.errs.Errs = d.errs.Errs[:t.mark]
	}
	d.errs.Omitted = t.omitted
	if t.items {
		d.fail(ErrConstraint, t.c.maxItemsWant, countOf(count+rest, "item", "items"))
	} else {
		d.fail(ErrConstraint, t.c.maxPropsWant, countOf(count+rest, "property", "properties"))
	}
}

// skipRest skips the remaining members (closing '}') or elements (']') of
// an object or array, from the start of the next one, and its closing
// byte; it returns how many it skipped, and false on a syntax error.
func (d *decoder) skipRest(closing byte) (int, bool) {
	count := 0
	for {
		if closing == '}' {
			if _, ok := d.key(); !ok {
				return count, false
			}
		}
		if d.skip(); d.fatal {
			return count, false
		}
		count++
		more, ok := d.next(closing)
		if !ok {
			return count, false
		}
		if !more {
			return count, true
		}
	}
}

// pastCap reports whether problems are already being omitted: the
// arguments are rejected whatever follows, so the rest of an array or
// object is skipped (its syntax and depth still checked) without
// decoding or allocating, and Omitted counts the problems found before.
func (d *decoder) pastCap() bool { return d.errs.Omitted > 0 }

// dupKey skips the value of a repeated key and reports it.
func (d *decoder) dupKey(k string) {
	if d.skip(); !d.fatal {
		d.fail(ErrDuplicateKey, "each key once", "a second "+echo.Quote(k, MaxEchoedKey))
	}
}

// mismatchKey skips the value of a key that does not fit the map's key type.
func (d *decoder) mismatchKey(n *node, k string) {
	if d.skip(); d.fatal {
		return
	}
	d.fail(ErrType, keyWant(n, k), echo.Quote(k, MaxEchoedKey))
}

// keyWant is what a map with integer keys wanted instead of key k: a key
// in canonical form, or one within the key type's range.
func keyWant(n *node, k string) string {
	kt := n.t.Key()
	signed := kt.Kind() >= reflect.Int && kt.Kind() <= reflect.Int64
	if !formats.IntegerKey(k, signed) {
		return "integer key for " + n.t.String()
	}
	bits := kt.Bits()
	if signed {
		return fmt.Sprintf("integer key from %d to %d for %s", -(int64(1) << (bits - 1)), int64(1)<<(bits-1)-1, n.t)
	}
	return fmt.Sprintf("integer key from 0 to %d for %s", uint64(1)<<(bits-1)*2-1, n.t)
}

// mapKey converts an object key to the map's key type. An integer key must
// be in canonical decimal form (formats.IntegerKey) and in the key type's
// range, so that two keys never name one entry.
func mapKey(n *node, k string) (reflect.Value, bool) {
	kt := n.t.Key()
	switch n.keyKind {
	case reflect.String:
		return reflect.ValueOf(k).Convert(kt), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		// Only the canonical form the schema's propertyNames pattern
		// advertises: no "+", no leading zeros, no "-0".
		if !formats.IntegerKey(k, true) {
			return reflect.Value{}, false
		}
		i, err := strconv.ParseInt(k, 10, kt.Bits())
		if err != nil {
			return reflect.Value{}, false
		}
		v := reflect.New(kt).Elem()
		v.SetInt(i)
		return v, true
	default:
		if !formats.IntegerKey(k, false) {
			return reflect.Value{}, false
		}
		u, err := strconv.ParseUint(k, 10, kt.Bits())
		if err != nil {
			return reflect.Value{}, false
		}
		v := reflect.New(kt).Elem()
		v.SetUint(u)
		return v, true
	}
}

// jslice decodes a JSON array into the slice at p. Elements of plain
// string slices go to the call's string slots: the slices of one call
// share their backing arrays, each with a capacity of its length, so that
// an append to one never writes into another.
func (d *decoder) jslice(n *node, p unsafe.Pointer) {
	d.i++ // '['
	if !d.enter() {
		return
	}
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		d.leave()
		*(*sliceHeader)(p) = sliceHeader{Data: unsafe.Pointer(&zeroBase)}
		d.checkSlice(n, p, 0)
		return
	}
	strs, start := n.arrays.strings, d.slen
	size := n.elem.size
	var (
		data     unsafe.Pointer
		capacity int
		chunks   elemChunks // the elements, when not strings
	)
	length := 0
	end := d.tailOf(n.c, true)
	for {
		if end.stops(d, length) {
			d.skipTail(end, length, ']')
			return
		}
		var ep unsafe.Pointer // the element's place
		switch {
		case strs:
			if d.slen == len(d.slots) {
				d.growSlots(length)
				start = 0
			}
			d.slen++
			ep = unsafe.Pointer(&d.slots[d.slen-1])
		case length-chunks.fullLen == chunks.curCap:
			chunks.grow(n.arrays)
			fallthrough
		default:
			ep = unsafe.Add(chunks.cur, uintptr(length-chunks.fullLen)*size)
		}
		plain := strs && n.elem.c == nil && d.i < len(d.data) && d.data[d.i] == '"'
		if plain {
			// A plain string records no problem but a syntax error,
			// which ends the decode: no path step, unless one is needed.
			d.jstring(n.elem, ep)
		} else {
			d.pushIndex(length)
			d.member(n.elem, ep)
			d.pop()
		}
		length++
		if d.fatal {
			if plain {
				d.fatalAt(length - 1)
			}
			return
		}
		if d.i < len(d.data) && d.data[d.i] == ',' {
			d.i++ // next's common case, inline
			d.ws()
			continue
		}
		more, ok := d.next(']')
		if !ok {
			return
		}
		if !more {
			break
		}
	}
	d.leave()
	if strs {
		d.used += length
		data, capacity = unsafe.Pointer(&d.slots[start]), length
	} else {
		data, capacity = chunks.slice(n, length)
	}
	*(*sliceHeader)(p) = sliceHeader{Data: data, Len: length, Cap: capacity}
	d.checkSlice(n, p, length)
}

// elemChunks gathers the elements of a JSON array decoded into a slice
// whose elements are not plain strings, as anyItems does for []any: in
// arrays (chunks) of 4 elements, then twice as many up to maxChunk, never
// copied until the end, when a slice of more than one chunk is made once
// at its exact length. A backing array doubled and copied at each growth
// allocates up to four times the final slice, this at most about twice.
type elemChunks struct {
	full    []elemChunk    // the full chunks before cur, in order
	fullLen int            // the elements in them
	cur     unsafe.Pointer // the chunk being filled
	curCap  int            // its capacity (0: none yet)
}

type elemChunk struct {
	p unsafe.Pointer
	n int
}

// maxChunk bounds the elements of one chunk of elemChunks.
const maxChunk = 1024

// grow starts a new chunk, the current one being full.
func (c *elemChunks) grow(a *arrayTypes) {
	if c.cur != nil {
		c.full = append(c.full, elemChunk{c.cur, c.curCap})
		c.fullLen += c.curCap
	}
	c.cur, c.curCap = a.newArray(min(max(4, 2*c.curCap), maxChunk))
}

// slice returns the backing array of the slice of node n that holds the
// length elements gathered, with its capacity: the only chunk as it is,
// or a new array of exactly length elements with the chunks copied in.
func (c *elemChunks) slice(n *node, length int) (unsafe.Pointer, int) {
	if len(c.full) == 0 {
		return c.cur, c.curCap
	}
	out := reflect.MakeSlice(n.t, length, length)
	dst := out.UnsafePointer()
	at := 0
	put := func(p unsafe.Pointer, k int) {
		// A typed copy, so that pointers in the elements are seen by the GC.
		reflect.Copy(reflect.SliceAt(n.elem.t, unsafe.Add(dst, uintptr(at)*n.elem.size), k), reflect.SliceAt(n.elem.t, p, k))
		at += k
	}
	for _, ch := range c.full {
		put(ch.p, ch.n)
	}
	put(c.cur, length-c.fullLen)
	return dst, length
}

// jarray decodes a JSON array into the Go array at p.
func (d *decoder) jarray(n *node, p unsafe.Pointer) {
	d.i++ // '['
	if !d.enter() {
		return
	}
	d.ws()
	count := 0
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
	} else {
		size := n.elem.t.Size()
		for {
			if count < n.length {
				d.pushIndex(count)
				d.jvalue(n.elem, unsafe.Add(p, uintptr(count)*size))
				d.pop()
			} else {
				d.skip()
			}
			count++
			if d.fatal {
				return
			}
			more, ok := d.next(']')
			if !ok {
				return
			}
			if !more {
				break
			}
		}
	}
	d.leave()
	if count != n.length {
		d.fail(ErrConstraint, "exactly "+countOf(n.length, "item", "items"), countOf(count, "item", "items"))
		return
	}
	d.checkSlice(n, p, count)
}

// anyValue decodes any JSON value as encoding/json does into an interface,
// except that numbers become json.Number (never rounded).
func (d *decoder) anyValue() any {
	if d.i >= len(d.data) {
		d.syntax("a JSON value")
		return nil
	}
	switch c := d.data[d.i]; {
	case c == '{':
		d.i++
		if !d.enter() {
			return nil
		}
		m := map[string]any{}
		d.ws()
		if d.i < len(d.data) && d.data[d.i] == '}' {
			d.i++
			d.leave()
			return m
		}
		for {
			if d.pastCap() {
				d.skipTail(tail{limit: -1}, 0, '}')
				return nil
			}
			kb, ok := d.key()
			if !ok {
				return nil
			}
			k := d.makeString(kb)
			d.pushKey(k)
			if _, dup := m[k]; dup {
				d.dupKey(k)
			} else if v := d.anyValue(); !d.fatal {
				m[k] = v
			}
			d.pop()
			if d.fatal {
				return nil
			}
			more, ok := d.next('}')
			if !ok {
				return nil
			}
			if !more {
				break
			}
		}
		d.leave()
		return m
	case c == '[':
		d.i++
		if !d.enter() {
			return nil
		}
		d.ws()
		if d.i < len(d.data) && d.data[d.i] == ']' {
			d.i++
			d.leave()
			return []any{}
		}
		var items anyItems
		for {
			if d.pastCap() {
				d.skipTail(tail{limit: -1}, 0, ']')
				return nil
			}
			d.pushIndex(items.n)
			v := d.anyValue()
			d.pop()
			if d.fatal {
				return nil
			}
			items.add(v)
			more, ok := d.next(']')
			if !ok {
				return nil
			}
			if !more {
				break
			}
		}
		d.leave()
		return items.slice()
	case c == '"':
		b, ok := d.str()
		if !ok {
			return nil
		}
		return d.makeString(b)
	case c == 't':
		d.literal("true")
		return true
	case c == 'f':
		d.literal("false")
		return false
	case c == 'n':
		d.literal("null")
		return nil
	case c == '-' || ('0' <= c && c <= '9'):
		lit, ok := d.number()
		if !ok {
			return nil
		}
		if len(lit) == 1 {
			return digitNumbers[lit[0]-'0'] // boxed once, not per value
		}
		return json.Number(lit)
	}
	d.syntax("a JSON value")
	return nil
}

// digitNumbers are the one-digit numbers, as interface values.
var digitNumbers = [10]any{json.Number("0"), json.Number("1"), json.Number("2"), json.Number("3"), json.Number("4"),
	json.Number("5"), json.Number("6"), json.Number("7"), json.Number("8"), json.Number("9")}

// anyItems gathers the items of a JSON array decoded into an interface,
// so that the []any is made once at its exact length: not grown by append,
// which for a long array allocates about five times its final size. The
// first items go in first (on the stack); then in chunks that grow to
// 1,024 items and are never copied until the end.
type anyItems struct {
	first  [8]any
	cur    []any
	chunks [][]any
	n      int
}

func (c *anyItems) add(v any) {
	if c.n < len(c.first) {
		c.first[c.n] = v
		c.n++
		return
	}
	if len(c.cur) == cap(c.cur) {
		if c.cur != nil {
			c.chunks = append(c.chunks, c.cur)
		}
		c.cur = make([]any, 0, min(2*max(cap(c.cur), len(c.first)), 1024))
	}
	c.cur = append(c.cur, v)
	c.n++
}

// slice returns the items as a slice of length and capacity n.
func (c *anyItems) slice() []any {
	out := make([]any, 0, c.n)
	out = append(out, c.first[:min(c.n, len(c.first))]...)
	for _, ch := range c.chunks {
		out = append(out, ch...)
	}
	return append(out, c.cur...)
}

// strValue reads the JSON string that a string-encoded kind (bytes, time,
// text) takes, recording a type mismatch for any other token; start is the
// token's offset, for error messages.
func (d *decoder) strValue(n *node, c byte) (b []byte, start int, ok bool) {
	if c != '"' {
		d.mismatch(n.want)
		return nil, 0, false
	}
	start = d.i
	b, ok = d.str()
	return b, start, ok
}
