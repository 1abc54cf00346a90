package adapters

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// BedrockToolResultMessage is the Bedrock Converse user message that
// answers a turn's toolUse blocks: one toolResult block per call, in call
// order (Converse wants strict user/assistant alternation, so all results
// go in one message).
type BedrockToolResultMessage struct {
	Role    string                   `json:"role"` // "user"
	Content []BedrockToolResultBlock `json:"content"`
}

// BedrockToolResultBlock is a content block of the message that answers
// the calls: one toolResult, or, after them, a text block or a document
// block carrying a document of a result (see [BedrockResults]); exactly
// one member is set.
type BedrockToolResultBlock struct {
	ToolResult BedrockToolResult     `json:"toolResult,omitzero"`
	Text       string                `json:"text,omitempty"`
	Document   *BedrockDocumentBlock `json:"document,omitempty"`
}

// BedrockToolResult is one call's result.
type BedrockToolResult struct {
	ToolUseID string                     `json:"toolUseId"`
	Content   []BedrockToolResultContent `json:"content"` // never empty
	Status    string                     `json:"status"`  // "success" or "error"
}

// IsZero reports whether r is the zero toolResult, which a block after
// the toolResults leaves out (omitzero): encoding/json calls it on the
// slice's element in place, cheaper than its reflection over the fields.
func (r *BedrockToolResult) IsZero() bool {
	return r.ToolUseID == "" && r.Content == nil && r.Status == ""
}

// BedrockToolResultContent is one block of a toolResult's content: exactly
// one of json, text and image.
type BedrockToolResultContent struct {
	JSON  json.RawMessage    `json:"json,omitempty"`
	Text  string             `json:"text,omitempty"`
	Image *BedrockImageBlock `json:"image,omitempty"`
}

// BedrockToolResultTextMessage is the user message that answers a turn's
// toolUse blocks when no result has parts, as [ForBedrock]'s
// Provider.Results gives it: the same JSON as the
// [BedrockToolResultMessage] of those results, in types without the
// members of parts, which encoding/json would check one by one.
type BedrockToolResultTextMessage struct {
	Role    string                       `json:"role"` // "user"
	Content []BedrockToolResultTextBlock `json:"content"`
}

// BedrockToolResultTextBlock is a content block holding one toolResult
// of text or JSON.
type BedrockToolResultTextBlock struct {
	ToolResult BedrockToolResultText `json:"toolResult"`
}

// BedrockToolResultText is one call's result of text or JSON.
type BedrockToolResultText struct {
	ToolUseID string                         `json:"toolUseId"`
	Content   []BedrockToolResultTextContent `json:"content"` // one block
	Status    string                         `json:"status"`  // "success" or "error"
}

// BedrockToolResultTextContent is the block of a toolResult's content:
// exactly one of json and text.
type BedrockToolResultTextContent struct {
	JSON json.RawMessage `json:"json,omitempty"`
	Text string          `json:"text,omitempty"`
}

// bedrockTextEntries is the history entry of results without parts.
func bedrockTextEntries(calls []Call, results []define.Result) ([]any, error) {
	if err := checkResultPairs("BedrockResults", calls, results, true); err != nil {
		return nil, err
	}
	msg := BedrockToolResultTextMessage{Role: "user", Content: make([]BedrockToolResultTextBlock, len(calls))}
	content := make([]BedrockToolResultTextContent, len(calls))
	for i := range calls {
		r := &results[i]
		tr := BedrockToolResultText{ToolUseID: calls[i].ID, Status: "success", Content: content[i : i+1 : i+1]}
		switch {
		case r.IsError:
			tr.Status = "error"
			content[i].Text = resultErrorText(*r)
		case r.Output == "":
			content[i].Text = BedrockEmptyOutput
		default:
			if v, ok := resultJSON(*r, false); ok {
				content[i].JSON = v
			} else {
				content[i].Text = r.Output
			}
		}
		msg.Content[i].ToolResult = tr
	}
	return []any{msg}, nil
}

// size and appendJSON make the message a jsonAppender (AppendJSON).
func (m BedrockToolResultTextMessage) size() int {
	n := 32 + len(m.Role)
	for i := range m.Content {
		tr := &m.Content[i].ToolResult
		n += 96 + len(tr.ToolUseID)
		for _, c := range tr.Content {
			n += 32 + len(c.JSON) + len(c.Text)
		}
	}
	return n
}

