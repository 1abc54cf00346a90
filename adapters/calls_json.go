package adapters

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/maphash"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The reply reader: one strict pass over a reply checks it (RFC 8259 syntax,
// UTF-8, no lone surrogates, nesting depth, no two equal keys in one object),
// and the parsers then read the checked bytes in place, matching keys
// exactly. Every value the parsers keep (arguments, replayed content) is a
// slice of the same checked bytes, so the calls and the replay are read the
// same way by anyone. Work and memory are linear in the reply's size.

// jsonError is a problem found by the check: where (a JSON Pointer) and what.
type jsonError struct {
	path    string
	problem string
	syntax  bool // true: not JSON (ErrNotJSON), path unset; false: a limit or a duplicate key
	limit   bool // true: the depth limit (ErrReplyLimit)
}

// jsonChecker checks one JSON text.
type jsonChecker struct {
	data     []byte
	pos      int
	maxDepth int
	stack    []pathSeg // the path to the value being checked, for errors
	keys     []keyRef  // keys of the open objects, innermost last
	unesc    []byte    // unescaped keys that held escapes
	table    []int32   // scratch hash set for objects with many keys
	ix       *jIndex   // where to record the values' ends; nil for none
	quoted   bool      // the string just checked holds an escaped quote
	spaces   int       // the bytes of space skipped so far
	out      []byte    // with ix.eager, the text so far without space, up to last
	last     int       // where out stops in data
}

// pathSeg is one step of a path: a key (unescaped) or an array index.
type pathSeg struct {
	key   []byte
	index int
	isKey bool
}

// keyRef is a key of an object: data[start:end], or unesc[start:end] when
// the key held escapes (end has the bit unescBit set). Eight bytes a key:
// replies are shorter than 2 GiB.
type keyRef struct{ start, end uint32 }

const unescBit = 1 << 31

var keySeed = maphash.MakeSeed()

// checkJSON checks that data is exactly one JSON value (surrounding space
// allowed) within maxDepth levels of nesting, with no duplicate keys.
func checkJSON(data []byte, maxDepth int) *jsonError {
	var c jsonChecker
	return c.check(data, maxDepth, nil)
}

// check is checkJSON recording in ix, when it is not nil, where data's
// values end for its readers (see jIndex). It reuses the room c's earlier
// checks grew for paths and keys.
func (c *jsonChecker) check(data []byte, maxDepth int, ix *jIndex) *jsonError {
	*c = jsonChecker{data: data, maxDepth: maxDepth, ix: ix,
		stack: c.stack[:0], keys: c.keys[:0], unesc: c.unesc[:0], table: c.table}
	if ix != nil {
		*ix = jIndex{text: data, spans: ix.spans[:0], eager: ix.eager}
	}
	c.space()
	if c.pos == len(c.data) {
		return &jsonError{problem: "empty", syntax: true}
	}
	if err := c.value(0); err != nil {
		return err
	}
	c.space()
	if c.pos != len(c.data) {
		return c.syntaxErr("unexpected " + quoteByte(c.data[c.pos]) + " after the value")
	}
	if ix != nil {
		ix.space = c.spaces
		if ix.eager {
			ix.compacted = data
			if c.out != nil {
				ix.compacted = append(c.out, data[c.last:]...)
			}
		}
	}
	return nil
}

func (c *jsonChecker) space() {
	if c.pos < len(c.data) && c.data[c.pos] > ' ' { // no space: inlined
		return
	}
	c.spaceRun()
}

// spaceRun skips the space at c.pos, counting it, and copies the text
// before it to c.out when the check compacts.
func (c *jsonChecker) spaceRun() {
	start := c.pos
	for c.pos < len(c.data) {
		b := c.data[c.pos]
		if b != ' ' && b != '\t' && b != '\n' && b != '\r' {
			break
		}
		c.pos++
	}
	if c.pos > start {
		c.spaces += c.pos - start
		if c.ix != nil && c.ix.eager {
			// The text without space, copied a run between spaces at a time.
			if c.out == nil {
				c.out = make([]byte, 0, len(c.data)-(c.pos-start))
			}
			c.out = append(c.out, c.data[c.last:start]...)
			c.last = c.pos
		}
	}
}

