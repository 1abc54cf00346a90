package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
	"github.com/toolnexus/toolnexus/internal/outjson"
)

// Call is one tool call the model asked for, the same for every provider.
//
// Make calls with the ParseXReply functions of this package (or a
// [Provider]'s Parse), run them (toolnexus.Toolkit.Run, or
// [define.Tool.ExecuteJSON] with Args), and render the results with the
// provider's XResults function, passing the same calls in the same order.
type Call struct {
	// ID is the provider's id for the call, which its result must echo:
	// OpenAI Chat tool_calls[].id (or the id [ParseOpenAIReply] made for a
	// call sent without one), OpenAI Responses call_id (not the item's
	// fc_ id), Anthropic tool_use id, Bedrock toolUseId, Gemini
	// functionCall.id ("" when the model sent none: Gemini then pairs
	// results by name and order). For MCP it is the JSON-RPC request id as
	// JSON text (7 or "req-7", quotes included), "" for bare params.
	ID string `json:"id,omitempty"`

	// Name is the tool's name as the model sent it (but see SentName).
	Name string `json:"name"`

	// SentName is set by toolnexus.Toolkit.Run, under
	// toolnexus.WithNearMissNames, on the call it runs when the name the
	// model sent is a near miss of a tool's (the wrong case, other
	// separators): SentName is that name, Name the tool's. Middleware and
	// observers see it; the parsers never set it.
	SentName string `json:"sent_name,omitempty"`

	// Args is the call's arguments, one compact JSON object: OpenAI's
	// arguments text "" (and null) become {}, as does an absent Anthropic
	// input or Gemini args. Numbers are kept as the model wrote them. For a
	// malformed call (Malformed is set) Args is the text as the model sent
	// it instead, which no tool's decoder reads as arguments.
	Args json.RawMessage `json:"args"`

	// Input is the call's arguments when they arrived already parsed into a
	// map (an SDK's decoded Gemini FunctionCall.Args, for example). When it
	// is non-nil, toolnexus.Toolkit.Run passes it to
	// [define.Tool.Execute] and does not read Args, so the arguments are not
	// marshalled only to be parsed again. The parsers of this package leave
	// it nil, and it is never rendered.
	Input map[string]any `json:"-"`

	// ThoughtSignature is Gemini's thoughtSignature of the part that held
	// this call ("" elsewhere, and on Gemini's parallel calls after the
	// first). It is here for callers that rebuild history themselves; the
	// replayed model content (Turn.Replay) already carries it in place.
	ThoughtSignature string `json:"thoughtSignature,omitempty"`

	// Malformed is set when the arguments the model sent for this call
	// are text that is not one JSON object (OpenAI Chat's, Responses' and
	// Mistral's arguments text, the streamed input of Anthropic and
	// Bedrock) and no repair made them one ([RepairArguments]): what is
	// wrong with it, and its start ("not valid JSON: unexpected 'm' at
	// byte 0: \"maybe\""). The reply parses all the same: Args holds the
	// text as sent, which the call's tool refuses with an error the model
	// can act on (toolnexus.Toolkit.Run answers "invalid arguments: not a
	// JSON object: ...", with where, and runs the turn's other calls), and
	// the replay and the results renderers take the call as any other.
	Malformed string `json:"malformed,omitempty"`

	// Repaired lists the repairs that made the text the model sent one
	// JSON object, under [RepairArguments]: Args holds that object, which
	// the call's tool validates as any call's. Zero for arguments sent
	// well-formed.
	Repaired Repairs `json:"repaired,omitempty"`

	// Rendering is the strict rendering of the tools the model was shown,
	// when it changes how the call reads: set by the Parse and streams of
	// a Provider made with [Strict] or [StrictWherePossible] whose strict
	// mode makes optional properties nullable (OpenAI Chat Completions and
	// Responses). A null the model sent for such a property means it was
	// left out; toolnexus.Toolkit.Run reads it so
	// (define.Tool.NullsAsAbsentJSON). Zero otherwise; it is never
	// rendered.
	Rendering Rendering `json:"-"`
}

// MarshalJSON writes the call as its field tags say. The Args of a
// malformed call, the text as sent (not JSON), are written as a JSON
// string of that text, as are Args set by hand that are not JSON.
func (c Call) MarshalJSON() ([]byte, error) {
	type plain Call
	if c.Malformed != "" || len(c.Args) > 0 && !json.Valid(c.Args) {
		quoted, err := json.Marshal(string(c.Args))
		if err != nil {
			return nil, err
		}
		c.Args = quoted
	}
	return json.Marshal(plain(c))
}

// UnmarshalJSON reads a call as MarshalJSON writes it: the arguments of a
// malformed call (Malformed set), a JSON string of the text as sent,
// become that text again, so that a call stored as JSON reads back equal.
func (c *Call) UnmarshalJSON(data []byte) error {
	type plain Call
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	if p.Malformed != "" && len(p.Args) > 0 && p.Args[0] == '"' {
		var text string
		if err := json.Unmarshal(p.Args, &text); err != nil {
			return fmt.Errorf("adapters: Call: args: %w", err)
		}
		p.Args = json.RawMessage(text)
	}
	*c = Call(p)
	return nil
}

