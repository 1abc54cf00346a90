package adapters

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// A streamed reply is read in three layers. A framer (stream_frames.go)
// cuts the body into events as its bytes arrive: Server-Sent Events, JSON
// lines, a JSON array, or Bedrock's binary event-stream frames. A home's
// assembler (openai_stream.go, ...) reads each event and builds the whole
// reply that the provider would have sent without streaming. At the end the
// home's own reply parser reads that reply, so a streamed Turn (its calls,
// text, stop reason and replay) means exactly what a whole reply's does.
// On the way the assembler hands out each call as soon as its arguments
// are complete, and the visible text as it arrives.

// ErrIncomplete: a reply ended before it was whole: a stream cut off
// before its last event (the body's end, or a provider's end-of-stream
// event), or a call whose arguments never completed, or a reply (streamed
// or not) that stopped at its token limit inside a call's arguments
// object. It is the transport's failure, not the model's: arguments that
// are whole but not one JSON object make a malformed call instead
// ([Call].Malformed).
var ErrIncomplete = errors.New("the reply ended before it was complete")

// Default stream limits; see [ReplyLimits].
const (
	// DefaultMaxStreamEvents is the most events a stream parser reads:
	// 4,194,304 (a 32 MiB body of the smallest possible events has fewer).
	DefaultMaxStreamEvents = 4 << 20
	// DefaultMaxEventBytes is the largest event a stream parser reads, its
	// data lines joined: 16 MiB.
	DefaultMaxEventBytes = 16 << 20
)

// MaxStreamMembers is the most members a stream parser gathers from a
// stream's pieces into one object of the reply it assembles: 1,024 (an
// OpenAI Chat or Ollama message's own members, which its replay keeps;
// an Anthropic content block's). Providers send a dozen; a stream whose
// pieces bring more is an error wrapping [ErrReplyLimit], since each
// member kept costs memory far beyond the bytes of its piece. Members the
// reply's parser does not read and its replay does not keep (a chunk's
// envelope and metrics) are not kept, and count nothing; of a usage object
// too large for [Usage.Raw], only the counts are kept.
const MaxStreamMembers = 1024

// MaxStreamCalls is the most tool calls a stream parser reads in one
// streamed reply: 4,096. Models send a few at once; a stream that begins
// more is an error wrapping [ErrReplyLimit] when its piece arrives, since
// each call costs the stream its own state and the Call handed out on top
// of the reply's parse, several hundred bytes for a piece of thirty.
const MaxStreamCalls = 4096

// StreamHooks receive a streamed reply's parts as they arrive. They are
// called on the goroutine that writes to the [Stream], before its Write
// returns; a nil hook is not called.
type StreamHooks struct {
	// Text receives each piece of the reply's visible text (what
	// Turn.Text joins), in order, as it arrives. Thinking and reasoning
	// text is not passed.
	Text func(delta string)

	// Call receives each tool call once, in call order, as soon as its
	// arguments are complete: the call that Turn.Calls will hold (its Args
	// the compact JSON object, or, for a malformed call, the text as sent). A call whose completion the stream does not
	// mark (OpenAI Chat has no end-of-call event) is complete when a later
	// call starts and its arguments form a whole JSON object, or at the
	// end of the stream.
	Call func(c Call)
}

// Stream assembles one streamed model reply from the bytes of its HTTP
// response body, written to it as they arrive (it is an [io.Writer], so
// io.Copy(s, resp.Body) feeds it). Close ends the body and returns the
// Turn, which equals what the provider's ParseXStream function returns for
// the whole body. Make one with [NewStream]; a Stream reads one reply and
// is not safe for concurrent use.
//
// A Write that finds the stream broken (not the provider's stream format,
// a provider's error event, a limit passed) returns a [*ReplyError], as
// does every later Write and Close.
type Stream struct {
	p      *spec
	rp     replyParser // the limits, and the reader of the current event
	hooks  StreamHooks
	fr     framer
	asm    assembler
	st     scratch // the index and checker of the current event, reused
	read   int     // body bytes so far
	events int     // events so far
	limits ReplyLimits

	maxEvents, maxEventBytes int

	handed []Call // the calls given to hooks.Call, in order
	calls  int    // the calls begun so far (startCall)
	err    error  // the first error; every later call returns it
	closed bool
	turn   Turn

	// usageOmitted, when not 0, is the size of a usage object the
	// assembler could not keep whole: the Turn's Usage.Raw is left out.
	usageOmitted int
}