func (c *jsonChecker) syntaxErr(problem string) *jsonError {
	return &jsonError{problem: problem + " at byte " + strconv.Itoa(c.pos), syntax: true}
}

func (c *jsonChecker) eof() *jsonError {
	return &jsonError{problem: "unexpected end of input", syntax: true}
}

// maxPathBytes bounds the paths in error messages: a hostile reply could
// nest long keys deep.
const maxPathBytes = 512

// path returns the JSON Pointer of the value being checked, cut to about
// maxPathBytes with a trailing "/..." when longer.
func (c *jsonChecker) path() string {
	var b []byte
	for _, s := range c.stack {
		if len(b) > maxPathBytes {
			return string(append(b, "/..."...))
		}
		b = append(b, '/')
		if s.isKey {
			key := s.key
			if len(key) > 64 {
				key = append(key[:64:64], "..."...)
			}
			b = append(b, pointerEscape(string(key))...)
		} else {
			b = strconv.AppendInt(b, int64(s.index), 10)
		}
	}
	return string(b)
}

func (c *jsonChecker) value(depth int) *jsonError {
	if c.pos == len(c.data) {
		return c.eof()
	}
	switch b := c.data[c.pos]; {
	case b == '{' || b == '[':
		if depth >= c.maxDepth {
			return &jsonError{path: c.path(), problem: "nested deeper than " + strconv.Itoa(c.maxDepth) + " levels", limit: true}
		}
		if b == '{' {
			return c.object(depth + 1)
		}
		return c.array(depth + 1)
	case b == '"':
		start := c.pos
		c.quoted = false
		_, err := c.str()
		if c.quoted && c.ix != nil && c.pos-start >= jIndexMinString && depth < jIndexDepth {
			c.record(jSpan{start: uint32(start), end: uint32(c.pos)})
		}
		return err
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	case b == '-' || b >= '0' && b <= '9':
		return c.number()
	default:
		return c.syntaxErr("unexpected " + quoteByte(b))
	}
}

func (c *jsonChecker) literal(lit string) *jsonError {
	if len(c.data)-c.pos < len(lit) || string(c.data[c.pos:c.pos+len(lit)]) != lit {
		return c.syntaxErr("invalid literal (expected " + lit + ")")
	}
	c.pos += len(lit)
	return nil
}

func (c *jsonChecker) digits() bool {
	start := c.pos
	for c.pos < len(c.data) && c.data[c.pos] >= '0' && c.data[c.pos] <= '9' {
		c.pos++
	}
	return c.pos > start
}

func (c *jsonChecker) number() *jsonError {
	if c.data[c.pos] == '-' {
		c.pos++
	}
	if c.pos < len(c.data) && c.data[c.pos] == '0' {
		c.pos++
	} else if !c.digits() {
		return c.syntaxErr("invalid number")
	}
	if c.pos < len(c.data) && c.data[c.pos] == '.' {
		c.pos++
		if !c.digits() {
			return c.syntaxErr("invalid number")
		}
	}
	if c.pos < len(c.data) && (c.data[c.pos] == 'e' || c.data[c.pos] == 'E') {
		c.pos++
		if c.pos < len(c.data) && (c.data[c.pos] == '+' || c.data[c.pos] == '-') {
			c.pos++
		}
		if !c.digits() {
			return c.syntaxErr("invalid number")
		}
	}
	return nil
}