// Turn is one model reply, parsed: the calls to run, the text, and the
// history entries that replay the model's own turn.
//
// A Turn shares no memory with the reply it was parsed from. Its strings
// and byte slices are cut from a few chunks made for the reply (at most
// 16 KiB each), so that a reply of many calls costs a few allocations:
// keeping one of them keeps its chunk alive. Appending to one of its byte
// slices (Call.Args, a replayed json.RawMessage) never writes over
// another.
type Turn struct {
	// Calls are the tool calls, in the order the model sent them; nil
	// (never empty and non-nil) when the model ended its turn without
	// calling a tool.
	Calls []Call

	// Text is the reply's visible text, parts joined in order (thinking
	// and reasoning parts excluded).
	Text string

	// Stop is the provider's own stop or finish reason, as sent
	// ("tool_calls", "tool_use", "STOP", ...; "" when the reply had none).
	Stop string

	// Refusal is the model's refusal, as sent, where the provider sends
	// one apart from the text: OpenAI Chat's message.refusal (and its
	// compatible servers'), the refusal parts of OpenAI Responses message
	// items, joined; "" when there was none. Anthropic and Bedrock say so
	// by Stop instead ("refusal"; "guardrail_intervened",
	// "content_filtered"). [AnswerText] reads both as [ErrRefused].
	Refusal string

	// Replay holds the entries to append to the conversation history
	// before the results: the model's turn as the provider needs to see it
	// again (each provider's ParseXReply says what type). Replaying them as
	// they are keeps what must survive the round trip: Gemini thought
	// signatures, Anthropic thinking blocks, Responses reasoning items next
	// to their function calls.
	Replay []any

	// Searches are the tool searches the model asked the program to run:
	// OpenAI Responses tool_search_call items with "execution": "client",
	// in order; nil when there were none. A [Searcher] answers them (its
	// Split also collects Anthropic's, which are calls of the client-side
	// search tool).
	Searches []Search

	// Usage is the token usage the reply reports, in one meaning for
	// every provider (see [Usage]); a streamed reply's is read where its
	// provider sends it (the last chunk with usage, message_start and
	// message_delta, the last usageMetadata, the metadata event,
	// response.completed, the chunk with "done": true). The zero Usage
	// when the reply reports none.
	Usage Usage
}

// Errors callers can test for with errors.Is on the error of a ParseX or
// XResults function.
var (
	// ErrNotJSON: the reply is not valid JSON (RFC 8259, in UTF-8).
	ErrNotJSON = errors.New("not valid JSON")
	// ErrReplyShape: the reply is JSON but not the provider's shape: a
	// missing or mistyped field, a key given twice, a call without a name
	// or id, two calls with one id, an unsupported kind of call, or a reply
	// without content (a blocked Gemini candidate).
	ErrReplyShape = errors.New("not the provider's reply shape")
	// ErrArguments: a call's arguments, as the server sent them, are not
	// in the provider's shape: an object where a provider sends arguments
	// as objects (Anthropic input, Gemini args, Bedrock input, MCP
	// arguments, Ollama's) holds another JSON value, an arguments text is
	// not a string, or a stream's pieces of it disagree. An arguments text
	// that is not one JSON object is not this error: the call is
	// malformed ([Call].Malformed), and the reply parses.
	ErrArguments = errors.New("arguments are not a JSON object")
	// ErrProviderError: the reply is the provider's error body (an API
	// error, a JSON-RPC error response); the [ReplyError] quotes it.
	ErrProviderError = errors.New("the provider returned an error")
	// ErrReplyLimit: the reply is larger or nested deeper than its
	// [ReplyLimits] allow.
	ErrReplyLimit = errors.New("reply exceeds a limit")
	// ErrResultCount: results and calls are not one to one.
	ErrResultCount = errors.New("results do not match calls one to one")
	// ErrCallID: a call has no id, and its provider pairs results by id.
	ErrCallID = errors.New("call has no id")
)

// ReplyError reports what was wrong with a model reply and where. Err is
// [ErrNotJSON], [ErrReplyShape], [ErrArguments], [ErrProviderError],
// [ErrReplyLimit] or, for a streamed reply, [ErrIncomplete].
//
// Path is a JSON Pointer (RFC 6901) into the reply, the notation the
// library uses for argument paths too: "/choices/0/message/tool_calls/1/id".
// A path into an OpenAI arguments text ends at the string that holds it.
type ReplyError struct {
	Provider string // the provider's name, as [Provider.Name] returns it
	Path     string // where in the reply, as a JSON Pointer; "" for the whole reply
	Problem  string // what was wrong, e.g. "expected an object, got an array"
	Err      error  // the sentinel

	// For ErrProviderError, what the provider's error body said, as sent
	// (each "" when absent): its message; its type or status
	// ("invalid_request_error", "INVALID_ARGUMENT", "ValidationException");
	// its code, as JSON text for a number ("400", "-32602").
	Message, Type, Code string

	// Event is, for a streamed reply, the number of the event (counted
	// from 1 in the order the body sends them) that Path points into; 0
	// when the error is about the stream as a whole (a limit, its end, the
	// reply assembled from it) or the reply was not streamed.
	Event int

	stream bool // the error is about a streamed reply
}

