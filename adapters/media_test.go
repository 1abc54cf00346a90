package adapters_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/golden"
	"github.com/toolnexus/toolnexus/internal/mediatest"
)

// mediaCase is a batch of results with parts: one call per result.
type mediaCase struct {
	name    string
	results []define.Result
}

// mediaCalls are calls for n results, with ids every provider takes
// (Mistral's are drawn from them).
func mediaCalls(n int) []adapters.Call {
	calls := make([]adapters.Call, n)
	names := []string{"get_chart", "read_file", "speak"}
	for i := range calls {
		calls[i] = adapters.Call{ID: "call" + string(rune('A'+i)) + "0000", Name: names[i%len(names)], Args: json.RawMessage(`{}`)}
	}
	return calls
}

func done(parts ...define.Part) define.Result { return define.Result{Output: "done", Parts: parts} }

// mediaCases are one result of each part kind, and a batch that mixes
// them with an error result and a JSON output.
func mediaCases() []mediaCase {
	png, pdf, wav := mediatest.PNG(), mediatest.PDF(), mediatest.WAV()
	return []mediaCase{
		{"text", []define.Result{done(define.TextPart("caption: the chart of Q1"))}},
		{"image", []define.Result{done(define.ImagePart("image/png", png))}},
		{"image_url", []define.Result{done(define.ImageURLPart("https://example.com/chart.png"))}},
		{"image_gif", []define.Result{done(define.ImagePart("image/gif", mediatest.GIF()))}},
		{"file_pdf", []define.Result{done(define.FilePart("application/pdf", "report.pdf", pdf))}},
		{"file_text", []define.Result{done(define.FilePart("text/csv", "parts.csv", mediatest.Text()))}},
		{"file_url", []define.Result{done(define.FileURLPart("", "https://example.com/report.pdf"))}},
		{"audio_wav", []define.Result{done(define.AudioPart("audio/wav", wav))}},
		{"audio_ogg", []define.Result{done(define.AudioPart("audio/ogg", mediatest.OGG()))}},
		{"mixed", []define.Result{
			{Output: "chart ready", Parts: []define.Part{define.TextPart("Q1:"), define.ImagePart("image/png", png), define.TextPart("Q2 is pending")}},
			{Output: "no such file", IsError: true},
			{Output: `{"rows":2}`, Parts: []define.Part{define.FilePart("application/pdf", "", pdf)}},
		}},
		{"only_parts", []define.Result{{Parts: []define.Part{define.ImagePart("image/jpeg", mediatest.JPEG())}}}},
	}
}

// renderMedia renders c with p's Results: the entries, or the error.
func renderMedia(p adapters.Provider, c mediaCase) any {
	entries, err := p.Results(mediaCalls(len(c.results)), c.results)
	if err != nil {
		return map[string]string{"error": err.Error()}
	}
	return entries
}

// TestMediaGolden renders results of every part kind for every provider,
// as Provider.Results gives them by default, with MediaAsNote, and (for
// Gemini) with GeminiMediaInUserTurn, against
// testdata/golden/media/<provider>[_note|_user_turn].json.
func TestMediaGolden(t *testing.T) {
	variants := []struct {
		suffix string
		opts   []adapters.Option
		only   string
	}{
		{"", nil, ""},
		{"_note", []adapters.Option{adapters.MediaAsNote()}, ""},
		{"_user_turn", []adapters.Option{adapters.GeminiMediaInUserTurn()}, adapters.NameGemini},
	}
	for _, base := range adapters.Providers() {
		for _, v := range variants {
			if v.only != "" && v.only != base.Name() {
				continue
			}
			name := base.Name() + v.suffix
			t.Run(name, func(t *testing.T) {
				p := forName(t, base.Name(), v.opts...)
				out := map[string]any{}
				for _, c := range mediaCases() {
					out[c.name] = renderMedia(p, c)
				}
				golden.JSON(t, filepath.Join("..", "testdata", "golden", "media", name+".json"), out)
			})
		}
	}
}

