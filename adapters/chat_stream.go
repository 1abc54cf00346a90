package adapters

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// OpenAI Chat Completions streams (stream: true) are Server-Sent Events:
// each data line a chat.completion.chunk, whose choices[].delta carries
// pieces of the message (content, and tool_calls[] pieces keyed by index),
// and a last "data: [DONE]". The assembler joins the pieces into the
// message of a whole chat completion and ParseOpenAIReply reads it.
//
// What compatible servers do differently, and how it is read:
//   - a tool call's name or id sent again in every piece: a name or id
//     equal to the one already held is not appended again (an empty name
//     is ignored); a name piece that differs is appended, as OpenAI's
//     own pieces are;
//   - a piece without an index: it belongs to the call with its id, or,
//     without an id, to the last call; an index reused with another id
//     starts a new call, and so does a new index with an earlier call's
//     id (two calls with one id: an error, as in a whole reply);
//   - finish_reason: null in a later chunk leaves the earlier one;
//   - an error object in a chunk, or an "error" event: a provider error;
//   - the usage is the last usage object a chunk sent (OpenAI's chunk of
//     choices: [] that stream_options.include_usage adds, a chunk of a
//     server that sends one with every chunk or with its finish_reason),
//     or Groq's x_groq.usage; it is the assembled reply's usage;
//   - SSE comments are skipped.
//
// The stream of every server of the family (chat_reply.go) is read alike;
// its chatServer says what its pieces may carry beyond OpenAI's (its
// quirks), and which ids the calls handed out carry (srv.wire).

// chatStreams is the streaming of the family's server srv.
func chatStreams(srv *chatServer) *streamSpec {
	return &streamSpec{
		framer:   func(max int) framer { return newSSEFramer(max) },
		assemble: func(*spec) assembler { return &chatStream{srv: srv} },
	}
}

var (
	openAIChunkKeys     = []string{"choices", "error", "usage", "x_groq"}
	openAIDeltaChoice   = []string{"index", "delta", "finish_reason"}
	openAIDeltaKeys     = []string{"role", "content", "tool_calls", "function_call"}
	openAIDeltaCallKeys = []string{"index", "id", "type", "function"}
)

// chatStream is the state of one stream of the family.
type chatStream struct {
	srv        *chatServer
	done       bool   // [DONE] came
	stop       []byte // the last finish_reason that was not null, as sent
	role       []byte // the first role, as sent
	content    []byte // the content pieces' insides, joined
	hasContent bool
	extras     wireMembers
	calls      []*chatStreamCall
	byIndex    map[int64]int  // a piece's index -> calls
	byID       map[string]int // a call's id -> calls
	usage      []byte         // the last usage object, compact; nil before one
}

// chatStreamCall is one tool call being assembled.
type chatStreamCall struct {
	id   string
	name []byte // the name's inside, as sent
	typ  []byte // the type, as sent; nil when none came
	// args is a quote, then the arguments pieces' insides joined: the
	// arguments text as sent, but its closing quote; nil when no piece had
	// an arguments member (a whole reply without one, which only a server
	// with quirkNoArguments may send).
	args  []byte
	end   objectEnd
	given bool // handed out as complete
	event int  // the event that started it
	pos   int  // its place in the calls
}

