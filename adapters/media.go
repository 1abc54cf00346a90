package adapters

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus/define"
)

// The content parts of results (define.Result.Parts), for every home: the
// options of the results functions, where each part goes, the notes and
// labels that stand for parts or name them, and the JSON writers that
// encode a part's bytes once, into the request.
//
// Each home tells, through its spec's media function, where each part
// goes: inside the tool result in the provider's own form, as text in
// the result (a text part, or a text file where the provider has no form
// for files), in a message after the results (providers whose tool
// results carry text only), or nowhere (the provider takes it in no
// form). resultMedia walks a result's parts in order with that answer;
// the home renders what it gets.

var (
	// ErrMedia: a part of a result that the provider takes in no form
	// (audio for Anthropic, a file for Mistral), or that is malformed (a
	// part made by hand without a kind or a MIME type). The error names
	// the result, the part and the provider's rule; [MediaAsNote] sends
	// such parts as a note instead.
	ErrMedia = errors.New("content part not carried by the provider")
	// ErrMediaMessage: a typed results function (OpenAIResults,
	// MistralResults, OllamaResults, GeminiResults) was given parts that
	// the provider takes in a message after the results, which its
	// return type cannot hold: use its ...ResultsAndMedia companion or
	// [Provider.Results], or [MediaAsNote].
	ErrMediaMessage = errors.New("content parts go in a message after the results")
)

// MediaAsNote makes the results functions send a text note naming each
// part that the provider cannot carry inside the tool result ("[image:
// image/png, 4033 bytes]"), in place of the message after the results
// that carries it by default (OpenAI Chat and the servers of its shape,
// Mistral, Ollama, Gemini for audio and by GeminiMediaInUserTurn) and of
// the error for a part the provider takes in no form. It is a results
// option: every provider accepts it (its ToX functions ignore it, so
// that one option list serves ForX), and MCP, which carries every part,
// is not changed by it.
func MediaAsNote() Option {
	return option{k: optResults, f: func(c *config) { c.mediaNote = true }, text: "MediaAsNote()"}
}

// place is where a home sends a part.
type place uint8

const (
	inResult     place = iota // in the tool result, in the provider's form
	asText                    // as text in the result: a text part, or a text file
	afterResults              // in a message after the results
	nowhere                   // in no form: ErrMedia, or a note with MediaAsNote
)

// mediaSpec is what a home tells the core about parts.
type mediaSpec struct {
	// place tells where p (checked to be well formed) goes with cfg, and
	// for nowhere why, in words that follow the provider's name ("takes
	// no audio").
	place func(p *define.Part, cfg config) (place, string)
	// options names the results options the home takes, for errors:
	// "MediaAsNote", "MediaAsNote, GeminiMediaInUserTurn".
	options string
	// callID is a call's id as the home sends it (Mistral's nine
	// characters), for the labels of attachments; nil for the id as is.
	callID func(string) string
	// after says where attachments are, in a result's note of one:
	// "in the next message" when "".
	after string
}

// piece is one element of a result's content after its Output: text (a
// text part, a text file, a note, a reference to an attachment), or a
// part that goes inside the result.
type piece struct {
	text string
	part *define.Part // a part inside the result; nil for text
}

// attachment is a part that goes after the results.
type attachment struct {
	n     int // its number among the batch's attachments, from 1
	call  *Call
	part  *define.Part
	label string // the text that comes before it, naming it and its call
}

// media gathers, over one batch of results, the attachments that go
// after them.
type media struct {
	ms      *mediaSpec
	display string // the provider, for errors
	fn      string // the results function, for errors
	cfg     config
	attach  []attachment
}

// newMedia is the media of a batch rendered by fn of p with cfg.
func newMedia(p *spec, fn string, cfg config) media {
	return media{ms: p.media, display: p.display, fn: fn, cfg: cfg}
}

// pieces returns the pieces of result i (of call c), in order, and adds
// its attachments. It copies no part's bytes.
func (m *media) pieces(i int, c *Call, r *define.Result) ([]piece, error) {
	if len(r.Parts) == 0 {
		return nil, nil
	}
	out := make([]piece, 0, len(r.Parts))
	for j := range r.Parts {
		p := &r.Parts[j]
		if bad := wellFormed(p); bad != "" {
			return nil, fmt.Errorf("adapters: %s: results[%d] (call %s, %s): part %d, %v: %s: %w",
				m.fn, i, c.ID, c.Name, j, *p, bad, ErrMedia)
		}
		where, why := m.ms.place(p, m.cfg)
		switch {
		case where == inResult:
			out = append(out, piece{part: p})
		case where == asText:
			out = append(out, piece{text: partText(p)})
		case m.cfg.mediaNote:
			out = append(out, piece{text: partNote(p, "")})
		case where == afterResults:
			n := len(m.attach) + 1
			id := c.ID
			if m.ms.callID != nil {
				id = m.ms.callID(id)
			}
			label := "Attachment " + strconv.Itoa(n) + ", from the result of call " + id + " (" + c.Name + "):"
			m.attach = append(m.attach, attachment{n: n, call: c, part: p, label: label})
			where := m.ms.after
			if where == "" {
				where = "in the next message"
			}
			out = append(out, piece{text: partNote(p, "; attachment "+strconv.Itoa(n)+", "+where)})
		default:
			return nil, fmt.Errorf("adapters: %s: results[%d] (call %s, %s): part %d, %v: %s %s (MediaAsNote() sends a note instead): %w",
				m.fn, i, c.ID, c.Name, j, *p, m.display, why, ErrMedia)
		}
	}
	return out, nil
}

