package adapters_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// profiles are the server profiles of the package, and one a user declares.
var profiles = []adapters.ServerProfile{
	adapters.OpenAI, adapters.Groq, adapters.XAI, adapters.DeepSeek, adapters.OpenRouter,
	adapters.VLLM, adapters.LlamaCpp, adapters.Qwen, adapters.Snowflake, adapters.Azure,
	{Name: "myserver", Display: "My server", NoArguments: true, Placeholders: true},
}

// deviation is a reply with one deviation from OpenAI's shape, modelled on
// what the servers send, and whether a profile declares it.
type deviation struct {
	name     string
	reply    string
	declared func(adapters.ServerProfile) bool
}

func chatReply(message, finish string) string {
	return `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":` + message + `,"finish_reason":` + finish + `}]}`
}

var deviations = []deviation{
	{"no id", chatReply(`{"role":"assistant","content":null,"tool_calls":[{"id":"","type":"function","function":{"name":"get_time","arguments":"{}"}}]}`, `"tool_calls"`),
		func(p adapters.ServerProfile) bool { return p.MadeIDs }},
	{"arguments object", chatReply(`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_time","arguments":{"zone":"UTC"}}}]}`, `"tool_calls"`),
		func(p adapters.ServerProfile) bool { return p.ArgumentsObject }},
	{"no arguments", chatReply(`{"role":"assistant","content":"Looking.","tool_calls":[{"id":"toolu_vrtx_01","index":0,"type":"function","function":{"name":"get_time"}}]}`, `"tool_calls"`),
		func(p adapters.ServerProfile) bool { return p.NoArguments }},
	{"placeholders", chatReply(`{"annotations":null,"audio":{"data":"","expires_at":0,"id":"","transcript":""},"content":"","function_call":{"arguments":"","name":""},"refusal":"","role":"assistant","tool_calls":[{"custom":{"input":"","name":""},"function":{"arguments":"{\"zone\":\"UTC\"}","name":"get_time"},"id":"toolu_bdrk_01","type":"function"}]}`, `""`),
		func(p adapters.ServerProfile) bool { return p.Placeholders }},
}

// TestServerProfilesDeviations: each profile accepts exactly the
// deviations it declares; the others are errors naming the profile.
func TestServerProfilesDeviations(t *testing.T) {
	for _, prof := range profiles {
		p := adapters.ForOpenAI(adapters.Server(prof))
		want := prof.Name
		if want != p.Name() {
			t.Errorf("ForOpenAI(Server(%s)).Name() = %q", prof.Display, p.Name())
		}
		for _, d := range deviations {
			turn, err := p.Parse([]byte(d.reply))
			if d.declared(prof) {
				if err != nil || len(turn.Calls) != 1 {
					t.Errorf("%s, %s: %d calls, %v; want one call", prof.Display, d.name, len(turn.Calls), err)
				}
				continue
			}
			var re *adapters.ReplyError
			if !errors.As(err, &re) || re.Provider != want {
				t.Errorf("%s, %s: err = %v, want a ReplyError of %s", prof.Display, d.name, err, want)
			}
			// A stream that sends the same is refused too (the assembled
			// reply is read by the profile's reader).
			if d.name != "arguments object" && d.name != "no arguments" {
				if _, err := p.ParseStream(strings.NewReader(streamOf(d.reply))); err == nil {
					t.Errorf("%s, %s streamed: no error", prof.Display, d.name)
				}
			}
		}
	}
}

// streamOf is a reply as one chunk of a stream: its message as the delta.
func streamOf(reply string) string {
	chunk := strings.Replace(strings.Replace(reply, `"message":`, `"delta":`, 1), `"chat.completion"`, `"chat.completion.chunk"`, 1)
	return "data: " + chunk + "\n\ndata: [DONE]\n\n"
}