// streamSpec is a home's streaming: how its body is framed and a new
// assembler for each stream.
type streamSpec struct {
	framer   func(maxEventBytes int) framer
	assemble func(p *spec) assembler
}

// An assembler reads one provider's stream events and builds the whole
// reply they amount to.
type assembler interface {
	// event reads one event, given its name (the SSE event field, or the
	// event-stream :event-type header; "" when the framing has none) and
	// its data, which is valid only during the call.
	event(s *Stream, name string, data []byte) error
	// finish is called once the body has ended: it returns the whole reply
	// (in the provider's non-streamed shape, read by the home's parser) or
	// the error of a stream that ended before it was whole.
	finish(s *Stream) ([]byte, error)
}

// A callPatcher is an assembler whose whole reply cannot hold all a call
// is: where a reply holds arguments as an object (Anthropic's input,
// Bedrock's), a malformed call's text stands there as {} and a repaired
// call's object without its repairs. patch gives the parsed calls what
// the reply left out.
type callPatcher interface {
	patch(calls []Call)
}

// callPatch is what the reply left out of call index.
type callPatch struct {
	index     int
	args      []byte
	malformed string
	repaired  Repairs
}

// patchCalls applies patches to calls.
func patchCalls(calls []Call, patches []callPatch) {
	for _, p := range patches {
		if p.index < len(calls) {
			c := &calls[p.index]
			c.Args, c.Malformed, c.Repaired = p.args, p.malformed, p.repaired
		}
	}
}

// NewStream returns a Stream that reads a streamed reply of p's provider,
// within the limits of p (see [WithReplyLimits]) and calling hooks as the
// reply arrives. Every provider streams but MCP, which has no streamed
// replies and is refused, as a nil p is.
func NewStream(p Provider, hooks StreamHooks) (*Stream, error) {
	if p == nil {
		return nil, errors.New("adapters: NewStream: no provider (nil)")
	}
	rt := p.impl()
	if rt.spec.stream == nil {
		return nil, fmt.Errorf("adapters: NewStream: %s replies are not streamed", rt.spec.display)
	}
	return rt.reading().newStream(rt.spec, hooks), nil
}

func (l ReplyLimits) newStream(p *spec, hooks StreamHooks) *Stream {
	s := &Stream{p: p, rp: l.parser(p.name), hooks: hooks, limits: l,
		asm: p.stream.assemble(p), maxEvents: l.MaxEvents, maxEventBytes: l.MaxEventBytes}
	if s.maxEvents <= 0 {
		s.maxEvents = DefaultMaxStreamEvents
	}
	if s.maxEventBytes <= 0 {
		s.maxEventBytes = DefaultMaxEventBytes
	}
	s.maxEventBytes = min(s.maxEventBytes, s.rp.maxBytes)
	s.fr = p.stream.framer(s.maxEventBytes)
	s.rp.ix, s.rp.checker = &s.st.ix, &s.st.checker
	return s
}

// parseStream reads the whole body r as p's stream.
func (l ReplyLimits) parseStream(p *spec, r io.Reader) (Turn, error) {
	s := l.newStream(p, StreamHooks{})
	if r == nil {
		return Turn{}, s.failStream(ErrIncomplete, "no body")
	}
	if _, err := s.ReadFrom(r); err != nil {
		return Turn{}, err
	}
	return s.Close()
}

// Write reads the next bytes of the body, calling the hooks for what they
// complete. It returns len(b) and nil, or 0 and the stream's error.
func (s *Stream) Write(b []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.closed {
		return 0, s.failStream(ErrReplyShape, "write after Close")
	}
	if len(b) > s.rp.maxBytes-s.read {
		return 0, s.failStream(ErrReplyLimit, "more than the limit of %d bytes", s.rp.maxBytes)
	}
	s.read += len(b)
	if err := s.fr.write(b, s.event); err != nil {
		return 0, s.setErr(err)
	}
	return len(b), nil
}