func (a *chatStream) event(s *Stream, name string, data []byte) error {
	if a.done {
		if len(bytes.TrimSpace(data)) == 0 {
			return nil
		}
		return s.rp.fail(pointer(""), ErrReplyShape, "an event after [DONE]")
	}
	if string(bytes.TrimSpace(data)) == "[DONE]" {
		a.done = true
		return a.giveComplete(s)
	}
	obj, err := s.object(data)
	if err != nil {
		return err
	}
	p := &s.rp
	var top [4][]byte
	if err := p.fields(pointer(""), obj, openAIChunkKeys, top[:]); err != nil {
		return err
	}
	if top[1] != nil && top[1][0] != 'n' {
		if top[1][0] == '{' {
			return p.errorObject(pointer("/error"), top[1], &openAIErrorKeys)
		}
		msg, _ := jsonwire.Text(top[1])
		return p.providerError(pointer("/error"), msg, "", "", "")
	}
	if name == "error" {
		return p.providerError(pointer(""), string(obj), "", "", "")
	}
	if top[0] == nil && a.srv.errorBody != nil {
		if err := a.srv.errorBody(*p, obj); err != nil {
			return err
		}
	}
	if err := a.keepUsage(p, top[2], top[3]); err != nil {
		return err
	}
	if top[0] == nil || top[0][0] == 'n' {
		return nil
	}
	if top[0][0] != '[' {
		return p.fail(pointer("/choices"), ErrReplyShape, "expected an array, got %s", jsonwire.Kind(top[0]))
	}
	return p.ix.Elems(top[0], func(i int, ch []byte) error {
		at := pointer("/choices").index(i)
		var c [3][]byte
		if err := p.fields(at, ch, openAIDeltaChoice, c[:]); err != nil {
			return err
		}
		if c[0] != nil {
			n, err := strconv.ParseInt(string(c[0]), 10, 64)
			if err != nil {
				return p.fail(at.key("/index"), ErrReplyShape, "expected an integer, got %s", jsonwire.Kind(c[0]))
			}
			if n != 0 {
				return nil // another choice (n > 1): the whole reply's parser reads the first
			}
		}
		if c[2] != nil && c[2][0] != 'n' {
			if _, err := p.text(at.key("/finish_reason"), c[2]); err != nil {
				return err
			}
			a.stop = append(a.stop[:0], c[2]...)
		}
		if c[1] == nil || c[1][0] == 'n' {
			return nil
		}
		return a.delta(s, at.key("/delta"), c[1])
	})
}

// keepUsage keeps a chunk's usage object, replacing the one before: its
// top-level usage, else Groq's x_groq.usage.
func (a *chatStream) keepUsage(p *replyParser, usage, xgroq []byte) error {
	at := "/usage"
	if (usage == nil || usage[0] == 'n') && xgroq != nil && xgroq[0] == '{' {
		usage, at = p.ix.Field(xgroq, "usage"), "/x_groq/usage"
	}
	if usage == nil || usage[0] == 'n' {
		return nil
	}
	if usage[0] != '{' {
		return p.fail(pointer(at), ErrReplyShape, "expected an object, got %s", jsonwire.Kind(usage))
	}
	a.usage = p.ix.AppendCompact(a.usage[:0], usage)
	return nil
}

// delta reads one choice's delta.
func (a *chatStream) delta(s *Stream, at loc, delta []byte) error {
	p := &s.rp
	var d [4][]byte
	others, err := p.fieldsOthers(at, delta, openAIDeltaKeys, d[:])
	if err != nil {
		return err
	}
	if d[3] != nil && d[3][0] != 'n' && !(a.srv.has(quirkPlaceholders) && placeholder(d[3])) {
		return p.fail(at.key("/function_call"), ErrReplyShape, "a legacy function_call is not supported (send tools, not functions)")
	}
	if d[0] != nil && d[0][0] != 'n' {
		if _, err := p.text(at.key("/role"), d[0]); err != nil {
			return err
		}
		if a.role == nil {
			a.role = append([]byte(nil), d[0]...)
		}
	}
	if d[1] != nil && d[1][0] != 'n' {
		if d[1][0] != '"' {
			return p.fail(at.key("/content"), ErrReplyShape, "expected a string, got %s", jsonwire.Kind(d[1]))
		}
		a.content = append(a.content, d[1][1:len(d[1])-1]...)
		a.hasContent = true
		s.textRaw(d[1])
	}
	if others > 0 {
		_ = p.ix.Members(delta, func(m jsonwire.Member) error {
			if !jsonwire.KeyIn(m.Key, openAIDeltaKeys) {
				a.extras.join(p.ix, m.Key, m.Val)
			}
			return nil
		})
		if err := a.extras.overflow(p, at, "the assistant message"); err != nil {
			return err
		}
	}
	if d[2] == nil || d[2][0] == 'n' {
		return nil
	}
	if err := p.array(at.key("/tool_calls"), d[2]); err != nil {
		return err
	}
	list := pointer(at.key("/tool_calls").String())
	return p.ix.Elems(d[2], func(i int, raw []byte) error {
		return a.callPiece(s, list.index(i), raw)
	})
}

