package adapters

import (
	"encoding/json"
	"strings"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// AnthropicMessage is an Anthropic message to replay: the model's content
// blocks exactly as it sent them (thinking blocks and their signatures must
// come back unmodified).
type AnthropicMessage struct {
	Role    string          `json:"role"` // "assistant"
	Content json.RawMessage `json:"content"`
}

// size and appendEntry make the message an entryWriter (Body.Append,
// AppendJSON): written by hand, byte for byte as json.Marshal writes it,
// unless its content is not plain.
func (m AnthropicMessage) size() int { return 24 + len(m.Role) + len(m.Content) }

func (m AnthropicMessage) appendEntry(b []byte) ([]byte, bool) {
	start := len(b)
	b = append(b, '{')
	b = appendStringMember(b, "role", m.Role)
	b, ok := appendPlainRaw(appendMember(b, "content"), m.Content)
	if !ok {
		return b[:start], false
	}
	return append(b, '}'), true
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
	// Content is the result: its text, a string (nil, and left out, when
	// the output is empty: the API rejects an empty text), or, for a
	// result with parts, its blocks, a []AnthropicContentBlock: a text
	// block with the Output (when not empty), then a block for each part.
	Content any  `json:"content,omitempty"`
	IsError bool `json:"is_error"`
}

// AnthropicToolResultTextMessage is the user message that answers a
// turn's tool_use blocks when no result has parts, as [ForAnthropic]'s
// Provider.Results gives it: the same JSON as the
// [AnthropicToolResultMessage] of those results, with each result's text
// in a string field, which encoding/json writes without the lookup and
// the allocation that an interface value costs.
type AnthropicToolResultTextMessage struct {
	Role    string                    `json:"role"` // "user"
	Content []AnthropicToolResultText `json:"content"`
}

// AnthropicToolResultText is a tool_result content block of text.
type AnthropicToolResultText struct {
	Type      string `json:"type"` // "tool_result"
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content,omitempty"` // left out when empty: the API rejects an empty text
	IsError   bool   `json:"is_error"`
}

// anthropicTextEntries is the history entry of results without parts.
func anthropicTextEntries(calls []Call, results []define.Result) ([]any, error) {
	if err := checkResultPairs("AnthropicResults", calls, results, true); err != nil {
		return nil, err
	}
	msg := AnthropicToolResultTextMessage{Role: "user", Content: make([]AnthropicToolResultText, len(calls))}
	for i := range calls {
		r := &results[i]
		out := r.Output
		if r.IsError {
			out = resultErrorText(*r)
		}
		msg.Content[i] = AnthropicToolResultText{Type: "tool_result", ToolUseID: calls[i].ID, Content: out, IsError: r.IsError}
	}
	return []any{msg}, nil
}

// size and appendJSON make the message a jsonAppender (AppendJSON).
func (m AnthropicToolResultTextMessage) size() int {
	n := 32 + len(m.Role)
	for i := range m.Content {
		r := &m.Content[i]
		n += 64 + len(r.Type) + len(r.ToolUseID) + len(r.Content)
	}
	return n
}

func (m AnthropicToolResultTextMessage) appendJSON(b []byte) []byte {
	return appendRoleList(b, m.Role, "content", m.Content, appendAnthropicToolResultText)
}

func appendAnthropicToolResultText(b []byte, r *AnthropicToolResultText) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "type", r.Type)
	b = appendStringMember(b, "tool_use_id", r.ToolUseID)
	if r.Content != "" {
		b = appendStringMember(b, "content", r.Content)
	}
	b = appendMember(b, "is_error")
	if r.IsError {
		return append(b, "true}"...)
	}
	return append(b, "false}"...)
}

// AnthropicContentBlock is a block of a tool_result's content: "text"
// (Text), "image" (Source: base64 or url) or "document" (Source: base64
// or url for a PDF, content for a text file; Title its file name).
type AnthropicContentBlock struct {
	Type   string           `json:"type"`
	Text   string           `json:"text,omitempty"`
	Source *AnthropicSource `json:"source,omitempty"`
	Title  string           `json:"title,omitempty"`
}

// AnthropicSource is an image's or a document's source: Type "base64"
// (MediaType and Data, base64 in JSON), "url" (URL), or "content" (a
// document of text blocks: Content, a text file's text).
type AnthropicSource struct {
	Type      string                  `json:"type"`
	MediaType string                  `json:"media_type,omitempty"`
	Data      []byte                  `json:"data,omitempty"`
	URL       string                  `json:"url,omitempty"`
	Content   []AnthropicContentBlock `json:"content,omitempty"`
}