// str checks the string at c.pos and reports whether it holds escapes.
func (c *jsonChecker) str() (escaped bool, err *jsonError) {
	c.pos++ // the opening quote
	for c.pos < len(c.data) {
		if c.pos+8 <= len(c.data) {
			// Eight bytes at a time to the next byte that is not plain
			// ASCII text: a quote, a backslash, a control or a non-ASCII.
			w := binary.LittleEndian.Uint64(c.data[c.pos:])
			m := w&swarHigh | swarZero(w^swarQuote) | swarZero(w^swarBackslash) | (w-0x20*swarOnes)&^w&swarHigh
			if m == 0 {
				c.pos += 8
				continue
			}
			c.pos += bits.TrailingZeros64(m) >> 3
		}
		b := c.data[c.pos]
		switch {
		case b == '"':
			c.pos++
			return escaped, nil
		case b == '\\':
			escaped = true
			c.quoted = c.quoted || c.pos+1 < len(c.data) && c.data[c.pos+1] == '"'
			if err := c.escape(); err != nil {
				return escaped, err
			}
		case b < 0x20:
			return escaped, c.syntaxErr("control character in a string")
		case b < utf8.RuneSelf:
			c.pos++
		default:
			r, size := utf8.DecodeRune(c.data[c.pos:])
			if r == utf8.RuneError && size == 1 {
				return escaped, c.syntaxErr("invalid UTF-8")
			}
			c.pos += size
		}
	}
	return escaped, c.eof()
}

// escape checks one escape sequence at c.pos; a \u escape of a surrogate
// must be a pair.
func (c *jsonChecker) escape() *jsonError {
	if c.pos+1 >= len(c.data) {
		return c.eof()
	}
	switch c.data[c.pos+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		c.pos += 2
		return nil
	case 'u':
		r, ok := hex4(c.data, c.pos+2)
		if !ok {
			return c.syntaxErr("invalid \\u escape")
		}
		c.pos += 6
		if !utf16.IsSurrogate(r) {
			return nil
		}
		if r < 0xdc00 && c.pos+1 < len(c.data) && c.data[c.pos] == '\\' && c.data[c.pos+1] == 'u' {
			if r2, ok := hex4(c.data, c.pos+2); ok && r2 >= 0xdc00 && r2 < 0xe000 {
				c.pos += 6
				return nil
			}
		}
		return c.syntaxErr("lone UTF-16 surrogate in a \\u escape")
	}
	return c.syntaxErr("invalid escape")
}

// The constants and the test of eight bytes in a word, for strings. The
// lowest byte a test flags is exact (a borrow only flags the bytes above).
const (
	swarOnes      = 0x0101010101010101
	swarHigh      = 0x8080808080808080
	swarQuote     = '"' * swarOnes
	swarBackslash = '\\' * swarOnes
)

// swarZero flags the zero bytes of w.
func swarZero(w uint64) uint64 { return (w - swarOnes) &^ w & swarHigh }

// quoteOrBackslash returns the offset of the first quote or backslash in
// data[i:], len(data) when there is none.
func quoteOrBackslash(data []byte, i int) int {
	for ; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		if m := swarZero(w^swarQuote) | swarZero(w^swarBackslash); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(data); i++ {
		if data[i] == '"' || data[i] == '\\' {
			return i
		}
	}
	return len(data)
}

func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, b := range data[i : i+4] {
		switch {
		case b >= '0' && b <= '9':
			b -= '0'
		case b >= 'a' && b <= 'f':
			b -= 'a' - 10
		case b >= 'A' && b <= 'F':
			b -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(b)
	}
	return r, true
}

func (c *jsonChecker) array(depth int) *jsonError {
	start, before := c.pos, c.spaces
	c.pos++
	c.space()
	if c.pos < len(c.data) && c.data[c.pos] == ']' {
		c.pos++
		return nil
	}
	span := c.open(start, before, depth)
	c.stack = append(c.stack, pathSeg{})
	for i := 0; ; i++ {
		c.stack[len(c.stack)-1].index = i
		if err := c.value(depth); err != nil {
			return err
		}
		if done, err := c.after(']', "an array"); err != nil || done {
			c.close(span, start)
			return err
		}
	}
}

