package adapters

import (
	"encoding/json"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
	"github.com/toolnexus/toolnexus/internal/outjson"
)

// MCPCallToolResult is the result of an MCP tools/call request.
type MCPCallToolResult struct {
	// Content is one text block holding the Output (for a typed output,
	// its JSON text, for clients that do not read structuredContent),
	// then a block for each part of the result (none without an Output
	// when it has parts).
	Content []MCPContent `json:"content"`
	// StructuredContent is the typed output as a JSON object, present when
	// the tool returned a value that is a JSON object (a struct or a map),
	// as a tool with an outputSchema must.
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	// IsError reports a tool-level failure the model should see.
	IsError bool `json:"isError"`
}

// MCPContent is an MCP content block: "text" (Text), "image" and "audio"
// (Data, base64 in JSON, and MIMEType), "resource" (an embedded
// resource: Resource) or "resource_link" (URI, Name, MIMEType). Empty
// members are left out: this package makes no empty text block.
type MCPContent struct {
	Type     string       `json:"type"`
	Text     string       `json:"text,omitempty"`
	Data     []byte       `json:"data,omitempty"`
	MIMEType string       `json:"mimeType,omitempty"`
	Resource *MCPResource `json:"resource,omitempty"`
	URI      string       `json:"uri,omitempty"`
	Name     string       `json:"name,omitempty"`
}

// MCPResource is an embedded resource's contents: its URI and MIME type,
// and its text, or its bytes (Blob, base64 in JSON).
type MCPResource struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     []byte `json:"blob,omitempty"`
}

func (c *MCPContent) size() int {
	n := 64 + len(c.Type) + len(c.Text) + len(c.MIMEType) + len(c.URI) + len(c.Name) + base64Size(len(c.Data))
	if r := c.Resource; r != nil {
		n += 48 + len(r.URI) + len(r.MIMEType) + len(r.Text) + base64Size(len(r.Blob))
	}
	return n
}

// appendJSON appends the block as json.Marshal writes it.
func (c *MCPContent) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "type", c.Type)
	if c.Text != "" {
		b = appendStringMember(b, "text", c.Text)
	}
	if len(c.Data) > 0 {
		b = appendBase64(appendMember(b, "data"), c.Data)
	}
	if c.MIMEType != "" {
		b = appendStringMember(b, "mimeType", c.MIMEType)
	}
	if r := c.Resource; r != nil {
		b = appendMember(b, "resource")
		b = append(b, '{')
		b = appendStringMember(b, "uri", r.URI)
		if r.MIMEType != "" {
			b = appendStringMember(b, "mimeType", r.MIMEType)
		}
		if r.Text != "" {
			b = appendStringMember(b, "text", r.Text)
		}
		if len(r.Blob) > 0 {
			b = appendBase64(appendMember(b, "blob"), r.Blob)
		}
		b = append(b, '}')
	}
	if c.URI != "" {
		b = appendStringMember(b, "uri", c.URI)
	}
	if c.Name != "" {
		b = appendStringMember(b, "name", c.Name)
	}
	return append(b, '}')
}

// mcpContent is the block of part j of a result.
func mcpContent(p *define.Part, j int) MCPContent {
	switch {
	case p.Kind == define.PartText:
		return MCPContent{Type: "text", Text: p.Text} // an empty one is left out
	case p.Data == nil:
		return MCPContent{Type: "resource_link", URI: p.URL, Name: urlName(p.URL, j), MIMEType: p.MIMEType}
	case p.Kind == define.PartFile:
		r := &MCPResource{URI: PartURI(j, p), MIMEType: p.MIMEType, Blob: p.Data}
		if strings.HasPrefix(p.MIMEType, "text/") {
			r.Text, r.Blob = string(p.Data), nil
		}
		return MCPContent{Type: "resource", Resource: r}
	}
	return MCPContent{Type: string(p.Kind), Data: p.Data, MIMEType: p.MIMEType}
}

