package define

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"
)

// PartKind is what a [Part] holds.
type PartKind string

// The kinds of [Part].
const (
	PartText  PartKind = "text"  // text, in Part.Text
	PartImage PartKind = "image" // an image: its bytes in Part.Data, or its address in Part.URL
	PartFile  PartKind = "file"  // a document (a PDF, a text file, ...): its bytes, a file name
	PartAudio PartKind = "audio" // a sound: its bytes
)

// Part is one piece of content a tool returns besides its text
// ([Result.Parts]): text, an image, a file (a PDF, a text file, any
// document) or audio. Make parts with [TextPart], [ImagePart],
// [ImageURLPart], [FilePart], [FileURLPart] and [AudioPart]; the adapters
// render each in the provider's own form (docs/providers.md has the
// table).
//
// A Part is plain data: it marshals to JSON as
// {"kind","mime_type","data","url","filename","text"} (data in base64,
// empty members left out). Printing it (%v, %#v, slog) shows its kind,
// MIME type and size, never its bytes.
//
// The parts a tool returns are checked when its call ends (see
// [WithMaxPartBytes] for the sizes): a part of an unknown kind, without
// data, with a MIME type that does not fit its kind, or whose bytes are
// not what its MIME type declares (a declared image/png that is not a
// PNG), is an error result naming the tool and the part ([PartError]).
type Part struct {
	// Kind is what the part holds.
	Kind PartKind `json:"kind"`
	// MIMEType is the IANA media type of Data ("image/png",
	// "application/pdf", "audio/wav"); for a URL part, the type the URL's
	// extension tells ("" when it tells none). A checked part has it in
	// lower case, without parameters.
	MIMEType string `json:"mime_type,omitempty"`
	// Data is the content's bytes; nil for a text part and a URL part.
	Data []byte `json:"data,omitempty"`
	// URL is where an image or a file is, for a provider to fetch
	// (an http or https URL); "" for a part with Data.
	URL string `json:"url,omitempty"`
	// Filename is a file's name ("report.pdf"), shown to the model where
	// the provider takes one; optional.
	Filename string `json:"filename,omitempty"`
	// Text is a text part's text.
	Text string `json:"text,omitempty"`
}

// TextPart is a part holding text, placed among the other parts (a
// caption before an image, say).
func TextPart(text string) Part { return Part{Kind: PartText, Text: text} }

// ImagePart is an image of the given MIME type ("image/png",
// "image/jpeg", "image/gif", "image/webp", ...). An empty mimeType is
// read from data's signature (PNG, JPEG, GIF or WebP).
func ImagePart(mimeType string, data []byte) Part {
	return Part{Kind: PartImage, MIMEType: mimeType, Data: data}
}

// ImageURLPart is an image the provider fetches from rawURL (http or
// https). Its MIME type is the one the URL's extension tells (.png,
// .jpg, .jpeg, .gif, .webp), or "".
func ImageURLPart(rawURL string) Part {
	return Part{Kind: PartImage, URL: rawURL, MIMEType: urlMIME(rawURL)}
}

// FilePart is a file: a document ("application/pdf"), a text file
// ("text/plain", "text/csv", "text/markdown", ...) or any other type,
// with its name (optional: "report.pdf"). An empty mimeType is read from
// data's signature (PDF and the image and audio types [ImagePart] and
// [AudioPart] read). A file of an image or audio type is checked and
// carried as an image or audio part, its name kept; a text file (text/*)
// must be UTF-8.
func FilePart(mimeType, filename string, data []byte) Part {
	return Part{Kind: PartFile, MIMEType: mimeType, Filename: filename, Data: data}
}

// FileURLPart is a file the provider fetches from rawURL (http or
// https), of the given MIME type ("" for the one the URL's extension
// tells: .pdf, .txt, .csv, .md, .html, or an image's).
func FileURLPart(mimeType, rawURL string) Part {
	if mimeType == "" {
		mimeType = urlMIME(rawURL)
	}
	return Part{Kind: PartFile, MIMEType: mimeType, URL: rawURL}
}

// AudioPart is a sound of the given MIME type ("audio/wav",
// "audio/mpeg", "audio/ogg", "audio/flac", ...). An empty mimeType is
// read from data's signature.
func AudioPart(mimeType string, data []byte) Part {
	return Part{Kind: PartAudio, MIMEType: mimeType, Data: data}
}

// Size is the part's length in bytes: its data, its text, or its URL.
func (p Part) Size() int {
	switch {
	case p.Data != nil:
		return len(p.Data)
	case p.Kind == PartText:
		return len(p.Text)
	}
	return len(p.URL)
}