// open records the container that starts at start at nesting depth depth,
// after before bytes of space, returning its place in the index (-1 when
// it is not recorded); close sets its end and the space it holds, or drops
// it when it is shorter than jIndexMin (so is all it holds, recorded after
// it).
func (c *jsonChecker) open(start, before, depth int) int {
	if c.ix == nil || depth > jIndexDepth {
		return -1
	}
	c.record(jSpan{start: uint32(start), before: uint32(before)})
	return len(c.ix.spans) - 1
}

// record appends sp to the index, doubling its room: append's slower
// growth of large slices allocates about five times the final size.
func (c *jsonChecker) record(sp jSpan) {
	if s := c.ix.spans; len(s) == cap(s) {
		c.ix.spans = append(make([]jSpan, 0, 2*cap(s)+16), s...)
	}
	c.ix.spans = append(c.ix.spans, sp)
}

func (c *jsonChecker) close(span, start int) {
	switch {
	case span < 0:
	case c.pos-start < jIndexMin:
		c.ix.spans = c.ix.spans[:span]
	default:
		sp := &c.ix.spans[span]
		sp.end, sp.spaces = uint32(c.pos), uint32(c.spaces)-sp.before
	}
}

// after reads what follows an element or a member: a comma, or the closing
// byte end, which ends the container (done) and pops its path segment.
func (c *jsonChecker) after(end byte, container string) (done bool, err *jsonError) {
	c.space()
	if c.pos == len(c.data) {
		return false, c.eof()
	}
	switch c.data[c.pos] {
	case ',':
		c.pos++
		c.space()
		return false, nil
	case end:
		c.pos++
		c.stack = c.stack[:len(c.stack)-1]
		return true, nil
	}
	return false, c.syntaxErr("expected , or " + string(end) + " in " + container + ", got " + quoteByte(c.data[c.pos]))
}

func (c *jsonChecker) object(depth int) *jsonError {
	at, before := c.pos, c.spaces
	c.pos++
	c.space()
	if c.pos < len(c.data) && c.data[c.pos] == '}' {
		c.pos++
		return nil
	}
	span := c.open(at, before, depth)
	base, unescBase := len(c.keys), len(c.unesc)
	c.stack = append(c.stack, pathSeg{isKey: true})
	for {
		if c.pos == len(c.data) {
			return c.eof()
		}
		if c.data[c.pos] != '"' {
			return c.syntaxErr("expected a key in an object, got " + quoteByte(c.data[c.pos]))
		}
		start := c.pos
		escaped, err := c.str()
		if err != nil {
			return err
		}
		k := keyRef{start: uint32(start + 1), end: uint32(c.pos - 1)}
		if escaped {
			from := len(c.unesc)
			c.unesc = appendUnquoted(c.unesc, c.data[start:c.pos])
			k = keyRef{start: uint32(from), end: uint32(len(c.unesc)) | unescBit}
		}
		if len(c.keys) == cap(c.keys) { // double: append's slower growth allocates more in all
			c.keys = append(make([]keyRef, 0, 2*cap(c.keys)+16), c.keys...)
		}
		c.keys = append(c.keys, k)
		c.stack[len(c.stack)-1].key = c.keyBytes(k)
		c.space()
		if c.pos == len(c.data) {
			return c.eof()
		}
		if c.data[c.pos] != ':' {
			return c.syntaxErr("expected : after a key, got " + quoteByte(c.data[c.pos]))
		}
		c.pos++
		c.space()
		if err := c.value(depth); err != nil {
			return err
		}
		done, err := c.after('}', "an object")
		if err != nil {
			return err
		}
		if done {
			if dup, ok := c.duplicate(c.keys[base:]); ok {
				return &jsonError{path: c.path(), problem: "duplicate key " + rtQuote(string(c.keyBytes(dup)))}
			}
			c.keys, c.unesc = c.keys[:base], c.unesc[:unescBase]
			c.close(span, at)
			return nil
		}
	}
}

