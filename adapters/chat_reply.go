package adapters

import (
	"encoding/json"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// OpenAIAssistantMessage is an OpenAI Chat assistant message to replay in
// the next request's messages: the model's content and its tool_calls, each
// call's arguments text exactly as the model sent it, and the message's
// other members byte for byte (Extra). Response-only members are left out:
// annotations, function_call (null: a legacy function_call is an error),
// and refusal and audio when null.
type OpenAIAssistantMessage struct {
	Role      string           `json:"role"`                 // "assistant"
	Content   json.RawMessage  `json:"content"`              // as the model sent it; null when it sent none
	ToolCalls []OpenAIToolCall `json:"tool_calls,omitempty"` // omitted when there are none

	// Extra is a JSON object of the message's other members as the model
	// sent them (reasoning_content, a non-null refusal, a server's own
	// fields), in order; they follow the members above when the message is
	// marshalled. Nil when there are none. It must not repeat role,
	// content or tool_calls.
	Extra json.RawMessage `json:"-"`
}

// MarshalJSON writes role, content and tool_calls, then Extra's members.
func (m OpenAIAssistantMessage) MarshalJSON() ([]byte, error) {
	type plain OpenAIAssistantMessage
	return marshalWithExtra(plain(m), m.Extra)
}

// size and appendEntry make the message an entryWriter (Body.Append,
// AppendJSON): written by hand, byte for byte as json.Marshal writes it,
// unless it or a call has Extra members or its content is not plain.
func (m OpenAIAssistantMessage) size() int {
	n := 40 + len(m.Role) + len(m.Content)
	for i := range m.ToolCalls {
		c := &m.ToolCalls[i]
		n += 64 + len(c.ID) + len(c.Type) + len(c.Function.Name) + len(c.Function.Arguments) + len(c.Function.Arguments)/8
	}
	return n
}

func (m OpenAIAssistantMessage) appendEntry(b []byte) ([]byte, bool) {
	if len(m.Extra) > 0 {
		return b, false
	}
	for i := range m.ToolCalls {
		if c := &m.ToolCalls[i]; len(c.Extra) > 0 || len(c.Function.Extra) > 0 {
			return b, false
		}
	}
	start := len(b)
	b = append(b, '{')
	b = appendStringMember(b, "role", m.Role)
	b, ok := appendPlainRaw(appendMember(b, "content"), m.Content)
	if !ok {
		return b[:start], false
	}
	if len(m.ToolCalls) > 0 {
		b = appendArray(appendMember(b, "tool_calls"), m.ToolCalls, appendOpenAIToolCall)
	}
	return append(b, '}'), true
}

// appendOpenAIToolCall appends c, which has no Extra members.
func appendOpenAIToolCall(b []byte, c *OpenAIToolCall) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "id", c.ID)
	b = appendStringMember(b, "type", c.Type)
	b = append(appendMember(b, "function"), '{')
	b = appendStringMember(b, "name", c.Function.Name)
	b = appendStringMember(b, "arguments", c.Function.Arguments)
	return append(b, '}', '}')
}

// OpenAIToolCall is one entry of an assistant message's tool_calls.
type OpenAIToolCall struct {
	// ID is the call's id as sent, or the id [ParseOpenAIReply] made for a
	// call sent with an empty one.
	ID       string             `json:"id"`
	Type     string             `json:"type"` // "function"
	Function OpenAIFunctionCall `json:"function"`

	// Extra is a JSON object of the call's other members as sent (such as
	// extra_content, which carries Gemini's thought signature over its
	// OpenAI-compatible endpoint), written after the members above; the
	// streaming index is left out. Nil when there are none; it must not
	// repeat id, type or function.
	Extra json.RawMessage `json:"-"`
}

// MarshalJSON writes id, type and function, then Extra's members.
func (c OpenAIToolCall) MarshalJSON() ([]byte, error) {
	type plain OpenAIToolCall
	return marshalWithExtra(plain(c), c.Extra)
}

// OpenAIFunctionCall is the function of an [OpenAIToolCall].
type OpenAIFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // JSON text, as the model sent it

	// Extra is a JSON object of the function's other members as sent,
	// written after the members above. Nil when there are none; it must
	// not repeat name or arguments.
	Extra json.RawMessage `json:"-"`
}

