package toolnexus_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/golden"
)

// deferredToolkit is a toolkit of 1,000 tools: 999 generated ones and
// get_weather, placed among them, whose handler answers with the city.
func deferredToolkit(t *testing.T) *toolnexus.Toolkit {
	t.Helper()
	verbs := []string{"get", "list", "create", "delete", "update", "archive", "export", "sync"}
	nouns := []string{"invoice", "customer", "ticket", "repository", "order", "shipment", "report", "user", "project", "alert"}
	tools := make([]define.Tool, 0, 1000)
	for i := range 999 {
		if i == 737 {
			type in struct {
				City string `json:"city" jsonschema:"description=The city name"`
			}
			w, err := define.DefineTool(func(_ context.Context, a in) (string, error) { return "sunny in " + a.City, nil },
				define.WithName("get_weather"), define.WithDescription("Weather forecast for a city."))
			if err != nil {
				t.Fatal(err)
			}
			tools = append(tools, w)
		}
		v, o := verbs[i%len(verbs)], nouns[(i/len(verbs))%len(nouns)]
		schema := fmt.Sprintf(`{"type":"object","properties":{"%s_id":{"type":"string","description":"The %s's id."}},"required":["%s_id"]}`, o, o, o)
		tool, err := define.NewTool(fmt.Sprintf("%s_%s_%d", v, o, i), json.RawMessage(schema),
			func(context.Context, json.RawMessage) (any, error) { return "done", nil },
			define.WithDescription(fmt.Sprintf("%s a %s of workspace %d.", v, o, i)))
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool)
	}
	tk, err := toolnexus.NewToolkit(tools...)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// TestDeferredLoopAnthropic is the two-turn loop with Anthropic's
// client-side search: the 1,000 tools go out deferred with the search
// tool; the model searches; the Searcher answers with tool_reference
// blocks from the toolkit; the model calls the tool found; Run executes
// it. The history of the two turns is the golden file.
func TestDeferredLoopAnthropic(t *testing.T) {
	tk := deferredToolkit(t)
	tools, err := adapters.ToAnthropic(tk.Tools(), adapters.Deferred())
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1001 || tools[1000].Name != adapters.SearchToolName {
		t.Fatalf("%d entries, last %q", len(tools), tools[len(tools)-1].Name)
	}
	for _, e := range tools[:1000] {
		if !e.DeferLoading {
			t.Fatalf("%s is not deferred", e.Name)
		}
	}
	s := adapters.NewSearcher(tk.Tools(), 3)
	history := []any{map[string]string{"role": "user", "content": "What's the weather in Paris?"}}

	// Turn 1: the model searches.
	turn, err := adapters.ParseAnthropicReply([]byte(`{"id":"msg_1","type":"message","role":"assistant","content":[
		{"type":"text","text":"I'll look for a weather tool."},
		{"type":"tool_use","id":"toolu_s1","name":"search_tools","input":{"query":"weather forecast for a city"}}],
		"stop_reason":"tool_use"}`))
	if err != nil {
		t.Fatal(err)
	}
	searches, calls := s.Split(turn)
	if len(searches) != 1 || len(calls) != 0 {
		t.Fatalf("turn 1: %d searches, %d calls", len(searches), len(calls))
	}
	answer, err := s.Answer(adapters.ForAnthropic(), searches)
	if err != nil {
		t.Fatal(err)
	}
	msg := answer[0].(adapters.AnthropicSearchResultMessage)
	if refs := msg.Content[0].Content; len(refs) == 0 || refs[0].Type != "tool_reference" || refs[0].ToolName != "get_weather" {
		t.Fatalf("the search found %+v, want get_weather first", refs)
	}
	history = append(append(history, turn.Replay...), answer...)

	// Turn 2: the model calls the tool the search loaded.
	turn, err = adapters.ParseAnthropicReply([]byte(`{"id":"msg_2","type":"message","role":"assistant","content":[
		{"type":"tool_use","id":"toolu_w1","name":"get_weather","input":{"city":"Paris"}}],"stop_reason":"tool_use"}`))
	if err != nil {
		t.Fatal(err)
	}
	searches, calls = s.Split(turn)
	if len(searches) != 0 || len(calls) != 1 {
		t.Fatalf("turn 2: %d searches, %d calls", len(searches), len(calls))
	}
	results := tk.Run(context.Background(), calls)
	if results[0].IsError || results[0].Output != "sunny in Paris" {
		t.Fatalf("Run: %+v", results[0])
	}
	res, err := adapters.AnthropicResults(calls, results)
	if err != nil {
		t.Fatal(err)
	}
	history = append(append(history, turn.Replay...), res)
	golden.JSON(t, "testdata/golden/deferred/loop_anthropic.json", history)
}

// TestDeferredLoopResponses is the same loop with the Responses API's
// client-executed tool_search: the model's tool_search_call is answered
// by a tool_search_output holding get_weather's definition.
func TestDeferredLoopResponses(t *testing.T) {
	tk := deferredToolkit(t)
	tools, err := adapters.ToOpenAIResponses(tk.Tools(), adapters.Deferred())
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1001 || tools[1000].Type != "tool_search" || tools[1000].Execution != "client" {
		t.Fatalf("%d entries, last %+v", len(tools), tools[len(tools)-1])
	}
	s := adapters.NewSearcher(tk.Tools(), 3)
	history := []any{map[string]string{"role": "user", "content": "What's the weather in Paris?"}}

	turn, err := adapters.ParseOpenAIResponsesReply([]byte(`{"id":"resp_1","object":"response","status":"completed","output":[
		{"type":"tool_search_call","id":"tsc_1","call_id":"call_s1","execution":"client","status":"completed","arguments":{"query":"weather forecast for a city"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	searches, calls := s.Split(turn)
	if len(searches) != 1 || len(calls) != 0 {
		t.Fatalf("turn 1: %d searches, %d calls", len(searches), len(calls))
	}
	answer, err := s.Answer(adapters.ForOpenAIResponses(), searches)
	if err != nil {
		t.Fatal(err)
	}
	out := answer[0].(adapters.OpenAIResponsesToolSearchOutput)
	if out.CallID != "call_s1" || len(out.Tools) == 0 || out.Tools[0].Name != "get_weather" || !strings.Contains(string(out.Tools[0].Parameters), `"city"`) {
		t.Fatalf("tool_search_output = %+v", out)
	}
	history = append(append(history, turn.Replay...), answer...)

	turn, err = adapters.ParseOpenAIResponsesReply([]byte(`{"id":"resp_2","object":"response","status":"completed","output":[
		{"type":"function_call","id":"fc_1","call_id":"call_w1","name":"get_weather","arguments":"{\"city\":\"Paris\"}","status":"completed"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	searches, calls = s.Split(turn)
	if len(searches) != 0 || len(calls) != 1 {
		t.Fatalf("turn 2: %d searches, %d calls", len(searches), len(calls))
	}
	results := tk.Run(context.Background(), calls)
	if results[0].IsError || results[0].Output != "sunny in Paris" {
		t.Fatalf("Run: %+v", results[0])
	}
	res, err := adapters.OpenAIResponsesResults(calls, results)
	if err != nil {
		t.Fatal(err)
	}
	history = append(append(history, turn.Replay...), res[0])
	golden.JSON(t, "testdata/golden/deferred/loop_responses.json", history)
}
