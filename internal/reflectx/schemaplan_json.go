package reflectx

import (
	"bytes"
	"encoding/binary"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/echo"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// The validation of JSON text against a SchemaPlan: one pass of the
// decoder's scanner (its syntax, UTF-8, depth and size rules, its path
// stack and its capped error list), each value checked against its
// schema where it stands with the decoder's check functions. Nothing is
// decoded or kept: the text is the arguments the handler gets.

// emptyArgs is what empty, blank and null arguments mean.
var emptyArgs = []byte("{}")

// Work bounds: a schema whose anyOf, oneOf or allOf branches read one
// value again per branch (and those inside them again) could otherwise
// cost time exponential in the nesting. Each value visited costs one
// step, and each 16 bytes of a string one more; a validation may take
// stepsPerByte steps per byte of the arguments, and minSteps.
const (
	stepsPerByte = 4
	minSteps     = 1 << 12
)

// ValidateJSON validates arguments, JSON text, against the plan within
// lim: one JSON object ([ValidateValue]'s rules), or empty, blank or null
// text, which means {}. The result is nil or an *[ArgErrors].
func (p *SchemaPlan) ValidateJSON(data []byte, lim Limits) error {
	return p.validate(data, lim, true)
}

// ValidateValue validates one JSON value of any type against the plan
// within lim (for the plan's own tests and the JSON-Schema-Test-Suite):
// the syntax, UTF-8, nesting and size rules of [Plan.DecodeJSON], then
// every keyword. The result is nil or an *[ArgErrors].
func (p *SchemaPlan) ValidateValue(data []byte, lim Limits) error {
	return p.validate(data, lim, false)
}

func (p *SchemaPlan) validate(data []byte, lim Limits, args bool) error {
	d := getDecoder()
	d.lim = lim.resolve()
	if len(data) > d.lim.MaxBytes {
		d.abort(ErrTooLarge, "arguments of at most "+strconv.Itoa(d.lim.MaxBytes)+" bytes", strconv.Itoa(len(data))+" bytes")
		return d.finish()
	}
	d.data = data
	if args {
		switch empty, object := d.argsStart(); {
		case empty:
			d.data, d.i = emptyArgs, 0
		case !object:
			return d.finish()
		}
	} else {
		d.ws()
	}
	v := validatorPool.Get().(*validator)
	v.d, v.steps = d, stepsPerByte*len(d.data)+minSteps
	v.value(p.root)
	if args {
		d.argsEnd()
	} else if !d.fatal {
		d.ws()
		if d.i != len(d.data) {
			d.syntax("nothing after the value")
		}
	}
	v.d, v.probe, v.failed = nil, 0, false
	v.keys.reset()
	if cap(v.keys.buf) > 4<<10 {
		v.keys = keyer{}
	}
	validatorPool.Put(v)
	return d.finish()
}

// validatorPool keeps validators, for their keyer's buffers.
var validatorPool = sync.Pool{New: func() any { return new(validator) }}

// validator is the state of one validation beside the decoder's.
type validator struct {
	d *decoder
	// probe > 0 inside a trial of an anyOf or oneOf branch: a problem is
	// noted in failed, not recorded, and the rest of the value skipped.
	probe  int
	failed bool
	steps  int   // steps left
	keys   keyer // canonical keys of enum and const checks
}

// fail records a problem at the current path, or notes it in a trial.
func (v *validator) fail(sentinel error, want, got string) {
	if v.probe > 0 {
		v.failed = true
		return
	}
	v.d.fail(sentinel, want, got)
}

// failText is fail with the value at data[start:end] as what came.
func (v *validator) failText(sentinel error, want string, start, end int) {
	if v.probe > 0 {
		v.failed = true
		return
	}
	v.d.fail(sentinel, want, truncate(v.d.data[start:end]))
}

// failCount is fail with a count of items or properties as what came,
// rendered only when recorded.
func (v *validator) failCount(want string, n int, one, many string) {
	if v.probe > 0 {
		v.failed = true
		return
	}
	v.d.fail(ErrConstraint, want, countOf(n, one, many))
}

// spend takes n steps, aborting when they run out.
func (v *validator) spend(n int) bool {
	v.steps -= n
	return v.steps >= 0 || v.outOfSteps()
}

// outOfSteps aborts the validation: the schema asks for more work than
// the arguments' size allows.
func (v *validator) outOfSteps() bool {
	v.d.abort(ErrTooLarge, "arguments this schema checks in at most "+strconv.Itoa(stepsPerByte)+
		" steps per byte (each anyOf, oneOf and allOf branch reads its value again)", "more")
	return false
}

// pushName pushes a property name escaped for a JSON Pointer; popName
// pops it. The names are kept on the decoder's stack of input keys, as
// a stack: nothing refers to a name once its step is popped (an error's
// path is rendered when it is recorded).
func (v *validator) pushName(esc string) {
	d := v.d
	d.inKeys = append(d.inKeys, esc)
	d.path = append(d.path, pathElem{idx: -1, ref: -int32(len(d.inKeys))})
}

func (v *validator) popName() {
	d := v.d
	d.path = d.path[:len(d.path)-1]
	d.inKeys[len(d.inKeys)-1] = ""
	d.inKeys = d.inKeys[:len(d.inKeys)-1]
}

// value checks the value at d.i against n and moves past it.
func (v *validator) value(n *vnode) {
	d := v.d
	if !v.spend(1) {
		return
	}
	if d.i >= len(d.data) {
		d.syntax("a JSON value")
		return
	}
	if n == nil || v.probe > 0 && v.failed {
		d.skip()
		return
	}
	if n.refOnly {
		n = n.target()
	}
	if n.never {
		start := d.i
		if d.skip(); !d.fatal {
			v.failText(ErrConstraint, "no value here (the schema is false)", start, d.i)
		}
		return
	}
	if !n.applies {
		v.own(n)
		return
	}
	start := d.i
	if v.own(n); d.fatal {
		return
	}
	end := d.i
	v.apply(n, start, end)
	d.i = end
}

// kindOf is the JSON type of the value starting with c: jInteger|jNumber
// for any number.
func kindOf(c byte) uint8 {
	switch {
	case c == '{':
		return jObject
	case c == '[':
		return jArray
	case c == '"':
		return jString
	case c == 't' || c == 'f':
		return jBool
	case c == 'n':
		return jNull
	case c == '-' || c >= '0' && c <= '9':
		return jInteger | jNumber
	}
	return 0
}

// own checks the value at d.i against n's own keywords (not its
// applicators) and moves past it.
func (v *validator) own(n *vnode) {
	d := v.d
	c := d.data[d.i]
	k := kindOf(c)
	if k == 0 {
		d.syntax("a JSON value")
		return
	}
	if n.types != 0 && n.types&k == 0 {
		d.mismatchIn(v, n.typeWant)
		return
	}
	switch k {
	case jObject:
		v.object(n)
	case jArray:
		v.array(n)
	case jString:
		v.str(n)
	case jBool:
		word, key := "false", "f"
		if c == 't' {
			word, key = "true", "t"
		}
		if d.literal(word) {
			v.members(n, key, word)
		}
	case jNull:
		if d.literal("null") {
			v.members(n, "n", "null")
		}
	default:
		v.number(n)
	}
}

// mismatchIn skips the value at d.i and reports it as being of the wrong
// type, or notes it in a trial.
func (d *decoder) mismatchIn(v *validator, want string) {
	start := d.i
	if d.skip(); !d.fatal {
		v.failText(ErrType, want, start, d.i)
	}
}

// members checks n's enum and const against true, false or null, by its
// canonical key; got is the value's text.
func (v *validator) members(n *vnode, key, got string) {
	for _, set := range [2]*vset{n.enum, n.cnst} {
		if set == nil {
			continue
		}
		if _, ok := set.keys[key]; !ok {
			v.fail(ErrConstraint, set.want, got)
			return
		}
	}
}

// membersText is members for the value at data[start:end], keyed from
// its text.
func (v *validator) membersText(n *vnode, start, end int) {
	if n.enum == nil && n.cnst == nil {
		return
	}
	text := v.d.data[start:end]
	v.keys.reset()
	v.keys.text(text)
	for _, set := range [2]*vset{n.enum, n.cnst} {
		if set == nil {
			continue
		}
		if _, ok := set.keys[string(v.keys.buf)]; !ok || v.keys.opaque {
			v.failText(ErrConstraint, set.want, start, end)
			return
		}
	}
}

// str checks the string at d.i.
func (v *validator) str(n *vnode) {
	d := v.d
	start := d.i
	b, ok := d.str()
	if !ok || !v.spend(len(b)>>4) {
		return
	}
	if n.str != nil {
		s := unsafe.String(unsafe.SliceData(b), len(b)) // valid until the next string is read
		if w := checkStringLimit(n.str, s, d.lim.MaxPatternBytes); w != "" {
			if v.probe > 0 {
				v.failed = true
			} else {
				d.fail(ErrConstraint, w, gotString(s))
			}
			return
		}
	}
	if n.b64 {
		if _, err := decodeBase64(b); err != nil {
			if v.probe > 0 {
				v.failed = true
			} else {
				d.failCause(ErrType, "base64 string", truncate(d.data[start:d.i]), err)
			}
		}
	}
}

// number checks the number at d.i: its type, enum and const by value,
// then its bounds and multipleOf: an integer that fits int64 with
// checkInt, any other integer exactly from its text, a number with a
// fraction with checkFloat.
func (v *validator) number(n *vnode) {
	d := v.d
	start := d.i
	lit, ok := d.number()
	if !ok {
		return
	}
	var (
		neg bool
		mag uint64
		st  numStatus
	)
	if len(lit) <= 18 && plainDigits(lit) {
		// The common case: digits only (parseIntLit's fast path, without
		// its generic scan).
		for _, c := range lit {
			mag = mag*10 + uint64(c-'0')
		}
	} else {
		neg, mag, st = parseIntLit(lit)
	}
	if n.types != 0 && n.types&jNumber == 0 && st == numNotInteger {
		v.failText(ErrType, n.typeWant, start, d.i)
		return
	}
	if v.membersText(n, start, d.i); v.probe > 0 && v.failed {
		return
	}
	num := n.num
	if num == nil {
		return
	}
	var want string
	if i, ok := fitInt(neg, mag, 64); ok && st == numOK && !num.exact {
		want = checkInt(num.intC, i)
	} else {
		want = v.exact(num, lit)
	}
	if want != "" {
		v.failText(ErrConstraint, want, start, d.i)
	}
}

// plainDigits reports whether lit is a non-negative integer in plain
// form: decimal digits only.
func plainDigits(lit []byte) bool {
	for _, c := range lit {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// exact checks a number that checkInt does not (a fraction, an integer
// beyond int64 or a bound beyond it) from its literal: the bounds by
// comparing canonical decimals, multipleOf by a remainder, both exact and
// in time linear in the literal's length. It returns what was wanted, or
// "".
func (v *validator) exact(num *vnum, lit []byte) string {
	v.keys.reset()
	v.keys.number(lit)
	key := v.keys.buf
	if b := num.lo; b != nil {
		if c := cmpDecimal(key, b.key); c < 0 || c == 0 && b.exclusive {
			return b.want
		}
	}
	if b := num.hi; b != nil {
		if c := cmpDecimal(key, b.key); c > 0 || c == 0 && b.exclusive {
			return b.want
		}
	}
	if num.mult != nil && !divides(num.mult, num.multQ, key) {
		return num.multW
	}
	return ""
}

// decimal is a canonical decimal key (keyer.number) taken apart: the
// value is 0.digits × 10^exp, exp a decimal integer text.
type decimal struct {
	neg, zero   bool
	digits, exp []byte
}

func splitDecimal(key []byte) decimal {
	if len(key) >= 2 && key[1] == '0' {
		return decimal{zero: true}
	}
	k := key[1 : len(key)-1] // without 'd' and ';'
	d := decimal{}
	if k[0] == '-' {
		d.neg, k = true, k[1:]
	}
	e := bytes.IndexByte(k, 'e')
	d.digits, d.exp = k[:e], k[e+1:]
	return d
}

// cmpDecimal compares two canonical decimal keys by value, in time
// linear in their length.
func cmpDecimal(a, b []byte) int {
	x, y := splitDecimal(a), splitDecimal(b)
	sign := func(d decimal) int {
		switch {
		case d.zero:
			return 0
		case d.neg:
			return -1
		}
		return 1
	}
	if sx, sy := sign(x), sign(y); sx != sy || sx == 0 {
		return cmpInt(sx, sy)
	}
	c := cmpIntText(x.exp, y.exp)
	if c == 0 {
		c = bytes.Compare(x.digits, y.digits) // no trailing zeros: a prefix is the smaller
	}
	if x.neg {
		return -c
	}
	return c
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpIntText compares two decimal integer texts without leading zeros
// (an optional '-', then digits).
func cmpIntText(a, b []byte) int {
	na, nb := len(a) > 0 && a[0] == '-', len(b) > 0 && b[0] == '-'
	if na != nb {
		if na {
			return -1
		}
		return 1
	}
	if na {
		a, b = b[1:], a[1:]
	}
	if len(a) != len(b) {
		return cmpInt(len(a), len(b))
	}
	return bytes.Compare(a, b)
}

// maxFractionDigits bounds the fraction digits of a number that can be a
// multiple of a multipleOf of at most maxMultipleDigits digits: the value
// D/10^k (D without trailing zeros) is a multiple of p/q only if 10^k
// divides D·q, and D has no factor 10, so k is at most the number of 2s
// or 5s of q.
const maxFractionDigits = 4 * maxMultipleDigits

// divides reports whether the number whose canonical decimal key is key
// is a multiple of p/q (in lowest terms): the number is D × 10^e (D its
// digits), a multiple iff p divides D × 10^e for e >= 0, and iff p × 10^-e
// divides D × q for e < 0. The remainder of D is taken 18 digits at a
// time and that of 10^e by e's decimal digits, in time linear in the
// key's length (p and q have at most maxMultipleDigits digits).
func divides(p, q *big.Int, key []byte) bool {
	d := splitDecimal(key)
	if d.zero {
		return true
	}
	e := appendExponent(nil, d.exp, -int64(len(d.digits)))
	m := p
	fraction := e[0] == '-'
	if fraction {
		if len(e) > 5 {
			return false
		}
		k, _ := strconv.Atoi(string(e[1:]))
		if k > maxFractionDigits {
			return false
		}
		m = new(big.Int).Mul(p, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil))
	}
	var r, chunk, ten18 big.Int
	ten18.SetUint64(1e18)
	digits := d.digits
	for len(digits) > 0 {
		n := min(len(digits), 18)
		var c uint64
		for _, x := range digits[:n] {
			c = c*10 + uint64(x-'0')
		}
		scale := &ten18
		if n < 18 {
			scale = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
		}
		r.Mul(&r, scale)
		r.Add(&r, chunk.SetUint64(c))
		r.Mod(&r, m)
		digits = digits[n:]
	}
	if fraction {
		r.Mul(&r, q)
		return r.Mod(&r, m).Sign() == 0
	}
	pow := big.NewInt(1)
	ten := big.NewInt(10)
	for _, x := range e {
		pow.Exp(pow, ten, p)
		pow.Mul(pow, new(big.Int).Exp(ten, big.NewInt(int64(x-'0')), p))
		pow.Mod(pow, p)
	}
	r.Mul(&r, pow)
	return r.Mod(&r, p).Sign() == 0
}

// array checks the array at d.i.
func (v *validator) array(n *vnode) {
	d := v.d
	start := d.i
	d.i++ // '['
	if !d.enter() {
		return
	}
	var t tail
	if n.arr != nil {
		t = d.tailOf(n.arr, true)
	} else {
		t = tail{limit: -1, items: true, mark: len(d.errs.Errs), omitted: d.errs.Omitted}
	}
	unique := n.arr != nil && n.arr.unique
	var spans []int
	count := 0
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
	} else {
		for {
			if count == t.limit || v.probe == 0 && d.pastCap() {
				v.skipTail(t, count, ']')
				return
			}
			itemStart := d.i
			d.pushIndex(count)
			v.value(n.items)
			d.pop()
			if d.fatal {
				return
			}
			count++
			if unique {
				spans = append(spans, itemStart, d.i)
			}
			if d.i < len(d.data) && d.data[d.i] == ',' {
				d.i++
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
	}
	d.leave()
	if n.arr != nil {
		if w := checkItems(n.arr, count); w != "" {
			v.failCount(w, count, "item", "items")
		} else if unique && count > 1 && !(v.probe > 0 && v.failed) {
			data := d.data
			if j, i, dup := firstRepeat(count, func(k *keyer, j int) { k.text(data[spans[2*j]:spans[2*j+1]]) }); dup {
				if v.probe > 0 {
					v.failed = true
				} else {
					d.fail(ErrConstraint, "unique items", "item "+strconv.Itoa(j)+" repeats item "+strconv.Itoa(i))
				}
			}
		}
	}
	v.membersText(n, start, d.i)
}

// skipTail is decoder.skipTail for a validation: past maxItems or
// maxProperties the rest is skipped, and the problems found before give
// way to the one that there are too many.
func (v *validator) skipTail(t tail, count int, closing byte) {
	d := v.d
	rest, ok := d.skipRest(closing)
	if !ok {
		return
	}
	d.leave()
	if t.limit < 0 || count+rest <= t.limit {
		return
	}
	if v.probe > 0 {
		v.failed = true
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

// lookup returns the index of the property named k, or -1.
func (n *vnode) lookup(k []byte) int {
	if n.byName != nil {
		if i, ok := n.byName[string(k)]; ok {
			return i
		}
		return -1
	}
	for i := range n.props {
		if n.props[i].name == string(k) {
			return i
		}
	}
	return -1
}

// object checks the object at d.i.
func (v *validator) object(n *vnode) {
	d := v.d
	start := d.i
	d.i++ // '{'
	if !d.enter() {
		return
	}
	var seen bitset
	seen.init(len(n.props))
	var others keySet // undeclared keys read, to report repeats
	var t tail
	if n.obj != nil {
		t = d.tailOf(n.obj, false)
	} else {
		t = tail{limit: -1, mark: len(d.errs.Errs), omitted: d.errs.Omitted}
	}
	count, guess := 0, 0
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
	} else {
		for {
			if count == t.limit || v.probe == 0 && d.pastCap() {
				v.skipTail(t, count, '}')
				return
			}
			count++
			keyStart := d.i
			idx := guess
			name := "" // the key, when "properties" does not declare it
			if guess < len(n.props) && d.atWords(&n.props[guess]) && !seen.has(guess) {
				// The common case, inline: the property expected next,
				// spelled as is, with its ':', and not seen before.
				p := &n.props[guess]
				d.i += int(p.klen)
				d.ws()
				seen.set(guess)
				guess++
				v.pushName(p.esc)
				if p.node != nil && p.node.never {
					v.forbidden(n)
				} else {
					v.value(p.node)
				}
				v.popName()
			} else {
				if d.i >= len(d.data) || d.data[d.i] != '"' {
					d.syntax("string key")
					return
				}
				key, ok := d.str()
				if !ok {
					return
				}
				if idx = n.lookup(key); idx < 0 {
					name = d.keyString(key)
				}
				if !d.expectColon() {
					return
				}
				if idx >= 0 {
					guess = idx + 1
				}
				v.member(n, idx, name, &seen, &others)
			}
			if d.fatal {
				return
			}
			if n.names != nil {
				// propertyNames: the key, a JSON string, read again.
				end := d.i
				d.i = keyStart
				if idx >= 0 {
					v.pushName(n.props[idx].esc)
				} else {
					v.pushName(jsonwire.EscapeToken(name))
				}
				v.value(n.names)
				v.popName()
				d.i = end
				if d.fatal {
					return
				}
			}
			if d.i < len(d.data) && d.data[d.i] == ',' {
				// next's common case, inline.
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
	for _, i := range n.required {
		if !seen.has(i) {
			if v.probe > 0 {
				v.failed = true
				break
			}
			p := &n.props[i]
			v.pushName(p.esc)
			v.fail(ErrMissing, p.node.want()+" (required)", "nothing")
			v.popName()
		}
	}
	if n.obj != nil {
		if w := checkProps(n.obj, count); w != "" {
			v.failCount(w, count, "property", "properties")
		}
	}
	v.membersText(n, start, d.i)
}

// atWords reports whether the text at d.i starts with the key of p and
// its ':', without whitespace, as two words compared (decoder.atKey).
func (d *decoder) atWords(p *vprop) bool {
	if p.klen == 0 || d.i+16 > len(d.data) {
		return false
	}
	w := (*[16]byte)(d.data[d.i : d.i+16])
	return binary.LittleEndian.Uint64(w[:8])&p.km[0] == p.kw[0] &&
		binary.LittleEndian.Uint64(w[8:])&p.km[1] == p.kw[1]
}

// forbidden skips the value of a property whose schema is false and
// reports it as a property the object does not take.
func (v *validator) forbidden(n *vnode) {
	d := v.d
	start := d.i
	if d.skip(); !d.fatal {
		v.failText(ErrUnknownField, n.allowed, start, d.i)
	}
}

// member checks the value at d.i of the member whose key is property idx
// of n (-1: none; name is then the key), the general case of object's
// loop.
func (v *validator) member(n *vnode, idx int, name string, seen *bitset, others *keySet) {
	d := v.d
	if idx >= 0 && !n.props[idx].undeclared {
		p := &n.props[idx]
		v.pushName(p.esc)
		switch {
		case seen.has(idx):
			if d.skip(); !d.fatal {
				v.fail(ErrDuplicateKey, "each key once", "a second "+echo.Quote(p.name, MaxEchoedKey))
			}
		case p.node != nil && p.node.never:
			seen.set(idx)
			v.forbidden(n)
		default:
			seen.set(idx)
			v.value(p.node)
		}
		v.popName()
		return
	}
	v.other(n, idx, name, seen, others)
}

// other checks the value at d.i of a member whose key "properties" does
// not declare: additionalProperties decides.
func (v *validator) other(n *vnode, idx int, name string, seen *bitset, others *keySet) {
	d := v.d
	repeat := false
	if idx >= 0 {
		name = n.props[idx].name
		repeat = seen.has(idx)
		seen.set(idx)
	} else {
		repeat = others.add(name)
	}
	v.pushName(jsonwire.EscapeToken(name))
	start := d.i
	switch {
	case repeat:
		if d.skip(); !d.fatal {
			v.fail(ErrDuplicateKey, "each key once", "a second "+echo.Quote(name, MaxEchoedKey))
		}
	case n.closed:
		if d.skip(); !d.fatal {
			v.failText(ErrUnknownField, n.allowed, start, d.i)
		}
	default:
		v.value(n.addl)
	}
	v.popName()
}

// keyString returns the key b as read by str: aliasing the input when
// it has no escapes (the input outlives the validation), else a copy
// (str's scratch is reused by the next string).
func (d *decoder) keyString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(d.data)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if at >= start && at < start+uintptr(len(d.data)) {
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	return string(b)
}

// keySet is the keys of one object that "properties" does not declare,
// to find a repeated one: a few in place, then a map.
type keySet struct {
	few  [8]string
	n    int
	many map[string]struct{}
}

// add adds k and reports whether it was there already.
func (s *keySet) add(k string) bool {
	if s.many != nil {
		if _, ok := s.many[k]; ok {
			return true
		}
		s.many[k] = struct{}{}
		return false
	}
	for _, x := range s.few[:s.n] {
		if x == k {
			return true
		}
	}
	if s.n < len(s.few) {
		s.few[s.n] = k
		s.n++
		return false
	}
	s.many = make(map[string]struct{}, 2*len(s.few))
	for _, x := range s.few {
		s.many[x] = struct{}{}
	}
	s.many[k] = struct{}{}
	return false
}

// apply checks the value at data[start:end] against n's applicators,
// reading it again for each.
func (v *validator) apply(n *vnode, start, end int) {
	d := v.d
	again := func(b *vnode) bool {
		if !v.spend(1) {
			return false
		}
		d.i = start
		v.value(b)
		return !d.fatal
	}
	if n.ref != nil && !again(n.ref) {
		return
	}
	for _, b := range n.allOf {
		if !again(b) {
			return
		}
	}
	if n.anyOf != nil && !v.branches(n, n.anyOf, "anyOf", start, end) {
		return
	}
	if n.oneOf != nil {
		v.branches(n, n.oneOf, "oneOf", start, end)
	}
}

// branches checks the value at data[start:end] against anyOf (one
// branch at least) or oneOf (exactly one), trying the branches that
// admit its JSON type in order. When none passes and one branch admits
// the type, that branch's own problems are reported; otherwise one
// problem for the value. It reports false when the validation stops.
func (v *validator) branches(n *vnode, list []*vnode, keyword string, start, end int) bool {
	d := v.d
	kind := kindOf(d.data[start])
	one := keyword == "oneOf"
	passed, first, second := 0, -1, -1 // branches passed, the first two
	cands, cand := 0, -1
	for i, b := range list {
		t := b.target()
		if t.never || t.types != 0 && t.types&kind == 0 {
			continue
		}
		cands++
		cand = i
		if !v.spend(1) {
			return false
		}
		d.i = start
		v.probe++
		saved := v.failed
		v.failed = false
		v.value(b)
		ok := !v.failed
		v.failed = saved
		v.probe--
		if d.fatal {
			return false
		}
		if ok {
			if passed++; passed == 1 {
				first = i
			} else {
				second = i
			}
			if !one || passed == 2 {
				break
			}
		}
	}
	d.i = end
	switch {
	case passed == 1 || passed > 1 && !one:
	case v.probe > 0:
		v.failed = true // nothing rendered in a trial
	case passed > 1:
		v.fail(ErrConstraint, "a value valid against exactly one of the oneOf schemas",
			"a value valid against oneOf/"+strconv.Itoa(first)+" and oneOf/"+strconv.Itoa(second))
	case cands == 0:
		v.failText(ErrType, n.anyWant, start, end)
	case cands == 1:
		// The one branch of the value's type: its own problems say
		// best what to change.
		d.i = start
		v.value(list[cand])
		d.i = end
	default:
		v.failText(ErrConstraint, "a value valid against one of the "+keyword+" schemas", start, end)
	}
	return !d.fatal
}

// textMember is one member of an object keyed from its text: its key and
// its value's text.
type textMember struct {
	key string
	val []byte
}

// text appends the key of the JSON value b, text the validator has read
// (so valid), as dynamic appends the key of the value decoded, without
// decoding it: the members of an object are sorted by key on k.members,
// a stack shared by the objects of the value.
func (k *keyer) text(b []byte) {
	if !k.enter() {
		return
	}
	defer k.leave()
	i := jsonwire.SkipSpace(b, 0)
	switch c := b[i]; c {
	case 'n':
		k.buf = append(k.buf, 'n')
	case 't':
		k.buf = append(k.buf, 't')
	case 'f':
		k.buf = append(k.buf, 'f')
	case '"':
		// keyer.str of the unquoted string, written in place.
		at := len(k.buf)
		k.buf = append(k.buf, 's', 0, 0, 0, 0, 0, 0, 0, 0)
		k.buf = jsonwire.AppendUnquoted(k.buf, b[i:jsonwire.End(b, i)])
		binary.LittleEndian.PutUint64(k.buf[at+1:], uint64(len(k.buf)-at-9))
	case '[':
		k.buf = append(k.buf, 'a')
		for i = jsonwire.SkipSpace(b, i+1); b[i] != ']'; {
			end := jsonwire.End(b, i)
			k.text(b[i:end])
			if i = jsonwire.SkipSpace(b, end); b[i] == ',' {
				i = jsonwire.SkipSpace(b, i+1)
			}
		}
		k.buf = append(k.buf, 'e')
	case '{':
		start := len(k.members)
		for i = jsonwire.SkipSpace(b, i+1); b[i] != '}'; {
			end := jsonwire.End(b, i)
			tok := b[i:end]
			key := unsafe.String(unsafe.SliceData(tok[1:]), len(tok)-2)
			if bytes.IndexByte(tok, '\\') >= 0 {
				key = string(jsonwire.AppendUnquoted(nil, tok))
			}
			i = jsonwire.SkipSpace(b, jsonwire.SkipSpace(b, end)+1) // past ':'
			end = jsonwire.End(b, i)
			k.members = append(k.members, textMember{key, b[i:end]})
			if i = jsonwire.SkipSpace(b, end); b[i] == ',' {
				i = jsonwire.SkipSpace(b, i+1)
			}
		}
		slices.SortFunc(k.members[start:], func(x, y textMember) int { return strings.Compare(x.key, y.key) })
		k.buf = append(k.buf, 'o')
		for m := start; m < len(k.members); m++ {
			mb := k.members[m] // k.members may move while the value is keyed
			k.str(mb.key)
			k.text(mb.val)
		}
		clear(k.members[start:])
		k.members = k.members[:start]
		k.buf = append(k.buf, 'e')
	default:
		k.number(b[i:jsonwire.End(b, i)])
	}
}