// MarshalJSON writes name and arguments, then Extra's members.
func (f OpenAIFunctionCall) MarshalJSON() ([]byte, error) {
	type plain OpenAIFunctionCall
	return marshalWithExtra(plain(f), f.Extra)
}

// OpenAIToolMessage is the OpenAI Chat message that carries one call's
// result: {"role":"tool","tool_call_id":...,"content":...}.
type OpenAIToolMessage struct {
	Role       string `json:"role"` // "tool"
	ToolCallID string `json:"tool_call_id"`
	Content    string `json:"content"`
}

// size and appendJSON make the message a jsonAppender (Body.Append,
// AppendJSON), as json.Marshal writes it.
func (m OpenAIToolMessage) size() int {
	return 40 + len(m.Role) + len(m.ToolCallID) + len(m.Content)
}

func (m OpenAIToolMessage) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "role", m.Role)
	b = appendStringMember(b, "tool_call_id", m.ToolCallID)
	b = appendStringMember(b, "content", m.Content)
	return append(b, '}')
}

var (
	openAICompletionKeys = []string{"choices", "error", "usage"}
	openAIChoiceKeys     = []string{"message", "finish_reason"}
	openAIMessageKeys    = []string{"role", "content", "tool_calls", "function_call"}
	openAIToolCallKeys   = []string{"id", "type", "function"}
	// openAIDropped are response-only members of a message that the replay
	// leaves out (the null ones only where the value is given), and with
	// the placeholder quirk also where they hold an empty placeholder.
	openAIDropped     = []string{"annotations"}
	openAIDroppedNull = []string{"refusal", "audio"}
	openAIDroppedAll  = [...][]string{
		{"annotations"}, {"annotations", "refusal"}, {"annotations", "audio"}, {"annotations", "refusal", "audio"},
	}
	// openAIToolCallDropped: a tool call's index is its place in a
	// streamed reply, meaningless in a request; with the placeholder
	// quirk, a custom member that is a placeholder goes too.
	openAIToolCallDropped       = []string{"index"}
	openAIToolCallDroppedCustom = []string{"index", "custom"}
)

// The OpenAI Chat Completions family, a core file: the reader of a reply
// in OpenAI Chat Completions' shape, which the OpenAI home (for OpenAI and
// the compatible servers of its profiles) and the Mistral home share. What
// a server does differently is a chatServer: its name, its call-id rule and
// the deviations from OpenAI's shape it is known to send (its quirks). The
// family's stream assembler is in chat_stream.go.

// chatQuirk is a deviation from OpenAI's reply shape that a server of the
// family is known to send. A reply with a deviation its server does not
// declare is an error, as from OpenAI.
type chatQuirk uint8

const (
	// quirkMadeIDs: a call with an empty or no id (Gemini's and Ollama's
	// OpenAI-compatible endpoints) gets one made from the reply (madeID).
	quirkMadeIDs chatQuirk = 1 << iota
	// quirkArgumentsObject: a call's arguments come as a JSON object, not
	// as the text of one (llama.cpp's server, Ollama's endpoint).
	quirkArgumentsObject
	// quirkNoArguments: a call's function has no arguments member (or a
	// null one) when the call has none: {}.
	quirkNoArguments
	// quirkEmptyFinish: finish_reason "" stands for no reason; the stop
	// reason is told from the message: "tool_calls" when it holds calls,
	// else "stop".
	quirkEmptyFinish
	// quirkPlaceholders: response-only members come as empty placeholders
	// (function_call {"name":"","arguments":""}, audio of empty strings,
	// refusal "", a custom {"name":"","input":""} beside a call's
	// function): they are not read as such and are left out of the replay.
	quirkPlaceholders
	// quirkReasoningApart: completion_tokens leaves out the reasoning
	// tokens (completion_tokens_details.reasoning_tokens), which only
	// total_tokens counts (xAI): Usage.Output adds them.
	quirkReasoningApart
	// quirkThoughtsInTotal: completion_tokens may leave out thoughts that
	// only total_tokens counts, with no reasoning_tokens to say how many
	// (Gemini's OpenAI-compatible endpoint): Usage.Output is
	// total_tokens - prompt_tokens when that is more.
	quirkThoughtsInTotal
)