// EncodedSize is the part's length as a provider's JSON carries it, what
// [WithMaxPartBytes] and [WithMaxOutputBytes] count: its data's base64
// length (4 bytes for every 3, rounded up), its text's length, or its
// URL's.
func (p Part) EncodedSize() int {
	if p.Data != nil {
		return base64.StdEncoding.EncodedLen(len(p.Data))
	}
	return p.Size()
}

// String describes the part without its content: `image (image/png,
// 4033 bytes)`, `file "report.pdf" (application/pdf, 17688 bytes)`,
// `image (https://example.com/a.png)`, `text (12 bytes)`.
func (p Part) String() string {
	var b strings.Builder
	b.WriteString(string(p.Kind))
	if b.Len() == 0 {
		b.WriteString("part")
	}
	if p.Filename != "" {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(p.Filename))
	}
	b.WriteString(" (")
	if p.MIMEType != "" {
		b.WriteString(p.MIMEType)
		b.WriteString(", ")
	}
	if p.Data == nil && p.URL != "" {
		b.WriteString(p.URL)
	} else {
		b.WriteString(strconv.Itoa(p.Size()))
		b.WriteString(" bytes")
	}
	b.WriteByte(')')
	return b.String()
}

// GoString is String for %#v, so that printing a Result never dumps a
// part's bytes.
func (p Part) GoString() string { return "define.Part{" + p.String() + "}" }

// LogValue reports the part to log/slog as its kind, MIME type and size,
// never its content.
func (p Part) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("kind", string(p.Kind)),
		slog.String("mime_type", p.MIMEType),
		slog.Int("bytes", p.Size()))
}

// Summary describes parts for logs and traces by kind, MIME type and
// size, without their content, file names or URLs (which may tell more
// than a log should): "image (image/png, 4033 bytes), file
// (application/pdf, 17688 bytes), image (by URL)"; "" for none.
func Summary(parts []Part) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(p.Kind))
		b.WriteString(" (")
		if p.MIMEType != "" {
			b.WriteString(p.MIMEType)
			b.WriteString(", ")
		}
		if p.Data == nil && p.URL != "" {
			b.WriteString("by URL")
		} else {
			b.WriteString(strconv.Itoa(p.Size()))
			b.WriteString(" bytes")
		}
		b.WriteByte(')')
	}
	return b.String()
}

// ErrPart is wrapped by the Err of the result of a call whose parts are
// not what they claim (see [Part]); a part over the size limits wraps
// [ErrOutputTooLarge] instead.
var ErrPart = errors.New("define: invalid content part")

// PartError is the Err of the result of a call one of whose parts was
// refused: it names the tool, the part and the problem, and wraps
// [ErrPart] or [ErrOutputTooLarge].
type PartError struct {
	Tool  string // the tool's name
	Index int    // the part's index in Result.Parts
	Part  string // the part as [Part.String] describes it
	Err   error  // what is wrong, wrapping ErrPart or ErrOutputTooLarge
}

// Error names the tool, the part and the problem.
func (e *PartError) Error() string {
	return "tool " + e.Tool + ": part " + strconv.Itoa(e.Index) + ", " + e.Part + ": " + e.Err.Error()
}

// Unwrap returns the problem.
func (e *PartError) Unwrap() error { return e.Err }

// Default limits of a result's parts; see [WithMaxPartBytes] and
// [WithMaxOutputBytes].
const (
	// DefaultMaxPartBytes bounds one part: 20 MiB as base64, about 15 MB
	// of data (the inline limit of OpenAI's and Gemini's requests).
	DefaultMaxPartBytes = 20 << 20
	// DefaultMaxResultBytes bounds a result with parts as a whole (its
	// Output and every part, the data as base64) when the tool has no
	// WithMaxOutputBytes: 32 MiB, the request size Anthropic takes.
	DefaultMaxResultBytes = 32 << 20
)

// partLimits are the size limits of a result's parts; < 0 is no bound.
type partLimits struct {
	part   int // one part's EncodedSize
	result int // Output plus every part's EncodedSize
}

