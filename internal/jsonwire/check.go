package jsonwire

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// The strict check: one pass over a text checks it (RFC 8259 syntax,
// UTF-8, no lone surrogates, nesting depth, no two equal keys in one
// object), and the readers (read.go) then read the checked bytes in place,
// matching keys exactly. The reply parsers (package adapters) and
// schema.Parse read their documents so. Work and memory are linear in the
// text's size.

// Error is a problem found by the check: where (a JSON Pointer) and what.
type Error struct {
	Path    string // the value's JSON Pointer, for a limit or a duplicate key; "" for a syntax error
	Problem string // what is wrong: "duplicate key \"a\"", "invalid number at byte 3"
	Syntax  bool   // true: not JSON, Path unset; false: a limit or a duplicate key
	Limit   bool   // true: the depth limit
}

// Error returns the problem, after the path when there is one.
func (e *Error) Error() string {
	if e.Path == "" {
		return e.Problem
	}
	return e.Path + ": " + e.Problem
}

// Checker checks one JSON text.
type Checker struct {
	data     []byte
	pos      int
	maxDepth int
	stack    []pathSeg // the path to the value being checked, for errors
	keys     []keyRef  // keys of the open objects, innermost last
	unesc    []byte    // unescaped keys that held escapes
	table    []int32   // scratch hash set for objects with many keys
	ix       *Index    // where to record the values' ends; nil for none
	quoted   bool      // the string just checked holds an escaped quote
	spaces   int       // the bytes of space skipped so far
	eager    bool      // ix.Eager: the check compacts the text into out
	out      []byte    // with ix.Eager, the text so far without space, up to last
	last     int       // where out stops in data
	pend     []entry   // the entries of the open recorded containers, innermost last
	tapeMax  int       // the most entries pend and the tape may hold together
	cuts     int       // how many times pend was cut for reaching tapeMax

	// LenientText makes the check accept strings holding invalid UTF-8
	// or lone \u surrogates, as encoding/json does, reading each as
	// U+FFFD ([AppendUnquotedValid]): two keys equal once so read are a
	// duplicate. Set it before Check; Check keeps it.
	LenientText bool
}

// pathSeg is one step of a path: a key (unescaped) or an array index.
type pathSeg struct {
	key   []byte
	index int
	isKey bool
}

// keyRef is a key of an object: where its text starts in data (the byte
// after its opening quote: a key without escapes ends at the next quote),
// or, with the bit unescBit set, where the text of a key that held
// escapes starts in unesc, unescaped, after four bytes of its length.
// Four bytes a key: texts are shorter than 2 GiB.
type keyRef uint32

const unescBit = 1 << 31

var keySeed = maphash.MakeSeed()

// Check checks that data is exactly one JSON value (surrounding space
// allowed) within maxDepth levels of nesting, with no duplicate keys.
func Check(data []byte, maxDepth int) *Error {
	var c Checker
	return c.Check(data, maxDepth, nil)
}

// Check is [Check] recording in ix, when it is not nil, where data's
// values end for its readers (see Index). It reuses the room c's earlier
// checks grew for paths and keys.
func (c *Checker) Check(data []byte, maxDepth int, ix *Index) *Error {
	*c = Checker{data: data, maxDepth: maxDepth, ix: ix, LenientText: c.LenientText,
		stack: c.stack[:0], keys: c.keys[:0], unesc: c.unesc[:0], table: c.table, pend: c.pend[:0],
		tapeMax: len(data)/tapeRatio + 16}
	if ix != nil {
		tape := ix.tape[:0]
		if cap(tape) > cap(c.pend) {
			// The larger room to the pending entries, which grow first:
			// close may make them the tape where they are.
			tape, c.pend = c.pend, tape
		}
		*ix = Index{text: data, spans: ix.spans[:0], tape: tape, Eager: ix.Eager, Owned: ix.Owned}
		if ix.Eager {
			// Always a copy, even of a text without space: the readers
			// hand out slices of it (CompactIn), which must not be the
			// caller's bytes. An owned text is copied from its first
			// space on (spaceRun), if it has one.
			c.eager = true
			if !ix.Owned {
				c.out = make([]byte, 0, len(data))
			}
		}
	}
	c.space()
	if c.pos == len(c.data) {
		return &Error{Problem: "empty", Syntax: true}
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
		switch {
		case c.eager && c.out == nil: // an owned text without space
			ix.compacted = data
		case c.eager:
			ix.compacted = append(c.out, data[c.last:]...)
		}
	}
	return nil
}