// PartURI is the URI of the embedded resource that carries file part j
// of a result (MCP's resources need one): "toolnexus://part/J/NAME", NAME
// its file name (or "attachment-N.EXT"), escaped as a URL path segment.
// tnmcp reads the name back from it.
func PartURI(j int, p *define.Part) string {
	return "toolnexus://part/" + strconv.Itoa(j) + "/" + url.PathEscape(fileName(p, j+1))
}

// urlName is a resource link's name: the last segment of its URL's path,
// or "part-J".
func urlName(raw string, j int) string {
	if u, err := url.Parse(raw); err == nil {
		if name := path.Base(u.Path); name != "." && name != "/" && name != "" {
			return name
		}
	}
	return "part-" + strconv.Itoa(j)
}

// MCPResponse is the JSON-RPC response to a tools/call request.
type MCPResponse struct {
	JSONRPC string            `json:"jsonrpc"` // "2.0"
	ID      json.RawMessage   `json:"id"`      // the request's id, echoed
	Result  MCPCallToolResult `json:"result"`
}

// size and appendJSON make the response a jsonAppender (AppendJSON): as
// json.Marshal writes it, the id and structuredContent (compact JSON, as
// this package makes them) HTML-escaped, not validated again.
func (r MCPResponse) size() int {
	n := 64 + len(r.JSONRPC) + len(r.ID) + len(r.Result.StructuredContent)
	for i := range r.Result.Content {
		n += r.Result.Content[i].size() + 1
	}
	return n
}

func (r MCPResponse) appendJSON(b []byte) []byte {
	b = appendMCPHead(b, r.JSONRPC, r.ID)
	b = appendArray(b, r.Result.Content, func(b []byte, c *MCPContent) []byte { return c.appendJSON(b) })
	return appendMCPTail(b, r.Result.StructuredContent, r.Result.IsError)
}

// appendMCPHead appends a tools/call response up to its result's content
// value; appendMCPTail the rest.
func appendMCPHead(b []byte, jsonrpc string, id json.RawMessage) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "jsonrpc", jsonrpc)
	b = appendMember(b, "id")
	b, _ = appendRaw(b, id) // appendRaw never fails
	b = appendMember(b, "result")
	b = append(b, '{')
	return appendMember(b, "content")
}

func appendMCPTail(b []byte, structured json.RawMessage, isError bool) []byte {
	if len(structured) > 0 {
		b = appendMember(b, "structuredContent")
		b, _ = appendRaw(b, structured)
	}
	b = appendMember(b, "isError")
	if isError {
		b = append(b, "true"...)
	} else {
		b = append(b, "false"...)
	}
	return append(b, '}', '}')
}

// MCPTextResponse is the JSON-RPC response to a tools/call request whose
// result has no parts, as [ForMCP]'s Provider.Results gives it when no
// result of the batch has parts: the same JSON as the [MCPResponse] of
// that result, in types without the members of parts, which
// encoding/json would check one by one.
type MCPTextResponse struct {
	JSONRPC string          `json:"jsonrpc"` // "2.0"
	ID      json.RawMessage `json:"id"`      // the request's id, echoed
	Result  MCPTextResult   `json:"result"`
}

// MCPTextResult is a CallToolResult of text: at most one text block.
type MCPTextResult struct {
	Content           []MCPText       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError"`
}

// MCPText is an MCP content block of text.
type MCPText struct {
	Type string `json:"type"` // "text"
	Text string `json:"text,omitempty"`
}

// mcpTextResponses renders results without parts as MCPTextResponses.
func mcpTextResponses(calls []Call, results []define.Result) ([]any, error) {
	if err := checkResultPairs("MCPResponses", calls, results, true); err != nil {
		return nil, err
	}
	out := make([]any, len(calls))
	texts := make([]MCPText, len(calls)) // one array for the batch's text blocks
	for i := range calls {
		text, structured := mcpText(&results[i])
		res := MCPTextResult{Content: texts[i:i:i], StructuredContent: structured, IsError: results[i].IsError}
		if text != "" {
			texts[i] = MCPText{Type: "text", Text: text}
			res.Content = texts[i : i+1 : i+1]
		}
		out[i] = MCPTextResponse{JSONRPC: "2.0", ID: mcpID(calls[i].ID), Result: res}
	}
	return out, nil
}

