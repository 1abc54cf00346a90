package tnmcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus/define"
)

// RemoteResult converts the answer of tools/call to the remote tool named
// tool of the server named server to a define.Result, within
// define.DefaultMaxOutputBytes; see [RemoteResultLimited].
func RemoteResult(server, tool string, res *mcp.CallToolResult) define.Result {
	return RemoteResultLimited(server, tool, res, define.DefaultMaxOutputBytes)
}

// RemoteResultLimited converts the answer of tools/call to the remote
// tool named tool of the server named server to a define.Result whose
// Output is at most maxOutput bytes, the n of define.WithMaxOutputBytes(n)
// (0: define.DefaultMaxOutputBytes; < 0: no bound); the tools of [Remote]
// use it with their own limit:
//
//   - the text blocks, joined by newlines, are Output; a text resource
//     embedded in the result adds a line naming it and then its text;
//   - images and audio become the result's Parts (define.ImagePart,
//     define.AudioPart, their bytes as the SDK decoded them, not copied),
//     and so does a binary embedded resource (define.FilePart, named
//     after the last segment of its URI; a file of an image or audio type
//     is checked and carried as one), so that a remote screenshot reaches
//     the model as an image: the adapters render each in the provider's
//     form. Texts that come after the first part follow it as text parts,
//     in order. The tools of [Remote] check the parts as every define
//     tool's are (their MIME types against their bytes, their sizes
//     against define.WithMaxPartBytes and WithMaxOutputBytes);
//   - resource links, and images, audio and blobs without data, add a
//     one-line note naming the kind, MIME type, size and URI
//     ("[resource link: file:///a.txt, text/plain]");
//   - structuredContent becomes Value, and Output is its JSON (as
//     json.Marshal writes it) when the result has no other content;
//   - isError sets IsError, with the text as Output and a [*ToolError] as
//     Err.
//
// The Output's length is counted before any of it is written, so an
// answer over maxOutput costs no copy of its text: the result is then the
// error result define gives an output over its limit (wrapping
// define.ErrOutputTooLarge, with the length the Output would have had).
// The call's own memory is then what the SDK allocated to decode the
// answer.
func RemoteResultLimited(server, tool string, res *mcp.CallToolResult, maxOutput int) define.Result {
	if res == nil {
		return define.Result{Output: fmt.Sprintf("mcp server %s: tool %s returned no result", server, tool), IsError: true,
			Err: &CallError{Server: server, Tool: tool, Err: errors.New("no result")}}
	}
	if maxOutput == 0 {
		maxOutput = define.DefaultMaxOutputBytes
	}
	structuredOnly := len(res.Content) == 0 && res.StructuredContent != nil && !res.IsError
	write := func(o *output) error {
		if structuredOnly {
			return o.json(res.StructuredContent, 0)
		}
		writeContent(o, res.Content)
		return nil
	}
	// Measure, then write into a buffer of the exact length.
	var o output
	if err := write(&o); err != nil {
		return structuredError(server, tool, err)
	}
	if maxOutput >= 0 && o.n > maxOutput {
		return tooLarge(o.n, maxOutput)
	}
	n := o.nOut
	o = output{b: new(strings.Builder)}
	o.b.Grow(n)
	_ = write(&o) // it succeeded measuring
	text, parts := o.b.String(), o.parts

	if res.IsError {
		if text == "" && len(parts) == 0 {
			text = "the tool failed without a message"
		}
		return define.Result{Output: text, IsError: true, Err: &ToolError{Server: server, Tool: tool, Message: text}, Parts: parts}
	}
	out := define.Result{Output: text, Parts: parts}
	if res.StructuredContent != nil {
		out.Value = res.StructuredContent
	}
	return out
}

