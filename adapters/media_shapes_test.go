package adapters_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/mediatest"
)

// The shapes of real requests whose tool results carried an image, a
// document or audio, each answered by the model as having seen it: for
// each, the part of the request that answers the call, written here by
// hand in the provider's shape with data of our own, and the same tool
// result built with define's parts. Our rendering must have the same
// structure: the same keys and nesting, the same discriminating values
// (type, role, media_type, format, ...), and the media in the same place
// (inside the tool result, or in a message after it). Where we
// deliberately differ from a recorded request, the case says why and its
// shape is ours.

// shapeCase is one recorded exchange's shape.
type shapeCase struct {
	name     string
	provider adapters.Provider
	output   string // the tool result's text
	parts    []define.Part
	// want is the answer to the call as the provider takes it: the
	// history entries after the model's turn.
	want string
	// snake: the provider's keys are compared without case or
	// underscores (Gemini reads inline_data and inlineData alike).
	snake bool
}

func shapeCases() []shapeCase {
	jpeg, pdf := mediatest.JPEG(), mediatest.PDF()
	mp3 := mediatest.MP3()
	return []shapeCase{
		{
			name: "anthropic tool_result with an image block", provider: adapters.ForAnthropic(),
			parts: []define.Part{define.ImagePart("image/jpeg", jpeg)},
			want: `[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":false,
				"content":[{"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"/9j/AA=="}}]}]}]`,
		},
		{
			name: "anthropic tool_result with a PDF document block", provider: adapters.ForAnthropic(),
			parts: []define.Part{define.FilePart("application/pdf", "", pdf)},
			want: `[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":false,
				"content":[{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERg=="}}]}]}]`,
		},
		{
			// Recorded with the image beside the tool_result in the same
			// user message; we put it inside, as the first Anthropic
			// exchange does (the model sees it either way).
			name: "anthropic text, then the image", provider: adapters.ForAnthropic(),
			output: "File attached", parts: []define.Part{define.ImagePart("image/jpeg", jpeg)},
			want: `[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":false,
				"content":[{"type":"text","text":"File attached"},
					{"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"/9j/AA=="}}]}]}]`,
		},
		{
			name: "anthropic tool_result with an image by URL", provider: adapters.ForAnthropic(),
			parts: []define.Part{define.ImageURLPart("https://example.com/rose.png")},
			want: `[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":false,
				"content":[{"type":"image","source":{"type":"url","url":"https://example.com/rose.png"}}]}]}]`,
		},
		{
			name: "openai chat tool text, then a user image", provider: adapters.ForOpenAI(),
			output: "See file 1.", parts: []define.Part{define.ImagePart("image/jpeg", jpeg)},
			want: `[{"role":"tool","tool_call_id":"toolu_1","content":"See file 1."},
				{"role":"user","content":[{"type":"text","text":"This is file 1:"},
					{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,/9j/AA=="}}]}]`,
		},
		{
			name: "openai chat tool text, then a user PDF file", provider: adapters.ForOpenAI(),
			output: "See file 2.", parts: []define.Part{define.FilePart("application/pdf", "filename.pdf", pdf)},
			want: `[{"role":"tool","tool_call_id":"toolu_1","content":"See file 2."},
				{"role":"user","content":[{"type":"text","text":"This is file 2:"},
					{"type":"file","file":{"file_data":"data:application/pdf;base64,JVBERg==","filename":"filename.pdf"}}]}]`,
		},
		{
			name: "groq tool text, then a user image", provider: adapters.ForOpenAI(adapters.Server(adapters.Groq)),
			output: "See file 1.", parts: []define.Part{define.ImagePart("image/jpeg", jpeg)},
			want: `[{"role":"tool","tool_call_id":"toolu_1","content":"See file 1."},
				{"role":"user","content":[{"type":"text","text":"This is file 1:"},
					{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,/9j/AA=="}}]}]`,
		},
		{
			// Mistral's tool message names its tool, and an assistant
			// message comes before the user message.
			name: "mistral tool text, an assistant message, then a user image", provider: adapters.ForMistral(),
			output: "See file 1.", parts: []define.Part{define.ImagePart("image/jpeg", jpeg)},
			want: `[{"role":"tool","tool_call_id":"abcdefghi","name":"get_file","content":"See file 1."},
				{"role":"assistant","content":"OK"},
				{"role":"user","content":[{"type":"text","text":"This is file 1:"},
					{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,/9j/AA=="}}]}]`,
		},
		{
			name: "responses function_call_output with an input_image", provider: adapters.ForOpenAIResponses(),
			parts: []define.Part{define.ImagePart("image/jpeg", jpeg)},
			want: `[{"type":"function_call_output","call_id":"toolu_1",
				"output":[{"type":"input_image","detail":"auto","image_url":"data:image/jpeg;base64,/9j/AA=="}]}]`,
		},
		{
			name: "responses function_call_output with an input_file", provider: adapters.ForOpenAIResponses(),
			parts: []define.Part{define.FilePart("application/pdf", "filename.pdf", pdf)},
			want: `[{"type":"function_call_output","call_id":"toolu_1",
				"output":[{"type":"input_file","file_data":"data:application/pdf;base64,JVBERg==","filename":"filename.pdf"}]}]`,
		},
		{
			name: "responses function_call_output with an input_image by URL", provider: adapters.ForOpenAIResponses(),
			parts: []define.Part{define.ImageURLPart("https://example.com/rose.png")},
			want: `[{"type":"function_call_output","call_id":"toolu_1",
				"output":[{"type":"input_image","detail":"auto","image_url":"https://example.com/rose.png"}]}]`,
		},
		{
			name: "gemini 3 functionResponse with an inline image", provider: adapters.ForGemini(), snake: true,
			parts: []define.Part{define.ImagePart("image/jpeg", jpeg)},
			want: `[{"role":"user","parts":[{"function_response":{"id":"toolu_1","name":"get_file","response":{},
				"parts":[{"inline_data":{"mime_type":"image/jpeg","data":"/9j/AA=="}}]}}]}]`,
		},
		{
			name: "vertex functionResponse with an inline PDF", provider: adapters.ForGemini(), snake: true,
			parts: []define.Part{define.FilePart("application/pdf", "", pdf)},
			want: `[{"role":"user","parts":[{"function_response":{"id":"toolu_1","name":"get_file","response":{},
				"parts":[{"inline_data":{"mime_type":"application/pdf","data":"JVBERg=="}}]}}]}]`,
		},
		{
			// The recorded response object holds {"files": [text]}; ours
			// is Gemini's documented {"output": text}.
			name: "gemini 2.5 functionResponse, then a user image", provider: adapters.ForGemini(adapters.GeminiMediaInUserTurn()), snake: true,
			output: "See file 1.", parts: []define.Part{define.ImagePart("image/jpeg", jpeg)},
			want: `[{"role":"user","parts":[{"functionResponse":{"id":"toolu_1","name":"get_file","response":{"output":"See file 1."}}}]},
				{"role":"user","parts":[{"text":"This is file 1:"},{"inlineData":{"mimeType":"image/jpeg","data":"_9j_AA=="}}]}]`,
		},
		{
			name: "gemini 3 functionResponse, then a user audio", provider: adapters.ForGemini(), snake: true,
			output: "See file 3.", parts: []define.Part{define.AudioPart("audio/mpeg", mp3)},
			want: `[{"role":"user","parts":[{"functionResponse":{"id":"toolu_1","name":"get_file","response":{"output":"See file 3."}}}]},
				{"role":"user","parts":[{"text":"This is file 3:"},{"inlineData":{"mimeType":"audio/mpeg","data":"__t0xA=="}}]}]`,
		},
		{
			name: "bedrock claude toolResult with an image", provider: adapters.ForBedrock(),
			parts: []define.Part{define.ImagePart("image/jpeg", jpeg)},
			want: `[{"role":"user","content":[{"toolResult":{"toolUseId":"toolu_1","status":"success",
				"content":[{"image":{"format":"jpeg","source":{"bytes":"/9j/AA=="}}}]}}]}]`,
		},
		{
			// Recorded with the document inside the toolResult, where
			// Claude on Bedrock saw nothing ("returned no visible output");
			// we send it after the toolResult, as the Nova exchange does.
			name: "bedrock claude document, after the toolResult", provider: adapters.ForBedrock(),
			parts: []define.Part{define.FilePart("application/pdf", "", pdf)},
			want: `[{"role":"user","content":[{"toolResult":{"toolUseId":"toolu_1","status":"success","content":[{"text":"[document: see below]"}]}},
				{"text":"This is file 2:"},{"document":{"name":"Document 1","format":"pdf","source":{"bytes":"JVBERg=="}}}]}]`,
		},
		{
			name: "bedrock nova toolResult text, then the document beside it", provider: adapters.ForBedrock(),
			output: "See file 2.", parts: []define.Part{define.FilePart("application/pdf", "", pdf)},
			want: `[{"role":"user","content":[{"toolResult":{"toolUseId":"toolu_1","status":"success","content":[{"text":"See file 2."}]}},
				{"text":"This is file 2:"},{"document":{"name":"Document 1","format":"pdf","source":{"bytes":"JVBERg=="}}}]}]`,
		},
	}
}

