package adapters

import (
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// Gemini streamGenerateContent sends GenerateContentResponse chunks: with
// alt=sse as Server-Sent Events (one chunk per data line), without it as
// one JSON array of chunks. The framer tells which from the body's first
// byte. Each chunk is checked as it arrives (the same checks a chunk of
// [ParseGeminiReply]'s stream array gets), and its first candidate's parts
// are gathered, in order, into one model content; at the end that content,
// with the last finishReason, is the whole response ParseGeminiReply reads.
// Chunks hold nothing else the turn needs (usageMetadata, modelVersion and
// the like are not kept).
//
// A functionCall part is normally whole in its chunk: its call is handed
// out at once. Vertex AI's streamFunctionCallArguments sends a call in
// pieces instead: a functionCall with a name and willContinue: true, then
// functionCall parts with partialArgs only (each a JSON path and a value)
// or nothing but willContinue, and a functionCall whose willContinue is
// not true (usually {}) as its last piece. The pieces are applied to one
// arguments object (geminiTree: a piece costs a node or two however deep
// its path, and the object's compact size is counted as it grows, so that
// arguments that would make the assembled reply pass the reply limit fail
// at the piece that passes it), and the call's part is replayed as one
// whole functionCall part ({"name","args"}, with the first piece's
// thoughtSignature) at the position of its first piece.
var geminiStreamSpec = &streamSpec{
	framer:   func(max int) framer { return &geminiFramer{max: max} },
	assemble: func(*spec) assembler { return new(geminiStream) },
}

var (
	geminiStreamCallKeys = []string{"id", "name", "args", "partialArgs", "willContinue"}
	geminiPartialArgKeys = []string{"jsonPath", "stringValue", "numberValue", "boolValue", "nullValue", "willContinue"}
)

// geminiFramer decides, from the body's first byte that is not space (a
// byte-order mark first is skipped), how the body is framed: "[" a JSON
// array of chunks, "{" chunks one after another, anything else
// Server-Sent Events. It then hands every byte to that framer.
type geminiFramer struct {
	max   int
	inner framer // nil until the first byte that is not space
	n     int    // bytes before it
	bom   int    // bytes of a byte-order mark at the start (3: all)
	nl    bool   // a line ended before it
	sp    bool   // its line starts with a space or tab
}

const byteOrderMark = "\uFEFF"

func (f *geminiFramer) write(b []byte, emit func(string, []byte) error) error {
	if f.inner != nil {
		return f.inner.write(b, emit)
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if f.n == f.bom && f.bom < len(byteOrderMark) {
			if c == byteOrderMark[f.bom] {
				f.bom++
				f.n++
				continue
			}
			if f.bom > 0 { // the start of a mark, then another byte: SSE text
				sse := newSSEFramer(f.max)
				f.inner = sse
				if err := sse.write([]byte(byteOrderMark[:f.bom]), emit); err != nil {
					return err
				}
				return sse.write(b[i:], emit)
			}
		}
		if isSpace(c) {
			f.n++
			if c == '\n' || c == '\r' {
				f.nl, f.sp = true, false
			} else {
				f.sp = true
			}
			continue
		}
		if c == '[' || c == '{' {
			vf := newValueFramer(f.max)
			vf.offset = f.n // the bytes before b[i], for its errors
			f.inner = vf
			return vf.write(b[i:], emit)
		}
		// SSE: the space before the first line that is not space is
		// replayed as far as it matters (a line ended; the line starts
		// with a space, which makes its field unknown).
		sse := newSSEFramer(f.max)
		f.inner = sse
		var head []byte
		if f.bom == len(byteOrderMark) {
			head = append(head, byteOrderMark...)
		}
		if f.nl {
			head = append(head, '\n')
		}
		if f.sp {
			head = append(head, ' ')
		}
		if err := sse.write(head, emit); err != nil {
			return err
		}
		return sse.write(b[i:], emit)
	}
	return nil
}

func (f *geminiFramer) end(emit func(string, []byte) error) error {
	if f.inner == nil {
		return nil // only space: no events
	}
	return f.inner.end(emit)
}

// geminiStream is the state of one Gemini stream.
type geminiStream struct {
	// parts is the reply being assembled: its head (geminiReplyHead),
	// then the parts so far, compact, joined by commas, with holes where
	// streamed calls' parts go when parts came after them.
	parts  []byte
	nparts int          // parts in parts
	holed  int          // the bytes of the parts that go in the holes
	holes  []geminiHole // where streamed calls' parts go, in order
	calls  int          // calls so far, whole and streamed
	open   *geminiCall  // the streamed call being read
	stop   []byte       // the last finishReason, as sent
	msg    []byte       // its finishMessage, as sent
	ids    callIDs      // the calls' ids so far
	segs   []geminiSeg  // a JSON path's segments, reused
	ended  bool         // the last functionCall part ended a streamed call
}

// geminiHole is where, in parts, the part of a streamed call goes.
type geminiHole struct {
	at int
	c  *geminiCall
}

// geminiCall is a streamed (Vertex partialArgs) call being assembled.
type geminiCall struct {
	index   int    // its position among the turn's calls
	event   int    // the event of its first piece
	id      string // its id, "" when none
	name    string
	sig     string // the first piece's thoughtSignature
	head    []byte // its first part, compact, up to the functionCall value
	fcHead  []byte // "{" and the functionCall members kept (id, name, ...), each with a comma after
	tail    []byte // its first part after the functionCall value, compact
	tree    geminiTree
	pending string // the jsonPath of a value still streaming (its willContinue was true); "" when none
	args    []byte // the arguments, compact, once closed, when its part goes in a hole
}

// geminiReplyHead is how the reply a Gemini stream is assembled into
// begins.
const geminiReplyHead = `{"candidates":[{"content":{"role":"model","parts":[`

// next makes room for n more bytes of a new part in the reply, after a
// comma when a part came before it.
func (a *geminiStream) next(n int) {
	if a.parts == nil {
		a.parts = append(make([]byte, 0, n+256), geminiReplyHead...)
	}
	a.parts = roomFor(a.parts, n+1)
	if a.nparts > 0 {
		a.parts = append(a.parts, ',')
	}
	a.nparts++
}

// size is the bytes of the reply assembled so far, with the part of the
// streamed call c (nil for none) as its arguments would be now.
func (a *geminiStream) size(c *geminiCall) int {
	n := len(a.parts) + a.holed
	if c != nil {
		n += len(c.head) + len(c.fcHead) + len(`"args":}`) + c.tree.size + len(c.tail)
	}
	return n
}

func (a *geminiStream) event(s *Stream, _ string, data []byte) error {
	obj, err := s.object(data)
	if err != nil {
		return err
	}
	p := &s.rp
	var top [4][]byte
	if err := p.fields(pointer(""), obj, geminiKeys, top[:]); err != nil {
		return err
	}
	if e := top[2]; e != nil && e[0] != 'n' {
		if e[0] == '{' {
			return p.errorObject(pointer("/error"), e, &geminiErrorKeys)
		}
		msg, ok := jsonwire.Text(e)
		if !ok {
			msg = string(p.ix.Compact(e))
		}
		return p.providerError(pointer("/error"), msg, "", "", "")
	}
	var parts, stop, msg []byte
	at, list := pointer("/candidates/0/content"), pointer("/candidates/0/content/parts")
	switch {
	case top[0] != nil && top[0][0] != 'n':
		if top[0][0] != '[' {
			return p.fail(pointer("/candidates"), ErrReplyShape, "expected an array, got %s", jsonwire.Kind(top[0]))
		}
		first := p.ix.First(top[0])
		if first == nil {
			return nil
		}
		var c [3][]byte
		if err := p.fields(pointer("/candidates/0"), first, geminiCandidateKeys, c[:]); err != nil {
			return err
		}
		if _, err := p.text(pointer("/candidates/0/finishReason"), c[1]); err != nil {
			return err
		}
		if c[1] != nil && c[1][0] != 'n' && len(c[1]) > 2 {
			stop, msg = c[1], c[2]
		}
		if c[0] != nil && c[0][0] != 'n' {
			if err := p.object(pointer("/candidates/0/content"), c[0]); err != nil {
				return err
			}
			if parts, err = p.geminiContent(at, c[0]); err != nil {
				return err
			}
		}
	case top[1] != nil:
		return p.geminiBlocked(pointer(""), top[1])
	case top[3] != nil:
		at, list = pointer(""), pointer("/parts")
		if parts, err = p.geminiContent(at, obj); err != nil {
			return err
		}
	}
	before := a.nparts
	if !geminiNoParts(parts) {
		if err := p.ix.Elems(parts, func(i int, raw []byte) error {
			return a.part(s, list.index(i), raw)
		}); err != nil {
			return err
		}
	}
	if stop == nil {
		return nil
	}
	a.stop = append(a.stop[:0], stop...)
	a.msg = append(a.msg[:0], msg...)
	reason, _ := jsonwire.Text(stop)
	if geminiCut(reason) && a.nparts == before {
		return p.geminiNoContent(pointer("/candidates/0/finishReason"), reason, msg)
	}
	return a.endTurn(s, reason)
}

// part reads one part of a chunk's content.
func (a *geminiStream) part(s *Stream, at loc, raw []byte) error {
	p := &s.rp
	var part [4][]byte
	others, err := p.fieldsOthers(at, raw, geminiPartKeys, part[:])
	if err != nil {
		return err
	}
	if _, err := p.text(at.key("/text"), part[0]); err != nil {
		return err
	}
	sig, err := p.text(at.key("/thoughtSignature"), part[2])
	if err != nil {
		return err
	}
	if string(part[1]) != "true" {
		s.textRaw(part[0])
	}
	fc := part[3]
	if fc == nil || fc[0] == 'n' {
		a.keep(p.ix, raw)
		return nil
	}
	fcAt := at.key("/functionCall")
	var f [5][]byte
	if err := p.fields(fcAt, fc, geminiStreamCallKeys, f[:]); err != nil {
		return err
	}
	id, err := p.text(fcAt.key("/id"), f[0])
	if err != nil {
		return err
	}
	name, err := p.text(fcAt.key("/name"), f[1])
	if err != nil {
		return err
	}
	more := false
	switch string(f[4]) {
	case "", "null", "false":
	case "true":
		more = true
	default:
		return p.fail(fcAt.key("/willContinue"), ErrReplyShape, "expected a boolean, got %s", jsonwire.Kind(f[4]))
	}
	partial := f[3] != nil && f[3][0] != 'n'
	if err := p.array(fcAt.key("/partialArgs"), f[3]); err != nil {
		return err
	}

	if name == "" {
		// A piece of the streamed call, or its end.
		c := a.open
		if c == nil {
			if partial {
				return p.fail(fcAt.key("/partialArgs"), ErrArguments, "partialArgs with no streamed call open (a functionCall with a name and willContinue comes first)")
			}
			if !more && f[0] == nil && f[2] == nil && a.ended {
				// An end piece after the call already ended (its last
				// partialArgs had no willContinue): nothing to add.
				a.ended = false
				a.rest(p.ix, raw, &part, others)
				return nil
			}
			return p.fail(fcAt.key("/name"), ErrReplyShape, "missing name")
		}
		if id != "" && id != c.id {
			return p.fail(fcAt.key("/id"), ErrReplyShape, "id %s in a piece of tool call %d (%s), whose id is %s", msgQuote(id), c.index, msgQuote(c.name), msgQuote(c.id))
		}
		if f[2] != nil && f[2][0] != 'n' {
			return p.fail(fcAt.key("/args"), ErrArguments, "args in a piece of the streamed tool call %d (%s): its arguments come as partialArgs", c.index, msgQuote(c.name))
		}
		if partial {
			if err := a.partialArgs(s, fcAt.key("/partialArgs"), f[3], c); err != nil {
				return err
			}
		}
		a.rest(p.ix, raw, &part, others)
		if !more {
			return a.closeOpen(s, p, fcAt)
		}
		return nil
	}

	// A call with a name: the streamed call before it, if any, has ended.
	if err := s.startCall(fcAt); err != nil {
		return err
	}
	a.ended = false
	if err := a.closeOpen(s, p, fcAt.key("/name")); err != nil {
		return err
	}
	if err := p.uniqueID(&a.ids, fcAt.key("/id"), id); err != nil {
		return err
	}
	if !more && !partial {
		args, err := p.argsObject(fcAt.key("/args"), f[2])
		if err != nil {
			return err
		}
		a.calls++
		a.keep(p.ix, raw)
		s.giveCall(Call{ID: id, Name: name, Args: append(make([]byte, 0, len(args)), args...), ThoughtSignature: sig})
		return nil
	}
	if f[2] != nil && f[2][0] != 'n' && (f[2][0] != '{' || jsonwire.SkipSpace(f[2], 1) != len(f[2])-1) {
		return p.fail(fcAt.key("/args"), ErrArguments, "args with streamed partialArgs (willContinue): the arguments come as partialArgs")
	}
	c := &geminiCall{index: a.calls, event: s.events, id: id, name: name, sig: sig, tree: newGeminiTree()}
	a.calls++
	off := cap(raw) - cap(fc)
	c.head = p.ix.AppendCompact(nil, raw[:off])
	c.tail = p.ix.AppendCompact(nil, raw[off+len(fc):])
	c.fcHead = append(c.fcHead, '{')
	_ = p.ix.Members(fc, func(m jsonwire.Member) error {
		if jsonwire.KeyIs(m.Key, "args") || jsonwire.KeyIs(m.Key, "partialArgs") || jsonwire.KeyIs(m.Key, "willContinue") {
			return nil
		}
		c.fcHead = append(append(append(c.fcHead, m.Key...), ':'), p.ix.Compact(m.Val)...)
		c.fcHead = append(c.fcHead, ',')
		return nil
	})
	a.open = c
	a.next(0)
	a.holes = append(a.holes, geminiHole{at: len(a.parts), c: c})
	if partial {
		if err := a.partialArgs(s, fcAt.key("/partialArgs"), f[3], c); err != nil {
			return err
		}
	}
	if !more {
		return a.closeOpen(s, p, fcAt)
	}
	return nil
}

// keep adds the part raw to the content, compact.
func (a *geminiStream) keep(x *jsonwire.Index, raw []byte) {
	a.next(len(raw))
	a.parts = x.AppendCompact(a.parts, raw)
}

// rest keeps what a piece of a streamed call's part holds besides the
// piece (a thoughtSignature, text): the part without its functionCall.
// A part with nothing else is dropped.
func (a *geminiStream) rest(x *jsonwire.Index, raw []byte, part *[4][]byte, others int) {
	n := others
	for _, m := range part[:3] {
		if m != nil {
			n++
		}
	}
	if n == 0 {
		return
	}
	a.next(len(raw))
	a.parts = append(a.parts, '{')
	first := true
	_ = x.Members(raw, func(m jsonwire.Member) error {
		if jsonwire.KeyIs(m.Key, "functionCall") {
			return nil
		}
		if !first {
			a.parts = append(a.parts, ',')
		}
		first = false
		a.parts = append(append(a.parts, m.Key...), ':')
		a.parts = x.AppendCompact(a.parts, m.Val)
		return nil
	})
	a.parts = append(a.parts, '}')
}

// closeOpen ends the streamed call being read, if any, and hands it out.
// at is where the event that ends it points.
func (a *geminiStream) closeOpen(s *Stream, p *replyParser, at loc) error {
	c := a.open
	if c == nil {
		return nil
	}
	if c.pending != "" {
		return p.fail(at, ErrArguments, "tool call %d (%s) ended while its argument %s was still streaming (willContinue)", c.index, msgQuote(c.name), msgQuote(c.pending))
	}
	a.give(s, c)
	return nil
}

// give hands out the streamed call c, which has ended. Its arguments are
// written once: in its place in the reply when no part came after it
// (the Call's Args are then that slice of the reply, as a whole reply's
// calls' are), else apart, for finish to put in its hole.
func (a *geminiStream) give(s *Stream, c *geminiCall) {
	a.open, a.ended = nil, true
	var args []byte
	if h := len(a.holes) - 1; h >= 0 && a.holes[h].c == c && a.holes[h].at == len(a.parts) {
		a.holes = a.holes[:h]
		// Room for the part, and for the reply's end (finish).
		a.parts = roomFor(a.parts, len(c.head)+len(c.fcHead)+len(`"args":}`)+c.tree.size+len(c.tail)+256)
		a.parts = append(append(append(a.parts, c.head...), c.fcHead...), `"args":`...)
		from := len(a.parts)
		a.parts = c.tree.appendJSON(a.parts)
		args = a.parts[from:len(a.parts):len(a.parts)]
		a.parts = append(append(a.parts, '}'), c.tail...)
	} else {
		c.args = c.tree.appendJSON(make([]byte, 0, c.tree.size))
		args = c.args
		a.holed += len(c.head) + len(c.fcHead) + len(`"args":}`) + len(c.args) + len(c.tail)
	}
	c.tree = geminiTree{}
	s.giveCall(Call{ID: c.id, Name: c.name, Args: args, ThoughtSignature: c.sig})
}

// endTurn is the end of the turn (a finishReason, or the end of the
// stream after one): a streamed call still open ends, unless the turn
// was cut (MAX_TOKENS, SAFETY, ...), which cut the call too.
func (a *geminiStream) endTurn(s *Stream, reason string) error {
	c := a.open
	if c == nil {
		return nil
	}
	if geminiCut(reason) || reason == "MAX_TOKENS" {
		return s.rp.fail(pointer("/candidates/0/finishReason"), ErrIncomplete, "tool call %d (%s) was cut off (finishReason %s) before its last piece", c.index, msgQuote(c.name), msgQuote(reason))
	}
	return a.closeOpen(s, &s.rp, pointer("/candidates/0/finishReason"))
}

func (a *geminiStream) finish(s *Stream) ([]byte, error) {
	if a.stop == nil {
		if c := a.open; c != nil {
			return nil, s.failStream(ErrIncomplete, "the stream ended inside tool call %d (%s, started in event %d), with no finishReason", c.index, msgQuote(c.name), c.event)
		}
		return nil, s.failStream(ErrIncomplete, "the stream ended with no finishReason (the last chunk of a Gemini stream has one)")
	}
	if c := a.open; c != nil {
		reason, _ := jsonwire.Text(a.stop)
		if geminiCut(reason) || reason == "MAX_TOKENS" {
			return nil, s.failStream(ErrIncomplete, "the stream ended inside tool call %d (%s, started in event %d), after finishReason %s", c.index, msgQuote(c.name), c.event, msgQuote(reason))
		}
		if c.pending != "" {
			return nil, s.failStream(ErrIncomplete, "the stream ended inside tool call %d (%s), while its argument %s was still streaming", c.index, msgQuote(c.name), msgQuote(c.pending))
		}
		a.give(s, c)
	}
	if a.parts == nil {
		a.parts = append(a.parts, geminiReplyHead...)
	}
	end := len(`]},"finishReason":,"finishMessage":}]}`) + len(a.stop) + len(a.msg)
	b := a.parts
	if len(a.holes) > 0 {
		b = make([]byte, 0, a.size(nil)+end)
	} else {
		b = roomFor(b, end)
	}
	prev := 0
	for _, h := range a.holes {
		b = append(b, a.parts[prev:h.at]...)
		b = append(append(b, h.c.head...), h.c.fcHead...)
		b = append(append(append(b, `"args":`...), h.c.args...), '}')
		b = append(b, h.c.tail...)
		prev = h.at
	}
	if len(a.holes) > 0 {
		b = append(b, a.parts[prev:]...)
	}
	b = append(append(b, `]},"finishReason":`...), a.stop...)
	if len(a.msg) > 0 {
		b = append(append(b, `,"finishMessage":`...), a.msg...)
	}
	return append(b, "}]}"...), nil
}

// partialArgs applies the partialArgs list at at to c.
func (a *geminiStream) partialArgs(s *Stream, at loc, list []byte, c *geminiCall) error {
	p := &s.rp
	list0 := pointer(at.String())
	return p.ix.Elems(list, func(i int, raw []byte) error {
		pa := list0.index(i)
		var v [6][]byte
		if err := p.fields(pa, raw, geminiPartialArgKeys, v[:]); err != nil {
			return err
		}
		if v[0] == nil || v[0][0] != '"' {
			what := "missing"
			if v[0] != nil {
				what = "expected a string, got " + jsonwire.Kind(v[0])
			}
			return p.fail(pa.key("/jsonPath"), ErrArguments, "%s", what)
		}
		path, _ := jsonwire.Text(v[0])
		var val []byte
		kind := byte(0)
		for k, key := range geminiPartialArgKeys[1:5] {
			r := v[k+1]
			if r == nil {
				continue
			}
			if val != nil {
				return p.fail(pa.key("/"+key), ErrArguments, "jsonPath %s: more than one of stringValue, numberValue, boolValue and nullValue", msgQuote(path))
			}
			ok := false
			switch k {
			case 0:
				ok, kind = r[0] == '"', 's'
			case 1:
				ok, kind = r[0] == '-' || r[0] >= '0' && r[0] <= '9', 'v'
			case 2:
				ok, kind = r[0] == 't' || r[0] == 'f', 'v'
			case 3:
				ok, kind = r[0] == 'n' || string(r) == `"NULL_VALUE"`, 'v'
				r = []byte("null")
			}
			if !ok {
				return p.fail(pa.key("/"+key), ErrArguments, "jsonPath %s: expected %s, got %s", msgQuote(path), [...]string{"a string", "a number", "a boolean", "null"}[k], jsonwire.Kind(v[k+1]))
			}
			val = r
		}
		more := false
		switch string(v[5]) {
		case "", "null", "false":
		case "true":
			more = true
		default:
			return p.fail(pa.key("/willContinue"), ErrReplyShape, "expected a boolean, got %s", jsonwire.Kind(v[5]))
		}
		segs, problem := parseGeminiPath(a.segs[:0], path, max(p.maxDepth-geminiArgsDepth, 1))
		a.segs = segs
		if problem != "" {
			return p.fail(pa.key("/jsonPath"), ErrArguments, "jsonPath %s: %s", msgQuote(path), problem)
		}
		if problem := c.tree.apply(segs, path, kind, val); problem != "" {
			return p.fail(pa.key("/jsonPath"), ErrArguments, "jsonPath %s: %s", msgQuote(path), problem)
		}
		if n := a.size(c); n > p.maxBytes {
			return p.fail(pa.key("/jsonPath"), ErrReplyLimit, "the arguments of tool call %d (%s) make the assembled reply %d bytes, more than the limit of %d", c.index, msgQuote(c.name), n, p.maxBytes)
		}
		if more {
			c.pending = path
		} else {
			c.pending = ""
		}
		return nil
	})
}

// geminiArgsDepth is how deep a call's args object sits in the response
// the stream is assembled into ({"candidates":[{"content":{"parts":[{
// "functionCall":{"args":{ : seven levels above it): a path of more
// segments than the depth limit less this would make the response too
// deep.
const geminiArgsDepth = 8

// geminiSeg is one segment of a JSON path: a member name or an index.
type geminiSeg struct {
	key   string
	index int // -1 for a member
	end   int // where the segment ends in the path, for errors
}

// parseGeminiPath parses path, a JSON path (RFC 9535) of singular
// segments: "$", then ".name", "['name']", "[\"name\"]" or "[0]", into
// segs. A member name after "." may hold letters, digits, "_", "-" and
// any character beyond ASCII (a little more than RFC 9535's shorthand,
// which Vertex's names fit). It returns what is wrong, "" when nothing.
func parseGeminiPath(segs []geminiSeg, path string, maxSegs int) ([]geminiSeg, string) {
	if path == "" || path[0] != '$' {
		return segs, `expected a path starting with "$"`
	}
	for i := 1; i < len(path); {
		if len(segs) == maxSegs {
			return segs, "more than " + strconv.Itoa(maxSegs) + " segments"
		}
		seg, problem := nextGeminiSeg(path, i)
		if problem != "" {
			return segs, problem
		}
		segs = append(segs, seg)
		i = seg.end
	}
	return segs, ""
}

// nextGeminiSeg parses the segment of path that starts at byte i (a "."
// or a "["): the segment, whose end is where the next starts, or what is
// wrong.
func nextGeminiSeg(path string, i int) (geminiSeg, string) {
	switch path[i] {
	case '.':
		j := i + 1
		for j < len(path) {
			c := path[j]
			if !(c == '_' || c == '-' || c >= 0x80 || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				break
			}
			j++
		}
		if j == i+1 {
			if j < len(path) && (path[j] == '.' || path[j] == '*') {
				return geminiSeg{}, "at byte " + strconv.Itoa(j) + ": only singular segments (a name or an index) are supported"
			}
			return geminiSeg{}, "at byte " + strconv.Itoa(j) + ": expected a member name after \".\""
		}
		return geminiSeg{key: path[i+1 : j], index: -1, end: j}, ""
	case '[':
		j := skipPathSpace(path, i+1)
		if j == len(path) {
			return geminiSeg{}, "unclosed \"[\""
		}
		var seg geminiSeg
		switch c := path[j]; {
		case c == '\'' || c == '"':
			key, k, problem := parsePathString(path, j)
			if problem != "" {
				return geminiSeg{}, problem
			}
			seg, j = geminiSeg{key: key, index: -1}, k
		case c >= '0' && c <= '9':
			k := j
			for k < len(path) && path[k] >= '0' && path[k] <= '9' {
				k++
			}
			if path[j] == '0' && k > j+1 {
				return geminiSeg{}, "at byte " + strconv.Itoa(j) + ": an index with a leading zero"
			}
			if k-j > 9 {
				return geminiSeg{}, "at byte " + strconv.Itoa(j) + ": an index too large"
			}
			n, _ := strconv.Atoi(path[j:k])
			seg, j = geminiSeg{index: n}, k
		case c == '-':
			return geminiSeg{}, "at byte " + strconv.Itoa(j) + ": negative indexes are not supported"
		default:
			return geminiSeg{}, "at byte " + strconv.Itoa(j) + ": only singular segments (a quoted name or an index) are supported"
		}
		j = skipPathSpace(path, j)
		if j == len(path) || path[j] != ']' {
			return geminiSeg{}, "at byte " + strconv.Itoa(j) + ": expected \"]\""
		}
		seg.end = j + 1
		return seg, ""
	}
	return geminiSeg{}, "at byte " + strconv.Itoa(i) + ": expected \".\" or \"[\""
}

func skipPathSpace(path string, i int) int {
	for i < len(path) && (path[i] == ' ' || path[i] == '\t' || path[i] == '\n' || path[i] == '\r') {
		i++
	}
	return i
}

// parsePathString reads the quoted name at path[i:] (RFC 9535 string
// literal, in ' or "), returning it, the offset after its closing quote,
// and what is wrong.
func parsePathString(path string, i int) (string, int, string) {
	q := path[i]
	var b []byte
	for j := i + 1; j < len(path); {
		c := path[j]
		switch {
		case c == q:
			if b == nil {
				return path[i+1 : j], j + 1, ""
			}
			return string(b), j + 1, ""
		case c < 0x20:
			return "", 0, "at byte " + strconv.Itoa(j) + ": a control character in a name"
		case c != '\\':
			if b != nil {
				b = append(b, c)
			}
			j++
			continue
		}
		if b == nil {
			b = append(make([]byte, 0, len(path)-i), path[i+1:j]...)
		}
		if j+1 == len(path) {
			break
		}
		e := path[j+1]
		if c, ok := jsonwire.ShortEscape(e); ok {
			b = append(b, c)
			j += 2
			continue
		}
		switch e {
		case '/', '\\', '\'', '"':
			if (e == '\'' || e == '"') && e != q {
				return "", 0, "at byte " + strconv.Itoa(j) + ": " + strconv.QuoteRune(rune(e)) + " escaped in a name quoted with " + strconv.QuoteRune(rune(q))
			}
			b = append(b, e)
		case 'u':
			r, n, ok := pathEscapeU(path, j)
			if !ok {
				return "", 0, "at byte " + strconv.Itoa(j) + ": a bad \\u escape"
			}
			b = utf8.AppendRune(b, r)
			j += n
			continue
		default:
			return "", 0, "at byte " + strconv.Itoa(j) + ": a bad escape"
		}
		j += 2
	}
	return "", 0, "unclosed name"
}

// pathEscapeU reads the \u escape at path[i:] (a surrogate pair as two),
// returning the rune and the bytes it took.
func pathEscapeU(path string, i int) (rune, int, bool) {
	hex := func(at int) (rune, bool) {
		if at+4 > len(path) {
			return 0, false
		}
		return jsonwire.Hex4([]byte(path[at:at+4]), 0)
	}
	r, ok := hex(i + 2)
	switch {
	case !ok:
		return 0, 0, false
	case r >= 0xDC00 && r <= 0xDFFF:
		return 0, 0, false
	case r < 0xD800 || r > 0xDBFF:
		return r, 6, true
	}
	if i+12 > len(path) || path[i+6] != '\\' || path[i+7] != 'u' {
		return 0, 0, false
	}
	lo, ok := hex(i + 8)
	if !ok || lo < 0xDC00 || lo > 0xDFFF {
		return 0, 0, false
	}
	return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), 12, true
}