func (c *jsonChecker) keyBytes(k keyRef) []byte {
	if k.end&unescBit != 0 {
		return c.unesc[k.start : k.end&^unescBit]
	}
	return c.data[k.start:k.end]
}

// duplicate returns a key that appears twice in keys: by comparing pairs for
// a few keys, with a hash set beyond, so the check stays linear.
func (c *jsonChecker) duplicate(keys []keyRef) (keyRef, bool) {
	if len(keys) <= 8 {
		for i := 1; i < len(keys); i++ {
			for j := 0; j < i; j++ {
				if string(c.keyBytes(keys[i])) == string(c.keyBytes(keys[j])) {
					return keys[i], true
				}
			}
		}
		return keyRef{}, false
	}
	size := 16
	for size < 2*len(keys) {
		size *= 2
	}
	if cap(c.table) < size {
		c.table = make([]int32, size)
	}
	table := c.table[:size]
	clear(table)
	mask := uint64(size - 1)
	for i, k := range keys {
		kb := c.keyBytes(k)
		h := maphash.Bytes(keySeed, kb) & mask
		for table[h] != 0 {
			if string(c.keyBytes(keys[table[h]-1])) == string(kb) {
				return k, true
			}
			h = (h + 1) & mask
		}
		table[h] = int32(i + 1)
	}
	return keyRef{}, false
}

func quoteByte(b byte) string {
	if b < 0x20 || b >= utf8.RuneSelf {
		return "byte 0x" + strconv.FormatUint(uint64(b), 16)
	}
	return strconv.QuoteRune(rune(b))
}

// appendUnquoted appends the text of the checked JSON string s (quotes
// included) to dst.
func appendUnquoted(dst, s []byte) []byte {
	s = s[1 : len(s)-1]
	for i := 0; i < len(s); {
		b := s[i]
		if b != '\\' {
			j := i + 1
			for j < len(s) && s[j] != '\\' {
				j++
			}
			dst = append(dst, s[i:j]...)
			i = j
			continue
		}
		switch s[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, _ := hex4(s, i+2)
			if utf16.IsSurrogate(r) {
				r2, _ := hex4(s, i+8)
				r = utf16.DecodeRune(r, r2)
				i += 6
			}
			dst = utf8.AppendRune(dst, r)
			i += 6
			continue
		default: // " \ /
			dst = append(dst, s[i+1])
		}
		i += 2
	}
	return dst
}

// The readers below work on checked JSON only: values are byte slices of
// the checked text, without surrounding space. Each reader is a method of
// the text's jIndex, which lets it skip a large value without scanning it;
// a nil *jIndex reads any checked text, scanning.

// jIndex is what the check records of a text for its readers: where each
// container of at least jIndexMin bytes, and each string of at least
// jIndexMinString bytes holding an escaped quote, ends, and how many bytes of
// insignificant space a container holds, for the values nested at most
// jIndexDepth levels deep. The readers skip values by looking their ends
// up, so that a value is not scanned again at every level above it, and
// compact a container as a slice of the text compacted once. Sixteen
// bytes a recorded value.
type jIndex struct {
	text      []byte  // the text as checked
	spans     []jSpan // the recorded values, in the order they open (by start)
	space     int     // the bytes of insignificant space in text
	compacted []byte  // text without insignificant space: by the check when eager, else when first needed
	eager     bool    // whether the check makes compacted as it goes (set before it)
	scanned   int     // the bytes the readers scanned to skip values, for tests
}

// jSpan is a recorded value, text[start:end], holding spaces bytes of
// insignificant space, with before bytes of it in the text before it.
type jSpan struct{ start, end, spaces, before uint32 }

// jIndexMin is the size from which a container is recorded: skipping a
// smaller one by scanning costs no more than a lookup, and a
// byte is then scanned at most about jIndexMin/2 times however deep it
// sits, since every container scanned to skip it is smaller than
// jIndexMin.
const jIndexMin = 64