// size and appendJSON make the message a jsonAppender (AppendJSON): as
// json.Marshal writes it, its parts' bytes encoded once, straight into
// the request.
func (m AnthropicToolResultMessage) size() int {
	n := 32 + len(m.Role)
	for i := range m.Content {
		r := &m.Content[i]
		n += 64 + len(r.ToolUseID) + len(r.Type)
		switch c := r.Content.(type) {
		case string:
			n += len(c) + 2
		case []AnthropicContentBlock:
			n += anthropicBlocksSize(c)
		}
	}
	return n
}

func (m AnthropicToolResultMessage) appendJSON(b []byte) []byte {
	return appendRoleList(b, m.Role, "content", m.Content, appendAnthropicToolResult)
}

func appendAnthropicToolResult(b []byte, r *AnthropicToolResult) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "type", r.Type)
	b = appendStringMember(b, "tool_use_id", r.ToolUseID)
	switch c := r.Content.(type) {
	case nil:
	case string:
		b = appendStringMember(b, "content", c)
	case []AnthropicContentBlock:
		b = appendAnthropicBlocks(appendMember(b, "content"), c)
	default:
		data, _ := json.Marshal(c) // set by hand: as json.Marshal writes it
		b = append(appendMember(b, "content"), data...)
	}
	b = appendMember(b, "is_error")
	if r.IsError {
		return append(b, "true}"...)
	}
	return append(b, "false}"...)
}

func anthropicBlocksSize(blocks []AnthropicContentBlock) int {
	n := 2
	for _, c := range blocks {
		n += 48 + len(c.Type) + len(c.Text) + len(c.Title)
		if s := c.Source; s != nil {
			n += 64 + len(s.Type) + len(s.MediaType) + len(s.URL) + base64Size(len(s.Data)) + anthropicBlocksSize(s.Content)
		}
	}
	return n
}

// appendAnthropicBlocks appends blocks as json.Marshal writes them.
func appendAnthropicBlocks(b []byte, blocks []AnthropicContentBlock) []byte {
	return appendArray(b, blocks, appendAnthropicBlock)
}

func appendAnthropicBlock(b []byte, c *AnthropicContentBlock) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "type", c.Type)
	if c.Text != "" {
		b = appendStringMember(b, "text", c.Text)
	}
	if s := c.Source; s != nil {
		b = appendMember(b, "source")
		b = append(b, '{')
		b = appendStringMember(b, "type", s.Type)
		if s.MediaType != "" {
			b = appendStringMember(b, "media_type", s.MediaType)
		}
		if len(s.Data) > 0 {
			b = appendBase64(appendMember(b, "data"), s.Data)
		}
		if s.URL != "" {
			b = appendStringMember(b, "url", s.URL)
		}
		if len(s.Content) > 0 {
			b = appendAnthropicBlocks(appendMember(b, "content"), s.Content)
		}
		b = append(b, '}')
	}
	if c.Title != "" {
		b = appendStringMember(b, "title", c.Title)
	}
	return append(b, '}')
}

var (
	anthropicKeys      = []string{"type", "role", "content", "stop_reason", "error", "usage"}
	anthropicBlockKeys = []string{"type", "id", "name", "input", "text"}
	anthropicErrorKeys = [4]string{"message", "type", "code", "param"}
)

// ParseAnthropicReply parses an Anthropic Messages API reply (the message
// object the API returns). It is [ReplyLimits.ParseAnthropicReply] with
// the default limits.
func ParseAnthropicReply(reply []byte) (Turn, error) {
	return ReplyLimits{}.ParseAnthropicReply(reply)
}