func (m BedrockToolResultTextMessage) appendJSON(b []byte) []byte {
	return appendRoleList(b, m.Role, "content", m.Content, appendBedrockTextBlock)
}

func appendBedrockTextBlock(b []byte, bl *BedrockToolResultTextBlock) []byte {
	tr := &bl.ToolResult
	b = append(b, `{"toolResult":{`...)
	b = appendStringMember(b, "toolUseId", tr.ToolUseID)
	b = appendArray(appendMember(b, "content"), tr.Content, appendBedrockTextContent)
	b = appendStringMember(b, "status", tr.Status)
	return append(b, '}', '}')
}

func appendBedrockTextContent(b []byte, c *BedrockToolResultTextContent) []byte {
	b = append(b, '{')
	if len(c.JSON) > 0 {
		b = appendMember(b, "json")
		b, _ = appendRaw(b, c.JSON) // compact JSON this package made
	}
	if c.Text != "" {
		b = appendStringMember(b, "text", c.Text)
	}
	return append(b, '}')
}

// size and appendJSON make the message a jsonAppender (AppendJSON).
func (m BedrockToolResultMessage) size() int {
	n := 32 + len(m.Role)
	for i := range m.Content {
		bl := &m.Content[i]
		n += 96 + len(bl.ToolResult.ToolUseID) + len(bl.Text)
		for _, c := range bl.ToolResult.Content {
			n += 32 + len(c.JSON) + len(c.Text)
			if c.Image != nil {
				n += 48 + base64Size(len(c.Image.Source.Bytes))
			}
		}
		if d := bl.Document; d != nil {
			n += 64 + len(d.Name) + base64Size(len(d.Source.Bytes))
		}
	}
	return n
}

func (m BedrockToolResultMessage) appendJSON(b []byte) []byte {
	return appendRoleList(b, m.Role, "content", m.Content, appendBedrockResultBlock)
}

func appendBedrockResultBlock(b []byte, bl *BedrockToolResultBlock) []byte {
	b = append(b, '{')
	if tr := &bl.ToolResult; tr.ToolUseID != "" || tr.Content != nil || tr.Status != "" {
		b = appendMember(b, "toolResult")
		b = append(b, '{')
		b = appendStringMember(b, "toolUseId", tr.ToolUseID)
		b = appendArray(appendMember(b, "content"), tr.Content, appendBedrockResultContent)
		b = appendStringMember(b, "status", tr.Status)
		b = append(b, '}')
	}
	if bl.Text != "" {
		b = appendStringMember(b, "text", bl.Text)
	}
	if d := bl.Document; d != nil {
		b = appendMember(b, "document")
		b = append(b, '{')
		b = appendStringMember(b, "format", d.Format)
		b = appendStringMember(b, "name", d.Name)
		b = appendBedrockSource(b, d.Source)
		b = append(b, '}')
	}
	return append(b, '}')
}

func appendBedrockResultContent(b []byte, c *BedrockToolResultContent) []byte {
	b = append(b, '{')
	if len(c.JSON) > 0 {
		b = appendMember(b, "json")
		b, _ = appendRaw(b, c.JSON) // compact JSON this package made
	}
	if c.Text != "" {
		b = appendStringMember(b, "text", c.Text)
	}
	if im := c.Image; im != nil {
		b = appendMember(b, "image")
		b = append(b, '{')
		b = appendStringMember(b, "format", im.Format)
		b = appendBedrockSource(b, im.Source)
		b = append(b, '}')
	}
	return append(b, '}')
}

func appendBedrockSource(b []byte, s BedrockSource) []byte {
	b = appendMember(b, "source")
	b = append(b, '{')
	b = appendMember(b, "bytes")
	b = appendBytes(b, s.Bytes)
	return append(b, '}')
}

// BedrockImageBlock is an image: its format ("png", "jpeg", "gif" or
// "webp") and its bytes (base64 in JSON).
type BedrockImageBlock struct {
	Format string        `json:"format"`
	Source BedrockSource `json:"source"`
}

