package adapters

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strconv"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// Anthropic Messages streams ("stream": true) are Server-Sent Events whose
// data is a JSON object with a "type" equal to the event's name:
// message_start (the message, content empty), then for each content block
// content_block_start (the block, by index), content_block_delta pieces
// and content_block_stop, then message_delta (stop_reason, stop_sequence,
// the final usage) and message_stop; ping may come anywhere, and error
// ends a stream that failed. The assembler rebuilds the message a request
// without streaming would have returned and ParseAnthropicReply reads it,
// so thinking blocks and their signatures, server tool blocks and
// citations replay as a whole reply's do.
//
// How the pieces are joined:
//   - a block is the object content_block_start gave, with each delta's
//     members (other than its "type") merged into it: a string is
//     appended to the block's string of that name (text_delta's text,
//     thinking_delta's thinking, signature_delta's signature), an array's
//     elements to its array, null is skipped and any other value replaces
//     the one before. A delta of a type this file does not know is merged
//     the same way, so what it carries is kept; a member whose kind
//     differs from the block's (a string onto an array) is an error;
//   - input_json_delta's partial_json pieces are joined as sent and read
//     once the block ends: pieces that join to nothing leave the input
//     content_block_start gave ({} for a tool_use); otherwise they must be
//     one whole JSON value, which replaces it, except for a tool_use,
//     whose text that is not one object makes a malformed call (input {})
//     unless the stop_reason that follows is max_tokens and the text
//     stops inside its object: then the stream is incomplete;
//   - citations_delta's citation is appended to the block's citations;
//   - a block ends at its content_block_stop, or, when that is missing,
//     at the next content_block_start, message_delta or message_stop; a
//     tool_use is handed out as a call when it ends;
//   - message_delta's delta members replace the message's (stop_reason);
//     of the message's own members, only those ParseAnthropicReply reads
//     are kept (type, role, stop_reason, error, and any that differs from
//     one of those only in case, which it refuses): the rest (id, model,
//     stop_sequence) are checked and dropped, as the replay is the
//     content;
//   - the usage is message_start's usage members, each replaced by those
//     of a message_delta's usage (its output_tokens, the final count);
//   - event types this file does not know are skipped (Anthropic may add
//     some); ping is skipped.
var anthropicStreamSpec = &streamSpec{
	framer:   func(max int) framer { return newSSEFramer(max) },
	assemble: func(*spec) assembler { return new(anthropicStream) },
}

var anthropicEventKeys = []string{"type", "index", "delta", "content_block", "message", "usage", "error"}

// anthropicStream is the state of one Anthropic stream.
type anthropicStream struct {
	started   bool        // message_start came
	stopped   bool        // message_stop came
	deltaSeen bool        // a message_delta came
	stopSeen  bool        // a message_delta gave a stop_reason that is not null
	msg       wireMembers // the message's members its parser reads; content is written from the blocks
	usage     wireMembers // the usage's members (message_start's, replaced by message_delta's)
	usageSeen bool        // a usage object came
	content   []byte      // the ended blocks, each a compact object, joined by commas
	blocks    int         // how many blocks ended
	indexes   []int64     // the index of every block started, increasing
	starts    []int       // the event that started each
	open      *anthropicBlock
	spare     *anthropicBlock // a block's storage, reused
	ids       callIDs
	scratch   []byte
	calls     int         // tool_use calls made so far
	patches   []callPatch // what the message cannot hold of a malformed or repaired call
	// unclosed names the first tool_use whose input ended inside its
	// object at its content_block_stop: cut off if the stop_reason is
	// max_tokens, else malformed; "" when none.
	unclosed string
}

// patch gives the calls of the assembled message what it cannot hold.
func (a *anthropicStream) patch(calls []Call) { patchCalls(calls, a.patches) }

// anthropicBlock is the content block being streamed.
type anthropicBlock struct {
	index   int64
	typ     string // its type, as sent
	members wireMembers
	input   []byte // `"` and the partial_json pieces' insides, joined
	pieces  bool   // a partial_json piece came
	bad     *Call  // a tool_use whose input is malformed or repaired: its Args and marks
}