// ParseAnthropicReply parses an Anthropic Messages API reply within l.
//
// An error body ({"type":"error","error":{"type","message"}}) is a
// [ReplyError] wrapping [ErrProviderError] that quotes it.
//
// Every tool_use block becomes a [Call]; its input object is the arguments
// (absent or null input means {}; any other non-object is an error
// wrapping [ErrArguments]). Blocks of tools the server runs itself
// (server_tool_use, web search results) make no calls.
//
// Turn.Replay holds one [AnthropicMessage] with the content as sent;
// Turn.Text joins the text blocks; Turn.Stop is stop_reason.
func (l ReplyLimits) ParseAnthropicReply(reply []byte) (Turn, error) {
	p := l.parser(NameAnthropic)
	data, err := p.whole(reply)
	defer p.release()
	if err != nil {
		return Turn{}, err
	}
	var m [6][]byte
	if err := p.fields(pointer(""), data, anthropicKeys, m[:]); err != nil {
		return Turn{}, err
	}
	typ, err := p.text(pointer("/type"), m[0])
	if err != nil {
		return Turn{}, err
	}
	if m[4] != nil && m[4][0] == '{' && (typ == "error" || m[2] == nil) {
		return Turn{}, p.errorObject(pointer("/error"), m[4], &anthropicErrorKeys)
	}
	if typ == "error" {
		return Turn{}, p.providerError(pointer(""), "", "error", "", "")
	}
	if m[2] == nil {
		return Turn{}, p.notShape(pointer("/content"), data, `missing "content": not an Anthropic message`)
	}
	if m[2][0] != '[' {
		return Turn{}, p.fail(pointer("/content"), ErrReplyShape, "expected an array, got %s", jsonwire.Kind(m[2]))
	}
	role, err := p.text(pointer("/role"), m[1])
	if err != nil {
		return Turn{}, err
	}
	if role != "" && role != "assistant" {
		return Turn{}, p.fail(pointer("/role"), ErrReplyShape, "role is %s, not assistant", msgQuote(role))
	}
	turn := Turn{}
	if turn.Stop, err = p.text(pointer("/stop_reason"), m[3]); err != nil {
		return Turn{}, err
	}
	if turn.Usage, err = p.anthropicUsage(m[5]); err != nil {
		return Turn{}, err
	}
	var text textJoin
	n := p.ix.Count(m[2], "type", "tool_use")
	turn.Calls = sized[Call](n)
	ids := callIDs{hint: n}
	err = p.ix.Elems(m[2], func(i int, raw []byte) error {
		at := pointer("/content").index(i)
		var b [5][]byte
		if err := p.fields(at, raw, anthropicBlockKeys, b[:]); err != nil {
			return err
		}
		typ, err := p.text(at.key("/type"), b[0])
		if err != nil {
			return err
		}
		switch typ {
		case "text":
			s, err := p.text(at.key("/text"), b[4])
			text.WriteString(s)
			return err
		case "tool_use":
			c, err := p.namedCall(at, b[1], b[2], &ids)
			if err != nil {
				return err
			}
			if c.Args, err = p.argsObject(at.key("/input"), b[3]); err != nil {
				return err
			}
			turn.Calls = append(turn.Calls, c)
		case "":
			return p.fail(at.key("/type"), ErrReplyShape, "missing type")
		}
		return nil
	})
	if err != nil {
		return Turn{}, err
	}
	turn.Text = text.String()
	turn.Replay = []any{AnthropicMessage{Role: "assistant", Content: p.ix.CompactIn(p.blocks, m[2])}}
	return turn.noEmptyCalls(), nil
}

// AnthropicResults renders the results of calls as the one user message
// that must follow the assistant turn: a tool_result block per call, in
// call order, each with its call's tool_use_id and is_error set for error
// results. The tool_result blocks are the whole content, so they come
// first as the API requires; to add user text, send it as a following user
// message (the API joins consecutive user turns) or append blocks after
// these.
//
// A result with parts has its content as blocks
// ([AnthropicToolResult.Content] a []AnthropicContentBlock): a text block
// with its Output, then a text block for each text part, an image block
// (base64: PNG, JPEG, GIF or WebP; or url) for each image, and a document
// block for each PDF (base64, or url) and text file (a content source of
// its text), titled with its file name. Anthropic takes no audio and no other document type there:
// such a part is an error wrapping [ErrMedia] unless [MediaAsNote] is
// given.
//
// Results and calls must be one to one ([ErrResultCount]), and every call
// needs an id ([ErrCallID]).
func AnthropicResults(calls []Call, results []define.Result, opts ...Option) (AnthropicToolResultMessage, error) {
	cfg, err := resultsConfig(anthropicSpec, "AnthropicResults", opts, true)
	if err != nil {
		return AnthropicToolResultMessage{}, err
	}
	return anthropicResults(anthropicSpec, calls, results, cfg)
}

func anthropicResults(p *spec, calls []Call, results []define.Result, cfg config) (AnthropicToolResultMessage, error) {
	const fn = "AnthropicResults"
	if err := checkResultPairs(fn, calls, results, true); err != nil {
		return AnthropicToolResultMessage{}, err
	}
	msg := AnthropicToolResultMessage{Role: "user", Content: make([]AnthropicToolResult, len(calls))}
	m := newMedia(p, fn, cfg)
	for i, c := range calls {
		r := &results[i]
		out := r.Output
		if r.IsError {
			out = resultErrorText(*r)
		}
		tr := AnthropicToolResult{Type: "tool_result", ToolUseID: c.ID, IsError: r.IsError}
		if out != "" {
			tr.Content = out
		}
		pieces, err := m.pieces(i, &calls[i], r)
		if err != nil {
			return AnthropicToolResultMessage{}, err
		}
		if pieces != nil {
			blocks := make([]AnthropicContentBlock, 0, len(pieces)+1)
			if out != "" {
				blocks = append(blocks, AnthropicContentBlock{Type: "text", Text: out})
			}
			for _, pc := range pieces {
				if b, ok := anthropicResultBlock(pc); ok {
					blocks = append(blocks, b)
				}
			}
			tr.Content = blocks
		}
		msg.Content[i] = tr
	}
	return msg, nil
}

