package adapters

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// OpenAIResponsesFunctionCallOutput is the OpenAI Responses input item that
// carries one call's result:
// {"type":"function_call_output","call_id":...,"output":...}.
type OpenAIResponsesFunctionCallOutput struct {
	Type   string `json:"type"` // "function_call_output"
	CallID string `json:"call_id"`
	// Output is the result: its text, a string, or, for a result with
	// parts, a list, a []OpenAIResponsesContent: an input_text item with
	// the text (when not empty), then an item for each part.
	Output any `json:"output"`
}

// OpenAIResponsesFunctionCallText is the function_call_output item of a
// result without parts, as [ForOpenAIResponses]' Provider.Results gives
// it: the same JSON as an [OpenAIResponsesFunctionCallOutput] whose
// Output is that text, with the text in a string field, which
// encoding/json writes without the lookup and the allocation that an
// interface value costs.
type OpenAIResponsesFunctionCallText struct {
	Type   string `json:"type"` // "function_call_output"
	CallID string `json:"call_id"`
	Output string `json:"output"`
}

// size and appendJSON make the item a jsonAppender (AppendJSON).
func (o OpenAIResponsesFunctionCallText) size() int {
	return 48 + len(o.Type) + len(o.CallID) + len(o.Output)
}

func (o OpenAIResponsesFunctionCallText) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "type", o.Type)
	b = appendStringMember(b, "call_id", o.CallID)
	b = appendStringMember(b, "output", o.Output)
	return append(b, '}')
}

// responsesTextEntries is the history entries of results without parts.
func responsesTextEntries(calls []Call, results []define.Result) ([]any, error) {
	if err := checkResultPairs("OpenAIResponsesResults", calls, results, true); err != nil {
		return nil, err
	}
	out := make([]any, len(calls))
	for i := range calls {
		out[i] = OpenAIResponsesFunctionCallText{Type: "function_call_output", CallID: calls[i].ID, Output: resultText(results[i])}
	}
	return out, nil
}

// size and appendJSON make the item a jsonAppender (AppendJSON): as
// json.Marshal writes it, its parts' bytes encoded once, straight into
// the request.
func (o OpenAIResponsesFunctionCallOutput) size() int {
	n := 48 + len(o.Type) + len(o.CallID)
	switch out := o.Output.(type) {
	case string:
		n += len(out)
	case []OpenAIResponsesContent:
		for i := range out {
			n += out[i].size() + 1
		}
	}
	return n
}

func (o OpenAIResponsesFunctionCallOutput) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "type", o.Type)
	b = appendStringMember(b, "call_id", o.CallID)
	switch out := o.Output.(type) {
	case string:
		b = appendStringMember(b, "output", out)
	case []OpenAIResponsesContent:
		b = appendMember(b, "output")
		if out == nil {
			b = append(b, "null"...)
			break
		}
		b = append(b, '[')
		for i := range out {
			if i > 0 {
				b = append(b, ',')
			}
			b = out[i].appendJSON(b)
		}
		b = append(b, ']')
	default:
		data, _ := json.Marshal(out) // set by hand: as json.Marshal writes it
		b = append(appendMember(b, "output"), data...)
	}
	return append(b, '}')
}

// OpenAIResponsesContent is one item of a function_call_output's output
// list: input_text (Text), input_image (ImageURL, its address or a data:
// URL, and Detail) or input_file (FileData, a data: URL, or FileURL, and
// Filename).
type OpenAIResponsesContent struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *MediaURL `json:"image_url,omitempty"`
	Detail   string    `json:"detail,omitempty"`
	FileData *MediaURL `json:"file_data,omitempty"`
	FileURL  string    `json:"file_url,omitempty"`
	Filename string    `json:"filename,omitempty"`
}

func (c *OpenAIResponsesContent) size() int {
	n := 2 + memberSize("type", c.Type) + memberSize("text", c.Text) + memberSize("detail", c.Detail) +
		memberSize("file_url", c.FileURL) + memberSize("filename", c.Filename)
	for _, u := range [...]*MediaURL{c.ImageURL, c.FileData} {
		if u != nil {
			n += 16 + len(u.URL) + u.dataSize()
		}
	}
	return n
}

func (c *OpenAIResponsesContent) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "type", c.Type)
	if c.Text != "" {
		b = appendStringMember(b, "text", c.Text)
	}
	if c.ImageURL != nil {
		b = appendMediaURL(appendMember(b, "image_url"), c.ImageURL)
	}
	if c.Detail != "" {
		b = appendStringMember(b, "detail", c.Detail)
	}
	if c.FileData != nil {
		b = appendMediaURL(appendMember(b, "file_data"), c.FileData)
	}
	if c.FileURL != "" {
		b = appendStringMember(b, "file_url", c.FileURL)
	}
	if c.Filename != "" {
		b = appendStringMember(b, "filename", c.Filename)
	}
	return append(b, '}')
}

