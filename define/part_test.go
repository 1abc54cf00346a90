package define_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/mediatest"
)

// partTool is a tool that returns parts, with opts.
func partTool(t *testing.T, parts []define.Part, opts ...define.Option) define.Tool {
	t.Helper()
	return define.MustDefineTool(func(context.Context, struct{}) (define.Result, error) {
		return define.Result{Output: "done", Parts: parts}, nil
	}, append([]define.Option{define.WithName("shot")}, opts...)...)
}

// TestSniff: each recognised format's signature is read, and nothing
// else is.
func TestSniff(t *testing.T) {
	for _, c := range []struct {
		data []byte
		want string
	}{
		{mediatest.PNG(), "image/png"},
		{mediatest.JPEG(), "image/jpeg"},
		{mediatest.GIF(), "image/gif"},
		{mediatest.WebP(), "image/webp"},
		{mediatest.PDF(), "application/pdf"},
		{append([]byte("\n\n  "), mediatest.PDF()...), "application/pdf"},
		{mediatest.WAV(), "audio/wav"},
		{mediatest.MP3(), "audio/mpeg"},
		{append([]byte("ID3\x04\x00"), make([]byte, 10)...), "audio/mpeg"},
		{mediatest.OGG(), "audio/ogg"},
		{mediatest.FLAC(), "audio/flac"},
		{mediatest.Text(), ""},
		{nil, ""},
		{[]byte{0xff}, ""},
		{[]byte{0xff, 0xe0}, ""}, // sync bits with the reserved layer
		{[]byte("RIFF\x00\x00\x00\x00AVI "), ""},
	} {
		if got := define.Sniff(c.data); got != c.want {
			t.Errorf("Sniff(%q...) = %q, want %q", c.data[:min(len(c.data), 12)], got, c.want)
		}
	}
}

// TestPartsChecked: parts of every kind pass as made by the
// constructors; a MIME type is lower-cased, read from the bytes when
// empty, an alias made standard, and a file of an image type becomes an
// image part, without changing the tool's own slice.
func TestPartsChecked(t *testing.T) {
	png, pdf, wav := mediatest.PNG(), mediatest.PDF(), mediatest.WAV()
	given := []define.Part{
		define.TextPart("page 1:"),
		define.ImagePart("IMAGE/PNG", png),
		define.ImagePart("", mediatest.JPEG()),
		define.ImageURLPart("https://example.com/a/b.webp?x=1"),
		define.FilePart("application/pdf; version=1.4", "report.pdf", pdf),
		define.FilePart("text/csv", "parts.csv", mediatest.Text()),
		define.FilePart("", "pic.png", png),
		define.FileURLPart("", "https://example.com/doc.pdf"),
		define.AudioPart("audio/x-wav", wav),
		define.AudioPart("", mediatest.MP3()),
		define.AudioPart("audio/aac", []byte("not checked")),
	}
	keep := append([]define.Part(nil), given...)
	r := partTool(t, given).ExecuteJSON(context.Background(), nil)
	if r.IsError {
		t.Fatalf("result = %v", r.Err)
	}
	want := []struct {
		kind define.PartKind
		mime string
	}{
		{define.PartText, ""}, {define.PartImage, "image/png"}, {define.PartImage, "image/jpeg"},
		{define.PartImage, "image/webp"}, {define.PartFile, "application/pdf"}, {define.PartFile, "text/csv"},
		{define.PartImage, "image/png"}, {define.PartFile, "application/pdf"}, {define.PartAudio, "audio/wav"},
		{define.PartAudio, "audio/mpeg"}, {define.PartAudio, "audio/aac"},
	}
	if len(r.Parts) != len(want) {
		t.Fatalf("%d parts, want %d", len(r.Parts), len(want))
	}
	for i, w := range want {
		if p := r.Parts[i]; p.Kind != w.kind || p.MIMEType != w.mime {
			t.Errorf("part %d = %v, want %s %s", i, p, w.kind, w.mime)
		}
	}
	if r.Parts[6].Filename != "pic.png" || !bytes.Equal(r.Parts[1].Data, png) {
		t.Errorf("a checked part lost its name or data: %v, %v", r.Parts[6], r.Parts[1])
	}
	for i := range keep {
		if keep[i].Kind != given[i].Kind || keep[i].MIMEType != given[i].MIMEType {
			t.Errorf("part %d of the tool's own slice changed: %v", i, given[i])
		}
	}
}