func (a *anthropicStream) event(s *Stream, name string, data []byte) error {
	obj, err := s.object(data)
	if err != nil {
		return err
	}
	p := &s.rp
	var f [7][]byte
	if err := p.fields(pointer(""), obj, anthropicEventKeys, f[:]); err != nil {
		return err
	}
	typ, err := anthropicType(p, pointer("/type"), f[0])
	if err != nil {
		return err
	}
	if name == "error" || typ == "error" {
		if f[6] != nil && f[6][0] == '{' {
			return p.errorObject(pointer("/error"), f[6], &anthropicErrorKeys)
		}
		msg, _ := jsonwire.Text(f[6])
		if msg == "" {
			msg = string(p.ix.Compact(obj))
		}
		return p.providerError(pointer(""), msg, "", "", "")
	}
	switch {
	case typ == "":
		typ = name
	case name != "" && name != typ:
		return p.fail(pointer("/type"), ErrReplyShape, "the event is named %s but its type is %s", msgQuote(name), msgQuote(typ))
	}
	switch typ {
	case "message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop":
	default:
		return nil // ping, and the event types added after this file was written
	}
	switch {
	case a.stopped:
		return p.fail(pointer("/type"), ErrReplyShape, "%s after message_stop", typ)
	case typ == "message_start":
		return a.start(s, f[4])
	case !a.started:
		return p.fail(pointer("/type"), ErrReplyShape, "%s before message_start", typ)
	}
	switch typ {
	case "content_block_start":
		return a.blockStart(s, f[1], f[3])
	case "content_block_delta":
		return a.blockDelta(s, f[1], f[2])
	case "content_block_stop":
		return a.blockStop(s, f[1])
	case "message_delta":
		return a.messageDelta(s, f[2], f[5])
	}
	// message_stop
	if a.open != nil {
		if err := a.end(s, " (no content_block_stop came before message_stop)"); err != nil {
			return err
		}
	}
	a.stopped = true
	return nil
}

// anthropicTypes are the event and delta types the stream reads, which
// anthropicType returns without making a string of each event's type.
var anthropicTypes = []string{"ping", "message_start", "content_block_start", "content_block_delta",
	"content_block_stop", "message_delta", "message_stop", "error",
	"text_delta", "input_json_delta", "thinking_delta", "signature_delta", "citations_delta"}

// anthropicType reads the string raw, a type: "" when absent or null.
func anthropicType(p *replyParser, at loc, raw []byte) (string, error) {
	if raw != nil && raw[0] == '"' {
		for _, t := range anthropicTypes {
			if string(raw[1:len(raw)-1]) == t {
				return t, nil
			}
		}
	}
	return p.text(at, raw)
}

// start reads message_start's message.
func (a *anthropicStream) start(s *Stream, msg []byte) error {
	p := &s.rp
	if a.started {
		return p.fail(pointer("/type"), ErrReplyShape, "message_start again (the stream has one message)")
	}
	if msg == nil {
		return p.fail(pointer("/message"), ErrReplyShape, "missing message")
	}
	if err := p.object(pointer("/message"), msg); err != nil {
		return err
	}
	a.started = true
	hasContent := false
	err := p.ix.Members(msg, func(m jsonwire.Member) error {
		switch {
		case jsonwire.KeyIs(m.Key, "content"):
			if m.Val[0] != 'n' && (m.Val[0] != '[' || p.ix.First(m.Val) != nil) {
				return p.fail(pointer("/message/content"), ErrReplyShape, "expected an empty array (the blocks come in content_block_start events), got %s", contentKind(m.Val))
			}
			a.msg.add(m.Key).kind = wireContent
			hasContent = true
		case jsonwire.KeyIs(m.Key, "usage") && m.Val[0] == '{':
			return a.keepUsage(s, m.Val)
		case jsonwire.KeyIs(m.Key, "usage") && m.Val[0] == 'n':
		case keyFolds(m.Key, anthropicKeys):
			a.msg.set(p.ix, m.Key, m.Val)
		}
		// The message's other members (id, model, ...) are not kept: the
		// reply's parser does not read them, and its replay is the content.
		return nil
	})
	if err != nil {
		return err
	}
	if !hasContent {
		a.msg.add([]byte(`"content"`)).kind = wireContent
	}
	return a.msg.overflow(p, pointer("/message"), "the message")
}

