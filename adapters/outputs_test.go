package adapters_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

type rawOut struct {
	Raw  json.RawMessage `json:"raw"`
	List []string        `json:"list"`
}

// rawResult is a call's result whose output holds bytes that are not
// UTF-8 inside a json.RawMessage, and a hand-made result whose Output is
// JSON-looking text that is not UTF-8.
func rawResults(t *testing.T) []define.Result {
	t.Helper()
	tool := define.MustDefineTool(func(context.Context, struct{}) (rawOut, error) {
		return rawOut{Raw: json.RawMessage("{\"k\":\"a\xffb\"}")}, nil
	}, define.WithName("raw"))
	r := tool.ExecuteJSON(context.Background(), nil)
	if r.IsError {
		t.Fatal(r.Output)
	}
	return []define.Result{r, {Output: "{\"k\":\"\xfe\"}"}, {Output: "[\"\xc3\"]"}}
}

func rawCalls() []adapters.Call {
	return []adapters.Call{{ID: "1", Name: "raw"}, {ID: "2", Name: "raw"}, {ID: "3", Name: "raw"}}
}

func checkUTF8(t *testing.T, what string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(data) {
		t.Errorf("%s: not valid UTF-8: %q", what, data)
	}
	if strings.Contains(string(data), "\ufffd") || !strings.Contains(string(data), `\ufffd`) {
		t.Errorf("%s: want the bad bytes as \\ufffd: %s", what, data)
	}
}

func TestGeminiResultsUTF8(t *testing.T) {
	m, err := adapters.GeminiResults(rawCalls(), rawResults(t))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range m.Parts {
		checkUTF8(t, "gemini part "+p.FunctionResponse.ID, m.Parts[i].FunctionResponse.Response.Output)
	}
}

func TestBedrockResultsUTF8(t *testing.T) {
	m, err := adapters.BedrockResults(rawCalls(), rawResults(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range m.Content {
		checkUTF8(t, "bedrock "+b.ToolResult.ToolUseID, b.ToolResult.Content)
	}
}

func TestMCPResultsUTF8(t *testing.T) {
	r := rawResults(t)[0]
	m := adapters.MCPResult(r)
	checkUTF8(t, "mcp structuredContent", m.StructuredContent)
	if want := `{"raw":{"k":"a\ufffdb"},"list":[]}`; string(m.StructuredContent) != want {
		t.Errorf("structuredContent = %s, want %s", m.StructuredContent, want)
	}
	// A hand-made Result: its Value is encoded by the adapter, the same way.
	hand := adapters.MCPResult(define.Result{Output: "x", Value: rawOut{Raw: json.RawMessage("\"\xff\"")}})
	if want := `{"raw":"\ufffd","list":[]}`; string(hand.StructuredContent) != want {
		t.Errorf("hand-made structuredContent = %s, want %s", hand.StructuredContent, want)
	}
}

// TestMCPResultValueBounded: a hand-made Result's Value is encoded within
// define.DefaultMaxOutputBytes; beyond it there is no structuredContent.
func TestMCPResultValueBounded(t *testing.T) {
	big := define.Result{Output: "done", Value: map[string]string{"x": strings.Repeat("x", define.DefaultMaxOutputBytes)}}
	if m := adapters.MCPResult(big); m.StructuredContent != nil {
		t.Errorf("structuredContent of %d bytes, want none", len(m.StructuredContent))
	}
}