// Error reports the provider, the path and the problem:
// "adapters: openai reply: /choices/0/message/tool_calls/0/function/arguments: ...".
//
// An error about a streamed reply says so, and names the event:
// "adapters: anthropic stream: event 7: /delta/partial_json: ...".
func (e *ReplyError) Error() string {
	what := " reply: "
	if e.stream || e.Event > 0 {
		what = " stream: "
		if e.Event > 0 {
			what += "event " + strconv.Itoa(e.Event) + ": "
		}
	}
	if e.Path == "" {
		return "adapters: " + e.Provider + what + e.Problem
	}
	return "adapters: " + e.Provider + what + e.Path + ": " + e.Problem
}

// Unwrap returns the sentinel, for errors.Is.
func (e *ReplyError) Unwrap() error { return e.Err }

// Default reply limits; see [ReplyLimits].
const (
	// DefaultMaxReplyBytes is the largest reply a parser reads: 32 MiB.
	DefaultMaxReplyBytes = 32 << 20
	// DefaultMaxReplyDepth is the deepest nesting of arrays and objects a
	// parser reads, in the reply and in an OpenAI arguments text: 512
	// levels, the limit [define.Tool] applies to arguments.
	DefaultMaxReplyDepth = jsonwire.MaxDepth
	// maxReplyBytesCap bounds a MaxBytes set by a user: the check keeps
	// offsets in 31 bits.
	maxReplyBytesCap = 1<<31 - 1
	// maxReplyDepthCap bounds a MaxDepth set by a user: the check recurses
	// once per level.
	maxReplyDepthCap = 100_000
)

// ReplyLimits bounds what the reply parsers read, so that a hostile or
// broken server cannot make a parse cost more than the limits allow. Work
// and memory are linear in the reply's size within them. The zero value
// means the defaults; the package's ParseXReply functions use it.
//
//	limits := adapters.ReplyLimits{MaxBytes: 64 << 20}
//	turn, err := limits.ParseOpenAIReply(body)
//
// A reply beyond a limit is a [ReplyError] wrapping [ErrReplyLimit].
type ReplyLimits struct {
	// MaxBytes is the largest reply, in bytes; 0 or less means
	// [DefaultMaxReplyBytes]. Values above 2 GiB - 1 count as 2 GiB - 1.
	MaxBytes int
	// MaxDepth is the deepest nesting of arrays and objects, counted from
	// the reply's top (and from the top of an OpenAI arguments text); 0 or
	// less means [DefaultMaxReplyDepth]. Values above 100,000 count as
	// 100,000.
	MaxDepth int

	// For streamed replies (see [Stream]), MaxBytes bounds the whole body
	// and MaxDepth each event's JSON. MaxEvents is the most events a stream
	// may send, 0 or less meaning [DefaultMaxStreamEvents]; MaxEventBytes
	// is the largest event, 0 or less meaning [DefaultMaxEventBytes] (and
	// never more than MaxBytes).
	MaxEvents, MaxEventBytes int

	// repair: the Provider that parses was made with RepairArguments.
	repair bool
	// rendering: the strict rendering of the Provider that parses, which
	// its calls carry (Call.Rendering).
	rendering Rendering

	// reuse, set by a Stream for the parse of the reply it assembled, is
	// the room its events' checks grew, which that parse reuses instead
	// of growing its own (the reply is about as large as the events).
	reuse *scratch
}

func (l ReplyLimits) parser(provider string) replyParser {
	p := replyParser{provider: provider, maxBytes: l.MaxBytes, maxDepth: l.MaxDepth, repair: l.repair, reuse: l.reuse}
	if p.maxBytes <= 0 {
		p.maxBytes = DefaultMaxReplyBytes
	}
	if p.maxDepth <= 0 {
		p.maxDepth = DefaultMaxReplyDepth
	}
	p.maxDepth = min(p.maxDepth, maxReplyDepthCap)
	p.maxBytes = min(p.maxBytes, maxReplyBytesCap)
	return p
}

// replyParser reads one provider's reply, building ReplyErrors with paths.
type replyParser struct {
	provider string
	maxBytes int
	maxDepth int
	repair   bool            // RepairArguments: an arguments text that is no JSON object is repaired where it can be
	ix       *jsonwire.Index // the reply's index, set by whole
	// lazyCompact: the parser replays no large compacted part of the
	// reply (OpenAI Chat replays arguments texts as sent; Ollama replays
	// its calls' arguments objects, most of them smaller than the index
	// records), so whole compacts nothing ahead, and each value handed
	// out is compacted alone (jsonwire.Index.CompactIn).
	lazyCompact bool
	checker     *jsonwire.Checker // reused by the checks of one reply, set by whole
	// texts and blocks, set by whole, hold the strings and the byte slices
	// (arguments, extra members) made of one reply, so that its calls
	// cost a few allocations, not a few each; nil (each made alone) for
	// the events of a stream, whose strings may outlive the event.
	texts  *jsonwire.Texts
	blocks *jsonwire.Blocks
	// scratch, set by whole, is where p.ix and p.checker live; release
	// gives it back for the next reply.
	scratch *scratch
	// reuse is ReplyLimits.reuse: the scratch whole takes, which release
	// does not give back (its Stream owns it); nil to take one from the
	// pool.
	reuse *scratch
}

// indexHook, when set (by tests), sees the index of every reply parsed.
var indexHook func(*jsonwire.Index)

