package tnopenai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	tnopenai "github.com/toolnexus/toolnexus/integrations/openai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// The scripted replies of the agent tests: a call, then the answer (Chat
// and Responses), and a call that needs approval.
var (
	agentChat = []string{
		`{"id":"c1","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"finish_reason":"tool_calls",
			"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]}}],
			"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`,
		`{"id":"c2","object":"chat.completion","created":2,"model":"gpt-test","choices":[{"index":0,"finish_reason":"stop",
			"message":{"role":"assistant","content":"12 °C and overcast in Oslo, where it is 09:00."}}],
			"usage":{"prompt_tokens":150,"completion_tokens":15,"total_tokens":165}}`,
	}
	agentRefund = `{"id":"c0","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"finish_reason":"tool_calls",
		"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_r","type":"function","function":{"name":"refund","arguments":"{\"order\":\"B-7\",\"amount\":45}"}}]}}],
		"usage":{"prompt_tokens":90,"completion_tokens":25,"total_tokens":115}}`
	agentResponses = []string{
		`{"id":"resp_a","object":"response","created_at":1,"status":"completed","model":"gpt-test","output":[
			{"type":"function_call","id":"fc_a","call_id":"call_a","name":"get_weather","arguments":"{\"city\":\"Oslo\"}","status":"completed"}],
			"usage":{"input_tokens":100,"output_tokens":20,"total_tokens":120}}`,
		`{"id":"resp_b","object":"response","created_at":2,"status":"completed","model":"gpt-test","output":[
			{"type":"message","id":"msg_b","role":"assistant","status":"completed","content":[{"type":"output_text","text":"12 °C and overcast in Oslo, where it is 09:00.","annotations":[]}]}],
			"usage":{"input_tokens":150,"output_tokens":15,"total_tokens":165}}`,
	}
)

// checkRun checks a two-step run that ended with sdktest.FinalText after
// get_weather ran, its usage summed, and that the second request carried
// the tool's result.
func checkRun(t *testing.T, m *sdktest.Model, run *toolnexus.AgentRun, err error, in, out int64) {
	t.Helper()
	if err != nil {
		t.Fatalf("%v (model: %v)", err, m.Err())
	}
	if run.Stop != toolnexus.StopDone || run.Text != sdktest.FinalText || len(run.Steps) != 2 {
		t.Fatalf("run: stop %q, text %q, %d steps", run.Stop, run.Text, len(run.Steps))
	}
	if r := run.Steps[0].Results; len(r) != 1 || r[0].IsError || !strings.Contains(r[0].Output, `"sky":"overcast"`) {
		t.Errorf("step 0's results %+v", r)
	}
	if run.Usage.Input != in || run.Usage.Output != out {
		t.Errorf("usage %+v, want %d in and %d out", run.Usage, in, out)
	}
	reqs := m.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1]), `\"sky\":\"overcast\"`) || !strings.Contains(string(reqs[1]), `"call_a"`) {
		t.Errorf("the second request does not carry the result of call_a:\n%s", reqs[len(reqs)-1])
	}
}