// TestPartsRefused: every way a part can be wrong is an error result
// naming the tool, the part and the problem, wrapping ErrPart.
func TestPartsRefused(t *testing.T) {
	png := mediatest.PNG()
	for _, c := range []struct {
		name string
		part define.Part
		want string
	}{
		{"declared png, bytes jpeg", define.ImagePart("image/png", mediatest.JPEG()), "declared image/png, but the bytes are JPEG (image/jpeg)"},
		{"declared pdf, bytes text", define.FilePart("application/pdf", "a.pdf", mediatest.Text()), "declared application/pdf, but the bytes are not PDF"},
		{"declared wav, bytes mp3", define.AudioPart("audio/wav", mediatest.MP3()), "are MP3 (audio/mpeg)"},
		{"unknown bytes, no type", define.ImagePart("", []byte("hello")), "no MIME type, and the bytes are of no type"},
		{"no data", define.ImagePart("image/png", nil), "no data"},
		{"image of audio type", define.ImagePart("audio/wav", mediatest.WAV()), "an image part of type audio/wav"},
		{"audio of image type", define.AudioPart("image/png", png), "an audio part of type image/png"},
		{"bad mime", define.ImagePart("png", png), `the MIME type "png" is not type/subtype`},
		{"no kind", define.Part{Data: png}, "no kind"},
		{"unknown kind", define.Part{Kind: "video", Data: png}, `unknown kind "video"`},
		{"text with data", define.Part{Kind: define.PartText, Data: png}, "a text part holds Text"},
		{"image with text", define.Part{Kind: define.PartImage, Text: "x"}, "not Text"},
		{"data and url", define.Part{Kind: define.PartImage, Data: png, URL: "https://x.test/a.png"}, "not both"},
		{"ftp url", define.ImageURLPart("ftp://x.test/a.png"), "not an absolute http or https URL"},
		{"relative url", define.ImageURLPart("/a.png"), "not an absolute http or https URL"},
		{"data url", define.ImageURLPart("data:image/png;base64,AAAA"), "a data: URL"},
		{"audio url", define.Part{Kind: define.PartAudio, URL: "https://x.test/a.mp3"}, "needs its data"},
		{"image url of pdf type", define.Part{Kind: define.PartImage, URL: "https://x.test/a", MIMEType: "application/pdf"}, "want image/*"},
		{"text file not utf-8", define.FilePart("text/plain", "a.txt", []byte{0xff, 0xfe}), "must be UTF-8"},
		{"file name control", define.FilePart("application/pdf", "a\nb.pdf", mediatest.PDF()), "without control characters"},
		{"file name long", define.FilePart("application/pdf", strings.Repeat("a", 300), mediatest.PDF()), "more than 255"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := partTool(t, []define.Part{define.TextPart("first"), c.part}).ExecuteJSON(context.Background(), nil)
			if !r.IsError || !errors.Is(r.Err, define.ErrPart) {
				t.Fatalf("result = %+v, want an error wrapping ErrPart", r)
			}
			var pe *define.PartError
			if !errors.As(r.Err, &pe) || pe.Tool != "shot" || pe.Index != 1 {
				t.Fatalf("Err = %#v, want a *PartError for part 1 of shot", r.Err)
			}
			if !strings.Contains(r.Output, c.want) || !strings.HasPrefix(r.Output, "tool shot: part 1, ") {
				t.Errorf("Output = %q, want it to name the tool, the part and %q", r.Output, c.want)
			}
			if len(r.Parts) != 0 {
				t.Errorf("an error result kept %d parts", len(r.Parts))
			}
		})
	}
}

// TestPartLimits: a part over WithMaxPartBytes, and a result over
// WithMaxOutputBytes (its Output and parts, the data as base64), are
// error results wrapping ErrOutputTooLarge; the defaults let a 10 MB
// image through while a text output stays bounded at 1 MiB.
func TestPartLimits(t *testing.T) {
	big := mediatest.Sized(3000) // 4000 bytes as base64
	limited := func(opts ...define.Option) define.Result {
		return partTool(t, []define.Part{define.ImagePart("image/png", big)}, opts...).ExecuteJSON(context.Background(), nil)
	}
	if r := limited(define.WithMaxPartBytes(4000)); r.IsError {
		t.Errorf("a part of exactly the limit: %v", r.Err)
	}
	r := limited(define.WithMaxPartBytes(3999))
	if !errors.Is(r.Err, define.ErrOutputTooLarge) || !strings.Contains(r.Output, "4000 bytes as base64, more than the limit of 3999 per part") {
		t.Errorf("over the part limit: %q, %v", r.Output, r.Err)
	}
	// "done" is 4 bytes: 4004 in all.
	if r := limited(define.WithMaxOutputBytes(4004)); r.IsError {
		t.Errorf("a result of exactly the limit: %v", r.Err)
	}
	r = limited(define.WithMaxOutputBytes(4003))
	if !errors.Is(r.Err, define.ErrOutputTooLarge) || !strings.Contains(r.Output, "4004 bytes (data as base64), more than the limit of 4003") {
		t.Errorf("over the result limit: %q, %v", r.Output, r.Err)
	}
	if r := limited(define.WithMaxOutputBytes(-1), define.WithMaxPartBytes(-1)); r.IsError {
		t.Errorf("no bounds: %v", r.Err)
	}
	huge := mediatest.Sized(10 << 20)
	if r := partTool(t, []define.Part{define.ImagePart("image/png", huge)}).ExecuteJSON(context.Background(), nil); r.IsError {
		t.Errorf("a 10 MB image under the defaults: %v", r.Err)
	}
	if r := partTool(t, []define.Part{define.ImagePart("image/png", mediatest.Sized(16<<20))}).ExecuteJSON(context.Background(), nil); !errors.Is(r.Err, define.ErrOutputTooLarge) {
		t.Errorf("a 16 MB image (21.3 MiB as base64) under the default part limit: %v", r.Err)
	}
	three := []define.Part{define.ImagePart("", huge), define.ImagePart("", huge), define.ImagePart("", huge)}
	if r := partTool(t, three).ExecuteJSON(context.Background(), nil); !errors.Is(r.Err, define.ErrOutputTooLarge) || !strings.Contains(r.Output, "part 2") {
		t.Errorf("three 10 MB images over the default result limit: %q", r.Output)
	}
}