// size and appendJSON make the response a jsonAppender (AppendJSON), as
// MCPResponse's.
func (r MCPTextResponse) size() int {
	n := 64 + len(r.JSONRPC) + len(r.ID) + len(r.Result.StructuredContent)
	for i := range r.Result.Content {
		n += 32 + len(r.Result.Content[i].Text)
	}
	return n
}

func (r MCPTextResponse) appendJSON(b []byte) []byte {
	b = appendMCPHead(b, r.JSONRPC, r.ID)
	b = appendArray(b, r.Result.Content, func(b []byte, c *MCPText) []byte {
		b = append(b, '{')
		b = appendStringMember(b, "type", c.Type)
		if c.Text != "" {
			b = appendStringMember(b, "text", c.Text)
		}
		return append(b, '}')
	})
	return appendMCPTail(b, r.Result.StructuredContent, r.Result.IsError)
}

var (
	mcpRequestKeys = []string{"jsonrpc", "id", "method", "params", "error"}
	mcpParamsKeys  = []string{"name", "arguments"}
	mcpErrorKeys   = [4]string{"message", "", "code"}
)

// ParseMCPReply parses what an MCP client sends to call tools; it is
// [ReplyLimits.ParseMCPReply] with the default limits.
func ParseMCPReply(msg []byte) (Turn, error) { return ReplyLimits{}.ParseMCPReply(msg) }

// ParseMCPReply parses what an MCP client sends to call tools, within l: a
// tools/call request's params ({"name":...,"arguments":{...}}), the whole
// JSON-RPC request, or a JSON-RPC batch (an array) of tools/call requests.
// Each becomes a [Call] whose ID is the request's id as JSON text ("" for
// bare params); absent arguments mean {}. A request for another method, and
// two requests with one id, are errors wrapping [ErrReplyShape]; a JSON-RPC
// error response ({"jsonrpc":"2.0","id":1,"error":{"code","message"}}) is a
// [ReplyError] wrapping [ErrProviderError] that quotes it.
//
// MCP has no conversation to replay: Turn.Replay holds the requests as
// [json.RawMessage] values, for logging, and Turn.Text is empty.
func (l ReplyLimits) ParseMCPReply(msg []byte) (Turn, error) {
	p := l.parser(NameMCP)
	data, err := p.whole(msg)
	defer p.release()
	if err != nil {
		return Turn{}, err
	}
	var turn Turn
	switch data[0] {
	case '[':
		n := p.ix.Len(data)
		turn.Calls, turn.Replay = sized[Call](n), sized[any](n)
		ids := callIDs{hint: n}
		err := p.ix.Elems(data, func(i int, raw []byte) error {
			at := pointer("").index(i)
			c, err := p.mcpRequest(at, raw)
			if err != nil {
				return err
			}
			if err := p.uniqueKey(&ids, at.key("/id"), mcpIDKey(c.ID), c.ID); err != nil {
				return err
			}
			turn.Calls = append(turn.Calls, c)
			turn.Replay = append(turn.Replay, json.RawMessage(p.ix.CompactIn(p.blocks, raw)))
			return nil
		})
		if err != nil {
			return Turn{}, err
		}
		if len(turn.Calls) == 0 {
			return Turn{}, p.fail(pointer(""), ErrReplyShape, "empty batch")
		}
	case '{':
		var r [5][]byte
		if err := p.fields(pointer(""), data, mcpRequestKeys, r[:]); err != nil {
			return Turn{}, err
		}
		var c Call
		switch {
		case r[2] != nil || r[4] != nil:
			c, err = p.mcpRequest(pointer(""), data)
		case p.ix.Field(data, "name") == nil && p.ix.Field(data, "arguments") == nil:
			return Turn{}, p.notShape(pointer(""), data, `no "method" and no "name": not a JSON-RPC tools/call request or its params`)
		default:
			c, err = p.mcpParams(pointer(""), data)
		}
		if err != nil {
			return Turn{}, err
		}
		turn.Calls = []Call{c}
		turn.Replay = []any{json.RawMessage(p.ix.CompactIn(p.blocks, data))}
	default:
		return Turn{}, p.fail(pointer(""), ErrReplyShape, "expected a tools/call request, its params or a batch, got %s", jsonwire.Kind(data))
	}
	return turn.noEmptyCalls(), nil
}