var (
	responsesKeys     = []string{"status", "output", "error", "usage"}
	responsesItemKeys = []string{"type", "call_id", "name", "arguments", "content", "id", "execution"}
)

// responsesClientItems are the output item types, other than function_call,
// that ask the client to act; this package cannot answer them.
var responsesClientItems = []string{
	"local_shell_call", "shell_call", "apply_patch_call", "computer_call",
	"custom_tool_call", "mcp_approval_request",
}

// ParseOpenAIResponsesReply parses an OpenAI Responses API reply: the whole
// response object (its output is read) or the output array of items alone.
// It is [ReplyLimits.ParseOpenAIResponsesReply] with the default limits.
func ParseOpenAIResponsesReply(reply []byte) (Turn, error) {
	return ReplyLimits{}.ParseOpenAIResponsesReply(reply)
}

// ParseOpenAIResponsesReply parses an OpenAI Responses API reply within l.
//
// An error body, or a response whose error is set (status "failed"), is a
// [ReplyError] wrapping [ErrProviderError] that quotes it.
//
// Every function_call item becomes a [Call] whose ID is the item's call_id
// (results are paired by call_id, not by the item's fc_ id). Its arguments
// text is parsed as for [ParseOpenAIReply]: "" means {}. Items the server
// handled (reasoning, message, web_search_call and the other built-in tool
// calls) make no calls. An item that asks the client to act and is not a
// function_call (local_shell_call, shell_call, apply_patch_call,
// computer_call, custom_tool_call, mcp_approval_request, or any other
// "..._call" item with a call_id) is an error wrapping [ErrReplyShape]
// that names its type and call id: dropping it would leave the model
// waiting for an answer. A tool_search_call with "execution": "client" is
// a search for the program to run (see [Deferred]): it becomes one of
// Turn.Searches, its query and paths read from its arguments (an object,
// or JSON text in a string), and a [Searcher] answers it. A server-run
// tool_search_call and its tool_search_output make no calls.
//
// Turn.Replay holds every output item as a [json.RawMessage], verbatim and
// in order, so that reasoning items stay next to the function calls they
// preceded (the API rejects a replayed function_call without its reasoning
// item). Turn.Text joins the output_text parts of message items and
// Turn.Refusal their refusal parts; Turn.Stop is the response's status.
func (l ReplyLimits) ParseOpenAIResponsesReply(reply []byte) (Turn, error) {
	p := l.parser(NameOpenAIResponses)
	data, err := p.whole(reply)
	defer p.release()
	if err != nil {
		return Turn{}, err
	}
	var turn Turn
	items, path := data, pointer("")
	switch data[0] {
	case '[':
	case '{':
		var r [4][]byte
		if err := p.fields(pointer(""), data, responsesKeys, r[:]); err != nil {
			return Turn{}, err
		}
		if r[2] != nil && r[2][0] == '{' {
			return Turn{}, p.errorObject(pointer("/error"), r[2], &openAIErrorKeys)
		}
		if r[1] == nil {
			return Turn{}, p.notShape(pointer(""), data, `no "output": not an OpenAI Responses response or an array of output items`)
		}
		if r[1][0] != '[' {
			return Turn{}, p.fail(pointer("/output"), ErrReplyShape, "expected an array, got %s", jsonwire.Kind(r[1]))
		}
		if turn.Stop, err = p.text(pointer("/status"), r[0]); err != nil {
			return Turn{}, err
		}
		if turn.Usage, err = p.responsesUsage(r[3]); err != nil {
			return Turn{}, err
		}
		items, path = r[1], pointer("/output")
	default:
		return Turn{}, p.fail(pointer(""), ErrReplyShape, "expected a response object or an array of output items, got %s", jsonwire.Kind(data))
	}
	var text, refusal textJoin
	// The replay sized for every item; the calls for the items that may
	// be calls (a Call is large: a reply of many messages sizes none).
	all, calls := p.ix.Len(items), 0
	_ = p.ix.Elems(items, func(_ int, raw []byte) error {
		if bytes.Contains(raw, []byte(`"function_call"`)) {
			calls++
		}
		return nil
	})
	turn.Calls, turn.Replay = sized[Call](calls), sized[any](all)
	ids := callIDs{hint: calls}
	err = p.ix.Elems(items, func(i int, raw []byte) error {
		return p.responsesItem(path.index(i), raw, &turn, &ids, &text, &refusal)
	})
	if err != nil {
		return Turn{}, err
	}
	turn.Text, turn.Refusal = text.String(), refusal.String()
	return turn.noEmptyCalls(), nil
}