// followsError is the error of the typed results function fn whose
// results have attachments, which its return type cannot hold; nil when
// they have none.
func followsError(fn, companion string, attach []attachment) error {
	if len(attach) == 0 {
		return nil
	}
	a := attach[0]
	return fmt.Errorf("adapters: %s: call %s (%s): %v goes in a message after the results (%d parts in all): use %s or Provider.Results, or MediaAsNote(): %w",
		fn, a.call.ID, a.call.Name, *a.part, len(attach), companion, ErrMediaMessage)
}

// wellFormed is "" for a part a home can place, else what is wrong with
// it (a part made by hand; define checks the parts of its tools).
func wellFormed(p *define.Part) string {
	switch p.Kind {
	case define.PartText:
		return ""
	case define.PartImage, define.PartFile, define.PartAudio:
	default:
		return "malformed: no kind of text, image, file or audio"
	}
	switch {
	case p.Data != nil && p.URL != "", p.Data == nil && p.URL == "":
		return "malformed: it holds data or a URL, not both or neither"
	case p.Data != nil && p.MIMEType == "":
		return "malformed: no MIME type (the tools of package define read it from the bytes)"
	case p.Data == nil && p.Kind == define.PartAudio:
		return "malformed: audio by URL, which no provider fetches"
	}
	return ""
}

// isText reports whether p is a file of text (text/*), which a provider
// without files takes as text.
func isText(p *define.Part) bool {
	return p.Kind == define.PartFile && p.Data != nil && strings.HasPrefix(p.MIMEType, "text/")
}

// partText is a text part's text, or a text file with a line naming it.
func partText(p *define.Part) string {
	if p.Kind == define.PartText {
		return p.Text
	}
	return partNote(p, "") + "\n" + string(p.Data)
}

// partNote is the note that names p: "[image: image/png, 4033 bytes]",
// `[file "report.pdf": application/pdf, 17688 bytes]`, "[image:
// https://example.com/a.png]", with more before the "]".
func partNote(p *define.Part, more string) string {
	var b strings.Builder
	b.WriteByte('[')
	b.WriteString(string(p.Kind))
	if p.Filename != "" {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(p.Filename))
	}
	b.WriteString(": ")
	if p.Data == nil && p.URL != "" {
		if p.MIMEType != "" {
			b.WriteString(p.MIMEType)
			b.WriteString(", ")
		}
		b.WriteString(p.URL)
	} else {
		b.WriteString(p.MIMEType)
		b.WriteString(", ")
		b.WriteString(strconv.Itoa(len(p.Data)))
		b.WriteString(" bytes")
	}
	b.WriteString(more)
	b.WriteByte(']')
	return b.String()
}

