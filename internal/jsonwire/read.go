package jsonwire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// The readers work on checked JSON only (see Check): values are byte slices of
// the checked text, without surrounding space. Each reader is a method of
// the text's Index, which lets it skip a large value without scanning it;
// a nil *Index reads any checked text, scanning.

// Index is what the check records of a text for its readers: where each
// container of at least indexMin bytes, and each string of at least
// indexMinString bytes holding an escaped quote, ends, and how many bytes of
// insignificant space a container holds, for the values nested at most
// indexDepth levels deep. The readers skip values by looking their ends
// up, so that a value is not scanned again at every level above it, and
// compact a container as a slice of the text compacted once. For those
// containers it also keeps the tape: where each member and element
// starts and ends, so that walking one scans nothing (see entry). Twenty
// four bytes a recorded value, twelve a taped entry.
type Index struct {
	text      []byte  // the text as checked
	spans     []span  // the recorded values, in the order they open (by start)
	tape      []entry // the members and elements of recorded containers, each container's together
	space     int     // the bytes of insignificant space in text
	compacted []byte  // text without insignificant space: by the check when eager, else when first needed
	Eager     bool    // whether the check makes compacted as it goes (set before it)
	// Owned: the text is the index's to hand out (no caller changes it
	// after the check), so that when it holds no insignificant space,
	// compacted is the text itself rather than a copy (set before the
	// check).
	Owned   bool
	scanned int // the bytes the readers scanned to skip values, for tests
	cur     int // the last value lookup found, where the next search starts
}

// span is a recorded value, text[start:end], holding spaces bytes of
// insignificant space, with before bytes of it in the text before it. A
// recorded container's members or elements are tape[first-1:][:n]; first
// is 0 when they are not on the tape.
type span struct{ start, end, spaces, before, first, n uint32 }

// entry is a member of a recorded object, whose key starts at
// text[k&^keyEscaped] (k has the bit keyEscaped set when the key holds an
// escape), or an element of a recorded array (k unused), whose value is
// text[v:e]: what the check found of it, so that the readers walk a
// recorded container without scanning it again. Twelve bytes an entry.
type entry struct{ k, v, e uint32 }

// keyEscaped marks an entry whose key holds an escape (texts are shorter
// than 2 GiB).
const keyEscaped = 1 << 31

// tapeRatio bounds the tape: at most one entry for every tapeRatio bytes
// of text (twelve bytes of tape for sixteen of text, however the text is
// made, and as much again for the pending entries as they grow). A text
// that would need more (a long array of single digits, an object of many
// short members) has its later containers read by scanning, as without a
// tape. tapeGuess is the room the tape starts with: one entry for that
// many bytes.
const (
	tapeRatio = 16
	tapeGuess = 32
)

// indexMin is the size from which a container is recorded: skipping a
// smaller one by scanning costs no more than a lookup, and a
// byte is then scanned at most about indexMin/2 times however deep it
// sits, since every container scanned to skip it is smaller than
// indexMin.
const indexMin = 64

// indexMinString is the size from which a string holding an escaped
// quote is recorded: skipping one by scanning stops at every escaped
// quote. (One in a container shorter than indexMin is dropped with it.)
const indexMinString = 16

// indexDepth is the deepest level recorded. The readers walk a provider's
// reply structure, never deeper than about ten levels (a Gemini stream's
// args objects are at level 9), and skip or compact what is below in one
// pass: recording deeper levels would only cost memory (sixteen bytes a
// level of a deeply nested argument).
const indexDepth = 16

