package tntemporal_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tntemporal "github.com/toolnexus/toolnexus/integrations/temporal"
)

// chatModel is a scripted OpenAI Chat model, a transport.Transport that
// answers from the request alone (so that a retried or replayed model
// call gets the same reply): the first request gets calls of add and
// charge, one after their results the answer.
type chatModel struct {
	mu     sync.Mutex
	bodies [][]byte
	answer string
}

func (m *chatModel) Send(_ context.Context, body []byte) (adapters.Turn, error) {
	m.mu.Lock()
	m.bodies = append(m.bodies, body)
	m.mu.Unlock()
	reply := `{"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[` +
		`{"id":"call_1","type":"function","function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}},` +
		`{"id":"call_2","type":"function","function":{"name":"charge","arguments":"{\"account\":\"acme\",\"cents\":250}"}}]}}],` +
		`"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`
	if bytes.Contains(body, []byte(`"role":"tool"`)) {
		text, _ := json.Marshal(m.answer)
		reply = `{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":` + string(text) + `}}],` +
			`"usage":{"prompt_tokens":150,"completion_tokens":10,"total_tokens":160}}`
	}
	return adapters.ForOpenAI().Parse([]byte(reply))
}

func (m *chatModel) Stream(ctx context.Context, body []byte, _ adapters.StreamHooks) (adapters.Turn, error) {
	return m.Send(ctx, body)
}

func (m *chatModel) requests() [][]byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bodies
}

type agentAnswer struct {
	Sum     int64 `json:"sum"`
	Charged bool  `json:"charged"`
}

// TestAgentWorkflow runs an Agent's loop as a workflow: the first step's
// calls run as activities, charge waiting in the workflow for the
// decision sent by the update; the second step ends in the typed answer.
func TestAgentWorkflow(t *testing.T) {
	p := newProbe()
	tk := approvalToolkit(p)
	m := &chatModel{answer: `{"sum":3,"charged":true}`}
	ag, err := toolnexus.NewAgent(adapters.ForOpenAI(), tk, "gpt-test", toolnexus.WithTransport(m),
		toolnexus.WithAnswer(define.MustDefineAnswer[agentAnswer]()))
	if err != nil {
		t.Fatal(err)
	}
	wf, err := tntemporal.NewAgent("billing", ag, testTools(tk), workflow.ActivityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv()
	wf.Register(e)
	var pending []toolnexus.PendingCall
	var decided updateOutcome
	e.RegisterDelayedCallback(func() {
		pending = queryPending(t, e)
		if len(pending) == 1 {
			sendDecisions(e, "approve", &decided, toolnexus.Approve(pending[0]))
		}
	}, time.Second)
	e.ExecuteWorkflow(wf.WorkflowName(), "Add 1 and 2, and charge acme 250 cents.")
	if !e.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	if err := e.GetWorkflowError(); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	var res tntemporal.AgentResult
	if err := e.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if len(pending) != 1 || pending[0].Tool != "charge" || pending[0].Index != 1 || !decided.completed || decided.failed != nil {
		t.Fatalf("pending %+v, decision %+v", pending, decided)
	}
	if res.Stop != toolnexus.StopDone || string(res.Answer) != `{"sum":3,"charged":true}` || res.Steps != 2 ||
		res.Usage.Input != 250 || res.Usage.Output != 30 {
		t.Errorf("result %+v (answer %s)", res, res.Answer)
	}
	if p.count(p.runs, "add") != 1 || p.count(p.runs, "charge") != 1 {
		t.Errorf("add ran %d times, charge %d, want 1 and 1", p.count(p.runs, "add"), p.count(p.runs, "charge"))
	}
	reqs := m.requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1]), `\"sum\":3`) || !strings.Contains(string(reqs[1]), `"call_2"`) {
		t.Errorf("the second request does not carry both results:\n%s", reqs[len(reqs)-1])
	}
}

