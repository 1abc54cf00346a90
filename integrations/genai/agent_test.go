package tngenai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	tngenai "github.com/toolnexus/toolnexus/integrations/genai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// The scripted replies of the agent tests: a call (with a thought
// signature), then the answer, and a call that needs approval.
var (
	agentScript = []string{
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"fc-a","name":"get_weather","args":{"city":"Oslo"}},"thoughtSignature":"c2lnLWE="}]},"finishReason":"STOP","index":0}],
			"usageMetadata":{"promptTokenCount":100,"candidatesTokenCount":20,"totalTokenCount":120}}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"12 °C and overcast in Oslo, where it is 09:00."}]},"finishReason":"STOP","index":0}],
			"usageMetadata":{"promptTokenCount":150,"candidatesTokenCount":15,"totalTokenCount":165}}`,
	}
	agentRefund = `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"fc-r","name":"refund","args":{"order":"B-7","amount":45}}}]},"finishReason":"STOP","index":0}],
		"usageMetadata":{"promptTokenCount":90,"candidatesTokenCount":25,"totalTokenCount":115}}`
)

// TestAgent: NewAgent runs a two-step loop (a call, then the answer) over
// the unmodified client, whole and streamed; the thought signature goes
// back on its call.
func TestAgent(t *testing.T) {
	ctx := context.Background()
	for _, streamed := range []bool{false, true} {
		path, replies := modelPath, agentScript
		if streamed {
			path, replies = streamPath, []string{sse(agentScript[0]), sse(agentScript[1])}
		}
		m := sdktest.NewModel(path, replies...)
		client, err := newClient(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		agent, err := tngenai.NewAgent(client, sdktest.Toolkit(), "gemini-test")
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
		if run.Usage.Input != 250 || run.Usage.Output != 35 {
			t.Errorf("streamed %v: usage %+v, want 250 in and 35 out", streamed, run.Usage)
		}
		reqs := m.Requests()
		if len(reqs) != 2 || !strings.Contains(string(reqs[1]), `"thoughtSignature":"c2lnLWE="`) || !strings.Contains(string(reqs[1]), `"functionResponse":{"id":"fc-a"`) {
			t.Errorf("streamed %v: the second request lacks the signature or the result:\n%s", streamed, reqs[len(reqs)-1])
		}
	}
}

// TestAgentResume: a call that needs approval pauses the run; an Agent
// made again resumes its JSON state with the decision, and the run ends.
func TestAgentResume(t *testing.T) {
	ctx := context.Background()
	m := sdktest.NewModel(modelPath, agentRefund, agentScript[1])
	defer m.Close()
	client, err := newClient(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	first, err := tngenai.NewAgent(client, sdktest.BatchToolkit(), "gemini-test")
	if err != nil {
		t.Fatal(err)
	}
	run, err := first.Run(ctx, "Refund B-7")
	if err != nil {
		t.Fatal(err)
	}
	if run.Stop != toolnexus.StopPending || len(run.Pending) != 1 || run.Pending[0].ID != "fc-r" {
		t.Fatalf("run: stop %q, pending %+v", run.Stop, run.Pending)
	}
	other, err := newClient(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	second, err := tngenai.NewAgent(other, sdktest.BatchToolkit(), "gemini-test")
	if err != nil {
		t.Fatal(err)
	}
	run, err = second.Resume(ctx, run.State, []toolnexus.Decision{toolnexus.Approve(run.Pending[0])})
	if err != nil {
		t.Fatalf("%v (model: %v)", err, m.Err())
	}
	if run.Stop != toolnexus.StopDone || run.Text != sdktest.FinalText {
		t.Fatalf("resumed run: stop %q, text %q", run.Stop, run.Text)
	}
	if reqs := m.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1]), `refunded 45 on B-7`) {
		t.Errorf("the request after the approval does not carry the refund's result:\n%s", reqs[len(reqs)-1])
	}
}

// TestAgentAnswerAndChoice: over the unmodified client, a first step
// that offers get_weather alone and requires a call of it, then a typed
// answer that breaks its schema, asked for again, then decoded.
func TestAgentAnswerAndChoice(t *testing.T) {
	m := sdktest.NewModel(modelPath, agentScript[0],
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"{\"city\":\"Oslo\",\"temp_c\":12,\"sky\":\"hail\"}"}]},"finishReason":"STOP","index":0}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"{\"city\":\"Oslo\",\"temp_c\":12,\"sky\":\"overcast\"}"}]},"finishReason":"STOP","index":0}]}`)
	defer m.Close()
	tk := sdktest.Toolkit()
	sdktest.AgentAnswerAndChoice(t, m, tk, func(opts ...toolnexus.AgentOption) (*toolnexus.Agent, error) {
		client, err := newClient(context.Background(), m)
		if err != nil {
			return nil, err
		}
		return tngenai.NewAgent(client, tk, "gemini-test", opts...)
	}, `"toolConfig"`, `"responseSchema"`)
}
