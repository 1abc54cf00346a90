package adapters

import (
	"io"
	"strconv"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// Bedrock ConverseStream replies are AWS event streams
// (eventstream_frames.go): binary frames whose :event-type header names
// the event and whose payload is its JSON: messageStart {role};
// contentBlockStart {contentBlockIndex, start: {toolUse | toolResult}};
// contentBlockDelta {contentBlockIndex, delta: {text | toolUse: {input:
// a piece of the input's JSON text} | reasoningContent: {text | signature
// | redactedContent} | citation | toolResult}}; contentBlockStop
// {contentBlockIndex}; messageStop {stopReason,
// additionalModelResponseFields}; metadata {usage, metrics, trace}. The
// service pads every payload with a "p" member of random length, which is
// skipped. The assembler rebuilds the Converse response
// ({"output":{"message":...},"stopReason":...}: what ParseBedrockReply
// reads; usage, metrics and trace are not kept) and ParseBedrockReply
// reads it.
//
// How the stream is read:
//   - a text block has no contentBlockStart: its first delta starts it;
//   - a block ends at its contentBlockStop, or, when that never comes, at
//     the start of the next block or at messageStop; a toolUse block's
//     call is handed out when it ends, its input pieces joined ("" is {});
//   - an exception frame (modelStreamErrorException, throttlingException,
//     ...) or an error frame is a provider error;
//   - an event type, delta or block start the reader does not know is an
//     error, not skipped: skipping it could lose part of the reply.
var bedrockStreamSpec = &streamSpec{
	framer:   func(max int) framer { return newEventStreamFramer(max) },
	assemble: func(*spec) assembler { return new(bedrockStream) },
}

var (
	bedrockIndexKeys    = []string{"contentBlockIndex"}
	bedrockStartKeys    = []string{"contentBlockIndex", "start"}
	bedrockDeltaKeys    = []string{"contentBlockIndex", "delta"}
	bedrockDeltaKinds   = []string{"text", "toolUse", "reasoningContent", "citation", "toolResult"}
	bedrockDeltaPaths   = [...]string{"/delta/text", "/delta/toolUse", "/delta/reasoningContent", "/delta/citation", "/delta/toolResult"}
	bedrockStopKeys     = []string{"stopReason"}
	bedrockStartUseKeys = []string{"toolUseId", "name", "type"}
	bedrockReasonKeys   = []string{"text", "signature", "redactedContent"}
	bedrockInputKeys    = []string{"input"}
	bedrockErrorKeys    = []string{"message", "Message"}
	bedrockRoleKeys     = []string{"role"}
)

// bedrockStream is the state of one ConverseStream.
type bedrockStream struct {
	started bool   // messageStart came
	role    []byte // its role, as sent
	stopped bool   // messageStop came
	// stopReason is messageStop's, as sent, while it ends the open blocks.
	stopReason []byte
	calls      int         // calls made so far (not server_tool_use)
	patches    []callPatch // what the reply cannot hold of a malformed or repaired call
	// unclosed names the first tool use whose input ended inside its
	// object at its contentBlockStop: cut off if the stopReason is
	// max_tokens, else malformed; "" when none.
	unclosed string
	metadata bool // metadata came
	blocks   []*bedrockBlock
	open     *bedrockBlock // the block not ended yet, if any
	byIndex  map[int64]int // contentBlockIndex -> blocks
	ids      map[string]bool
	top      wireMembers // the response's members from messageStop and metadata that its parser reads
	scratch  []byte
}

// The kinds of content block.
const (
	bedrockNone       = iota // a block stopped before anything came
	bedrockText              // text deltas (and citations)
	bedrockToolUse           // a toolUse start and input deltas
	bedrockReasoning         // reasoningContent deltas
	bedrockToolResult        // a toolResult start and deltas (a server tool's result)
)

var bedrockKindNames = [...]string{"empty", "text", "toolUse", "reasoningContent", "toolResult"}

// bedrockBlock is one content block being assembled.
type bedrockBlock struct {
	index int64
	kind  int
	ended bool
	event int // the event that started it

	text      []byte // text, or reasoning text: the pieces' insides joined
	citations []byte // the citation deltas, compact, comma-separated
	signature []byte // reasoning: the signature pieces' insides joined
	redacted  []byte // reasoning: the redactedContent pieces' insides joined
	hasSig    bool
	hasRed    bool

	id, name, typ []byte // toolUse: as sent (quoted); typ nil when none came
	server        bool   // toolUse of type server_tool_use: no call
	input         []byte // toolUse: a quote, then the input pieces' insides joined
	args          []byte // toolUse: the compact input object, once ended

	start   []byte // toolResult: the start object's members, compact, without braces
	content []byte // toolResult: the delta elements, compact, comma-separated
}

func (a *bedrockStream) event(s *Stream, name string, data []byte) error {
	if f, ok := s.fr.(*eventStreamFramer); ok && f.msgType != "event" {
		return a.failure(s, f, data)
	}
	obj, err := s.object(data)
	if err != nil {
		return err
	}
	p := &s.rp
	if a.stopped && name != "metadata" {
		return p.fail(pointer(""), ErrReplyShape, "a %s event after messageStop", msgQuote(name))
	}
	switch name {
	case "messageStart":
		if a.started {
			return p.fail(pointer(""), ErrReplyShape, "a second messageStart")
		}
		a.started = true
		var v [1][]byte
		if err := p.fields(pointer(""), obj, bedrockRoleKeys, v[:]); err != nil {
			return err
		}
		if _, err := p.text(pointer("/role"), v[0]); err != nil {
			return err
		}
		if v[0] != nil && v[0][0] != 'n' {
			a.role = append(a.role[:0], v[0]...)
		}
		return nil
	case "contentBlockStart":
		return a.blockStart(s, obj)
	case "contentBlockDelta":
		return a.delta(s, obj)
	case "contentBlockStop":
		var v [1][]byte
		if err := p.fields(pointer(""), obj, bedrockIndexKeys, v[:]); err != nil {
			return err
		}
		index, err := a.index(s, v[0])
		if err != nil {
			return err
		}
		b := a.block(index)
		if b == nil {
			// A block that sent nothing: it adds nothing to the reply.
			if err := a.endOpen(s); err != nil {
				return err
			}
			b = a.add(s, index, bedrockNone)
		}
		if b.ended {
			return p.fail(pointer("/contentBlockIndex"), ErrReplyShape, "content block %d ended twice", index)
		}
		return a.end(s, b)
	case "messageStop":
		var v [1][]byte
		if err := p.fields(pointer(""), obj, bedrockStopKeys, v[:]); err != nil {
			return err
		}
		if v[0] == nil || v[0][0] == 'n' {
			return p.fail(pointer("/stopReason"), ErrReplyShape, "missing stopReason")
		}
		if _, err := p.text(pointer("/stopReason"), v[0]); err != nil {
			return err
		}
		if a.unclosed != "" && string(v[0]) == `"max_tokens"` {
			return p.fail(pointer("/stopReason"), ErrIncomplete, "the input of %s was cut off before its JSON was whole (stopReason \"max_tokens\")", a.unclosed)
		}
		a.stopReason = v[0] // for end's error; the event's data is valid only during the call
		err := a.endOpen(s)
		a.stopReason = nil
		if err != nil {
			return err
		}
		a.stopped = true
		return a.members(s, obj)
	case "metadata":
		if a.metadata {
			return p.fail(pointer(""), ErrReplyShape, "a second metadata event")
		}
		a.metadata = true
		return a.members(s, obj)
	}
	return p.fail(pointer(""), ErrReplyShape, "event type %s is not a ConverseStream event", msgQuote(name))
}

// failure reads an exception or error frame: a provider error.
func (a *bedrockStream) failure(s *Stream, f *eventStreamFramer, data []byte) error {
	p := &s.rp
	if f.msgType == "error" {
		msg := f.errMsg
		if msg == "" {
			msg = string(jsonwire.AppendValidUTF8(nil, data))
		}
		return p.providerError(pointer(""), msg, f.errCode, "", "")
	}
	msg := ""
	if obj, err := s.object(data); err == nil {
		var v [2][]byte
		_ = p.fields(pointer(""), obj, bedrockErrorKeys, v[:])
		for _, m := range v {
			if t, ok := jsonwire.Text(m); ok && msg == "" {
				msg = t
			}
		}
		if msg == "" {
			msg = string(obj)
		}
	} else {
		msg = string(jsonwire.AppendValidUTF8(nil, data))
	}
	typ := f.excType
	if typ == "" {
		typ = "exception"
	}
	return p.providerError(pointer(""), msg, typ, "", "")
}

// index reads a contentBlockIndex.
func (a *bedrockStream) index(s *Stream, raw []byte) (int64, error) {
	if raw == nil {
		return 0, s.rp.fail(pointer("/contentBlockIndex"), ErrReplyShape, "missing contentBlockIndex")
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n < 0 {
		return 0, s.rp.fail(pointer("/contentBlockIndex"), ErrReplyShape, "expected an integer of at least 0, got %s", msgQuote(string(raw)))
	}
	return n, nil
}

func (a *bedrockStream) block(index int64) *bedrockBlock {
	if j, ok := a.byIndex[index]; ok {
		return a.blocks[j]
	}
	return nil
}

// add starts a block.
func (a *bedrockStream) add(s *Stream, index int64, kind int) *bedrockBlock {
	b := &bedrockBlock{index: index, kind: kind, event: s.events}
	if a.byIndex == nil {
		a.byIndex = map[int64]int{}
	}
	a.byIndex[index] = len(a.blocks)
	a.blocks = append(a.blocks, b)
	a.open = b
	return b
}

// endOpen ends the block still open, at the start of another block or
// at messageStop. Since every block's start ends the one before, at most
// one is open.
func (a *bedrockStream) endOpen(s *Stream) error {
	if b := a.open; b != nil {
		return a.end(s, b)
	}
	return nil
}

func (a *bedrockStream) blockStart(s *Stream, obj []byte) error {
	p := &s.rp
	var v [2][]byte
	if err := p.fields(pointer(""), obj, bedrockStartKeys, v[:]); err != nil {
		return err
	}
	index, err := a.index(s, v[0])
	if err != nil {
		return err
	}
	if a.block(index) != nil {
		return p.fail(pointer("/contentBlockIndex"), ErrReplyShape, "content block %d started again", index)
	}
	if v[1] == nil {
		return p.fail(pointer("/start"), ErrReplyShape, "missing start")
	}
	if err := p.object(pointer("/start"), v[1]); err != nil {
		return err
	}
	var kind []byte
	var val []byte
	n := 0
	_ = p.ix.Members(v[1], func(m jsonwire.Member) error {
		n++
		kind, val = m.Key, m.Val
		return nil
	})
	if n != 1 {
		return p.fail(pointer("/start"), ErrReplyShape, "expected one member (toolUse or toolResult), got %d", n)
	}
	if err := a.endOpen(s); err != nil {
		return err
	}
	switch string(kind) {
	case `"toolUse"`:
		at := pointer("/start/toolUse")
		var tu [3][]byte
		if err := p.fields(at, val, bedrockStartUseKeys, tu[:]); err != nil {
			return err
		}
		id, err := p.text(at.key("/toolUseId"), tu[0])
		if err != nil {
			return err
		}
		if id == "" {
			return p.fail(at.key("/toolUseId"), ErrReplyShape, "missing toolUseId (results are paired by it)")
		}
		if a.ids[id] {
			return p.fail(at.key("/toolUseId"), ErrReplyShape, "duplicate toolUseId %s", msgQuote(id))
		}
		name, err := p.text(at.key("/name"), tu[1])
		if err != nil {
			return err
		}
		if name == "" {
			return p.fail(at.key("/name"), ErrReplyShape, "missing name")
		}
		typ, err := p.text(at.key("/type"), tu[2])
		if err != nil {
			return err
		}
		switch typ {
		case "", "tool_use":
			if err := s.startCall(at); err != nil {
				return err
			}
		case "server_tool_use":
		default:
			return p.fail(at.key("/type"), ErrReplyShape, "toolUse type %s is not supported", msgQuote(typ))
		}
		if a.ids == nil {
			a.ids = map[string]bool{}
		}
		a.ids[id] = true
		b := a.add(s, index, bedrockToolUse)
		b.id = append([]byte(nil), tu[0]...)
		b.name = append([]byte(nil), tu[1]...)
		if tu[2] != nil && tu[2][0] != 'n' {
			b.typ = append([]byte(nil), tu[2]...)
		}
		b.server = typ == "server_tool_use"
	case `"toolResult"`:
		at := pointer("/start/toolResult")
		if err := p.object(at, val); err != nil {
			return err
		}
		if p.ix.Field(val, "content") != nil {
			return p.fail(at.key("/content"), ErrReplyShape, "content in a toolResult start is not supported (it comes in deltas)")
		}
		b := a.add(s, index, bedrockToolResult)
		c := p.ix.Compact(val)
		b.start = append([]byte(nil), c[1:len(c)-1]...)
	default:
		return p.fail(pointer("/start"), ErrReplyShape, "a content block start of kind %s is not supported", string(kind))
	}
	return nil
}

func (a *bedrockStream) delta(s *Stream, obj []byte) error {
	p := &s.rp
	var v [2][]byte
	if err := p.fields(pointer(""), obj, bedrockDeltaKeys, v[:]); err != nil {
		return err
	}
	index, err := a.index(s, v[0])
	if err != nil {
		return err
	}
	if v[1] == nil {
		return p.fail(pointer("/delta"), ErrReplyShape, "missing delta")
	}
	if err := p.object(pointer("/delta"), v[1]); err != nil {
		return err
	}
	b := a.block(index)
	if b != nil && b.ended {
		return p.fail(pointer("/contentBlockIndex"), ErrReplyShape, "a delta for content block %d after it ended", index)
	}
	var d [5][]byte
	others, err := p.fieldsOthers(pointer("/delta"), v[1], bedrockDeltaKinds, d[:])
	if err != nil {
		return err
	}
	if others > 0 {
		var unknown []byte
		_ = p.ix.Members(v[1], func(m jsonwire.Member) error {
			if unknown == nil && !jsonwire.KeyIn(m.Key, bedrockDeltaKinds) {
				unknown = m.Key
			}
			return nil
		})
		return p.fail(pointer("/delta"), ErrReplyShape, "a delta of kind %s is not supported", string(unknown))
	}
	for i, val := range d {
		if val == nil {
			continue
		}
		if err := a.deltaMember(s, &b, index, i, val); err != nil {
			return err
		}
	}
	return nil
}

// deltaMember reads member k (of bedrockDeltaKinds) of a delta for block
// index (*bp, nil when the delta starts it).
func (a *bedrockStream) deltaMember(s *Stream, bp **bedrockBlock, index int64, k int, val []byte) error {
	p := &s.rp
	m := jsonwire.Member{Val: val}
	key, at := bedrockDeltaKinds[k], pointer(bedrockDeltaPaths[k])
	b := *bp
	kind := bedrockNone
	switch key {
	case "text", "citation":
		kind = bedrockText
	case "toolUse":
		kind = bedrockToolUse
	case "reasoningContent":
		kind = bedrockReasoning
	case "toolResult":
		kind = bedrockToolResult
	default:
		return p.fail(at, ErrReplyShape, "a delta of kind %s is not supported", msgQuote(key))
	}
	if b == nil {
		if kind == bedrockToolUse || kind == bedrockToolResult {
			return p.fail(at, ErrReplyShape, "a %s delta for content block %d, which no contentBlockStart started", key, index)
		}
		if err := a.endOpen(s); err != nil {
			return err
		}
		b = a.add(s, index, kind)
	}
	if b.kind != kind {
		return p.fail(at, ErrReplyShape, "a %s delta in content block %d, a %s block", key, index, bedrockKindNames[b.kind])
	}
	switch key {
	case "text":
		if m.Val[0] != '"' {
			return p.fail(at, ErrReplyShape, "expected a string, got %s", jsonwire.Kind(m.Val))
		}
		b.text = append(b.text, m.Val[1:len(m.Val)-1]...)
		s.textRaw(m.Val)
	case "citation":
		if err := p.object(at, m.Val); err != nil {
			return err
		}
		if len(b.citations) > 0 {
			b.citations = append(b.citations, ',')
		}
		b.citations = append(b.citations, p.ix.Compact(m.Val)...)
	case "toolUse":
		var in [1][]byte
		if err := p.fields(at, m.Val, bedrockInputKeys, in[:]); err != nil {
			return err
		}
		if in[0] == nil || in[0][0] == 'n' {
			return nil
		}
		if in[0][0] != '"' {
			return p.fail(at.key("/input"), ErrArguments, "expected a string piece of the input's JSON text, got %s", jsonwire.Kind(in[0]))
		}
		if b.input == nil {
			b.input = append(make([]byte, 0, len(in[0])), '"')
		}
		b.input = append(b.input, in[0][1:len(in[0])-1]...)
	case "reasoningContent":
		var r [3][]byte
		others, err := p.fieldsOthers(at, m.Val, bedrockReasonKeys, r[:])
		if err != nil {
			return err
		}
		if others > 0 {
			return p.fail(at, ErrReplyShape, "a reasoningContent delta with a member other than text, signature and redactedContent")
		}
		for i, x := range r {
			if x == nil || x[0] == 'n' {
				continue
			}
			if x[0] != '"' {
				return p.fail(at.key("/"+bedrockReasonKeys[i]), ErrReplyShape, "expected a string, got %s", jsonwire.Kind(x))
			}
			piece := x[1 : len(x)-1]
			switch i {
			case 0:
				b.text = append(b.text, piece...)
			case 1:
				b.signature, b.hasSig = append(b.signature, piece...), true
			case 2:
				b.redacted, b.hasRed = append(b.redacted, piece...), true
			}
		}
		if b.hasRed && (b.hasSig || len(b.text) > 0) {
			return p.fail(at, ErrReplyShape, "content block %d has both reasoning text and redactedContent", index)
		}
	case "toolResult":
		if err := p.array(at, m.Val); err != nil {
			return err
		}
		if m.Val[0] == 'n' {
			return nil
		}
		inner := p.ix.Compact(m.Val)
		inner = inner[1 : len(inner)-1]
		if len(b.content) > 0 && len(inner) > 0 {
			b.content = append(b.content, ',')
		}
		b.content = append(b.content, inner...)
	}
	return nil
}

// end ends block b; a toolUse block's input must be whole: its call is
// handed out (unless a server ran it).
func (a *bedrockStream) end(s *Stream, b *bedrockBlock) error {
	b.ended = true
	if a.open == b {
		a.open = nil
	}
	if b.kind != bedrockToolUse {
		return nil
	}
	name, _ := jsonwire.Text(b.name)
	if b.input == nil {
		b.input = []byte{'"'}
	}
	text := jsonwire.AppendUnquoted(a.scratch[:0], append(b.input, '"'))
	a.scratch = text
	c := Call{Name: name}
	if err := s.rp.textArgs(pointer(""), text, false, &c); err != nil {
		return err
	}
	if cutInside(text) {
		// Ended inside its object: cut off when the stopReason is
		// max_tokens (given now, at a messageStop that ends the block, or
		// by the messageStop to come), else the model's.
		if a.stopReason != nil && string(a.stopReason) == `"max_tokens"` {
			return s.rp.fail(pointer(""), ErrIncomplete, "input of tool use block %d (%s) was cut off before its JSON was whole (stopReason %s)", b.index, msgQuote(name), a.stopReason)
		}
		if a.unclosed == "" {
			a.unclosed = "tool use block " + strconv.FormatInt(b.index, 10) + " (" + msgQuote(name) + ")"
		}
	}
	switch {
	case c.Malformed != "":
		b.args = []byte("{}") // the message needs an object
	case string(trimJSONSpace(text)) == "null":
		b.args = []byte("null") // no input, as in a whole reply: the call's {}, the replay keeps null
	default:
		b.args = c.Args
	}
	b.input = nil
	if !b.server {
		if c.Malformed != "" || c.Repaired != 0 {
			a.patches = append(a.patches, callPatch{index: a.calls, args: c.Args, malformed: c.Malformed, repaired: c.Repaired})
		}
		a.calls++
		c.ID, _ = jsonwire.Text(b.id)
		s.giveCall(c)
	}
	return nil
}

// patch gives the calls of the assembled reply what it cannot hold.
func (a *bedrockStream) patch(calls []Call) { patchCalls(calls, a.patches) }

// members keeps the members of a messageStop or metadata event that the
// response's parser reads (stopReason, and any whose key differs from one
// it reads only in case, which it refuses) as members of the response.
// The others (usage, metrics, trace, additionalModelResponseFields, the
// padding) are not kept: the replay is the message.
func (a *bedrockStream) members(s *Stream, obj []byte) error {
	p := &s.rp
	err := p.ix.Members(obj, func(m jsonwire.Member) error {
		switch {
		case string(m.Key) == `"output"`:
			return p.fail(pointer("/output"), ErrReplyShape, "an output member outside the message")
		case keyFolds(m.Key, bedrockKeys):
			a.top.set(p.ix, m.Key, m.Val)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return a.top.overflow(p, pointer(""), "the response")
}

func (a *bedrockStream) finish(s *Stream) ([]byte, error) {
	if !a.stopped {
		if b := a.open; b != nil && b.kind == bedrockToolUse {
			name, _ := jsonwire.Text(b.name)
			return nil, s.failStream(ErrIncomplete, "the stream ended inside tool use block %d (%s), before its input was complete", b.index, msgQuote(name))
		}
		return nil, s.failStream(ErrIncomplete, "the stream ended before messageStop")
	}
	n := 64
	for _, b := range a.blocks {
		n += 64 + len(b.text) + len(b.citations) + len(b.signature) + len(b.redacted) + len(b.args) + len(b.start) + len(b.content)
	}
	for _, m := range a.top.m {
		n += 4 + len(m.key) + len(m.val)
	}
	out := append(make([]byte, 0, n), `{"output":{"message":{"role":`...)
	if a.role != nil {
		out = append(out, a.role...)
	} else {
		out = append(out, `"assistant"`...)
	}
	out = append(out, `,"content":[`...)
	first := true
	for _, b := range a.blocks {
		if b.kind == bedrockNone {
			continue
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = b.appendJSON(out)
	}
	out = append(out, "]}}"...)
	out = a.top.appendMembers(out)
	return append(out, '}'), nil
}

// appendJSON appends the block as the whole response holds it.
func (b *bedrockBlock) appendJSON(out []byte) []byte {
	quoted := func(out, inside []byte) []byte { return append(append(append(out, '"'), inside...), '"') }
	switch b.kind {
	case bedrockText:
		if len(b.citations) == 0 {
			return append(quoted(append(out, `{"text":`...), b.text), '}')
		}
		out = quoted(append(out, `{"citationsContent":{"content":[{"text":`...), b.text)
		out = append(append(append(out, `}],"citations":[`...), b.citations...), "]}}"...)
		return out
	case bedrockToolUse:
		out = append(append(append(out, `{"toolUse":{"toolUseId":`...), b.id...), `,"name":`...)
		out = append(out, b.name...)
		if b.typ != nil {
			out = append(append(out, `,"type":`...), b.typ...)
		}
		return append(append(append(out, `,"input":`...), b.args...), "}}"...)
	case bedrockReasoning:
		if b.hasRed {
			return append(quoted(append(out, `{"reasoningContent":{"redactedContent":`...), b.redacted), "}}"...)
		}
		out = quoted(append(out, `{"reasoningContent":{"reasoningText":{"text":`...), b.text)
		if b.hasSig {
			out = quoted(append(out, `,"signature":`...), b.signature)
		}
		return append(out, "}}}"...)
	case bedrockToolResult:
		out = append(append(out, `{"toolResult":{`...), b.start...)
		if len(b.start) > 0 {
			out = append(out, ',')
		}
		return append(append(append(out, `"content":[`...), b.content...), "]}}"...)
	}
	return out
}

// ParseBedrockStream reads a Bedrock ConverseStream reply from body, the
// HTTP response body as sent: AWS's binary event stream
// (application/vnd.amazon.eventstream), each frame's CRCs checked. The
// Turn is what [ParseBedrockReply] gives for the same reply unstreamed:
// the toolUse blocks as calls in order, with their toolUseIds and compact
// input objects (input pieces joined; no input is {}), the text blocks as
// Text, stopReason as Stop, and the assistant message as Replay, its
// reasoning blocks with their signatures. A toolUse of type
// "server_tool_use" and toolResult blocks (a tool the service ran) make no
// call; they stay in the replay.
//
// See [Stream] for reading calls as their blocks end. A body that is not
// an event stream or whose frame fails its CRC, an exception frame
// (throttlingException, modelStreamErrorException, ...), a tool input cut
// off inside its object by stopReason max_tokens, and a stream that ends
// before messageStop are errors: a [*ReplyError] wrapping [ErrNotJSON],
// [ErrProviderError], [ErrArguments] or [ErrIncomplete]. A tool input
// that is otherwise not one JSON object makes a malformed call
// ([Call].Malformed, its Args the text; its input in the replayed
// message {}), or with [RepairArguments] a repaired one.
func ParseBedrockStream(body io.Reader) (Turn, error) {
	return ReplyLimits{}.parseStream(bedrockSpec, body)
}
