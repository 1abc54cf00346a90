package adapters

import (
	"io"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// Ollama's native /api/chat streams ("stream": true, its default) are
// JSON objects one after another, one a line: each {"model","created_at",
// "message":{"role","content": a piece, "thinking"?: a piece,
// "tool_calls"?: [whole calls]},"done":false}, and a last one with
// "done":true, "done_reason" and the durations and counts. A tool call
// arrives whole in one chunk, so it is handed out at once. The assembler
// joins the pieces into one whole /api/chat reply and ParseOllamaReply
// reads it.
var ollamaStreamSpec = &streamSpec{
	framer:   func(max int) framer { return newValueFramer(max) },
	assemble: func(*spec) assembler { return new(ollamaStream) },
}

var ollamaChunkMessageKeys = []string{"role", "content", "thinking", "tool_calls"}

// ollamaStream is the state of one /api/chat stream.
type ollamaStream struct {
	done      bool
	role      []byte // the first role, as sent
	content   []byte // the content pieces' insides, joined
	thinking  []byte // the thinking pieces' insides, joined
	thinks    bool   // a thinking piece came
	extras    wireMembers
	calls     []byte // the tool calls, compact, comma-separated
	ids       callIDs
	top       wireMembers // done and done_reason, the last value of each
	callCount int
}

func (a *ollamaStream) event(s *Stream, _ string, data []byte) error {
	p := &s.rp
	if a.done {
		return p.fail(pointer(""), ErrReplyShape, "a chunk after the one with \"done\": true")
	}
	obj, err := s.object(data)
	if err != nil {
		return err
	}
	var top [4][]byte
	if err := p.fields(pointer(""), obj, ollamaReplyKeys, top[:]); err != nil {
		return err
	}
	if e := top[3]; e != nil && e[0] != 'n' {
		msg, ok := jsonwire.Text(e)
		if !ok {
			msg = string(p.ix.Compact(e))
		}
		return p.providerError(pointer("/error"), msg, "", "", "")
	}
	if d := top[1]; d != nil && d[0] != 't' && d[0] != 'f' && d[0] != 'n' {
		return p.fail(pointer("/done"), ErrReplyShape, "expected true or false, got %s", jsonwire.Kind(d))
	}
	if _, err := p.text(pointer("/done_reason"), top[2]); err != nil {
		return err
	}
	if m := top[0]; m != nil && m[0] != 'n' {
		if err := a.message(s, m); err != nil {
			return err
		}
	}
	// The chunk's other members (model, created_at, the durations and
	// counts) are not kept: the reply's parser reads done and done_reason
	// of its top, and replays the message alone. The event's fields above
	// refused a key that differs from one of those only in case.
	for i, key := range [...][]byte{keyDone, keyDoneReason} {
		if v := top[1+i]; v != nil {
			a.top.set(p.ix, key, v)
		}
	}
	a.done = top[1] != nil && top[1][0] == 't'
	return nil
}

var (
	keyDone       = []byte(`"done"`)
	keyDoneReason = []byte(`"done_reason"`)
)

// message reads one chunk's message.
func (a *ollamaStream) message(s *Stream, msg []byte) error {
	p := &s.rp
	at := pointer("/message")
	var m [4][]byte
	others, err := p.fieldsOthers(at, msg, ollamaChunkMessageKeys, m[:])
	if err != nil {
		return err
	}
	if m[0] != nil && m[0][0] != 'n' {
		role, err := p.text(at.key("/role"), m[0])
		if err != nil {
			return err
		}
		if role != "assistant" {
			return p.fail(at.key("/role"), ErrReplyShape, "role is %s, not assistant", msgQuote(role))
		}
		if a.role == nil {
			a.role = append([]byte(nil), m[0]...)
		}
	}
	for i, dst := range [...]*[]byte{&a.content, &a.thinking} {
		v := m[1+i]
		if v == nil || v[0] == 'n' {
			continue
		}
		if v[0] != '"' {
			return p.fail(at.key("/"+ollamaChunkMessageKeys[1+i]), ErrReplyShape, "expected a string, got %s", jsonwire.Kind(v))
		}
		*dst = append(*dst, v[1:len(v)-1]...)
		if i == 0 {
			s.textRaw(v)
		} else {
			a.thinks = true
		}
	}
	if others > 0 {
		_ = p.ix.Members(msg, func(m jsonwire.Member) error {
			if !jsonwire.KeyIn(m.Key, ollamaChunkMessageKeys) {
				a.extras.join(p.ix, m.Key, m.Val)
			}
			return nil
		})
		if err := a.extras.overflow(p, at, "the message"); err != nil {
			return err
		}
	}
	if m[3] == nil || m[3][0] == 'n' {
		return nil
	}
	if err := p.array(at.key("/tool_calls"), m[3]); err != nil {
		return err
	}
	list := pointer(at.key("/tool_calls").String())
	return p.ix.Elems(m[3], func(i int, raw []byte) error {
		c := list.index(i)
		if err := s.startCall(c); err != nil {
			return err
		}
		var tc [2][]byte
		if err := p.fields(c, raw, ollamaToolCallKeys, tc[:]); err != nil {
			return err
		}
		id, err := p.text(c.key("/id"), tc[0])
		if err != nil {
			return err
		}
		if err := p.uniqueID(&a.ids, c.key("/id"), id); err != nil {
			return err
		}
		name, rawArgs, _, err := p.function(c, tc[1])
		if err != nil {
			return err
		}
		args, err := p.argsObject(c.key("/function/arguments"), rawArgs)
		if err != nil {
			return err
		}
		if a.callCount > 0 {
			a.calls = append(a.calls, ',')
		}
		a.callCount++
		a.calls = append(a.calls, p.ix.Compact(raw)...)
		s.giveCall(Call{ID: id, Name: name, Args: append([]byte(nil), args...)})
		return nil
	})
}

func (a *ollamaStream) finish(s *Stream) ([]byte, error) {
	if !a.done {
		return nil, s.failStream(ErrIncomplete, "the stream ended with no chunk with \"done\": true")
	}
	b := append(make([]byte, 0, 128+len(a.content)+len(a.thinking)+len(a.calls)), `{"message":{"role":`...)
	if a.role != nil {
		b = append(b, a.role...)
	} else {
		b = append(b, `"assistant"`...)
	}
	b = append(append(append(b, `,"content":"`...), a.content...), '"')
	if a.thinks {
		b = append(append(append(b, `,"thinking":"`...), a.thinking...), '"')
	}
	b = a.extras.appendMembers(b)
	if a.callCount > 0 {
		b = append(append(append(b, `,"tool_calls":[`...), a.calls...), ']')
	}
	b = append(b, '}')
	b = a.top.appendMembers(b)
	return append(b, '}'), nil
}

// ParseOllamaStream reads an Ollama /api/chat stream (a request with
// "stream": true, Ollama's default) from body, the HTTP response body as
// sent: JSON objects one a line, to the one with "done": true. The Turn
// is what [ParseOllamaReply] gives for the same reply unstreamed: the
// tool calls in order (each arrives whole, and is handed out at once: see
// [Stream]), the content pieces joined as Text, done_reason as Stop, and
// one [OllamaMessage] as Replay, its thinking joined.
//
// An {"error": ...} line is a [*ReplyError] wrapping [ErrProviderError];
// a stream that ends with no "done": true line, [ErrIncomplete]; a call
// whose arguments are not a JSON object, [ErrArguments].
func ParseOllamaStream(body io.Reader) (Turn, error) {
	return ReplyLimits{}.parseStream(ollamaSpec, body)
}