// TestPartOutputs: a tool whose output is a Part, or a []Part, returns
// them as the result's parts, checked, with no output schema; a
// NewTool handler's Part, *Part and []Part too.
func TestPartOutputs(t *testing.T) {
	one := define.MustDefineTool(func(context.Context, struct{}) (define.Part, error) {
		return define.ImagePart("", mediatest.PNG()), nil
	}, define.WithName("screenshot"))
	if one.OutputSchema() != nil {
		t.Errorf("a Part output has an output schema: %s", one.OutputSchema())
	}
	r := one.ExecuteJSON(context.Background(), nil)
	if r.IsError || r.Output != "" || len(r.Parts) != 1 || r.Parts[0].MIMEType != "image/png" || r.Value != nil {
		t.Errorf("Part output: %+v", r)
	}
	many := define.MustDefineTool(func(context.Context, struct{}) ([]define.Part, error) {
		return []define.Part{define.TextPart("a"), define.ImagePart("image/gif", mediatest.PNG())}, nil
	}, define.WithName("pages"))
	if r := many.ExecuteJSON(context.Background(), nil); !errors.Is(r.Err, define.ErrPart) || !strings.Contains(r.Output, "tool pages: part 1") {
		t.Errorf("[]Part output with a wrong type: %+v", r)
	}
	for _, out := range []any{define.ImagePart("", mediatest.PNG()), &define.Part{Kind: define.PartText, Text: "x"}, []define.Part{define.TextPart("y")}} {
		raw, err := define.NewTool("raw", json.RawMessage(`{"type":"object"}`), func(context.Context, json.RawMessage) (any, error) {
			return out, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if r := raw.ExecuteJSON(context.Background(), nil); r.IsError || len(r.Parts) != 1 {
			t.Errorf("NewTool output %T: %+v", out, r)
		}
	}
	bad, _ := define.NewTool("raw_bad", json.RawMessage(`{"type":"object"}`), func(context.Context, json.RawMessage) (any, error) {
		return define.ImagePart("image/png", []byte("GIF89a......")), nil
	})
	if r := bad.ExecuteJSON(context.Background(), nil); !strings.Contains(r.Output, "tool raw_bad: part 0") {
		t.Errorf("NewTool part check: %q", r.Output)
	}
}

// TestPartPrinting: printing a part or a result shows kinds, types and
// sizes, never the bytes.
func TestPartPrinting(t *testing.T) {
	data := append(mediatest.PNG(), "SECRETBYTES"...)
	r := define.Result{Output: "x", Parts: []define.Part{define.ImagePart("image/png", data), define.FilePart("application/pdf", "r.pdf", mediatest.PDF())}}
	for _, s := range []string{fmt.Sprint(r), fmt.Sprintf("%v", r.Parts), fmt.Sprintf("%+v", r), fmt.Sprintf("%#v", r), define.Summary(r.Parts)} {
		if strings.Contains(s, "SECRETBYTES") || strings.Contains(s, "PNG") {
			t.Errorf("printed bytes: %s", s)
		}
		if !strings.Contains(s, fmt.Sprintf("image/png, %d bytes", len(data))) {
			t.Errorf("%s does not tell the image's type and size", s)
		}
	}
	if got, want := define.Summary(append(r.Parts, define.ImageURLPart("https://x.test/p.png?sig=secret"))), fmt.Sprintf(`image (image/png, %d bytes), file (application/pdf, %d bytes), image (image/png, by URL)`, len(data), len(mediatest.PDF())); got != want {
		t.Errorf("Summary = %s, want %s", got, want)
	}
	var b bytes.Buffer
	slog.New(slog.NewJSONHandler(&b, nil)).Info("x", "part", r.Parts[0])
	if !strings.Contains(b.String(), `"part":{"kind":"image","mime_type":"image/png","bytes":`) || strings.Contains(b.String(), "SECRETBYTES") {
		t.Errorf("slog: %s", b.String())
	}
	if got := define.ImageURLPart("https://x.test/p.JPG").String(); got != "image (image/jpeg, https://x.test/p.JPG)" {
		t.Errorf("URL part = %s", got)
	}
}