// ReadFrom writes everything r gives to s, until r's end (io.EOF) or an
// error: r's, or the stream's. It makes io.Copy(s, body) read in large
// pieces.
func (s *Stream) ReadFrom(r io.Reader) (int64, error) {
	buf := make([]byte, 32<<10)
	var n int64
	for {
		k, err := r.Read(buf)
		if k > 0 {
			if _, werr := s.Write(buf[:k]); werr != nil {
				return n, werr
			}
			n += int64(k)
		}
		switch {
		case err == io.EOF:
			return n, nil
		case err != nil:
			return n, err
		}
	}
}

// Close ends the body and returns the reply's Turn: the error of a stream
// that was broken, or that ended before the reply was whole, is a
// [*ReplyError] (wrapping [ErrIncomplete] for the latter), never a Turn
// with a call missing or cut short. The calls that the Call hook has not
// been given yet are given to it, in order, before Close returns. Close
// may be called again; it returns the same.
func (s *Stream) Close() (Turn, error) {
	if s.closed || s.err != nil {
		return s.turn, s.err
	}
	s.closed = true
	if err := s.fr.end(s.event); err != nil {
		return Turn{}, s.setErr(err)
	}
	if s.events == 0 {
		return Turn{}, s.setErr(s.failStream(ErrIncomplete, "no events"))
	}
	reply, err := s.asm.finish(s)
	if err != nil {
		return Turn{}, s.setErr(err)
	}
	l := s.limits
	l.reuse = &s.st
	turn, err := s.p.parse(l, reply)
	if err == nil && s.usageOmitted != 0 {
		turn.Usage.Raw, turn.Usage.RawOmitted = nil, s.usageOmitted
	}
	if err != nil {
		var re *ReplyError
		if errors.As(err, &re) {
			// The path is into the assembled reply, which has the
			// provider's whole shape: it says which member, not where
			// in the body.
			where := ""
			if re.Path != "" {
				where = re.Path + ": "
			}
			re.Problem = "the assembled reply: " + where + re.Problem
			re.Path = ""
		}
		return Turn{}, s.setErr(err)
	}
	if pt, ok := s.asm.(callPatcher); ok {
		pt.patch(turn.Calls)
	}
	markRendering(turn.Calls, s.limits.rendering)
	if len(s.handed) > len(turn.Calls) {
		return Turn{}, s.setErr(s.failStream(ErrReplyShape, "%d tool calls were complete during the stream, %d in the assembled reply", len(s.handed), len(turn.Calls)))
	}
	for i, h := range s.handed {
		if c := turn.Calls[i]; h.ID != c.ID || h.Name != c.Name || string(h.Args) != string(c.Args) || h.Malformed != c.Malformed || h.Repaired != c.Repaired {
			return Turn{}, s.setErr(s.failStream(ErrReplyShape, "tool call %d (%s) changed after it was complete", i, msgQuote(h.Name)))
		}
	}
	// The turn's calls are the ones handed out so far and the rest, which
	// the hook gets now: s.handed becomes the turn's, appended in place.
	given := len(s.handed)
	s.handed = turn.Calls[:given]
	for _, c := range turn.Calls[given:] {
		s.giveCall(c)
	}
	s.turn = turn
	return turn, nil
}

// Calls returns the calls that are complete so far, in order (the ones
// given to the Call hook). The slice is s's: do not modify it.
func (s *Stream) Calls() []Call { return s.handed }

// Events returns how many events s has read so far.
func (s *Stream) Events() int { return s.events }

// event is the framer's callback for one event.
func (s *Stream) event(name string, data []byte) error {
	s.events++
	if s.events > s.maxEvents {
		return s.failStream(ErrReplyLimit, "more than the limit of %d events", s.maxEvents)
	}
	if err := s.asm.event(s, name, data); err != nil {
		var re *ReplyError
		if errors.As(err, &re) && re.Event == 0 {
			re.Event = s.events
		}
		return err
	}
	return nil
}

// setErr records the stream's first error and returns it.
func (s *Stream) setErr(err error) error {
	var re *ReplyError
	if errors.As(err, &re) {
		re.stream = true
		if re.Provider == "" {
			re.Provider = s.p.name
		}
	}
	if s.err == nil {
		s.err = err
	}
	s.turn = Turn{}
	return s.err
}