// scratch is the room the check and the readers of one reply use and no
// result keeps (the index's records, the checker's stacks), reused by the
// replies parsed after it, and by a stream's events one after another.
type scratch struct {
	ix      jsonwire.Index
	checker jsonwire.Checker
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// stores are the memory a parsed reply's results live in.
type stores struct {
	texts  jsonwire.Texts
	blocks jsonwire.Blocks
}

// release gives the room whole took back, once the reply is read: nothing
// read from p.ix or p.checker may be used after it.
func (p *replyParser) release() {
	s := p.scratch
	if s == nil {
		return
	}
	p.scratch, p.ix, p.checker = nil, nil, nil
	if keepIx, keepC := s.ix.Release(), s.checker.Release(); keepIx && keepC && s != p.reuse {
		scratchPool.Put(s)
	}
}

func (p replyParser) fail(l loc, sentinel error, format string, args ...any) error {
	return &ReplyError{Provider: p.provider, Path: l.String(), Problem: fmt.Sprintf(format, args...), Err: sentinel}
}

// loc is where a value sits in a reply, a JSON Pointer made into a string
// only when an error needs it, so that reading a reply allocates no paths:
// base, then the index i when i >= 0, then the keys sub and sub2.
type loc struct {
	base      string
	i         int
	sub, sub2 string
}

// pointer returns the location (a loc) of the JSON Pointer path: where a
// value sits in a reply, made into text only when an error needs it.
func pointer(path string) loc { return loc{base: path, i: -1} }

// index is the loc of element i of the array at l.
func (l loc) index(i int) loc {
	if l.i >= 0 || l.sub != "" {
		l = pointer(l.String())
	}
	l.i = i
	return l
}

// key is the loc of l's member (or members) k, a JSON Pointer suffix such
// as "/name" or "/function/name".
func (l loc) key(k string) loc {
	switch {
	case l.sub == "":
		l.sub = k
	case l.sub2 == "":
		l.sub2 = k
	default:
		l.sub2 += k
	}
	return l
}

// String returns the JSON Pointer.
func (l loc) String() string {
	if l.i < 0 {
		return l.base + l.sub + l.sub2
	}
	return l.base + "/" + strconv.Itoa(l.i) + l.sub + l.sub2
}

// check checks that data is one JSON value within the limits, with no
// duplicate keys, and returns it trimmed. path is where data sits (an
// arguments text: the string that holds it). ix, when not nil, records
// where data's values end for its readers.
func (p replyParser) check(path loc, data []byte, sentinel error, ix *jsonwire.Index) ([]byte, error) {
	if len(data) > p.maxBytes {
		return nil, p.fail(path, ErrReplyLimit, "%d bytes, more than the limit of %d", len(data), p.maxBytes)
	}
	c := p.checker
	if c == nil {
		c = new(jsonwire.Checker)
	}
	if e := c.Check(data, p.maxDepth, ix); e != nil {
		switch {
		case e.Limit:
			sentinel = ErrReplyLimit
		case !e.Syntax && sentinel == ErrNotJSON:
			sentinel = ErrReplyShape
		}
		switch {
		case e.Syntax || e.Path == "":
			return nil, p.fail(path, sentinel, "%s", e.Problem)
		case path.String() != "": // inside an arguments text: no pointer reaches there
			return nil, p.fail(path, sentinel, "at %s: %s", e.Path, e.Problem)
		}
		return nil, p.fail(pointer(e.Path), sentinel, "%s", e.Problem)
	}
	return bytes.TrimSpace(data), nil
}

// whole checks a whole reply, indexing it in p.ix for the reads that
// follow; the caller releases p when done reading.
func (p *replyParser) whole(reply []byte) ([]byte, error) {
	s, st := p.reuse, new(stores)
	if s == nil {
		s = scratchPool.Get().(*scratch)
	}
	p.scratch, p.ix, p.checker = s, &s.ix, &s.checker
	p.texts, p.blocks = &st.texts, &st.blocks
	p.texts.Size(len(reply))
	// Most parsers replay compacted parts of the reply: the check compacts
	// it as it goes, copying a run between spaces at a time, unless the
	// parser said it replays none (lazyCompact).
	p.ix.Eager = !p.lazyCompact
	// A reply a Stream assembled is its own: when it is compact (the
	// assemblers write it so), it is its compacted text.
	p.ix.Owned = p.reuse != nil
	if indexHook != nil {
		indexHook(p.ix)
	}
	data, err := p.check(pointer(""), reply, ErrNotJSON, p.ix)
	if err != nil {
		var re *ReplyError
		if errors.As(err, &re) && re.Err == ErrNotJSON && len(bytes.TrimSpace(reply)) == 0 {
			re.Problem = "empty reply"
		}
		return nil, err
	}
	return data, nil
}

// object checks that raw is a JSON object.
func (p replyParser) object(path loc, raw []byte) error {
	if k := jsonwire.Kind(raw); k != "an object" {
		return p.fail(path, ErrReplyShape, "expected an object, got %s", k)
	}
	return nil
}

// array checks that raw, when present and not null, is a JSON array.
func (p replyParser) array(path loc, raw []byte) error {
	if raw == nil || raw[0] == 'n' || raw[0] == '[' {
		return nil
	}
	return p.fail(path, ErrReplyShape, "expected an array, got %s", jsonwire.Kind(raw))
}

// text returns the string raw: "" when it is absent or null.
func (p replyParser) text(path loc, raw []byte) (string, error) {
	if raw == nil || raw[0] == 'n' {
		return "", nil
	}
	s, ok := p.texts.Text(raw)
	if !ok {
		return "", p.fail(path, ErrReplyShape, "expected a string, got %s", jsonwire.Kind(raw))
	}
	return s, nil
}

// fields reads the keys names of the object raw at path.
func (p replyParser) fields(path loc, raw []byte, names []string, vals [][]byte) error {
	_, err := p.fieldsOthers(path, raw, names, vals)
	return err
}

// functionKeys are the members of a tool call's function object (OpenAI
// Chat, Ollama): {"name":...,"arguments":...}.
var functionKeys = []string{"name", "arguments"}

// function reads the function object of the tool call at (at + /function):
// its name, which it must have, its arguments as sent (nil when absent),
// and how many other members it has.
func (p replyParser) function(at loc, raw []byte) (name string, args []byte, others int, err error) {
	if raw == nil || raw[0] == 'n' {
		return "", nil, 0, p.fail(at, ErrReplyShape, "no function")
	}
	var fn [2][]byte
	if others, err = p.fieldsOthers(at.key("/function"), raw, functionKeys, fn[:]); err != nil {
		return "", nil, 0, err
	}
	if name, err = p.text(at.key("/function/name"), fn[0]); err != nil {
		return "", nil, 0, err
	}
	if name == "" {
		return "", nil, 0, p.fail(at.key("/function/name"), ErrReplyShape, "missing name")
	}
	return name, fn[1], others, nil
}

// fieldsOthers is fields, returning how many members have keys not in
// names (when none has, there is nothing extra to keep).
func (p replyParser) fieldsOthers(path loc, raw []byte, names []string, vals [][]byte) (int, error) {
	if err := p.object(path, raw); err != nil {
		return 0, err
	}
	key, others := p.ix.FieldsCount(raw, names, vals)
	if key != nil {
		return 0, p.fail(path, ErrReplyShape, "key %s differs from an expected key only in case", msgQuote(string(key)))
	}
	return others, nil
}

// argsObject normalises arguments sent as a JSON object (Anthropic input,
// Gemini args, Bedrock input, MCP arguments): absent or null mean {}.
func (p replyParser) argsObject(path loc, raw []byte) (json.RawMessage, error) {
	if raw == nil || raw[0] == 'n' {
		return json.RawMessage("{}"), nil
	}
	if k := jsonwire.Kind(raw); k != "an object" {
		return nil, p.fail(path, ErrArguments, "expected a JSON object, got %s", k)
	}
	return p.ix.CompactIn(p.blocks, raw), nil
}

// argsText reads arguments sent as JSON text in a string (OpenAI
// Responses, and the streams) into c.Args: "" and "null" mean {}. An
// object sent in place of the string (Ollama's native API, some
// compatible servers) is accepted too. The text is unquoted into room
// taken from the reply's blocks, checked, and compacted where it lies. A
// text that is not one JSON object makes c malformed, or repaired (see
// badArgs); cut says the reply stopped at its token limit.
func (p replyParser) argsText(path loc, raw []byte, cut bool, c *Call) error {
	if raw == nil || raw[0] != '"' {
		args, err := p.argsObject(path, raw)
		c.Args = args
		return err
	}
	text := jsonwire.AppendUnquoted(p.blocks.Room(len(raw)-2), raw)
	inner, spaces, bad, err := p.argsInText(path, text)
	switch {
	case err != nil:
		return err
	case bad != "":
		return p.badArgs(path, p.blocks.Take(text), bad, cut, c)
	case inner == nil:
		c.Args = json.RawMessage("{}")
		return nil
	}
	if spaces != 0 || &inner[0] != &text[0] {
		// Compacting in place: what is written never passes what is read.
		inner = jsonwire.AppendCompact(text[:0], inner)
	}
	c.Args = p.blocks.Take(inner)
	return nil
}

// textArgs reads an arguments text already unquoted (a stream's pieces
// joined), which stays the caller's, into c as argsText does.
func (p replyParser) textArgs(path loc, text []byte, cut bool, c *Call) error {
	inner, _, bad, err := p.argsInText(path, text)
	switch {
	case err != nil:
		return err
	case bad != "":
		return p.badArgs(path, append([]byte(nil), text...), bad, cut, c)
	case inner == nil:
		c.Args = json.RawMessage("{}")
		return nil
	}
	c.Args = jsonwire.AppendCompact(make([]byte, 0, len(inner)), inner)
	return nil
}

// argsAndText is argsText that also returns the arguments text as sent
// (OpenAI Chat replays it): the text is unquoted once, into the reply's
// strings, checked there, and copied compact into the reply's blocks as
// the arguments, which the caller may change. For an object sent in place
// of the string, the text is the object's compact text.
func (p replyParser) argsAndText(path loc, raw []byte, cut bool, c *Call) (string, error) {
	if raw == nil || raw[0] != '"' {
		args, err := p.argsObject(path, raw)
		c.Args = args
		return string(args), err
	}
	text, b, _ := p.texts.TextBytes(raw)
	inner, spaces, bad, err := p.argsInText(path, b)
	switch {
	case err != nil:
		return "", err
	case bad != "":
		return text, p.badArgs(path, p.blocks.Take(append(p.blocks.Room(len(b)), b...)), bad, cut, c)
	case inner == nil:
		c.Args = json.RawMessage("{}")
		return text, nil
	}
	args := p.blocks.Room(len(inner))
	if spaces == 0 {
		args = append(args, inner...)
	} else {
		args = jsonwire.AppendCompact(args, inner)
	}
	c.Args = p.blocks.Take(args)
	return text, nil
}

// argsInText checks an arguments text: it returns nil for "" and "null"
// (which mean {}), else the text trimmed when it is one JSON object, with
// the bytes of insignificant space it holds (-1: not counted). A text that
// is no JSON object (not JSON, another JSON value, a key twice) gives bad,
// what is wrong with it; err is a limit the text passes.
func (p replyParser) argsInText(path loc, text []byte) (inner json.RawMessage, spaces int, bad string, err error) {
	inner = trimJSONSpace(text)
	if len(inner) == 0 || string(inner) == "null" {
		return nil, 0, "", nil
	}
	if len(inner) > p.maxBytes {
		return nil, 0, "", p.fail(path, ErrReplyLimit, "%d bytes, more than the limit of %d", len(inner), p.maxBytes)
	}
	c := p.checker
	if c == nil {
		c = new(jsonwire.Checker)
	}
	if e := c.Check(inner, p.maxDepth, nil); e != nil {
		switch {
		case e.Limit:
			return nil, 0, "", p.fail(path, ErrReplyLimit, "at %s: %s", e.Path, e.Problem)
		case e.Syntax || e.Path == "":
			return nil, 0, "not valid JSON: " + e.Problem + ": " + msgQuote(string(text)), nil
		}
		return nil, 0, "at " + e.Path + ": " + e.Problem + ": " + msgQuote(string(text)), nil
	}
	if k := jsonwire.Kind(inner); k != "an object" {
		return nil, 0, k + ", not a JSON object: " + msgQuote(string(text)), nil
	}
	if p.checker == nil {
		return inner, -1, "", nil
	}
	return inner, p.checker.Spaces(), "", nil // the check counted the space
}

// badArgs makes c the call of text, an arguments text as sent that is no
// JSON object for the reason bad: with RepairArguments, the object its
// repairs make of it (c.Repaired); otherwise, or when they make none, a
// malformed call whose Args are text (which c keeps). When cut (the reply
// stopped at its token limit) and the text ends inside its object, the
// turn was cut off in the middle of the call: that is [ErrIncomplete],
// the transport's failure rather than the model's.
func (p replyParser) badArgs(path loc, text []byte, bad string, cut bool, c *Call) error {
	if cut && cutInside(text) {
		return p.fail(path, ErrIncomplete, "the reply stopped at its token limit inside the arguments, before their object was whole: %s", msgQuote(string(text)))
	}
	if p.repair {
		if obj, done, ok := repairArgs(text, p.maxDepth); ok {
			c.Args, c.Repaired = obj[:len(obj):len(obj)], done
			return nil
		}
	}
	c.Args, c.Malformed = text, bad
	return nil
}

// cutInside reports whether text starts an object that it does not close:
// arguments cut off in their middle.
func cutInside(text []byte) bool {
	var oe objectEnd
	oe.feed(text)
	return oe.started && !oe.closed
}

// trimJSONSpace returns b without the JSON space around it (space, tab,
// LF, CR): the only space a JSON text may hold around its value, where
// bytes.TrimSpace takes away other characters too (a vertical tab, a
// no-break space), which would make a text that is not JSON read as
// blank.
func trimJSONSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && isSpace(b[i]) {
		i++
	}
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

// notShape is the error for a reply that lacks what every reply of the
// provider has: problem names the missing keys and what the reply is not,
// followed by what it looks like when that can be told.
func (p replyParser) notShape(path loc, raw []byte, problem string) error {
	if like := looksLike(p.ix, raw); like != "" {
		problem += " (it looks like " + like + ")"
	}
	return p.fail(path, ErrReplyShape, "%s", problem)
}

// looksLike guesses which provider's reply the checked value raw is, for
// the error of a parser it does not fit: "an Ollama /api/chat reply"; ""
// when it cannot tell. Each home's spec knows its own shapes (spec.looks);
// the first home in the registry that claims raw names it.
func looksLike(x *jsonwire.Index, raw []byte) string {
	if len(raw) > 0 && raw[0] == '[' {
		if first := x.First(raw); first != nil && first[0] == '{' {
			if like := looksLike(x, first); like != "" && !strings.Contains(like, " or ") {
				return "an array of " + like[strings.IndexByte(like, ' ')+1:] + "s"
			}
		}
		return ""
	}
	if len(raw) == 0 || raw[0] != '{' {
		return ""
	}
	member := func(key string) []byte { return x.Field(raw, key) }
	for _, h := range shapeHomes {
		if h.looks != nil {
			if like := h.looks(member); like != "" {
				return like
			}
		}
	}
	switch {
	case member("error") != nil:
		return "an error body"
	case jsonwire.SkipSpace(raw, 1) == len(raw)-1:
		return "an empty object"
	}
	return ""
}

// providerError is the error for a provider's error body at path.
func (p replyParser) providerError(path loc, message, typ, code, param string) error {
	e := &ReplyError{Provider: p.provider, Path: path.String(), Err: ErrProviderError, Message: message, Type: typ, Code: code}
	b := []byte("provider error")
	if message != "" {
		b = append(append(b, ": "...), msgQuoteN(message, 1000)...)
	}
	sep := " ("
	for _, f := range [...]struct{ name, v string }{{"type", typ}, {"code", code}, {"param", param}} {
		if f.v != "" {
			b = append(append(append(append(b, sep...), f.name...), ' '), msgQuoteN(f.v, 200)...)
			sep = ", "
		}
	}
	if sep == ", " {
		b = append(b, ')')
	}
	e.Problem = string(b)
	return e
}

// errorObject reads an error object ({"message","type","code",...}) at path
// as a provider error. keys names the fields: message, type, code, and the
// optional param; code may be a string or a number.
func (p replyParser) errorObject(path loc, raw []byte, keys *[4]string) error {
	var v [4][]byte
	if err := p.fields(path, raw, keys[:], v[:]); err != nil {
		return err
	}
	var s [4]string
	for i, r := range v {
		if r == nil {
			continue
		}
		if t, ok := jsonwire.Text(r); ok {
			s[i] = t
		} else if r[0] != 'n' {
			s[i] = string(p.ix.Compact(r))
		}
	}
	return p.providerError(path, s[0], s[1], s[2], s[3])
}

// namedCall reads a call's id (required, unique in the reply) and name
// (required) at path, for the providers that pair results by id.
func (p replyParser) namedCall(path loc, rawID, rawName []byte, ids *callIDs) (Call, error) {
	return p.namedCallKeys(path, "/id", rawID, rawName, ids)
}

// namedCallKeys is namedCall with the id under idKey ("/toolUseId").
func (p replyParser) namedCallKeys(path loc, idKey string, rawID, rawName []byte, ids *callIDs) (Call, error) {
	id, err := p.text(path.key(idKey), rawID)
	if err != nil {
		return Call{}, err
	}
	if id == "" {
		return Call{}, p.fail(path.key(idKey), ErrReplyShape, "missing %s (results are paired by it)", idKey[1:])
	}
	if err := p.uniqueID(ids, path.key(idKey), id); err != nil {
		return Call{}, err
	}
	name, err := p.text(path.key("/name"), rawName)
	if err != nil {
		return Call{}, err
	}
	if name == "" {
		return Call{}, p.fail(path.key("/name"), ErrReplyShape, "missing name")
	}
	return Call{ID: id, Name: name}, nil
}

// sized returns an empty slice with room for n elements, nil for none.
// noEmptyCalls returns t with nil Calls when it has none: a parser that
// sized Calls for blocks it then skipped (a Bedrock server_tool_use)
// gives the same turn as one that found none.
func (t Turn) noEmptyCalls() Turn {
	if len(t.Calls) == 0 {
		t.Calls = nil
	}
	return t
}

func sized[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, 0, n)
}

