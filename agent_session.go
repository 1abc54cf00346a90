package toolnexus

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// Session is one run of an Agent that its caller drives step by step,
// making the model calls and running the tools itself: a durable
// workflow whose model calls and tool calls are activities, a client the
// transport interface does not fit. The steps are [Agent.Run]'s, the same
// code: Request, the model call, Reply, the calls' run, Results, until
// Done. The Agent's transport and model hooks are not used.
//
//	s := agent.NewSession(prompt)
//	for !s.Done() {
//		body, err := s.Request(ctx)
//		if err != nil || s.Done() {
//			break // s.Run() has the run so far
//		}
//		turn, err := callModel(ctx, body)
//		calls, err := s.Reply(turn, latency)
//		if len(calls) == 0 {
//			continue // the run ended, or the answer is asked for again
//		}
//		err = s.Results(ctx, runCalls(ctx, calls, s.Refuse))
//	}
//
// A Session's methods must be called in that order; one out of order is
// an error, and changes nothing. A Session is not safe for concurrent use.
// It depends on nothing but its inputs and the Agent's hooks
// (WithPrepareStep, WithStopWhen, WithAnswer's decode), so that it is
// deterministic when they are.
type Session struct {
	r     *agentRunner
	stage sessionStage
}

type sessionStage uint8

const (
	stageRequest sessionStage = iota // Request is next
	stageReply                       // Reply is next
	stageResults                     // Results is next
)

// ErrSessionOrder is the error of a Session method called out of order,
// or after the run has stopped.
var ErrSessionOrder = errors.New("toolnexus: Session: method called out of order")

// NewSession starts a run of a, on the user's prompt, for its caller to
// drive (see [Session]).
func (a *Agent) NewSession(prompt string) *Session {
	r := &agentRunner{a: a, prompt: prompt, out: &AgentRun{}}
	r.append(a.p.Prompt(prompt)...)
	return &Session{r: r}
}

// Request plans the next step (the WithPrepareStep hooks) and returns its
// request body, the provider's JSON, to send. When the run cannot take
// another step (the step limit: ErrMaxSteps; a hook's error; ctx done),
// Request returns the error and the Session is done.
func (s *Session) Request(ctx context.Context) ([]byte, error) {
	if s.stage != stageRequest || s.r.done {
		return nil, ErrSessionOrder
	}
	if ctx == nil {
		ctx = context.Background()
	}
	body, err := s.r.next(ctx)
	if err != nil || s.r.done {
		return nil, err
	}
	s.stage = stageReply
	return body, nil
}

// Refuse answers a call of the step that must not run: one of a tool the
// step did not offer (see [StepPlan]), or of the typed answer's tool. A
// caller that runs the calls itself gives such a call this result instead
// of running it; ok is false for a call to run. Valid from Request to
// Results.
func (s *Session) Refuse(c adapters.Call) (r define.Result, ok bool) {
	return s.r.a.refuse(c.Name, s.r.offer)
}

// Reply takes the model's reply to the last Request, parsed
// (adapters.Turn, from the provider's parser), and the model call's
// latency. It returns the calls to run; none when the run has stopped
// (Done: the model answered, or an error, returned here) or when the
// typed answer is asked for again (the next Request asks).
func (s *Session) Reply(turn adapters.Turn, latency time.Duration) ([]adapters.Call, error) {
	if s.stage != stageReply || s.r.done {
		return nil, ErrSessionOrder
	}
	calls, err := s.r.reply(turn, latency)
	if len(calls) > 0 {
		s.stage = stageResults
	} else {
		s.stage = stageRequest
	}
	return calls, err
}

// Results takes the results of the calls Reply returned, one per call in
// call order (Toolkit.Run's, with Refuse's for the calls not to run). A
// pending result (a call waiting for approval) pauses the run, as
// [Agent.Run] does: Done, with the Run's Pending and State, which
// [Agent.Resume] carries on. A tool past its retry budget stops the run
// with a [*ToolRetryError].
func (s *Session) Results(ctx context.Context, results []define.Result) error {
	if s.stage != stageResults || s.r.done {
		return ErrSessionOrder
	}
	if ctx == nil {
		ctx = context.Background()
	}
	last := s.r.out.Steps[len(s.r.out.Steps)-1]
	if len(results) != len(last.Turn.Calls) {
		return fmt.Errorf("%w: %d results for %d calls", ErrSessionOrder, len(results), len(last.Turn.Calls))
	}
	s.stage = stageRequest
	return s.r.results(ctx, results)
}

// Done reports whether the run has stopped: Run tells why.
func (s *Session) Done() bool { return s.r.done }

// Run returns the run so far (its Stop is set once it stopped without an
// error).
func (s *Session) Run() *AgentRun { return s.r.out }