// failStream is an error about the stream as a whole (no path).
func (s *Stream) failStream(sentinel error, format string, args ...any) error {
	return &ReplyError{Provider: s.p.name, Problem: fmt.Sprintf(format, args...), Err: sentinel, stream: true}
}

// object checks the JSON text data of the current event, which must be an
// object, and indexes it for s.rp's readers. It returns data trimmed.
func (s *Stream) object(data []byte) ([]byte, error) {
	if len(data) > s.maxEventBytes {
		return nil, s.rp.fail(pointer(""), ErrReplyLimit, "%d bytes, more than the limit of %d for one event", len(data), s.maxEventBytes)
	}
	s.st.ix.Eager = false
	data, err := s.rp.check(pointer(""), data, ErrNotJSON, &s.st.ix)
	if err != nil {
		return nil, err
	}
	if err := s.rp.object(pointer(""), data); err != nil {
		return nil, err
	}
	return data, nil
}

// text passes a piece of visible text to the Text hook.
func (s *Stream) text(delta string) {
	if s.hooks.Text != nil && delta != "" {
		s.hooks.Text(delta)
	}
}

// textRaw passes the JSON string raw (checked) to the Text hook.
func (s *Stream) textRaw(raw []byte) {
	if s.hooks.Text != nil && len(raw) > 2 {
		if t, ok := jsonwire.Text(raw); ok {
			s.text(t)
		}
	}
}

// giveCall records c as complete and passes it to the Call hook.
func (s *Stream) giveCall(c Call) {
	c.Rendering = s.limits.rendering
	if len(s.handed) == cap(s.handed) {
		// Double: append's slower growth of long slices allocates about
		// five times the final size.
		s.handed = append(make([]Call, 0, 2*cap(s.handed)+4), s.handed...)
	}
	s.handed = append(s.handed, c)
	if s.hooks.Call != nil {
		s.hooks.Call(c)
	}
}

// startCall counts a call that the piece at at begins: past
// MaxStreamCalls, it is an error.
func (s *Stream) startCall(at loc) error {
	if s.calls++; s.calls > MaxStreamCalls {
		return s.rp.fail(at, ErrReplyLimit, "more than %d tool calls (a streamed reply may hold at most %d)", MaxStreamCalls, MaxStreamCalls)
	}
	return nil
}

// handedOut is how many calls are complete so far.
func (s *Stream) handedOut() int { return len(s.handed) }

// objectEnd follows a call's arguments text as its pieces arrive, to tell
// when it is one whole JSON object: brackets counted outside strings. It
// does not check the text (the call's own check does, once it is whole):
// it only tells when checking could succeed, in time linear in the text.
type objectEnd struct {
	depth   int
	inStr   bool
	esc     bool
	started bool // a byte other than space came
	closed  bool // the first value closed, or was not an object
	after   bool // a byte other than space came after it closed
	// null is how many bytes of "null" the text began with (when it did
	// not begin with an object), notNull whether a byte other than space
	// followed them (or broke them off).
	null    int8
	notNull bool
}

func (t *objectEnd) feed(b []byte) {
	for _, c := range b {
		switch {
		case t.closed:
			t.after = t.after || !isSpace(c)
			switch {
			case t.notNull:
			case t.null < 4 && c == "null"[t.null]:
				t.null++
			case t.null < 4 || !isSpace(c):
				t.notNull = true
			}
		case !t.started:
			if isSpace(c) {
				continue
			}
			t.started, t.notNull = true, true
			if c != '{' {
				t.closed, t.after = true, true // not an object: never whole
				t.null, t.notNull = 1, c != 'n'
			}
			t.depth = 1
		case t.inStr:
			switch {
			case t.esc:
				t.esc = false
			case c == '\\':
				t.esc = true
			case c == '"':
				t.inStr = false
			}
		case c == '"':
			t.inStr = true
		case c == '{' || c == '[':
			t.depth++
		case c == '}' || c == ']':
			t.depth--
			t.closed = t.depth == 0
		}
	}
}