var (
	anthropicUsageKeys  = []string{"input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens", "output_tokens_details"}
	anthropicUsagePaths = [...]string{"/input_tokens", "/output_tokens", "/cache_read_input_tokens", "/cache_creation_input_tokens",
		"/output_tokens_details/thinking_tokens"}
	anthropicOutputDetailKeys = []string{"thinking_tokens"}
)

// anthropicUsage reads a message's usage object raw: input_tokens leaves
// out the cache, so Input is input_tokens + cache_read_input_tokens +
// cache_creation_input_tokens; output_tokens counts the thinking, which
// Reasoning is when output_tokens_details.thinking_tokens gives it (a
// stream's message_delta may; Reasoning is unknown otherwise).
func (p replyParser) anthropicUsage(raw []byte) (Usage, error) {
	var u Usage
	at := pointer("/usage")
	var f [5][]byte
	if ok, err := p.usageObject(at, raw, anthropicUsageKeys, f[:]); !ok || err != nil {
		return u, err
	}
	var details [1][]byte
	if _, err := p.usageObject(at.key("/output_tokens_details"), f[4], anthropicOutputDetailKeys, details[:]); err != nil {
		return u, err
	}
	f[4] = details[0]
	var c [5]tokens
	for i, path := range anthropicUsagePaths {
		var err error
		if c[i], err = p.tokenCount(at.key(path), f[i]); err != nil {
			return u, err
		}
	}
	in, err := p.plus(at.key("/input_tokens"), c[0], c[2], c[3])
	if err != nil {
		return u, err
	}
	u.set(UsageInput, in)
	u.set(UsageOutput, c[1])
	u.set(UsageCacheRead, c[2])
	u.set(UsageCacheWrite, c[3])
	u.set(UsageReasoning, c[4])
	p.keepRaw(&u, raw)
	return u, nil
}

// anthropicResultBlock is the block of one piece; false for an empty text,
// which the API refuses.
func anthropicResultBlock(pc piece) (AnthropicContentBlock, bool) {
	p := pc.part
	switch {
	case p == nil:
		return AnthropicContentBlock{Type: "text", Text: pc.text}, pc.text != ""
	case p.Kind == define.PartText:
		return AnthropicContentBlock{Type: "text", Text: p.Text}, p.Text != ""
	}
	typ := "document"
	if p.Kind == define.PartImage {
		typ = "image"
	}
	b := AnthropicContentBlock{Type: typ, Source: &AnthropicSource{Type: "base64", MediaType: p.MIMEType, Data: p.Data}}
	switch {
	case p.Data == nil:
		b.Source = &AnthropicSource{Type: "url", URL: p.URL}
	case strings.HasPrefix(p.MIMEType, "text/"):
		b.Source = &AnthropicSource{Type: "content", Content: []AnthropicContentBlock{{Type: "text", Text: string(p.Data)}}}
	}
	if typ == "document" {
		b.Title = p.Filename
	}
	return b, true
}

// anthropicPlace is where Anthropic takes a part: text, images (PNG,
// JPEG, GIF, WebP; data or URL) and documents (PDF, data or URL; text
// files, data) inside the tool_result.
func anthropicPlace(p *define.Part, _ config) (place, string) {
	switch p.Kind {
	case define.PartText:
		return inResult, ""
	case define.PartImage:
		switch p.MIMEType {
		case "image/png", "image/jpeg", "image/gif", "image/webp":
			return inResult, ""
		case "":
			if p.Data == nil {
				return inResult, ""
			}
		}
		return nowhere, "takes images as PNG, JPEG, GIF or WebP only"
	case define.PartFile:
		switch {
		case p.MIMEType == "application/pdf", p.Data == nil && p.MIMEType == "":
			return inResult, ""
		case p.Data != nil && strings.HasPrefix(p.MIMEType, "text/"):
			return inResult, ""
		}
		return nowhere, "takes documents as PDF (data or URL) or plain text (data) only"
	}
	return nowhere, "takes no audio"
}