// forName is the Provider named name with opts.
func forName(t testing.TB, name string, opts ...adapters.Option) adapters.Provider {
	t.Helper()
	switch name {
	case adapters.NameOpenAI:
		return adapters.ForOpenAI(opts...)
	case adapters.NameOpenAIResponses:
		return adapters.ForOpenAIResponses(opts...)
	case adapters.NameAnthropic:
		return adapters.ForAnthropic(opts...)
	case adapters.NameGemini:
		return adapters.ForGemini(opts...)
	case adapters.NameMCP:
		return adapters.ForMCP(opts...)
	case adapters.NameBedrock:
		return adapters.ForBedrock(opts...)
	case adapters.NameOllama:
		return adapters.ForOllama(opts...)
	case adapters.NameMistral:
		return adapters.ForMistral(opts...)
	}
	t.Fatalf("no For function for %s", name)
	return nil
}

// TestMediaBytesWhole: every part's bytes reach the rendered JSON whole:
// each base64 string or data: URL in it decodes to one of the parts'
// data, and every part with data appears, once per provider that takes
// its kind.
func TestMediaBytesWhole(t *testing.T) {
	for _, p := range adapters.Providers() {
		for _, c := range mediaCases() {
			entries, err := p.Results(mediaCalls(len(c.results)), c.results)
			if err != nil {
				continue
			}
			data, err := json.Marshal(entries)
			if err != nil {
				t.Fatalf("%s/%s: Marshal: %v", p.Name(), c.name, err)
			}
			var found [][]byte
			var walk func(v any)
			walk = func(v any) {
				switch v := v.(type) {
				case map[string]any:
					for _, e := range v {
						walk(e)
					}
				case []any:
					for _, e := range v {
						walk(e)
					}
				case string:
					s := v
					if i := strings.Index(s, ";base64,"); strings.HasPrefix(s, "data:") && i > 0 {
						s = s[i+len(";base64,"):]
					}
					if b, err := base64.StdEncoding.DecodeString(s); err == nil && len(s) >= 16 {
						found = append(found, b)
					}
				}
			}
			var tree any
			if err := json.Unmarshal(data, &tree); err != nil {
				t.Fatalf("%s/%s: the rendering is not JSON: %v", p.Name(), c.name, err)
			}
			walk(tree)
			for _, r := range c.results {
				for _, part := range r.Parts {
					if part.Data == nil || strings.HasPrefix(part.MIMEType, "text/") {
						continue
					}
					n := 0
					for _, f := range found {
						if bytes.Equal(f, part.Data) {
							n++
						}
					}
					if n > 1 || n == 0 && !strings.Contains(string(data), `[`+string(part.Kind)) {
						t.Errorf("%s/%s: %v appears %d times, and no note names it", p.Name(), c.name, part, n)
					}
				}
			}
		}
	}
}

