package tnanthropic_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	tnanthropic "github.com/toolnexus/toolnexus/integrations/anthropic"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// The scripted replies of the agent tests: a call, then the answer, and a
// call that needs approval.
var (
	agentScript = []string{
		`{"id":"msg_a","type":"message","role":"assistant","model":"claude-test","stop_reason":"tool_use","stop_sequence":null,
			"usage":{"input_tokens":100,"output_tokens":20},"content":[
			{"type":"thinking","thinking":"The weather tool.","signature":"c2lnLWE="},
			{"type":"tool_use","id":"toolu_a","name":"get_weather","input":{"city":"Oslo"}}]}`,
		`{"id":"msg_b","type":"message","role":"assistant","model":"claude-test","stop_reason":"end_turn","stop_sequence":null,
			"usage":{"input_tokens":150,"output_tokens":15},"content":[{"type":"text","text":"12 °C and overcast in Oslo, where it is 09:00."}]}`,
	}
	agentRefund = `{"id":"msg_r","type":"message","role":"assistant","model":"claude-test","stop_reason":"tool_use","stop_sequence":null,
		"usage":{"input_tokens":90,"output_tokens":25},"content":[{"type":"tool_use","id":"toolu_r","name":"refund","input":{"order":"B-7","amount":45}}]}`
)

// agentOpts are the options every agent test gives: the Messages API
// requires max_tokens.
var agentOpts = []toolnexus.AgentOption{toolnexus.WithRequest(adapters.Request{MaxTokens: 1024})}

// TestAgent: NewAgent runs a two-step loop (a call, then the answer) over
// the unmodified client, whole and streamed; the thinking block goes back
// with its signature.
func TestAgent(t *testing.T) {
	ctx := context.Background()
	for _, streamed := range []bool{false, true} {
		replies := agentScript
		if streamed {
			replies = make([]string, len(agentScript))
			for i, r := range agentScript {
				var err error
				if replies[i], err = messageStream(r, 2, "", 0); err != nil {
					t.Fatal(err)
				}
			}
		}
		m := sdktest.NewModel(modelPath, replies...)
		agent, err := tnanthropic.NewAgent(newClient(m), sdktest.Toolkit(), "claude-test", agentOpts...)
		if err != nil {
			t.Fatal(err)
		}
		var run *toolnexus.AgentRun
		if streamed {
			run, err = agent.RunStream(ctx, "Weather in Oslo?", adapters.StreamHooks{})
		} else {
			run, err = agent.Run(ctx, "Weather in Oslo?")
		}
		m.Close()
		if err != nil {
			t.Fatalf("streamed %v: %v (model: %v)", streamed, err, m.Err())
		}
		if run.Stop != toolnexus.StopDone || run.Text != sdktest.FinalText || len(run.Steps) != 2 {
			t.Fatalf("streamed %v: stop %q, text %q, %d steps", streamed, run.Stop, run.Text, len(run.Steps))
		}
		if r := run.Steps[0].Results; len(r) != 1 || r[0].IsError || !strings.Contains(r[0].Output, `"sky":"overcast"`) {
			t.Errorf("streamed %v: step 0's results %+v", streamed, r)
		}
		if !streamed && (run.Usage.Input != 250 || run.Usage.Output != 35) {
			t.Errorf("usage %+v, want 250 in and 35 out", run.Usage)
		}
		reqs := m.Requests()
		if len(reqs) != 2 || !strings.Contains(string(reqs[1]), `"tool_use_id":"toolu_a"`) || !strings.Contains(string(reqs[1]), `"signature":"c2lnLWE="`) {
			t.Errorf("streamed %v: the second request lacks the thinking block or the result:\n%s", streamed, reqs[len(reqs)-1])
		}
		if mt, _ := sdktest.Member(reqs[0], "max_tokens"); string(mt) != "1024" {
			t.Errorf("max_tokens %s", mt)
		}
	}
	none := sdktest.NewModel(modelPath)
	defer none.Close()
	if _, err := tnanthropic.NewAgent(newClient(none), sdktest.Toolkit(), "claude-test"); err == nil || !strings.Contains(err.Error(), "max_tokens") {
		t.Errorf("NewAgent without max_tokens: err = %v", err)
	}
}

// TestAgentResume: a call that needs approval pauses the run; an Agent
// made again resumes its JSON state with the decision, and the run ends.
func TestAgentResume(t *testing.T) {
	ctx := context.Background()
	m := sdktest.NewModel(modelPath, agentRefund, agentScript[1])
	defer m.Close()
	first, err := tnanthropic.NewAgent(newClient(m), sdktest.BatchToolkit(), "claude-test", agentOpts...)
	if err != nil {
		t.Fatal(err)
	}
	run, err := first.Run(ctx, "Refund B-7")
	if err != nil {
		t.Fatal(err)
	}
	if run.Stop != toolnexus.StopPending || len(run.Pending) != 1 || run.Pending[0].ID != "toolu_r" {
		t.Fatalf("run: stop %q, pending %+v", run.Stop, run.Pending)
	}
	second, err := tnanthropic.NewAgent(newClient(m), sdktest.BatchToolkit(), "claude-test", agentOpts...)
	if err != nil {
		t.Fatal(err)
	}
	run, err = second.Resume(ctx, run.State, []toolnexus.Decision{toolnexus.Deny(run.Pending[0], "not this customer")})
	if err != nil {
		t.Fatalf("%v (model: %v)", err, m.Err())
	}
	if run.Stop != toolnexus.StopDone || run.Text != sdktest.FinalText {
		t.Fatalf("resumed run: stop %q, text %q", run.Stop, run.Text)
	}
	if reqs := m.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1]), `not this customer`) || !strings.Contains(string(reqs[1]), `"is_error":true`) {
		t.Errorf("the request after the denial does not carry it:\n%s", reqs[len(reqs)-1])
	}
}

// TestAgentAnswerAndChoice: over the unmodified client, a first step
// that offers get_weather alone and requires a call of it, then a typed
// answer that breaks its schema, asked for again, then decoded.
func TestAgentAnswerAndChoice(t *testing.T) {
	m := sdktest.NewModel(modelPath, agentScript[0],
		`{"id":"msg_c","type":"message","role":"assistant","model":"claude-test","stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1},"content":[{"type":"text","text":"{\"city\":\"Oslo\",\"temp_c\":12,\"sky\":\"hail\"}"}]}`,
		`{"id":"msg_d","type":"message","role":"assistant","model":"claude-test","stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1},"content":[{"type":"text","text":"{\"city\":\"Oslo\",\"temp_c\":12,\"sky\":\"overcast\"}"}]}`)
	defer m.Close()
	tk := sdktest.Toolkit()
	sdktest.AgentAnswerAndChoice(t, m, tk, func(opts ...toolnexus.AgentOption) (*toolnexus.Agent, error) {
		return tnanthropic.NewAgent(newClient(m), tk, "claude-test", append(slices.Clip(agentOpts), opts...)...)
	}, `"tool_choice"`, `"output_config"`)
}