// pathPrefix is the path up to segment i: "$.a.b".
func pathPrefix(path string, segs []geminiSeg, i int) string {
	if i == 0 {
		return "$"
	}
	return path[:segs[i-1].end]
}

// ParseGeminiStream reads a Gemini (or Vertex AI) streamGenerateContent
// stream from body, the HTTP response body as sent: Server-Sent Events
// (alt=sse), one JSON array of responses (without alt=sse), or responses
// one after another. The Turn is what [ParseGeminiReply] gives for the
// same turn unstreamed: the functionCall parts' calls in order, the text
// that is not thought as Text, the last finishReason as Stop, and one
// model content as Replay whose parts are the stream's, in order, each
// thoughtSignature in place.
//
// A call whose arguments Vertex AI streams (streamFunctionCallArguments:
// partialArgs with JSON paths) is assembled into one functionCall part;
// see [Stream] for reading calls as they complete. Its arguments count
// against the reply limit (ReplyLimits.MaxBytes) as they grow: the piece
// that makes the assembled reply pass it is an error wrapping
// [ErrReplyLimit]. An error body in the
// stream is a [*ReplyError] wrapping [ErrProviderError]; a stream that
// ends before any finishReason, or inside a streamed call cut by the token
// limit, wraps [ErrIncomplete]; a partialArgs path that is not a JSON path
// of names and indexes, conflicts with what the arguments hold or skips
// an array index wraps [ErrArguments]; a blocked prompt and a finishReason
// that ends the turn without content (SAFETY, MALFORMED_FUNCTION_CALL,
// ...) wrap [ErrReplyShape], as for ParseGeminiReply.
func ParseGeminiStream(body io.Reader) (Turn, error) {
	return ReplyLimits{}.parseStream(geminiSpec, body)
}