// TestMediaTyped: the typed results functions give what Provider.Results
// gives, their ...AndMedia companions the message after the results too,
// and the typed functions of the providers that send media after the
// results refuse results that have some (ErrMediaMessage), naming the
// way out.
func TestMediaTyped(t *testing.T) {
	type typed struct {
		name  string
		plain func([]adapters.Call, []define.Result, ...adapters.Option) (any, error)
		both  func([]adapters.Call, []define.Result, ...adapters.Option) ([]any, error)
	}
	pair := func(a, b any, err error) ([]any, error) {
		if err != nil {
			return nil, err
		}
		out := reflect.ValueOf(a)
		var entries []any
		if out.Kind() == reflect.Slice {
			for i := range out.Len() {
				entries = append(entries, out.Index(i).Interface())
			}
		} else {
			entries = append(entries, a)
		}
		if m, ok := b.(*adapters.MistralMedia); ok {
			if m != nil {
				entries = append(entries, m.Messages()...)
			}
		} else if v := reflect.ValueOf(b); !v.IsNil() {
			entries = append(entries, v.Elem().Interface())
		}
		return entries, nil
	}
	homes := []typed{
		{adapters.NameOpenAI,
			func(c []adapters.Call, r []define.Result, o ...adapters.Option) (any, error) {
				return adapters.OpenAIResults(c, r, o...)
			},
			func(c []adapters.Call, r []define.Result, o ...adapters.Option) ([]any, error) {
				m, u, err := adapters.OpenAIResultsAndMedia(c, r, o...)
				return pair(m, u, err)
			}},
		{adapters.NameMistral,
			func(c []adapters.Call, r []define.Result, o ...adapters.Option) (any, error) {
				return adapters.MistralResults(c, r, o...)
			},
			func(c []adapters.Call, r []define.Result, o ...adapters.Option) ([]any, error) {
				m, u, err := adapters.MistralResultsAndMedia(c, r, o...)
				return pair(m, u, err)
			}},
		{adapters.NameOllama,
			func(c []adapters.Call, r []define.Result, o ...adapters.Option) (any, error) {
				return adapters.OllamaResults(c, r, o...)
			},
			func(c []adapters.Call, r []define.Result, o ...adapters.Option) ([]any, error) {
				m, u, err := adapters.OllamaResultsAndMedia(c, r, o...)
				return pair(m, u, err)
			}},
		{adapters.NameGemini,
			func(c []adapters.Call, r []define.Result, o ...adapters.Option) (any, error) {
				return adapters.GeminiResults(c, r, o...)
			},
			func(c []adapters.Call, r []define.Result, o ...adapters.Option) ([]any, error) {
				m, u, err := adapters.GeminiResultsAndMedia(c, r, o...)
				return pair(m, u, err)
			}},
		{adapters.NameOpenAIResponses,
			func(c []adapters.Call, r []define.Result, o ...adapters.Option) (any, error) {
				return adapters.OpenAIResponsesResults(c, r, o...)
			}, nil},
		{adapters.NameAnthropic,
			func(c []adapters.Call, r []define.Result, o ...adapters.Option) (any, error) {
				return adapters.AnthropicResults(c, r, o...)
			}, nil},
		{adapters.NameBedrock,
			func(c []adapters.Call, r []define.Result, o ...adapters.Option) (any, error) {
				return adapters.BedrockResults(c, r, o...)
			}, nil},
		{adapters.NameMCP,
			func(c []adapters.Call, r []define.Result, o ...adapters.Option) (any, error) {
				return adapters.MCPResponses(c, r)
			}, nil},
	}
	for _, h := range homes {
		for _, opts := range [][]adapters.Option{nil, {adapters.MediaAsNote()}} {
			p := forName(t, h.name, opts...)
			for _, c := range mediaCases() {
				calls := mediaCalls(len(c.results))
				want, wantErr := p.Results(calls, c.results)
				wantJSON, _ := json.Marshal(want)
				if h.both != nil {
					got, err := h.both(calls, c.results, opts...)
					gotJSON, _ := json.Marshal(got)
					if (err == nil) != (wantErr == nil) || !bytes.Equal(gotJSON, wantJSON) {
						t.Errorf("%s/%s: ...AndMedia = %s, %v\nProvider.Results = %s, %v", h.name, c.name, gotJSON, err, wantJSON, wantErr)
					}
				}
				got, err := h.plain(calls, c.results, opts...)
				followers := wantErr == nil && h.both != nil && len(want) > len(calls) && h.name != adapters.NameGemini ||
					wantErr == nil && h.name == adapters.NameGemini && len(want) == 2
				switch {
				case followers:
					if !errors.Is(err, adapters.ErrMediaMessage) || !strings.Contains(err.Error(), "ResultsAndMedia") {
						t.Errorf("%s/%s: typed results with media after them: %v, want ErrMediaMessage", h.name, c.name, err)
					}
				case wantErr != nil:
					if err == nil || err.Error() != wantErr.Error() {
						t.Errorf("%s/%s: typed error %v, want %v", h.name, c.name, err, wantErr)
					}
				default:
					if err != nil {
						t.Fatalf("%s/%s: %v", h.name, c.name, err)
					}
					gotJSON, _ := json.Marshal(got)
					if h.name == adapters.NameAnthropic || h.name == adapters.NameBedrock || h.name == adapters.NameGemini {
						gotJSON = append(append([]byte("["), gotJSON...), ']')
					}
					if !bytes.Equal(gotJSON, wantJSON) {
						t.Errorf("%s/%s: typed = %s\nProvider.Results = %s", h.name, c.name, gotJSON, wantJSON)
					}
				}
			}
		}
	}
}

