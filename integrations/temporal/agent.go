package tntemporal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// The names an Agent registers: its workflow, AgentWorkflowPrefix and
// the Agent's name; its model call's activity, ModelActivityPrefix and
// the name.
const (
	AgentWorkflowPrefix = "toolnexus.agent."
	ModelActivityPrefix = "toolnexus.model."
)

// Agent is a toolnexus.Agent's loop as a Temporal workflow: each model
// call an activity (the Agent's transport, in the worker), each step's
// tool calls activities (Tools.Run: bad arguments refused in the
// workflow, approvals waited for in the workflow, by the update
// UpdateDecide), and the run's state (a toolnexus.Session) in the
// workflow, where it survives workers and deploys. The workflow's input is
// the user's prompt; its result an AgentResult.
//
// The steps are the Agent's own, the same code as toolnexus.Agent.Run
// (toolnexus.Session): its prepare hooks, stops, budgets and typed answer
// run in the workflow, so they must be deterministic (no clock, no random,
// no I/O: a hook that needs them belongs in an activity). The Agent's model
// hooks are not called (a model call is an activity: Temporal's
// interceptors and the worker's tracing see it).
type Agent struct {
	name  string
	agent *toolnexus.Agent
	tools *Tools
	model workflow.ActivityOptions
}

// DefaultModelOptions are the model call's activity options when NewAgent
// is given none: ten minutes for one reply, three attempts (a model call
// has no side effect; the transport retries 429 and 5xx within an
// attempt).
var DefaultModelOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 10 * time.Minute,
	RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 3},
}

// NewAgent returns agent's loop as a workflow named
// AgentWorkflowPrefix+name, its tools run as tools' activities (tools
// must be of agent's toolkit), its model calls with the activity options
// model (the zero value is DefaultModelOptions).
func NewAgent(name string, agent *toolnexus.Agent, tools *Tools, model workflow.ActivityOptions) (*Agent, error) {
	switch {
	case name == "":
		return nil, errors.New("tntemporal: NewAgent: no name")
	case agent == nil || tools == nil:
		return nil, errors.New("tntemporal: NewAgent: no agent or no tools (nil)")
	case tools.Toolkit() != agent.Toolkit():
		return nil, errors.New("tntemporal: NewAgent: the tools are not of the agent's toolkit")
	}
	if model.StartToCloseTimeout == 0 && model.ScheduleToCloseTimeout == 0 {
		model = DefaultModelOptions
	}
	return &Agent{name: name, agent: agent, tools: tools, model: model}, nil
}

// WorkflowName is the name the Agent's workflow is registered under.
func (a *Agent) WorkflowName() string { return AgentWorkflowPrefix + a.name }

// ModelActivityName is the name of the Agent's model call's activity.
func (a *Agent) ModelActivityName() string { return ModelActivityPrefix + a.name }

// Register registers the Agent's workflow, its model call's activity and
// its tools' activities (Tools.Register) with w.
func (a *Agent) Register(w worker.Registry) {
	w.RegisterWorkflowWithOptions(a.Workflow, workflow.RegisterOptions{Name: a.WorkflowName()})
	w.RegisterActivityWithOptions(a.callModel, activity.RegisterOptions{Name: a.ModelActivityName()})
	a.tools.Register(w)
}

// AgentResult is what an Agent's workflow returns: the run's end, as
// JSON.
type AgentResult struct {
	Stop   toolnexus.StopReason `json:"stop,omitempty"`
	Text   string               `json:"text,omitempty"`
	Answer json.RawMessage      `json:"answer,omitempty"` // the typed answer, as JSON
	Steps  int                  `json:"steps"`
	Usage  adapters.Usage       `json:"usage"`
}

// modelReply is a model call's Turn as an activity's result: its replay
// entries as their JSON, which the workflow sends back as they are.
type modelReply struct {
	Calls   []adapters.Call   `json:"calls,omitempty"`
	Text    string            `json:"text,omitempty"`
	Stop    string            `json:"stop,omitempty"`
	Refusal string            `json:"refusal,omitempty"`
	Replay  []json.RawMessage `json:"replay,omitempty"`
	Usage   adapters.Usage    `json:"usage"`
	Latency time.Duration     `json:"latency"`
}

// callModel is the model call's activity: the Agent's transport sends
// the body.
func (a *Agent) callModel(ctx context.Context, body []byte) (modelReply, error) {
	start := time.Now()
	turn, err := a.agent.Transport().Send(ctx, body)
	if err != nil {
		return modelReply{}, err
	}
	r := modelReply{Calls: turn.Calls, Text: turn.Text, Stop: turn.Stop, Refusal: turn.Refusal,
		Usage: turn.Usage, Latency: time.Since(start)}
	for i, e := range turn.Replay {
		b, err := json.Marshal(e)
		if err != nil {
			return modelReply{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf("replay entry %d: %v", i, err), "toolnexus.replay", err)
		}
		r.Replay = append(r.Replay, b)
	}
	return r, nil
}

// turn is r as the Turn the model call gave.
func (r *modelReply) turn() adapters.Turn {
	t := adapters.Turn{Calls: r.Calls, Text: r.Text, Stop: r.Stop, Refusal: r.Refusal, Usage: r.Usage}
	for _, e := range r.Replay {
		t.Replay = append(t.Replay, e)
	}
	return t
}

// Workflow is the Agent's workflow: the loop on prompt.
func (a *Agent) Workflow(ctx workflow.Context, prompt string) (AgentResult, error) {
	s := a.agent.NewSession(prompt)
	mctx := workflow.WithActivityOptions(ctx, a.model)
	// The Session's hooks run here, in the workflow: they get a context
	// that carries nothing.
	hctx := context.Background()
	for !s.Done() {
		body, err := s.Request(hctx)
		if err != nil {
			return result(s), err
		}
		if s.Done() {
			break
		}
		var rep modelReply
		if err := workflow.ExecuteActivity(mctx, a.ModelActivityName(), body).Get(ctx, &rep); err != nil {
			return result(s), err
		}
		calls, err := s.Reply(rep.turn(), rep.Latency)
		if err != nil {
			return result(s), err
		}
		if len(calls) == 0 {
			continue
		}
		results := make([]define.Result, len(calls))
		var run []adapters.Call
		var at []int
		for i, c := range calls {
			if r, refused := s.Refuse(c); refused {
				results[i] = r
				continue
			}
			run = append(run, c)
			at = append(at, i)
		}
		if len(run) > 0 {
			for k, r := range a.tools.Run(ctx, run) {
				results[at[k]] = r
			}
		}
		if err := s.Results(hctx, results); err != nil {
			return result(s), err
		}
	}
	return result(s), nil
}

// result is the run of s as the workflow's result.
func result(s *toolnexus.Session) AgentResult {
	run := s.Run()
	r := AgentResult{Stop: run.Stop, Text: run.Text, Usage: run.Usage}
	if run.Answer != nil {
		if b, err := json.Marshal(run.Answer); err == nil {
			r.Answer = b
		}
	}
	if n := len(run.Steps); n > 0 {
		r.Steps = run.Steps[n-1].Index + 1
	}
	return r
}