// callIDs rejects a call id given twice in one reply: results are paired by
// id, so two calls with one id would make the pairing ambiguous. The first
// few ids are compared one by one, without a map; a map holds them all
// beyond.
type callIDs struct {
	few  [8]string
	n    int
	m    map[string]struct{}
	hint int // how many ids to make room for, when known
}

// has reports whether key was added.
func (s *callIDs) has(key string) bool {
	if s.m != nil {
		_, ok := s.m[key]
		return ok
	}
	for _, k := range s.few[:s.n] {
		if k == key {
			return true
		}
	}
	return false
}

// add adds key.
func (s *callIDs) add(key string) { s.insert(key) }

// insert adds key, reporting whether it is new: one map operation, not a
// lookup and then a store.
func (s *callIDs) insert(key string) bool {
	if s.m == nil {
		if s.has(key) {
			return false
		}
		if s.n < len(s.few) {
			s.few[s.n] = key
			s.n++
			return true
		}
		s.m = make(map[string]struct{}, max(s.hint, 2*len(s.few)))
		for _, k := range s.few {
			s.m[k] = struct{}{}
		}
	}
	n := len(s.m)
	s.m[key] = struct{}{}
	return len(s.m) > n
}

func (p replyParser) uniqueID(seen *callIDs, path loc, id string) error {
	return p.uniqueKey(seen, path, id, id)
}

