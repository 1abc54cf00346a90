package adapters_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/golden"
)

// deferTools is a small toolkit for the deferred renderings.
func deferTools(t *testing.T) []define.Tool {
	t.Helper()
	mk := func(name, desc, schema string) define.Tool {
		tool, err := define.NewTool(name, json.RawMessage(schema), dummy, define.WithDescription(desc))
		if err != nil {
			t.Fatal(err)
		}
		return tool
	}
	return []define.Tool{
		mk("get_time", "Current time in a time zone.", `{"type":"object","properties":{"zone":{"type":"string","description":"IANA zone <e.g. Europe/Paris>"}},"required":["zone"]}`),
		mk("get_weather", "Weather forecast for a city.", `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
		mk("create_event", "Create a calendar event.", `{"type":"object","properties":{"title":{"type":"string"},"start":{"type":"string","format":"date-time"}},"required":["title","start"]}`),
		mk("list_events", "List calendar events of a day.", `{"type":"object","properties":{"day":{"type":"string","format":"date"}},"required":["day"]}`),
	}
}

// TestDeferredGolden renders the small toolkit deferred in each mode, for
// Anthropic and Responses, against testdata/golden/deferred/, and checks
// that AppendJSON writes the bytes json.Marshal does.
func TestDeferredGolden(t *testing.T) {
	tools := deferTools(t)
	cases := []struct {
		name   string
		render func() (any, error)
	}{
		{"anthropic_client", func() (any, error) { return adapters.ToAnthropic(tools, adapters.Deferred("get_time")) }},
		{"anthropic_regex", func() (any, error) {
			return adapters.ToAnthropic(tools, adapters.DeferOnly("create_event", "list_events"), adapters.ToolSearch(adapters.SearchServer))
		}},
		{"anthropic_bm25_strict", func() (any, error) {
			return adapters.ToAnthropic(tools, adapters.Deferred(), adapters.ToolSearch(adapters.SearchServerBM25), adapters.Strict(true))
		}},
		{"responses_client", func() (any, error) { return adapters.ToOpenAIResponses(tools, adapters.Deferred("get_time")) }},
		{"responses_namespace", func() (any, error) {
			return adapters.ToOpenAIResponses(tools, adapters.Deferred("get_time"),
				adapters.Namespace("calendar", "Calendar events: create and list.", "create_event", "list_events"))
		}},
		{"responses_hosted", func() (any, error) {
			return adapters.ToOpenAIResponses(tools, adapters.DeferOnly("get_weather"), adapters.ToolSearch(adapters.SearchServer))
		}},
		{"responses_namespace_only", func() (any, error) {
			return adapters.ToOpenAIResponses(tools, adapters.Namespace("calendar", "Calendar events.", "list_events", "create_event"))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := c.render()
			if err != nil {
				t.Fatal(err)
			}
			golden.JSON(t, filepath.Join("..", "testdata", "golden", "deferred", c.name+".json"), v)
			m, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			a, err := adapters.AppendJSON(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(m, a) {
				t.Errorf("AppendJSON and json.Marshal differ:\n%s\n%s", a, m)
			}
		})
	}
}

// TestDeferredMarks checks the marks themselves, without goldens.
func TestDeferredMarks(t *testing.T) {
	tools := deferTools(t)
	an, err := adapters.ToAnthropic(tools, adapters.Deferred("get_time"))
	if err != nil {
		t.Fatal(err)
	}
	if len(an) != len(tools)+1 {
		t.Fatalf("%d entries, want the %d tools and the search tool", len(an), len(tools))
	}
	for i, e := range an[:len(tools)] {
		if want := tools[i].Name() != "get_time"; e.DeferLoading != want {
			t.Errorf("%s: defer_loading %v, want %v", e.Name, e.DeferLoading, want)
		}
	}
	if s := an[len(tools)]; s.Name != adapters.SearchToolName || s.DeferLoading || len(s.InputSchema) == 0 {
		t.Errorf("search tool = %+v", s)
	}
	// Without deferral nothing changes: the cache entries are not marked.
	plain, err := adapters.ToAnthropic(tools)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range plain {
		if e.DeferLoading {
			t.Errorf("%s is deferred in a call without Deferred", e.Name)
		}
	}
	rs, err := adapters.ToOpenAIResponses(tools, adapters.Deferred(), adapters.Namespace("cal", "Calendar.", "list_events", "create_event"))
	if err != nil {
		t.Fatal(err)
	}
	// get_time, get_weather, the namespace at create_event's place (its
	// first member in the call's order), the search tool.
	var kinds []string
	for _, e := range rs {
		kinds = append(kinds, e.Type+":"+e.Name)
	}
	if got, want := strings.Join(kinds, " "), "function:get_time function:get_weather namespace:cal tool_search:"; got != want {
		t.Fatalf("entries %s, want %s", got, want)
	}
	ns := rs[2]
	if len(ns.Tools) != 2 || ns.Tools[0].Name != "create_event" || !ns.Tools[0].DeferLoading || ns.DeferLoading {
		t.Errorf("namespace = %+v", ns)
	}
	data, _ := json.Marshal(rs[3])
	if string(data) != `{"type":"tool_search","description":`+mustQuote(rs[3].Description)+`,"execution":"client","parameters":`+string(rs[3].Parameters)+`}` {
		t.Errorf("search tool = %s", data)
	}
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestDeferredErrors(t *testing.T) {
	tools := deferTools(t)
	clash, err := define.NewTool(adapters.SearchToolName, json.RawMessage(`{"type":"object"}`), dummy)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		err  func() error
		want string
	}{
		{"unknown loaded", func() error { _, err := adapters.ToAnthropic(tools, adapters.Deferred("get_tme")); return err }, `"get_tme" is not one of the call's 4 tools`},
		{"unknown deferred", func() error { _, err := adapters.ToOpenAIResponses(tools, adapters.DeferOnly("nope")); return err }, `"nope" is not one of`},
		{"both", func() error {
			_, err := adapters.ToAnthropic(tools, adapters.Deferred(), adapters.DeferOnly())
			return err
		}, "conflicts with Deferred()"},
		{"search alone", func() error {
			_, err := adapters.ToAnthropic(tools, adapters.ToolSearch(adapters.SearchServer))
			return err
		}, "needs Deferred or DeferOnly"},
		{"bm25 on responses", func() error {
			_, err := adapters.ToOpenAIResponses(tools, adapters.Deferred(), adapters.ToolSearch(adapters.SearchServerBM25))
			return err
		}, "one hosted search"},
		{"namespace on anthropic", func() error {
			_, err := adapters.ToAnthropic(tools, adapters.Namespace("cal", "", "list_events"))
			return err
		}, "does not apply to Anthropic"},
		{"deferred on gemini", func() error { _, err := adapters.ToGemini(tools, adapters.Deferred()); return err }, "does not apply to Gemini"},
		{"namespace twice", func() error {
			_, err := adapters.ToOpenAIResponses(tools, adapters.Namespace("a", "", "list_events"), adapters.Namespace("b", "", "list_events"))
			return err
		}, `tool "list_events" is already in namespace "a"`},
		{"namespace empty", func() error { _, err := adapters.ToOpenAIResponses(tools, adapters.Namespace("a", "")); return err }, "has no tools"},
		{"namespace bad name", func() error {
			_, err := adapters.ToOpenAIResponses(tools, adapters.Namespace("a b", "", "list_events"))
			return err
		}, "a b"},
		{"search name taken", func() error {
			_, err := adapters.ToAnthropic(append(tools[:1:1], clash), adapters.Deferred())
			return err
		}, `a tool is named "search_tools"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.err()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %v, want one containing %q", err, c.want)
			}
		})
	}
	// A search tool of the provider's own (server mode) has no name
	// clash: a tool may be named search_tools then.
	if _, err := adapters.ToAnthropic(append(tools[:1:1], clash), adapters.Deferred(), adapters.ToolSearch(adapters.SearchServer)); err != nil {
		t.Errorf("server search with a tool named search_tools: %v", err)
	}
}

// manyTools makes n tools with distinct names and descriptions.
func manyTools(t testing.TB, n int) []define.Tool {
	verbs := []string{"get", "list", "create", "delete", "update", "archive", "export", "sync"}
	nouns := []string{"invoice", "customer", "ticket", "repository", "order", "shipment", "report", "user", "project", "alert"}
	out := make([]define.Tool, n)
	for i := range n {
		v, o := verbs[i%len(verbs)], nouns[(i/len(verbs))%len(nouns)]
		name := fmt.Sprintf("%s_%s_%d", v, o, i)
		desc := fmt.Sprintf("%s a %s of workspace %d.", strings.ToUpper(v[:1])+v[1:], o, i)
		schema := fmt.Sprintf(`{"type":"object","properties":{"%s_id":{"type":"string","description":"The %s's id."},"workspace":{"type":"integer"}},"required":["%s_id"]}`, o, o, o)
		tool, err := define.NewTool(name, json.RawMessage(schema), dummy, define.WithDescription(desc))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = tool
	}
	return out
}

// TestDeferredOverLimit: a deferred Responses call may carry more tools
// than the 128 a call without deferral may.
func TestDeferredOverLimit(t *testing.T) {
	tools := manyTools(t, 1000)
	if _, err := adapters.ToOpenAIResponses(tools); !errors.Is(err, adapters.ErrLimit) {
		t.Fatalf("1000 tools without deferral: error %v, want ErrLimit", err)
	}
	rs, err := adapters.ToOpenAIResponses(tools, adapters.Deferred(tools[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1001 || rs[0].DeferLoading || !rs[1].DeferLoading || rs[1000].Type != "tool_search" {
		t.Errorf("got %d entries, first deferred %v, second deferred %v, last %q", len(rs), rs[0].DeferLoading, rs[1].DeferLoading, rs[1000].Type)
	}
}

// TestSearcherAnswers answers searches for both providers from the small
// toolkit: the found tools are the ones the words name, by reference
// (Anthropic) or by definition (Responses).
func TestSearcherAnswers(t *testing.T) {
	tools := deferTools(t)
	s := adapters.NewSearcher(tools, 2)
	turn := adapters.Turn{Calls: []adapters.Call{
		{ID: "toolu_1", Name: adapters.SearchToolName, Args: json.RawMessage(`{"query":"calendar event"}`)},
		{ID: "toolu_2", Name: "get_time", Args: json.RawMessage(`{"zone":"UTC"}`)},
		{ID: "toolu_3", Name: adapters.SearchToolName, Args: json.RawMessage(`{"query":"zzz"}`)},
	}}
	searches, calls := s.Split(turn)
	if len(searches) != 2 || len(calls) != 1 || calls[0].ID != "toolu_2" || searches[0].Query != "calendar event" {
		t.Fatalf("Split = %+v, %+v", searches, calls)
	}
	entries, err := s.Answer(adapters.ForAnthropic(), searches)
	if err != nil {
		t.Fatal(err)
	}
	golden.JSON(t, filepath.Join("..", "testdata", "golden", "deferred", "anthropic_answer.json"), entries)
	msg := entries[0].(adapters.AnthropicSearchResultMessage)
	var names []string
	for _, b := range msg.Content[0].Content {
		names = append(names, b.Type+":"+b.ToolName)
	}
	if got := strings.Join(names, " "); got != "tool_reference:create_event tool_reference:list_events" {
		t.Errorf("first search found %s", got)
	}
	if b := msg.Content[1].Content; len(b) != 1 || b[0].Type != "text" || !strings.Contains(b[0].Text, `"zzz"`) {
		t.Errorf("a search that finds nothing: %+v", b)
	}

	out, err := s.Answer(adapters.ForOpenAIResponses(), []adapters.Search{{ID: "call_1", Query: "weather", Names: []string{"get_time", "no_such_tool"}}}, adapters.Strict(true))
	if err != nil {
		t.Fatal(err)
	}
	golden.JSON(t, filepath.Join("..", "testdata", "golden", "deferred", "responses_answer.json"), out)
	item := out[0].(adapters.OpenAIResponsesToolSearchOutput)
	if item.CallID != "call_1" || item.Execution != "client" || len(item.Tools) != 2 ||
		item.Tools[0].Name != "get_time" || item.Tools[1].Name != "get_weather" || !item.Tools[1].Strict || item.Tools[1].DeferLoading {
		t.Errorf("tool_search_output = %+v", item)
	}

	if _, err := s.Answer(adapters.ForGemini(), searches); err == nil || !strings.Contains(err.Error(), "Gemini has no deferred loading") {
		t.Errorf("Gemini answer: %v", err)
	}
	if _, err := s.Answer(adapters.ForAnthropic(), []adapters.Search{{Query: "x"}}); err == nil || !strings.Contains(err.Error(), "searches[0] has no id") {
		t.Errorf("search without id: %v", err)
	}
	if _, err := adapters.OpenAIResponsesSearchOutputs(s, searches, adapters.Deferred()); err == nil {
		t.Error("OpenAIResponsesSearchOutputs took Deferred")
	}
}

// TestParseSearches reads the provider's search items: server-run ones
// make no call and no search and replay whole; client-run ones are
// searches.
func TestParseSearches(t *testing.T) {
	anthropic := `{"id":"msg_1","type":"message","role":"assistant","content":[
		{"type":"server_tool_use","id":"srvtoolu_1","name":"tool_search_tool_regex","input":{"query":"weather"}},
		{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_reference","tool_name":"get_weather"}]}},
		{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}],
		"stop_reason":"tool_use"}`
	turn, err := adapters.ParseAnthropicReply([]byte(anthropic))
	if err != nil {
		t.Fatal(err)
	}
	if len(turn.Calls) != 1 || turn.Calls[0].Name != "get_weather" || turn.Searches != nil {
		t.Errorf("Anthropic server search: calls %+v, searches %+v", turn.Calls, turn.Searches)
	}
	replay, _ := json.Marshal(turn.Replay[0])
	if !bytes.Contains(replay, []byte(`"tool_references":[{"type":"tool_reference","tool_name":"get_weather"}]`)) {
		t.Errorf("replay lost the search result: %s", replay)
	}

	cases := []struct {
		name, reply string
		want        []adapters.Search
		err         string
	}{
		{"client query", `[{"type":"tool_search_call","id":"ts1","call_id":"c1","execution":"client","status":"completed","arguments":{"query":"weather"}}]`,
			[]adapters.Search{{ID: "c1", Query: "weather"}}, ""},
		{"client paths in a string", `[{"type":"tool_search_call","id":"ts1","call_id":"c1","execution":"client","arguments":"{\"paths\":[\"crm\",\"get_weather\"]}"}]`,
			[]adapters.Search{{ID: "c1", Names: []string{"crm", "get_weather"}}}, ""},
		{"server", `[{"type":"tool_search_call","id":"ts1","execution":"server","status":"completed","arguments":{"query":"x"}},{"type":"tool_search_output","id":"to1","execution":"server","tools":[]}]`,
			nil, ""},
		{"client without call_id", `[{"type":"tool_search_call","id":"ts1","execution":"client","arguments":{}}]`, nil, "without call_id"},
		{"client bad query", `[{"type":"tool_search_call","id":"ts1","call_id":"c1","execution":"client","arguments":{"query":3}}]`, nil, "/0/arguments"},
		{"client call_id twice", `[{"type":"tool_search_call","call_id":"c1","execution":"client","arguments":{}},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"}]`, nil, "c1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			turn, err := adapters.ParseOpenAIResponsesReply([]byte(c.reply))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error = %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(turn.Searches)
			want, _ := json.Marshal(c.want)
			if !bytes.Equal(got, want) || turn.Calls != nil || len(turn.Replay) != strings.Count(c.reply, `"type":"tool_search_`) {
				t.Errorf("searches %s, want %s; calls %v; %d replayed", got, want, turn.Calls, len(turn.Replay))
			}
		})
	}
}

// TestInputExamples renders a tool's root examples as Anthropic's
// input_examples, the same through json.Marshal and AppendJSON.
func TestInputExamples(t *testing.T) {
	tool, err := define.NewTool("find", json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer"}}}`), dummy,
		define.WithExamples(map[string]any{"q": "<b>rust</b> & go", "n": json.Number("12345678901234567890")}, map[string]any{}))
	if err != nil {
		t.Fatal(err)
	}
	out, err := adapters.ToAnthropic([]define.Tool{tool})
	if err != nil {
		t.Fatal(err)
	}
	if len(out[0].InputExamples) != 2 || string(out[0].InputExamples[0]) != `{"n":12345678901234567890,"q":"<b>rust</b> & go"}` || string(out[0].InputExamples[1]) != `{}` {
		t.Errorf("input_examples = %s", out[0].InputExamples)
	}
	golden.JSON(t, filepath.Join("..", "testdata", "golden", "deferred", "anthropic_input_examples.json"), out)
	m, _ := json.Marshal(out)
	a, err := adapters.AppendJSON(nil, out)
	if err != nil || !bytes.Equal(m, a) {
		t.Errorf("AppendJSON (%v) and json.Marshal differ:\n%s\n%s", err, a, m)
	}
	// Without examples there is no input_examples member.
	plain, _ := adapters.ToAnthropic(deferTools(t)[:1])
	if m, _ := json.Marshal(plain); bytes.Contains(m, []byte("input_examples")) {
		t.Errorf("input_examples without examples: %s", m)
	}
}
