package adapters

import (
	"bytes"
	"io"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// OpenAI Responses streams (stream: true) are Server-Sent Events, each
// named by its event field and by the "type" inside its data (the two
// must agree when both are sent). The assembler keeps the output items by
// output_index and by item id:
//   - response.output_item.added starts an item; response.output_item.done
//     gives the whole item, which is kept as sent;
//   - an item the server never sends whole is built from its added form
//     and the events on it: function_call_arguments.delta and .done
//     (arguments), content_part.added/.done, output_text, refusal and
//     reasoning_text deltas and .done (content parts),
//     reasoning_summary_part and reasoning_summary_text events (summary
//     parts);
//   - response.completed and response.incomplete end the stream: their
//     response object is the reply's envelope (status, error,
//     incomplete_details; the members ParseOpenAIResponsesReply does not
//     read, usage and the request's echo, are not kept). When it carries
//     a non-empty output, that
//     output is the reply, as a request without streaming would have
//     returned it (the one OpenAI stores; its reasoning items'
//     encrypted_content may differ from the output_item.done copies), and
//     it must agree with the items the events built: the same items in
//     the same order, of the same types and ids, each function_call with
//     the same call_id, name and arguments, each message with the same
//     text. Otherwise the built items are its output;
//   - response.failed and error events are provider errors;
//   - other events (response.created, web search progress, annotations,
//     ...) are checked as JSON and skipped.
//
// Each function_call is handed out at its output_item.done, in output
// order; one whose server sends no output_item.done is handed out when
// its arguments' .done is followed by another item, or at the stream's
// last event.
var responsesStreamSpec = &streamSpec{
	framer:   func(max int) framer { return newSSEFramer(max) },
	assemble: func(*spec) assembler { return new(responsesStream) },
}

// The members of a stream event that the assembler reads, by position.
const (
	rsType = iota
	rsOutputIndex
	rsItemID
	rsItem
	rsDelta
	rsArguments
	rsText
	rsPart
	rsContentIndex
	rsSummaryIndex
	rsResponse
	rsError
	rsRefusal
	rsCode
	rsMessage
	rsParam
	rsKeys
)

var (
	responsesEventKeys = []string{
		"type", "output_index", "item_id", "item", "delta", "arguments", "text", "part",
		"content_index", "summary_index", "response", "error", "refusal", "code", "message", "param",
	}
	responsesStreamItemKeys = []string{"type", "id", "call_id", "name", "arguments", "status", "content"}
	responsesEnvelopeKeys   = []string{"status", "output", "error", "incomplete_details"}
	// responsesErrorEventKeys are an error event's members, at its top:
	// its "type" is the event's ("error"), not the error's.
	responsesErrorEventKeys = [4]string{"message", "", "code", "param"}
)

// responsesStream is the state of one OpenAI Responses stream.
type responsesStream struct {
	// items are the items in the order they were added: nitems of them,
	// in blocks of responsesBlock (so that they are never copied).
	items  [][]responsesItem
	nitems int
	// byIndex maps an output_index to its item's position; nil while
	// every item's output_index is its position (the usual case).
	byIndex map[int64]int
	byID    posIndex         // the items with ids, by id
	pending []*responsesItem // calls whose arguments' .done came, and no output_item.done yet
	next    int64            // the output index from which calls are not handed out yet
	last    int64            // the output index of the last event on an item
	ended   string           // the type of the last event (response.completed, ...) once it came
	reply   []byte
}

// responsesBlock is how many items a block of responsesStream.items holds.
const responsesBlock = 32

// responsesItem is one output item being assembled.
type responsesItem struct {
	index   int64
	id, typ string
	event   int    // the event that added it
	added   []byte // the item as added, compact; nil when output_item.done came first
	done    []byte // the whole item, compact: as output_item.done sent it, or built
	final   bool   // the call (or item) is whole
	given   bool

	// What the events on the item build: for a function_call or a message
	// from its start (responsesStream.newItem), for another item once an
	// event on its parts comes (build); nil until then.
	*responsesBuild
}

// responsesBuild is what the events on an item build.
type responsesBuild struct {
	// A function_call's parts.
	callID, name string
	args         []byte // the arguments' insides: the added item's, then the deltas'
	deltas       bool
	argsDone     []byte // the inside of function_call_arguments.done's arguments
	hasArgsDone  bool
	call         *Call // the function_call, once built (a pointer: most items are none)

	parts [2][]*responsesPart // content and summary parts, built from the events
	shown []byte              // the insides of the output_text deltas passed to the Text hook
	text  string              // a message's text, once whole
}

// noBuild is what an item no event built has built: nothing (read only).
var noBuild responsesBuild

// build returns what the events on it build, made when first needed.
func (it *responsesItem) build() *responsesBuild {
	if it.responsesBuild == nil {
		it.responsesBuild = new(responsesBuild)
	}
	return it.responsesBuild
}

// built is it.responsesBuild to read: noBuild when none was made.
func (it *responsesItem) built() *responsesBuild {
	if it.responsesBuild == nil {
		return &noBuild
	}
	return it.responsesBuild
}

// item returns the item at position j.
func (a *responsesStream) item(j int) *responsesItem {
	return &a.items[j/responsesBlock][j%responsesBlock]
}

// atIndex returns the position of the item whose output_index is n.
func (a *responsesStream) atIndex(n int64) (int, bool) {
	if a.byIndex == nil {
		return int(n), n >= 0 && n < int64(a.nitems)
	}
	j, ok := a.byIndex[n]
	return j, ok
}

// atID returns the position of the item whose id is id ("": none).
func (a *responsesStream) atID(id string) (int, bool) {
	if id == "" {
		return 0, false
	}
	j := a.byID.lookup(hashString(id), func(j int) bool { return a.item(j).id == id })
	return j, j >= 0
}

// responsesPart is one content or summary part of an item being built.
type responsesPart struct {
	typ    string // the part's type: as added, or from the events on it
	key    string // the member holding its text: "text", or "refusal"
	base   []byte // the part as added, compact; nil when none came
	whole  []byte // the part as content_part.done sent it, compact
	text   []byte // the deltas' insides, joined
	deltas bool
	doneAt []byte // the inside of the text .done sent
	isDone bool
}

func (a *responsesStream) event(s *Stream, name string, data []byte) error {
	trim := bytes.TrimSpace(data)
	if string(trim) == "[DONE]" {
		return nil // some proxies end every stream so
	}
	if a.ended != "" {
		if len(trim) == 0 {
			return nil
		}
		return s.rp.fail(pointer(""), ErrReplyShape, "an event after %s, the stream's last", a.ended)
	}
	obj, err := s.object(data)
	if err != nil {
		return err
	}
	p := &s.rp
	var f [rsKeys][]byte
	if err := p.fields(pointer(""), obj, responsesEventKeys, f[:]); err != nil {
		return err
	}
	typ, err := eventType(p, f[rsType])
	if err != nil {
		return err
	}
	switch {
	case typ == "" && name == "":
		return p.fail(pointer("/type"), ErrReplyShape, "an event with no type")
	case typ == "":
		typ = name
	case name != "" && name != typ:
		return p.fail(pointer("/type"), ErrReplyShape, "an event named %s has type %s", msgQuote(name), msgQuote(typ))
	}
	switch typ {
	case "error":
		return a.errorEvent(s, obj, &f)
	case "response.completed", "response.incomplete", "response.failed":
		return a.end(s, typ, f[rsResponse])
	case "response.created", "response.in_progress", "response.queued":
		if r := f[rsResponse]; r != nil && r[0] != 'n' {
			return p.object(pointer("/response"), r)
		}
		return nil
	case "response.output_item.added":
		return a.added(s, &f)
	case "response.output_item.done":
		return a.itemDone(s, &f)
	case "response.function_call_arguments.delta", "response.function_call_arguments.done":
		return a.arguments(s, typ, &f)
	case "response.content_part.added", "response.content_part.done":
		return a.partEvent(s, typ, &f, 0, rsContentIndex)
	case "response.reasoning_summary_part.added", "response.reasoning_summary_part.done":
		return a.partEvent(s, typ, &f, 1, rsSummaryIndex)
	case "response.output_text.delta", "response.output_text.done":
		return a.textEvent(s, typ, &f, 0, rsContentIndex, "output_text", "text")
	case "response.refusal.delta", "response.refusal.done":
		return a.textEvent(s, typ, &f, 0, rsContentIndex, "refusal", "refusal")
	case "response.reasoning_text.delta", "response.reasoning_text.done":
		return a.textEvent(s, typ, &f, 0, rsContentIndex, "reasoning_text", "text")
	case "response.reasoning_summary_text.delta", "response.reasoning_summary_text.done":
		return a.textEvent(s, typ, &f, 1, rsSummaryIndex, "summary_text", "text")
	}
	return nil
}

// responsesEventTypes are the event types the assembler reads, so that
// reading one makes no string.
var responsesEventTypes = []string{
	"response.function_call_arguments.delta", "response.output_text.delta",
	"response.reasoning_summary_text.delta", "response.reasoning_text.delta",
	"response.refusal.delta", "response.output_item.added", "response.output_item.done",
	"response.function_call_arguments.done", "response.content_part.added",
	"response.content_part.done", "response.output_text.done", "response.completed",
}

// eventType reads an event's type.
func eventType(p *replyParser, raw []byte) (string, error) {
	if len(raw) > 2 && raw[0] == '"' {
		for _, t := range responsesEventTypes {
			if len(t) == len(raw)-2 && string(raw[1:len(raw)-1]) == t {
				return t, nil
			}
		}
	}
	return p.text(pointer("/type"), raw)
}

// errorEvent reads an error event: {"type":"error","code","message",
// "param"}, or the error object nested in "error".
func (a *responsesStream) errorEvent(s *Stream, obj []byte, f *[rsKeys][]byte) error {
	p := &s.rp
	switch e := f[rsError]; {
	case e != nil && e[0] == '{':
		return p.errorObject(pointer("/error"), e, &openAIErrorKeys)
	case e != nil && e[0] == '"':
		msg, _ := jsonwire.Text(e)
		return p.providerError(pointer("/error"), msg, "", "", "")
	}
	return p.errorObject(pointer(""), obj, &responsesErrorEventKeys)
}

// index reads an output_index, content_index or summary_index.
func (a *responsesStream) index(p *replyParser, at loc, raw []byte) (int64, error) {
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n < 0 {
		return 0, p.fail(at, ErrReplyShape, "expected an integer of at least 0, got %s", msgQuoteN(string(raw), 40))
	}
	return n, nil
}

// what names an item in errors: `output item 2 (function_call "fc_1")`.
func (it *responsesItem) what() string {
	w := "output item " + strconv.FormatInt(it.index, 10) + " (" + it.typ
	if it.typ == "function_call" && it.built().name != "" {
		w += " " + msgQuote(it.name)
	} else if it.id != "" {
		w += " " + msgQuote(it.id)
	}
	return w + ")"
}

// find returns the item an event on an item names by its output_index
// and item_id; an event for an item that was not added, or that is
// already done, is an error.
func (a *responsesStream) find(s *Stream, typ string, f *[rsKeys][]byte) (*responsesItem, error) {
	p := &s.rp
	var id string
	if r := f[rsItemID]; r != nil && r[0] == '"' && bytes.IndexByte(r, '\\') < 0 {
		// Most often the id of the item at the output_index: no string made.
		if j, ok := a.atIndex(a.last); ok && string(r[1:len(r)-1]) == a.item(j).id {
			id = a.item(j).id
		}
	}
	if id == "" {
		var err error
		if id, err = p.text(pointer("/item_id"), f[rsItemID]); err != nil {
			return nil, err
		}
	}
	var it *responsesItem
	switch raw := f[rsOutputIndex]; {
	case raw != nil && raw[0] != 'n':
		n, err := a.index(p, pointer("/output_index"), raw)
		if err != nil {
			return nil, err
		}
		j, ok := a.atIndex(n)
		if !ok {
			return nil, p.fail(pointer("/output_index"), ErrReplyShape, "%s for output item %d, which no response.output_item.added began", typ, n)
		}
		it, a.last = a.item(j), n
		if id != "" && it.id != "" && id != it.id {
			return nil, p.fail(pointer("/item_id"), ErrReplyShape, "%s for item %s at output_index %d, where the item is %s", typ, msgQuote(id), n, msgQuote(it.id))
		}
	case id != "":
		j, ok := a.atID(id)
		if !ok {
			return nil, p.fail(pointer("/item_id"), ErrReplyShape, "%s for item %s, which no response.output_item.added began", typ, msgQuote(id))
		}
		it = a.item(j)
	default:
		return nil, p.fail(pointer(""), ErrReplyShape, "%s names no item (no output_index, no item_id)", typ)
	}
	if it.done != nil {
		return nil, p.fail(pointer(""), ErrReplyShape, "%s for %s after its response.output_item.done", typ, it.what())
	}
	return it, nil
}

// itemFields reads the members of the item in an output_item event.
func itemFields(p *replyParser, raw []byte, v *[7][]byte) (typ, id string, err error) {
	if raw == nil || raw[0] == 'n' {
		return "", "", p.fail(pointer("/item"), ErrReplyShape, "missing item")
	}
	if err := p.fields(pointer("/item"), raw, responsesStreamItemKeys, v[:]); err != nil {
		return "", "", err
	}
	if typ, err = p.text(pointer("/item/type"), v[0]); err != nil {
		return "", "", err
	}
	if typ == "" {
		return "", "", p.fail(pointer("/item/type"), ErrReplyShape, "missing type")
	}
	id, err = p.text(pointer("/item/id"), v[1])
	return typ, id, err
}

// newItem records a new item at output_index n.
func (a *responsesStream) newItem(s *Stream, n int64, typ, id string) (*responsesItem, error) {
	p := &s.rp
	if j, ok := a.atIndex(n); ok {
		return nil, p.fail(pointer("/output_index"), ErrReplyShape, "output item %d was added already, in event %d", n, a.item(j).event)
	}
	if j, ok := a.atID(id); ok {
		return nil, p.fail(pointer("/item/id"), ErrReplyShape, "an item with id %s was added already, in event %d", msgQuote(id), a.item(j).event)
	}
	if typ == "function_call" {
		if err := s.startCall(pointer("/item")); err != nil {
			return nil, err
		}
	}
	j := a.nitems
	if j%responsesBlock == 0 {
		a.items = append(a.items, make([]responsesItem, responsesBlock))
	}
	a.nitems++
	it := a.item(j)
	*it = responsesItem{index: n, id: id, typ: typ, event: s.events}
	if typ == "function_call" || typ == "message" {
		it.build()
	}
	switch {
	case a.byIndex != nil:
		a.byIndex[n] = j
	case n != int64(j):
		// Not in order: from here the positions are mapped.
		a.byIndex = make(map[int64]int, j+1)
		for k := range j {
			a.byIndex[int64(k)] = k
		}
		a.byIndex[n] = j
	}
	if id != "" {
		a.byID.add(hashString(id), j, func(k int) uint64 { return hashString(a.item(k).id) })
	}
	return it, nil
}

// outputIndex reads the output_index of an output_item event; a server
// that sends none numbers the items in the order they come.
func (a *responsesStream) outputIndex(p *replyParser, raw []byte) (int64, bool, error) {
	if raw == nil || raw[0] == 'n' {
		return int64(a.nitems), false, nil
	}
	n, err := a.index(p, pointer("/output_index"), raw)
	return n, true, err
}

// added reads response.output_item.added.
func (a *responsesStream) added(s *Stream, f *[rsKeys][]byte) error {
	p := &s.rp
	var v [7][]byte
	typ, id, err := itemFields(p, f[rsItem], &v)
	if err != nil {
		return err
	}
	n, _, err := a.outputIndex(p, f[rsOutputIndex])
	if err != nil {
		return err
	}
	// A call whose arguments were done and that the server moved on from
	// is whole, without an output_item.done.
	for _, c := range a.pending {
		if !c.final {
			if err := a.buildItem(s, c, "", ""); err != nil {
				return err
			}
		}
	}
	a.pending = a.pending[:0]
	it, err := a.newItem(s, n, typ, id)
	if err != nil {
		return err
	}
	it.added = append([]byte(nil), p.ix.Compact(f[rsItem])...)
	if typ == "function_call" {
		if it.callID, err = p.text(pointer("/item/call_id"), v[2]); err != nil {
			return err
		}
		if it.name, err = p.text(pointer("/item/name"), v[3]); err != nil {
			return err
		}
		if r := v[4]; r != nil && r[0] == '"' {
			it.args = append(it.args, r[1:len(r)-1]...)
		}
	}
	return a.giveReady(s)
}

// itemDone reads response.output_item.done: the whole item.
func (a *responsesStream) itemDone(s *Stream, f *[rsKeys][]byte) error {
	p := &s.rp
	var v [7][]byte
	typ, id, err := itemFields(p, f[rsItem], &v)
	if err != nil {
		return err
	}
	n, hasIndex, err := a.outputIndex(p, f[rsOutputIndex])
	if err != nil {
		return err
	}
	var it *responsesItem
	if j, ok := a.atIndex(n); ok && hasIndex {
		it = a.item(j)
	} else if j, ok := a.atID(id); ok && !hasIndex {
		it = a.item(j)
	}
	switch {
	case it == nil:
		if it, err = a.newItem(s, n, typ, id); err != nil { // a server that sends items only whole
			return err
		}
	case it.done != nil:
		return p.fail(pointer(""), ErrReplyShape, "a second response.output_item.done for %s", it.what())
	case it.typ != typ:
		return p.fail(pointer("/item/type"), ErrReplyShape, "%s is done as type %s", it.what(), msgQuote(typ))
	case it.id != "" && id != it.id:
		return p.fail(pointer("/item/id"), ErrReplyShape, "%s is done with id %s", it.what(), msgQuote(id))
	}
	it.id = id
	switch typ {
	case "function_call":
		c, err := a.doneCall(s, it, &v)
		if err != nil {
			return err
		}
		if it.given && !sameCall(it.call, c) {
			return p.fail(pointer("/item"), ErrReplyShape, "%s changed after it was complete", it.what())
		}
		it.call = &c
	case "message":
		t, err := joinTextParts(*p, pointer("/item/content"), v[6], "output_text")
		if err != nil {
			return err
		}
		if err := a.showText(s, it, t); err != nil {
			return err
		}
	}
	it.final = true
	it.done = append([]byte(nil), p.ix.Compact(f[rsItem])...)
	return a.giveReady(s)
}

// doneCall reads the call of a function_call's output_item.done, whose
// arguments must be those its other events sent.
func (a *responsesStream) doneCall(s *Stream, it *responsesItem, v *[7][]byte) (Call, error) {
	p := &s.rp
	var err error
	if it.callID, err = p.text(pointer("/item/call_id"), v[2]); err != nil {
		return Call{}, err
	}
	if it.name, err = p.text(pointer("/item/name"), v[3]); err != nil {
		return Call{}, err
	}
	status, err := p.text(pointer("/item/status"), v[5])
	if err != nil {
		return Call{}, err
	}
	raw := v[4]
	if raw != nil && raw[0] == '"' {
		sent, what := it.args, "deltas"
		if it.hasArgsDone {
			sent, what = it.argsDone, "response.function_call_arguments.done"
		}
		if (it.deltas || it.hasArgsDone || len(it.args) > 0) && !sameText(sent, raw[1:len(raw)-1]) {
			return Call{}, p.fail(pointer("/item/arguments"), ErrArguments, "the arguments of %s differ from its %s", it.what(), what)
		}
	}
	if status == "incomplete" {
		return Call{}, p.fail(pointer("/item/status"), ErrIncomplete, "%s is incomplete: its arguments were cut off", it.what())
	}
	var c Call
	if err := p.argsText(pointer("/item/arguments"), raw, false, &c); err != nil {
		return Call{}, err
	}
	if it.callID == "" {
		return Call{}, p.fail(pointer("/item/call_id"), ErrReplyShape, "missing call_id (results are paired by it)")
	}
	if it.name == "" {
		return Call{}, p.fail(pointer("/item/name"), ErrReplyShape, "missing name")
	}
	c.ID, c.Name, c.Args = it.callID, it.name, append([]byte(nil), c.Args...)
	return c, nil
}

func sameCall(a *Call, b Call) bool {
	return a != nil && a.ID == b.ID && a.Name == b.Name && string(a.Args) == string(b.Args)
}

// sameText reports whether the insides of two JSON strings hold the same
// text (one server may escape what another sends as is).
func sameText(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	return bytes.Equal(unquoteInside(a), unquoteInside(b))
}

// unquoteInside returns the text of a JSON string's inside.
func unquoteInside(in []byte) []byte {
	q := make([]byte, 0, len(in)+2)
	q = append(append(append(q, '"'), in...), '"')
	return jsonwire.AppendUnquoted(make([]byte, 0, len(in)), q)
}

// arguments reads function_call_arguments.delta and .done.
func (a *responsesStream) arguments(s *Stream, typ string, f *[rsKeys][]byte) error {
	p := &s.rp
	it, err := a.find(s, typ, f)
	if err != nil {
		return err
	}
	if it.typ != "function_call" {
		return p.fail(pointer(""), ErrReplyShape, "%s for %s, which is not a function_call", typ, it.what())
	}
	if it.hasArgsDone {
		return p.fail(pointer(""), ErrReplyShape, "%s for %s after its response.function_call_arguments.done", typ, it.what())
	}
	if typ == "response.function_call_arguments.delta" {
		d := f[rsDelta]
		if d == nil || d[0] != '"' {
			return p.fail(pointer("/delta"), ErrArguments, "expected a string piece of the arguments text, got %s", jsonwire.Kind(d))
		}
		it.args = append(it.args, d[1:len(d)-1]...)
		it.deltas = true
		return nil
	}
	d := f[rsArguments]
	if d == nil || d[0] != '"' {
		return p.fail(pointer("/arguments"), ErrArguments, "expected the arguments text, got %s", jsonwire.Kind(d))
	}
	if (it.deltas || len(it.args) > 0) && !sameText(it.args, d[1:len(d)-1]) {
		return p.fail(pointer("/arguments"), ErrArguments, "the arguments of %s differ from its deltas", it.what())
	}
	it.argsDone = append([]byte(nil), d[1:len(d)-1]...)
	it.hasArgsDone = true
	a.pending = append(a.pending, it)
	return nil
}

// part returns part n of an item's content (list 0) or summary (list 1),
// a new one for the next index.
func (a *responsesStream) part(s *Stream, it *responsesItem, list int, at loc, raw []byte, typ string) (*responsesPart, error) {
	p := &s.rp
	parts := it.build().parts[list]
	n := int64(max(len(parts)-1, 0)) // no index: the last part, or the first
	if raw != nil && raw[0] != 'n' {
		var err error
		if n, err = a.index(p, at, raw); err != nil {
			return nil, err
		}
	}
	switch {
	case n < int64(len(parts)):
		return parts[n], nil
	case n > int64(len(parts)):
		return nil, p.fail(at, ErrReplyShape, "part %d of %s before part %d", n, it.what(), len(parts))
	}
	pt := &responsesPart{typ: typ, key: "text"}
	if typ == "refusal" {
		pt.key = "refusal"
	}
	it.parts[list] = append(parts, pt)
	return pt, nil
}

// partEvent reads content_part.added/.done and
// reasoning_summary_part.added/.done.
func (a *responsesStream) partEvent(s *Stream, typ string, f *[rsKeys][]byte, list, indexKey int) error {
	p := &s.rp
	it, err := a.find(s, typ, f)
	if err != nil {
		return err
	}
	raw := f[rsPart]
	if err := p.object(pointer("/part"), raw); err != nil {
		return err
	}
	var v [3][]byte
	if err := p.fields(pointer("/part"), raw, []string{"type", "text", "refusal"}, v[:]); err != nil {
		return err
	}
	ptype, err := p.text(pointer("/part/type"), v[0])
	if err != nil {
		return err
	}
	pt, err := a.part(s, it, list, pointer("/"+responsesEventKeys[indexKey]), f[indexKey], ptype)
	if err != nil {
		return err
	}
	if ptype != "" {
		pt.typ, pt.key = ptype, "text"
		if ptype == "refusal" {
			pt.key = "refusal"
		}
	}
	if strings.HasSuffix(typ, ".added") {
		pt.base = append([]byte(nil), p.ix.Compact(raw)...)
		return nil
	}
	t := v[1]
	if pt.key == "refusal" {
		t = v[2]
	}
	if t != nil && t[0] == '"' && pt.deltas && !sameText(pt.text, t[1:len(t)-1]) {
		return p.fail(pointer("/part/"+pt.key), ErrReplyShape, "a part of %s differs from its deltas", it.what())
	}
	pt.whole = append([]byte(nil), p.ix.Compact(raw)...)
	return nil
}

// textEvent reads the deltas and .done of a part's text.
func (a *responsesStream) textEvent(s *Stream, typ string, f *[rsKeys][]byte, list, indexKey int, ptype, key string) error {
	p := &s.rp
	it, err := a.find(s, typ, f)
	if err != nil {
		return err
	}
	pt, err := a.part(s, it, list, pointer("/"+responsesEventKeys[indexKey]), f[indexKey], ptype)
	if err != nil {
		return err
	}
	if pt.isDone {
		return p.fail(pointer(""), ErrReplyShape, "%s for a part of %s after its text was done", typ, it.what())
	}
	if strings.HasSuffix(typ, ".delta") {
		d := f[rsDelta]
		if d == nil || d[0] != '"' {
			return p.fail(pointer("/delta"), ErrReplyShape, "expected a string, got %s", jsonwire.Kind(d))
		}
		pt.text = append(pt.text, d[1:len(d)-1]...)
		pt.deltas = true
		if ptype == "output_text" && it.typ == "message" {
			it.shown = append(it.shown, d[1:len(d)-1]...)
			s.textRaw(d)
		}
		return nil
	}
	t := f[rsText]
	if key == "refusal" {
		t = f[rsRefusal]
	}
	if t == nil || t[0] != '"' {
		return p.fail(pointer("/"+key), ErrReplyShape, "expected a string, got %s", jsonwire.Kind(t))
	}
	if pt.deltas && !sameText(pt.text, t[1:len(t)-1]) {
		return p.fail(pointer("/"+key), ErrReplyShape, "the text of a part of %s differs from its deltas", it.what())
	}
	pt.doneAt = append([]byte(nil), t[1:len(t)-1]...)
	pt.isDone = true
	return nil
}

// showText passes to the Text hook what of a message's whole text t its
// deltas did not, and keeps t.
func (a *responsesStream) showText(s *Stream, it *responsesItem, t string) error {
	shown := string(unquoteInside(it.shown))
	if !strings.HasPrefix(t, shown) {
		return s.rp.fail(pointer(""), ErrReplyShape, "the text of %s differs from its output_text deltas", it.what())
	}
	s.text(t[len(shown):])
	it.text = t
	return nil
}

// buildItem makes an item that the server did not send whole from its added
// form and the events on it; status and reason are the response's, at its
// end ("" before).
func (a *responsesStream) buildItem(s *Stream, it *responsesItem, status, reason string) error {
	bd := it.built() // nothing when no event built on it
	b := make([]byte, 0, len(it.added)+len(bd.args)+64)
	b = append(b, '{')
	// The item's status is its end's: the response's, or "completed" for
	// a call the server moved on from.
	itemStatus, hasStatus := "completed", false
	if status == "incomplete" {
		itemStatus = status
	}
	skip := func(key []byte) bool {
		switch {
		case jsonwire.KeyIs(key, "status"):
			hasStatus = true
			return true
		case it.typ == "function_call":
			return jsonwire.KeyIs(key, "arguments")
		case len(bd.parts[0]) > 0 && jsonwire.KeyIs(key, "content"):
			return true
		case len(bd.parts[1]) > 0 && jsonwire.KeyIs(key, "summary"):
			return true
		}
		return false
	}
	_ = jsonwire.Members(it.added, func(m jsonwire.Member) error {
		if !skip(m.Key) {
			if len(b) > 1 {
				b = append(b, ',')
			}
			b = append(b, m.Whole...)
		}
		return nil
	})
	comma := func() {
		if len(b) > 1 {
			b = append(b, ',')
		}
	}
	if hasStatus {
		comma()
		b = appendString(append(b, `"status":`...), itemStatus)
	}
	if it.typ == "function_call" {
		args := bd.args
		if bd.hasArgsDone {
			args = bd.argsDone
		}
		comma()
		b = append(append(append(b, `"arguments":"`...), args...), '"')
		quoted := b[len(b)-len(args)-2:]
		var c Call
		err := s.rp.argsText(pointer(""), quoted, false, &c)
		if err == nil && c.Malformed != "" && status == "incomplete" {
			// The response stopped before its end (max_output_tokens):
			// arguments that are not whole were cut off, not malformed.
			why := "its arguments were cut off"
			if reason != "" {
				why += " (incomplete_details reason " + msgQuote(reason) + ")"
			}
			return s.failStream(ErrIncomplete, "%s: %s: arguments text is %s", it.what(), why, c.Malformed)
		}
		if err != nil {
			return err
		}
		if bd.callID == "" || bd.name == "" {
			return s.failStream(ErrReplyShape, "%s has no call_id or no name", it.what())
		}
		c.ID, c.Name, c.Args = bd.callID, bd.name, append([]byte(nil), c.Args...)
		it.call = &c
	}
	var text []byte
	for list, key := range [2]string{"content", "summary"} {
		if len(bd.parts[list]) == 0 {
			continue
		}
		comma()
		b = append(append(append(b, '"'), key...), `":[`...)
		for i, pt := range bd.parts[list] {
			if i > 0 {
				b = append(b, ',')
			}
			inside := pt.text
			if pt.isDone {
				inside = pt.doneAt
			}
			if list == 0 && pt.typ == "output_text" {
				text = append(text, inside...)
			}
			if pt.whole != nil {
				b = append(b, pt.whole...)
				continue
			}
			b = append(b, '{')
			n := len(b)
			if pt.base != nil {
				_ = jsonwire.Members(pt.base, func(m jsonwire.Member) error {
					if !jsonwire.KeyIs(m.Key, pt.key) {
						if len(b) > n {
							b = append(b, ',')
						}
						b = append(b, m.Whole...)
					}
					return nil
				})
			} else {
				b = appendString(append(b, `"type":`...), pt.typ)
			}
			if len(b) > n {
				b = append(b, ',')
			}
			b = append(append(append(append(b, '"'), pt.key...), `":"`...), inside...)
			b = append(b, `"}`...)
		}
		b = append(b, ']')
	}
	if it.typ == "message" {
		if err := a.showText(s, it, string(unquoteInside(text))); err != nil {
			return err
		}
	}
	it.done = append(b, '}')
	it.final = true
	return nil
}

// giveReady hands out, in output order, the calls that are whole and
// have no call before them that is not.
func (a *responsesStream) giveReady(s *Stream) error {
	for {
		j, ok := a.atIndex(a.next)
		if !ok {
			return nil
		}
		it := a.item(j)
		if it.typ == "function_call" {
			if !it.final {
				return nil
			}
			if !it.given && it.call != nil {
				it.given = true
				s.giveCall(*it.call)
			}
		}
		a.next++
	}
}

// end reads the stream's last event: response.completed,
// response.incomplete or response.failed.
func (a *responsesStream) end(s *Stream, typ string, resp []byte) error {
	p := &s.rp
	a.ended = typ
	var r [4][]byte
	if resp != nil && resp[0] != 'n' {
		if err := p.fields(pointer("/response"), resp, responsesEnvelopeKeys, r[:]); err != nil {
			return err
		}
	} else {
		resp = nil
	}
	if r[2] != nil && r[2][0] != 'n' {
		if r[2][0] == '{' {
			return p.errorObject(pointer("/response/error"), r[2], &openAIErrorKeys)
		}
		msg, _ := jsonwire.Text(r[2])
		return p.providerError(pointer("/response/error"), msg, "", "", "")
	}
	if typ == "response.failed" {
		return p.fail(pointer(""), ErrProviderError, "response.failed, with no error")
	}
	status, err := p.text(pointer("/response/status"), r[0])
	if err != nil {
		return err
	}
	if status == "" {
		status = strings.TrimPrefix(typ, "response.")
	}
	var reason string
	if d := r[3]; d != nil && d[0] == '{' {
		if reason, err = p.text(pointer("/response/incomplete_details/reason"), p.ix.Field(d, "reason")); err != nil {
			return err
		}
	}
	for j := range a.nitems {
		if it := a.item(j); !it.final {
			if err := a.buildItem(s, it, status, reason); err != nil {
				return err
			}
		}
	}
	for k := range int64(a.nitems) {
		if _, ok := a.atIndex(k); !ok {
			return s.failStream(ErrReplyShape, "no output item %d: the items' output_index values are not 0 to %d", k, a.nitems-1)
		}
	}
	if err := a.giveReady(s); err != nil {
		return err
	}
	out := r[1]
	own := out != nil && out[0] == '[' && p.ix.First(out) != nil
	if own {
		// The response's own output is the reply; it must be the one
		// the events built.
		if err := a.agree(s, out); err != nil {
			return err
		}
	} else if out != nil && out[0] != 'n' && out[0] != '[' {
		return p.fail(pointer("/response/output"), ErrReplyShape, "expected an array, got %s", jsonwire.Kind(out))
	}
	// The reply: of the response's members, those its parser reads
	// (status, error, and any that differs from one of those only in
	// case, which it refuses); the others (usage, the request's echo:
	// instructions, tools, ...) are not kept. Then the output.
	n := 64
	if own {
		n += len(out)
	}
	for j := range a.nitems {
		n += len(a.item(j).done) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '{')
	if resp != nil {
		_ = p.ix.Members(resp, func(m jsonwire.Member) error {
			if !jsonwire.KeyIs(m.Key, "output") && keyFolds(m.Key, responsesKeys) {
				b = append(append(b, p.ix.Compact(m.Whole)...), ',')
			}
			return nil
		})
	}
	if own {
		b = append(append(b, `"output":`...), p.ix.Compact(out)...)
		a.reply = append(b, '}')
		return nil
	}
	if resp == nil {
		b = append(b, `"object":"response",`...)
	}
	if r[0] == nil || r[0][0] == 'n' {
		if r[0] != nil { // "status":null, among the members kept
			return p.fail(pointer("/response/status"), ErrReplyShape, "expected a string, got null")
		}
		b = append(appendString(append(b, `"status":`...), status), ',')
	}
	b = append(b, `"output":[`...)
	for k := range int64(a.nitems) {
		if k > 0 {
			b = append(b, ',')
		}
		j, _ := a.atIndex(k)
		b = append(b, a.item(j).done...)
	}
	a.reply = append(b, "]}"...)
	return nil
}

// agree checks that the output of the response's last event is the one
// its other events built, when they built one.
func (a *responsesStream) agree(s *Stream, out []byte) error {
	p := &s.rp
	if a.nitems == 0 {
		// No event built an item (a server that sends the response
		// whole at its end): its calls count now, and its text reaches
		// the Text hook.
		if n := p.ix.Count(out, "type", "function_call"); n > MaxStreamCalls {
			s.calls = n - 1
			return s.startCall(pointer("/response/output"))
		}
		return p.ix.Elems(out, func(i int, raw []byte) error {
			if raw[0] != '{' || string(p.ix.Field(raw, "type")) != `"message"` {
				return nil // the reply's parser reports what is wrong
			}
			t, err := joinTextParts(*p, pointer("/response/output").index(i).key("/content"), p.ix.Field(raw, "content"), "output_text")
			s.text(t)
			return err
		})
	}
	n := 0
	at := pointer("/response/output")
	err := p.ix.Elems(out, func(i int, raw []byte) error {
		n++
		at := at.index(i)
		if i >= a.nitems {
			return p.fail(at, ErrReplyShape, "output item %d of the response is not one the stream's events added (they added %d)", i, a.nitems)
		}
		j, _ := a.atIndex(int64(i))
		it := a.item(j)
		var v [7][]byte
		if err := p.fields(at, raw, responsesStreamItemKeys, v[:]); err != nil {
			return err
		}
		typ, _ := jsonwire.Text(v[0])
		id, _ := jsonwire.Text(v[1])
		if typ != it.typ || id != it.id {
			return p.fail(at, ErrReplyShape, "the response has output item %d of type %s with id %s, the stream's events %s", i, msgQuote(typ), msgQuote(id), it.what())
		}
		switch typ {
		case "function_call":
			callID, _ := jsonwire.Text(v[2])
			name, _ := jsonwire.Text(v[3])
			c := Call{ID: callID, Name: name}
			if err := p.argsText(at.key("/arguments"), v[4], false, &c); err != nil {
				return err
			}
			if !sameCall(it.call, c) {
				return p.fail(at, ErrReplyShape, "the response's %s differs from the one the stream's events built (call_id, name or arguments)", it.what())
			}
		case "message":
			t, err := joinTextParts(*p, at.key("/content"), v[6], "output_text")
			if err != nil {
				return err
			}
			if t != it.text {
				return p.fail(at, ErrReplyShape, "the text of the response's %s differs from the one the stream's events built", it.what())
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if n < a.nitems {
		j, _ := a.atIndex(int64(n))
		return p.fail(at, ErrReplyShape, "the response has %d output items, the stream's events added %d (%s is missing)", n, a.nitems, a.item(j).what())
	}
	return nil
}

func (a *responsesStream) finish(s *Stream) ([]byte, error) {
	if a.ended != "" {
		return a.reply, nil
	}
	for k := range int64(a.nitems) {
		j, ok := a.atIndex(k)
		if !ok {
			break
		}
		if it := a.item(j); it.typ == "function_call" && !it.final {
			return nil, s.failStream(ErrIncomplete, "the stream ended inside %s, before its arguments were complete", it.what())
		}
	}
	return nil, s.failStream(ErrIncomplete, "the stream ended with no response.completed, response.incomplete or response.failed")
}

// ParseOpenAIResponsesStream reads an OpenAI Responses stream (a request with
// "stream": true) from body, the HTTP response body as sent: its
// Server-Sent Events to response.completed or response.incomplete. The
// Turn is what [ParseOpenAIResponsesReply] gives for the response object the
// events amount to: every output item kept for Replay in output order
// (reasoning items, with their encrypted_content, next to the function
// calls they preceded), each function_call a Call with its call_id and
// compact arguments, the output_text of message items as Text, and the
// response's status as Stop. When response.completed carries the output
// it is that output, which must agree with the one the events built.
//
// Arguments may come as deltas, as function_call_arguments.done alone, or
// as both (which must agree); see [Stream] for reading calls as they
// complete. An error event or response.failed is an error wrapping
// [ErrProviderError] that quotes the error; a stream that ends before its
// last event, or a call whose arguments were cut off (a response
// incomplete for max_output_tokens), wraps [ErrIncomplete]; an event for an
// item that was not added, or arguments that disagree, wrap
// [ErrReplyShape] or [ErrArguments]. Arguments that are not one JSON
// object in a response that ended whole make a malformed call
// ([Call].Malformed), as in [ParseOpenAIResponsesReply].
func ParseOpenAIResponsesStream(body io.Reader) (Turn, error) {
	return ReplyLimits{}.parseStream(responsesSpec, body)
}