// TestAgentWorkflowErrors: NewAgent refuses tools of another toolkit;
// a run past the step limit fails the workflow with ErrMaxSteps' text.
func TestAgentWorkflowErrors(t *testing.T) {
	p := newProbe()
	tk := testToolkit(p)
	m := &chatModel{answer: "done"}
	ag, err := toolnexus.NewAgent(adapters.ForOpenAI(), tk, "gpt-test", toolnexus.WithTransport(m), toolnexus.WithMaxSteps(1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tntemporal.NewAgent("x", ag, testTools(testToolkit(p)), workflow.ActivityOptions{}); err == nil {
		t.Error("NewAgent took the tools of another toolkit")
	}
	wf, err := tntemporal.NewAgent("limited", ag, testTools(tk), workflow.ActivityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv()
	wf.Register(e)
	e.ExecuteWorkflow(wf.WorkflowName(), "charge")
	if err := e.GetWorkflowError(); err == nil || !strings.Contains(err.Error(), toolnexus.ErrMaxSteps.Error()) {
		t.Errorf("workflow error %v, want the step limit", err)
	}
	// The first step's calls ran (charge needs no approval here).
	if p.count(p.runs, "add") != 1 || p.count(p.runs, "charge") != 1 {
		t.Errorf("add ran %d times, charge %d", p.count(p.runs, "add"), p.count(p.runs, "charge"))
	}
}

// agentHistoryFile is the history of TestServerAgent's workflow, which
// TestReplayAgent replays; TOOLNEXUS_UPDATE_GOLDEN=1 records it again.
var agentHistoryFile = filepath.Join("testdata", "agent-history.json")

// newBillingAgent is the agent workflow of the server tests, on a model
// of its own.
func newBillingAgent(t testing.TB, p *probe) (*tntemporal.Agent, *chatModel) {
	t.Helper()
	tk := approvalToolkit(p)
	m := &chatModel{answer: `{"sum":3,"charged":true}`}
	ag, err := toolnexus.NewAgent(adapters.ForOpenAI(), tk, "gpt-test", toolnexus.WithTransport(m),
		toolnexus.WithAnswer(define.MustDefineAnswer[agentAnswer]()))
	if err != nil {
		t.Fatal(err)
	}
	wf, err := tntemporal.NewAgent("billing", ag, testTools(tk), workflow.ActivityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return wf, m
}

// An agent's run on the real server: it waits for the approval of
// charge while its worker is stopped and another takes its place; the
// decision, sent by the client, reaches the new worker, and the run ends
// in its typed answer. Each tool ran once.
func TestServerAgent(t *testing.T) {
	c := dial(t)
	p := newProbe()
	queue := "agent-" + t.Name()
	start := func() (worker.Worker, *chatModel) {
		wf, m := newBillingAgent(t, p)
		w := worker.New(c, queue, workerOptions)
		wf.Register(w)
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		return w, m
	}
	w1, m1 := start()
	wf, _ := newBillingAgent(t, p)
	id := "agent-" + time.Now().Format("150405.000000")
	run, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{ID: id, TaskQueue: queue}, wf.WorkflowName(), "Add 1 and 2, and charge acme 250 cents.")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var pending []toolnexus.PendingCall
	for len(pending) == 0 {
		if ctx.Err() != nil {
			t.Fatal("no pending call")
		}
		time.Sleep(100 * time.Millisecond)
		pending, _ = tntemporal.Pending(ctx, c, id, "")
	}
	for p.count(p.runs, "add") == 0 && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond) // the call that needs no approval runs meanwhile
	}
	time.Sleep(300 * time.Millisecond) // and, most often, completes (add takes 20 ms)
	w1.Stop()
	w2, _ := start()
	defer w2.Stop()
	if len(pending) != 1 || pending[0].Tool != "charge" {
		t.Fatalf("pending %+v", pending)
	}
	if err := tntemporal.Decide(ctx, c, id, "", toolnexus.Approve(pending[0])); err != nil {
		t.Fatal(err)
	}
	var res tntemporal.AgentResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Stop != toolnexus.StopDone || string(res.Answer) != `{"sum":3,"charged":true}` || res.Steps != 2 || res.Usage.Input != 250 {
		t.Errorf("result %+v (answer %s)", res, res.Answer)
	}
	// charge, approved once, ran once; add is idempotent (read-only): if
	// the first worker stopped before its result was recorded, the second
	// ran it again.
	if a := p.count(p.runs, "add"); a < 1 || a > 2 || p.count(p.runs, "charge") != 1 {
		t.Errorf("add ran %d times, charge %d, want 1 (or 2) and 1", a, p.count(p.runs, "charge"))
	}
	if n := len(m1.requests()); n != 1 {
		t.Errorf("the first worker's model had %d requests, want 1", n)
	}
	if os.Getenv("TOOLNEXUS_UPDATE_GOLDEN") == "1" {
		writeHistory(t, c, id, agentHistoryFile)
	}
}

// The recorded history of an agent's run replays with this version's
// workflow code; a workflow whose agent asks for no typed answer (so its
// model calls and steps differ) fails the replay.
func TestReplayAgent(t *testing.T) {
	if _, err := os.Stat(agentHistoryFile); err != nil {
		t.Fatalf("no recorded history: %v (record it: TOOLNEXUS_UPDATE_GOLDEN=1 go test -run TestServerAgent)", err)
	}
	wf, _ := newBillingAgent(t, newProbe())
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(wf.Workflow, workflow.RegisterOptions{Name: wf.WorkflowName()})
	if err := r.ReplayWorkflowHistoryFromJSONFile(quietLogger(), agentHistoryFile); err != nil {
		t.Fatalf("replay of %s: %v", agentHistoryFile, err)
	}
	tk := approvalToolkit(newProbe())
	other, err := toolnexus.NewAgent(adapters.ForOpenAI(), tk, "gpt-test", toolnexus.WithTransport(&chatModel{}), toolnexus.WithMaxSteps(1))
	if err != nil {
		t.Fatal(err)
	}
	owf, err := tntemporal.NewAgent("billing", other, testTools(tk), workflow.ActivityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r2 := worker.NewWorkflowReplayer()
	r2.RegisterWorkflowWithOptions(owf.Workflow, workflow.RegisterOptions{Name: owf.WorkflowName()})
	if err := r2.ReplayWorkflowHistoryFromJSONFile(tlog.NewStructuredLogger(slog.New(slog.DiscardHandler)), agentHistoryFile); err == nil {
		t.Error("a workflow of one step replayed a history of two")
	}
}