// TestSnowflakePlaceholders: the stop reason is told from the message and
// the placeholders stay out of the replay, in a reply and in a stream.
func TestSnowflakePlaceholders(t *testing.T) {
	p := adapters.ForOpenAI(adapters.Server(adapters.Snowflake))
	reply := deviations[3].reply
	for _, read := range []struct {
		name  string
		parse func() (adapters.Turn, error)
	}{
		{"reply", func() (adapters.Turn, error) { return p.Parse([]byte(reply)) }},
		{"stream", func() (adapters.Turn, error) { return p.ParseStream(strings.NewReader(streamOf(reply))) }},
	} {
		turn, err := read.parse()
		if err != nil {
			t.Fatalf("%s: %v", read.name, err)
		}
		if turn.Stop != "tool_calls" {
			t.Errorf("%s: Stop = %q, want tool_calls (told from the calls)", read.name, turn.Stop)
		}
		got := string(mustMarshal(t, turn.Replay))
		want := `[{"role":"assistant","content":"","tool_calls":[{"id":"toolu_bdrk_01","type":"function","function":{"name":"get_time","arguments":"{\"zone\":\"UTC\"}"}}]}]`
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: replay (-want +got):\n%s", read.name, diff)
		}
	}
	// A value that is not a placeholder is kept, and a legacy function
	// call that is one still refused.
	kept := strings.Replace(reply, `"refusal":""`, `"refusal":"I can't."`, 1)
	turn, err := p.Parse([]byte(kept))
	if err != nil || !strings.Contains(string(mustMarshal(t, turn.Replay)), `"refusal":"I can't."`) {
		t.Errorf("a real refusal: %v, replay %s", err, mustMarshal(t, turn.Replay))
	}
	legacy := strings.Replace(reply, `"function_call":{"arguments":"","name":""}`, `"function_call":{"arguments":"{}","name":"get_time"}`, 1)
	if _, err := p.Parse([]byte(legacy)); !errors.Is(err, adapters.ErrReplyShape) {
		t.Errorf("a legacy function_call: err = %v, want ErrReplyShape", err)
	}
	text := chatReply(`{"role":"assistant","content":"Hi.","refusal":""}`, `""`)
	if turn, err := p.Parse([]byte(text)); err != nil || turn.Stop != "stop" {
		t.Errorf("text only: Stop = %q, %v; want stop", turn.Stop, err)
	}
}