func (c *Checker) space() {
	if c.pos < len(c.data) && c.data[c.pos] > ' ' { // no space: inlined
		return
	}
	c.spaceRun()
}

// spaceRun skips the space at c.pos, counting it, and copies the text
// before it to c.out when the check compacts.
func (c *Checker) spaceRun() {
	start := c.pos
	c.pos = SkipSpace(c.data, c.pos)
	if n := c.pos - start; n > 0 {
		c.spaces += n
		if c.eager {
			// The text without space, copied a run between spaces at a time.
			if c.out == nil {
				c.out = make([]byte, 0, len(c.data))
			}
			c.out = append(c.out, c.data[c.last:start]...)
			c.last = c.pos
		}
	}
}

func (c *Checker) syntaxErr(problem string) *Error {
	return &Error{Problem: problem + " at byte " + strconv.Itoa(c.pos), Syntax: true}
}

func (c *Checker) eof() *Error {
	return &Error{Problem: "unexpected end of input", Syntax: true}
}

// maxPathBytes bounds the paths in error messages: a hostile reply could
// nest long keys deep.
const maxPathBytes = 512

// path returns the JSON Pointer of the value being checked, cut to about
// maxPathBytes with a trailing "/..." when longer.
func (c *Checker) path() string {
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
			b = append(b, EscapeToken(string(key))...)
		} else {
			b = strconv.AppendInt(b, int64(s.index), 10)
		}
	}
	return string(b)
}