// uniqueKey is uniqueID for an id whose identity (key) differs from its
// text (MCP's JSON-RPC ids).
func (p replyParser) uniqueKey(seen *callIDs, path loc, key, id string) error {
	if key == "" {
		return nil
	}
	if !seen.insert(key) {
		return p.fail(path, ErrReplyShape, "call id %s is used by an earlier call", msgQuote(id))
	}
	return nil
}

// checkResultPairs checks what every XResults function needs: one result per
// call and, where the provider pairs by id, an id on every call.
func checkResultPairs(fn string, calls []Call, results []define.Result, needID bool) error {
	if len(calls) != len(results) {
		return fmt.Errorf("adapters: %s: %d calls and %d results: %w", fn, len(calls), len(results), ErrResultCount)
	}
	if needID {
		for i, c := range calls {
			if c.ID == "" {
				return fmt.Errorf("adapters: %s: calls[%d] (%s): %w", fn, i, c.Name, ErrCallID)
			}
		}
	}
	return nil
}

// resultErrorText is the text of an error result: define guarantees a message;
// this guards hand-made results.
func resultErrorText(r define.Result) string {
	if r.Output == "" {
		return "the tool failed without a message"
	}
	return r.Output
}

// resultJSON returns r.Output as JSON when it is a JSON object (kinds
// "object") or a JSON object or array (kinds "object", "array").
func resultJSON(r define.Result, arrays bool) (json.RawMessage, bool) {
	out := bytes.TrimSpace([]byte(r.Output))
	if len(out) == 0 || (out[0] != '{' && !(arrays && out[0] == '[')) {
		return nil, false
	}
	if !json.Valid(out) {
		return nil, false
	}
	if !utf8.Valid(out) {
		// json.Valid lets bytes that are not UTF-8 through in strings;
		// they become \ufffd, as encoding/json makes them in strings.
		return outjson.AppendValid(nil, out), true
	}
	return jsonwire.Compact(out), true
}