// chatServer is one server of the family, as its reader and its stream
// assembler see it.
type chatServer struct {
	name   string // Provider.Name and ReplyError.Provider
	what   string // its whole reply in messages: "an OpenAI chat completion"
	quirks chatQuirk
	// madeID is the id of call i of a reply, sent without one (with
	// quirkMadeIDs), from its name and arguments; try counts the ids made
	// before for this call that another call of the reply had. Nil for a
	// server without quirkMadeIDs.
	madeID func(i int, name string, args []byte, try int) string
	// wireID is the id the server takes back for a call's id as sent, or
	// as made by another provider (Mistral's nine characters); nil when
	// every id is taken as sent.
	wireID func(id string) string
	// errorBody returns the error of a reply without choices that is the
	// server's own error body, nil for one that is not (then the reply is
	// read as an assistant message); nil when the server sends OpenAI's
	// {"error":{...}} only.
	errorBody func(p replyParser, data []byte) error
}

// chatAnswerStop is what a finish_reason of the family says of a typed
// answer: "length" (and Mistral's "model_length", its context's end) cut
// it, "content_filter" refused it.
func chatAnswerStop(stop string) answerStop {
	switch stop {
	case "length", "model_length":
		return stopCut
	case "content_filter":
		return stopRefused
	}
	return stopAnswered
}

// chatShape is the reply shape of the family (spec.shape): the homes that
// declare it read each other's replies.
const chatShape = "OpenAI Chat Completions"

func (srv *chatServer) has(q chatQuirk) bool { return srv.quirks&q != 0 }

// wire is the id srv takes back for id.
func (srv *chatServer) wire(id string) string {
	if srv.wireID == nil || id == "" {
		return id
	}
	return srv.wireID(id)
}

// parseChat parses a reply of srv within l: the whole chat completion (its
// choices[0].message is read) or the assistant message alone. See
// [ReplyLimits.ParseOpenAIReply].
func (l ReplyLimits) parseChat(srv *chatServer, reply []byte) (Turn, error) {
	p := l.parser(srv.name)
	p.lazyCompact = true
	data, err := p.whole(reply)
	defer p.release()
	if err != nil {
		return Turn{}, err
	}
	var turn Turn
	msg, path, choices, err := p.chatMessage(srv, data, &turn)
	if err != nil {
		return Turn{}, err
	}
	var m [4][]byte
	if err := p.fields(path, msg, openAIMessageKeys, m[:]); err != nil {
		return Turn{}, err
	}
	if !choices {
		// The assistant message alone: it has a role, or at least tool
		// calls, and no type (an Anthropic message, a Responses item).
		switch {
		case m[0] == nil && m[2] == nil:
			return Turn{}, p.notShape(pointer(""), data, `no "choices" and no "role": not `+srv.what+` or assistant message`)
		case p.ix.Field(data, "type") != nil:
			return Turn{}, p.notShape(pointer(""), data, `no "choices", and a "type", which an assistant message has not: not `+srv.what+` or assistant message`)
		}
	}
	if m[3] != nil && m[3][0] != 'n' && !(srv.has(quirkPlaceholders) && placeholder(m[3])) {
		return Turn{}, p.fail(path.key("/function_call"), ErrReplyShape, "a legacy function_call is not supported (send tools, not functions)")
	}
	role, err := p.text(path.key("/role"), m[0])
	if err != nil {
		return Turn{}, err
	}
	if role != "" && role != "assistant" {
		return Turn{}, p.fail(path.key("/role"), ErrReplyShape, "role is %s, not assistant", msgQuote(role))
	}
	if err := p.array(path.key("/tool_calls"), m[2]); err != nil {
		return Turn{}, err
	}
	replay := OpenAIAssistantMessage{Role: "assistant", Content: json.RawMessage("null")}
	if m[1] != nil {
		replay.Content = p.ix.CompactIn(p.blocks, m[1])
		if turn.Text, err = openAIText(p, path.key("/content"), m[1]); err != nil {
			return Turn{}, err
		}
	}
	replay.Extra = p.ix.ExtraIn(p.blocks, msg, openAIMessageKeys, p.chatDropped(srv, msg), openAIDroppedNull)
	if v := p.ix.Field(msg, "refusal"); v != nil && v[0] == '"' { // else in Extra, as before
		if turn.Refusal, err = p.text(path.key("/refusal"), v); err != nil {
			return Turn{}, err
		}
	}
	if m[2] != nil && m[2][0] == '[' {
		if err := p.chatToolCalls(srv, path.key("/tool_calls"), m[2], &turn, &replay); err != nil {
			return Turn{}, err
		}
	}
	if choices && turn.Stop == "" && srv.has(quirkEmptyFinish) {
		turn.Stop = "stop"
		if len(turn.Calls) > 0 {
			turn.Stop = "tool_calls"
		}
	}
	turn.Replay = []any{replay}
	return turn.noEmptyCalls(), nil
}