// checkParts checks the parts of r, a result of the tool named tool, and
// returns r with them in their checked form (MIME types lower case and
// read from the bytes where not given, files of an image or audio type
// made image or audio parts), or the error result naming the first part
// refused. r.Parts is copied before any part is changed.
func checkParts(tool string, r Result, lim partLimits) Result {
	total := len(r.Output)
	copied := false
	for i := range r.Parts {
		p, err := checkPart(r.Parts[i])
		if err == nil {
			n := p.EncodedSize()
			switch {
			case lim.part >= 0 && n > lim.part:
				err = fmt.Errorf("%w: %d bytes as %s, more than the limit of %d per part", ErrOutputTooLarge, n, sizeUnit(p), lim.part)
			case lim.result >= 0 && total+n > lim.result:
				err = fmt.Errorf("%w: the output and the parts up to this one are %d bytes (data as base64), more than the limit of %d", ErrOutputTooLarge, total+n, lim.result)
			}
			total += n
		}
		if err != nil {
			pe := &PartError{Tool: tool, Index: i, Part: r.Parts[i].String(), Err: err}
			return Result{Output: oneLine(pe.Error()), IsError: true, Err: pe}
		}
		if !partEqual(p, r.Parts[i]) {
			if !copied {
				r.Parts = append([]Part(nil), r.Parts...)
				copied = true
			}
			r.Parts[i] = p
		}
	}
	return r
}

func sizeUnit(p Part) string {
	if p.Data != nil {
		return "base64"
	}
	if p.Kind == PartText {
		return "text"
	}
	return "a URL"
}

// partEqual reports whether checking p changed nothing but what a == on
// its fields tells (Data is the same slice whenever checking keeps it).
func partEqual(a, b Part) bool {
	return a.Kind == b.Kind && a.MIMEType == b.MIMEType && a.URL == b.URL && a.Filename == b.Filename && a.Text == b.Text
}

// checkPart checks one part and returns its checked form.
func checkPart(p Part) (Part, error) {
	if !utf8.ValidString(p.Filename) || strings.ContainsFunc(p.Filename, isControl) {
		return p, fmt.Errorf("%w: the file name is not UTF-8 text without control characters", ErrPart)
	}
	if len(p.Filename) > maxFilename {
		return p, fmt.Errorf("%w: the file name is %d bytes, more than %d", ErrPart, len(p.Filename), maxFilename)
	}
	switch p.Kind {
	case PartText:
		if p.Data != nil || p.URL != "" {
			return p, fmt.Errorf("%w: a text part holds Text, not Data or a URL", ErrPart)
		}
		return p, nil
	case PartImage, PartFile, PartAudio:
	case "":
		return p, fmt.Errorf("%w: no kind (make parts with TextPart, ImagePart, FilePart, AudioPart, ...)", ErrPart)
	default:
		return p, fmt.Errorf("%w: unknown kind %q (want text, image, file or audio)", ErrPart, echoKind(p.Kind))
	}
	if p.Text != "" {
		return p, fmt.Errorf("%w: a %s part holds Data or a URL, not Text", ErrPart, p.Kind)
	}
	if p.URL != "" {
		return checkURLPart(p)
	}
	if len(p.Data) == 0 {
		return p, fmt.Errorf("%w: no data", ErrPart)
	}
	declared := p.MIMEType
	if declared == "" {
		sniffed := Sniff(p.Data)
		if sniffed == "" {
			return p, fmt.Errorf("%w: no MIME type, and the bytes are of no type this package recognises (%s)", ErrPart, recognised)
		}
		p.MIMEType = sniffed
	} else {
		mt, err := canonicalMIME(declared)
		if err != nil {
			return p, err
		}
		p.MIMEType = mt
		if known(mt) {
			if got := Sniff(p.Data); got != mt {
				if got == "" {
					return p, fmt.Errorf("%w: declared %s, but the bytes are not %s", ErrPart, mt, signatureName(mt))
				}
				return p, fmt.Errorf("%w: declared %s, but the bytes are %s (%s)", ErrPart, mt, signatureName(got), got)
			}
		}
	}
	major, _, _ := strings.Cut(p.MIMEType, "/")
	switch {
	case p.Kind == PartFile && major == "image":
		p.Kind = PartImage
	case p.Kind == PartFile && major == "audio":
		p.Kind = PartAudio
	case p.Kind == PartImage && major != "image", p.Kind == PartAudio && major != "audio":
		return p, fmt.Errorf("%w: an %s part of type %s (want %s/*; a document is a FilePart)", ErrPart, p.Kind, p.MIMEType, p.Kind)
	}
	if major == "text" && !utf8.Valid(p.Data) {
		return p, fmt.Errorf("%w: a %s file must be UTF-8 text", ErrPart, p.MIMEType)
	}
	return p, nil
}

// maxFilename bounds a part's file name, in bytes.
const maxFilename = 255

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// echoKind cuts an unknown kind for an error message.
func echoKind(k PartKind) string {
	if len(k) > 40 {
		return string(k[:40]) + "…"
	}
	return string(k)
}