// TestLlamaCppArgumentsObject: arguments sent as an object, whole in a
// reply and as a stream's piece.
func TestLlamaCppArgumentsObject(t *testing.T) {
	p := adapters.ForOpenAI(adapters.Server(adapters.LlamaCpp))
	body := "data: " + `{"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"Kq1","type":"function","function":{"name":"get_time","arguments":{"zone":"<UTC>"}}}]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
	turn, err := p.ParseStream(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(turn.Calls) != 1 || string(turn.Calls[0].Args) != `{"zone":"<UTC>"}` {
		t.Errorf("calls = %+v, want get_time {\"zone\":\"<UTC>\"}", turn.Calls)
	}
	if _, err := adapters.ForOpenAI(adapters.Server(adapters.Groq)).ParseStream(strings.NewReader(body)); !errors.Is(err, adapters.ErrArguments) {
		t.Errorf("Groq, the same stream: err = %v, want ErrArguments", err)
	}
}

// TestServerProfilesRendering: what a profile's requests take.
func TestServerProfilesRendering(t *testing.T) {
	tools := exampleToolkit().Tools()
	if _, err := adapters.ToOpenAI(tools, adapters.Server(adapters.XAI), adapters.Strict(true)); !errors.Is(err, adapters.ErrOption) {
		t.Errorf("xAI with Strict(true): err = %v, want ErrOption", err)
	}
	pinned := define.MustDefineTool(getTimePinned, define.WithName("pinned_time"), define.WithStrict(true))
	got, err := adapters.ToOpenAI([]define.Tool{pinned}, adapters.Server(adapters.XAI))
	if err != nil || got[0].Function.Strict {
		t.Errorf("xAI, a tool pinned strict: %+v, %v; want it sent without strict", got, err)
	}
	if got, err := adapters.ToOpenAI([]define.Tool{pinned}, adapters.Server(adapters.Groq)); err != nil || !got[0].Function.Strict {
		t.Errorf("Groq, a tool pinned strict: %+v, %v; want strict", got, err)
	}
	many := make([]define.Tool, 129)
	for i := range many {
		many[i] = define.MustDefineTool(getTimePinned, define.WithName("t"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+strings.Repeat("y", i/26)))
	}
	if _, err := adapters.ToOpenAI(many, adapters.Server(adapters.Azure)); !errors.Is(err, adapters.ErrLimit) {
		t.Errorf("Azure, 129 tools: err = %v, want ErrLimit", err)
	}
	if _, err := adapters.ToOpenAI(many, adapters.Server(adapters.VLLM)); err != nil {
		t.Errorf("vLLM, 129 tools: %v, want no limit", err)
	}
	if _, err := adapters.ToOpenAI(tools, adapters.Server(adapters.Groq), adapters.Server(adapters.XAI)); !errors.Is(err, adapters.ErrOption) {
		t.Errorf("two Server options: err = %v, want ErrOption", err)
	}
	if _, err := adapters.ForOpenAI(adapters.Server(adapters.Groq), adapters.Server(adapters.XAI)).Tools(tools); !errors.Is(err, adapters.ErrOption) {
		t.Errorf("ForOpenAI with two Server options, Tools: err = %v, want ErrOption", err)
	}
	if _, err := adapters.ToOpenAIResponses(tools, adapters.Server(adapters.Azure)); !errors.Is(err, adapters.ErrOption) {
		t.Errorf("ToOpenAIResponses(Server): err = %v, want ErrOption", err)
	}
	// A profile's tools are OpenAI's where it declares nothing else.
	a, _ := adapters.ToOpenAI(tools)
	b, err := adapters.ToOpenAI(tools, adapters.Server(adapters.DeepSeek))
	if err != nil || string(mustMarshal(t, a)) != string(mustMarshal(t, b)) {
		t.Errorf("DeepSeek's tools differ from OpenAI's (%v)", err)
	}
	// Errors name the server; OpenAI's description limit is OpenAI's and
	// Azure's.
	_, err = adapters.ToOpenAI(tools, adapters.Server(adapters.XAI), adapters.StrictWherePossible())
	if err == nil || !strings.Contains(err.Error(), "does not apply to xAI") {
		t.Errorf("xAI with StrictWherePossible: err = %v, want it to name xAI", err)
	}
	long := []define.Tool{define.MustDefineTool(getTimePinned, define.WithName("long"), define.WithDescription(strings.Repeat("d", 1025)))}
	for _, prof := range []adapters.ServerProfile{adapters.OpenAI, adapters.Azure, adapters.Groq} {
		_, err := adapters.ToOpenAI(long, adapters.Server(prof))
		if want := prof.MaxDescription > 0; errors.Is(err, adapters.ErrLimit) != want || want && !strings.Contains(err.Error(), prof.Display+" rejects") {
			t.Errorf("%s, a description of 1025 characters: err = %v, want ErrLimit: %v", prof.Display, err, want)
		}
	}
}

type timeArgs struct {
	Zone string `json:"zone"`
}

func getTimePinned(_ context.Context, a timeArgs) (string, error) { return "12:00 " + a.Zone, nil }

// FuzzServerProfiles feeds every profile's Parse and ParseStream the same
// bytes: none panics, an error is a *ReplyError with a sentinel, and a
// success gives calls with compact object arguments that the replay, read
// back by encoding/json, holds too.
func FuzzServerProfiles(f *testing.F) {
	for _, d := range deviations {
		f.Add([]byte(d.reply))
		f.Add([]byte(streamOf(d.reply)))
	}
	for _, r := range replyFixtures {
		if r.provider == "openai" || r.provider == "mistral" {
			f.Add([]byte(r.reply))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, prof := range profiles {
			p := adapters.ForOpenAI(adapters.Server(prof))
			for _, read := range []func() (adapters.Turn, error){
				func() (adapters.Turn, error) { return p.Parse(data) },
				func() (adapters.Turn, error) { return p.ParseStream(bytes.NewReader(data)) },
			} {
				turn, err := read()
				if err != nil {
					var re *adapters.ReplyError
					if !errors.As(err, &re) || re.Provider != p.Name() {
						t.Fatalf("%s: error %T %v is not a *ReplyError of the profile", p.Name(), err, err)
					}
					continue
				}
				var fromReplay []adapters.Call
				testHomes["openai"].replay(t, mustMarshal(t, turn.Replay), func(id, name string, args json.RawMessage, _ string) {
					fromReplay = append(fromReplay, adapters.Call{ID: id, Name: name, Args: args})
				})
				if len(fromReplay) != len(turn.Calls) {
					t.Fatalf("%s: %d calls, %d in the replay", p.Name(), len(turn.Calls), len(fromReplay))
				}
				for i, c := range turn.Calls {
					if !json.Valid(c.Args) || c.Args[0] != '{' || c.ID != fromReplay[i].ID || c.Name != fromReplay[i].Name {
						t.Fatalf("%s: call %d %+v, replay %+v", p.Name(), i, c, fromReplay[i])
					}
				}
			}
		}
	})
}