// jIndexMinString is the size from which a string holding an escaped
// quote is recorded: skipping one by scanning stops at every escaped
// quote. (One in a container shorter than jIndexMin is dropped with it.)
const jIndexMinString = 16

// jIndexDepth is the deepest level recorded. The readers walk a provider's
// reply structure, never deeper than about ten levels (a Gemini stream's
// args objects are at level 9), and skip or compact what is below in one
// pass: recording deeper levels would only cost memory (sixteen bytes a
// level of a deeply nested argument).
const jIndexDepth = 16

// offset returns the offset of data, a slice of the checked text, in the
// text; -1 when x is nil or data is not a slice of it.
func (x *jIndex) offset(data []byte) int {
	if x == nil || len(data) == 0 {
		return -1
	}
	o := cap(x.text) - cap(data)
	if o < 0 || o >= len(x.text) || &x.text[o] != &data[0] {
		return -1
	}
	return o
}

// lookup returns the recorded value that starts at offset o of the text,
// nil when none is recorded there.
func (x *jIndex) lookup(o int) *jSpan {
	s := x.spans
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(s[m].start) < o {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s) && int(s[lo].start) == o {
		return &s[lo]
	}
	return nil
}

// container returns the recorded container that is raw, nil when raw is
// not one.
func (x *jIndex) container(raw []byte) *jSpan {
	base := x.offset(raw)
	if base < 0 || raw[0] != '{' && raw[0] != '[' {
		return nil
	}
	if sp := x.lookup(base); sp != nil && int(sp.end)-base == len(raw) {
		return sp
	}
	return nil
}

// jSkipSpace returns the offset of the first non-space byte at or after i.
func jSkipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// end returns the end of the checked value that starts at data[i]; base
// is data's offset in the text (-1: unknown, scan).
func (x *jIndex) end(data []byte, base, i int) int {
	switch data[i] {
	case '"':
		return x.stringEnd(data, base, i)
	case '{', '[':
		if base >= 0 {
			if sp := x.lookup(base + i); sp != nil {
				return int(sp.end) - base
			}
		}
		start, depth := i, 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				i = x.stringEnd(data, base, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					x.scan(i + 1 - start)
					return i + 1
				}
			}
		}
		return i
	default:
		for i < len(data) {
			switch data[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
			i++
		}
		return i
	}
}

// scan counts n bytes scanned to skip a value.
func (x *jIndex) scan(n int) {
	if x != nil {
		x.scanned += n
	}
}

// stringEnd returns the end of the checked string that starts at data[i]:
// past the first quote that is not part of an escape. At the first escaped
// quote it looks the string up (base is data's offset in the text, -1 for
// none).
func (x *jIndex) stringEnd(data []byte, base, i int) int {
	for j := i + 1; ; {
		j = quoteOrBackslash(data, j)
		switch {
		case j >= len(data):
			return len(data)
		case data[j] == '"':
			x.scan(j + 1 - i)
			return j + 1
		case base >= 0 && data[j+1] == '"':
			if sp := x.lookup(base + i); sp != nil {
				return int(sp.end) - base
			}
			base = -1 // not recorded: a short string
		}
		j += 2 // an escape: its first two bytes; the rest of \uXXXX is hex
	}
}

// jMember is one member of a checked object: its key (quotes included, as
// sent), its value, and the whole member text from the key's quote to the
// value's end.
type jMember struct {
	key, val, whole []byte
}

// jMembers calls fn for each member of the checked object obj, in order,
// stopping at the first error.
func jMembers(obj []byte, fn func(m jMember) error) error {
	return (*jIndex)(nil).members(obj, fn)
}

