package adapters

import (
	"encoding/json"
	"strings"

	"github.com/toolnexus/toolnexus/define"
)

// BedrockToolResultMessage is the Bedrock Converse user message that
// answers a turn's toolUse blocks: one toolResult block per call, in call
// order (Converse wants strict user/assistant alternation, so all results
// go in one message).
type BedrockToolResultMessage struct {
	Role    string                   `json:"role"` // "user"
	Content []BedrockToolResultBlock `json:"content"`
}

// BedrockToolResultBlock is a content block holding one toolResult.
type BedrockToolResultBlock struct {
	ToolResult BedrockToolResult `json:"toolResult"`
}

// BedrockToolResult is one call's result.
type BedrockToolResult struct {
	ToolUseID string                     `json:"toolUseId"`
	Content   []BedrockToolResultContent `json:"content"` // never empty
	Status    string                     `json:"status"`  // "success" or "error"
}

// BedrockToolResultContent is one block of a toolResult's content: exactly
// one of json and text.
type BedrockToolResultContent struct {
	JSON json.RawMessage `json:"json,omitempty"`
	Text string          `json:"text,omitempty"`
}

// BedrockEmptyOutput is the text sent for a successful result whose Output
// is empty, since a toolResult's content must not be empty.
const BedrockEmptyOutput = "(no output)"

type bedrockResponseWire struct {
	Output *struct {
		Message json.RawMessage `json:"message"`
	} `json:"output"`
	StopReason string `json:"stopReason"`
}

type bedrockMessageWire struct {
	Role    string            `json:"role"`
	Content []json.RawMessage `json:"content"`
}

type bedrockBlockWire struct {
	Text    *string         `json:"text"`
	ToolUse json.RawMessage `json:"toolUse"`
}

type bedrockToolUseWire struct {
	ToolUseID string          `json:"toolUseId"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

// ParseBedrockCalls returns the tool calls of a Bedrock Converse reply; see
// [ParseBedrockReply].
func ParseBedrockCalls(reply []byte) ([]Call, error) {
	t, err := ParseBedrockReply(reply)
	return t.Calls, err
}

// ParseBedrockReply parses a Bedrock Converse reply: the whole response
// (its output.message is read) or the assistant message alone. Every
// toolUse block becomes a [Call] with its toolUseId and input object
// (absent input means {}).
//
// Turn.Replay holds the assistant message as a [json.RawMessage],
// verbatim (reasoning blocks and their signatures included). Turn.Text
// joins the text blocks; Turn.Stop is stopReason.
func ParseBedrockReply(reply []byte) (Turn, error) {
	p := replyParser{NameBedrock}
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
	if _, ok := probe["output"]; ok {
		var r bedrockResponseWire
		if err := p.decode("", data, &r); err != nil {
			return Turn{}, err
		}
		if r.Output == nil || r.Output.Message == nil || string(r.Output.Message) == "null" {
			return Turn{}, p.fail("output", ErrReplyShape, "no message")
		}
		msg, path, turn.Stop = r.Output.Message, "output.message", r.StopReason
	}
	if err := p.object(path, msg); err != nil {
		return Turn{}, err
	}
	var m bedrockMessageWire
	if err := p.decode(path, msg, &m); err != nil {
		return Turn{}, err
	}
	if m.Content == nil {
		return Turn{}, p.fail(rtJoin(path, "content"), ErrReplyShape, "missing content")
	}
	if m.Role != "" && m.Role != "assistant" {
		return Turn{}, p.fail(rtJoin(path, "role"), ErrReplyShape, "role is %q, not assistant", m.Role)
	}
	var text strings.Builder
	for i, raw := range m.Content {
		at := rtIndex(rtJoin(path, "content"), i)
		if err := p.object(at, raw); err != nil {
			return Turn{}, err
		}
		var b bedrockBlockWire
		if err := p.decode(at, raw, &b); err != nil {
			return Turn{}, err
		}
		if b.Text != nil {
			text.WriteString(*b.Text)
		}
		if b.ToolUse == nil || string(b.ToolUse) == "null" {
			continue
		}
		if err := p.object(at+".toolUse", b.ToolUse); err != nil {
			return Turn{}, err
		}
		var tu bedrockToolUseWire
		if err := p.decode(at+".toolUse", b.ToolUse, &tu); err != nil {
			return Turn{}, err
		}
		if tu.ToolUseID == "" {
			return Turn{}, p.fail(at+".toolUse.toolUseId", ErrReplyShape, "missing toolUseId (results are paired by it)")
		}
		if tu.Name == "" {
			return Turn{}, p.fail(at+".toolUse.name", ErrReplyShape, "missing name")
		}
		args, err := p.argsObject(at+".toolUse.input", tu.Input)
		if err != nil {
			return Turn{}, err
		}
		turn.Calls = append(turn.Calls, Call{ID: tu.ToolUseID, Name: tu.Name, Args: args})
	}
	turn.Text = text.String()
	turn.Replay = []any{rtCompact(append(json.RawMessage(nil), msg...))}
	return turn, nil
}

// BedrockResults renders the results of calls as the one Converse user
// message that answers the assistant turn: a toolResult block per call, in
// call order, with its toolUseId and status "success" or "error".
//
// A result's content is never empty: {"json": Output} when the Output is a
// JSON object, else {"text": Output}; an empty Output is sent as
// [BedrockEmptyOutput] (and an error without a message gets one), since
// Bedrock rejects a toolResult, especially an error one, with empty content.
//
// Results and calls must be one to one ([ErrResultCount]), and every call
// needs an id ([ErrCallID]).
func BedrockResults(calls []Call, results []define.Result) (BedrockToolResultMessage, error) {
	if err := checkResultPairs("BedrockResults", calls, results, true); err != nil {
		return BedrockToolResultMessage{}, err
	}
	msg := BedrockToolResultMessage{Role: "user", Content: make([]BedrockToolResultBlock, len(calls))}
	for i, c := range calls {
		msg.Content[i].ToolResult = bedrockResult(c, results[i])
	}
	return msg, nil
}

func bedrockResult(c Call, r define.Result) BedrockToolResult {
	tr := BedrockToolResult{ToolUseID: c.ID, Status: "success"}
	switch {
	case r.IsError:
		tr.Status = "error"
		tr.Content = []BedrockToolResultContent{{Text: resultErrorText(r)}}
	case r.Output == "":
		tr.Content = []BedrockToolResultContent{{Text: BedrockEmptyOutput}}
	default:
		if v, ok := resultJSON(r, false); ok {
			tr.Content = []BedrockToolResultContent{{JSON: v}}
		} else {
			tr.Content = []BedrockToolResultContent{{Text: r.Output}}
		}
	}
	return tr
}