// TestMediaErrors: a part a provider takes in no form is an error
// wrapping ErrMedia that names the function, the result, the call, the
// part and the provider's rule; a malformed part made by hand too, even
// with MediaAsNote; a results option another provider owns, or a
// rendering option given to a typed results function, is an ErrOption.
func TestMediaErrors(t *testing.T) {
	calls := mediaCalls(2)
	ogg := []define.Result{{Output: "a"}, done(define.AudioPart("audio/ogg", mediatest.OGG()))}
	_, err := adapters.OpenAIResults(calls, ogg)
	want := "adapters: OpenAIResults: results[1] (call callB0000, read_file): part 0, audio (audio/ogg, 30 bytes): OpenAI takes audio as WAV or MP3 only (MediaAsNote() sends a note instead)"
	if !errors.Is(err, adapters.ErrMedia) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	if _, err := adapters.ForOpenAI(adapters.Server(adapters.Groq)).Results(calls, ogg); err == nil || !strings.Contains(err.Error(), "Groq takes audio as WAV or MP3 only") {
		t.Errorf("a server names itself: %v", err)
	}
	for _, bad := range []define.Part{
		{Kind: "video", Data: []byte("x")},
		{Kind: define.PartImage, Data: mediatest.PNG()},
		{Kind: define.PartImage},
		{Kind: define.PartAudio, URL: "https://x.test/a.mp3"},
	} {
		for _, p := range adapters.Providers() {
			_, err := forName(t, p.Name(), adapters.MediaAsNote()).Results(calls[:1], []define.Result{done(bad)})
			if !errors.Is(err, adapters.ErrMedia) || !strings.Contains(err.Error(), "malformed") {
				t.Errorf("%s: malformed %v: %v", p.Name(), bad, err)
			}
		}
		if r := adapters.MCPResult(done(bad)); !r.IsError || !strings.Contains(r.Content[0].Text, "malformed") {
			t.Errorf("MCPResult of malformed %v: %+v", bad, r)
		}
	}
	if _, err := adapters.AnthropicResults(calls[:1], []define.Result{{}}, adapters.GeminiMediaInUserTurn()); !errors.Is(err, adapters.ErrOption) {
		t.Errorf("Gemini's option given to AnthropicResults: %v", err)
	}
	if _, err := adapters.AnthropicResults(calls[:1], []define.Result{{}}, adapters.Strict(true)); !errors.Is(err, adapters.ErrOption) || !strings.Contains(err.Error(), "does not apply to results") {
		t.Errorf("Strict given to AnthropicResults: %v", err)
	}
	if _, err := adapters.ForAnthropic(adapters.Strict(true), adapters.MediaAsNote()).Tools(nil); err != nil {
		t.Errorf("ForX's option list with a results option: %v", err)
	}
	if _, err := adapters.ToAnthropic(nil, adapters.GeminiMediaInUserTurn()); !errors.Is(err, adapters.ErrOption) {
		t.Errorf("ToAnthropic with Gemini's results option: %v", err)
	}
	if _, err := adapters.ToGemini(nil, adapters.GeminiMediaInUserTurn(), adapters.MediaAsNote()); err != nil {
		t.Errorf("ToGemini with its results options: %v", err)
	}
}

