package jsonwire

import (
	"bytes"
	"unsafe"
)

// The arenas: what a reply parser makes of one reply (ids, names, texts;
// arguments and extra members) is cut from a few shared chunks instead of
// allocated a value at a time. A chunk is only ever appended to, so what
// was cut from it never changes; each value keeps its chunk alive, and a
// chunk is at most chunkMax bytes (a longer value gets its own).

// chunkMin and chunkMax bound the chunks of Texts and Blocks: the first
// is sized for the text read (see Size), each further one twice the last.
const (
	chunkMin = 256
	chunkMax = 16 << 10
)

// chunkSize returns the size of the next chunk after one of size last,
// with room for at least n bytes; alone reports that n is too large to
// share a chunk.
func chunkSize(last, n int) (size int, alone bool) {
	if n > chunkMax/4 {
		return n, true
	}
	size = min(max(2*last, chunkMin), chunkMax)
	return max(size, n), false
}

// firstChunk returns the size of the first chunk for a text of n bytes:
// about a sixteenth of it, the share of a reply that is names, ids and
// texts.
func firstChunk(n int) int { return min(max(n/16, chunkMin), chunkMax) }

// chunks is the memory of Texts and Blocks: the chunk values are cut from.
type chunks struct {
	buf []byte
}

// size sizes the first chunk for a text of n bytes.
func (c *chunks) size(n int) {
	if c.buf == nil {
		c.buf = make([]byte, 0, firstChunk(n))
	}
}

// room returns an empty slice with room for n bytes: the free end of the
// chunk, or a new chunk (or, for a large n, a slice of its own).
func (c *chunks) room(n int) []byte {
	if cap(c.buf)-len(c.buf) >= n {
		return c.buf[len(c.buf):]
	}
	size, alone := chunkSize(cap(c.buf), n)
	if alone {
		return make([]byte, 0, size)
	}
	c.buf = make([]byte, 0, size)
	return c.buf
}

// take marks dst, a slice room returned, appended to, as used, and
// returns it with its capacity ending where it ends. Appending beyond the
// room asked for is safe: append then moved dst out of the chunk.
func (c *chunks) take(dst []byte) []byte {
	dst = dst[:len(dst):len(dst)]
	if sameStart(c.buf[len(c.buf):], dst) {
		c.buf = c.buf[:len(c.buf)+len(dst)]
	}
	return dst
}

// Texts makes the strings read from one text. The zero value is ready; a
// nil *Texts allocates each string alone.
type Texts struct {
	chunks
}

// Size sizes the first chunk for a text of n bytes.
func (t *Texts) Size(n int) {
	if t != nil {
		t.size(n)
	}
}

// Text returns the text of a checked JSON string value, as [Text] does.
func (t *Texts) Text(raw []byte) (string, bool) {
	s, _, ok := t.TextBytes(raw)
	return s, ok
}

// TextBytes is Text that also returns the string's bytes, which share its
// memory: they are for reading only (checking an OpenAI arguments text),
// never for writing.
func (t *Texts) TextBytes(raw []byte) (s string, b []byte, ok bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", nil, false
	}
	inner := raw[1 : len(raw)-1]
	if len(inner) == 0 {
		return "", nil, true
	}
	escaped := bytes.IndexByte(inner, '\\') >= 0
	if t == nil {
		if escaped {
			b = AppendUnquoted(make([]byte, 0, len(inner)), raw)
		} else {
			b = append(make([]byte, 0, len(inner)), inner...)
		}
		return unsafe.String(unsafe.SliceData(b), len(b)), b, true
	}
	// The text is at most as long as inner: reserve that, so that the
	// append below stays in the chunk.
	dst := t.room(len(inner))
	if escaped {
		dst = AppendUnquoted(dst, raw)
	} else {
		dst = append(dst, inner...)
	}
	b = t.take(dst)
	if len(b) == 0 {
		return "", nil, true
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), b, true
}

// String returns b as a string made in t (b as sent, not unquoted: a
// JSON-RPC id's text).
func (t *Texts) String(b []byte) string {
	if t == nil || len(b) == 0 {
		return string(b)
	}
	s := t.take(append(t.room(len(b)), b...))
	return unsafe.String(unsafe.SliceData(s), len(s))
}

// sameStart reports whether a and b start at the same byte of memory.
func sameStart(a, b []byte) bool {
	return cap(a) > 0 && cap(b) > 0 && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// Blocks hands out the byte slices made from one text (arguments, extra
// members), cut from shared chunks; each slice's capacity ends where it
// ends, so that appending to one copies it rather than writing over the
// next. The zero value is ready; a nil *Blocks allocates each slice alone.
type Blocks struct {
	chunks
}

// Size sizes the first chunk for a text of n bytes.
func (b *Blocks) Size(n int) {
	if b != nil {
		b.size(n)
	}
}

// Room returns an empty slice with room for at least n bytes, to append
// to and then pass to Take.
func (b *Blocks) Room(n int) []byte {
	if b == nil {
		return make([]byte, 0, n)
	}
	return b.room(n)
}

// Take marks dst, a slice Room returned, appended to, as used and returns
// it with its capacity ending where it ends. Appending beyond the room
// asked for is safe: append then moved dst out of the chunk.
func (b *Blocks) Take(dst []byte) []byte {
	if b == nil {
		return dst[:len(dst):len(dst)]
	}
	return b.take(dst)
}
