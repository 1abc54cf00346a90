package adapters

import (
	"encoding/json"
	"strings"

	"github.com/toolnexus/toolnexus/define"
)

// GeminiFunctionResponses is the user content that answers a Gemini model
// turn: exactly one functionResponse part per call, in call order.
type GeminiFunctionResponses struct {
	Role  string                       `json:"role"` // "user"
	Parts []GeminiFunctionResponsePart `json:"parts"`
}

// GeminiFunctionResponsePart is a part holding one functionResponse.
type GeminiFunctionResponsePart struct {
	FunctionResponse GeminiFunctionResponse `json:"functionResponse"`
}

// GeminiFunctionResponse is one call's result.
type GeminiFunctionResponse struct {
	ID       string         `json:"id,omitempty"` // the call's id, echoed when the model sent one
	Name     string         `json:"name"`
	Response GeminiResponse `json:"response"`
}

// GeminiResponse is the response object of a functionResponse: exactly one
// of {"output": ...} and {"error": "..."}.
type GeminiResponse struct {
	// Output is the result: the Output itself when it is a JSON object or
	// array, else the Output as a JSON string.
	Output json.RawMessage `json:"output,omitempty"`
	// Error is an error result's message.
	Error string `json:"error,omitempty"`
}

type geminiResponseWire struct {
	Candidates []json.RawMessage `json:"candidates"`
}

type geminiCandidateWire struct {
	Content      json.RawMessage `json:"content"`
	FinishReason string          `json:"finishReason"`
}

type geminiContentWire struct {
	Role  string            `json:"role"`
	Parts []json.RawMessage `json:"parts"`
}

type geminiPartWire struct {
	Text             *string         `json:"text"`
	Thought          bool            `json:"thought"`
	ThoughtSignature string          `json:"thoughtSignature"`
	FunctionCall     json.RawMessage `json:"functionCall"`
}

type geminiFunctionCallWire struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// ParseGeminiCalls returns the function calls of a Gemini reply; see
// [ParseGeminiReply].
func ParseGeminiCalls(reply []byte) ([]Call, error) {
	t, err := ParseGeminiReply(reply)
	return t.Calls, err
}

// ParseGeminiReply parses a Gemini (or Vertex AI) generateContent reply:
// the whole response (candidates[0].content is read) or the model content
// alone ({"role":"model","parts":[...]}).
//
// Every functionCall part becomes a [Call]: its args object is the
// arguments (absent means {}), its id is kept when present, and the part's
// thoughtSignature is kept in [Call.ThoughtSignature].
//
// Turn.Replay holds the model content as a [json.RawMessage], verbatim, so
// the thought signatures stay on the parts that carried them (Gemini 3
// rejects a replayed functionCall turn without them). Turn.Text joins the
// text parts that are not thoughts; Turn.Stop is the candidate's
// finishReason. A candidate without content (a blocked reply) is an error
// wrapping [ErrReplyShape] that names the finishReason.
func ParseGeminiReply(reply []byte) (Turn, error) {
	p := replyParser{NameGemini}
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
	content, path := json.RawMessage(data), ""
	if _, ok := probe["candidates"]; ok {
		var r geminiResponseWire
		if err := p.decode("", data, &r); err != nil {
			return Turn{}, err
		}
		if len(r.Candidates) == 0 {
			return Turn{}, p.fail("candidates", ErrReplyShape, "no candidates")
		}
		if err := p.object("candidates[0]", r.Candidates[0]); err != nil {
			return Turn{}, err
		}
		var c geminiCandidateWire
		if err := p.decode("candidates[0]", r.Candidates[0], &c); err != nil {
			return Turn{}, err
		}
		if c.Content == nil || string(c.Content) == "null" {
			return Turn{}, p.fail("candidates[0]", ErrReplyShape, "no content (finishReason %q)", c.FinishReason)
		}
		content, path, turn.Stop = c.Content, "candidates[0].content", c.FinishReason
	} else if _, ok := probe["parts"]; !ok {
		return Turn{}, p.fail("", ErrReplyShape, "expected a response with candidates or a content with parts")
	}
	if err := p.object(path, content); err != nil {
		return Turn{}, err
	}
	var m geminiContentWire
	if err := p.decode(path, content, &m); err != nil {
		return Turn{}, err
	}
	if m.Role != "" && m.Role != "model" {
		return Turn{}, p.fail(rtJoin(path, "role"), ErrReplyShape, "role is %q, not model", m.Role)
	}
	var text strings.Builder
	for i, raw := range m.Parts {
		at := rtIndex(rtJoin(path, "parts"), i)
		if err := p.object(at, raw); err != nil {
			return Turn{}, err
		}
		var part geminiPartWire
		if err := p.decode(at, raw, &part); err != nil {
			return Turn{}, err
		}
		if part.Text != nil && !part.Thought {
			text.WriteString(*part.Text)
		}
		if part.FunctionCall == nil || string(part.FunctionCall) == "null" {
			continue
		}
		if err := p.object(at+".functionCall", part.FunctionCall); err != nil {
			return Turn{}, err
		}
		var fc geminiFunctionCallWire
		if err := p.decode(at+".functionCall", part.FunctionCall, &fc); err != nil {
			return Turn{}, err
		}
		if fc.Name == "" {
			return Turn{}, p.fail(at+".functionCall.name", ErrReplyShape, "missing name")
		}
		args, err := p.argsObject(at+".functionCall.args", fc.Args)
		if err != nil {
			return Turn{}, err
		}
		turn.Calls = append(turn.Calls, Call{ID: fc.ID, Name: fc.Name, Args: args, ThoughtSignature: part.ThoughtSignature})
	}
	turn.Text = text.String()
	turn.Replay = []any{rtCompact(append(json.RawMessage(nil), content...))}
	return turn, nil
}

// GeminiResults renders the results of calls as the one user content that
// answers the model's turn: exactly as many functionResponse parts as
// calls, in call order (Gemini rejects a turn whose counts differ), each
// with the call's name and, when the call had one, its id.
//
// The response object is {"output": X} for a result, where X is the Output
// itself when it is a JSON object or array and the Output as a string
// otherwise, and {"error": message} for an error result. The thought
// signatures are not repeated here: they stay on the model's parts in the
// replayed content.
//
// Results and calls must be one to one ([ErrResultCount]).
func GeminiResults(calls []Call, results []define.Result) (GeminiFunctionResponses, error) {
	if err := checkResultPairs("GeminiResults", calls, results, false); err != nil {
		return GeminiFunctionResponses{}, err
	}
	out := GeminiFunctionResponses{Role: "user", Parts: make([]GeminiFunctionResponsePart, len(calls))}
	for i, c := range calls {
		out.Parts[i].FunctionResponse = GeminiFunctionResponse{ID: c.ID, Name: c.Name, Response: geminiResponse(results[i])}
	}
	return out, nil
}

func geminiResponse(r define.Result) GeminiResponse {
	if r.IsError {
		return GeminiResponse{Error: resultErrorText(r)}
	}
	if v, ok := resultJSON(r, true); ok {
		return GeminiResponse{Output: v}
	}
	s, _ := json.Marshal(r.Output) // a string never fails to marshal
	return GeminiResponse{Output: s}
}