// feedEscaped feeds the text that inside, the inside of a checked JSON
// string (a piece of an arguments text as sent), stands for, without
// unquoting it into a copy.
func (t *objectEnd) feedEscaped(inside []byte) {
	for i := 0; i < len(inside); {
		j := i
		for j < len(inside) && inside[j] != '\\' {
			j++
		}
		t.feed(inside[i:j])
		if j == len(inside) {
			return
		}
		// One escape: the byte it stands for, or for a character beyond
		// ASCII (which matters only as a byte that is not space), 'x'.
		e := inside[j+1]
		i = j + 2
		switch c, ok := jsonwire.ShortEscape(e); {
		case ok:
			t.feed1(c)
		case e == 'u':
			r, n, _ := jsonwire.UnescapeU(inside, j)
			i = j + n
			if r >= 0x80 {
				r = 'x'
			}
			t.feed1(byte(r))
		default: // " \ /
			t.feed1(e)
		}
	}
}

func (t *objectEnd) feed1(c byte) {
	b := [1]byte{c}
	t.feed(b[:])
}

// escapedBlank reports whether the text that inside (the inside of a
// checked JSON string) stands for is JSON space only.
func escapedBlank(inside []byte) bool {
	var t objectEnd
	t.feedEscaped(inside)
	return !t.started
}

// whole reports whether the text so far is one object, brackets balanced.
func (t *objectEnd) whole() bool { return t.closed && !t.after }

// member kinds of a wireMember.
const (
	wireString  = 's' // val is a string's inside, escaped as sent
	wireArray   = 'a' // val is an array's elements, compact, without brackets
	wireValue   = 'v' // val is a compact value
	wireContent = 'c' // the message's content, written from the blocks
)

// wireMembers are an object's members, in the order they first came,
// gathered from the pieces of a stream.
type wireMembers struct {
	m      []wireMember
	last   int            // the member found last: deltas repeat one key
	byName map[string]int // the members by name, once there are many
	// over: a member was refused, MaxStreamMembers being there; the
	// assembler reports it (overflow) after the piece.
	over  bool
	spill wireMember // where a refused member is written, to be dropped
}

type wireMember struct {
	name []byte // the key's text: inside key, unless the key has escapes
	key  []byte // the key as sent, quoted
	kind byte
	val  []byte
}

func (w *wireMembers) reset() {
	for i := range w.m {
		w.m[i] = wireMember{key: w.m[i].key[:0], val: w.m[i].val[:0], name: w.m[i].name[:0]}
	}
	w.m, w.last, w.byName, w.over = w.m[:0], 0, nil, false
}

// overflow is the error of a piece that brought the object what (of the
// reply, "the message") more than MaxStreamMembers members; nil when it
// did not.
func (w *wireMembers) overflow(p *replyParser, at loc, what string) error {
	if !w.over {
		return nil
	}
	return p.fail(at, ErrReplyLimit, "more than %d members in %s (a stream's pieces may bring at most %d to one object)", MaxStreamMembers, what, MaxStreamMembers)
}

// keyFolds reports whether the member key (quoted, as sent) is one of
// names, or equals one in another case: a member the reply's parser reads
// (or refuses), which an assembled reply keeps for it.
func keyFolds(key []byte, names []string) bool {
	inner := key[1 : len(key)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		inner = jsonwire.AppendUnquoted(nil, key)
	}
	for _, n := range names {
		if bytes.EqualFold(inner, []byte(n)) {
			return true
		}
	}
	return false
}

// find returns the position of the member with the key key (quoted, as
// sent), -1 when there is none.
func (w *wireMembers) find(key []byte) int {
	if w.last < len(w.m) && string(w.m[w.last].key) == string(key) {
		return w.last
	}
	name := key[1 : len(key)-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		name = jsonwire.AppendUnquoted(nil, key)
	}
	if w.byName != nil {
		if i, ok := w.byName[string(name)]; ok {
			w.last = i
			return i
		}
		return -1
	}
	for i := range w.m {
		if string(w.m[i].name) == string(name) {
			w.last = i
			return i
		}
	}
	return -1
}