// mcpIDKey is the key under which a JSON-RPC id is unique: a number by its
// JSON text, a string by its text between quotes with escapes undone (the
// id itself when it holds none), so that two ids that read as one string
// share a key. Only a string's key starts with a quote.
func mcpIDKey(id string) string {
	if id == "" || id[0] != '"' || strings.IndexByte(id, '\\') < 0 {
		return id
	}
	s, _ := jsonwire.Text([]byte(id))
	return `"` + s + `"`
}

func (p replyParser) mcpRequest(path loc, raw []byte) (Call, error) {
	var r [5][]byte
	if err := p.fields(path, raw, mcpRequestKeys, r[:]); err != nil {
		return Call{}, err
	}
	if r[4] != nil && r[4][0] == '{' {
		return Call{}, p.errorObject(path.key("/error"), r[4], &mcpErrorKeys)
	}
	if r[2] == nil {
		return Call{}, p.notShape(path.key("/method"), raw, `missing "method": not a JSON-RPC request`)
	}
	method, err := p.text(path.key("/method"), r[2])
	if err != nil {
		return Call{}, err
	}
	if method != "tools/call" {
		return Call{}, p.fail(path.key("/method"), ErrReplyShape, "method %s is not tools/call", msgQuote(method))
	}
	if k := jsonwire.Kind(r[1]); k != "a string" && k != "a number" {
		return Call{}, p.fail(path.key("/id"), ErrReplyShape, "expected a string or number id, got %s", k)
	}
	if r[3] == nil {
		return Call{}, p.fail(path.key("/params"), ErrReplyShape, "missing params")
	}
	c, err := p.mcpParams(path.key("/params"), r[3])
	c.ID = p.texts.String(r[1])
	return c, err
}

func (p replyParser) mcpParams(path loc, raw []byte) (Call, error) {
	var w [2][]byte
	if err := p.fields(path, raw, mcpParamsKeys, w[:]); err != nil {
		return Call{}, err
	}
	name, err := p.text(path.key("/name"), w[0])
	if err != nil {
		return Call{}, err
	}
	if name == "" {
		return Call{}, p.fail(path.key("/name"), ErrReplyShape, "missing name")
	}
	args, err := p.argsObject(path.key("/arguments"), w[1])
	if err != nil {
		return Call{}, err
	}
	return Call{Name: name, Args: args}, nil
}

// MCPResults renders the results of calls as MCP CallToolResults, one per
// call in call order: content is one text block with the Output (none
// for an empty Output), isError is set for error results, and
// structuredContent is the typed output ([define.Result.Value]) when it
// is a JSON object.
//
// A result's parts follow its text block (which is left out when its
// Output is empty): a text block for a text part, an image or audio block
// (data and mimeType) for an image or a sound, an embedded resource (its
// text for a text file, else its bytes as blob; its URI from [PartURI])
// for a file, and a resource_link for an image or a file by URL. MCP
// carries every part; a malformed one (made by hand, without a kind or a
// MIME type) is an error wrapping [ErrMedia]. MCPResults takes
// [MediaAsNote], which changes nothing.
//
// Results and calls must be one to one ([ErrResultCount]).
func MCPResults(calls []Call, results []define.Result, opts ...Option) ([]MCPCallToolResult, error) {
	if _, err := resultsConfig(mcpSpec, "MCPResults", opts, true); err != nil {
		return nil, err
	}
	if err := checkResultPairs("MCPResults", calls, results, false); err != nil {
		return nil, err
	}
	if err := mcpCheckParts("MCPResults", calls, results); err != nil {
		return nil, err
	}
	out := make([]MCPCallToolResult, len(calls))
	for i := range calls {
		out[i] = MCPResult(results[i])
	}
	return out, nil
}

