package adapters

import (
	"encoding/json"

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

var (
	geminiKeys          = []string{"candidates", "promptFeedback", "error", "parts"}
	geminiCandidateKeys = []string{"content", "finishReason", "finishMessage"}
	geminiContentKeys   = []string{"role", "parts"}
	geminiPartKeys      = []string{"text", "thought", "thoughtSignature", "functionCall"}
	geminiCallKeys      = []string{"id", "name", "args"}
	geminiFeedbackKeys  = []string{"blockReason", "blockReasonMessage"}
	geminiErrorKeys     = [4]string{"message", "status", "code"}
)

// ParseGeminiReply parses a Gemini (or Vertex AI) generateContent reply:
// the whole response (candidates[0].content is read) or the model content
// alone ({"role":"model","parts":[...]}). It is
// [ReplyLimits.ParseGeminiReply] with the default limits.
func ParseGeminiReply(reply []byte) (Turn, error) { return ReplyLimits{}.ParseGeminiReply(reply) }

// ParseGeminiReply parses a Gemini (or Vertex AI) generateContent reply
// within l.
//
// An error body ({"error":{"code","message","status"}}, or a JSON array
// holding one, as Vertex streams send) is a [ReplyError] wrapping
// [ErrProviderError] that quotes it.
//
// Every functionCall part becomes a [Call]: its args object is the
// arguments (absent means {}), its id is kept when present, and the part's
// thoughtSignature is kept in [Call.ThoughtSignature].
//
// Turn.Replay holds the model content as a [json.RawMessage], verbatim, so
// the thought signatures stay on the parts that carried them (Gemini 3
// rejects a replayed functionCall turn without them). Turn.Text joins the
// text parts that are not thoughts; Turn.Stop is the candidate's
// finishReason.
//
// A candidate without content, or whose content has no parts (a blocked or
// empty reply: finishReason SAFETY, RECITATION, PROHIBITED_CONTENT,
// BLOCKLIST, SPII, MALFORMED_FUNCTION_CALL, ...), and a response without
// candidates because the prompt was blocked, are errors wrapping
// [ErrReplyShape] that name the finishReason (or the promptFeedback's
// blockReason): Gemini rejects a replayed content without parts.
func (l ReplyLimits) ParseGeminiReply(reply []byte) (Turn, error) {
	p := l.parser(NameGemini)
	data, err := p.whole(reply)
	if err != nil {
		return Turn{}, err
	}
	if data[0] == '[' {
		return Turn{}, p.geminiArray(data)
	}
	var top [4][]byte
	if err := p.fields(ptr(""), data, geminiKeys, top[:]); err != nil {
		return Turn{}, err
	}
	if top[2] != nil && top[2][0] == '{' {
		return Turn{}, p.errorObject(ptr("/error"), top[2], &geminiErrorKeys)
	}
	var turn Turn
	content, path := data, ptr("")
	switch {
	case top[0] != nil && top[0][0] != 'n':
		if content, err = p.geminiCandidate(top[0], &turn); err != nil {
			return Turn{}, err
		}
		path = ptr("/candidates/0/content")
	case top[1] != nil:
		return Turn{}, p.geminiBlocked(top[1])
	case top[3] == nil:
		return Turn{}, p.fail(ptr(""), ErrReplyShape, "expected a response with candidates or a content with parts")
	}
	var m [2][]byte
	if err := p.fields(path, content, geminiContentKeys, m[:]); err != nil {
		return Turn{}, err
	}
	role, err := p.text(path.key("/role"), m[0])
	if err != nil {
		return Turn{}, err
	}
	if role != "" && role != "model" {
		return Turn{}, p.fail(path.key("/role"), ErrReplyShape, "role is %s, not model", rtQuote(role))
	}
	if err := p.array(path.key("/parts"), m[1]); err != nil {
		return Turn{}, err
	}
	if geminiNoParts(m[1]) {
		return Turn{}, p.fail(ptr("/parts"), ErrReplyShape, "no parts")
	}
	var text textJoin
	n := jCount(m[1], "functionCall", "")
	turn.Calls = sized[Call](n)
	var ids callIDs
	err = jElems(m[1], func(i int, raw []byte) error {
		at := path.key("/parts").index(i)
		var part [4][]byte
		if err := p.fields(at, raw, geminiPartKeys, part[:]); err != nil {
			return err
		}
		s, err := p.text(at.key("/text"), part[0])
		if err != nil {
			return err
		}
		if string(part[1]) != "true" {
			text.WriteString(s)
		}
		if part[3] == nil || part[3][0] == 'n' {
			return nil
		}
		at = at.key("/functionCall")
		var fc [3][]byte
		if err := p.fields(at, part[3], geminiCallKeys, fc[:]); err != nil {
			return err
		}
		var c Call
		if c.ID, err = p.text(at.key("/id"), fc[0]); err != nil {
			return err
		}
		if err := p.uniqueID(&ids, at.key("/id"), c.ID); err != nil {
			return err
		}
		if c.Name, err = p.text(at.key("/name"), fc[1]); err != nil {
			return err
		}
		if c.Name == "" {
			return p.fail(at.key("/name"), ErrReplyShape, "missing name")
		}
		if c.Args, err = p.argsObject(at.key("/args"), fc[2]); err != nil {
			return err
		}
		if c.ThoughtSignature, err = p.text(path.key("/parts").index(i).key("/thoughtSignature"), part[2]); err != nil {
			return err
		}
		turn.Calls = append(turn.Calls, c)
		return nil
	})
	if err != nil {
		return Turn{}, err
	}
	turn.Text = text.String()
	turn.Replay = []any{json.RawMessage(jCompact(content))}
	return turn, nil
}

// geminiCandidate returns the content of the first candidate, setting
// turn.Stop; a candidate without content is an error naming its
// finishReason.
func (p replyParser) geminiCandidate(list []byte, turn *Turn) ([]byte, error) {
	if list[0] != '[' {
		return nil, p.fail(ptr("/candidates"), ErrReplyShape, "expected an array, got %s", jKind(list))
	}
	var first []byte
	_ = jElems(list, func(i int, v []byte) error {
		if i == 0 {
			first = v
		}
		return nil
	})
	if first == nil {
		return nil, p.fail(ptr("/candidates"), ErrReplyShape, "no candidates")
	}
	var c [3][]byte
	if err := p.fields(ptr("/candidates/0"), first, geminiCandidateKeys, c[:]); err != nil {
		return nil, err
	}
	var err error
	if turn.Stop, err = p.text(ptr("/candidates/0/finishReason"), c[1]); err != nil {
		return nil, err
	}
	if c[0] != nil && c[0][0] != 'n' {
		if err := p.object(ptr("/candidates/0/content"), c[0]); err != nil {
			return nil, err
		}
	}
	parts := jField(c[0], "parts")
	if err := p.array(ptr("/candidates/0/content/parts"), parts); err != nil {
		return nil, err
	}
	if geminiNoParts(parts) {
		msg, _ := jText(c[2])
		if msg != "" {
			return nil, p.fail(ptr("/candidates/0"), ErrReplyShape, "no content (finishReason %s: %s)", rtQuote(turn.Stop), rtQuoteN(msg, 200))
		}
		return nil, p.fail(ptr("/candidates/0"), ErrReplyShape, "no content (finishReason %s)", rtQuote(turn.Stop))
	}
	return c[0], nil
}

// geminiNoParts reports whether parts is absent, null or an empty array.
func geminiNoParts(parts []byte) bool {
	return parts == nil || parts[0] == 'n' || parts[0] == '[' && jSkipSpace(parts, 1) == len(parts)-1
}

// geminiBlocked is the error for a response without candidates: the
// prompt was blocked when promptFeedback says why.
func (p replyParser) geminiBlocked(feedback []byte) error {
	var f [2][]byte
	if err := p.fields(ptr("/promptFeedback"), feedback, geminiFeedbackKeys, f[:]); err != nil {
		return err
	}
	reason, err := p.text(ptr("/promptFeedback/blockReason"), f[0])
	if err != nil {
		return err
	}
	if reason == "" {
		return p.fail(ptr(""), ErrReplyShape, "no candidates")
	}
	if msg, _ := jText(f[1]); msg != "" {
		return p.fail(ptr("/promptFeedback/blockReason"), ErrReplyShape, "no candidates: the prompt was blocked (blockReason %s: %s)", rtQuote(reason), rtQuoteN(msg, 200))
	}
	return p.fail(ptr("/promptFeedback/blockReason"), ErrReplyShape, "no candidates: the prompt was blocked (blockReason %s)", rtQuote(reason))
}

// geminiArray is the error for a reply that is an array: the first error
// body in it (Vertex streams send errors as [{"error":{...}}]), or a
// shape error.
func (p replyParser) geminiArray(data []byte) error {
	var found error
	_ = jElems(data, func(i int, v []byte) error {
		if v[0] != '{' {
			return nil
		}
		var top [4][]byte
		if err := p.fields(ptr("").index(i), v, geminiKeys, top[:]); err != nil {
			found = err
			return err
		}
		if top[2] != nil && top[2][0] == '{' {
			found = p.errorObject(ptr("").index(i).key("/error"), top[2], &geminiErrorKeys)
			return found
		}
		return nil
	})
	if found != nil {
		return found
	}
	return p.fail(ptr(""), ErrReplyShape, "expected one response, got an array (a stream: parse each response)")
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