func (c *Checker) value(depth int) *Error {
	if c.pos == len(c.data) {
		return c.eof()
	}
	switch b := c.data[c.pos]; {
	case b == '{' || b == '[':
		if depth >= c.maxDepth {
			return &Error{Path: c.path(), Problem: "nested deeper than " + strconv.Itoa(c.maxDepth) + " levels", Limit: true}
		}
		if b == '{' {
			return c.object(depth + 1)
		}
		return c.array(depth + 1)
	case b == '"':
		start := c.pos
		c.quoted = false
		_, err := c.str()
		if c.quoted && c.ix != nil && c.pos-start >= indexMinString && depth < indexDepth {
			c.record(span{start: uint32(start), end: uint32(c.pos)})
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

// literal reads lit. What came instead is named a misspelt lit only when
// its letters begin lit ("tru"); another word ("nope") is an unexpected
// byte, so that no message suggests a literal the text never meant.
func (c *Checker) literal(lit string) *Error {
	if len(c.data)-c.pos < len(lit) || string(c.data[c.pos:c.pos+len(lit)]) != lit {
		n := 0
		for c.pos+n < len(c.data) && n < len(lit) && c.data[c.pos+n] == lit[n] {
			n++
		}
		if n > 1 && (c.pos+n == len(c.data) || !isLetter(c.data[c.pos+n])) {
			return c.syntaxErr("invalid literal (expected " + lit + ")")
		}
		return c.syntaxErr("unexpected " + quoteByte(c.data[c.pos]))
	}
	c.pos += len(lit)
	return nil
}

func isLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

func (c *Checker) digits() bool {
	start := c.pos
	c.pos = Digits(c.data, c.pos)
	return c.pos > start
}

// Digits returns the offset after the decimal digits at data[i:].
func Digits(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}

func (c *Checker) number() *Error {
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
func (c *Checker) str() (escaped bool, err *Error) {
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
			if c.pos+1 < len(c.data) {
				// The one-letter escapes here, without a call: an
				// arguments text is full of \".
				switch c.data[c.pos+1] {
				case '"':
					c.quoted = true
					c.pos += 2
					continue
				case '\\', '/', 'b', 'f', 'n', 'r', 't':
					c.pos += 2
					continue
				}
			}
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
				if !c.LenientText {
					return escaped, c.syntaxErr("invalid UTF-8")
				}
				escaped = true // a key is compared as AppendUnquotedValid reads it
			}
			c.pos += size
		}
	}
	return escaped, c.eof()
}

// escape checks one escape sequence at c.pos; a \u escape of a surrogate
// must be a pair.
func (c *Checker) escape() *Error {
	if c.pos+1 >= len(c.data) {
		return c.eof()
	}
	switch c.data[c.pos+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		c.pos += 2
		return nil
	case 'u':
		r, ok := Hex4(c.data, c.pos+2)
		if !ok {
			return c.syntaxErr("invalid \\u escape")
		}
		c.pos += 6
		if !utf16.IsSurrogate(r) {
			return nil
		}
		if r < 0xdc00 && c.pos+1 < len(c.data) && c.data[c.pos] == '\\' && c.data[c.pos+1] == 'u' {
			if r2, ok := Hex4(c.data, c.pos+2); ok && r2 >= 0xdc00 && r2 < 0xe000 {
				c.pos += 6
				return nil
			}
		}
		if c.LenientText {
			return nil
		}
		return c.syntaxErr("lone UTF-16 surrogate in a \\u escape")
	}
	return c.syntaxErr("invalid escape")
}

// The constants and the test of eight bytes in a word, for strings. The
// lowest byte a test flags is exact (a borrow only flags the bytes above).
const (
	swarOnes      = SWAROnes
	swarHigh      = SWARHigh
	swarQuote     = '"' * swarOnes
	swarBackslash = '\\' * swarOnes
)

// SWAROnes and SWARHigh are the words of the scanners that test eight
// bytes at a time (SWAR): each byte 0x01, each byte 0x80.
const (
	SWAROnes = 0x0101010101010101
	SWARHigh = 0x8080808080808080
)

// swarZero flags the zero bytes of w (exactly for the lowest: a byte
// above a zero byte may be flagged too).
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

// Hex4 reads the four hex digits at data[i:] as a rune; false when there
// are not four.
func Hex4(data []byte, i int) (rune, bool) {
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

func (c *Checker) array(depth int) *Error {
	start, before := c.pos, c.spaces
	c.pos++
	c.space()
	if c.pos < len(c.data) && c.data[c.pos] == ']' {
		c.pos++
		return nil
	}
	o := c.open(start, before, depth)
	c.stack = append(c.stack, pathSeg{})
	for i := 0; ; i++ {
		c.stack[len(c.stack)-1].index = i
		vs := c.pos
		if err := c.value(depth); err != nil {
			return err
		}
		if o.span >= 0 && o.cuts == c.cuts {
			c.keep(entry{v: uint32(vs), e: uint32(c.pos)})
		}
		if done, err := c.after(']', "an array"); err != nil || done {
			c.close(o, start)
			return err
		}
	}
}

// opened is a container being checked: its place in the index (-1 when
// it is not recorded), where its entries start in pend, and c.cuts when
// it opened (its entries are complete while c.cuts is the same).
type opened struct{ span, pend, cuts int }

// open records the container that starts at start at nesting depth depth,
// after before bytes of space; close sets its end and the space it holds,
// or drops it when it is shorter than indexMin (so is all it holds,
// recorded after it).
func (c *Checker) open(start, before, depth int) opened {
	if c.ix == nil || depth > indexDepth {
		return opened{span: -1}
	}
	c.record(span{start: uint32(start), before: uint32(before)})
	return opened{span: len(c.ix.spans) - 1, pend: len(c.pend), cuts: c.cuts}
}

// record appends sp to the index, doubling its room: append's slower
// growth of large slices allocates about five times the final size.
func (c *Checker) record(sp span) {
	if s := c.ix.spans; len(s) == cap(s) {
		c.ix.spans = append(make([]span, 0, 2*cap(s)+16), s...)
	}
	c.ix.spans = append(c.ix.spans, sp)
}

// A kept container's entries (pend[o.pend:]) move to the tape when they
// are complete; a dropped one's are dropped with it.
func (c *Checker) close(o opened, start int) {
	switch {
	case o.span < 0:
		return
	case c.pos-start < indexMin:
		c.ix.spans = c.ix.spans[:o.span]
	default:
		sp := &c.ix.spans[o.span]
		sp.end, sp.spaces = uint32(c.pos), uint32(c.spaces)-sp.before
		if o.cuts == c.cuts { // else its entries were cut: the readers scan it
			t := c.ix.tape
			if n := len(c.pend) - o.pend; len(t) == 0 && n > cap(t) && n > 8*o.pend {
				// The first container taped holds most pending entries
				// (one large object or array): its entries become the
				// tape where they are (the few before them, left in
				// place, are read by no container), and the pending
				// entries before them move to the tape's room.
				sp.first, sp.n = uint32(o.pend)+1, uint32(n)
				c.ix.tape, c.pend = c.pend, append(t[:0], c.pend[:o.pend]...)
				return
			}
			if t == nil {
				t = make([]entry, 0, len(c.data)/tapeGuess+16)
			}
			sp.first, sp.n = uint32(len(t))+1, uint32(len(c.pend)-o.pend)
			c.ix.tape = append(t, c.pend[o.pend:]...)
		}
	}
	c.pend = c.pend[:min(o.pend, len(c.pend))]
}

// keep adds e, a member or element of the recorded container being
// checked, to the pending entries. When pend and the tape would pass
// their budget, the pending entries are cut instead: the containers open
// now are read by scanning (they add no more entries), and the ones that
// open after are taped again.
func (c *Checker) keep(e entry) {
	if len(c.pend)+len(c.ix.tape) >= c.tapeMax {
		c.pend = c.pend[:0]
		c.cuts++
		return
	}
	if len(c.pend) == cap(c.pend) {
		// Double, within the budget: append's slower growth of large
		// slices allocates about five times the final size.
		c.pend = append(make([]entry, 0, min(2*cap(c.pend)+16, c.tapeMax)), c.pend...)
	}
	c.pend = append(c.pend, e)
}

// after reads what follows an element or a member: a comma, or the closing
// byte end, which ends the container (done) and pops its path segment.
func (c *Checker) after(end byte, container string) (done bool, err *Error) {
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

func (c *Checker) object(depth int) *Error {
	at, before := c.pos, c.spaces
	c.pos++
	c.space()
	if c.pos < len(c.data) && c.data[c.pos] == '}' {
		c.pos++
		return nil
	}
	o := c.open(at, before, depth)
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
		k, text := keyRef(start+1), c.data[start+1:c.pos-1]
		if escaped {
			c.unesc = binary.LittleEndian.AppendUint32(c.unesc, 0)
			from := len(c.unesc)
			if c.LenientText {
				c.unesc = AppendUnquotedValid(c.unesc, c.data[start:c.pos])
			} else {
				c.unesc = AppendUnquoted(c.unesc, c.data[start:c.pos])
			}
			binary.LittleEndian.PutUint32(c.unesc[from-4:], uint32(len(c.unesc)-from))
			k, text = keyRef(from)|unescBit, c.unesc[from:]
		}
		if len(c.keys) == cap(c.keys) { // double: append's slower growth allocates more in all
			c.keys = append(make([]keyRef, 0, 2*cap(c.keys)+16), c.keys...)
		}
		c.keys = append(c.keys, k)
		c.stack[len(c.stack)-1].key = text
		c.space()
		if c.pos == len(c.data) {
			return c.eof()
		}
		if c.data[c.pos] != ':' {
			return c.syntaxErr("expected : after a key, got " + quoteByte(c.data[c.pos]))
		}
		c.pos++
		c.space()
		vs := c.pos
		if err := c.value(depth); err != nil {
			return err
		}
		if o.span >= 0 && o.cuts == c.cuts {
			k := uint32(start)
			if escaped {
				k |= keyEscaped
			}
			c.keep(entry{k: k, v: uint32(vs), e: uint32(c.pos)})
		}
		done, err := c.after('}', "an object")
		if err != nil {
			return err
		}
		if done {
			if dup, ok := c.duplicate(c.keys[base:]); ok {
				return &Error{Path: c.path(), Problem: "duplicate key " + Quote(string(c.keyBytes(dup)), 60)}
			}
			c.keys, c.unesc = c.keys[:base], c.unesc[:unescBase]
			c.close(o, at)
			return nil
		}
	}
}

func (c *Checker) keyBytes(k keyRef) []byte {
	if k&unescBit != 0 {
		at := int(k &^ unescBit)
		return c.unesc[at:][:binary.LittleEndian.Uint32(c.unesc[at-4:])]
	}
	return c.data[k:][:bytes.IndexByte(c.data[k:], '"')]
}

// duplicate returns a key that appears twice in keys: by comparing pairs for
// a few keys, with a hash set beyond, so the check stays linear.
func (c *Checker) duplicate(keys []keyRef) (keyRef, bool) {
	if len(keys) <= 8 {
		var texts [8][]byte
		for i, k := range keys {
			texts[i] = c.keyBytes(k)
		}
		for i := 1; i < len(keys); i++ {
			ki := texts[i]
			for _, kj := range texts[:i] {
				// The lengths first: most keys differ in length.
				if len(kj) == len(ki) && string(kj) == string(ki) {
					return keys[i], true
				}
			}
		}
		return 0, false
	}
	// Open addressing at a load of at most three quarters, the slot
	// from the hash's top bits (any table size, not a power of two).
	size := len(keys) + len(keys)/3 + 1
	if cap(c.table) < size {
		c.table = make([]int32, size)
	}
	table := c.table[:size]
	clear(table)
	for i, k := range keys {
		kb := c.keyBytes(k)
		h := int(uint64(uint32(maphash.Bytes(keySeed, kb))) * uint64(size) >> 32)
		for table[h] != 0 {
			if string(c.keyBytes(keys[table[h]-1])) == string(kb) {
				return k, true
			}
			if h++; h == size {
				h = 0
			}
		}
		table[h] = int32(i + 1)
	}
	return 0, false
}

func quoteByte(b byte) string {
	if b < 0x20 || b >= utf8.RuneSelf {
		return "byte 0x" + strconv.FormatUint(uint64(b), 16)
	}
	return strconv.QuoteRune(rune(b))
}

// AppendUnquoted appends the text of the checked JSON string s (quotes
// included) to dst.
func AppendUnquoted(dst, s []byte) []byte { return appendUnquoted(dst, s, false) }

// AppendUnquotedValid is AppendUnquoted for a string checked with
// LenientText: each byte of invalid UTF-8 is appended as U+FFFD, as
// encoding/json reads it (a lone surrogate escape is U+FFFD in both).
func AppendUnquotedValid(dst, s []byte) []byte { return appendUnquoted(dst, s, true) }

func appendUnquoted(dst, s []byte, valid bool) []byte {
	s = s[1 : len(s)-1]
	for i := 0; i < len(s); {
		b := s[i]
		if b != '\\' {
			j := i + 1
			for j < len(s) && s[j] != '\\' {
				j++
			}
			if valid {
				dst = AppendValidUTF8(dst, s[i:j])
			} else {
				dst = append(dst, s[i:j]...)
			}
			i = j
			continue
		}
		if s[i+1] == '"' { // the escape of arguments texts
			dst = append(dst, '"')
			i += 2
			continue
		}
		if c, ok := ShortEscape(s[i+1]); ok {
			dst = append(dst, c)
			i += 2
			continue
		}
		switch s[i+1] {
		case 'u':
			r, n, _ := UnescapeU(s, i)
			dst = utf8.AppendRune(dst, r)
			i += n
			continue
		default: // " \ /
			dst = append(dst, s[i+1])
		}
		i += 2
	}
	return dst
}

// ShortEscape returns the byte that the one-letter escape \b, \f, \n, \r
// or \t (given its letter) stands for, in JSON strings and in the quoted
// names of JSON paths alike.
func ShortEscape(e byte) (byte, bool) {
	switch e {
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// UnescapeU reads the \u escape at data[i:] (data[i:i+2] is `\u`): its
// rune and length, 6 bytes, or 12 for a surrogate pair. A lone surrogate
// is U+FFFD, as encoding/json reads it. ok is false when four hex digits
// do not follow the \u.
func UnescapeU(data []byte, i int) (r rune, n int, ok bool) {
	r, ok = Hex4(data, i+2)
	if !ok {
		return 0, 0, false
	}
	if !utf16.IsSurrogate(r) {
		return r, 6, true
	}
	if i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
		if r2, ok2 := Hex4(data, i+8); ok2 {
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				return dec, 12, true
			}
		}
	}
	return utf8.RuneError, 6, true
}

// AppendValidUTF8 appends b to dst with each byte of invalid UTF-8 as
// U+FFFD, as encoding/json reads a string.
func AppendValidUTF8(dst, b []byte) []byte {
	for len(b) > 0 {
		k := 0
		for k < len(b) {
			if b[k] < utf8.RuneSelf {
				k++
				continue
			}
			r, size := utf8.DecodeRune(b[k:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			k += size
		}
		dst = append(dst, b[:k]...)
		if k == len(b) {
			break
		}
		dst = append(dst, "\uFFFD"...)
		b = b[k+1:]
	}
	return dst
}

// Spaces returns how many bytes of insignificant space the last check
// skipped: Compact of the text checked leaves that many out.
func (c *Checker) Spaces() int { return c.spaces }

// Release drops c's references to the text it checked, so that c can wait
// for the next check, which reuses its room. It reports whether that room
// is small enough to be worth keeping.
func (c *Checker) Release() bool {
	c.data, c.out, c.ix = nil, nil, nil
	clear(c.stack[:cap(c.stack)])
	size := cap(c.stack)*int(unsafe.Sizeof(pathSeg{})) + cap(c.keys)*4 + cap(c.unesc) +
		cap(c.table)*4 + cap(c.pend)*int(unsafe.Sizeof(entry{}))
	return size <= maxKept
}