// members is jMembers for a slice of x's text.
func (x *jIndex) members(obj []byte, fn func(m jMember) error) error {
	base := x.offset(obj)
	i := jSkipSpace(obj, 1)
	for i < len(obj) && obj[i] == '"' {
		ke := x.stringEnd(obj, -1, i) // keys are not recorded
		vs := jSkipSpace(obj, jSkipSpace(obj, ke)+1)
		ve := x.end(obj, base, vs)
		if err := fn(jMember{key: obj[i:ke], val: obj[vs:ve], whole: obj[i:ve]}); err != nil {
			return err
		}
		i = jSkipSpace(obj, ve)
		if i < len(obj) && obj[i] == ',' {
			i = jSkipSpace(obj, i+1)
		}
	}
	return nil
}

// jElems calls fn for each element of the checked array arr, in order,
// stopping at the first error.
func jElems(arr []byte, fn func(i int, v []byte) error) error {
	return (*jIndex)(nil).elems(arr, fn)
}

// elems is jElems for a slice of x's text.
func (x *jIndex) elems(arr []byte, fn func(i int, v []byte) error) error {
	base := x.offset(arr)
	i := jSkipSpace(arr, 1)
	for n := 0; i < len(arr) && arr[i] != ']'; n++ {
		e := x.end(arr, base, i)
		if err := fn(n, arr[i:e]); err != nil {
			return err
		}
		i = jSkipSpace(arr, e)
		if i < len(arr) && arr[i] == ',' {
			i = jSkipSpace(arr, i+1)
		}
	}
	return nil
}

// first returns the first element of the checked array list, nil when it
// is empty.
func (x *jIndex) first(list []byte) []byte {
	i := jSkipSpace(list, 1)
	if list[i] == ']' {
		return nil
	}
	return list[i:x.end(list, x.offset(list), i)]
}

// jKeyIs reports whether the quoted key equals name exactly (after
// unescaping).
func jKeyIs(key []byte, name string) bool {
	inner := key[1 : len(key)-1]
	for _, b := range inner {
		if b == '\\' {
			return string(appendUnquoted(nil, key)) == name
		}
	}
	return string(inner) == name
}

// fieldsCount returns the values of the keys names in the checked object
// obj (nil for an absent key) in vals, which must be as long as names, and
// counts the members whose keys are not in names. Keys match exactly; the
// check already rejected duplicates. It also returns the first key that is
// not one of names but equals one of them in another case ("NAME" for
// "name"), as encoding/json would match it; nil when there is none.
func (x *jIndex) fieldsCount(obj []byte, names []string, vals [][]byte) (caseVariant []byte, others int) {
	clear(vals)
	_ = x.members(obj, func(m jMember) error {
		key := m.key[1 : len(m.key)-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			key = appendUnquoted(nil, m.key)
		}
		for i, n := range names {
			if n != "" && string(key) == n {
				vals[i] = m.val
				return nil
			}
		}
		others++
		if caseVariant != nil {
			return nil
		}
		ascii := isASCII(key)
		for _, n := range names {
			// An ASCII key folds only to a name as long; the names are ASCII.
			if n != "" && (len(key) == len(n) || !ascii) && bytes.EqualFold(key, []byte(n)) {
				caseVariant = key
				break
			}
		}
		return nil
	})
	return caseVariant, others
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// errFound stops a walk over members once it found what it looked for.
var errFound = errors.New("found")

// field returns the value of key name in raw when raw is a checked
// object, else nil.
func (x *jIndex) field(raw []byte, name string) []byte {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var v []byte
	_ = x.members(raw, func(m jMember) error {
		if jKeyIs(m.key, name) {
			v = m.val
			return errFound
		}
		return nil
	})
	return v
}

// jText returns the text of a checked JSON string value.
func jText(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		return string(appendUnquoted(make([]byte, 0, len(inner)), raw)), true
	}
	return string(inner), true
}

// count counts the elements of the checked array arr that are objects
// with the key key; when want is not "", its value must be the string want
// as sent (without escapes). It sizes slices before they are filled.
func (x *jIndex) count(arr []byte, key, want string) int {
	n := 0
	_ = x.elems(arr, func(_ int, v []byte) error {
		if key == "" {
			n++
			return nil
		}
		f := x.field(v, key)
		if f != nil && f[0] != 'n' && (want == "" || len(f) == len(want)+2 && string(f[1:len(f)-1]) == want) {
			n++
		}
		return nil
	})
	return n
}