// contentKind names a non-empty content value.
func contentKind(raw []byte) string {
	if raw[0] == '[' {
		return "an array with blocks"
	}
	return jsonwire.Kind(raw)
}

// blockIndex reads an event's index: an integer of at least 0.
func blockIndex(p *replyParser, raw []byte) (int64, error) {
	if raw == nil {
		return 0, p.fail(pointer("/index"), ErrReplyShape, "missing index")
	}
	var n int64
	ok := len(raw) > 0 && len(raw) <= 18 && (raw[0] != '0' || len(raw) == 1)
	for _, c := range raw {
		if c < '0' || c > '9' {
			ok = false
			break
		}
		n = n*10 + int64(c-'0')
	}
	if !ok {
		return 0, p.fail(pointer("/index"), ErrReplyShape, "expected an integer of at least 0, got %s", msgQuote(string(raw)))
	}
	return n, nil
}

// started returns the position of index among the blocks started, -1
// when no block with it started.
func (a *anthropicStream) startedAt(index int64) int {
	i := sort.Search(len(a.indexes), func(i int) bool { return a.indexes[i] >= index })
	if i < len(a.indexes) && a.indexes[i] == index {
		return i
	}
	return -1
}

// notOpen is the error for an event about block index when that block is
// not the one being streamed.
func (a *anthropicStream) notOpen(p *replyParser, what string, index int64) error {
	if i := a.startedAt(index); i >= 0 {
		return p.fail(pointer("/index"), ErrReplyShape, "%s for block %d, which ended (it started in event %d)", what, index, a.starts[i])
	}
	return p.fail(pointer("/index"), ErrReplyShape, "%s for block %d, which no content_block_start started", what, index)
}