// chatMessage reads the envelope of a chat completion data: an error body
// (returned as the error), or its first choice, whose finish_reason goes
// to turn.Stop. It returns the message and where it is; choices is false
// for a reply that is the message alone.
func (p replyParser) chatMessage(srv *chatServer, data []byte, turn *Turn) (msg []byte, path loc, choices bool, err error) {
	var top [3][]byte
	if err := p.fields(pointer(""), data, openAICompletionKeys, top[:]); err != nil {
		return nil, loc{}, false, err
	}
	if top[1] != nil && top[1][0] == '{' {
		return nil, loc{}, false, p.errorObject(pointer("/error"), top[1], &openAIErrorKeys)
	}
	if top[0] == nil {
		if srv.errorBody != nil {
			if err := srv.errorBody(p, data); err != nil {
				return nil, loc{}, false, err
			}
		}
		return data, pointer(""), false, nil
	}
	if top[0][0] != '[' {
		return nil, loc{}, false, p.fail(pointer("/choices"), ErrReplyShape, "expected an array, got %s", jsonwire.Kind(top[0]))
	}
	first := p.ix.First(top[0])
	if first == nil {
		return nil, loc{}, false, p.fail(pointer("/choices"), ErrReplyShape, "no choices")
	}
	var ch [2][]byte
	if err := p.fields(pointer("/choices/0"), first, openAIChoiceKeys, ch[:]); err != nil {
		return nil, loc{}, false, err
	}
	if ch[0] == nil || ch[0][0] == 'n' {
		return nil, loc{}, false, p.fail(pointer("/choices/0"), ErrReplyShape, "no message")
	}
	if turn.Stop, err = p.text(pointer("/choices/0/finish_reason"), ch[1]); err != nil {
		return nil, loc{}, false, err
	}
	if turn.Usage, err = p.chatUsage(srv, top[2]); err != nil {
		return nil, loc{}, false, err
	}
	return ch[0], pointer("/choices/0/message"), true, nil
}

// chatDropped is the list of a message's response-only members that its
// replay leaves out whatever their value: the placeholders too, for a
// server that sends them.
func (p replyParser) chatDropped(srv *chatServer, msg []byte) []string {
	if !srv.has(quirkPlaceholders) {
		return openAIDropped
	}
	k := 0
	if v := p.ix.Field(msg, "refusal"); v != nil && placeholder(v) {
		k |= 1
	}
	if v := p.ix.Field(msg, "audio"); v != nil && placeholder(v) {
		k |= 2
	}
	return openAIDroppedAll[k]
}

// placeholder reports whether the checked value raw is an empty
// placeholder: "", 0, false, null, or an object or array of placeholders.
func placeholder(raw []byte) bool {
	switch raw[0] {
	case '"':
		return len(raw) == 2
	case 'n', 'f':
		return true
	case '0':
		return len(raw) == 1
	case '{', '[':
		return emptyMembers(raw)
	}
	return false
}

// emptyMembers reports whether every value in the checked object or array
// raw is a placeholder: its scalars are "", 0, false or null (strings with
// text, other numbers and true are not).
func emptyMembers(raw []byte) bool {
	for i := 1; i < len(raw)-1; i++ {
		switch c := raw[i]; {
		case c == '"':
			j := i + 1
			for raw[j] != '"' {
				if raw[j] == '\\' {
					j++
				}
				j++
			}
			// A key is followed by ':'; a value must be "".
			if k := jsonwire.SkipSpace(raw, j+1); raw[k] != ':' && j > i+1 {
				return false
			}
			i = j
		case c == 't' || c == '.' || '1' <= c && c <= '9':
			return false
		}
	}
	return true
}