// BedrockDocumentBlock is a document: its format ("pdf", "csv", "doc",
// "docx", "xls", "xlsx", "html", "txt" or "md"), its name (letters,
// digits, single spaces, hyphens, parentheses and square brackets), and
// its bytes.
type BedrockDocumentBlock struct {
	Format string        `json:"format"`
	Name   string        `json:"name"`
	Source BedrockSource `json:"source"`
}

// BedrockSource is a block's bytes (base64 in JSON).
type BedrockSource struct {
	Bytes []byte `json:"bytes"`
}

// BedrockEmptyOutput is the text sent for a successful result whose Output
// is empty, since a toolResult's content must not be empty.
const BedrockEmptyOutput = "(no output)"

var (
	bedrockKeys        = []string{"output", "stopReason", "message", "Message", "__type", "role", "content", "usage"}
	bedrockOutputKeys  = []string{"message"}
	bedrockMessageKeys = []string{"role", "content"}
	bedrockBlockKeys   = []string{"text", "toolUse", "citationsContent"}
	bedrockToolUseKeys = []string{"toolUseId", "name", "input", "type"}
	bedrockCitedKeys   = []string{"content"}
	bedrockTextKeys    = []string{"text"}
)

// ParseBedrockReply parses a Bedrock Converse reply: the whole response
// (its output.message is read) or the assistant message alone. It is
// [ReplyLimits.ParseBedrockReply] with the default limits.
func ParseBedrockReply(reply []byte) (Turn, error) { return ReplyLimits{}.ParseBedrockReply(reply) }

// ParseBedrockReply parses a Bedrock Converse reply within l.
//
// An error body ({"message":"..."}, with the exception type in "__type"
// when the body carries it; AWS also sends it in the X-Amzn-ErrorType
// header, which the caller has) is a [ReplyError] wrapping
// [ErrProviderError] that quotes it.
//
// Every toolUse block becomes a [Call] with its toolUseId and input object
// (absent input means {}). A toolUse block of type "server_tool_use" (a
// tool the server ran, such as Nova's code interpreter, whose result
// follows in the same message) makes no call; it stays in the replay.
//
// Turn.Replay holds the assistant message as a [json.RawMessage],
// verbatim (reasoning blocks and their signatures included). Turn.Text
// joins the text blocks (and the generated text of citationsContent
// blocks); Turn.Stop is stopReason.
func (l ReplyLimits) ParseBedrockReply(reply []byte) (Turn, error) {
	p := l.parser(NameBedrock)
	data, err := p.whole(reply)
	defer p.release()
	if err != nil {
		return Turn{}, err
	}
	var top [8][]byte
	if err := p.fields(pointer(""), data, bedrockKeys, top[:]); err != nil {
		return Turn{}, err
	}
	if top[0] == nil && top[5] == nil && top[6] == nil {
		if err := p.bedrockError(top[2], top[3], top[4]); err != nil {
			return Turn{}, err
		}
	}
	if top[0] == nil {
		// The message alone: it has content, and no type (an Anthropic
		// message has).
		switch {
		case top[6] == nil:
			return Turn{}, p.notShape(pointer(""), data, `no "output" and no "content": not a Bedrock Converse response or message`)
		case p.ix.Field(data, "type") != nil:
			return Turn{}, p.notShape(pointer(""), data, `no "output", and a "type", which a Converse message has not: not a Bedrock Converse response or message`)
		}
	}
	var turn Turn
	msg, path := data, pointer("")
	if top[0] != nil {
		var out [1][]byte
		if err := p.fields(pointer("/output"), top[0], bedrockOutputKeys, out[:]); err != nil {
			return Turn{}, err
		}
		if out[0] == nil || out[0][0] == 'n' {
			return Turn{}, p.fail(pointer("/output"), ErrReplyShape, "no message")
		}
		if turn.Stop, err = p.text(pointer("/stopReason"), top[1]); err != nil {
			return Turn{}, err
		}
		if turn.Usage, err = p.bedrockUsage(top[7]); err != nil {
			return Turn{}, err
		}
		msg, path = out[0], pointer("/output/message")
	}
	var m [2][]byte
	if err := p.fields(path, msg, bedrockMessageKeys, m[:]); err != nil {
		return Turn{}, err
	}
	if m[1] == nil {
		return Turn{}, p.fail(path.key("/content"), ErrReplyShape, "missing content")
	}
	if m[1][0] != '[' {
		return Turn{}, p.fail(path.key("/content"), ErrReplyShape, "expected an array, got %s", jsonwire.Kind(m[1]))
	}
	role, err := p.text(path.key("/role"), m[0])
	if err != nil {
		return Turn{}, err
	}
	if role != "" && role != "assistant" {
		return Turn{}, p.fail(path.key("/role"), ErrReplyShape, "role is %s, not assistant", msgQuote(role))
	}
	if err := p.bedrockContent(path.key("/content"), m[1], &turn); err != nil {
		return Turn{}, err
	}
	turn.Replay = []any{json.RawMessage(p.ix.CompactIn(p.blocks, msg))}
	return turn.noEmptyCalls(), nil
}