// keyText is the text of the quoted key key.
func keyText(key []byte) string {
	inner := key[1 : len(key)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	return string(jsonwire.AppendUnquoted(nil, key))
}

// add appends a new member and returns it; past MaxStreamMembers, it
// sets w.over and returns a member that is dropped.
func (w *wireMembers) add(key []byte) *wireMember {
	n := len(w.m)
	if n >= MaxStreamMembers {
		w.over = true
		w.spill.key, w.spill.val, w.spill.name = w.spill.key[:0], w.spill.val[:0], nil
		return &w.spill
	}
	if n < cap(w.m) {
		w.m = w.m[:n+1]
	} else {
		w.m = append(w.m, wireMember{})
	}
	m := &w.m[n]
	m.key, m.val = append(m.key[:0], key...), m.val[:0]
	if bytes.IndexByte(key, '\\') < 0 {
		m.name = m.key[1 : len(m.key)-1]
	} else {
		// Its own buffer: m.key's may be m.name's next time.
		m.name = jsonwire.AppendUnquoted(nil, key)
	}
	switch {
	case w.byName != nil:
		w.byName[string(m.name)] = n
	case n == 16:
		w.byName = make(map[string]int, 32)
		for i := range w.m {
			w.byName[string(w.m[i].name)] = i
		}
	}
	w.last = n
	return m
}

// setVal stores the checked value val (a slice of x's text) in m.
func (m *wireMember) setVal(x *jsonwire.Index, val []byte) {
	switch val[0] {
	case '"':
		m.kind, m.val = wireString, append(m.val[:0], val[1:len(val)-1]...)
	case '[':
		m.kind = wireArray
		m.val = x.AppendCompact(m.val[:0], val)
		m.val = m.val[1 : len(m.val)-1]
	default:
		m.kind, m.val = wireValue, x.AppendCompact(m.val[:0], val)
	}
}

// set sets the member key to val, in place when it is there.
func (w *wireMembers) set(x *jsonwire.Index, key, val []byte) {
	i := w.find(key)
	if i < 0 {
		w.add(key).setVal(x, val)
		return
	}
	w.m[i].setVal(x, val)
}

// merge merges a delta's member into w (see anthropicStreamSpec). It
// returns the kind of the member it could not merge into, 0 when it did.
func (w *wireMembers) merge(x *jsonwire.Index, key, val []byte) byte {
	if val[0] == 'n' {
		return 0
	}
	i := w.find(key)
	if i < 0 {
		w.add(key).setVal(x, val)
		return 0
	}
	m := &w.m[i]
	switch {
	case m.kind == wireValue && string(m.val) == "null":
		m.setVal(x, val)
	case m.kind == wireString && val[0] == '"':
		m.val = append(m.val, val[1:len(val)-1]...)
	case m.kind == wireArray && val[0] == '[':
		if j := jsonwire.SkipSpace(val, 1); val[j] != ']' {
			if len(m.val) > 0 {
				m.val = append(m.val, ',')
			}
			m.val = x.AppendCompact(m.val, val[1:len(val)-1])
		}
	case m.kind == wireValue && val[0] != '"' && val[0] != '[':
		m.setVal(x, val)
	default:
		return m.kind
	}
	return 0
}

// appendElem appends the checked value val to the array member key, quoted
// (a citation to "citations"); it returns the member's kind when that is not
// an array, 0 when it appended.
func (w *wireMembers) appendElem(x *jsonwire.Index, key string, val []byte) byte {
	k := []byte(key)
	i := w.find(k)
	var m *wireMember
	switch {
	case i < 0:
		m = w.add(k)
		m.kind, m.val = wireArray, m.val[:0]
	case w.m[i].kind == wireValue && string(w.m[i].val) == "null":
		m = &w.m[i]
		m.kind, m.val = wireArray, m.val[:0]
	case w.m[i].kind == wireArray:
		m = &w.m[i]
	default:
		return w.m[i].kind
	}
	if len(m.val) > 0 {
		m.val = append(m.val, ',')
	}
	m.val = x.AppendCompact(m.val, val)
	return 0
}

// size is about the bytes appendObject and appendMembers write.
func (w *wireMembers) size() int {
	n := 2
	for i := range w.m {
		n += len(w.m[i].key) + len(w.m[i].val) + 4
	}
	return n
}

// appendObject appends the members as one JSON object; content writes the
// message's content.
func (w *wireMembers) appendObject(dst []byte, content func([]byte) []byte) []byte {
	dst = append(dst, '{')
	for i := range w.m {
		m := &w.m[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(append(dst, m.key...), ':')
		switch m.kind {
		case wireString:
			dst = append(append(append(dst, '"'), m.val...), '"')
		case wireArray:
			dst = append(append(append(dst, '['), m.val...), ']')
		case wireContent:
			dst = content(dst)
		default:
			dst = append(dst, m.val...)
		}
	}
	return append(dst, '}')
}

// posIndex finds the things a stream keeps in order (output items) by a
// key of theirs: open addressing over their positions, at a load of at
// most three quarters, about eleven bytes a key allocated as it grows,
// where a map allocates several times that.
type posIndex struct {
	slots []int32 // a position plus one; 0: empty
	n     int
}

// lookup returns the position whose key has the hash h and is the one
// same tells, -1 when there is none.
func (x *posIndex) lookup(h uint64, same func(pos int) bool) int {
	if len(x.slots) == 0 {
		return -1
	}
	for i := x.start(h); ; {
		p := x.slots[i]
		if p == 0 {
			return -1
		}
		if same(int(p - 1)) {
			return int(p - 1)
		}
		if i++; i == len(x.slots) {
			i = 0
		}
	}
}

// add adds the position pos, whose key (not in x) has the hash h; hash
// returns the hash of any position's key, to grow.
func (x *posIndex) add(h uint64, pos int, hash func(pos int) uint64) {
	if 4*(x.n+1) > 3*len(x.slots) {
		old := x.slots
		x.slots = make([]int32, 2*len(old)+16)
		for _, p := range old {
			if p != 0 {
				x.place(hash(int(p-1)), p)
			}
		}
	}
	x.place(h, int32(pos+1))
	x.n++
}

func (x *posIndex) place(h uint64, p int32) {
	i := x.start(h)
	for x.slots[i] != 0 {
		if i++; i == len(x.slots) {
			i = 0
		}
	}
	x.slots[i] = p
}

// start is the slot where the search for hash h starts.
func (x *posIndex) start(h uint64) int {
	return int(h >> 32 * uint64(len(x.slots)) >> 32)
}

var posSeed = maphash.MakeSeed()

// hashString is a key's hash for a posIndex.
func hashString(s string) uint64 { return maphash.String(posSeed, s) }

// roomFor returns b with room for n more bytes: its room doubles when it
// grows, where append's slower growth of large slices allocates about
// five times the final size of one appended to piece by piece.
func roomFor(b []byte, n int) []byte {
	if len(b)+n <= cap(b) {
		return b
	}
	return append(make([]byte, 0, max(len(b)+n, 2*cap(b))), b...)
}

// kindName names a member kind in an error.
func kindName(k byte) string {
	switch k {
	case wireString:
		return "a string"
	case wireArray:
		return "an array"
	}
	return "another value"
}

// appendMembers appends the string, array and plain value members, each
// preceded by a comma, for a reply that writes them after members of its
// own.
func (w *wireMembers) appendMembers(dst []byte) []byte {
	for i := range w.m {
		m := &w.m[i]
		dst = append(append(append(dst, ','), m.key...), ':')
		switch m.kind {
		case wireString:
			dst = append(append(append(dst, '"'), m.val...), '"')
		case wireArray:
			dst = append(append(append(dst, '['), m.val...), ']')
		default:
			dst = append(dst, m.val...)
		}
	}
	return dst
}

// join merges a piece of the member key into w as [wireMembers.merge]
// does; a piece of another kind than the member so far (a string, then an
// object) replaces it.
func (w *wireMembers) join(x *jsonwire.Index, key, val []byte) {
	if w.merge(x, key, val) != 0 {
		w.set(x, key, val)
	}
}

// errProblem is the problem of a ReplyError, or the error's text.
func errProblem(err error) string {
	if re, ok := err.(*ReplyError); ok {
		if re.Path != "" {
			return re.Path + ": " + re.Problem
		}
		return re.Problem
	}
	return err.Error()
}