// callPiece reads one piece of a tool call.
func (a *chatStream) callPiece(s *Stream, at loc, raw []byte) error {
	p := &s.rp
	var tc [4][]byte
	if err := p.fields(at, raw, openAIDeltaCallKeys, tc[:]); err != nil {
		return err
	}
	id, err := p.text(at.key("/id"), tc[1])
	if err != nil {
		return err
	}
	hasIndex := tc[0] != nil && tc[0][0] != 'n'
	var index int64
	if hasIndex {
		if index, err = strconv.ParseInt(string(tc[0]), 10, 64); err != nil || index < 0 {
			return p.fail(at.key("/index"), ErrReplyShape, "expected an integer of at least 0, got %s", msgQuote(string(tc[0])))
		}
	}
	var name, args []byte
	if f := tc[3]; f != nil && f[0] != 'n' {
		var fn [2][]byte
		if err := p.fields(at.key("/function"), f, functionKeys, fn[:]); err != nil {
			return err
		}
		if fn[0] != nil && fn[0][0] != 'n' {
			if fn[0][0] != '"' {
				return p.fail(at.key("/function/name"), ErrReplyShape, "expected a string, got %s", jsonwire.Kind(fn[0]))
			}
			name = fn[0][1 : len(fn[0])-1]
		}
		switch v := fn[1]; {
		case v == nil || v[0] == 'n':
		case v[0] == '"':
			args = v
		case v[0] == '{' && a.srv.has(quirkArgumentsObject):
			// The whole arguments as an object: its text is the piece.
			args = appendString(nil, string(p.ix.Compact(v)))
		default:
			return p.fail(at.key("/function/arguments"), ErrArguments, "expected a string piece of the arguments text, got %s", jsonwire.Kind(v))
		}
	}
	if tc[2] != nil && tc[2][0] != 'n' {
		if _, err := p.text(at.key("/type"), tc[2]); err != nil {
			return err
		}
	}

	c := a.find(hasIndex, index, id)
	if c == nil {
		// A new call: the calls before it may be complete now.
		if err := s.startCall(at); err != nil {
			return err
		}
		if err := a.giveComplete(s); err != nil {
			return err
		}
		j := len(a.calls)
		c = &chatStreamCall{id: id, event: s.events, pos: j}
		a.calls = append(a.calls, c)
		if hasIndex {
			if a.byIndex == nil {
				a.byIndex = map[int64]int{}
			}
			a.byIndex[index] = j
		}
		if id != "" {
			if a.byID == nil {
				a.byID = map[string]int{}
			}
			a.byID[id] = j
		}
	} else if c.id == "" && id != "" {
		if c.given {
			return p.fail(at.key("/id"), ErrReplyShape, "an id for tool call %d after it was complete", c.pos)
		}
		c.id = id
		if a.byID == nil {
			a.byID = map[string]int{}
		}
		a.byID[id] = c.pos
	}
	if len(name) > 0 && string(name) != string(c.name) {
		if c.given {
			return p.fail(at.key("/function/name"), ErrReplyShape, "a name piece for tool call %d after it was complete", c.pos)
		}
		c.name = append(c.name, name...)
	}
	if tc[2] != nil && tc[2][0] != 'n' && c.typ == nil {
		c.typ = append([]byte(nil), tc[2]...)
	}
	if args != nil {
		inside := args[1 : len(args)-1]
		if c.given && !escapedBlank(inside) {
			return p.fail(at.key("/function/arguments"), ErrArguments, "arguments of tool call %d (%s) continue after they were one whole JSON object", c.pos, msgQuote(string(c.name)))
		}
		c.end.feedEscaped(inside)
		if c.args == nil {
			c.args = append(make([]byte, 0, len(args)), '"')
		}
		c.args = append(c.args, inside...)
	}
	return nil
}

// find returns the call a piece belongs to, nil for a new call: by its
// index when it has one (a new index is a new call, even with the id of
// an earlier one: two calls with one id, which the assembled reply's
// parser refuses, as a whole reply's), else by its id, else the last call.
func (a *chatStream) find(hasIndex bool, index int64, id string) *chatStreamCall {
	if hasIndex {
		if j, ok := a.byIndex[index]; ok {
			if c := a.calls[j]; id == "" || c.id == "" || c.id == id {
				return c
			}
		}
		return nil // a new index, or the index again with another id: a new call
	}
	if id != "" {
		if j, ok := a.byID[id]; ok {
			return a.calls[j]
		}
		return nil
	}
	if len(a.calls) > 0 {
		return a.calls[len(a.calls)-1] // no index, no id: the call being sent
	}
	return nil
}

// giveComplete hands out, in order, the calls not handed out yet that are
// complete: arguments that are one whole object (a later piece could not
// make them valid), a name and an id. It stops at the first that is not:
// calls go out in order. It runs when a new call starts (the calls before
// it may be complete now) and when the stream ends. A call sent without an
// id waits for Close, where the assembled reply's parser makes its id.
func (a *chatStream) giveComplete(s *Stream) error {
	for i := s.handedOut(); i < len(a.calls); i++ {
		c := a.calls[i]
		if !c.end.whole() || c.id == "" || len(c.name) == 0 {
			return nil
		}
		if err := a.give(s, i, c); err != nil {
			return err
		}
	}
	return nil
}