// writeContent is the one walk over a result's content items: it puts
// each item's text, or the note that stands for it, on a line of o's
// Output, until the first item that is a part (an image, a sound, a blob
// with data); from there on, o's parts are those items and, in order
// between them, each text as a text part.
func writeContent(o *output, content []mcp.Content) {
	for _, c := range content {
		switch c := c.(type) {
		case *mcp.TextContent:
			o.line()
			o.put(c.Text)
		case *mcp.ImageContent:
			if len(c.Data) > 0 {
				o.part(define.ImagePart(c.MIMEType, c.Data))
				continue
			}
			o.media("image", c.MIMEType, len(c.Data))
		case *mcp.AudioContent:
			if len(c.Data) > 0 {
				o.part(define.AudioPart(c.MIMEType, c.Data))
				continue
			}
			o.media("audio", c.MIMEType, len(c.Data))
		case *mcp.ResourceLink:
			o.line()
			o.put("[resource link: ")
			o.put(c.URI)
			if c.MIMEType != "" {
				o.put(", ")
				o.put(c.MIMEType)
			}
			if c.Size != nil {
				o.put(", ")
				o.size(*c.Size)
			}
			o.put("]")
		case *mcp.EmbeddedResource:
			rc := c.Resource
			if rc != nil && len(rc.Blob) > 0 {
				o.part(define.FilePart(rc.MIMEType, uriName(rc.URI), rc.Blob))
				continue
			}
			o.line()
			if rc == nil {
				o.put("[resource]")
				continue
			}
			mime := rc.MIMEType
			if mime == "" {
				mime = "no MIME type"
			}
			o.put("[resource ")
			o.put(rc.URI)
			o.put(": ")
			o.put(mime)
			o.put(", ")
			if rc.Blob != nil || rc.Text == "" {
				o.size(int64(len(rc.Blob)))
				o.put("]")
				continue
			}
			o.size(int64(len(rc.Text)))
			o.put(" of text]")
			o.line()
			o.put(rc.Text)
		case nil:
		default:
			o.line()
			o.put("[")
			o.put(fmt.Sprintf("%T", c))
			o.put(" content]")
		}
	}
	o.endText()
}

// uriName is the file name of a resource's URI: the last segment of its
// path, unescaped ("report.pdf" of "toolnexus://part/0/report.pdf"); ""
// when it has none.
func uriName(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return ""
	}
	name := path.Base(u.Path)
	if name == "." || name == "/" {
		return ""
	}
	return name
}

// output is a result's Output as it is built: measured first (b nil, n
// counts the bytes), then written into b, made with room for nOut. Once a
// part has come (started), texts go to text parts between the parts
// instead: n counts them too, so that the limit bounds all the text of a
// result, but nOut does not.
type output struct {
	n, nOut int
	b       *strings.Builder
	started bool            // a part has come
	parts   []define.Part   // the parts, made in the writing pass
	cur     strings.Builder // the text part being written
	curN    int             // its length, measuring
}

// put adds s.
func (o *output) put(s string) {
	o.n += len(s)
	if o.started {
		o.curN += len(s)
		if o.b != nil {
			o.cur.WriteString(s)
		}
		return
	}
	o.nOut += len(s)
	if o.b != nil {
		o.b.WriteString(s)
	}
}

// putBytes adds p.
func (o *output) putBytes(p []byte) {
	o.n += len(p)
	o.nOut += len(p)
	if o.b != nil {
		o.b.Write(p)
	}
}

// line starts a line: a newline unless nothing was put yet; after a part,
// a text part of its own.
func (o *output) line() {
	if o.started {
		o.endText()
		return
	}
	if o.nOut > 0 {
		o.put("\n")
	}
}

// part adds a part, after the text part being written.
func (o *output) part(p define.Part) {
	o.endText()
	o.started = true
	if o.b != nil {
		o.parts = append(o.parts, p)
	}
}

// endText ends the text part being written, if any.
func (o *output) endText() {
	if !o.started || o.curN == 0 {
		return
	}
	o.curN = 0
	if o.b != nil {
		o.parts = append(o.parts, define.TextPart(o.cur.String()))
		o.cur.Reset()
	}
}

// size adds n bytes as text: "1 byte", "1000 bytes".
func (o *output) size(n int64) {
	var buf [24]byte
	o.put(string(strconv.AppendInt(buf[:0], n, 10)))
	if n == 1 {
		o.put(" byte")
	} else {
		o.put(" bytes")
	}
}

// media adds the line that stands for an image or audio block of n bytes.
func (o *output) media(kind, mime string, n int) {
	if mime == "" {
		mime = "no MIME type"
	}
	o.line()
	o.put("[")
	o.put(kind)
	o.put(": ")
	o.put(mime)
	o.put(", ")
	o.size(int64(n))
	o.put("]")
}

