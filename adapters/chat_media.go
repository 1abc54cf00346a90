package adapters

import (
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus/define"
)

// The parts of results in OpenAI Chat Completions' shape (the OpenAI
// home, the servers it speaks to, and Mistral): a tool message carries
// text only, so the media of a batch's results goes in one user message
// after the tool messages, each part after a line that names its call.

// OpenAIMediaMessage is the user message that carries, after the tool
// messages, the media of their results (images, PDF files, audio) in
// OpenAI Chat Completions' shape, which Mistral's chat API shares.
type OpenAIMediaMessage struct {
	Role    string              `json:"role"` // "user"
	Content []OpenAIContentPart `json:"content"`
}

// size and appendJSON make the message a jsonAppender (AppendJSON): its
// parts' bytes encoded once, straight into the request.
func (m OpenAIMediaMessage) size() int {
	n := 32 + len(m.Role)
	for i := range m.Content {
		c := &m.Content[i]
		n += 64 + len(c.Type) + len(c.Text) + len(c.DocumentURL)
		switch {
		case c.ImageURL != nil:
			n += len(c.ImageURL.URL.URL) + c.ImageURL.URL.dataSize()
		case c.File != nil:
			n += c.File.FileData.dataSize() + len(c.File.Filename)
		case c.InputAudio != nil:
			n += base64Size(len(c.InputAudio.Data)) + len(c.InputAudio.Format)
		}
	}
	return n
}

func (m OpenAIMediaMessage) appendJSON(b []byte) []byte {
	return appendRoleList(b, m.Role, "content", m.Content, appendOpenAIMediaPart)
}

func appendOpenAIMediaPart(b []byte, c *OpenAIContentPart) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "type", c.Type)
	if c.Text != "" {
		b = appendStringMember(b, "text", c.Text)
	}
	if u := c.ImageURL; u != nil {
		b = appendMember(b, "image_url")
		b = append(b, '{')
		b = appendMediaURL(appendMember(b, "url"), &u.URL)
		b = append(b, '}')
	}
	if f := c.File; f != nil {
		b = appendMember(b, "file")
		b = append(b, '{')
		b = appendMediaURL(appendMember(b, "file_data"), &f.FileData)
		b = appendStringMember(b, "filename", f.Filename)
		b = append(b, '}')
	}
	if a := c.InputAudio; a != nil {
		b = appendMember(b, "input_audio")
		b = append(b, '{')
		b = appendMember(b, "data")
		b = appendBytes(b, a.Data)
		b = appendStringMember(b, "format", a.Format)
		b = append(b, '}')
	}
	if c.DocumentURL != "" {
		b = appendStringMember(b, "document_url", c.DocumentURL)
	}
	return append(b, '}')
}

// OpenAIContentPart is one part of a user message's content: exactly one
// of its members beside Type is set.
type OpenAIContentPart struct {
	// Type is "text", "image_url", "file", "input_audio", or (Mistral)
	// "document_url".
	Type       string            `json:"type"`
	Text       string            `json:"text,omitempty"`
	ImageURL   *OpenAIImageURL   `json:"image_url,omitempty"`
	File       *OpenAIFile       `json:"file,omitempty"`
	InputAudio *OpenAIInputAudio `json:"input_audio,omitempty"`
	// DocumentURL is the address of a document (Mistral's document_url).
	DocumentURL string `json:"document_url,omitempty"`
}

// OpenAIImageURL is an image_url part's image: its address or its data as
// a data: URL.
type OpenAIImageURL struct {
	URL MediaURL `json:"url"`
}

// OpenAIFile is a file part's file: its data as a data: URL, and its
// name.
type OpenAIFile struct {
	FileData MediaURL `json:"file_data"`
	Filename string   `json:"filename"`
}

// OpenAIInputAudio is an input_audio part's sound: its data (base64 in
// JSON) and its format, "wav" or "mp3".
type OpenAIInputAudio struct {
	Data   []byte `json:"data"`
	Format string `json:"format"`
}

// audioFormat is input_audio's format of a MIME type; "" for none.
func audioFormat(mime string) string {
	switch mime {
	case "audio/wav":
		return "wav"
	case "audio/mpeg":
		return "mp3"
	}
	return ""
}

// chatMediaMessage is the user message carrying attach: for each, a text
// part naming it, then the part itself.
func chatMediaMessage(attach []attachment) *OpenAIMediaMessage {
	if len(attach) == 0 {
		return nil
	}
	msg := &OpenAIMediaMessage{Role: "user", Content: make([]OpenAIContentPart, 0, 2*len(attach))}
	for _, a := range attach {
		msg.Content = append(msg.Content, OpenAIContentPart{Type: "text", Text: a.label})
		p := a.part
		switch {
		case p.Kind == define.PartImage:
			msg.Content = append(msg.Content, OpenAIContentPart{Type: "image_url", ImageURL: &OpenAIImageURL{URL: mediaURL(p)}})
		case p.Kind == define.PartAudio:
			msg.Content = append(msg.Content, OpenAIContentPart{Type: "input_audio", InputAudio: &OpenAIInputAudio{Data: p.Data, Format: audioFormat(p.MIMEType)}})
		case p.Data == nil:
			msg.Content = append(msg.Content, OpenAIContentPart{Type: "document_url", DocumentURL: p.URL})
		default:
			msg.Content = append(msg.Content, OpenAIContentPart{Type: "file", File: &OpenAIFile{FileData: mediaURL(p), Filename: fileName(p, a.n)}})
		}
	}
	return msg
}

// fileName is a file part's name, or one made from its attachment number
// and type ("attachment-1.pdf"), for providers that need one.
func fileName(p *define.Part, n int) string {
	if p.Filename != "" {
		return p.Filename
	}
	ext := ""
	if _, sub, ok := strings.Cut(p.MIMEType, "/"); ok && sub != "" && !strings.ContainsAny(sub, "+.;") {
		ext = "." + sub
	}
	if p.MIMEType == "text/plain" {
		ext = ".txt"
	}
	return "attachment-" + strconv.Itoa(n) + ext
}

// chatResults renders results for a home of OpenAI Chat Completions'
// shape: the text of each result (tool, with its text parts and the
// notes of its other parts) and the user message carrying the batch's
// attachments (nil when none).
func chatResults(p *spec, fn string, calls []Call, results []define.Result, cfg config, tool func(i int, text string)) ([]attachment, error) {
	m := newMedia(p, fn, cfg)
	for i := range calls {
		pieces, err := m.pieces(i, &calls[i], &results[i])
		if err != nil {
			return nil, err
		}
		tool(i, joinText(resultText(results[i]), pieces))
	}
	return m.attach, nil
}

// chatEntries is the history entries of tool messages and the user
// message after them.
func chatEntries[T any](msgs []T, media *OpenAIMediaMessage, err error) ([]any, error) {
	if err != nil {
		return nil, err
	}
	n := len(msgs)
	if media != nil {
		n++
	}
	out := make([]any, 0, n)
	for _, m := range msgs {
		out = append(out, m)
	}
	if media != nil {
		out = append(out, *media)
	}
	return out, nil
}