// give checks call i's arguments and hands it out.
func (a *chatStream) give(s *Stream, i int, c *chatStreamCall) error {
	name, ok := jsonwire.Text(append(append([]byte{'"'}, c.name...), '"'))
	if !ok || name == "" {
		return nil // the assembled reply's parser reports it
	}
	// The text, unquoted into the room that becomes the call's Args, and
	// compacted there.
	quoted := append(c.args, '"')
	c.args = quoted[:len(quoted)-1]
	text := jsonwire.AppendUnquoted(make([]byte, 0, len(quoted)), quoted)
	call := Call{ID: a.srv.wire(c.id), Name: name}
	inner, spaces, bad, err := s.rp.argsInText(pointer(""), text)
	switch {
	case err != nil:
		return err
	case bad != "":
		// Whole by its brackets: not cut off, whatever the finish. The
		// text is the call's own (its Args when malformed).
		if err := s.rp.badArgs(pointer(""), text, bad, false, &call); err != nil {
			return err
		}
	case inner == nil:
		call.Args = json.RawMessage("{}")
	default:
		call.Args = inner
		if spaces != 0 || &inner[0] != &text[0] {
			// In place: what is written never passes what is read.
			call.Args = jsonwire.AppendCompact(text[:0], inner)
		}
	}
	c.given = true
	s.giveCall(call)
	return nil
}

func (a *chatStream) finish(s *Stream) ([]byte, error) {
	if !a.done && a.stop == nil {
		if n := len(a.calls); n > 0 && !a.calls[n-1].end.whole() {
			return nil, s.failStream(ErrIncomplete, "the stream ended inside tool call %d (%s), before its arguments were complete", n-1, msgQuote(string(a.calls[n-1].name)))
		}
		return nil, s.failStream(ErrIncomplete, "the stream ended with no finish_reason and no [DONE]")
	}
	for i, c := range a.calls {
		if len(c.name) == 0 {
			return nil, s.failStream(ErrReplyShape, "tool call %d (started in event %d) has no name", i, c.event)
		}
		// Arguments that end inside their object when the reply stopped
		// at its token limit were cut off: the turn is incomplete. Any
		// other text that is not one object is the model's: a malformed
		// call of the assembled reply (blank or null: no arguments, {}).
		if c.end.started && !c.end.closed && a.stop != nil && tokenLimit(string(a.stop[1:len(a.stop)-1])) {
			return nil, s.failStream(ErrIncomplete, "tool call %d (%s): its arguments were cut off (finish_reason %s)", i, msgQuote(string(c.name)), a.stop)
		}
	}
	if err := a.giveComplete(s); err != nil {
		return nil, err
	}
	n := 128 + len(a.role) + len(a.content) + a.extras.size() + len(a.stop) + len(a.usage)
	for _, c := range a.calls {
		n += 64 + len(c.id) + len(c.typ) + len(c.name) + len(c.args)
	}
	b := append(make([]byte, 0, n), `{"choices":[{"index":0,"message":{"role":`...)
	if a.role != nil {
		b = append(b, a.role...)
	} else {
		b = append(b, `"assistant"`...)
	}
	b = append(b, `,"content":`...)
	if a.hasContent {
		b = append(append(append(b, '"'), a.content...), '"')
	} else {
		b = append(b, "null"...)
	}
	b = a.extras.appendMembers(b)
	if len(a.calls) > 0 {
		b = append(b, `,"tool_calls":[`...)
		for i, c := range a.calls {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = appendString(b, c.id)
			b = append(b, `,"type":`...)
			if c.typ != nil {
				b = append(b, c.typ...)
			} else {
				b = append(b, `"function"`...)
			}
			b = append(append(append(b, `,"function":{"name":"`...), c.name...), '"')
			if c.args != nil {
				b = append(append(append(b, `,"arguments":`...), c.args...), '"')
			}
			b = append(b, "}}"...)
		}
		b = append(b, ']')
	}
	b = append(b, `},"finish_reason":`...)
	if a.stop != nil {
		b = append(b, a.stop...)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, "}]"...)
	if a.usage != nil {
		b = append(append(b, `,"usage":`...), a.usage...)
	}
	return append(b, '}'), nil
}