// checkURLPart checks a part given by URL.
func checkURLPart(p Part) (Part, error) {
	if p.Data != nil {
		return p, fmt.Errorf("%w: a part holds Data or a URL, not both", ErrPart)
	}
	if p.Kind == PartAudio {
		return p, fmt.Errorf("%w: an audio part needs its data (no provider fetches audio by URL)", ErrPart)
	}
	if strings.HasPrefix(strings.ToLower(p.URL), "data:") {
		return p, fmt.Errorf("%w: a data: URL (give its bytes with ImagePart or FilePart instead)", ErrPart)
	}
	u, err := url.Parse(p.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return p, fmt.Errorf("%w: the URL is not an absolute http or https URL", ErrPart)
	}
	if p.MIMEType != "" {
		mt, err := canonicalMIME(p.MIMEType)
		if err != nil {
			return p, err
		}
		p.MIMEType = mt
		major, _, _ := strings.Cut(mt, "/")
		switch {
		case p.Kind == PartImage && major != "image":
			return p, fmt.Errorf("%w: an image part of type %s (want image/*)", ErrPart, mt)
		case p.Kind == PartFile && major == "image":
			p.Kind = PartImage
		}
	}
	return p, nil
}

// canonicalMIME is a declared MIME type in the form parts keep: the
// media type in lower case, without parameters, with the common aliases
// of the types this package recognises made their standard names.
func canonicalMIME(declared string) (string, error) {
	mt, _, err := mime.ParseMediaType(declared)
	if err != nil || !strings.Contains(mt, "/") {
		return "", fmt.Errorf("%w: the MIME type %q is not type/subtype", ErrPart, echoKind(PartKind(declared)))
	}
	if a, ok := mimeAliases[mt]; ok {
		mt = a
	}
	return mt, nil
}

var mimeAliases = map[string]string{
	"image/jpg":       "image/jpeg",
	"image/pjpeg":     "image/jpeg",
	"audio/x-wav":     "audio/wav",
	"audio/wave":      "audio/wav",
	"audio/vnd.wave":  "audio/wav",
	"audio/mp3":       "audio/mpeg",
	"audio/x-mp3":     "audio/mpeg",
	"audio/x-flac":    "audio/flac",
	"application/ogg": "audio/ogg",
	"audio/x-ogg":     "audio/ogg",
}

// recognised lists the types Sniff reads, for messages.
const recognised = "PNG, JPEG, GIF, WebP, PDF, WAV, MP3, OGG, FLAC"

// known reports whether Sniff recognises the MIME type mt, so that a
// declared mt is checked against the bytes. Other types are taken as
// declared.
func known(mt string) bool {
	switch mt {
	case "image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf",
		"audio/wav", "audio/mpeg", "audio/ogg", "audio/flac":
		return true
	}
	return false
}

// signatureName is the name of the format of a type Sniff reads.
func signatureName(mt string) string {
	switch mt {
	case "image/png":
		return "PNG"
	case "image/jpeg":
		return "JPEG"
	case "image/gif":
		return "GIF"
	case "image/webp":
		return "WebP"
	case "application/pdf":
		return "PDF"
	case "audio/wav":
		return "WAV"
	case "audio/mpeg":
		return "MP3"
	case "audio/ogg":
		return "OGG"
	case "audio/flac":
		return "FLAC"
	}
	return mt
}

// Sniff returns the MIME type that data's first bytes (its signature)
// tell, among image/png, image/jpeg, image/gif, image/webp,
// application/pdf, audio/wav, audio/mpeg (MP3: an ID3 tag or an MPEG
// audio frame), audio/ogg and audio/flac; "" for anything else. It reads
// at most the first 1,024 bytes.
func Sniff(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return "image/gif"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "image/webp"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WAVE":
		return "audio/wav"
	case bytes.HasPrefix(data, []byte("OggS")):
		return "audio/ogg"
	case bytes.HasPrefix(data, []byte("fLaC")):
		return "audio/flac"
	case bytes.HasPrefix(data, []byte("ID3")):
		return "audio/mpeg"
	case len(data) >= 2 && data[0] == 0xff && data[1]&0xe0 == 0xe0 && data[1]&0x06 != 0:
		// An MPEG audio frame: 11 sync bits, then a layer other than
		// "reserved" (JPEG's FF D8 does not match: D8 lacks the sync bits).
		return "audio/mpeg"
	}
	// A PDF's header may follow some bytes (the format allows up to
	// 1,024 of them).
	if bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-")) {
		return "application/pdf"
	}
	return ""
}

// urlMIME is the MIME type a URL's path extension tells, for the types
// the providers take by URL; "" for others.
func urlMIME(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	switch strings.ToLower(path.Ext(u.Path)) {
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	case ".pdf":
		return "application/pdf"
	case ".txt":
		return "text/plain"
	case ".csv":
		return "text/csv"
	case ".md":
		return "text/markdown"
	case ".html", ".htm":
		return "text/html"
	}
	return ""
}