// textJoin joins text parts, copying nothing when there is one.
type textJoin struct {
	first string
	b     strings.Builder
	n     int
}

// WriteString adds a part.
func (t *textJoin) WriteString(s string) {
	switch {
	case s == "":
		return
	case t.n == 0:
		t.first = s
	case t.n == 1:
		t.b.WriteString(t.first)
		t.b.WriteString(s)
	default:
		t.b.WriteString(s)
	}
	t.n++
}

// String returns the parts joined.
func (t *textJoin) String() string {
	if t.n <= 1 {
		return t.first
	}
	return t.b.String()
}

// msgQuote quotes s for an error message, cut to 60 bytes.
func msgQuote(s string) string { return msgQuoteN(s, 60) }

// msgQuoteN quotes s for an error message, cut to n bytes.
func msgQuoteN(s string, n int) string { return jsonwire.Quote(s, n) }

var openAIErrorKeys = [4]string{"message", "type", "code", "param"}

var textPartKeys = []string{"type", "text"}

// joinTextParts joins the text of the parts of type partType in an array
// of content parts ({"type":..., "text":...}); other parts are skipped.
func joinTextParts(p replyParser, path loc, content []byte, partType string) (string, error) {
	if err := p.array(path, content); err != nil || content == nil || content[0] != '[' {
		return "", err
	}
	var b textJoin
	path = pointer(path.String()) // once, so that index below makes no path
	err := p.ix.Elems(content, func(i int, part []byte) error {
		if part[0] != '{' {
			return nil
		}
		var v [2][]byte
		if err := p.fields(path.index(i), part, textPartKeys, v[:]); err != nil {
			return err
		}
		if t, _ := jsonwire.Text(v[0]); t != partType {
			return nil
		}
		text, err := p.text(path.index(i).key("/text"), v[1])
		b.WriteString(text)
		return err
	})
	return b.String(), err
}

// resultText is a result as text, for providers without an error flag.
func resultText(r define.Result) string {
	if r.IsError {
		return "error: " + resultErrorText(r)
	}
	return r.Output
}