// TestMediaShapes renders each recorded exchange's tool result and
// compares its shape with the request's.
func TestMediaShapes(t *testing.T) {
	for _, c := range shapeCases() {
		t.Run(c.name, func(t *testing.T) {
			calls := []adapters.Call{{ID: "toolu_1", Name: "get_file", Args: json.RawMessage(`{}`)}}
			entries, err := c.provider.Results(calls, []define.Result{{Output: c.output, Parts: c.parts}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(entries)
			if err != nil {
				t.Fatal(err)
			}
			gotShape, wantShape := jsonShape(t, got, c.snake), jsonShape(t, []byte(c.want), c.snake)
			if !reflect.DeepEqual(gotShape, wantShape) {
				g, _ := json.MarshalIndent(gotShape, "", " ")
				w, _ := json.MarshalIndent(wantShape, "", " ")
				t.Errorf("shape of %s\n%s\nwant\n%s", got, g, w)
			}
		})
	}
}

// jsonShape is the structure of a JSON document: its objects with their
// keys, arrays with runs of elements of one shape made one, the values
// of discriminating keys as they are, and other values by kind: "<text>",
// "<url>", "<base64>", "<data:MIME>" for a data: URL, "<number>".
func jsonShape(t *testing.T, doc []byte, loose bool) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, doc)
	}
	return shapeOf("", v, loose)
}

func shapeOf(key string, v any, loose bool) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			nk := k
			if loose {
				nk = strings.ToLower(strings.ReplaceAll(k, "_", ""))
			}
			out[nk] = shapeOf(nk, e, loose)
		}
		return out
	case []any:
		var out []any
		for _, e := range v {
			s := shapeOf(key, e, loose)
			if len(out) > 0 && reflect.DeepEqual(out[len(out)-1], s) {
				continue
			}
			out = append(out, s)
		}
		return out
	case string:
		switch key {
		case "type", "role", "media_type", "mimetype", "mimeType", "mime_type", "format", "status", "detail":
			return v
		case "data", "bytes", "blob":
			return "<base64>"
		}
		switch {
		case strings.HasPrefix(v, "data:"):
			mime, _, _ := strings.Cut(v[len("data:"):], ";")
			return "<data:" + mime + ">"
		case strings.HasPrefix(v, "https://"), strings.HasPrefix(v, "http://"):
			return "<url>"
		}
		return "<text>"
	case float64:
		return "<number>"
	}
	return fmt.Sprint(v)
}
