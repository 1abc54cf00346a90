package adapters

import (
	"encoding/json"
	"strconv"

	"github.com/toolnexus/toolnexus/define"
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

var (
	openAICompletionKeys = []string{"choices", "error"}
	openAIChoiceKeys     = []string{"message", "finish_reason"}
	openAIMessageKeys    = []string{"role", "content", "tool_calls", "function_call"}
	openAIToolCallKeys   = []string{"id", "type", "function"}
	// openAIDropped are response-only members of a message that the replay
	// leaves out (the null ones only where the value is given).
	openAIDropped     = []string{"annotations"}
	openAIDroppedNull = []string{"refusal", "audio"}
	// openAIToolCallDropped: a tool call's index is its place in a
	// streamed reply, meaningless in a request.
	openAIToolCallDropped = []string{"index"}
)

// ParseOpenAIReply parses an OpenAI Chat Completions reply: the whole chat
// completion (its choices[0].message is read) or the assistant message
// alone. Mistral, Cohere v2 and other OpenAI-compatible servers send the
// same shape. It is [ReplyLimits.ParseOpenAIReply] with the default limits.
func ParseOpenAIReply(reply []byte) (Turn, error) { return ReplyLimits{}.ParseOpenAIReply(reply) }

// ParseOpenAIReply parses an OpenAI Chat Completions reply within l.
//
// An error body ({"error":{"message","type","param","code"}}) is a
// [ReplyError] wrapping [ErrProviderError] that quotes it.
//
// Each call's arguments text is parsed into [Call.Args]: "" and "null" mean
// {} (strict no-argument tools send ""), an object in place of the text is
// accepted, and anything else that is not one JSON object is an error
// wrapping [ErrArguments]. A tool call whose type is not "function" is an
// error wrapping [ErrReplyShape], since its result could not be rendered.
// A call sent with an empty or no id (some OpenAI-compatible servers, and
// Ollama, do) gets one made from its index, name and arguments
// ("call_0_1a2b3c4d"), used by the replay and by the results alike.
//
// Turn.Replay holds one [OpenAIAssistantMessage]; Turn.Text is the
// message's content; Turn.Stop is the choice's finish_reason.
func (l ReplyLimits) ParseOpenAIReply(reply []byte) (Turn, error) {
	p := l.parser(NameOpenAI)
	p.lazyCompact = true
	data, err := p.whole(reply)
	defer p.release()
	if err != nil {
		return Turn{}, err
	}
	var top [2][]byte
	if err := p.fields(pointer(""), data, openAICompletionKeys, top[:]); err != nil {
		return Turn{}, err
	}
	if top[1] != nil && top[1][0] == '{' {
		return Turn{}, p.errorObject(pointer("/error"), top[1], &openAIErrorKeys)
	}
	var turn Turn
	msg, path := data, pointer("")
	if top[0] != nil {
		if top[0][0] != '[' {
			return Turn{}, p.fail(pointer("/choices"), ErrReplyShape, "expected an array, got %s", jsonwire.Kind(top[0]))
		}
		var first []byte
		_ = p.ix.Elems(top[0], func(i int, v []byte) error {
			if i == 0 {
				first = v
			}
			return nil
		})
		if first == nil {
			return Turn{}, p.fail(pointer("/choices"), ErrReplyShape, "no choices")
		}
		var ch [2][]byte
		if err := p.fields(pointer("/choices/0"), first, openAIChoiceKeys, ch[:]); err != nil {
			return Turn{}, err
		}
		if ch[0] == nil || ch[0][0] == 'n' {
			return Turn{}, p.fail(pointer("/choices/0"), ErrReplyShape, "no message")
		}
		if turn.Stop, err = p.text(pointer("/choices/0/finish_reason"), ch[1]); err != nil {
			return Turn{}, err
		}
		msg, path = ch[0], pointer("/choices/0/message")
	}
	var m [4][]byte
	if err := p.fields(path, msg, openAIMessageKeys, m[:]); err != nil {
		return Turn{}, err
	}
	if top[0] == nil {
		// The assistant message alone: it has a role, or at least tool
		// calls, and no type (an Anthropic message, a Responses item).
		switch {
		case m[0] == nil && m[2] == nil:
			return Turn{}, p.notShape(pointer(""), data, `no "choices" and no "role": not an OpenAI chat completion or assistant message`)
		case p.ix.Field(data, "type") != nil:
			return Turn{}, p.notShape(pointer(""), data, `no "choices", and a "type", which an assistant message has not: not an OpenAI chat completion or assistant message`)
		}
	}
	if m[3] != nil && m[3][0] != 'n' {
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
	replay.Extra = p.ix.ExtraIn(p.blocks, msg, openAIMessageKeys, openAIDropped, openAIDroppedNull)
	if m[2] != nil && m[2][0] == '[' {
		if err := p.openAIToolCalls(path.key("/tool_calls"), m[2], &turn, &replay); err != nil {
			return Turn{}, err
		}
	}
	turn.Replay = []any{replay}
	return turn.noEmptyCalls(), nil
}

func (p replyParser) openAIToolCalls(path loc, list []byte, turn *Turn, replay *OpenAIAssistantMessage) error {
	n := p.ix.Count(list, "", "")
	turn.Calls, replay.ToolCalls = sized[Call](n), sized[OpenAIToolCall](n)
	path = pointer(path.String()) // once, so that index below makes no path
	ids := callIDs{hint: n}
	missing := false // a call came without an id
	err := p.ix.Elems(list, func(i int, raw []byte) error {
		at := path.index(i)
		var tc [3][]byte
		callOthers, err := p.fieldsOthers(at, raw, openAIToolCallKeys, tc[:])
		if err != nil {
			return err
		}
		id, err := p.text(at.key("/id"), tc[0])
		if err != nil {
			return err
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
		args, text, err := p.argsAndText(at.key("/function/arguments"), rawArgs)
		if err != nil {
			return err
		}
		missing = missing || id == ""
		if err := p.uniqueID(&ids, at.key("/id"), id); err != nil {
			return err
		}
		turn.Calls = append(turn.Calls, Call{ID: id, Name: name, Args: args})
		tcall := OpenAIToolCall{ID: id, Type: "function", Function: OpenAIFunctionCall{Name: name, Arguments: text}}
		if fnOthers > 0 {
			tcall.Function.Extra = p.ix.ExtraIn(p.blocks, tc[2], functionKeys, nil, nil)
		}
		if callOthers > 0 {
			tcall.Extra = p.ix.ExtraIn(p.blocks, raw, openAIToolCallKeys, openAIToolCallDropped, nil)
		}
		replay.ToolCalls = append(replay.ToolCalls, tcall)
		return nil
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
		id := madeCallID(i, c.Name, c.Args)
		for ids.has(id) {
			id += "_"
		}
		ids.add(id)
		c.ID, replay.ToolCalls[i].ID = id, id
	}
	return nil
}

// madeCallID is the id given to a call sent with an empty one: its index and
// an FNV-1a hash of its name and arguments, so that the same reply always
// gets the same ids.
func madeCallID(i int, name string, args []byte) string {
	h := uint32(2166136261)
	for _, s := range [...][]byte{[]byte(name), {0}, args} {
		for _, b := range s {
			h = (h ^ uint32(b)) * 16777619
		}
	}
	return "call_" + strconv.Itoa(i) + "_" + strconv.FormatUint(uint64(h), 16)
}

// openAIText returns the text of a message's content: a string, null, or
// an array of parts whose text parts are joined.
func openAIText(p replyParser, path loc, content []byte) (string, error) {
	if content[0] == '[' {
		return joinTextParts(p, path, content, "text")
	}
	return p.text(path, content)
}

// OpenAIResults renders the results of calls as OpenAI Chat tool messages,
// one per call in call order, each with its call's tool_call_id. Send them
// right after the assistant message that made the calls; OpenAI rejects a
// request in which any tool_call_id goes unanswered.
//
// Chat has no error flag, so an error result's content is its Output
// prefixed with "error: ". Results and calls must be one to one
// ([ErrResultCount]), and every call needs an id ([ErrCallID]).
func OpenAIResults(calls []Call, results []define.Result) ([]OpenAIToolMessage, error) {
	if err := checkResultPairs("OpenAIResults", calls, results, true); err != nil {
		return nil, err
	}
	msgs := make([]OpenAIToolMessage, len(calls))
	for i, c := range calls {
		msgs[i] = OpenAIToolMessage{Role: "tool", ToolCallID: c.ID, Content: resultText(results[i])}
	}
	return msgs, nil
}
