package toolnexus

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// agentStateVersion is the version of a paused run's state: a state of
// another version is refused by Resume, never misread.
const agentStateVersion = 1

// agentState is a paused run: everything Resume needs to carry on, as
// plain JSON. History holds the conversation's entries as their JSON (the
// provider's messages); Calls and Results are the paused step's, the
// pending calls' results among them.
type agentState struct {
	Version     int               `json:"toolnexus_agent_state"`
	Provider    string            `json:"provider"`
	Model       string            `json:"model"`
	Prompt      string            `json:"prompt"`
	Steps       int               `json:"steps"`
	Usage       adapters.Usage    `json:"usage"`
	Failures    map[string]int    `json:"failures,omitempty"`
	AnswerTries int               `json:"answer_tries,omitempty"`
	History     []json.RawMessage `json:"history"`
	Calls       []adapters.Call   `json:"calls"`
	Results     []define.Result   `json:"results"`
	Pending     []PendingCall     `json:"pending"`
}

// pause ends the run for the calls that wait for approval: its State and
// Pending.
func (r *agentRunner) pause(calls []adapters.Call, results []define.Result, pending []PendingCall) error {
	a := r.a
	st := agentState{
		Version: agentStateVersion, Provider: a.p.Name(), Model: a.model, Prompt: r.prompt,
		Steps: r.steps, Usage: r.out.Usage, Failures: r.failures, AnswerTries: r.answerTries,
		History: make([]json.RawMessage, len(r.out.History)),
		Calls:   calls, Results: results, Pending: pending,
	}
	for i, e := range r.out.History {
		b, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("toolnexus: Agent: pause: history entry %d: %w", i, err)
		}
		st.History[i] = b
	}
	data, err := json.Marshal(&st)
	if err != nil {
		return fmt.Errorf("toolnexus: Agent: pause: %w", err)
	}
	if len(data) > a.cfg.maxState {
		return fmt.Errorf("toolnexus: Agent: pause: %w: %d bytes, more than WithMaxStateBytes (%d)", ErrStateTooLarge, len(data), a.cfg.maxState)
	}
	r.out.Stop, r.out.Pending, r.out.State = StopPending, pending, data
	return nil
}

// Resume carries on a run paused for approval ([StopPending]) from its
// State, with the decisions about its Pending calls (Approve, Deny,
// Edit), and runs it until it stops again, as [Agent.Run] does. The Agent
// may be another process's, made the same way: the same provider and
// model (the state names them: another is an error), a toolkit of the
// same tools (and WithApprovalKey), the same options.
//
// The decisions are carried out as [Toolkit.Resume] carries them out,
// with its checks: a decision about another call, on other arguments, or
// after the call's expiry is refused, and nothing runs. A call decided
// once is refused the next time (ErrDecided), within the toolkit's
// ApprovalStore ([WithApprovalStore]; share one between processes to make
// a decision single-use across them): resuming one state twice runs
// nothing the second time. A pending call left without a decision pauses
// the run again, with a new State.
//
// The state is untrusted input: one larger than [WithMaxStateBytes], not
// of this version, or inconsistent (a pending call that is not the
// paused step's) is an error.
func (a *Agent) Resume(ctx context.Context, state []byte, decisions []Decision) (*AgentRun, error) {
	return a.resume(ctx, state, decisions, nil)
}

// ResumeStream is [Agent.Resume] with the replies streamed, as
// [Agent.RunStream].
func (a *Agent) ResumeStream(ctx context.Context, state []byte, decisions []Decision, hooks adapters.StreamHooks) (*AgentRun, error) {
	return a.resume(ctx, state, decisions, &hooks)
}

func (a *Agent) resume(ctx context.Context, state []byte, decisions []Decision, hooks *adapters.StreamHooks) (*AgentRun, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	st, err := a.readState(state)
	if err != nil {
		return nil, fmt.Errorf("toolnexus: Agent: Resume: %w", err)
	}
	r := &agentRunner{a: a, prompt: st.Prompt, hooks: hooks,
		out:   &AgentRun{Usage: st.Usage, History: make([]any, 0, len(st.History)+8)},
		steps: st.Steps, failures: st.Failures, answerTries: st.AnswerTries}
	for _, e := range st.History {
		r.append(e)
	}
	decided, err := a.tk.Resume(ctx, st.Pending, decisions, r.runOptions(nil)...)
	if err != nil {
		return nil, fmt.Errorf("toolnexus: Agent: Resume: %w", err)
	}
	results := st.Results
	for k, p := range st.Pending {
		results[p.Index] = decided[k]
	}
	r.out.Steps = append(r.out.Steps, Step{Index: st.Steps - 1, Turn: adapters.Turn{Calls: st.Calls}})
	if err := r.results(ctx, results); err != nil || r.done {
		return r.out, err
	}
	return r.loop(ctx)
}

// readState reads and checks a paused run's state.
func (a *Agent) readState(state []byte) (*agentState, error) {
	if len(state) > a.cfg.maxState {
		return nil, fmt.Errorf("%w: %d bytes, more than WithMaxStateBytes (%d)", ErrStateTooLarge, len(state), a.cfg.maxState)
	}
	var st agentState
	d := json.NewDecoder(bytes.NewReader(state))
	d.DisallowUnknownFields()
	if err := d.Decode(&st); err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	if d.More() {
		return nil, errors.New("state: more than one JSON value")
	}
	switch {
	case st.Version != agentStateVersion:
		return nil, fmt.Errorf("state: version %d, want %d", st.Version, agentStateVersion)
	case st.Provider != a.p.Name():
		return nil, fmt.Errorf("state: of provider %q, not this agent's %q", st.Provider, a.p.Name())
	case st.Model != a.model:
		return nil, fmt.Errorf("state: of model %q, not this agent's %q", st.Model, a.model)
	case st.Steps < 1:
		return nil, fmt.Errorf("state: steps: %d, want at least 1", st.Steps)
	case len(st.Calls) == 0 || len(st.Calls) != len(st.Results):
		return nil, fmt.Errorf("state: %d calls and %d results", len(st.Calls), len(st.Results))
	case len(st.Pending) == 0:
		return nil, errors.New("state: no pending call")
	}
	seen := make(map[int]bool, len(st.Pending))
	for k, p := range st.Pending {
		if p.Index < 0 || p.Index >= len(st.Calls) || seen[p.Index] {
			return nil, fmt.Errorf("state: pending[%d]: index %d is not a call of the paused step, or is given twice", k, p.Index)
		}
		seen[p.Index] = true
		c := st.Calls[p.Index]
		if p.ID != c.ID || p.Tool != c.Name || OutcomeOf(st.Results[p.Index]) != OutcomePending {
			return nil, fmt.Errorf("state: pending[%d]: not the pending call %d of the paused step", k, p.Index)
		}
	}
	for i := range st.Results {
		if OutcomeOf(st.Results[i]) == OutcomePending && !seen[i] {
			return nil, fmt.Errorf("state: results[%d] is pending, and not among the pending calls", i)
		}
	}
	return &st, nil
}
