package adapters

import (
	"bytes"
	"fmt"
)

// A framer cuts a streamed body into events as its bytes arrive, in any
// pieces: a piece may end inside a line, a UTF-8 character or a frame. It
// calls emit with each event's name ("" when the framing has none) and
// data, which emit must not keep.
type framer interface {
	write(b []byte, emit func(name string, data []byte) error) error
	// end is called at the end of the body: the event it was reading, if
	// any, is emitted or is an error.
	end(emit func(name string, data []byte) error) error
}

// frameError is a framing error; the Stream names the provider.
func frameError(sentinel error, format string, args ...any) error {
	return &ReplyError{Problem: fmt.Sprintf(format, args...), Err: sentinel}
}

// sseFramer reads Server-Sent Events (the WHATWG HTML rules): lines end in
// LF, CRLF or CR; "data:" lines are joined with LF; "event:" names the
// event; lines starting with ":" are comments; an empty line ends the
// event; one leading space of a value is dropped; a byte-order mark may
// start the body; other fields (id, retry) are ignored. An event still
// open at the end of the body is emitted (a stream cut inside its last
// event then fails on that event's JSON, not silently).
type sseFramer struct {
	max     int    // the largest event, in bytes
	line    gather // the line being read, when it spans writes
	data    []byte // the event's data lines, joined
	name    []byte // the event's name
	hasData bool   // the event has a data line (maybe empty)
	cr      bool   // the last write ended with a CR: a LF first is its pair
	lines   int    // lines read, for the byte-order mark on the first
}

func newSSEFramer(max int) *sseFramer { return &sseFramer{max: max} }

func (f *sseFramer) write(b []byte, emit func(string, []byte) error) error {
	if f.cr && len(b) > 0 && b[0] == '\n' {
		b = b[1:]
	}
	f.cr = false
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			if f.line.n+len(b) > f.max+16 {
				return frameError(ErrReplyLimit, "a line of more than %d bytes", f.max)
			}
			f.line.add(b)
			return nil
		}
		line := b[:i]
		if f.line.n > 0 {
			if f.line.n+i > f.max+16 {
				return frameError(ErrReplyLimit, "a line of more than %d bytes", f.max)
			}
			line = f.line.join(line)
		}
		if b[i] == '\r' {
			if i+1 == len(b) {
				f.cr = true
			} else if b[i+1] == '\n' {
				i++
			}
		}
		b = b[i+1:]
		err := f.lineDone(line, emit)
		f.line.reset()
		if err != nil {
			return err
		}
	}
	return nil
}

func (f *sseFramer) lineDone(line []byte, emit func(string, []byte) error) error {
	f.lines++
	if f.lines == 1 {
		line = bytes.TrimPrefix(line, []byte("\uFEFF"))
	}
	if len(line) == 0 {
		if !f.hasData {
			f.name = f.name[:0]
			return nil
		}
		err := emit(string(f.name), f.data)
		f.data, f.name, f.hasData = f.data[:0], f.name[:0], false
		return err
	}
	if line[0] == ':' {
		return nil // a comment (": OPENROUTER PROCESSING", keep-alives)
	}
	field, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(field) {
	case "data":
		if !f.hasData && len(f.data) == 0 && f.line.joined(line) {
			// The event's first data line, read across writes: it becomes
			// the data, and the data's room the room the next line is
			// joined in, instead of a copy of a line that may be
			// megabytes long.
			if len(value) > f.max {
				return frameError(ErrReplyLimit, "an event of more than %d bytes", f.max)
			}
			f.data, f.line.room = value, f.data[:0]
			f.hasData = true
			return nil
		}
		if f.hasData {
			f.data = append(f.data, '\n')
		}
		if len(f.data)+len(value) > f.max {
			return frameError(ErrReplyLimit, "an event of more than %d bytes", f.max)
		}
		f.data = appendDoubling(f.data, value)
		f.hasData = true
	case "event":
		f.name = append(f.name[:0], value...)
	}
	return nil
}

// appendDoubling is append for a line read in pieces, doubling the room
// when it grows: append's slower growth of large slices allocates about
// five times the final size of a long line.
func appendDoubling(dst, src []byte) []byte {
	if n := len(dst) + len(src); n > cap(dst) {
		dst = append(make([]byte, 0, max(n, 2*cap(dst))), dst...)
	}
	return append(dst, src...)
}

func (f *sseFramer) end(emit func(string, []byte) error) error {
	if f.line.n > 0 {
		if err := f.lineDone(f.line.join(nil), emit); err != nil {
			return err
		}
		f.line.reset()
	}
	return f.lineDone(nil, emit)
}

// gather holds the bytes of one line or value that arrive over several
// writes. They go into chunks, doubling from gatherFirst bytes up to
// gatherChunk, which are reused for the next line, and are joined once,
// when the line is whole, in one room grown to the size needed (and
// reused too). A line of n bytes so costs about 2n bytes allocated, where
// one room doubled as it grew cost 2n to 4n (append's growth, about 5n),
// and lines of similar sizes allocate nothing after the first.
type gather struct {
	chunks [][]byte // the chunks in use, each full but the last
	free   [][]byte // the chunks of earlier lines, to reuse
	n      int      // the bytes gathered
	room   []byte   // where the chunks are joined
}

const (
	gatherFirst = 512
	gatherChunk = 64 << 10
)