// responsesItem reads the output item raw at into turn: its replay, and
// what it asks of the client (a call, a search, or an error for an item
// this package cannot answer); a message's text goes to text, its
// refusal parts to refusal.
func (p replyParser) responsesItem(at loc, raw []byte, turn *Turn, ids *callIDs, text, refusal *textJoin) error {
	var it [7][]byte
	if err := p.fields(at, raw, responsesItemKeys, it[:]); err != nil {
		return err
	}
	var typ string
	switch string(it[0]) { // the usual types, without making a string
	case `"function_call"`:
		typ = "function_call"
	case `"reasoning"`:
		typ = "reasoning"
	case `"message"`:
		typ = "message"
	default:
		t, err := p.text(at.key("/type"), it[0])
		if err != nil {
			return err
		}
		typ = t
	}
	callID, err := p.text(at.key("/call_id"), it[1])
	if err != nil {
		return err
	}
	turn.Replay = append(turn.Replay, json.RawMessage(p.ix.CompactIn(p.blocks, raw)))
	switch {
	case typ == "":
		return p.fail(at.key("/type"), ErrReplyShape, "missing type")
	case typ == "message":
		s, err := joinTextParts(p, at.key("/content"), it[4], "output_text")
		text.WriteString(s)
		if err != nil {
			return err
		}
		return responsesRefusal(p, at.key("/content"), it[4], refusal)
	case typ == "function_call":
		if callID == "" {
			return p.fail(at.key("/call_id"), ErrReplyShape, "missing call_id (results are paired by it)")
		}
		if err := p.uniqueID(ids, at.key("/call_id"), callID); err != nil {
			return err
		}
		name, err := p.text(at.key("/name"), it[2])
		if err != nil {
			return err
		}
		if name == "" {
			return p.fail(at.key("/name"), ErrReplyShape, "missing name")
		}
		// Arguments cut off inside their object by the token limit (the
		// item, or the response, incomplete) are an incomplete reply, not
		// a malformed call.
		cut := turn.Stop == "incomplete" || string(p.ix.Field(raw, "status")) == `"incomplete"`
		c := Call{ID: callID, Name: name}
		if err := p.argsText(at.key("/arguments"), it[3], cut, &c); err != nil {
			return err
		}
		turn.Calls = append(turn.Calls, c)
	case typ == "tool_search_call" && string(it[6]) == `"client"`:
		if callID == "" {
			return p.fail(at.key("/call_id"), ErrReplyShape, "a client tool_search_call without call_id (its tool_search_output is paired by it)")
		}
		if err := p.uniqueID(ids, at.key("/call_id"), callID); err != nil {
			return err
		}
		q, err := responsesSearch(p, at.key("/arguments"), callID, it[3])
		if err != nil {
			return err
		}
		turn.Searches = append(turn.Searches, q)
	case slices.Contains(responsesClientItems, typ) ||
		typ != "tool_search_call" && strings.HasSuffix(typ, "_call") && callID != "":
		id := callID
		if id == "" {
			id, _ = jsonwire.Text(it[5])
		}
		return p.fail(at, ErrReplyShape, "output item type %s (id %s) asks the client to act, and only function_call is supported",
			msgQuote(typ), msgQuote(id))
	}
	return nil
}

// responsesRefusal adds the text of the refusal parts of a message's
// content (an array, already checked) to into.
func responsesRefusal(p replyParser, path loc, content []byte, into *textJoin) error {
	if content == nil || content[0] != '[' {
		return nil
	}
	path = pointer(path.String()) // once, so that index below makes no path
	return p.ix.Elems(content, func(i int, part []byte) error {
		if part[0] != '{' {
			return nil
		}
		if t, _ := jsonwire.Text(p.ix.Field(part, "type")); t != "refusal" {
			return nil
		}
		s, err := p.text(path.index(i).key("/refusal"), p.ix.Field(part, "refusal"))
		into.WriteString(s)
		return err
	})
}

// OpenAIResponsesResults renders the results of calls as OpenAI Responses
// function_call_output input items, one per call in call order, each with
// its call's call_id. Append them to the input after the replayed output
// items.
//
// The Responses API has no error flag, so an error result's output is its
// Output prefixed with "error: ". A result with parts has its output as a
// list ([OpenAIResponsesFunctionCallOutput.Output] a
// []OpenAIResponsesContent): an input_text item
// with that text, then for each part an input_text (a text part, or a
// text file with a line naming it), an input_image (its address, or its
// data as a data: URL, "detail": "auto") or an input_file (its data as a
// data: URL with its name, or its address). Responses takes no audio in a
// function_call_output: an audio part is an error wrapping [ErrMedia]
// unless [MediaAsNote] is given. Results and calls must be one to one
// ([ErrResultCount]), and every call needs an id ([ErrCallID]).
func OpenAIResponsesResults(calls []Call, results []define.Result, opts ...Option) ([]OpenAIResponsesFunctionCallOutput, error) {
	cfg, err := resultsConfig(responsesSpec, "OpenAIResponsesResults", opts, true)
	if err != nil {
		return nil, err
	}
	return responsesResults(responsesSpec, calls, results, cfg)
}