// chatToolCalls reads a message's tool_calls at path into turn and its
// replay: a call per entry, whose id is the server's (srv.wire of it), or,
// for a call sent without one, an id made from the reply.
func (p replyParser) chatToolCalls(srv *chatServer, path loc, list []byte, turn *Turn, replay *OpenAIAssistantMessage) error {
	n := p.ix.Count(list, "", "")
	turn.Calls, replay.ToolCalls = sized[Call](n), sized[OpenAIToolCall](n)
	path = pointer(path.String()) // once, so that index below makes no path
	ids := callIDs{hint: n}
	missing := false // a call came without an id
	err := p.ix.Elems(list, func(i int, raw []byte) error {
		err := p.chatToolCall(srv, path.index(i), raw, &ids, turn, replay)
		missing = missing || err == nil && turn.Calls[i].ID == ""
		return err
	})
	if err != nil || !missing {
		return err
	}
	// Calls sent without an id get an id made from the reply, unique in it.
	for i := range turn.Calls {
		c := &turn.Calls[i]
		if c.ID != "" {
			continue
		}
		id := srv.madeID(i, c.Name, c.Args, 0)
		for try := 1; ids.has(id); try++ {
			id = srv.madeID(i, c.Name, c.Args, try)
		}
		ids.add(id)
		c.ID, replay.ToolCalls[i].ID = id, id
	}
	return nil
}

// chatToolCall reads one entry of tool_calls at at, appending the call to
// turn and its replay to replay.
func (p replyParser) chatToolCall(srv *chatServer, at loc, raw []byte, ids *callIDs, turn *Turn, replay *OpenAIAssistantMessage) error {
	var tc [3][]byte
	callOthers, err := p.fieldsOthers(at, raw, openAIToolCallKeys, tc[:])
	if err != nil {
		return err
	}
	id, err := p.text(at.key("/id"), tc[0])
	if err != nil {
		return err
	}
	if id == "" && !srv.has(quirkMadeIDs) {
		return p.fail(at.key("/id"), ErrReplyShape, "missing id (results are paired by it)")
	}
	typ, err := p.text(at.key("/type"), tc[1])
	if err != nil {
		return err
	}
	if typ != "" && typ != "function" {
		return p.fail(at.key("/type"), ErrReplyShape, "tool call type %s is not supported (only function)", msgQuote(typ))
	}
	name, rawArgs, fnOthers, err := p.function(at, tc[2])
	if err != nil {
		return err
	}
	switch {
	case (rawArgs == nil || rawArgs[0] == 'n') && !srv.has(quirkNoArguments):
		return p.fail(at.key("/function"), ErrArguments, "no arguments (the arguments text, \"{}\" for none)")
	case rawArgs != nil && rawArgs[0] != '"' && rawArgs[0] != 'n' && !srv.has(quirkArgumentsObject):
		return p.fail(at.key("/function/arguments"), ErrArguments, "expected the arguments text (a string), got %s", jsonwire.Kind(rawArgs))
	}
	call := Call{Name: name}
	text, err := p.argsAndText(at.key("/function/arguments"), rawArgs, tokenLimit(turn.Stop), &call)
	if err != nil {
		return err
	}
	id = srv.wire(id)
	if err := p.uniqueID(ids, at.key("/id"), id); err != nil {
		return err
	}
	call.ID = id
	turn.Calls = append(turn.Calls, call)
	replay.ToolCalls = append(replay.ToolCalls, OpenAIToolCall{ID: id, Type: "function", Function: OpenAIFunctionCall{Name: name, Arguments: text}})
	tcall := &replay.ToolCalls[len(replay.ToolCalls)-1]
	if fnOthers > 0 {
		tcall.Function.Extra = p.ix.ExtraIn(p.blocks, tc[2], functionKeys, nil, nil)
	}
	if callOthers > 0 {
		dropped := openAIToolCallDropped
		if srv.has(quirkPlaceholders) {
			if v := p.ix.Field(raw, "custom"); v != nil && placeholder(v) {
				dropped = openAIToolCallDroppedCustom
			}
		}
		tcall.Extra = p.ix.ExtraIn(p.blocks, raw, openAIToolCallKeys, dropped, nil)
	}
	return nil
}

// tokenLimit reports whether a chat completion's finish_reason says the
// reply stopped at its token limit: "length" (OpenAI, and "model_length",
// Mistral's for the model's context).
func tokenLimit(finish string) bool { return finish == "length" || finish == "model_length" }

// openAIText returns the text of a message's content: a string, null, or
// an array of parts whose text parts are joined.
func openAIText(p replyParser, path loc, content []byte) (string, error) {
	if content[0] == '[' {
		return joinTextParts(p, path, content, "text")
	}
	return p.text(path, content)
}