// bedrockError returns the error of an error body, whose message is msg
// (or Msg, as some AWS services capitalise it) and whose exception name
// is in typ (__type); nil when there is no message.
func (p replyParser) bedrockError(msg, capitalised, typ []byte) error {
	if msg == nil {
		msg = capitalised
	}
	if msg == nil || msg[0] != '"' {
		return nil
	}
	m, _ := jsonwire.Text(msg)
	t, _ := jsonwire.Text(typ)
	if i := strings.LastIndexByte(t, '#'); i >= 0 {
		t = t[i+1:]
	}
	if i := strings.IndexByte(t, ':'); i >= 0 {
		t = t[:i]
	}
	return p.providerError(pointer(""), m, t, "", "")
}

// bedrockContent reads a message's content blocks at path into turn: the
// text of text and citationsContent blocks, and a call per toolUse block
// (a server's tool block makes none).
func (p replyParser) bedrockContent(path loc, content []byte, turn *Turn) error {
	var text textJoin
	n := p.ix.Count(content, "toolUse", "")
	turn.Calls = sized[Call](n)
	ids := callIDs{hint: n}
	list := pointer(path.String()) // once, so that index below makes no path
	err := p.ix.Elems(content, func(i int, raw []byte) error {
		at := list.index(i)
		var b [3][]byte
		if err := p.fields(at, raw, bedrockBlockKeys, b[:]); err != nil {
			return err
		}
		s, err := p.text(at.key("/text"), b[0])
		if err != nil {
			return err
		}
		text.WriteString(s)
		if err := p.citedText(at.key("/citationsContent"), b[2], &text); err != nil {
			return err
		}
		if b[1] == nil || b[1][0] == 'n' {
			return nil
		}
		return p.bedrockToolUse(at.key("/toolUse"), b[1], turn, &ids)
	})
	turn.Text = text.String()
	return err
}

// bedrockToolUse reads a toolUse block's member at into a call of turn.
func (p replyParser) bedrockToolUse(at loc, raw []byte, turn *Turn, ids *callIDs) error {
	var tu [4][]byte
	if err := p.fields(at, raw, bedrockToolUseKeys, tu[:]); err != nil {
		return err
	}
	typ, err := p.text(at.key("/type"), tu[3])
	if err != nil {
		return err
	}
	switch typ {
	case "server_tool_use":
		return nil
	case "", "tool_use":
	default:
		return p.fail(at.key("/type"), ErrReplyShape, "toolUse type %s is not supported", msgQuote(typ))
	}
	c, err := p.namedCallKeys(at, "/toolUseId", tu[0], tu[1], ids)
	if err != nil {
		return err
	}
	if c.Args, err = p.argsObject(at.key("/input"), tu[2]); err != nil {
		return err
	}
	turn.Calls = append(turn.Calls, c)
	return nil
}

