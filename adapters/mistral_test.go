package adapters_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

func FuzzMistralStream(f *testing.F) { fuzzStream(f, adapters.ForMistral()) }

var mistralID = regexp.MustCompile(`^[a-zA-Z0-9]{9}$`)

// TestMistralIDs: every id Mistral gets back is nine characters of
// [a-zA-Z0-9]: its own unchanged, another provider's (or one made by this
// package) mapped the same way in the replay, the results and a stream's
// calls, and two different ids never to one.
func TestMistralIDs(t *testing.T) {
	reply := `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[` +
		`{"id":"call_93562515","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}},` +
		`{"id":"Qm4Ts8vWx","type":"function","function":{"name":"get_time","arguments":"{}"}},` +
		`{"id":"toolu_01A09q90qw90lq917835lq9","type":"function","function":{"name":"get_time","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`
	turn, err := adapters.ParseMistralReply([]byte(reply))
	if err != nil {
		t.Fatal(err)
	}
	replay := turn.Replay[0].(adapters.OpenAIAssistantMessage)
	results, err := adapters.MistralResults(turn.Calls, resultFixtures)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, c := range turn.Calls {
		if !mistralID.MatchString(c.ID) || seen[c.ID] {
			t.Errorf("call %d: id %q is not nine [a-zA-Z0-9], or repeats", i, c.ID)
		}
		seen[c.ID] = true
		if replay.ToolCalls[i].ID != c.ID || results[i].ToolCallID != c.ID {
			t.Errorf("call %d: id %q, replay %q, result %q: want one id", i, c.ID, replay.ToolCalls[i].ID, results[i].ToolCallID)
		}
		if results[i].Name != c.Name {
			t.Errorf("call %d: result name %q, want %q", i, results[i].Name, c.Name)
		}
	}
	if turn.Calls[1].ID != "Qm4Ts8vWx" {
		t.Errorf("Mistral's own id became %q", turn.Calls[1].ID)
	}
	// The same foreign id maps the same way every time, in results of calls
	// parsed by another provider too.
	again, err := adapters.MistralResults([]adapters.Call{{ID: "call_93562515", Name: "get_weather"}}, resultFixtures[:1])
	if err != nil || again[0].ToolCallID != turn.Calls[0].ID {
		t.Errorf("MistralResults of the foreign id = %+v, %v; want %q", again, err, turn.Calls[0].ID)
	}
	// A stream hands out the ids of its replay.
	body := "data: " + `{"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_93562515","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
	var handed []adapters.Call
	s, err := adapters.NewStream(adapters.ForMistral(), adapters.StreamHooks{Call: func(c adapters.Call) { handed = append(handed, c) }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	st, err := s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(handed) != 1 || handed[0].ID != turn.Calls[0].ID || st.Calls[0].ID != handed[0].ID {
		t.Errorf("stream handed out %+v, turn %+v; want the id %q", handed, st.Calls, turn.Calls[0].ID)
	}
	// Ids that map alike in one reply are refused, as a repeated id is.
	dup := strings.Replace(reply, `"Qm4Ts8vWx"`, `"call_93562515"`, 1)
	if _, err := adapters.ParseMistralReply([]byte(dup)); !errors.Is(err, adapters.ErrReplyShape) {
		t.Errorf("a repeated foreign id: err = %v, want ErrReplyShape", err)
	}
}

// TestMistralRequestShape: tool_choice says "any" where OpenAI says
// "required", tool messages name the tool, and schemas carry no
// references.
func TestMistralRequestShape(t *testing.T) {
	tools := exampleToolkit().Tools()
	field, value, err := adapters.ToolChoice(adapters.ForMistral(), tools, adapters.Choice{Mode: adapters.ChoiceRequired})
	if err != nil || field != "tool_choice" || string(value) != `"any"` {
		t.Errorf("ToolChoice(required) = %s %s, %v; want tool_choice \"any\"", field, value, err)
	}
	_, value, err = adapters.ToolChoice(adapters.ForMistral(), tools, adapters.Choice{Mode: adapters.ChoiceRequired, Allowed: []string{tools[0].Name()}})
	if want := `{"type":"function","function":{"name":"` + tools[0].Name() + `"}}`; err != nil || string(value) != want {
		t.Errorf("ToolChoice(one tool) = %s, %v; want %s", value, err, want)
	}
	if _, _, err := adapters.ToolChoice(adapters.ForMistral(), tools, adapters.Choice{Allowed: []string{tools[0].Name(), tools[1].Name()}}); err == nil {
		t.Error("ToolChoice of a subset of two tools: no error")
	}
	out, err := adapters.MistralResults([]adapters.Call{{ID: "A1b2C3d4E", Name: "get_weather"}}, []define.Result{{Output: "boom", IsError: true}})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"tool","tool_call_id":"A1b2C3d4E","name":"get_weather","content":"error: boom"}]`
	if diff := cmp.Diff(want, string(mustMarshal(t, out))); diff != "" {
		t.Errorf("MistralResults (-want +got):\n%s", diff)
	}
	if _, err := adapters.ToMistral(tools, adapters.Strict(true)); !errors.Is(err, adapters.ErrOption) {
		t.Errorf("ToMistral(Strict(true)): err = %v, want ErrOption", err)
	}
}

func FuzzParseMistral(f *testing.F) { fuzzParsers(f, "mistral") }
