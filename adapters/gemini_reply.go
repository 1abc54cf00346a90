package adapters

import (
	"encoding/json"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
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
	// Parts are the result's images and PDF files, inline (Gemini 3's
	// multimodal function responses); nil for a result without.
	Parts []GeminiMediaPart `json:"parts,omitempty"`
}

// GeminiMediaPart is a part of media: inline data (its type and bytes,
// base64 in JSON), a file by URI, or (in a user content) text.
type GeminiMediaPart struct {
	Text       string          `json:"text,omitempty"`
	InlineData *GeminiBlob     `json:"inlineData,omitempty"`
	FileData   *GeminiFileData `json:"fileData,omitempty"`
}

// GeminiBlob is inline data: its MIME type and its bytes.
type GeminiBlob struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"data"`
}

// GeminiFileData is a file by URI, of a MIME type.
type GeminiFileData struct {
	MIMEType string `json:"mimeType"`
	FileURI  string `json:"fileUri"`
}

// size and appendJSON make the content a jsonAppender (AppendJSON).
func (c GeminiFunctionResponses) size() int {
	n := 32 + len(c.Role)
	for i := range c.Parts {
		fr := &c.Parts[i].FunctionResponse
		n += 96 + len(fr.ID) + len(fr.Name) + len(fr.Response.Output) + len(fr.Response.Error) + geminiPartsSize(fr.Parts)
	}
	return n
}

func (c GeminiFunctionResponses) appendJSON(b []byte) []byte {
	return appendRoleList(b, c.Role, "parts", c.Parts, appendGeminiFunctionResponse)
}

func appendGeminiFunctionResponse(b []byte, part *GeminiFunctionResponsePart) []byte {
	fr := &part.FunctionResponse
	return appendGeminiFR(b, fr.ID, fr.Name, &fr.Response, fr.Parts)
}

func appendGeminiFunctionTextResponse(b []byte, part *GeminiFunctionTextResponsePart) []byte {
	fr := &part.FunctionResponse
	return appendGeminiFR(b, fr.ID, fr.Name, &fr.Response, nil)
}

// appendGeminiFR appends a part of one functionResponse, as json.Marshal
// writes it.
func appendGeminiFR(b []byte, id, name string, r *GeminiResponse, parts []GeminiMediaPart) []byte {
	b = append(b, `{"functionResponse":{`...)
	if id != "" {
		b = appendStringMember(b, "id", id)
	}
	b = appendStringMember(b, "name", name)
	b = appendMember(b, "response")
	b = append(b, '{')
	if len(r.Output) > 0 {
		b = appendMember(b, "output")
		b, _ = appendRaw(b, r.Output) // compact JSON this package made
	}
	if r.Error != "" {
		b = appendStringMember(b, "error", r.Error)
	}
	b = append(b, '}')
	if len(parts) > 0 {
		b = appendGeminiParts(appendMember(b, "parts"), parts)
	}
	return append(b, '}', '}')
}

// GeminiFunctionTextResponses is the user content that answers a turn's
// calls when no result has parts, as [ForGemini]'s Provider.Results gives
// it: the same JSON as the [GeminiFunctionResponses] of those results, in
// types without the parts member, which encoding/json would check on each
// result.
type GeminiFunctionTextResponses struct {
	Role  string                           `json:"role"` // "user"
	Parts []GeminiFunctionTextResponsePart `json:"parts"`
}

// GeminiFunctionTextResponsePart is a part holding one functionResponse
// without parts.
type GeminiFunctionTextResponsePart struct {
	FunctionResponse GeminiFunctionTextResponse `json:"functionResponse"`
}

// GeminiFunctionTextResponse is one call's result, without parts.
type GeminiFunctionTextResponse struct {
	ID       string         `json:"id,omitempty"` // the call's id, echoed when the model sent one
	Name     string         `json:"name"`
	Response GeminiResponse `json:"response"`
}

// geminiTextResults renders results without parts.
func geminiTextResults(fn string, calls []Call, results []define.Result) ([]any, error) {
	if err := checkResultPairs(fn, calls, results, false); err != nil {
		return nil, err
	}
	out := GeminiFunctionTextResponses{Role: "user", Parts: make([]GeminiFunctionTextResponsePart, len(calls))}
	for i, c := range calls {
		out.Parts[i].FunctionResponse = GeminiFunctionTextResponse{ID: c.ID, Name: c.Name, Response: geminiResponse(results[i], nil)}
	}
	return []any{out}, nil
}

// size and appendJSON make the content a jsonAppender (AppendJSON).
func (c GeminiFunctionTextResponses) size() int {
	n := 32 + len(c.Role)
	for i := range c.Parts {
		fr := &c.Parts[i].FunctionResponse
		n += 96 + len(fr.ID) + len(fr.Name) + len(fr.Response.Output) + len(fr.Response.Error)
	}
	return n
}

func (c GeminiFunctionTextResponses) appendJSON(b []byte) []byte {
	return appendRoleList(b, c.Role, "parts", c.Parts, appendGeminiFunctionTextResponse)
}

func (c GeminiMediaContent) size() int { return 32 + len(c.Role) + geminiPartsSize(c.Parts) }

func (c GeminiMediaContent) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "role", c.Role)
	b = appendGeminiParts(appendMember(b, "parts"), c.Parts)
	return append(b, '}')
}

func geminiPartsSize(parts []GeminiMediaPart) int {
	n := 2
	for _, p := range parts {
		n += 64 + len(p.Text)
		if p.InlineData != nil {
			n += len(p.InlineData.MIMEType) + base64Size(len(p.InlineData.Data))
		}
		if p.FileData != nil {
			n += len(p.FileData.MIMEType) + len(p.FileData.FileURI)
		}
	}
	return n
}

// appendGeminiParts appends parts as json.Marshal writes them.
func appendGeminiParts(b []byte, parts []GeminiMediaPart) []byte {
	return appendArray(b, parts, appendGeminiPart)
}

func appendGeminiPart(b []byte, p *GeminiMediaPart) []byte {
	b = append(b, '{')
	if p.Text != "" {
		b = appendStringMember(b, "text", p.Text)
	}
	if d := p.InlineData; d != nil {
		b = appendMember(b, "inlineData")
		b = append(b, '{')
		b = appendStringMember(b, "mimeType", d.MIMEType)
		b = appendMember(b, "data")
		b = appendBytes(b, d.Data)
		b = append(b, '}')
	}
	if f := p.FileData; f != nil {
		b = appendMember(b, "fileData")
		b = append(b, '{')
		b = appendStringMember(b, "mimeType", f.MIMEType)
		b = appendStringMember(b, "fileUri", f.FileURI)
		b = append(b, '}')
	}
	return append(b, '}')
}

// GeminiMediaContent is the user content that carries, after the
// function responses, the media Gemini takes only there (audio, images
// and files by URL, other types), or all of it with
// [GeminiMediaInUserTurn]: for each part, a text part naming its call,
// then the part.
type GeminiMediaContent struct {
	Role  string            `json:"role"` // "user"
	Parts []GeminiMediaPart `json:"parts"`
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
	geminiKeys          = []string{"candidates", "promptFeedback", "error", "parts", "usageMetadata"}
	geminiCandidateKeys = []string{"content", "finishReason", "finishMessage"}
	geminiContentKeys   = []string{"role", "parts"}
	geminiPartKeys      = []string{"text", "thought", "thoughtSignature", "functionCall"}
	geminiCallKeys      = []string{"id", "name", "args"}
	geminiFeedbackKeys  = []string{"blockReason", "blockReasonMessage"}
	geminiErrorKeys     = [4]string{"message", "status", "code"}
)

// ParseGeminiReply parses a Gemini (or Vertex AI) generateContent reply:
// the whole response (candidates[0].content is read), the model content
// alone ({"role":"model","parts":[...]}), or a stream of responses in one
// JSON array (streamGenerateContent without alt=sse, or the chunks of an
// SSE stream collected in order), which gives the one turn of the whole
// stream. It is [ReplyLimits.ParseGeminiReply] with the default limits.
func ParseGeminiReply(reply []byte) (Turn, error) { return ReplyLimits{}.ParseGeminiReply(reply) }

// ParseGeminiReply parses a Gemini (or Vertex AI) generateContent reply
// within l: one response, one model content, or a stream of responses in
// a JSON array.
//
// An error body ({"error":{"code","message","status"}}, or a JSON array
// holding one anywhere, as Vertex streams send) is a [ReplyError] wrapping
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
//
// A JSON array is read as the chunks of one streamed turn, in order. Each
// chunk is read as a response is, with the same checks (a model content
// alone is accepted as a chunk too), and the limits apply to the whole
// array. A chunk may lack content or parts (a last chunk with only a
// finishReason or usageMetadata). The turn is the whole stream's:
// Turn.Calls holds the functionCall parts of every chunk, in order, their
// ids unique across the stream; Turn.Text joins the text parts that are
// not thoughts of every chunk; Turn.Stop is the last finishReason sent.
// Turn.Replay is one model content, {"role":"model","parts":[...]}, whose
// parts are the parts of every chunk, in order, each as sent (without
// insignificant space), never merged: a thoughtSignature stays on the
// part that carried it, at its position, even on a part with empty text.
//
// An empty array, a stream without any part, a stream whose last
// finishReason is not STOP, MAX_TOKENS or FINISH_REASON_UNSPECIFIED and
// arrives in a chunk without parts (SAFETY after streamed text, say), and
// a chunk without candidates whose promptFeedback has a blockReason are
// errors wrapping [ErrReplyShape] that name the reason and point at the
// chunk ("/2/candidates/0/finishReason").
func (l ReplyLimits) ParseGeminiReply(reply []byte) (Turn, error) {
	p := l.parser(NameGemini)
	data, err := p.whole(reply)
	defer p.release()
	if err != nil {
		return Turn{}, err
	}
	if data[0] == '[' {
		return p.geminiStream(data)
	}
	var top [5][]byte
	if err := p.fields(pointer(""), data, geminiKeys, top[:]); err != nil {
		return Turn{}, err
	}
	if top[2] != nil && top[2][0] == '{' {
		return Turn{}, p.errorObject(pointer("/error"), top[2], &geminiErrorKeys)
	}
	var g geminiTurn
	content, path := data, pointer("")
	switch {
	case top[0] != nil && top[0][0] != 'n':
		if content, err = p.geminiCandidate(top[0], &g.turn); err != nil {
			return Turn{}, err
		}
		path = pointer("/candidates/0/content")
	case top[1] != nil:
		if err := p.geminiBlocked(pointer(""), top[1]); err != nil {
			return Turn{}, err
		}
		return Turn{}, p.fail(pointer(""), ErrReplyShape, "no candidates")
	case top[3] == nil:
		return Turn{}, p.notShape(pointer(""), data, `no "candidates" and no "parts": not a Gemini response or content`)
	}
	parts, err := p.geminiContent(path, content)
	if err != nil {
		return Turn{}, err
	}
	if geminiNoParts(parts) {
		return Turn{}, p.fail(pointer("/parts"), ErrReplyShape, "no parts")
	}
	if err := p.geminiParts(path, parts, &g); err != nil {
		return Turn{}, err
	}
	if g.turn.Usage, err = p.geminiUsage(pointer("/usageMetadata"), top[4]); err != nil {
		return Turn{}, err
	}
	g.turn.Text = g.text.String()
	g.turn.Replay = []any{json.RawMessage(p.ix.CompactIn(p.blocks, content))}
	return g.turn.noEmptyCalls(), nil
}

// geminiTurn gathers a turn from the parts of one content or of the
// contents of a stream.
type geminiTurn struct {
	turn Turn
	text textJoin
	ids  callIDs
}

// geminiContent checks the model content at path (an object: its role,
// when set, is model) and returns its parts, checked to be an array when
// present and not null.
func (p replyParser) geminiContent(path loc, content []byte) ([]byte, error) {
	var m [2][]byte
	if err := p.fields(path, content, geminiContentKeys, m[:]); err != nil {
		return nil, err
	}
	if string(m[0]) != `"model"` { // a stream repeats it in every chunk: no string for it
		role, err := p.text(path.key("/role"), m[0])
		if err != nil {
			return nil, err
		}
		if role != "" && role != "model" {
			return nil, p.fail(path.key("/role"), ErrReplyShape, "role is %s, not model", msgQuote(role))
		}
	}
	if err := p.array(path.key("/parts"), m[1]); err != nil {
		return nil, err
	}
	return m[1], nil
}

// geminiParts reads the parts of the content at path into g: the text
// that is not thought, and a call for every functionCall part.
func (p replyParser) geminiParts(path loc, parts []byte, g *geminiTurn) error {
	if n := p.ix.Count(parts, "functionCall", ""); n > 0 {
		g.turn.Calls = growDouble(g.turn.Calls, n)
	}
	list := pointer(path.key("/parts").String()) // once, so that index below makes no path
	return p.ix.Elems(parts, func(i int, raw []byte) error {
		at := list.index(i)
		var part [4][]byte
		if err := p.fields(at, raw, geminiPartKeys, part[:]); err != nil {
			return err
		}
		s, err := p.text(at.key("/text"), part[0])
		if err != nil {
			return err
		}
		if string(part[1]) != "true" {
			g.text.WriteString(s)
		}
		// Checked on every part, as every part is replayed with it.
		sig, err := p.text(at.key("/thoughtSignature"), part[2])
		if err != nil {
			return err
		}
		if part[3] == nil || part[3][0] == 'n' {
			return nil
		}
		fcAt := at.key("/functionCall")
		var fc [3][]byte
		if err := p.fields(fcAt, part[3], geminiCallKeys, fc[:]); err != nil {
			return err
		}
		var c Call
		if c.ID, err = p.text(fcAt.key("/id"), fc[0]); err != nil {
			return err
		}
		if err := p.uniqueID(&g.ids, fcAt.key("/id"), c.ID); err != nil {
			return err
		}
		if c.Name, err = p.text(fcAt.key("/name"), fc[1]); err != nil {
			return err
		}
		if c.Name == "" {
			return p.fail(fcAt.key("/name"), ErrReplyShape, "missing name")
		}
		if c.Args, err = p.argsObject(fcAt.key("/args"), fc[2]); err != nil {
			return err
		}
		c.ThoughtSignature = sig
		g.turn.Calls = append(g.turn.Calls, c)
		return nil
	})
}

// geminiCandidate returns the content of the first candidate, setting
// turn.Stop; a candidate without content is an error naming its
// finishReason.
func (p replyParser) geminiCandidate(list []byte, turn *Turn) ([]byte, error) {
	if list[0] != '[' {
		return nil, p.fail(pointer("/candidates"), ErrReplyShape, "expected an array, got %s", jsonwire.Kind(list))
	}
	first := p.ix.First(list)
	if first == nil {
		return nil, p.fail(pointer("/candidates"), ErrReplyShape, "no candidates")
	}
	var c [3][]byte
	if err := p.fields(pointer("/candidates/0"), first, geminiCandidateKeys, c[:]); err != nil {
		return nil, err
	}
	var err error
	if turn.Stop, err = p.text(pointer("/candidates/0/finishReason"), c[1]); err != nil {
		return nil, err
	}
	if c[0] != nil && c[0][0] != 'n' {
		if err := p.object(pointer("/candidates/0/content"), c[0]); err != nil {
			return nil, err
		}
	}
	parts := p.ix.Field(c[0], "parts")
	if err := p.array(pointer("/candidates/0/content/parts"), parts); err != nil {
		return nil, err
	}
	if geminiNoParts(parts) {
		return nil, p.geminiNoContent(pointer("/candidates/0"), turn.Stop, c[2])
	}
	return c[0], nil
}

// geminiNoContent is the error for a candidate at path without parts: it
// names the finishReason stop and quotes the finishMessage msg, if any.
func (p replyParser) geminiNoContent(path loc, stop string, msg []byte) error {
	if m, _ := jsonwire.Text(msg); m != "" {
		return p.fail(path, ErrReplyShape, "no content (finishReason %s: %s)", msgQuote(stop), msgQuoteN(m, 200))
	}
	return p.fail(path, ErrReplyShape, "no content (finishReason %s)", msgQuote(stop))
}

// geminiNoParts reports whether parts is absent, null or an empty array.
func geminiNoParts(parts []byte) bool {
	return parts == nil || parts[0] == 'n' || parts[0] == '[' && jsonwire.SkipSpace(parts, 1) == len(parts)-1
}

// geminiBlocked is the error for a response at at without candidates
// whose promptFeedback says the prompt was blocked; nil when the feedback
// has no blockReason.
func (p replyParser) geminiBlocked(at loc, feedback []byte) error {
	at = at.key("/promptFeedback")
	var f [2][]byte
	if err := p.fields(at, feedback, geminiFeedbackKeys, f[:]); err != nil {
		return err
	}
	reason, err := p.text(at.key("/blockReason"), f[0])
	if err != nil || reason == "" {
		return err
	}
	if msg, _ := jsonwire.Text(f[1]); msg != "" {
		return p.fail(at.key("/blockReason"), ErrReplyShape, "no candidates: the prompt was blocked (blockReason %s: %s)", msgQuote(reason), msgQuoteN(msg, 200))
	}
	return p.fail(at.key("/blockReason"), ErrReplyShape, "no candidates: the prompt was blocked (blockReason %s)", msgQuote(reason))
}

// geminiStream gathers the chunks of a stream into one turn, in one pass
// over the array. An error body or a case-variant key at the top of a
// chunk is reported first, wherever it is (a stream cut by an error may
// hold chunks that do not parse before it): after the first other error,
// the rest of the array is only searched for one.
func (p replyParser) geminiStream(data []byte) (Turn, error) {
	s := geminiStreamState{stopAt: -1}
	var small [8][]byte
	lists := small[:0] // the parts arrays that are not empty, in order
	var failed error
	n := 0
	err := p.ix.Elems(data, func(i int, v []byte) error {
		n++
		if v[0] != '{' {
			if failed == nil {
				failed = p.fail(pointer("").index(i), ErrReplyShape, "expected a response, got %s", jsonwire.Kind(v))
			}
			return nil
		}
		var top [5][]byte
		if err := p.fields(pointer("").index(i), v, geminiKeys, top[:]); err != nil {
			return err
		}
		if top[2] != nil && top[2][0] == '{' {
			return p.errorObject(pointer("").index(i).key("/error"), top[2], &geminiErrorKeys)
		}
		if failed != nil {
			return nil
		}
		s.gemini = s.gemini || top[0] != nil || top[1] != nil || top[3] != nil
		if u := top[4]; u != nil && u[0] != 'n' {
			s.usage, s.usageAt = u, i // the last chunk's: each counts the stream so far
		}
		parts, err := p.geminiChunk(i, v, &top, &s)
		if err != nil {
			failed = err
		} else if parts != nil {
			lists = append(growDouble(lists, 1), parts)
			s.stopParts = s.stopParts || s.stopAt == i
		}
		return nil
	})
	switch {
	case err != nil:
		return Turn{}, err
	case failed != nil:
		return Turn{}, failed
	case n == 0:
		return Turn{}, p.fail(pointer(""), ErrReplyShape, "an empty array: expected a response or a stream of responses")
	}
	if len(lists) == 0 || !s.stopParts && geminiCut(s.turn.Stop) {
		switch {
		case !s.gemini:
			return Turn{}, p.notShape(pointer(""), data, `no "candidates" and no "parts" in any response of the stream: not a Gemini stream`)
		case s.stopAt < 0:
			return Turn{}, p.fail(pointer(""), ErrReplyShape, "no parts in any response of the stream")
		}
		return Turn{}, p.geminiNoContent(pointer("").index(s.stopAt).key("/candidates/0/finishReason"), s.turn.Stop, s.stopMsg)
	}
	if s.usage != nil {
		var err error
		if s.turn.Usage, err = p.geminiUsage(pointer("").index(s.usageAt).key("/usageMetadata"), s.usage); err != nil {
			return Turn{}, err
		}
	}
	s.turn.Text = s.text.String()
	s.turn.Replay = []any{geminiJoin(p.ix, lists)}
	return s.turn.noEmptyCalls(), nil
}

// geminiCut reports whether the finishReason stop says a stream was cut
// (SAFETY, RECITATION, MALFORMED_FUNCTION_CALL, ...), not ended as the
// model meant or at the token limit.
func geminiCut(stop string) bool {
	switch stop {
	case "", "STOP", "MAX_TOKENS", "FINISH_REASON_UNSPECIFIED":
		return false
	}
	return true
}

// geminiStreamState is what a stream's chunks gather.
type geminiStreamState struct {
	geminiTurn
	stopAt    int    // the chunk of the last finishReason; -1 before one
	stopMsg   []byte // its finishMessage
	stopParts bool   // whether its candidate had parts
	gemini    bool   // whether a chunk had candidates, promptFeedback or parts
	usage     []byte // the last usageMetadata, nil before one
	usageAt   int    // its chunk
}

// geminiChunk reads chunk i of a stream, whose top-level fields are top,
// into s, and returns its parts array when it has parts.
func (p replyParser) geminiChunk(i int, chunk []byte, top *[5][]byte, s *geminiStreamState) ([]byte, error) {
	at := pointer("").index(i)
	content, path := chunk, at
	switch {
	case top[0] != nil && top[0][0] != 'n':
		if top[0][0] != '[' {
			return nil, p.fail(at.key("/candidates"), ErrReplyShape, "expected an array, got %s", jsonwire.Kind(top[0]))
		}
		first := p.ix.First(top[0])
		if first == nil {
			return nil, nil
		}
		var c [3][]byte
		if err := p.fields(at.key("/candidates/0"), first, geminiCandidateKeys, c[:]); err != nil {
			return nil, err
		}
		stop, err := p.text(at.key("/candidates/0/finishReason"), c[1])
		if err != nil {
			return nil, err
		}
		if stop != "" {
			s.turn.Stop, s.stopAt, s.stopMsg, s.stopParts = stop, i, c[2], false
		}
		if c[0] == nil || c[0][0] == 'n' {
			return nil, nil
		}
		if err := p.object(at.key("/candidates/0/content"), c[0]); err != nil {
			return nil, err
		}
		content, path = c[0], at.key("/candidates/0/content")
	case top[1] != nil:
		return nil, p.geminiBlocked(at, top[1])
	case top[3] == nil:
		return nil, nil // usageMetadata alone, say
	}
	parts, err := p.geminiContent(path, content)
	if err != nil || geminiNoParts(parts) {
		return nil, err
	}
	if err := p.geminiParts(path, parts, &s.geminiTurn); err != nil {
		return nil, err
	}
	return parts, nil
}

// growDouble returns s with room for n more elements: the exact room for
// a nil s, else at least twice the capacity, since append's slower growth
// of large slices allocates about five times the final size for a slice
// grown one element at a time (a stream of many one-call chunks).
func growDouble[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	if s == nil {
		return make([]T, 0, n)
	}
	return append(make([]T, 0, max(len(s)+n, 2*cap(s))), s...)
}

// geminiJoin returns the model content whose parts are the elements of
// the checked parts arrays lists, in order, each without insignificant
// space, in one allocation of the exact size. x is their text's index.
func geminiJoin(x *jsonwire.Index, lists [][]byte) json.RawMessage {
	const head, tail = `{"role":"model","parts":[`, `]}`
	n := len(head) + len(tail) + len(lists) - 1
	for _, l := range lists {
		n += len(l) - 2 - x.Spaces(l) // the brackets are not space
	}
	b := append(make([]byte, 0, n), head...)
	for i, l := range lists {
		if i > 0 {
			b = append(b, ',')
		}
		if !x.Recorded(l) {
			b = x.AppendCompact(b, l[1:len(l)-1])
			continue
		}
		c := x.Compact(l) // a slice of the compacted reply
		b = append(b, c[1:len(c)-1]...)
	}
	return append(b, tail...)
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
// A result's text parts and text files follow its text, one a line (X is
// then a string); a result of parts alone has the response {}. Its images (PNG, JPEG, WebP) and PDF files go inside
// its functionResponse as inline parts, Gemini 3's multimodal function
// responses; audio, other types, and parts by URL go in a user content
// after the function responses (Gemini takes them only there), which
// this function's return type cannot hold: such results are an error
// wrapping [ErrMediaMessage] here; render them with
// [GeminiResultsAndMedia] or [Provider.Results], or with [MediaAsNote].
// [GeminiMediaInUserTurn] sends every part in that user content, for
// models before Gemini 3.
//
// Results and calls must be one to one ([ErrResultCount]).
func GeminiResults(calls []Call, results []define.Result, opts ...Option) (GeminiFunctionResponses, error) {
	cfg, err := resultsConfig(geminiSpec, "GeminiResults", opts, true)
	if err != nil {
		return GeminiFunctionResponses{}, err
	}
	out, attach, err := geminiResults(geminiSpec, "GeminiResults", calls, results, cfg)
	if err == nil {
		err = followsError("GeminiResults", "GeminiResultsAndMedia", attach)
	}
	if err != nil {
		return GeminiFunctionResponses{}, err
	}
	return out, nil
}

// GeminiResultsAndMedia is [GeminiResults] with the media Gemini takes
// only in a user content: the function responses, then the user content
// to send right after them ([GeminiMediaContent]: for each part, a text
// part naming its call, then an inlineData or fileData part). media is
// nil when no result has such parts.
func GeminiResultsAndMedia(calls []Call, results []define.Result, opts ...Option) (responses GeminiFunctionResponses, media *GeminiMediaContent, err error) {
	cfg, err := resultsConfig(geminiSpec, "GeminiResultsAndMedia", opts, true)
	if err != nil {
		return GeminiFunctionResponses{}, nil, err
	}
	out, attach, err := geminiResults(geminiSpec, "GeminiResultsAndMedia", calls, results, cfg)
	if err != nil {
		return GeminiFunctionResponses{}, nil, err
	}
	return out, geminiMediaContent(attach), nil
}

func geminiResults(p *spec, fn string, calls []Call, results []define.Result, cfg config) (GeminiFunctionResponses, []attachment, error) {
	if err := checkResultPairs(fn, calls, results, false); err != nil {
		return GeminiFunctionResponses{}, nil, err
	}
	out := GeminiFunctionResponses{Role: "user", Parts: make([]GeminiFunctionResponsePart, len(calls))}
	m := newMedia(p, fn, cfg)
	for i, c := range calls {
		pieces, err := m.pieces(i, &calls[i], &results[i])
		if err != nil {
			return GeminiFunctionResponses{}, nil, err
		}
		fr := GeminiFunctionResponse{ID: c.ID, Name: c.Name, Response: geminiResponse(results[i], pieces)}
		for _, pc := range pieces {
			if pc.part != nil {
				fr.Parts = append(fr.Parts, geminiMediaPart(pc.part))
			}
		}
		out.Parts[i].FunctionResponse = fr
	}
	return out, m.attach, nil
}

func geminiResponse(r define.Result, pieces []piece) GeminiResponse {
	texts := false
	for _, pc := range pieces {
		texts = texts || pc.part == nil
	}
	if r.IsError {
		return GeminiResponse{Error: joinText(resultErrorText(r), pieces)}
	}
	if !texts {
		if v, ok := resultJSON(r, true); ok {
			return GeminiResponse{Output: v}
		}
		if r.Output == "" && len(pieces) > 0 {
			return GeminiResponse{} // the parts are the output: {}
		}
	}
	s, _ := json.Marshal(joinText(r.Output, pieces)) // a string never fails to marshal
	return GeminiResponse{Output: s}
}

var (
	geminiUsageKeys  = []string{"promptTokenCount", "candidatesTokenCount", "cachedContentTokenCount", "thoughtsTokenCount", "toolUsePromptTokenCount"}
	geminiUsagePaths = [...]string{"/promptTokenCount", "/candidatesTokenCount", "/cachedContentTokenCount", "/thoughtsTokenCount", "/toolUsePromptTokenCount"}
)

// geminiUsage reads the usageMetadata raw at at. Gemini's JSON leaves out
// a count that is zero, so a count absent from it is 0. promptTokenCount
// counts the cached content (cachedContentTokenCount) but not the
// tool-use prompt (toolUsePromptTokenCount, the results of the tools the
// server ran), which Input adds; candidatesTokenCount leaves out the
// thoughts (thoughtsTokenCount), which Output adds. Gemini does not count
// cache writes (CacheWrite is unknown).
func (p replyParser) geminiUsage(at loc, raw []byte) (Usage, error) {
	var u Usage
	var f [5][]byte
	if ok, err := p.usageObject(at, raw, geminiUsageKeys, f[:]); !ok || err != nil {
		return u, err
	}
	var c [5]tokens
	for i, path := range geminiUsagePaths {
		var err error
		if c[i], err = p.tokenCount0(at.key(path), f[i]); err != nil {
			return u, err
		}
	}
	in, err := p.plus(at.key("/promptTokenCount"), c[0], c[4])
	if err != nil {
		return u, err
	}
	out, err := p.plus(at.key("/candidatesTokenCount"), c[1], c[3])
	if err != nil {
		return u, err
	}
	u.set(UsageInput, in)
	u.set(UsageOutput, out)
	u.set(UsageCacheRead, c[2])
	u.set(UsageReasoning, c[3])
	p.keepRaw(&u, raw)
	return u, nil
}

// geminiMediaPart is the inline or file part of p.
func geminiMediaPart(p *define.Part) GeminiMediaPart {
	if p.Data == nil {
		return GeminiMediaPart{FileData: &GeminiFileData{MIMEType: p.MIMEType, FileURI: p.URL}}
	}
	return GeminiMediaPart{InlineData: &GeminiBlob{MIMEType: p.MIMEType, Data: p.Data}}
}

// geminiMediaContent is the user content carrying attach, nil for none.
func geminiMediaContent(attach []attachment) *GeminiMediaContent {
	if len(attach) == 0 {
		return nil
	}
	c := &GeminiMediaContent{Role: "user", Parts: make([]GeminiMediaPart, 0, 2*len(attach))}
	for _, a := range attach {
		c.Parts = append(c.Parts, GeminiMediaPart{Text: a.label}, geminiMediaPart(a.part))
	}
	return c
}

// geminiPlace is where Gemini takes a part: text in the response's text;
// images (PNG, JPEG, WebP) and PDF files inline in the functionResponse
// (Gemini 3), or, with GeminiMediaInUserTurn, in a user content after the
// function responses, where every other part goes (Gemini's API takes no
// file URI in a function response).
func geminiPlace(p *define.Part, cfg config) (place, string) {
	switch {
	case p.Kind == define.PartText, isText(p):
		return asText, ""
	case p.Data == nil && p.MIMEType == "":
		return nowhere, "needs the MIME type of a part by URL (the URL's extension tells none: give FileURLPart a type)"
	case p.Data == nil, cfg.mediaMode == geminiUserTurn:
		return afterResults, ""
	}
	switch p.MIMEType {
	case "image/png", "image/jpeg", "image/webp", "application/pdf":
		return inResult, ""
	}
	return afterResults, ""
}