// TestAgent: NewAgent and NewResponsesAgent run a two-step loop (a call,
// then the answer) over the unmodified client, whole and (Chat) streamed.
func TestAgent(t *testing.T) {
	ctx := context.Background()
	t.Run("chat", func(t *testing.T) {
		m := sdktest.NewModel(chatPath, agentChat...)
		defer m.Close()
		agent, err := tnopenai.NewAgent(newClient(m), sdktest.Toolkit(), "gpt-test", toolnexus.WithSystem("Be brief."))
		if err != nil {
			t.Fatal(err)
		}
		run, err := agent.Run(ctx, "Weather in Oslo?")
		checkRun(t, m, run, err, 250, 35)
		if model, _ := sdktest.Member(m.Requests()[0], "model"); string(model) != `"gpt-test"` {
			t.Errorf("model %s", model)
		}
	})
	t.Run("chat-stream", func(t *testing.T) {
		bodies := []string{
			chatStream("c1", delta(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]}`, `null`),
				delta(`{}`, `"tool_calls"`), ""),
			chatStream("c2", delta(`{"role":"assistant","content":"12 °C and overcast "}`, `null`),
				delta(`{"content":"in Oslo, where it is 09:00."}`, `"stop"`), ""),
		}
		m := sdktest.NewModel(chatPath, bodies...)
		defer m.Close()
		agent, err := tnopenai.NewAgent(newClient(m), sdktest.Toolkit(), "gpt-test")
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		run, err := agent.RunStream(ctx, "Weather in Oslo?", adapters.StreamHooks{Text: func(d string) { text.WriteString(d) }})
		checkRun(t, m, run, err, 20, 20) // chatStream's usage, 10 and 10 a reply
		if text.String() != sdktest.FinalText {
			t.Errorf("the text hook saw %q", text.String())
		}
		for i, r := range m.Requests() {
			if opts, _ := sdktest.Member(r, "stream_options"); string(opts) != `{"include_usage":true}` {
				t.Errorf("request %d: stream_options %s", i, opts)
			}
		}
	})
	t.Run("responses", func(t *testing.T) {
		m := sdktest.NewModel(responsesPath, agentResponses...)
		defer m.Close()
		agent, err := tnopenai.NewResponsesAgent(newClient(m), sdktest.Toolkit(), "gpt-test")
		if err != nil {
			t.Fatal(err)
		}
		run, err := agent.Run(ctx, "Weather in Oslo?")
		checkRun(t, m, run, err, 250, 35)
	})
}

// TestAgentResume: a call that needs approval pauses the run; an Agent
// made again (another process, as far as the run can tell) resumes its
// JSON state with the decision, and the run ends.
func TestAgentResume(t *testing.T) {
	ctx := context.Background()
	m := sdktest.NewModel(chatPath, agentRefund, agentChat[1])
	defer m.Close()
	first, err := tnopenai.NewAgent(newClient(m), sdktest.BatchToolkit(), "gpt-test")
	if err != nil {
		t.Fatal(err)
	}
	run, err := first.Run(ctx, "Refund B-7")
	if err != nil {
		t.Fatal(err)
	}
	if run.Stop != toolnexus.StopPending || len(run.Pending) != 1 || run.Pending[0].Tool != "refund" || len(run.State) == 0 {
		t.Fatalf("run: stop %q, pending %+v", run.Stop, run.Pending)
	}
	state, decision := append([]byte(nil), run.State...), toolnexus.Approve(run.Pending[0])
	second, err := tnopenai.NewAgent(newClient(m), sdktest.BatchToolkit(), "gpt-test")
	if err != nil {
		t.Fatal(err)
	}
	run, err = second.Resume(ctx, state, []toolnexus.Decision{decision})
	if err != nil {
		t.Fatalf("%v (model: %v)", err, m.Err())
	}
	if run.Stop != toolnexus.StopDone || run.Text != sdktest.FinalText {
		t.Fatalf("resumed run: stop %q, text %q", run.Stop, run.Text)
	}
	reqs := m.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1]), `"refunded 45 on B-7"`) {
		t.Errorf("the request after the approval does not carry the refund's result:\n%s", reqs[len(reqs)-1])
	}
}

// TestAgentAnswerAndChoice: over the unmodified client, a first step
// that offers get_weather alone and requires a call of it, then a typed
// answer that breaks its schema, asked for again, then decoded.
func TestAgentAnswerAndChoice(t *testing.T) {
	m := sdktest.NewModel(chatPath, agentChat[0],
		`{"id":"c3","object":"chat.completion","created":3,"model":"gpt-test","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"{\"city\":\"Oslo\",\"temp_c\":12,\"sky\":\"hail\"}"}}]}`,
		`{"id":"c4","object":"chat.completion","created":4,"model":"gpt-test","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"{\"city\":\"Oslo\",\"temp_c\":12,\"sky\":\"overcast\"}"}}]}`)
	defer m.Close()
	tk := sdktest.Toolkit()
	sdktest.AgentAnswerAndChoice(t, m, tk, func(opts ...toolnexus.AgentOption) (*toolnexus.Agent, error) {
		return tnopenai.NewAgent(newClient(m), tk, "gpt-test", opts...)
	}, `"tool_choice"`, `"response_format"`)
}