// joinText is text followed by the text pieces, one a line; parts inside
// the result are skipped (a home whose results are text has none).
func joinText(text string, pieces []piece) string {
	if len(pieces) == 0 {
		return text
	}
	n := len(text)
	for _, pc := range pieces {
		n += 1 + len(pc.text)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(text)
	for _, pc := range pieces {
		if pc.part != nil {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(pc.text)
	}
	return b.String()
}

// hasParts reports whether any result has parts.
func hasParts(results []define.Result) bool {
	for i := range results {
		if len(results[i].Parts) > 0 {
			return true
		}
	}
	return false
}

// MediaURL is a URL as OpenAI's image_url, file_data and input_image take
// it: an address, or data written as a data: URL
// ("data:image/png;base64,...") when marshalled (it marshals as a JSON
// string), so that a part's bytes are encoded once, into the request,
// and never held twice.
type MediaURL struct {
	URL      string // an http or https address; "" for data
	MIMEType string // the data's type
	Data     []byte // the data; nil for an address
}

// MarshalText writes the URL, a data: URL in one allocation of its exact
// size; encoding/json quotes it. (A MarshalJSON writing the quoted URL
// allocates no less, json.Marshal's own copy and this one being the floor
// of 2x the encoded size, and is two to three times slower on a 1 MiB
// image: encoding/json rescans a MarshalJSON's output whole.)
func (u MediaURL) MarshalText() ([]byte, error) {
	if u.Data == nil {
		return []byte(u.URL), nil
	}
	return u.appendURL(make([]byte, 0, u.dataSize()-2), false), nil
}

func (u MediaURL) dataSize() int {
	return len(`"data:;base64,"`) + len(u.MIMEType) + base64.StdEncoding.EncodedLen(len(u.Data))
}

// appendData appends the data: URL as a JSON string. The MIME type of a
// checked part is a token (no quote or backslash); any other is quoted
// as a JSON string would be, without its quotes.
func (u MediaURL) appendData(b []byte) []byte {
	return append(u.appendURL(append(b, '"'), true), '"')
}

// appendURL appends the data: URL, its MIME type escaped as in a JSON
// string if escape.
func (u MediaURL) appendURL(b []byte, escape bool) []byte {
	b = append(b, "data:"...)
	if mt := appendString(nil, u.MIMEType); !escape || len(mt) == len(u.MIMEType)+2 {
		b = append(b, u.MIMEType...)
	} else {
		b = append(b, mt[1:len(mt)-1]...)
	}
	b = append(b, ";base64,"...)
	return appendEncoded(b, u.Data)
}

// Text is the URL whole, as MarshalText writes it: the address, or the
// data: URL with the data in base64, for an SDK's string field.
func (u MediaURL) Text() string {
	if u.Data == nil {
		return u.URL
	}
	return string(u.appendURL(make([]byte, 0, u.dataSize()-2), false))
}

// String is the URL, a data: URL shortened to its type and size.
func (u MediaURL) String() string {
	if u.Data == nil {
		return u.URL
	}
	return "data:" + u.MIMEType + ";base64,… (" + strconv.Itoa(len(u.Data)) + " bytes)"
}

// appendMediaURL appends u as json.Marshal writes it.
func appendMediaURL(b []byte, u *MediaURL) []byte {
	if u.Data == nil {
		return appendString(b, u.URL)
	}
	return u.appendData(b)
}

// mediaURL is the MediaURL of a part: its address or its data.
func mediaURL(p *define.Part) MediaURL {
	if p.Data == nil {
		return MediaURL{URL: p.URL}
	}
	return MediaURL{MIMEType: p.MIMEType, Data: p.Data}
}

// resultsConfig is the config of a results function named fn of p from
// opts: the results options (MediaAsNote, a home's own). A typed results
// function (typed) takes only those; Provider.Results, whose options are
// ForX's, ignores the rendering options among them.
func resultsConfig(p *spec, fn string, opts []Option, typed bool) (config, error) {
	if len(opts) == 0 {
		return config{}, nil // the usual case, without the allocation of c (applied through an interface)
	}
	c := new(config)
	for _, o := range opts {
		if o == nil {
			continue
		}
		if o.kind() != optResults {
			if typed {
				return config{}, &Error{Func: fn, Err: ErrOption, Msg: fmt.Sprintf("option %v does not apply to results (they take %s)", o, p.media.options)}
			}
			continue
		}
		if o.home() != "" && o.home() != p.home() {
			return config{}, &Error{Func: fn, Err: ErrOption, Msg: fmt.Sprintf("option %v does not apply to %s", o, p.display)}
		}
		o.apply(c)
	}
	return *c, nil
}

// The JSON writers of the content types that carry a part's bytes: each
// is written by hand into one buffer of its exact size (strings that need
// escaping aside), the bytes encoded once, as base64, straight into it.

// base64Size is the length of n bytes as a JSON string of base64.
func base64Size(n int) int { return 2 + base64.StdEncoding.EncodedLen(n) }

// appendBase64 appends data as a JSON string of base64.
func appendBase64(b, data []byte) []byte {
	b = append(b, '"')
	b = appendEncoded(b, data)
	return append(b, '"')
}

// encoded, when not nil (set by tests, never while renderings run), is
// called with the bytes of each part that appendEncoded encodes, so that
// a test counts the encodings of a render.
var encoded func(data []byte)

// appendEncoded appends data in base64: every part's bytes that a
// rendering of this package encodes go through it.
func appendEncoded(b, data []byte) []byte {
	if encoded != nil {
		encoded(data)
	}
	return base64.StdEncoding.AppendEncode(b, data)
}

// appendBytes appends data as encoding/json writes a []byte: null when
// nil, else its base64 text.
func appendBytes(b, data []byte) []byte {
	if data == nil {
		return append(b, "null"...)
	}
	return appendBase64(b, data)
}

// appendArray appends items as encoding/json writes a slice: null when
// items is nil, else an array of what each writes of each item
// (appendList is the same for writers that can fail, growing dst once).
func appendArray[T any](b []byte, items []T, each func([]byte, *T) []byte) []byte {
	if items == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, &items[i])
	}
	return append(b, ']')
}

// appendRoleList appends a message {"role":role,"<key>":items}, items
// written by appendArray.
func appendRoleList[T any](b []byte, role, key string, items []T, each func([]byte, *T) []byte) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "role", role)
	b = appendArray(appendMember(b, key), items, each)
	return append(b, '}')
}

// appendMember appends a member's key, after a comma unless b ends an
// object's opening brace.
func appendMember(b []byte, key string) []byte {
	if len(b) > 0 && b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

// appendStringMember appends "key":s.
func appendStringMember(b []byte, key, s string) []byte {
	return appendString(appendMember(b, key), s)
}

// memberSize is about what "key":s takes: exact unless s needs escaping.
func memberSize(key, s string) int { return len(key) + len(s) + 6 }
