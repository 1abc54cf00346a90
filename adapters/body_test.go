package adapters_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// bodyReplies is a reply with one call of get_weather per provider, in
// its shape, for a history with a replay in it.
var bodyReplies = map[string]string{
	"openai":           `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},"finish_reason":"tool_calls"}]}`,
	"groq":             `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},"finish_reason":"tool_calls"}]}`,
	"mistral":          `{"choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"id":"abc123XYZ","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},"finish_reason":"tool_calls"}]}`,
	"ollama":           `{"model":"llama3.1","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":true}`,
	"openai-responses": `{"object":"response","status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Paris\"}","status":"completed"}]}`,
	"anthropic":        `{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}],"stop_reason":"tool_use"}`,
	"gemini":           `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}}}]},"finishReason":"STOP"}]}`,
	"bedrock":          `{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"tu_1","name":"get_weather","input":{"city":"Paris"}}}]}},"stopReason":"tool_use"}`,
}

// bodyProviders is every provider with a model request, by the name of
// its golden file.
func bodyProviders() map[string]adapters.Provider {
	return map[string]adapters.Provider{
		"openai":           adapters.ForOpenAI(),
		"groq":             adapters.ForOpenAI(adapters.Server(adapters.Groq)),
		"mistral":          adapters.ForMistral(),
		"ollama":           adapters.ForOllama(),
		"openai-responses": adapters.ForOpenAIResponses(),
		"anthropic":        adapters.ForAnthropic(),
		"gemini":           adapters.ForGemini(),
		"bedrock":          adapters.ForBedrock(),
	}
}

type bodyCityArgs struct {
	City string `json:"city" description:"The city"`
}

func bodyTools(t testing.TB) []define.Tool {
	t.Helper()
	w, err := define.DefineTool(func(_ context.Context, a bodyCityArgs) (string, error) { return a.City, nil }, define.WithName("get_weather"), define.WithDescription("The weather in a city."))
	if err != nil {
		t.Fatal(err)
	}
	tm, err := define.DefineTool(func(_ context.Context, a bodyCityArgs) (string, error) { return a.City, nil }, define.WithName("get_time"), define.WithDescription("The time in a city."))
	if err != nil {
		t.Fatal(err)
	}
	return []define.Tool{w, tm}
}

