package tnanthropic_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/integrations/anthropic"
	"github.com/toolnexus/toolnexus/internal/mediatest"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// TestParts: a tool's image, PDF, text file and image by URL reach the
// model through the unmodified SDK client as the image and document
// blocks of its tool_result, each byte sent.
func TestParts(t *testing.T) {
	png, pdf, csv := mediatest.PNG(), mediatest.PDF(), mediatest.Text()
	tk := sdktest.MediaToolkit(define.ImagePart("", png), define.FilePart("application/pdf", "report.pdf", pdf),
		define.FilePart("text/csv", "data.csv", csv), define.ImageURLPart("https://example.com/chart.png"))
	m := sdktest.NewModel(modelPath,
		`{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","stop_reason":"tool_use","stop_sequence":null,
			"usage":{"input_tokens":10,"output_tokens":10},"content":[{"type":"tool_use","id":"toolu_1","name":"screenshot","input":{}}]}`,
		`{"id":"msg_2","type":"message","role":"assistant","model":"claude-test","stop_reason":"end_turn","stop_sequence":null,
			"usage":{"input_tokens":10,"output_tokens":10},"content":[{"type":"text","text":"A chart."}]}`)
	defer m.Close()
	ctx := context.Background()
	client := newClient(m)
	tools, err := tnanthropic.Tools(tk)
	if err != nil {
		t.Fatal(err)
	}
	params := anthropic.MessageNewParams{Model: "claude-test", MaxTokens: 1024, Tools: tools,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("What is on screen?"))}}
	for done := false; !done; {
		msg, err := client.Messages.New(ctx, params)
		if err != nil {
			t.Fatalf("%v (model: %v)", err, m.Err())
		}
		var next []anthropic.MessageParam
		if next, done, err = tnanthropic.Run(ctx, tk, msg); err != nil {
			t.Fatal(err)
		}
		params.Messages = append(params.Messages, next...)
	}
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	reqs := m.Requests()
	var last struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(reqs[1], &last); err != nil {
		t.Fatal(err)
	}
	var got any
	if err := json.Unmarshal(last.Messages[2].Content[0], &got); err != nil {
		t.Fatal(err)
	}
	b64 := base64.StdEncoding.EncodeToString
	var want any
	_ = json.Unmarshal([]byte(`{"type":"tool_result","tool_use_id":"toolu_1","is_error":false,"content":[
		{"type":"text","text":"captured"},
		{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`+b64(png)+`"}},
		{"type":"document","title":"report.pdf","source":{"type":"base64","media_type":"application/pdf","data":"`+b64(pdf)+`"}},
		{"type":"document","title":"data.csv","source":{"type":"content","content":[{"type":"text","text":`+jsonString(string(csv))+`}]}},
		{"type":"image","source":{"type":"url","url":"https://example.com/chart.png"}}]}`), &want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool_result sent (-want +got):\n%s", diff)
	}
}

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }
