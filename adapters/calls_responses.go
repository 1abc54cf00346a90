package adapters

import (
	"encoding/json"
	"strings"

	"github.com/toolnexus/toolnexus/define"
)

// ResponsesFunctionCallOutput is the OpenAI Responses input item that
// carries one call's result:
// {"type":"function_call_output","call_id":...,"output":...}.
type ResponsesFunctionCallOutput struct {
	Type   string `json:"type"` // "function_call_output"
	CallID string `json:"call_id"`
	Output string `json:"output"`
}

type responsesWire struct {
	Status string            `json:"status"`
	Output []json.RawMessage `json:"output"`
}

type responsesItemWire struct {
	Type      string          `json:"type"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Content   json.RawMessage `json:"content"`
}

// ParseResponsesCalls returns the function calls of an OpenAI Responses
// reply; see [ParseResponsesReply].
func ParseResponsesCalls(reply []byte) ([]Call, error) {
	t, err := ParseResponsesReply(reply)
	return t.Calls, err
}

// ParseResponsesReply parses an OpenAI Responses API reply: the whole
// response object (its output is read) or the output array of items alone.
//
// Every function_call item becomes a [Call] whose ID is the item's call_id
// (results are paired by call_id, not by the item's fc_ id). Its arguments
// text is parsed as for [ParseOpenAIReply]: "" means {}. Other items
// (reasoning, message, built-in tool calls the server ran) make no calls.
//
// Turn.Replay holds every output item as a [json.RawMessage], verbatim and
// in order, so that reasoning items stay next to the function calls they
// preceded (the API rejects a replayed function_call without its reasoning
// item). Turn.Text joins the output_text parts of message items; Turn.Stop
// is the response's status.
func ParseResponsesReply(reply []byte) (Turn, error) {
	p := replyParser{NameOpenAIResponses}
	data, err := p.whole(reply)
	if err != nil {
		return Turn{}, err
	}
	var turn Turn
	items, path := []json.RawMessage(nil), "output"
	switch data[0] {
	case '[':
		path = ""
		if err := p.decode("", data, &items); err != nil {
			return Turn{}, err
		}
	case '{':
		var r responsesWire
		if err := p.decode("", data, &r); err != nil {
			return Turn{}, err
		}
		if r.Output == nil {
			return Turn{}, p.fail("", ErrReplyShape, "no output (expected a response object or an array of output items)")
		}
		items, turn.Stop = r.Output, r.Status
	default:
		return Turn{}, p.fail("", ErrReplyShape, "expected a response object or an array of output items, got %s", rtKindOf(data))
	}
	var text strings.Builder
	for i, raw := range items {
		at := rtIndex(path, i)
		if err := p.object(at, raw); err != nil {
			return Turn{}, err
		}
		var it responsesItemWire
		if err := p.decode(at, raw, &it); err != nil {
			return Turn{}, err
		}
		turn.Replay = append(turn.Replay, rtCompact(raw))
		switch it.Type {
		case "message":
			text.WriteString(responsesText(it.Content))
		case "function_call":
			if it.CallID == "" {
				return Turn{}, p.fail(at+".call_id", ErrReplyShape, "missing call_id (results are paired by it)")
			}
			if it.Name == "" {
				return Turn{}, p.fail(at+".name", ErrReplyShape, "missing name")
			}
			args, err := p.argsText(at+".arguments", it.Arguments)
			if err != nil {
				return Turn{}, err
			}
			turn.Calls = append(turn.Calls, Call{ID: it.CallID, Name: it.Name, Args: args})
		case "":
			return Turn{}, p.fail(at+".type", ErrReplyShape, "missing type")
		}
	}
	turn.Text = text.String()
	return turn, nil
}

// responsesText joins the output_text parts of a message item's content.
func responsesText(content json.RawMessage) string {
	return joinTextParts(content, "output_text")
}

// ResponsesResults renders the results of calls as OpenAI Responses
// function_call_output input items, one per call in call order, each with
// its call's call_id. Append them to the input after the replayed output
// items.
//
// The Responses API has no error flag, so an error result's output is its
// Output prefixed with "error: ". Results and calls must be one to one
// ([ErrResultCount]), and every call needs an id ([ErrCallID]).
func ResponsesResults(calls []Call, results []define.Result) ([]ResponsesFunctionCallOutput, error) {
	if err := checkResultPairs("ResponsesResults", calls, results, true); err != nil {
		return nil, err
	}
	items := make([]ResponsesFunctionCallOutput, len(calls))
	for i, c := range calls {
		items[i] = ResponsesFunctionCallOutput{Type: "function_call_output", CallID: c.ID, Output: resultText(results[i])}
	}
	return items, nil
}