// bodyHistory is a user's prompt, the model's call (its replay) and its
// result, and the user's next prompt.
func bodyHistory(t testing.TB, name string, p adapters.Provider) [][]any {
	t.Helper()
	turn, err := p.Parse([]byte(bodyReplies[name]))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(turn.Calls) != 1 {
		t.Fatalf("%s: %d calls", name, len(turn.Calls))
	}
	results, err := p.Results(turn.Calls, []define.Result{{Output: `{"temp_c":21}`}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return [][]any{p.Prompt("Weather in Paris?"), turn.Replay, results, p.Prompt("And the time?")}
}

func ptr[T any](v T) *T { return &v }

// bodyRequest is a request with every member each provider takes.
func bodyRequest(t testing.TB, name string) adapters.Request {
	r := adapters.Request{
		Model:       "model-x",
		System:      "You are terse.",
		Tools:       bodyTools(t),
		Choice:      &adapters.Choice{Mode: adapters.ChoiceRequired, Allowed: []string{"get_time"}},
		MaxTokens:   1024,
		Temperature: ptr(0.25),
		Stream:      true,
		Extra:       map[string]json.RawMessage{"top_p": json.RawMessage(" 0.9 ")},
	}
	switch name {
	case "openai", "groq", "mistral", "openai-responses", "anthropic":
		r.ParallelToolCalls = ptr(false)
	}
	switch name {
	case "anthropic", "bedrock":
		r.CacheTools, r.CacheSystem = true, true
	}
	switch name { // a member each provider takes that Request does not model
	case "ollama":
		r.Choice = nil // Ollama has no tool choice
		r.Extra = map[string]json.RawMessage{"keep_alive": json.RawMessage(`"5m"`)}
	case "gemini":
		r.Extra = map[string]json.RawMessage{"safetySettings": json.RawMessage(`[ {"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"} ]`)}
	case "bedrock":
		r.Extra = map[string]json.RawMessage{"additionalModelRequestFields": json.RawMessage(`{"top_k": 5}`)}
	}
	return r
}

// TestBodyGolden builds each provider's whole body for the same run, in
// steps, and checks it against its golden file
// (testdata/golden/body/<provider>.json, indented there; the body is
// compact): the members of its Request, and the history as
// json.Marshal writes its entries.
func TestBodyGolden(t *testing.T) {
	update := os.Getenv("TOOLNEXUS_UPDATE_GOLDEN") == "1"
	dir := filepath.Join("..", "testdata", "golden", "body")
	for name, p := range bodyProviders() {
		t.Run(name, func(t *testing.T) {
			b, err := adapters.NewBody(p, bodyRequest(t, name))
			if err != nil {
				t.Fatal(err)
			}
			var all []any
			for _, step := range bodyHistory(t, name, p) {
				if err := b.Append(step...); err != nil {
					t.Fatal(err)
				}
				all = append(all, step...)
			}
			got := b.Bytes()
			if !json.Valid(got) {
				t.Fatalf("not JSON: %s", got)
			}
			var indented bytes.Buffer
			if err := json.Indent(&indented, got, "", "  "); err != nil {
				t.Fatal(err)
			}
			indented.WriteByte('\n')
			path := filepath.Join(dir, name+".json")
			if update {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, indented.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with TOOLNEXUS_UPDATE_GOLDEN=1 to write it)", err)
			}
			if !bytes.Equal(indented.Bytes(), want) {
				t.Errorf("the body is not %s:\n%s", path, indented.Bytes())
			}
			// The history member is json.Marshal of the entries (after the
			// system message, for the providers that send one).
			var members map[string]json.RawMessage
			if err := json.Unmarshal(got, &members); err != nil {
				t.Fatal(err)
			}
			key := map[string]string{"openai-responses": "input", "gemini": "contents"}[name]
			if key == "" {
				key = "messages"
			}
			var hist []json.RawMessage
			if err := json.Unmarshal(members[key], &hist); err != nil {
				t.Fatal(err)
			}
			if len(hist) > len(all) {
				hist = hist[len(hist)-len(all):]
			}
			wantHist, err := json.Marshal(all)
			if err != nil {
				t.Fatal(err)
			}
			gotHist, _ := json.Marshal(hist)
			if !bytes.Equal(gotHist, wantHist) {
				t.Errorf("history:\n got %s\nwant %s", gotHist, wantHist)
			}
			if b.Len() != len(all)+map[bool]int{true: 1}[strings.Contains(string(members[key]), `"role":"system"`)] {
				t.Errorf("Len() = %d for %d entries", b.Len(), len(all))
			}
		})
	}
}

// TestBodySteps checks that a body grown step by step is the body built
// at once from the same entries, and that SetRequest keeps the history
// while the head changes (a system prompt added and removed, the tool
// choice changed).
func TestBodySteps(t *testing.T) {
	for name, p := range bodyProviders() {
		t.Run(name, func(t *testing.T) {
			r := bodyRequest(t, name)
			steps := bodyHistory(t, name, p)
			var all []any
			stepwise, err := adapters.NewBody(p, r)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range steps {
				if err := stepwise.Append(s...); err != nil {
					t.Fatal(err)
				}
				if err := stepwise.Append(); err != nil { // nothing: no change
					t.Fatal(err)
				}
				all = append(all, s...)
			}
			once, err := adapters.NewBody(p, r)
			if err != nil {
				t.Fatal(err)
			}
			if err := once.Append(all...); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(stepwise.Bytes(), once.Bytes()) {
				t.Fatalf("stepwise:\n%s\nat once:\n%s", stepwise.Bytes(), once.Bytes())
			}
			noSys := r
			noSys.System, noSys.CacheSystem = "", false
			noSys.Choice = nil
			fresh, err := adapters.NewBody(p, noSys)
			if err != nil {
				t.Fatal(err)
			}
			if err := fresh.Append(all...); err != nil {
				t.Fatal(err)
			}
			for i, req := range []adapters.Request{noSys, r, noSys} {
				if err := stepwise.SetRequest(req); err != nil {
					t.Fatal(err)
				}
				want := once.Bytes()
				if i != 1 {
					want = fresh.Bytes()
				}
				if got := stepwise.Bytes(); !bytes.Equal(got, want) {
					t.Fatalf("after SetRequest %d:\n got %s\nwant %s", i, got, want)
				}
			}
			if err := stepwise.SetRequest(adapters.Request{MaxTokens: -1}); err == nil {
				t.Fatal("SetRequest took a negative MaxTokens")
			}
			if got := stepwise.Bytes(); !bytes.Equal(got, fresh.Bytes()) {
				t.Fatalf("a failed SetRequest changed the body:\n%s", got)
			}
		})
	}
}

// TestBodyEmpty checks a body with no history and nothing but what the
// provider requires: still a JSON object, with an empty history.
func TestBodyEmpty(t *testing.T) {
	for name, p := range bodyProviders() {
		b, err := adapters.NewBody(p, adapters.Request{Model: "m", MaxTokens: 8})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var v map[string]json.RawMessage
		if err := json.Unmarshal(b.Bytes(), &v); err != nil {
			t.Fatalf("%s: %s: %v", name, b.Bytes(), err)
		}
		if _, ok := v["tools"]; ok {
			t.Errorf("%s: tools member with no tools: %s", name, b.Bytes())
		}
	}
}

// TestBodyAnswer checks the typed answer's member in each body, and the
// forced tool call of AnswerTool: the answer's tool among the tools and
// the tool choice that forces it.
func TestBodyAnswer(t *testing.T) {
	fields := map[string]string{
		"openai": "response_format", "groq": "response_format", "mistral": "response_format",
		"ollama": "format", "openai-responses": "text", "anthropic": "output_config",
		"gemini": "generationConfig", "bedrock": "outputConfig",
	}
	for name, p := range bodyProviders() {
		b, err := adapters.NewBody(p, adapters.Request{Model: "m", MaxTokens: 64, Temperature: ptr(0.0), Answer: tripAnswer})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var v map[string]json.RawMessage
		if err := json.Unmarshal(b.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ar, err := adapters.ResponseFormat(p, tripAnswer)
		if err != nil {
			t.Fatal(err)
		}
		field := fields[name]
		if ar.Field != field {
			t.Fatalf("%s: ResponseFormat's field %q, want %q", name, ar.Field, field)
		}
		if name == "gemini" {
			// the format's members, then the generation settings
			want := string(ar.Value[:len(ar.Value)-1]) + `,"maxOutputTokens":64,"temperature":0}`
			if string(v[field]) != want {
				t.Errorf("gemini: generationConfig %s, want %s", v[field], want)
			}
			continue
		}
		if !bytes.Equal(v[field], ar.Value) {
			t.Errorf("%s: %s is %s, want %s", name, field, v[field], ar.Value)
		}
	}
	for _, name := range []string{"openai", "anthropic", "gemini", "bedrock", "openai-responses", "mistral"} {
		p := providerNamed(t, name, adapters.AnswerTool())
		r := adapters.Request{Model: "m", MaxTokens: 64, Tools: bodyTools(t), Answer: tripAnswer}
		b, err := adapters.NewBody(p, r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ar, err := adapters.ResponseFormat(p, tripAnswer)
		if err != nil {
			t.Fatal(err)
		}
		body := string(b.Bytes())
		if !strings.Contains(body, `"`+ar.Field+`":`+string(ar.Value)) {
			t.Errorf("%s: no forced choice %s: %s in %s", name, ar.Field, ar.Value, body)
		}
		if !strings.Contains(body, `"`+ar.Tool.Name()+`"`) || !strings.Contains(body, `"get_time"`) {
			t.Errorf("%s: the answer's tool or a tool is missing: %s", name, body)
		}
		r.Choice = &adapters.Choice{}
		if _, err := adapters.NewBody(p, r); err == nil || !strings.Contains(err.Error(), "Request.Choice") {
			t.Errorf("%s: a Choice beside a forced answer tool: %v", name, err)
		}
	}
}

// TestBodyErrors checks what NewBody refuses, each error naming the field.
func TestBodyErrors(t *testing.T) {
	tools := bodyTools(t)
	cases := []struct {
		p    adapters.Provider
		r    adapters.Request
		want string
	}{
		{adapters.ForMCP(), adapters.Request{}, "MCP has no model request"},
		{nil, adapters.Request{}, "no provider"},
		{adapters.ForOpenAI(), adapters.Request{MaxTokens: -1}, "Request.MaxTokens: -1 is negative"},
		{adapters.ForOpenAI(), adapters.Request{Temperature: ptr(math.NaN())}, "Request.Temperature"},
		{adapters.ForOpenAI(), adapters.Request{Temperature: ptr(math.Inf(1))}, "Request.Temperature"},
		{adapters.ForAnthropic(), adapters.Request{Model: "m"}, "Request.MaxTokens: Anthropic requires max_tokens"},
		{adapters.ForOpenAI(), adapters.Request{Tools: tools, CacheTools: true}, "OpenAI: Request.CacheTools, CacheSystem: no prompt-cache breakpoints"},
		{adapters.ForGemini(), adapters.Request{System: "s", CacheSystem: true}, "Gemini: Request.CacheTools, CacheSystem"},
		{adapters.ForAnthropic(), adapters.Request{MaxTokens: 1, CacheTools: true}, "Request.CacheTools: no tools"},
		{adapters.ForBedrock(), adapters.Request{CacheSystem: true}, "Request.CacheSystem: no system prompt"},
		{adapters.ForGemini(), adapters.Request{ParallelToolCalls: ptr(false)}, "Gemini: Request.ParallelToolCalls: no switch"},
		{adapters.ForBedrock(), adapters.Request{ParallelToolCalls: ptr(true)}, "Bedrock: Request.ParallelToolCalls: no switch"},
		{adapters.ForOllama(), adapters.Request{ParallelToolCalls: ptr(true)}, "Ollama: Request.ParallelToolCalls: no switch"},
		{adapters.ForOpenAI(), adapters.Request{Model: "m", Extra: map[string]json.RawMessage{"model": json.RawMessage(`"n"`)}}, `Request.Extra["model"]: the body writes "model" itself`},
		{adapters.ForOpenAI(), adapters.Request{Extra: map[string]json.RawMessage{"messages": json.RawMessage(`[]`)}}, `Request.Extra["messages"]: the body writes "messages" itself`},
		{adapters.ForGemini(), adapters.Request{MaxTokens: 5, Extra: map[string]json.RawMessage{"generationConfig": json.RawMessage(`{}`)}}, `Request.Extra["generationConfig"]`},
		{adapters.ForOpenAI(), adapters.Request{Extra: map[string]json.RawMessage{"top_p": json.RawMessage(`0.9,"x":1`)}}, `Request.Extra["top_p"]: not valid JSON`},
		{adapters.ForOpenAI(), adapters.Request{Extra: map[string]json.RawMessage{"top_p": nil}}, `Request.Extra["top_p"]: not valid JSON`},
		{adapters.ForAnthropic(), adapters.Request{MaxTokens: 1, Extra: map[string]json.RawMessage{"\x80": json.RawMessage(`{}`)}}, `Request.Extra["\x80"]: the key is not valid UTF-8`},
		{adapters.ForAnthropic(), adapters.Request{MaxTokens: 1, Tools: tools, Choice: &adapters.Choice{Allowed: []string{"get_time", "get_weather"}}}, "Request.Choice: adapters: ToolChoice: Anthropic: no way to allow only 2"},
		{adapters.ForOpenAI(), adapters.Request{Choice: &adapters.Choice{Allowed: []string{"nope"}}, Tools: tools}, `Request.Choice: adapters: ToolChoice: allowed tool "nope"`},
		{adapters.ForOllama(), adapters.Request{Choice: &adapters.Choice{}, Tools: tools}, "Request.Choice: adapters: ToolChoice: Ollama has no tool choice"},
		{adapters.ForMCP(), adapters.Request{Answer: tripAnswer}, "MCP"},
	}
	for i, c := range cases {
		_, err := adapters.NewBody(c.p, c.r)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d: error %v, want one containing %q", i, err, c.want)
		}
	}
	// The error leaves nothing behind: an Append that fails keeps the body.
	b, err := adapters.NewBody(adapters.ForOpenAI(), adapters.Request{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Append(adapters.ForOpenAI().Prompt("hi")...); err != nil {
		t.Fatal(err)
	}
	before := b.Bytes()
	if err := b.Append(map[string]any{"bad": math.NaN()}); err == nil || !strings.Contains(err.Error(), "Body.Append") {
		t.Fatalf("Append of an unencodable entry: %v", err)
	}
	if got := b.Bytes(); !bytes.Equal(got, before) || b.Len() != 1 {
		t.Fatalf("a failed Append changed the body: %s", got)
	}
}

// TestBodyStepCost checks that a step's Append costs its own entries, not
// the history's: the same allocations, and the same bytes added, after 10
// entries and after 1000; and no allocation at all.
func TestBodyStepCost(t *testing.T) {
	for name, p := range bodyProviders() {
		steps := bodyHistory(t, name, p)
		step := append(append([]any(nil), steps[1]...), steps[2]...)
		var allocs []float64
		var added []int
		for _, n := range []int{10, 1000} {
			body, err := adapters.NewBody(p, bodyRequest(t, name))
			if err != nil {
				t.Fatal(err)
			}
			for body.Len() < n {
				for _, s := range steps {
					if err := body.Append(s...); err != nil {
						t.Fatal(err)
					}
				}
			}
			mn, ms := adapters.BodyMark(body)
			before := len(body.Bytes())
			if err := body.Append(step...); err != nil {
				t.Fatal(err)
			}
			added = append(added, len(body.Bytes())-before)
			adapters.BodyRewind(body, mn, ms)
			allocs = append(allocs, testing.AllocsPerRun(20, func() {
				if err := body.Append(step...); err != nil {
					t.Fatal(err)
				}
				adapters.BodyRewind(body, mn, ms)
			}))
		}
		if raceEnabled { // allocation counts differ under -race
			allocs[1] = allocs[0]
		}
		if allocs[0] != allocs[1] || added[0] != added[1] {
			t.Errorf("%s: a step after 10 and after 1000 entries: %v allocations, %v bytes added", name, allocs, added)
		}
		// The step's entries (a replay, results) are written by hand,
		// straight into the body: none goes through encoding/json (under
		// -race, sync.Pool drops the checkers of raw values at random).
		if !raceEnabled && allocs[0] != 0 {
			t.Errorf("%s: a step allocates %v times, want 0", name, allocs[0])
		}
	}
}