// TestMediaNoCopy: rendering a result holds its part's bytes, not a copy:
// the encoding happens once, when the entry is marshalled.
func TestMediaNoCopy(t *testing.T) {
	img := mediatest.Sized(1 << 16)
	results := []define.Result{done(define.ImagePart("image/png", img))}
	calls := mediaCalls(1)
	a, _ := adapters.AnthropicResults(calls, results)
	g, _, _ := adapters.GeminiResultsAndMedia(calls, results)
	b, _ := adapters.BedrockResults(calls, results)
	m, _ := adapters.MCPResults(calls, results)
	_, u, _ := adapters.OpenAIResultsAndMedia(calls, results)
	_, o, _ := adapters.OllamaResultsAndMedia(calls, results)
	r, _ := adapters.OpenAIResponsesResults(calls, results)
	for name, data := range map[string][]byte{
		"anthropic": a.Content[0].Content.([]adapters.AnthropicContentBlock)[1].Source.Data,
		"gemini":    g.Parts[0].FunctionResponse.Parts[0].InlineData.Data,
		"bedrock":   b.Content[0].ToolResult.Content[1].Image.Source.Bytes,
		"mcp":       m[0].Content[1].Data,
		"openai":    u.Content[1].ImageURL.URL.Data,
		"ollama":    o.Images[0],
		"responses": r[0].Output.([]adapters.OpenAIResponsesContent)[1].ImageURL.Data,
	} {
		if len(data) != len(img) || &data[0] != &img[0] {
			t.Errorf("%s: the rendering holds a copy of the part's bytes", name)
		}
	}
}

// TestMediaAppendJSON: AppendJSON of the entries of Provider.Results is
// byte for byte what json.Marshal writes, for every provider and case,
// with MediaAsNote too, and for text results with characters JSON
// escapes.
func TestMediaAppendJSON(t *testing.T) {
	cases := append(mediaCases(), mediaCase{"escapes", []define.Result{
		{Output: "<b>&amp;</b> \u2028 \x01 \xff \"q\""},
		{Output: "bad", IsError: true, Parts: []define.Part{define.TextPart("<i>")}},
	}})
	for _, base := range adapters.Providers() {
		for _, opts := range [][]adapters.Option{nil, {adapters.MediaAsNote()}} {
			p := forName(t, base.Name(), opts...)
			for _, c := range cases {
				entries, err := p.Results(mediaCalls(len(c.results)), c.results)
				if err != nil {
					continue
				}
				want, err := json.Marshal(entries)
				if err != nil {
					t.Fatal(err)
				}
				got, err := adapters.AppendJSON([]byte("x"), entries)
				if err != nil || string(got) != "x"+string(want) {
					t.Errorf("%s/%s: AppendJSON = %s, %v\njson.Marshal = %s", p.Name(), c.name, got, err, want)
				}
			}
		}
	}
}

// TestMediaURL: a data: URL marshals as encoding/json would quote its
// text, a MIME type that JSON escapes included, in both writers.
func TestMediaURL(t *testing.T) {
	for _, u := range []adapters.MediaURL{
		{URL: "https://x.test/a.png?b=<c>"},
		{MIMEType: "image/png", Data: []byte("abc")},
		{MIMEType: `image/"x"<y>`, Data: []byte{0xff, 0}},
	} {
		text, _ := u.MarshalText()
		want, _ := json.Marshal(string(text))
		got, _ := json.Marshal(u)
		if string(got) != string(want) || u.Text() != string(text) {
			t.Errorf("%v: json.Marshal = %s, want %s; Text = %q", u, got, want, u.Text())
		}
		msg := adapters.OpenAIMediaMessage{Role: "user", Content: []adapters.OpenAIContentPart{{Type: "image_url", ImageURL: &adapters.OpenAIImageURL{URL: u}}}}
		a, _ := json.Marshal([]any{msg})
		b, _ := adapters.AppendJSON(nil, []any{msg})
		if string(a) != string(b) {
			t.Errorf("%v: AppendJSON = %s, json.Marshal = %s", u, b, a)
		}
	}
	if got := (adapters.MediaURL{MIMEType: "image/png", Data: make([]byte, 30)}).String(); got != "data:image/png;base64,… (30 bytes)" {
		t.Errorf("String = %s", got)
	}
}