// offset returns the offset of data, a slice of the checked text, in the
// text; -1 when x is nil or data is not a slice of it.
func (x *Index) offset(data []byte) int {
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
// nil when none is recorded there. The readers look values up mostly in
// the order of the text, so the search gallops on from the last value
// found before it halves.
func (x *Index) lookup(o int) *span {
	s := x.spans
	lo, hi := 0, len(s)
	if c := x.cur; c < len(s) {
		switch st := int(s[c].start); {
		case st == o:
			return &s[c]
		case st > o:
			hi = c
		default:
			lo = c + 1
			for step := 1; ; step *= 2 {
				j := c + step
				if j >= len(s) {
					break
				}
				if int(s[j].start) >= o {
					hi = j + 1
					break
				}
				lo = j + 1
			}
		}
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(s[m].start) < o {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s) && int(s[lo].start) == o {
		x.cur = lo
		return &s[lo]
	}
	return nil
}

// container returns the recorded container that is raw, nil when raw is
// not one.
func (x *Index) container(raw []byte) *span {
	base := x.offset(raw)
	if base < 0 || raw[0] != '{' && raw[0] != '[' {
		return nil
	}
	if sp := x.lookup(base); sp != nil && int(sp.end)-base == len(raw) {
		return sp
	}
	return nil
}

// spaceBits has bit b set for each space byte b of JSON.
const spaceBits = 1<<' ' | 1<<'\t' | 1<<'\n' | 1<<'\r'

// SkipSpace returns the offset of the first non-space byte at or after i.
func SkipSpace(data []byte, i int) int {
	for i < len(data) {
		b := data[i]
		if b > ' ' || spaceBits>>b&1 == 0 {
			return i
		}
		i++
		if b == '\n' {
			// A new line's indentation, eight bytes at a time: the
			// lowest byte of w that is not 0 is the first that is not a
			// space.
			for i+8 <= len(data) {
				if w := binary.LittleEndian.Uint64(data[i:]) ^ ' '*swarOnes; w != 0 {
					i += bits.TrailingZeros64(w) >> 3
					break
				}
				i += 8
			}
		}
	}
	return i
}

// end returns the end of the checked value that starts at data[i]; base
// is data's offset in the text (-1: unknown, scan).
func (x *Index) end(data []byte, base, i int) int {
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

// End returns the end of the checked value that starts at data[i],
// scanning it.
func End(data []byte, i int) int { return (*Index)(nil).end(data, -1, i) }

// scan counts n bytes scanned to skip a value.
func (x *Index) scan(n int) {
	if x != nil {
		x.scanned += n
	}
}

// stringEnd returns the end of the checked string that starts at data[i]:
// past the first quote that is not part of an escape. At the first escaped
// quote it looks the string up (base is data's offset in the text, -1 for
// none).
func (x *Index) stringEnd(data []byte, base, i int) int {
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

// Member is one member of a checked object: its key (quotes included, as
// sent), its value, and the whole member text from the key's quote to the
// value's end.
type Member struct {
	Key, Val, Whole []byte
}

// Members calls fn for each member of the checked object obj, in order,
// stopping at the first error.
func Members(obj []byte, fn func(m Member) error) error {
	return (*Index)(nil).Members(obj, fn)
}

// entries returns the taped members or elements of raw, nil when raw is
// not a container on the tape; base is raw's offset in the text (-1: not
// a slice of it).
func (x *Index) entries(raw []byte) (es []entry, base int) {
	if sp := x.container(raw); sp != nil && sp.first != 0 {
		return x.tape[sp.first-1:][:sp.n], int(sp.start)
	}
	return nil, x.offset(raw)
}

// keyEnd returns the end of the key of the member whose value starts at
// obj[v]: past the quote before the colon.
func keyEnd(obj []byte, v int) int {
	i := v - 1
	for obj[i] != ':' {
		i--
	}
	for i--; obj[i] != '"'; i-- {
	}
	return i + 1
}

// members is Members for a slice of x's text.
func (x *Index) Members(obj []byte, fn func(m Member) error) error {
	es, base := x.entries(obj)
	if es != nil {
		for _, e := range es {
			k, v, end := int(e.k&^keyEscaped)-base, int(e.v)-base, int(e.e)-base
			if err := fn(Member{Key: obj[k:keyEnd(obj, v)], Val: obj[v:end], Whole: obj[k:end]}); err != nil {
				return err
			}
		}
		return nil
	}
	i := SkipSpace(obj, 1)
	for i < len(obj) && obj[i] == '"' {
		ke := x.stringEnd(obj, -1, i) // keys are not recorded
		vs := SkipSpace(obj, SkipSpace(obj, ke)+1)
		ve := x.end(obj, base, vs)
		if err := fn(Member{Key: obj[i:ke], Val: obj[vs:ve], Whole: obj[i:ve]}); err != nil {
			return err
		}
		i = SkipSpace(obj, ve)
		if i < len(obj) && obj[i] == ',' {
			i = SkipSpace(obj, i+1)
		}
	}
	return nil
}

// Elems calls fn for each element of the checked array arr, in order,
// stopping at the first error.
func Elems(arr []byte, fn func(i int, v []byte) error) error {
	return (*Index)(nil).Elems(arr, fn)
}

// elems is Elems for a slice of x's text.
func (x *Index) Elems(arr []byte, fn func(i int, v []byte) error) error {
	es, base := x.entries(arr)
	if es != nil {
		for n, e := range es {
			if err := fn(n, arr[int(e.v)-base:int(e.e)-base]); err != nil {
				return err
			}
		}
		return nil
	}
	i := SkipSpace(arr, 1)
	for n := 0; i < len(arr) && arr[i] != ']'; n++ {
		e := x.end(arr, base, i)
		if err := fn(n, arr[i:e]); err != nil {
			return err
		}
		i = SkipSpace(arr, e)
		if i < len(arr) && arr[i] == ',' {
			i = SkipSpace(arr, i+1)
		}
	}
	return nil
}

// Len returns the number of elements of the checked array arr.
func (x *Index) Len(arr []byte) int {
	if es, _ := x.entries(arr); es != nil {
		return len(es)
	}
	n := 0
	_ = x.Elems(arr, func(int, []byte) error { n++; return nil })
	return n
}

// first returns the first element of the checked array list, nil when it
// is empty.
func (x *Index) First(list []byte) []byte {
	i := SkipSpace(list, 1)
	if list[i] == ']' {
		return nil
	}
	return list[i:x.end(list, x.offset(list), i)]
}

// KeyIs reports whether the quoted key equals name exactly (after
// unescaping).
func KeyIs(key []byte, name string) bool {
	inner := key[1 : len(key)-1]
	for _, b := range inner {
		if b == '\\' {
			return string(AppendUnquoted(nil, key)) == name
		}
	}
	return string(inner) == name
}

// fields returns the values of the keys names in the checked object obj
// (nil for an absent key) in vals, which must be as long as names. Keys
// match exactly; the check already rejected duplicates. It also returns
// the first key that is not one of names but equals one of them in
// another case ("NAME" for "name"), as encoding/json would match it; nil
// when there is none.
func (x *Index) Fields(obj []byte, names []string, vals [][]byte) (caseVariant []byte) {
	caseVariant, _ = x.FieldsCount(obj, names, vals)
	return caseVariant
}

// fieldsCount is fields, counting the members whose keys are not in names
// too.
func (x *Index) FieldsCount(obj []byte, names []string, vals [][]byte) (caseVariant []byte, others int) {
	clear(vals)
	if es, base := x.entries(obj); es != nil {
		// The taped members, without a callback.
		for _, e := range es {
			k, v := int(e.k&^keyEscaped)-base, int(e.v)-base
			ke := keyEnd(obj, v)
			key := obj[k+1 : ke-1]
			if e.k&keyEscaped != 0 {
				key = AppendUnquoted(nil, obj[k:ke])
			}
			if i := nameIndex(key, names); i >= 0 {
				vals[i] = obj[v : int(e.e)-base]
			} else {
				others, caseVariant = other(key, names, others, caseVariant)
			}
		}
		return caseVariant, others
	}
	_ = x.Members(obj, func(m Member) error {
		key := m.Key[1 : len(m.Key)-1]
		if hasBackslash(key) {
			key = AppendUnquoted(nil, m.Key)
		}
		if i := nameIndex(key, names); i >= 0 {
			vals[i] = m.Val
		} else {
			others, caseVariant = other(key, names, others, caseVariant)
		}
		return nil
	})
	return caseVariant, others
}

// other counts, for FieldsCount, a member whose key (unquoted) is not one
// of names, and keeps it as the first case variant when it is one.
func other(key []byte, names []string, others int, caseVariant []byte) (int, []byte) {
	if caseVariant == nil {
		caseVariant = foldsTo(key, names)
	}
	return others + 1, caseVariant
}

// nameIndex returns the index of key (unquoted) in names, -1 when it is
// not one of them; an empty name matches nothing.
func nameIndex(key []byte, names []string) int {
	for i, n := range names {
		// The length and the first byte before a call to compare.
		if len(n) == len(key) && len(n) > 0 && n[0] == key[0] && string(key) == n {
			return i
		}
	}
	return -1
}

// foldsTo returns key when it equals one of names in another case ("NAME"
// for "name"), as encoding/json would match it; nil when it does not.
func foldsTo(key []byte, names []string) []byte {
	ascii := isASCII(key)
	for _, n := range names {
		switch {
		case n == "":
		case ascii:
			// An ASCII key folds only to an (ASCII) name as long, whose
			// first letter it matches but for the case bit.
			if len(key) == len(n) && key[0]|0x20 == n[0]|0x20 && bytes.EqualFold(key, []byte(n)) {
				return key
			}
		case bytes.EqualFold(key, []byte(n)):
			return key
		}
	}
	return nil
}

// hasBackslash reports whether b holds a backslash: a loop for the short
// keys of replies, where bytes.IndexByte's call costs more than it saves.
func hasBackslash(b []byte) bool {
	if len(b) > 32 {
		return bytes.IndexByte(b, '\\') >= 0
	}
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
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
func (x *Index) Field(raw []byte, name string) []byte {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var v []byte
	_ = x.Members(raw, func(m Member) error {
		if KeyIs(m.Key, name) {
			v = m.Val
			return errFound
		}
		return nil
	})
	return v
}

// Text returns the text of a checked JSON string value.
func Text(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		return string(AppendUnquoted(make([]byte, 0, len(inner)), raw)), true
	}
	return string(inner), true
}

// count counts the elements of the checked array arr that are objects
// with the key key; when want is not "", its value must be the string want
// as sent (without escapes). It sizes slices before they are filled.
func (x *Index) Count(arr []byte, key, want string) int {
	n := 0
	_ = x.Elems(arr, func(_ int, v []byte) error {
		if key == "" {
			n++
			return nil
		}
		f := x.Field(v, key)
		if f != nil && f[0] != 'n' && (want == "" || len(f) == len(want)+2 && string(f[1:len(f)-1]) == want) {
			n++
		}
		return nil
	})
	return n
}

// Compact returns the checked value raw without insignificant space,
// reusing raw when it has none.
func Compact(raw []byte) []byte { return (*Index)(nil).Compact(raw) }

// AppendCompact appends the checked JSON raw to dst without
// insignificant space.
func AppendCompact(dst, raw []byte) []byte { return (*Index)(nil).AppendCompact(dst, raw) }

// compact is Compact for a slice of x's text. A recorded container is a
// slice of the whole text compacted (once: by the check, when x is eager,
// or when first needed), so that
// compacting values nested in one another (a call's arguments, then the
// content that holds them) copies each byte once.
func (x *Index) Compact(raw []byte) []byte {
	if sp := x.container(raw); sp != nil {
		if sp.spaces == 0 {
			return raw
		}
		if x.compacted == nil {
			x.compacted = x.AppendCompact(make([]byte, 0, len(x.text)-x.space), x.text)
		}
		from := int(sp.start - sp.before)
		to := from + len(raw) - int(sp.spaces)
		return x.compacted[from:to:to]
	}
	n := x.Spaces(raw)
	if n == 0 {
		return raw
	}
	return x.AppendCompact(make([]byte, 0, len(raw)-n), raw)
}

// CompactIn is Compact for values handed out to callers, who own them:
// with b not nil, the result never shares memory with the text (which is
// the caller's buffer) and its capacity ends where it ends. A recorded
// container is a slice of the text compacted once when that was made (the
// check makes it when x is eager), else it is compacted alone into room
// from b, as is any other value. With a nil b it is Compact.
func (x *Index) CompactIn(b *Blocks, raw []byte) []byte {
	if b == nil {
		return x.Compact(raw)
	}
	if sp := x.container(raw); sp != nil && x.compacted != nil {
		from := int(sp.start - sp.before)
		to := from + len(raw) - int(sp.spaces)
		return x.compacted[from:to:to]
	}
	return b.Take(x.AppendCompact(b.Room(len(raw)), raw))
}

// spaces counts the bytes of insignificant space in raw, a run of checked
// JSON that starts outside a string: what appendCompact leaves out. For a
// recorded container, the check counted them.
func (x *Index) Spaces(raw []byte) int {
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
func (x *Index) AppendCompact(dst, raw []byte) []byte {
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

// Kind names the kind of a checked value, for messages.
func Kind(raw []byte) string {
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

// Scanned returns how many bytes the readers scanned to skip values of
// x's text so far (the index makes most skips lookups), for tests.
func (x *Index) Scanned() int { return x.scanned }

// Recorded reports whether raw is a container the check recorded in x:
// Compact then returns a slice of the text compacted once.
func (x *Index) Recorded(raw []byte) bool { return x.container(raw) != nil }

// Extra returns a JSON object of the members of the checked object obj
// whose keys are not in known, leaving out the keys in dropped and, when
// null, in droppedNull; nil when none is left. Each member is copied as
// sent, without insignificant space.
func (x *Index) Extra(obj []byte, known, dropped, droppedNull []string) []byte {
	return x.ExtraIn(nil, obj, known, dropped, droppedNull)
}

// ExtraIn is Extra made in b: one pass finds the members kept and their
// size (a second finds them again only when there are more than eight),
// then they are copied into room taken from b.
func (x *Index) ExtraIn(b *Blocks, obj []byte, known, dropped, droppedNull []string) []byte {
	var kept [8][]byte
	n, size := 0, 0
	_ = x.Members(obj, func(m Member) error {
		if KeyIn(m.Key, known) || KeyIn(m.Key, dropped) || (m.Val[0] == 'n' && KeyIn(m.Key, droppedNull)) {
			return nil
		}
		if n < len(kept) {
			kept[n] = m.Whole
		}
		n++
		size += len(m.Whole) + 1 // and a '{' or ','
		return nil
	})
	if n == 0 {
		return nil
	}
	out := b.Room(size + 1)
	add := func(whole []byte) {
		if len(out) == 0 {
			out = append(out, '{')
		} else {
			out = append(out, ',')
		}
		out = x.AppendCompact(out, whole)
	}
	if n <= len(kept) {
		for _, w := range kept[:n] {
			add(w)
		}
	} else {
		_ = x.Members(obj, func(m Member) error {
			if !(KeyIn(m.Key, known) || KeyIn(m.Key, dropped) || (m.Val[0] == 'n' && KeyIn(m.Key, droppedNull))) {
				add(m.Whole)
			}
			return nil
		})
	}
	return b.Take(append(out, '}'))
}

// KeyIn reports whether the quoted key equals one of names exactly.
func KeyIn(key []byte, names []string) bool {
	for _, n := range names {
		if KeyIs(key, n) {
			return true
		}
	}
	return false
}

// maxKept is the most bytes of room an Index or a Checker keeps for reuse
// when released: the room a huge text grew is left to the collector.
const maxKept = 256 << 10

// Release drops x's references to the text it indexed and to its compacted
// copy (which callers may keep), so that x can wait for the next check,
// which reuses its room. It reports whether that room is small enough to
// be worth keeping.
func (x *Index) Release() bool {
	x.text, x.compacted = nil, nil
	return cap(x.spans)*int(unsafe.Sizeof(span{}))+cap(x.tape)*int(unsafe.Sizeof(entry{})) <= maxKept
}
