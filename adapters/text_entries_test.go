package adapters_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// TestTextResultEntries: Provider.Results of Anthropic, Bedrock, Gemini,
// MCP and OpenAI Responses gives results without parts as their text types
// (AnthropicToolResultTextMessage, BedrockToolResultTextMessage,
// GeminiFunctionTextResponses, MCPTextResponse,
// OpenAIResponsesFunctionCallText),
// whose JSON, by json.Marshal and by AppendJSON, is byte for byte that of
// the typed results functions' values; a batch with a part keeps the
// general types.
func TestTextResultEntries(t *testing.T) {
	calls, results := textResultsTurn()
	results = append(results, define.Result{Output: "<&> \u2028 \xff", IsError: true})
	calls = append(calls, adapters.Call{ID: "callE0000", Name: "ping", Args: json.RawMessage(`{}`)})

	anth, err := adapters.AnthropicResults(calls, results)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := adapters.OpenAIResponsesResults(calls, results)
	if err != nil {
		t.Fatal(err)
	}
	bed, err := adapters.BedrockResults(calls, results)
	if err != nil {
		t.Fatal(err)
	}
	mcpCalls := append([]adapters.Call(nil), calls...)
	mcpCalls[0].ID = "7" // a JSON-RPC id as JSON text; the others are quoted
	mcpResults := append([]define.Result(nil), results...)
	mcpResults[0].Value = map[string]any{"city": "Paris", "temperature": 21.5} // structuredContent
	mcpResp, err := adapters.MCPResponses(mcpCalls, mcpResults)
	if err != nil {
		t.Fatal(err)
	}
	mcpEntries := make([]any, len(mcpResp))
	for i, r := range mcpResp {
		mcpEntries[i] = r
	}
	gem, err := adapters.GeminiResults(calls, results)
	if err != nil {
		t.Fatal(err)
	}
	respEntries := make([]any, len(resp))
	for i, it := range resp {
		respEntries[i] = it
	}
	for _, tc := range []struct {
		p       adapters.Provider
		want    []any
		is      func(any) bool
		calls   []adapters.Call
		results []define.Result
	}{
		{adapters.ForGemini(), []any{gem}, func(e any) bool { _, ok := e.(adapters.GeminiFunctionTextResponses); return ok }, nil, nil},
		{adapters.ForMCP(), mcpEntries, func(e any) bool { _, ok := e.(adapters.MCPTextResponse); return ok }, mcpCalls, mcpResults},
		{adapters.ForAnthropic(), []any{anth}, func(e any) bool { _, ok := e.(adapters.AnthropicToolResultTextMessage); return ok }, nil, nil},
		{adapters.ForBedrock(), []any{bed}, func(e any) bool { _, ok := e.(adapters.BedrockToolResultTextMessage); return ok }, nil, nil},
		{adapters.ForOpenAIResponses(), respEntries, func(e any) bool { _, ok := e.(adapters.OpenAIResponsesFunctionCallText); return ok }, nil, nil},
	} {
		calls, results := calls, results
		if tc.calls != nil {
			calls, results = tc.calls, tc.results
		}
		got, err := tc.p.Results(calls, results)
		if err != nil {
			t.Fatalf("%s: %v", tc.p.Name(), err)
		}
		for i, e := range got {
			if !tc.is(e) {
				t.Errorf("%s: entry %d is a %T", tc.p.Name(), i, e)
			}
		}
		want, err := json.Marshal(tc.want)
		if err != nil {
			t.Fatal(err)
		}
		marshalled, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		appended, err := adapters.AppendJSON(nil, got)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(marshalled, want) || !bytes.Equal(appended, want) {
			t.Errorf("%s:\njson.Marshal %s\nAppendJSON   %s\nwant         %s", tc.p.Name(), marshalled, appended, want)
		}

		withPart := append([]define.Result(nil), results...)
		withPart[1].Parts = []define.Part{define.TextPart("more")}
		got, err = tc.p.Results(calls, withPart)
		if err != nil {
			t.Fatalf("%s: %v", tc.p.Name(), err)
		}
		for i, e := range got {
			if tc.is(e) {
				t.Errorf("%s: with a part, entry %d is a %T", tc.p.Name(), i, e)
			}
		}
	}
}