// MCPResponses renders the results of calls as JSON-RPC responses to the
// tools/call requests they came in, each echoing its call's id; the
// result is as for [MCPResults]. Every call needs an id ([ErrCallID]):
// calls parsed from bare params have none. An id that is not JSON text (set
// by hand) is sent as a JSON string.
func MCPResponses(calls []Call, results []define.Result) ([]MCPResponse, error) {
	if err := checkResultPairs("MCPResponses", calls, results, true); err != nil {
		return nil, err
	}
	if err := mcpCheckParts("MCPResponses", calls, results); err != nil {
		return nil, err
	}
	out := make([]MCPResponse, len(calls))
	for i, c := range calls {
		out[i] = MCPResponse{JSONRPC: "2.0", ID: mcpID(c.ID), Result: MCPResult(results[i])}
	}
	return out, nil
}

// mcpID returns a call's id as a JSON-RPC id: the JSON text ParseMCPReply
// stored, or, for an id set by hand that is not JSON, that text as a string.
func mcpID(id string) json.RawMessage {
	if json.Valid([]byte(id)) {
		return json.RawMessage(id)
	}
	q, _ := json.Marshal(id)
	return q
}

// mcpCheckParts reports the first malformed part of results.
func mcpCheckParts(fn string, calls []Call, results []define.Result) error {
	for i := range results {
		if len(results[i].Parts) == 0 {
			continue
		}
		m := media{ms: &mcpMedia, display: "MCP", fn: fn}
		if _, err := m.pieces(i, &calls[i], &results[i]); err != nil {
			return err
		}
	}
	return nil
}

// mcpText is the text block's text of a result (its error text for an
// error) and, for a result without parts that is no error, its typed
// output when it is a JSON object (structuredContent).
func mcpText(r *define.Result) (text string, structured json.RawMessage) {
	if r.IsError {
		return resultErrorText(*r), nil
	}
	if len(r.Parts) == 0 {
		if v := structuredValue(r); len(v) > 0 && v[0] == '{' {
			structured = v
		}
	}
	return r.Output, structured
}

// MCPResult renders one result as a CallToolResult; see [MCPResults]. A
// malformed part (made by hand) makes it an error result naming the part.
func MCPResult(r define.Result) MCPCallToolResult {
	text, structured := mcpText(&r)
	if len(r.Parts) == 0 {
		res := MCPCallToolResult{Content: []MCPContent{{Type: "text", Text: text}}, IsError: r.IsError, StructuredContent: structured}
		if text == "" {
			res.Content = []MCPContent{} // no empty text block
		}
		return res
	}
	res := MCPCallToolResult{Content: make([]MCPContent, 0, len(r.Parts)+1), IsError: r.IsError}
	if text != "" {
		res.Content = append(res.Content, MCPContent{Type: "text", Text: text})
	}
	for j := range r.Parts {
		p := &r.Parts[j]
		if bad := wellFormed(p); bad != "" {
			msg := "part " + strconv.Itoa(j) + ", " + p.String() + ": " + bad
			return MCPCallToolResult{Content: []MCPContent{{Type: "text", Text: msg}}, IsError: true}
		}
		if p.Kind == define.PartText && p.Text == "" {
			continue
		}
		res.Content = append(res.Content, mcpContent(p, j))
	}
	if !r.IsError {
		if v := structuredValue(&r); len(v) > 0 && v[0] == '{' {
			res.StructuredContent = v
		}
	}
	return res
}

// structuredValue is r.Value as JSON: as the call encoded it (within the
// tool's output limits), or, for a Result made by hand, encoded here as
// define encodes outputs (nil slices and maps as [] and {}, valid UTF-8)
// within define.DefaultMaxOutputBytes. nil when there is no value or it
// cannot be encoded so.
func structuredValue(r *define.Result) json.RawMessage {
	if r.Value == nil {
		return nil
	}
	if s, ok := r.ValueJSON(); ok {
		return json.RawMessage(s)
	}
	v, err := outjson.Append(nil, r.Value, outjson.Limits{MaxBytes: define.DefaultMaxOutputBytes, MaxDepth: define.MaxOutputDepth})
	if err != nil {
		return nil
	}
	return v
}
