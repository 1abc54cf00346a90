package adapters

import (
	"encoding/json"
	"strings"

	"github.com/toolnexus/toolnexus/define"
)

// AnthropicMessage is an Anthropic message to replay: the model's content
// blocks exactly as it sent them (thinking blocks and their signatures must
// come back unmodified).
type AnthropicMessage struct {
	Role    string          `json:"role"` // "assistant"
	Content json.RawMessage `json:"content"`
}

// AnthropicToolResultMessage is the user message that answers a turn's
// tool_use blocks: one tool_result block per call, in call order.
type AnthropicToolResultMessage struct {
	Role    string                `json:"role"` // "user"
	Content []AnthropicToolResult `json:"content"`
}

// AnthropicToolResult is a tool_result content block.
type AnthropicToolResult struct {
	Type      string `json:"type"` // "tool_result"
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content,omitempty"` // omitted when the output is empty (an empty text is rejected)
	IsError   bool   `json:"is_error"`
}

type anthropicMessageWire struct {
	Type       string            `json:"type"`
	Role       string            `json:"role"`
	Content    []json.RawMessage `json:"content"`
	StopReason string            `json:"stop_reason"`
}

type anthropicBlockWire struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	Text  string          `json:"text"`
}

// ParseAnthropicCalls returns the tool calls of an Anthropic Messages
// reply; see [ParseAnthropicReply].
func ParseAnthropicCalls(reply []byte) ([]Call, error) {
	t, err := ParseAnthropicReply(reply)
	return t.Calls, err
}

// ParseAnthropicReply parses an Anthropic Messages API reply (the message
// object the API returns). Every tool_use block becomes a [Call]; its input
// object is the arguments (absent or null input means {}; any other
// non-object is an error wrapping [ErrArguments]). Blocks of tools the
// server runs itself (server_tool_use, web search results) make no calls.
//
// Turn.Replay holds one [AnthropicMessage] with the content as sent;
// Turn.Text joins the text blocks; Turn.Stop is stop_reason.
func ParseAnthropicReply(reply []byte) (Turn, error) {
	p := replyParser{NameAnthropic}
	data, err := p.whole(reply)
	if err != nil {
		return Turn{}, err
	}
	if err := p.object("", data); err != nil {
		return Turn{}, err
	}
	var m anthropicMessageWire
	if err := p.decode("", data, &m); err != nil {
		return Turn{}, err
	}
	if m.Type == "error" {
		return Turn{}, p.fail("", ErrReplyShape, "the reply is an error object, not a message")
	}
	if m.Content == nil {
		return Turn{}, p.fail("content", ErrReplyShape, "missing content")
	}
	if m.Role != "" && m.Role != "assistant" {
		return Turn{}, p.fail("role", ErrReplyShape, "role is %q, not assistant", m.Role)
	}
	turn := Turn{Stop: m.StopReason}
	var text strings.Builder
	for i, raw := range m.Content {
		at := rtIndex("content", i)
		if err := p.object(at, raw); err != nil {
			return Turn{}, err
		}
		var b anthropicBlockWire
		if err := p.decode(at, raw, &b); err != nil {
			return Turn{}, err
		}
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			if b.ID == "" {
				return Turn{}, p.fail(at+".id", ErrReplyShape, "missing id (results are paired by it)")
			}
			if b.Name == "" {
				return Turn{}, p.fail(at+".name", ErrReplyShape, "missing name")
			}
			args, err := p.argsObject(at+".input", b.Input)
			if err != nil {
				return Turn{}, err
			}
			turn.Calls = append(turn.Calls, Call{ID: b.ID, Name: b.Name, Args: args})
		case "":
			return Turn{}, p.fail(at+".type", ErrReplyShape, "missing type")
		}
	}
	turn.Text = text.String()
	content, err := json.Marshal(m.Content)
	if err != nil {
		return Turn{}, p.fail("content", ErrReplyShape, "%v", err)
	}
	turn.Replay = []any{AnthropicMessage{Role: "assistant", Content: content}}
	return turn, nil
}

// AnthropicResults renders the results of calls as the one user message
// that must follow the assistant turn: a tool_result block per call, in
// call order, each with its call's tool_use_id and is_error set for error
// results. The tool_result blocks are the whole content, so they come
// first as the API requires; to add user text, send it as a following user
// message (the API joins consecutive user turns) or append blocks after
// these.
//
// Results and calls must be one to one ([ErrResultCount]), and every call
// needs an id ([ErrCallID]).
func AnthropicResults(calls []Call, results []define.Result) (AnthropicToolResultMessage, error) {
	if err := checkResultPairs("AnthropicResults", calls, results, true); err != nil {
		return AnthropicToolResultMessage{}, err
	}
	msg := AnthropicToolResultMessage{Role: "user", Content: make([]AnthropicToolResult, len(calls))}
	for i, c := range calls {
		r := results[i]
		out := r.Output
		if r.IsError {
			out = resultErrorText(r)
		}
		msg.Content[i] = AnthropicToolResult{Type: "tool_result", ToolUseID: c.ID, Content: out, IsError: r.IsError}
	}
	return msg, nil
}
