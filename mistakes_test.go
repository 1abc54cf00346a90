package toolnexus_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// mistakeArgs is the input of the tools of these tests.
type mistakeArgs struct {
	City string `json:"city"`
	Unit string `json:"unit,omitempty" enum:"C,F" default:"C"`
}

// mistakeToolkit has get_weather and get_time, counting their runs.
func mistakeToolkit(t *testing.T, ran *atomic.Int32, opts ...toolnexus.ToolkitOption) *toolnexus.Toolkit {
	t.Helper()
	weather := define.MustDefineTool(func(_ context.Context, in mistakeArgs) (string, error) {
		ran.Add(1)
		return in.City + " " + in.Unit, nil
	}, define.WithName("get_weather"))
	clock := define.MustDefineTool(func(_ context.Context, in struct {
		Zone string `json:"zone"`
	}) (string, error) {
		ran.Add(1)
		return "noon in " + in.Zone, nil
	}, define.WithName("get_time"))
	tk, err := toolnexus.NewToolkitWith([]define.Tool{weather, clock}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// chatReply is an OpenAI chat completion whose message calls each name
// with its arguments text.
func chatReply(finish string, calls ...[2]string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[`)
	for i, c := range calls {
		if i > 0 {
			b.WriteByte(',')
		}
		args, _ := json.Marshal(c[1])
		b.WriteString(`{"id":"call_` + string(rune('a'+i)) + `","type":"function","function":{"name":"` + c[0] + `","arguments":` + string(args) + `}}`)
	}
	b.WriteString(`]},"finish_reason":"` + finish + `"}]}`)
	return b.Bytes()
}

// TestRunMalformedCall: a turn with a malformed call parses; Run answers
// that call with an error the model can act on (not a JSON object, what
// came and where), runs the turn's other calls, and the results render
// for the provider, paired with their calls.
func TestRunMalformedCall(t *testing.T) {
	var ran atomic.Int32
	tk := mistakeToolkit(t, &ran)
	p := adapters.ForOpenAI()
	turn, err := p.Parse(chatReply("tool_calls",
		[2]string{"get_weather", `{"city":"Paris"}`},
		[2]string{"get_weather", "```json\n{\"city\":\"Oslo\"}\n```"},
		[2]string{"get_time", `{"zone":"UTC"} and then I will answer`},
		[2]string{"get_time", `{"zone":"CET"}`}))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	results := tk.Run(context.Background(), turn.Calls)
	for i, want := range []string{"Paris C", "invalid arguments: not a JSON object: expected '{', got \"```json\\n{\\\"city\\\":\\\"Oslo\\\"}\\n\"… at offset 0",
		"invalid arguments: not a JSON object: expected nothing after the object, got \"and then I will answer\" at offset 15", "noon in CET"} {
		if results[i].Output != want {
			t.Errorf("results[%d] = %q, want %q", i, results[i].Output, want)
		}
		if bad := i == 1 || i == 2; results[i].IsError != bad || bad && !errors.Is(results[i].Err, define.ErrSyntax) {
			t.Errorf("results[%d]: IsError %v, Err %v", i, results[i].IsError, results[i].Err)
		}
		if toolnexus.OutcomeOf(results[i]) != map[bool]toolnexus.Outcome{false: toolnexus.OutcomeOK, true: toolnexus.OutcomeBadArguments}[i == 1 || i == 2] {
			t.Errorf("results[%d]: outcome %s", i, toolnexus.OutcomeOf(results[i]))
		}
	}
	if ran.Load() != 2 {
		t.Errorf("%d tools ran, want the 2 well-formed calls", ran.Load())
	}
	msgs, err := p.Results(turn.Calls, results)
	if err != nil {
		t.Fatalf("Results: %v", err)
	}
	if m := msgs[1].(adapters.OpenAIToolMessage); m.ToolCallID != "call_b" || !strings.HasPrefix(m.Content, "error: invalid arguments: not a JSON object") {
		t.Errorf("result message of the malformed call: %+v", m)
	}
	// The replay holds the text as sent.
	replay := turn.Replay[0].(adapters.OpenAIAssistantMessage)
	if got := replay.ToolCalls[1].Function.Arguments; got != "```json\n{\"city\":\"Oslo\"}\n```" {
		t.Errorf("replayed arguments %q, want the text as sent", got)
	}
}

// TestRunStreamMalformedCall: the same through RunStream: the malformed
// call's error, the others run.
func TestRunStreamMalformedCall(t *testing.T) {
	var ran atomic.Int32
	tk := mistakeToolkit(t, &ran)
	body := `data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{'city': 'Rome'}"}}]},"finish_reason":null}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"get_time","arguments":"{\"zone\":\"UTC\"}"}}]},"finish_reason":null}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

`
	turn, results, err := tk.RunStream(context.Background(), adapters.ForOpenAI(), strings.NewReader(body), adapters.StreamHooks{})
	if err != nil {
		t.Fatalf("RunStream: %v", err)
	}
	if turn.Calls[0].Malformed == "" || !results[0].IsError || !strings.Contains(results[0].Output, `not a JSON object: expected string key, got "'city': 'Rome'}" at offset 1`) {
		t.Errorf("call 0: %+v, result %q", turn.Calls[0], results[0].Output)
	}
	if results[1].Output != "noon in UTC" || ran.Load() != 1 {
		t.Errorf("call 1: %q, %d ran", results[1].Output, ran.Load())
	}
}
