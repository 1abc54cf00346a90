package adapters

import (
	"encoding/json"
	"strings"

	"github.com/toolnexus/toolnexus/define"
)

// OpenAIAssistantMessage is an OpenAI Chat assistant message to replay in
// the next request's messages: the model's content and its tool_calls, each
// call's arguments text exactly as the model sent it. Other fields of the
// reply (refusal, annotations, reasoning_content, ...) are left out, as
// some OpenAI-compatible servers reject them in requests.
type OpenAIAssistantMessage struct {
	Role      string           `json:"role"`                 // "assistant"
	Content   json.RawMessage  `json:"content"`              // as the model sent it; null when it sent none
	ToolCalls []OpenAIToolCall `json:"tool_calls,omitempty"` // omitted when there are none
}

// OpenAIToolCall is one entry of an assistant message's tool_calls.
type OpenAIToolCall struct {
	ID       string             `json:"id"`
	Type     string             `json:"type"` // "function"
	Function OpenAIFunctionCall `json:"function"`
}

// OpenAIFunctionCall is the function of an [OpenAIToolCall].
type OpenAIFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // JSON text, as the model sent it
}

// OpenAIToolMessage is the OpenAI Chat message that carries one call's
// result: {"role":"tool","tool_call_id":...,"content":...}.
type OpenAIToolMessage struct {
	Role       string `json:"role"` // "tool"
	ToolCallID string `json:"tool_call_id"`
	Content    string `json:"content"`
}

// wire shapes of a chat completion, decoded level by level for error paths.
type openAICompletionWire struct {
	Choices []json.RawMessage `json:"choices"`
}

type openAIChoiceWire struct {
	Message      json.RawMessage `json:"message"`
	FinishReason string          `json:"finish_reason"`
}

type openAIMessageWire struct {
	Role      string            `json:"role"`
	Content   json.RawMessage   `json:"content"`
	ToolCalls []json.RawMessage `json:"tool_calls"`
}

type openAIToolCallWire struct {
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Function json.RawMessage `json:"function"`
}

type openAIFunctionWire struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ParseOpenAICalls returns the tool calls of an OpenAI Chat Completions
// reply; see [ParseOpenAIReply].
func ParseOpenAICalls(reply []byte) ([]Call, error) {
	t, err := ParseOpenAIReply(reply)
	return t.Calls, err
}

// ParseOpenAIReply parses an OpenAI Chat Completions reply: the whole chat
// completion (its choices[0].message is read) or the assistant message
// alone. Mistral, Cohere v2 and other OpenAI-compatible servers send the
// same shape.
//
// Each call's arguments text is parsed into [Call.Args]: "" and "null" mean
// {} (strict no-argument tools send ""), an object in place of the text is
// accepted, and anything else that is not one JSON object is an error
// wrapping [ErrArguments]. A tool call whose type is not "function" is an
// error wrapping [ErrReplyShape], since its result could not be rendered.
//
// Turn.Replay holds one [OpenAIAssistantMessage]; Turn.Text is the
// message's content; Turn.Stop is the choice's finish_reason.
func ParseOpenAIReply(reply []byte) (Turn, error) {
	p := replyParser{NameOpenAI}
	data, err := p.whole(reply)
	if err != nil {
		return Turn{}, err
	}
	if err := p.object("", data); err != nil {
		return Turn{}, err
	}
	var probe map[string]json.RawMessage
	if err := p.decode("", data, &probe); err != nil {
		return Turn{}, err
	}
	var turn Turn
	msg, path := json.RawMessage(data), ""
	if _, ok := probe["choices"]; ok {
		var c openAICompletionWire
		if err := p.decode("", data, &c); err != nil {
			return Turn{}, err
		}
		if len(c.Choices) == 0 {
			return Turn{}, p.fail("choices", ErrReplyShape, "no choices")
		}
		if err := p.object("choices[0]", c.Choices[0]); err != nil {
			return Turn{}, err
		}
		var ch openAIChoiceWire
		if err := p.decode("choices[0]", c.Choices[0], &ch); err != nil {
			return Turn{}, err
		}
		if ch.Message == nil {
			return Turn{}, p.fail("choices[0]", ErrReplyShape, "no message")
		}
		msg, path, turn.Stop = ch.Message, "choices[0].message", ch.FinishReason
	}
	if err := p.object(path, msg); err != nil {
		return Turn{}, err
	}
	var m openAIMessageWire
	if err := p.decode(path, msg, &m); err != nil {
		return Turn{}, err
	}
	if m.Role != "" && m.Role != "assistant" {
		return Turn{}, p.fail(rtJoin(path, "role"), ErrReplyShape, "role is %q, not assistant", m.Role)
	}
	turn.Text = openAIText(m.Content)
	replay := OpenAIAssistantMessage{Role: "assistant", Content: m.Content}
	if replay.Content == nil {
		replay.Content = json.RawMessage("null")
	}
	for i, raw := range m.ToolCalls {
		at := rtIndex(rtJoin(path, "tool_calls"), i)
		if err := p.object(at, raw); err != nil {
			return Turn{}, err
		}
		var tc openAIToolCallWire
		if err := p.decode(at, raw, &tc); err != nil {
			return Turn{}, err
		}
		if tc.Type != "" && tc.Type != "function" {
			return Turn{}, p.fail(at+".type", ErrReplyShape, "tool call type %q is not supported (only function)", tc.Type)
		}
		if tc.ID == "" {
			return Turn{}, p.fail(at+".id", ErrReplyShape, "missing id (results are paired by it)")
		}
		if tc.Function == nil {
			return Turn{}, p.fail(at, ErrReplyShape, "no function")
		}
		if err := p.object(at+".function", tc.Function); err != nil {
			return Turn{}, err
		}
		var fn openAIFunctionWire
		if err := p.decode(at+".function", tc.Function, &fn); err != nil {
			return Turn{}, err
		}
		if fn.Name == "" {
			return Turn{}, p.fail(at+".function.name", ErrReplyShape, "missing name")
		}
		args, err := p.argsText(at+".function.arguments", fn.Arguments)
		if err != nil {
			return Turn{}, err
		}
		turn.Calls = append(turn.Calls, Call{ID: tc.ID, Name: fn.Name, Args: args})
		text, ok := rtRawText(fn.Arguments)
		if !ok {
			text = string(args) // an object sent in place of the text
		}
		replay.ToolCalls = append(replay.ToolCalls, OpenAIToolCall{
			ID: tc.ID, Type: "function", Function: OpenAIFunctionCall{Name: fn.Name, Arguments: text},
		})
	}
	turn.Replay = []any{replay}
	return turn, nil
}

// openAIText returns the text of a message's content: a string, or an
// array of parts whose text parts are joined.
func openAIText(content json.RawMessage) string {
	if s, ok := rtRawText(content); ok {
		return s
	}
	return joinTextParts(content, "text")
}

// joinTextParts joins the text of the parts of type partType in an array
// of content parts ({"type":..., "text":...}); other parts are skipped.
func joinTextParts(content json.RawMessage, partType string) string {
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, part := range parts {
		if part.Type == partType {
			b.WriteString(part.Text)
		}
	}
	return b.String()
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

// resultText is a result as text, for providers without an error flag.
func resultText(r define.Result) string {
	if r.IsError {
		return "error: " + resultErrorText(r)
	}
	return r.Output
}