func (a *anthropicStream) blockStart(s *Stream, rawIndex, block []byte) error {
	p := &s.rp
	if a.deltaSeen {
		return p.fail(pointer("/type"), ErrReplyShape, "content_block_start after message_delta")
	}
	index, err := blockIndex(p, rawIndex)
	if err != nil {
		return err
	}
	if block == nil {
		return p.fail(pointer("/content_block"), ErrReplyShape, "missing content_block")
	}
	if err := p.object(pointer("/content_block"), block); err != nil {
		return err
	}
	if i := a.startedAt(index); i >= 0 {
		return p.fail(pointer("/index"), ErrReplyShape, "block %d started again (it started in event %d)", index, a.starts[i])
	}
	if n := len(a.indexes); n > 0 && index < a.indexes[n-1] {
		return p.fail(pointer("/index"), ErrReplyShape, "block %d starts after block %d (blocks come in index order)", index, a.indexes[n-1])
	}
	var bt [1][]byte
	if err := p.fields(pointer("/content_block"), block, anthropicBlockKeys[:1], bt[:]); err != nil {
		return err
	}
	typ, err := p.text(pointer("/content_block/type"), bt[0])
	if err != nil {
		return err
	}
	if typ == "" {
		return p.fail(pointer("/content_block/type"), ErrReplyShape, "missing type")
	}
	if typ == "tool_use" {
		if err := s.startCall(pointer("/content_block")); err != nil {
			return err
		}
	}
	if a.open != nil {
		if err := a.end(s, " (no content_block_stop came before the next block started)"); err != nil {
			return err
		}
	}
	b := a.spare
	if b == nil {
		b = new(anthropicBlock)
	}
	a.spare = nil
	b.index, b.typ, b.pieces, b.bad = index, typ, false, nil
	b.members.reset()
	b.input = append(b.input[:0], '"')
	a.open = b
	a.indexes = append(a.indexes, index)
	a.starts = append(a.starts, s.events)
	err = p.ix.Members(block, func(m jsonwire.Member) error {
		b.members.set(p.ix, m.Key, m.Val)
		if typ == "text" && m.Val[0] == '"' && jsonwire.KeyIs(m.Key, "text") {
			s.textRaw(m.Val)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return b.members.overflow(p, pointer("/content_block"), "content block "+strconv.FormatInt(index, 10))
}

func (a *anthropicStream) blockDelta(s *Stream, rawIndex, delta []byte) error {
	p := &s.rp
	index, err := blockIndex(p, rawIndex)
	if err != nil {
		return err
	}
	b := a.open
	if b == nil || b.index != index {
		return a.notOpen(p, "content_block_delta", index)
	}
	if delta == nil {
		return p.fail(pointer("/delta"), ErrReplyShape, "missing delta")
	}
	var dt [1][]byte
	if err := p.fields(pointer("/delta"), delta, anthropicBlockKeys[:1], dt[:]); err != nil {
		return err
	}
	typ, err := anthropicType(p, pointer("/delta/type"), dt[0])
	if err != nil {
		return err
	}
	err = p.ix.Members(delta, func(m jsonwire.Member) error {
		switch {
		case jsonwire.KeyIs(m.Key, "type"):
			return nil
		case typ == "input_json_delta" && jsonwire.KeyIs(m.Key, "partial_json"):
			if m.Val[0] != '"' {
				return p.fail(pointer("/delta/partial_json"), a.inputSentinel(b), "expected a string piece of the input's JSON text, got %s", jsonwire.Kind(m.Val))
			}
			b.input = append(b.input, m.Val[1:len(m.Val)-1]...)
			b.pieces = true
			return nil
		case typ == "citations_delta" && jsonwire.KeyIs(m.Key, "citation"):
			if k := b.members.appendElem(p.ix, `"citations"`, m.Val); k != 0 {
				return p.fail(pointer("/delta/citation"), ErrReplyShape, "a citation for block %d, whose citations are %s, not an array", index, kindName(k))
			}
			return nil
		}
		if k := b.members.merge(p.ix, m.Key, m.Val); k != 0 {
			return p.fail(pointer("/delta/"+jsonwire.EscapeToken(keyText(m.Key))), ErrReplyShape, "%s piece for block %d, whose %s is %s", jsonwire.Kind(m.Val), index, msgQuote(keyText(m.Key)), kindName(k))
		}
		if b.typ == "text" && m.Val[0] == '"' && jsonwire.KeyIs(m.Key, "text") {
			s.textRaw(m.Val)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return b.members.overflow(p, pointer("/delta"), "content block "+strconv.FormatInt(index, 10))
}

// inputSentinel is the error of a block's input that is not whole: a
// tool_use's input is its call's arguments.
func (a *anthropicStream) inputSentinel(b *anthropicBlock) error {
	if b.typ == "tool_use" {
		return ErrArguments
	}
	return ErrReplyShape
}

func (a *anthropicStream) blockStop(s *Stream, rawIndex []byte) error {
	p := &s.rp
	index, err := blockIndex(p, rawIndex)
	if err != nil {
		return err
	}
	if a.open == nil || a.open.index != index {
		return a.notOpen(p, "content_block_stop", index)
	}
	return a.end(s, "")
}

func (a *anthropicStream) messageDelta(s *Stream, delta, usage []byte) error {
	p := &s.rp
	if a.open != nil {
		why := " (no content_block_stop came before message_delta"
		if delta != nil && delta[0] == '{' {
			if r := p.ix.Field(delta, "stop_reason"); r != nil && r[0] == '"' {
				why += ", stop_reason " + msgQuote(string(r[1:len(r)-1]))
			}
		}
		if err := a.end(s, why+")"); err != nil {
			return err
		}
	}
	a.deltaSeen = true
	if delta != nil && delta[0] != 'n' {
		if err := p.object(pointer("/delta"), delta); err != nil {
			return err
		}
		err := p.ix.Members(delta, func(m jsonwire.Member) error {
			switch {
			case jsonwire.KeyIs(m.Key, "content") || jsonwire.KeyIs(m.Key, "usage"):
				return p.fail(pointer("/delta/"+keyText(m.Key)), ErrReplyShape, "message_delta's delta may not set the message's %s", keyText(m.Key))
			case jsonwire.KeyIs(m.Key, "stop_reason"):
				if _, err := p.text(pointer("/delta/stop_reason"), m.Val); err != nil {
					return err
				}
				a.stopSeen = a.stopSeen || m.Val[0] != 'n'
				if a.unclosed != "" && string(m.Val) == `"max_tokens"` {
					return p.fail(pointer("/delta/stop_reason"), ErrIncomplete, "the input of %s was cut off before its JSON was whole (stop_reason \"max_tokens\")", a.unclosed)
				}
			}
			if keyFolds(m.Key, anthropicKeys) {
				a.msg.set(p.ix, m.Key, m.Val) // the others (stop_sequence, ...) are not kept
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := a.msg.overflow(p, pointer("/delta"), "the message"); err != nil {
			return err
		}
	}
	if usage == nil || usage[0] == 'n' {
		return nil
	}
	if err := p.object(pointer("/usage"), usage); err != nil {
		return err
	}
	return a.keepUsage(s, usage)
}

// keepUsage sets the members of the usage object usage into a.usage, each
// replacing the one before: Turn.Usage reads them. A usage too large for
// Usage.Raw (its members with those kept more than MaxStreamMembers, or
// itself more than MaxUsageBytes) has only its counts kept, and the Raw
// of the stream's Turn is left out (s.usageOmitted).
func (a *anthropicStream) keepUsage(s *Stream, usage []byte) error {
	p := &s.rp
	a.usageSeen = true
	var f [5][]byte
	key, others := p.ix.FieldsCount(usage, anthropicUsageKeys, f[:])
	if key != nil {
		return p.fail(pointer("/usage"), ErrReplyShape, "key %s differs from an expected key only in case", msgQuote(string(key)))
	}
	n := len(usage)
	if n > MaxUsageBytes {
		n -= p.ix.Spaces(usage)
	}
	if n > MaxUsageBytes || len(a.usage.m)+others+len(f) > MaxStreamMembers {
		s.usageOmitted = max(s.usageOmitted, n, MaxUsageBytes+1)
		for i, v := range f {
			if v != nil {
				a.usage.set(p.ix, anthropicUsageQuoted[i], v)
			}
		}
		return nil
	}
	return p.ix.Members(usage, func(m jsonwire.Member) error {
		a.usage.set(p.ix, m.Key, m.Val)
		return nil
	})
}

// anthropicUsageQuoted are anthropicUsageKeys, quoted.
var anthropicUsageQuoted = [...][]byte{[]byte(`"input_tokens"`), []byte(`"output_tokens"`),
	[]byte(`"cache_read_input_tokens"`), []byte(`"cache_creation_input_tokens"`), []byte(`"output_tokens_details"`)}

// end ends the open block: its input pieces are read, a tool_use is
// handed out, and the block is written to the content. why says how the
// block ended when it was not its content_block_stop, for errors.
func (a *anthropicStream) end(s *Stream, why string) error {
	b := a.open
	a.open, a.spare = nil, b
	p := &s.rp
	if b.pieces {
		b.input = append(b.input, '"')
		text := jsonwire.AppendUnquoted(a.scratch[:0], b.input)
		a.scratch = text
		if text = trimJSONSpace(text); len(text) > 0 {
			if err := a.readInput(s, b, text, why); err != nil {
				return err
			}
		}
	}
	if b.typ == "tool_use" {
		c, err := a.call(p, b)
		if err != nil {
			return err
		}
		if b.bad != nil {
			c.Args, c.Malformed, c.Repaired = b.bad.Args, b.bad.Malformed, b.bad.Repaired
			a.patches = append(a.patches, callPatch{index: a.calls, args: c.Args, malformed: c.Malformed, repaired: c.Repaired})
		}
		a.calls++
		s.giveCall(c)
	}
	if a.blocks > 0 {
		a.content = append(a.content, ',')
	}
	a.blocks++
	a.content = b.members.appendObject(a.content, nil)
	return nil
}

// readInput checks the joined input text of block b and makes it the
// block's input.
func (a *anthropicStream) readInput(s *Stream, b *anthropicBlock, text []byte, why string) error {
	p := &s.rp
	var oe objectEnd
	oe.feed(text)
	if text[0] == '{' && !oe.closed && (why != "" || b.typ != "tool_use") {
		return s.failStream(ErrIncomplete, "the input of block %d (%s) was cut off before its JSON was whole%s", b.index, a.blockName(b), why)
	}
	if b.typ == "tool_use" {
		return a.toolInput(s, b, text, !oe.closed)
	}
	args, err := p.check(pointer(""), text, a.inputSentinel(b), nil)
	if err != nil {
		var re *ReplyError
		if re, _ = err.(*ReplyError); re != nil && re.Err == ErrReplyLimit {
			return err
		}
		return s.failStream(a.inputSentinel(b), "the input of block %d (%s) is not valid JSON: %s: %s", b.index, a.blockName(b), errProblem(err), msgQuote(string(text)))
	}
	if b.typ == "tool_use" && args[0] != '{' && args[0] != 'n' {
		// null is no input ({}), as in a whole message.
		return s.failStream(ErrArguments, "the input of block %d (%s) is %s, not a JSON object", b.index, a.blockName(b), jsonwire.Kind(args))
	}
	i := b.members.find(keyInput)
	var m *wireMember
	if i < 0 {
		m = b.members.add(keyInput)
	} else {
		m = &b.members.m[i]
	}
	m.kind, m.val = wireValue, jsonwire.AppendCompact(m.val[:0], args)
	return nil
}

// toolInput reads the input text of the tool_use block b, which its
// content_block_stop ended: one JSON object, or a malformed call (its
// input in the message {}), or, with RepairArguments, a repaired one.
// unclosed says the text ends inside its object: cut off if the
// stop_reason to come is max_tokens (messageDelta then fails), else the
// model's.
func (a *anthropicStream) toolInput(s *Stream, b *anthropicBlock, text []byte, unclosed bool) error {
	inner, _, bad, err := s.rp.argsInText(pointer(""), text)
	if err != nil {
		return err
	}
	input := inner // checked: compacted into the member below, no copy of its own
	switch {
	case bad != "":
		c := new(Call)
		if err := s.rp.badArgs(pointer(""), append([]byte(nil), text...), bad, false, c); err != nil {
			return err
		}
		b.bad, input = c, c.Args
		if c.Malformed != "" {
			input = json.RawMessage("{}") // the message needs an object
		}
	case inner == nil && len(trimJSONSpace(text)) > 0:
		input = json.RawMessage("null") // no input ({}), as in a whole message
	case inner == nil:
		input = json.RawMessage("{}")
	}
	if unclosed && a.unclosed == "" {
		a.unclosed = "block " + strconv.FormatInt(b.index, 10) + " (" + a.blockName(b) + ")"
	}
	i := b.members.find(keyInput)
	var m *wireMember
	if i < 0 {
		m = b.members.add(keyInput)
	} else {
		m = &b.members.m[i]
	}
	m.kind, m.val = wireValue, jsonwire.AppendCompact(m.val[:0], input)
	return nil
}

// blockName names block b in an error: its type and, for a tool, its name.
func (a *anthropicStream) blockName(b *anthropicBlock) string {
	if i := b.members.find(keyName); i >= 0 && b.members.m[i].kind == wireString {
		return b.typ + " " + msgQuote(textOf(b.members.m[i].val))
	}
	return b.typ
}

// textOf is the text of a string's inside, escaped as sent.
func textOf(inner []byte) string {
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	return string(jsonwire.AppendUnquoted(nil, append(append([]byte{'"'}, inner...), '"')))
}

// call is the call of the tool_use block b, checked as
// ParseAnthropicReply checks it, so that it is the call the reply gives.
func (a *anthropicStream) call(p *replyParser, b *anthropicBlock) (Call, error) {
	str := func(key string) (string, error) {
		i := b.members.find(quotedKey(key))
		switch {
		case i < 0:
			return "", nil
		case b.members.m[i].kind == wireString:
			return textOf(b.members.m[i].val), nil
		case b.members.m[i].kind == wireValue && string(b.members.m[i].val) == "null":
			return "", nil
		}
		return "", p.fail(pointer(""), ErrReplyShape, "block %d: %s: expected a string, got %s", b.index, key, wireKind(&b.members.m[i]))
	}
	id, err := str("id")
	if err != nil {
		return Call{}, err
	}
	if id == "" {
		return Call{}, p.fail(pointer(""), ErrReplyShape, "block %d (tool_use): missing id (results are paired by it)", b.index)
	}
	name, err := str("name")
	if err != nil {
		return Call{}, err
	}
	if name == "" {
		return Call{}, p.fail(pointer(""), ErrReplyShape, "block %d (tool_use): missing name", b.index)
	}
	if a.ids.has(id) {
		return Call{}, p.fail(pointer(""), ErrReplyShape, "block %d (tool_use %s): call id %s is used by an earlier call", b.index, msgQuote(name), msgQuote(id))
	}
	args := []byte("{}")
	if i := b.members.find(keyInput); i >= 0 {
		m := &b.members.m[i]
		switch {
		case m.kind == wireValue && m.val[0] == '{':
			args = append([]byte(nil), m.val...)
		case m.kind == wireValue && string(m.val) == "null":
		default:
			return Call{}, p.fail(pointer(""), ErrArguments, "block %d (tool_use %s): input: expected a JSON object, got %s", b.index, msgQuote(name), wireKind(m))
		}
	}
	a.ids.add(id)
	return Call{ID: id, Name: name, Args: args}, nil
}

// The keys the stream looks up, quoted.
var (
	keyID    = []byte(`"id"`)
	keyName  = []byte(`"name"`)
	keyInput = []byte(`"input"`)
)

// quotedKey is "id" or "name", quoted.
func quotedKey(key string) []byte {
	if key == "id" {
		return keyID
	}
	return keyName
}

// wireKind names the kind of a member's value in an error.
func wireKind(m *wireMember) string {
	switch m.kind {
	case wireString:
		return "a string"
	case wireArray:
		return "an array"
	}
	return jsonwire.Kind(m.val)
}

func (a *anthropicStream) finish(s *Stream) ([]byte, error) {
	if !a.started {
		return nil, s.failStream(ErrIncomplete, "the stream ended before message_start")
	}
	if !a.stopped && !a.stopSeen {
		if b := a.open; b != nil {
			return nil, s.failStream(ErrIncomplete, "the stream ended inside block %d (%s), before its content_block_stop and before message_stop", b.index, a.blockName(b))
		}
		return nil, s.failStream(ErrIncomplete, "the stream ended before message_stop, and no message_delta gave a stop_reason")
	}
	// A block still open here started after message_delta, which is an
	// error; message_delta and message_stop end the open block.
	out := make([]byte, 0, len(a.content)+a.msg.size()+a.usage.size()+24)
	out = a.msg.appendObject(out, func(dst []byte) []byte {
		return append(append(append(dst, '['), a.content...), ']')
	})
	if a.usageSeen {
		out = a.usage.appendObject(append(out[:len(out)-1], `,"usage":`...), nil)
		out = append(out, '}')
	}
	return out, nil
}

// ParseAnthropicStream reads an Anthropic Messages stream (a request with
// "stream": true) from body, the HTTP response body as sent: its
// Server-Sent Events from message_start to message_stop. The Turn is what
// [ParseAnthropicReply] gives for the same message unstreamed: a call for
// each tool_use block, in order, with its compact input as Args; the text
// blocks as Text; stop_reason as Stop; and one [AnthropicMessage] whose
// content holds every block as the whole message would (thinking blocks
// with their signatures, server tool blocks, citations).
//
// A tool_use is complete at its content_block_stop (see [Stream] to get
// calls then). Its input_json_delta pieces joined are its arguments text:
// one JSON object, or nothing (the input is then {}). Pieces that join to
// anything else make a malformed call ([Call].Malformed, its Args the
// text; its input in the replayed message {}, as the API needs an object)
// or, with [RepairArguments], a repaired one; an input cut off (by
// max_tokens, or by the end of the body) is an error wrapping
// [ErrIncomplete]. A delta or stop for a
// block that is not the one being streamed, or a block index started
// twice, wrap [ErrReplyShape]; an error event wraps [ErrProviderError] and
// quotes it. A body that ends before message_stop is an error wrapping
// [ErrIncomplete] unless a message_delta with a stop_reason came, as
// message_stop follows it at once.
func ParseAnthropicStream(body io.Reader) (Turn, error) {
	return ReplyLimits{}.parseStream(anthropicSpec, body)
}