// add gathers b.
func (g *gather) add(b []byte) {
	g.n += len(b)
	for len(b) > 0 {
		k := len(g.chunks) - 1
		if k < 0 || len(g.chunks[k]) == cap(g.chunks[k]) {
			g.chunks = append(g.chunks, g.chunk())
			k++
		}
		c := g.chunks[k]
		m := min(cap(c)-len(c), len(b))
		g.chunks[k] = append(c, b[:m]...)
		b = b[m:]
	}
}

// chunk returns an empty chunk: one of the free ones, else a new one
// twice as large as the last in use.
func (g *gather) chunk() []byte {
	if n := len(g.free); n > 0 {
		c := g.free[n-1]
		g.free = g.free[:n-1]
		return c[:0]
	}
	size := gatherFirst
	if k := len(g.chunks); k > 0 {
		size = min(2*cap(g.chunks[k-1]), gatherChunk)
	}
	return make([]byte, 0, size)
}

// join returns the bytes gathered followed by tail, in g's room, which
// stays g's until the next join (see joined).
func (g *gather) join(tail []byte) []byte {
	n := g.n + len(tail)
	if cap(g.room) < n {
		g.room = make([]byte, 0, n)
	}
	out := g.room[:0]
	for _, c := range g.chunks {
		out = append(out, c...)
	}
	g.room = append(out, tail...)
	return g.room
}

// joined reports whether line is what the last join returned.
func (g *gather) joined(line []byte) bool {
	return len(line) > 0 && len(line) == len(g.room) && &line[0] == &g.room[0]
}

// reset empties g for the next line, keeping its chunks to reuse.
func (g *gather) reset() {
	for i, c := range g.chunks {
		g.free = append(g.free, c)
		g.chunks[i] = nil
	}
	g.chunks, g.n = g.chunks[:0], 0
}

// valueFramer reads a body of JSON objects: one JSON array of them (a
// Gemini stream without alt=sse), or objects one after another (JSON
// lines: Ollama's stream). It finds where each object ends by counting
// brackets outside strings, and leaves checking it to the assembler.
type valueFramer struct {
	max    int
	state  byte   // ' ': before anything; '[' in the array before an element or ']'; ',': after an element; 'v': in an object; 'e': after the array
	array  bool   // the body is one array
	depth  int    // brackets open in the object
	inStr  bool   // in a string of the object
	esc    bool   // after a backslash in that string
	buf    gather // the object read so far, when it spans writes
	offset int    // body bytes before this write
	seen   bool   // a byte other than space came
}

func newValueFramer(max int) *valueFramer { return &valueFramer{max: max, state: ' '} }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (f *valueFramer) write(b []byte, emit func(string, []byte) error) error {
	start := -1 // where the object being read starts in b; -1: it started in an earlier write, or none is open
	for i := 0; i < len(b); i++ {
		c := b[i]
		if f.state == 'v' {
			if f.inStr {
				if f.esc { // b[i] was escaped by a backslash at the end of the last write
					f.esc = false
					continue
				}
				// Skip to the next quote or backslash.
				j := bytes.IndexAny(b[i:], "\"\\")
				if j < 0 {
					i = len(b) - 1
					continue
				}
				i += j
				if b[i] == '\\' {
					if i+1 == len(b) {
						f.esc = true
					}
					i++ // the escaped byte
					continue
				}
				f.inStr = false
				continue
			}
			switch c {
			case '"':
				f.inStr = true
			case '{', '[':
				f.depth++
			case '}', ']':
				f.depth--
				if f.depth == 0 {
					obj := b[max(start, 0) : i+1]
					if start < 0 {
						if f.buf.n+len(obj) > f.max {
							return frameError(ErrReplyLimit, "an event of more than %d bytes", f.max)
						}
						obj = f.buf.join(obj)
					}
					if len(obj) > f.max {
						return frameError(ErrReplyLimit, "an event of more than %d bytes", f.max)
					}
					if f.array {
						f.state = ','
					} else {
						f.state = ' '
					}
					err := emit("", obj)
					f.buf.reset()
					start = -1
					if err != nil {
						return err
					}
				}
			}
			continue
		}
		if isSpace(c) {
			continue
		}
		first := !f.seen
		f.seen = true
		switch {
		case first && c == '[':
			f.array, f.state = true, '['
		case (f.state == ' ' || f.state == '[') && c == '{':
			f.state, f.depth, start = 'v', 1, i
		case f.array && f.state == ',' && c == ',':
			f.state = '['
		case f.array && (f.state == ',' || f.state == '[') && c == ']':
			f.state = 'e'
		default:
			what := "an object"
			switch {
			case f.state == 'e':
				what = "the end of the body after the array"
			case f.array && f.state == ',':
				what = `"," or "]"`
			}
			return frameError(ErrNotJSON, "expected %s, got %s at byte %d", what, quoteByte(c), f.offset+i)
		}
	}
	if f.state == 'v' {
		piece := b
		if start >= 0 {
			piece = b[start:]
		}
		if f.buf.n+len(piece) > f.max {
			return frameError(ErrReplyLimit, "an event of more than %d bytes", f.max)
		}
		f.buf.add(piece)
	}
	f.offset += len(b)
	return nil
}

func (f *valueFramer) end(emit func(string, []byte) error) error {
	switch {
	case f.state == 'v':
		return frameError(ErrIncomplete, "the body ended inside an object")
	case f.array && f.state != 'e':
		return frameError(ErrIncomplete, "the body ended before the array's \"]\"")
	}
	return nil
}

// quoteByte names a byte in an error: "'x'" or "0x07".
func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", rune(c))
	}
	return fmt.Sprintf("0x%02x", c)
}