// textJoin joins text parts, copying nothing when there is one.
type textJoin struct {
	first string
	b     strings.Builder
	n     int
}

// WriteString adds a part.
func (t *textJoin) WriteString(s string) {
	switch {
	case s == "":
		return
	case t.n == 0:
		t.first = s
	case t.n == 1:
		t.b.WriteString(t.first)
		t.b.WriteString(s)
	default:
		t.b.WriteString(s)
	}
	t.n++
}

// String returns the parts joined.
func (t *textJoin) String() string {
	if t.n <= 1 {
		return t.first
	}
	return t.b.String()
}

// jCompact returns the checked value raw without insignificant space,
// reusing raw when it has none.
func jCompact(raw []byte) []byte { return (*jIndex)(nil).compact(raw) }

// jAppendCompact appends the checked JSON raw to dst without
// insignificant space.
func jAppendCompact(dst, raw []byte) []byte { return (*jIndex)(nil).appendCompact(dst, raw) }

// compact is jCompact for a slice of x's text. A recorded container is a
// slice of the whole text compacted (once: by the check, when x is eager,
// or when first needed), so that
// compacting values nested in one another (a call's arguments, then the
// content that holds them) copies each byte once.
func (x *jIndex) compact(raw []byte) []byte {
	if sp := x.container(raw); sp != nil {
		if sp.spaces == 0 {
			return raw
		}
		if x.compacted == nil {
			x.compacted = x.appendCompact(make([]byte, 0, len(x.text)-x.space), x.text)
		}
		from := int(sp.start - sp.before)
		to := from + len(raw) - int(sp.spaces)
		return x.compacted[from:to:to]
	}
	n := x.spaces(raw)
	if n == 0 {
		return raw
	}
	return x.appendCompact(make([]byte, 0, len(raw)-n), raw)
}

// spaces counts the bytes of insignificant space in raw, a run of checked
// JSON that starts outside a string: what appendCompact leaves out. For a
// recorded container, the check counted them.
func (x *jIndex) spaces(raw []byte) int {
	if sp := x.container(raw); sp != nil {
		return int(sp.spaces)
	}
	base, n := x.offset(raw), 0
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '"':
			i = x.stringEnd(raw, base, i) - 1
		case ' ', '\t', '\n', '\r':
			n++
		}
	}
	return n
}

// appendCompact appends raw, a run of checked JSON that starts outside a
// string, to dst without insignificant space.
func (x *jIndex) appendCompact(dst, raw []byte) []byte {
	// Runs of bytes between spaces, strings included, are copied whole.
	base, run := x.offset(raw), 0
	for i := 0; ; {
		i = quoteOrSpace(raw, i)
		switch {
		case i >= len(raw):
			return append(dst, raw[run:]...)
		case raw[i] == '"':
			i = x.stringEnd(raw, base, i)
			continue
		}
		dst = append(dst, raw[run:i]...)
		for i++; i+8 <= len(raw) && binary.LittleEndian.Uint64(raw[i:]) == ' '*swarOnes; i += 8 {
		}
		for i < len(raw) && raw[i] <= ' ' {
			i++
		}
		run = i
	}
}

// quoteOrSpace returns the offset of the first quote or byte at or below
// ' ' in data[i:], len(data) when there is none: outside strings, the
// bytes of checked JSON at or below ' ' are space.
func quoteOrSpace(data []byte, i int) int {
	for ; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		if m := swarZero(w^swarQuote) | (w-0x21*swarOnes)&^w&swarHigh; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(data); i++ {
		if data[i] == '"' || data[i] <= ' ' {
			return i
		}
	}
	return len(data)
}

// jKind names the kind of a checked value, for messages.
func jKind(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}