func responsesResults(p *spec, calls []Call, results []define.Result, cfg config) ([]OpenAIResponsesFunctionCallOutput, error) {
	const fn = "OpenAIResponsesResults"
	if err := checkResultPairs(fn, calls, results, true); err != nil {
		return nil, err
	}
	items := make([]OpenAIResponsesFunctionCallOutput, len(calls))
	m := newMedia(p, fn, cfg)
	for i, c := range calls {
		text := resultText(results[i])
		items[i] = OpenAIResponsesFunctionCallOutput{Type: "function_call_output", CallID: c.ID, Output: text}
		if len(results[i].Parts) == 0 {
			continue
		}
		pieces, err := m.pieces(i, &calls[i], &results[i])
		if err != nil {
			return nil, err
		}
		if pieces == nil {
			continue
		}
		content := make([]OpenAIResponsesContent, 0, len(pieces)+1)
		if text != "" {
			content = append(content, OpenAIResponsesContent{Type: "input_text", Text: text})
		}
		for _, pc := range pieces {
			content = append(content, responsesContent(pc, len(content)+1))
		}
		items[i].Output = content
	}
	return items, nil
}

var (
	responsesUsageKeys        = []string{"input_tokens", "output_tokens", "input_tokens_details", "output_tokens_details"}
	responsesInputDetailKeys  = []string{"cached_tokens", "cache_write_tokens"}
	responsesOutputDetailKeys = []string{"reasoning_tokens"}
)

// responsesUsage reads a response's usage object raw: input_tokens (which
// counts the cached tokens), output_tokens (which counts the reasoning
// tokens), input_tokens_details.cached_tokens and cache_write_tokens,
// output_tokens_details.reasoning_tokens.
func (p replyParser) responsesUsage(raw []byte) (Usage, error) {
	var u Usage
	at := pointer("/usage")
	var f [4][]byte
	if ok, err := p.usageObject(at, raw, responsesUsageKeys, f[:]); !ok || err != nil {
		return u, err
	}
	var in, out [2][]byte
	if _, err := p.usageObject(at.key("/input_tokens_details"), f[2], responsesInputDetailKeys, in[:]); err != nil {
		return u, err
	}
	if _, err := p.usageObject(at.key("/output_tokens_details"), f[3], responsesOutputDetailKeys, out[:1]); err != nil {
		return u, err
	}
	for _, c := range [...]struct {
		bit  UsageCounts
		path string
		raw  []byte
	}{
		{UsageInput, "/input_tokens", f[0]}, {UsageOutput, "/output_tokens", f[1]},
		{UsageCacheRead, "/input_tokens_details/cached_tokens", in[0]},
		{UsageCacheWrite, "/input_tokens_details/cache_write_tokens", in[1]},
		{UsageReasoning, "/output_tokens_details/reasoning_tokens", out[0]},
	} {
		t, err := p.tokenCount(at.key(c.path), c.raw)
		if err != nil {
			return u, err
		}
		u.set(c.bit, t)
	}
	p.keepRaw(&u, raw)
	return u, nil
}

// responsesContent is the output item of one piece.
func responsesContent(pc piece, n int) OpenAIResponsesContent {
	p := pc.part
	switch {
	case p == nil:
		return OpenAIResponsesContent{Type: "input_text", Text: pc.text}
	case p.Kind == define.PartText:
		return OpenAIResponsesContent{Type: "input_text", Text: p.Text}
	case p.Kind == define.PartImage:
		u := mediaURL(p)
		return OpenAIResponsesContent{Type: "input_image", ImageURL: &u, Detail: "auto"}
	case p.Data == nil:
		return OpenAIResponsesContent{Type: "input_file", FileURL: p.URL, Filename: p.Filename}
	}
	u := mediaURL(p)
	return OpenAIResponsesContent{Type: "input_file", FileData: &u, Filename: fileName(p, n)}
}

// responsesPlace is where Responses takes a part: every part but audio
// in the function_call_output's output list, a text file as text.
func responsesPlace(p *define.Part, _ config) (place, string) {
	switch {
	case isText(p):
		return asText, ""
	case p.Kind == define.PartAudio:
		return nowhere, "takes no audio in a function_call_output"
	}
	return inResult, ""
}
