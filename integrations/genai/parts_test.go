package tngenai_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tngenai "github.com/toolnexus/toolnexus/integrations/genai"
	"github.com/toolnexus/toolnexus/internal/mediatest"
	"github.com/toolnexus/toolnexus/internal/sdktest"
	"google.golang.org/genai"
)

// TestParts: through the unmodified genai client, a tool's image and PDF
// are inline in its function response (FunctionResponse.Parts), and its
// audio follows in a user content of its own after a text part naming its
// call; RunParts, which cannot send that content, refuses such results.
func TestParts(t *testing.T) {
	png, pdf, wav := mediatest.PNG(), mediatest.PDF(), mediatest.WAV()
	tk := sdktest.MediaToolkit(define.ImagePart("", png), define.FilePart("application/pdf", "report.pdf", pdf), define.AudioPart("", wav))
	call := `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"screenshot","args":{}}}]},"finishReason":"STOP"}]}`
	m := sdktest.NewModel(modelPath, call,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"A chart."}]},"finishReason":"STOP"}]}`)
	defer m.Close()
	ctx := context.Background()
	client, err := newClient(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := tngenai.Tools(tk)
	if err != nil {
		t.Fatal(err)
	}
	config := &genai.GenerateContentConfig{Tools: tools}
	history := []*genai.Content{genai.NewContentFromText("What is on screen?", genai.RoleUser)}
	for done := false; !done; {
		resp, err := client.Models.GenerateContent(ctx, "gemini-test", history, config)
		if err != nil {
			t.Fatalf("%v (model: %v)", err, m.Err())
		}
		var next []*genai.Content
		if next, done, err = tngenai.Run(ctx, tk, resp); err != nil {
			t.Fatal(err)
		}
		history = append(history, next...)
	}
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	var req struct {
		Contents []any `json:"contents"`
	}
	if err := json.Unmarshal(m.Requests()[1], &req); err != nil {
		t.Fatal(err)
	}
	b64 := base64.StdEncoding.EncodeToString
	var want []any
	_ = json.Unmarshal([]byte(`[
		{"role":"user","parts":[{"functionResponse":{"id":"c1","name":"screenshot",
			"response":{"output":"captured\n[audio: audio/wav, 52 bytes; attachment 1, in the next message]"},
			"parts":[{"inlineData":{"mimeType":"image/png","data":"`+b64(png)+`"}},{"inlineData":{"mimeType":"application/pdf","data":"`+b64(pdf)+`"}}]}}]},
		{"role":"user","parts":[{"text":"Attachment 1, from the result of call c1 (screenshot):"},{"inlineData":{"mimeType":"audio/wav","data":"`+b64(wav)+`"}}]}]`), &want)
	if diff := cmp.Diff(want, req.Contents[2:]); diff != "" {
		t.Errorf("contents sent after the model's (-want +got):\n%s", diff)
	}

	// RunParts: the images alone are inline; the audio cannot follow.
	var resp genai.GenerateContentResponse
	if err := json.Unmarshal([]byte(call), &resp); err != nil {
		t.Fatal(err)
	}
	if _, err := tngenai.RunParts(ctx, tk, &resp); !errors.Is(err, adapters.ErrMediaMessage) {
		t.Errorf("RunParts with audio: %v, want ErrMediaMessage", err)
	}
	parts, err := tngenai.RunParts(ctx, sdktest.MediaToolkit(define.ImagePart("", png)), &resp)
	if err != nil || len(parts) != 1 || len(parts[0].FunctionResponse.Parts) != 1 || string(parts[0].FunctionResponse.Parts[0].InlineData.Data) != string(png) {
		t.Errorf("RunParts with an image: %+v, %v", parts, err)
	}
}