// json adds v as json.Marshal encodes it. The values that decoding JSON
// into an any makes (maps with string keys, slices of any, strings,
// float64, bool and nil: what the SDK gives as structuredContent) are
// written here, so that measuring them copies nothing; any other value
// is left to json.Marshal. Nesting is bounded as define bounds an
// output's (define.MaxOutputDepth), which a cyclic value passes.
func (o *output) json(v any, depth int) error {
	if depth > define.MaxOutputDepth {
		return fmt.Errorf("%w: more than %d levels", define.ErrOutputTooDeep, define.MaxOutputDepth)
	}
	switch v := v.(type) {
	case nil:
		o.put("null")
	case bool:
		o.put(strconv.FormatBool(v))
	case string:
		o.jsonString(v)
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			_, err := json.Marshal(v) // json.Marshal's error
			return err
		}
		var buf [32]byte
		o.putBytes(appendJSONFloat(buf[:0], v))
	case []any:
		if v == nil {
			o.put("null")
			break
		}
		o.put("[")
		for i, e := range v {
			if i > 0 {
				o.put(",")
			}
			if err := o.json(e, depth+1); err != nil {
				return err
			}
		}
		o.put("]")
	case map[string]any:
		if v == nil {
			o.put("null")
			break
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		o.put("{")
		for i, k := range keys {
			if i > 0 {
				o.put(",")
			}
			o.jsonString(k)
			o.put(":")
			if err := o.json(v[k], depth+1); err != nil {
				return err
			}
		}
		o.put("}")
	default:
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		o.putBytes(data)
	}
	return nil
}

// appendJSONFloat appends f as json.Marshal writes a float64: the
// shortest decimal that reads back as f, in exponent form below 1e-6
// and from 1e21 on, with the exponent's leading zero dropped.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// "1e-07" is written "1e-7".
		if i := bytes.LastIndexByte(b[start:], 'e'); i >= 0 && i+3 < len(b)-start && b[start+i+1] == '-' && b[start+i+2] == '0' {
			b = append(b[:start+i+2], b[start+i+3:]...)
		}
	}
	return b
}

// jsonString adds s as a JSON string, escaped as json.Marshal escapes it:
// '"' and '\\' with a backslash, \b \f \n \r \t by their short forms, the
// other control characters and the HTML characters < > & as \u00XX, the
// line and paragraph separators U+2028 and U+2029 as \u2028 and \u2029,
// and each byte of invalid UTF-8 as \ufffd.
func (o *output) jsonString(s string) {
	const hex = "0123456789abcdef"
	o.put(`"`)
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			o.put(s[start:i])
			switch c {
			case '"':
				o.put(`\"`)
			case '\\':
				o.put(`\\`)
			case '\b':
				o.put(`\b`)
			case '\f':
				o.put(`\f`)
			case '\n':
				o.put(`\n`)
			case '\r':
				o.put(`\r`)
			case '\t':
				o.put(`\t`)
			default:
				o.put(`\u00`)
				o.put(hex[c>>4 : c>>4+1])
				o.put(hex[c&0xf : c&0xf+1])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			o.put(s[start:i])
			o.put(`\ufffd`)
		case r == '\u2028':
			o.put(s[start:i])
			o.put(`\u2028`)
		case r == '\u2029':
			o.put(s[start:i])
			o.put(`\u2029`)
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	o.put(s[start:])
	o.put(`"`)
}

// tooLarge is the error result of an Output of n bytes, over max, as
// define words it.
func tooLarge(n, max int) define.Result {
	return define.Result{
		Output:  fmt.Sprintf("the tool's output was %d bytes, more than the limit of %d", n, max),
		IsError: true,
		Err:     fmt.Errorf("%w: %d bytes, more than %d", define.ErrOutputTooLarge, n, max),
	}
}

// structuredError is the error result of a structuredContent that cannot
// be written as JSON.
func structuredError(server, tool string, err error) define.Result {
	if errors.Is(err, define.ErrOutputTooDeep) {
		return define.Result{Output: fmt.Sprintf("the tool's output was nested deeper than the limit of %d levels", define.MaxOutputDepth), IsError: true, Err: err}
	}
	return define.Result{Output: fmt.Sprintf("mcp server %s: tool %s: structuredContent: %v", server, tool, err), IsError: true,
		Err: &CallError{Server: server, Tool: tool, Err: err}}
}