// citedText adds the generated text of a citationsContent block
// ({"content":[{"text":...}],"citations":[...]}) to text: it is the
// reply's visible text, with its sources beside it.
func (p replyParser) citedText(at loc, raw []byte, text *textJoin) error {
	if raw == nil || raw[0] == 'n' {
		return nil
	}
	var c [1][]byte
	if err := p.fields(at, raw, bedrockCitedKeys, c[:]); err != nil {
		return err
	}
	if err := p.array(at.key("/content"), c[0]); err != nil || c[0] == nil || c[0][0] == 'n' {
		return err
	}
	list := pointer(at.key("/content").String())
	return p.ix.Elems(c[0], func(i int, raw []byte) error {
		var t [1][]byte
		if err := p.fields(list.index(i), raw, bedrockTextKeys, t[:]); err != nil {
			return err
		}
		s, err := p.text(list.index(i).key("/text"), t[0])
		text.WriteString(s)
		return err
	})
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
// A result's parts follow: a text block for each text part and an image
// block (PNG, JPEG, GIF or WebP, its bytes) for each image, inside the
// toolResult; a document (pdf, csv, doc, docx, xls, xlsx, html, txt, md)
// goes after the toolResult blocks, in the same message, as a text block
// naming its call and a document block, since Claude on Bedrock does not
// see a document inside a toolResult; the toolResult's text says where it
// is. Bedrock takes images as data only (or from S3) and no audio: such a
// part is an error wrapping [ErrMedia] unless [MediaAsNote] is given.
//
// Results and calls must be one to one ([ErrResultCount]), and every call
// needs an id ([ErrCallID]).
func BedrockResults(calls []Call, results []define.Result, opts ...Option) (BedrockToolResultMessage, error) {
	cfg, err := resultsConfig(bedrockSpec, "BedrockResults", opts, true)
	if err != nil {
		return BedrockToolResultMessage{}, err
	}
	return bedrockResults(bedrockSpec, calls, results, cfg)
}

func bedrockResults(p *spec, calls []Call, results []define.Result, cfg config) (BedrockToolResultMessage, error) {
	const fn = "BedrockResults"
	if err := checkResultPairs(fn, calls, results, true); err != nil {
		return BedrockToolResultMessage{}, err
	}
	msg := BedrockToolResultMessage{Role: "user", Content: make([]BedrockToolResultBlock, len(calls))}
	m := newMedia(p, fn, cfg)
	for i, c := range calls {
		pieces, err := m.pieces(i, &calls[i], &results[i])
		if err != nil {
			return BedrockToolResultMessage{}, err
		}
		msg.Content[i].ToolResult = bedrockResult(c, results[i], pieces)
	}
	names := map[string]bool{}
	for _, a := range m.attach {
		name := bedrockDocumentName(a.part.Filename, a.n)
		if names[name] {
			name += " (" + strconv.Itoa(a.n) + ")"
		}
		names[name] = true
		msg.Content = append(msg.Content, BedrockToolResultBlock{Text: a.label},
			BedrockToolResultBlock{Document: &BedrockDocumentBlock{Format: bedrockDocFormat(a.part.MIMEType), Name: name, Source: BedrockSource{Bytes: a.part.Data}}})
	}
	return msg, nil
}

func bedrockResult(c Call, r define.Result, pieces []piece) BedrockToolResult {
	tr := BedrockToolResult{ToolUseID: c.ID, Status: "success"}
	switch {
	case r.IsError:
		tr.Status = "error"
		tr.Content = []BedrockToolResultContent{{Text: resultErrorText(r)}}
	case r.Output == "" && pieces == nil:
		tr.Content = []BedrockToolResultContent{{Text: BedrockEmptyOutput}}
	case r.Output == "":
	default:
		if v, ok := resultJSON(r, false); ok {
			tr.Content = []BedrockToolResultContent{{JSON: v}}
		} else {
			tr.Content = []BedrockToolResultContent{{Text: r.Output}}
		}
	}
	for _, pc := range pieces {
		switch p := pc.part; {
		case p == nil && pc.text != "":
			tr.Content = append(tr.Content, BedrockToolResultContent{Text: pc.text})
		case p == nil:
		case p.Kind == define.PartText:
			if p.Text != "" {
				tr.Content = append(tr.Content, BedrockToolResultContent{Text: p.Text})
			}
		default:
			tr.Content = append(tr.Content, BedrockToolResultContent{Image: &BedrockImageBlock{Format: strings.TrimPrefix(p.MIMEType, "image/"), Source: BedrockSource{Bytes: p.Data}}})
		}
	}
	if len(tr.Content) == 0 {
		tr.Content = []BedrockToolResultContent{{Text: BedrockEmptyOutput}}
	}
	return tr
}

var (
	bedrockUsageKeys = []string{"inputTokens", "outputTokens", "cacheReadInputTokens", "cacheWriteInputTokens",
		"cacheReadInputTokenCount", "cacheWriteInputTokenCount"}
	bedrockUsagePaths = [...]string{"/inputTokens", "/outputTokens", "/cacheReadInputTokens", "/cacheWriteInputTokens",
		"/cacheReadInputTokenCount", "/cacheWriteInputTokenCount"}
)

// bedrockUsage reads a Converse response's usage object raw (a stream's
// is its metadata event's): inputTokens leaves out the cache, so Input is
// inputTokens + cacheReadInputTokens + cacheWriteInputTokens (or their
// older spellings cacheReadInputTokenCount and cacheWriteInputTokenCount);
// outputTokens counts the reasoning, which Converse does not count apart
// (Reasoning is unknown).
func (p replyParser) bedrockUsage(raw []byte) (Usage, error) {
	var u Usage
	at := pointer("/usage")
	var f [6][]byte
	if ok, err := p.usageObject(at, raw, bedrockUsageKeys, f[:]); !ok || err != nil {
		return u, err
	}
	var c [6]tokens
	for i, path := range bedrockUsagePaths {
		var err error
		if c[i], err = p.tokenCount(at.key(path), f[i]); err != nil {
			return u, err
		}
	}
	for i := 2; i < 4; i++ {
		if !c[i].ok {
			c[i] = c[i+2]
		}
	}
	in, err := p.plus(at.key("/inputTokens"), c[0], c[2], c[3])
	if err != nil {
		return u, err
	}
	u.set(UsageInput, in)
	u.set(UsageOutput, c[1])
	u.set(UsageCacheRead, c[2])
	u.set(UsageCacheWrite, c[3])
	p.keepRaw(&u, raw)
	return u, nil
}

// bedrockPlace is where Bedrock takes a part: text and images (PNG, JPEG,
// GIF, WebP: their bytes) inside the toolResult, documents after the
// toolResults.
func bedrockPlace(p *define.Part, _ config) (place, string) {
	switch {
	case p.Kind == define.PartText:
		return inResult, ""
	case p.Kind == define.PartImage && p.Data == nil, p.Kind == define.PartFile && p.Data == nil:
		return nowhere, "takes images and documents as bytes (or from S3), not by URL"
	case p.Kind == define.PartImage:
		switch p.MIMEType {
		case "image/png", "image/jpeg", "image/gif", "image/webp":
			return inResult, ""
		}
		return nowhere, "takes images as PNG, JPEG, GIF or WebP only"
	case p.Kind == define.PartFile && bedrockDocFormat(p.MIMEType) != "":
		return afterResults, ""
	case p.Kind == define.PartFile:
		return nowhere, "takes documents as pdf, csv, doc, docx, xls, xlsx, html, txt or md only"
	}
	return nowhere, "takes no audio"
}

// bedrockDocFormat is a document block's format of a MIME type; "" for
// one Bedrock does not take.
func bedrockDocFormat(mime string) string {
	switch mime {
	case "application/pdf":
		return "pdf"
	case "text/csv":
		return "csv"
	case "application/msword":
		return "doc"
	case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
		return "docx"
	case "application/vnd.ms-excel":
		return "xls"
	case "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
		return "xlsx"
	case "text/html":
		return "html"
	case "text/plain":
		return "txt"
	case "text/markdown":
		return "md"
	}
	return ""
}

// bedrockDocumentName is a document's name as Bedrock takes it: the file
// name without its extension, each character Bedrock refuses made a
// hyphen, runs of spaces made one, at most 200 bytes; "Attachment N"
// when nothing is left.
func bedrockDocumentName(filename string, n int) string {
	if i := strings.LastIndexByte(filename, '.'); i > 0 {
		filename = filename[:i]
	}
	var b strings.Builder
	space := true // no leading space
	for _, r := range filename {
		switch {
		case unicode.IsSpace(r):
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		case r < 0x80 && (isAlnum(byte(r)) || r == '-' || r == '(' || r == ')' || r == '[' || r == ']'):
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
		space = false
		if b.Len() >= 200 {
			break
		}
	}
	name := strings.TrimRight(b.String(), " ")
	if name == "" {
		return "Attachment " + strconv.Itoa(n)
	}
	return name
}
