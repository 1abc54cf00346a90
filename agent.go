package toolnexus

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/transport"
)

// Agent runs a whole conversation with a model: it sends the request,
// runs the tool calls of each reply through its Toolkit, sends their
// results back, and goes on until the run stops (see [StopReason]). It
// builds each request body itself ([adapters.NewBody]) and sends it
// through a [transport.Transport]: a provider's endpoint on net/http
// (package transport), an SDK client, or a test double.
//
// A step is one model call and the run of its tool calls. What stops a
// run:
//
//   - the model answers without calling a tool ([StopDone]); with
//     [WithAnswer], its answer decodes as the answer's type, and an answer
//     that does not is asked for again, up to [WithAnswerRetries] times;
//   - a tool named by [WithStopAtTool] was called and has run ([StopTool]);
//   - a [WithStopWhen] predicate says so after a step ([StopWhen]);
//   - a call needs approval ([StopPending]): the run pauses, and
//     [Agent.Resume] carries on from its [AgentRun.State], in this
//     process or another;
//   - the step limit ([WithMaxSteps]) is reached: an error wrapping
//     [ErrMaxSteps];
//   - a tool fails more times in a row than its retry budget allows
//     ([WithToolRetries]): a [*ToolRetryError] naming the tool and its last
//     error;
//   - the model refuses, is cut off, or the transport fails: that error.
//
// Every return gives the run so far ([AgentRun]: its steps, its usage,
// its history), with the error when there is one. An Agent holds no run's
// state: it is safe for concurrent use, and one Agent serves many runs.
type Agent struct {
	p     adapters.Provider
	tk    *Toolkit
	model string
	cfg   agentConfig
	// answerTool is the answer's tool when the answer is asked for as a
	// forced tool call (adapters.AnswerTool, or a server without a JSON
	// Schema format); zero otherwise.
	answerTool define.Tool
}

// The defaults of an Agent's limits.
const (
	DefaultMaxSteps      = 20       // model calls in one run ([WithMaxSteps])
	DefaultToolRetries   = 3        // failed calls of one tool in a row ([WithToolRetries])
	DefaultAnswerRetries = 2        // typed answers asked for again ([WithAnswerRetries])
	DefaultMaxStateBytes = 64 << 20 // a paused run's state ([WithMaxStateBytes])
)

// ErrMaxSteps is wrapped by the error of a run that reached its step
// limit ([WithMaxSteps]) without an answer.
var ErrMaxSteps = errors.New("the run reached its step limit")

// ErrStateTooLarge is wrapped by the error of a paused run whose state is
// larger than [WithMaxStateBytes], and of a Resume given such a state.
var ErrStateTooLarge = errors.New("the run's state is too large")

// ToolRetryError is the error of a run stopped because one tool failed
// more times in a row than its retry budget allows ([WithToolRetries]).
type ToolRetryError struct {
	Tool     string // the tool's name, as the model called it
	Failures int    // its failed calls in a row
	Err      error  // the last one's error
}

func (e *ToolRetryError) Error() string {
	return fmt.Sprintf("toolnexus: Agent: tool %q failed %d times in a row, more than its retry budget: %v", e.Tool, e.Failures, e.Err)
}

// Unwrap returns the last failure's error.
func (e *ToolRetryError) Unwrap() error { return e.Err }

// StopReason says why a run returned without an error.
type StopReason string

const (
	// StopDone: the model answered without calling a tool (with
	// WithAnswer: its typed answer decoded).
	StopDone StopReason = "done"
	// StopTool: a tool named by WithStopAtTool was called and has run.
	StopTool StopReason = "tool"
	// StopWhen: a WithStopWhen predicate stopped the run.
	StopWhen StopReason = "stop_when"
	// StopPending: calls wait for approval; Resume the run's State.
	StopPending StopReason = "pending"
)

// AgentRun is a run as far as it went: what [Agent.Run], [Agent.RunStream]
// and [Agent.Resume] return.
type AgentRun struct {
	// Stop says why the run stopped; "" when it ended in an error.
	Stop StopReason
	// Text is the last reply's text.
	Text string
	// Answer is the typed answer ([WithAnswer]): a value of the answer's
	// type T, decoded from the last reply; nil without one.
	Answer any
	// Steps are the steps this call of Run, RunStream or Resume took, in
	// order. A Resume's first step is the paused step, completed: its Turn
	// holds only the calls, its Results all of them.
	Steps []Step
	// Usage is the token usage summed over every model call of the run,
	// the steps before a pause included. A count is known
	// (adapters.Usage.Has) when every reply reported it; Raw is nil.
	Usage adapters.Usage
	// History is the conversation's entries, the prompt first: what the
	// next request would carry. A resumed run's entries from before the
	// pause are json.RawMessage values.
	History []any
	// Pending are the calls waiting for approval, when Stop is
	// StopPending: show them, and pass the decisions to Agent.Resume.
	Pending []PendingCall
	// State is the paused run, when Stop is StopPending: plain JSON
	// (versioned, no function values, at most WithMaxStateBytes), to
	// store until the decisions come and give to Agent.Resume, in this
	// process or another with an Agent made the same way.
	State []byte
}

// Step is one model call of a run and the run of its tool calls.
type Step struct {
	// Index is the step's position in the run, from 0 (counting the
	// steps before a pause).
	Index int
	// Turn is the model's reply.
	Turn adapters.Turn
	// Results are the results of Turn.Calls, one per call in call order;
	// nil when the step ran none (a final answer).
	Results []define.Result
	// Latency is the model call's time, from the request to the end of
	// its reply (0 for a resumed step).
	Latency time.Duration
}

// StepPlan is what the next step's request offers: [WithPrepareStep]'s
// hooks may change it.
type StepPlan struct {
	// Step is the step's position in the run, from 0.
	Step int
	// Prompt is the run's prompt: the user's message.
	Prompt string
	// Tools are the tools the request carries: every tool of the toolkit
	// unless a hook chose fewer. A call of a tool not offered is answered
	// with an unknown-tool error and does not run.
	Tools []define.Tool
	// Choice is the request's tool choice; nil for the provider's
	// default. Its Allowed names narrow the tools the model may call (and
	// that run) this step; ChoiceNone lets it call none.
	Choice *adapters.Choice
}

// ModelCall is one model call of a run, as a [ModelHook] sees it.
type ModelCall struct {
	Step     int               // the step's position in the run
	Provider adapters.Provider // the agent's provider
	Model    string            // the model's name
	Body     []byte            // the request body; read it, never keep or change it
}

// ModelEvent is what a model call gave, for a [ModelHook]'s end.
type ModelEvent struct {
	Step    int
	Model   string
	Turn    adapters.Turn // the zero Turn when Err is set
	Latency time.Duration // from the request to the end of the reply
	Err     error
}

// ModelHook runs around each model call of an Agent's run: it is called
// before the request with the call, and returns the context for the
// request and for the tool calls of its reply (a tracing span's, for
// example: package tnotel's Tracer.ModelHook makes each step's
// execute_tool spans children of its chat span) and a function called
// once the reply has been read, or has failed.
type ModelHook func(ctx context.Context, c ModelCall) (context.Context, func(ModelEvent))

// AgentOption configures an [Agent]: see [NewAgent].
type AgentOption interface {
	applyAgent(*agentConfig)
}

type agentOption func(*agentConfig)

func (o agentOption) applyAgent(c *agentConfig) { o(c) }

type agentConfig struct {
	tr             transport.Transport
	req            adapters.Request
	maxSteps       int
	stopWhen       []func(*Step) bool
	stopAt         map[string]bool
	prepare        []func(context.Context, *StepPlan) error
	answer         define.AnyAnswer
	decode         func(adapters.Provider, adapters.Turn) (any, error)
	answerRetries  int
	toolRetries    int
	toolRetriesFor map[string]int
	hooks          []ModelHook
	runOpts        []RunOption
	maxState       int
	errs           []error
}

// WithTransport sets where an Agent sends its requests: required.
func WithTransport(t transport.Transport) AgentOption {
	return agentOption(func(c *agentConfig) { c.tr = t })
}

// WithSystem sets the system prompt of every request.
func WithSystem(prompt string) AgentOption {
	return agentOption(func(c *agentConfig) { c.req.System = prompt })
}

// WithRequest sets the requests' other members: MaxTokens, Temperature,
// ParallelToolCalls, the prompt-cache breakpoints, Extra (see
// [adapters.Request]; the System of r replaces WithSystem's when set).
// The members the Agent sets itself must be zero in r: Model
// (NewAgent's), Tools and Choice ([WithPrepareStep]), Answer
// ([WithAnswer]) and Stream ([Agent.RunStream]).
func WithRequest(r adapters.Request) AgentOption {
	return agentOption(func(c *agentConfig) {
		switch {
		case r.Model != "":
			c.errs = append(c.errs, errors.New("WithRequest: Request.Model: the model is NewAgent's"))
		case r.Tools != nil:
			c.errs = append(c.errs, errors.New("WithRequest: Request.Tools: the tools are the toolkit's (WithPrepareStep chooses per step)"))
		case r.Choice != nil:
			c.errs = append(c.errs, errors.New("WithRequest: Request.Choice: set it per step with WithPrepareStep"))
		case r.Answer != nil:
			c.errs = append(c.errs, errors.New("WithRequest: Request.Answer: use WithAnswer"))
		case r.Stream:
			c.errs = append(c.errs, errors.New("WithRequest: Request.Stream: use Agent.RunStream"))
		}
		system := c.req.System
		c.req = r
		if r.System == "" {
			c.req.System = system
		}
	})
}

// WithMaxSteps bounds the model calls of one run, the steps before a
// pause included (DefaultMaxSteps; n < 1 is 1). A run that reaches it
// without an answer returns an error wrapping [ErrMaxSteps].
func WithMaxSteps(n int) AgentOption {
	return agentOption(func(c *agentConfig) { c.maxSteps = max(n, 1) })
}

// WithStopWhen stops the run after a step for which stop returns true,
// once the step's results are in the history (with [StopWhen]).
func WithStopWhen(stop func(s *Step) bool) AgentOption {
	return agentOption(func(c *agentConfig) {
		if stop != nil {
			c.stopWhen = append(c.stopWhen, stop)
		}
	})
}

// WithStopAtTool stops the run once a call of one of the tools named has
// run (with [StopTool]): its result is the last step's. The tools must
// be the toolkit's.
func WithStopAtTool(tools ...string) AgentOption {
	return agentOption(func(c *agentConfig) {
		if c.stopAt == nil {
			c.stopAt = map[string]bool{}
		}
		for _, t := range tools {
			c.stopAt[t] = true
		}
	})
}

// WithPrepareStep adds a hook called before each step's request, which
// may change the tools it offers and its tool choice (tools found by
// package toolsearch for the prompt, a choice that forces a first call,
// ...). An error from it stops the run with that error.
func WithPrepareStep(prepare func(ctx context.Context, plan *StepPlan) error) AgentOption {
	return agentOption(func(c *agentConfig) {
		if prepare != nil {
			c.prepare = append(c.prepare, prepare)
		}
	})
}

// WithAnswer asks for the typed answer a: every request carries its
// response format ([adapters.ResponseFormat]), or offers it as a tool
// the model must end with when the provider takes it so
// ([adapters.AnswerTool]: the tool choice is then ChoiceRequired, unless
// a WithPrepareStep hook sets another). The run ends when a reply's
// answer decodes ([adapters.DecodeAnswer]): [AgentRun.Answer] holds the T.
// An answer that is not a T, or a reply without one, is asked for again
// ([adapters.RetryAnswer]) up to [WithAnswerRetries] times; a refusal or
// a cut answer ends the run with its error.
func WithAnswer[T any](a define.Answer[T]) AgentOption {
	return agentOption(func(c *agentConfig) {
		c.answer = a
		c.decode = func(p adapters.Provider, turn adapters.Turn) (any, error) {
			return adapters.DecodeAnswer(p, a, turn)
		}
	})
}

// WithAnswerRetries sets how many times a run asks again for a typed
// answer that did not decode (DefaultAnswerRetries; n < 0 is 0).
func WithAnswerRetries(n int) AgentOption {
	return agentOption(func(c *agentConfig) { c.answerRetries = max(n, 0) })
}

// WithToolRetries sets the retry budget of the tools named, or of every
// tool when none is named (DefaultToolRetries; n < 0 is 0): how many
// failed calls in a row (bad arguments, an unknown name, the tool's
// error, panic or timeout) a tool may have, each answered to the model so
// that it corrects itself. The next failure stops the run with a
// [*ToolRetryError]. A call that succeeds starts the count again; a
// denied call is not a failure.
func WithToolRetries(n int, tools ...string) AgentOption {
	return agentOption(func(c *agentConfig) {
		n = max(n, 0)
		if len(tools) == 0 {
			c.toolRetries = n
			return
		}
		if c.toolRetriesFor == nil {
			c.toolRetriesFor = map[string]int{}
		}
		for _, t := range tools {
			c.toolRetriesFor[t] = n
		}
	})
}

// WithModelHook adds h around every model call (see [ModelHook]); hooks
// run in the order given, each inside the ones before.
func WithModelHook(h ModelHook) AgentOption {
	return agentOption(func(c *agentConfig) {
		if h != nil {
			c.hooks = append(c.hooks, h)
		}
	})
}

// WithModelObserver calls observe after every model call with what it
// gave: its step, reply (and so its usage), latency and error.
func WithModelObserver(observe func(ctx context.Context, e ModelEvent)) AgentOption {
	if observe == nil {
		return agentOption(func(*agentConfig) {})
	}
	return WithModelHook(func(ctx context.Context, _ ModelCall) (context.Context, func(ModelEvent)) {
		return ctx, func(e ModelEvent) { observe(ctx, e) }
	})
}

// WithRunOptions sets the options of each step's [Toolkit.Run] (or
// RunStream, or Resume): WithParallelism, WithCallTimeout, WithEarlyStart.
// The Agent adds WithProvider with its provider.
func WithRunOptions(opts ...RunOption) AgentOption {
	return agentOption(func(c *agentConfig) { c.runOpts = append(c.runOpts, opts...) })
}

// WithMaxStateBytes bounds a paused run's state, which Resume reads
// from storage and may get from anyone (DefaultMaxStateBytes).
func WithMaxStateBytes(n int) AgentOption {
	return agentOption(func(c *agentConfig) { c.maxState = max(n, 1) })
}

// NewAgent returns an Agent that runs tk's tools for model, through p's
// wire format and the transport given by [WithTransport]. The options
// set the requests (WithSystem, WithRequest, WithPrepareStep), the typed
// answer (WithAnswer, WithAnswerRetries), the limits (WithMaxSteps,
// WithToolRetries, WithMaxStateBytes), the stops (WithStopAtTool,
// WithStopWhen), the steps' observers (WithModelHook,
// WithModelObserver) and the tool runs' options (WithRunOptions). What
// the provider cannot send (a request member, the answer's format) is an
// error here, not at the first step.
func NewAgent(p adapters.Provider, tk *Toolkit, model string, opts ...AgentOption) (*Agent, error) {
	a := &Agent{p: p, tk: tk, model: model}
	a.cfg.maxSteps, a.cfg.toolRetries, a.cfg.answerRetries, a.cfg.maxState =
		DefaultMaxSteps, DefaultToolRetries, DefaultAnswerRetries, DefaultMaxStateBytes
	for _, o := range opts {
		if o != nil {
			o.applyAgent(&a.cfg)
		}
	}
	switch {
	case p == nil:
		return nil, errors.New("toolnexus: NewAgent: no provider (nil)")
	case tk == nil:
		return nil, errors.New("toolnexus: NewAgent: no toolkit (nil)")
	case a.cfg.tr == nil:
		return nil, errors.New("toolnexus: NewAgent: no transport: give one with WithTransport")
	case len(a.cfg.errs) > 0:
		return nil, fmt.Errorf("toolnexus: NewAgent: %w", errors.Join(a.cfg.errs...))
	}
	for t := range a.cfg.stopAt {
		if _, ok := tk.Get(t); !ok {
			return nil, fmt.Errorf("toolnexus: NewAgent: WithStopAtTool: %q is no tool of the toolkit", t)
		}
	}
	for t := range a.cfg.toolRetriesFor {
		if _, ok := tk.Get(t); !ok {
			return nil, fmt.Errorf("toolnexus: NewAgent: WithToolRetries: %q is no tool of the toolkit", t)
		}
	}
	if a.cfg.answer != nil {
		ar, err := adapters.ResponseFormat(p, a.cfg.answer)
		if err != nil {
			return nil, fmt.Errorf("toolnexus: NewAgent: WithAnswer: %w", err)
		}
		if ar.Tool.Name() != "" {
			if _, ok := tk.Get(ar.Tool.Name()); ok {
				return nil, fmt.Errorf("toolnexus: NewAgent: WithAnswer: the answer's tool %q has the name of a tool of the toolkit", ar.Tool.Name())
			}
			a.answerTool = ar.Tool
		}
	}
	plan := StepPlan{Tools: tk.Tools()}
	if _, err := adapters.NewBody(p, a.request(&plan)); err != nil {
		return nil, fmt.Errorf("toolnexus: NewAgent: %w", err)
	}
	return a, nil
}

// request is the request of a step planned so.
func (a *Agent) request(plan *StepPlan) adapters.Request {
	r := a.cfg.req
	r.Model, r.Tools, r.Choice = a.model, plan.Tools, plan.Choice
	switch {
	case a.answerTool.Name() != "":
		r.Tools = append(r.Tools[:len(r.Tools):len(r.Tools)], a.answerTool)
		if r.Choice == nil {
			r.Choice = &adapters.Choice{Mode: adapters.ChoiceRequired}
		} else if len(r.Choice.Allowed) > 0 {
			c := *r.Choice
			c.Allowed = append(c.Allowed[:len(c.Allowed):len(c.Allowed)], a.answerTool.Name())
			r.Choice = &c
		}
	case a.cfg.answer != nil:
		r.Answer = a.cfg.answer
	}
	return r
}

// Provider returns the Agent's provider.
func (a *Agent) Provider() adapters.Provider { return a.p }

// Toolkit returns the Agent's toolkit.
func (a *Agent) Toolkit() *Toolkit { return a.tk }

// Model returns the Agent's model name.
func (a *Agent) Model() string { return a.model }

// Transport returns the Agent's transport (WithTransport).
func (a *Agent) Transport() transport.Transport { return a.cfg.tr }

// Run runs a conversation that starts with the user's prompt, step by
// step, until it stops (see [Agent]); each reply is read whole.
func (a *Agent) Run(ctx context.Context, prompt string) (*AgentRun, error) {
	return a.start(ctx, prompt, nil)
}

// RunStream is [Agent.Run] with every reply streamed: hooks see each
// step's text and calls as they arrive, and each call starts as soon as
// the stream completes it (as [Toolkit.RunStream] starts them; see
// WithEarlyStart in [WithRunOptions]). A call started early has run even
// if the step then ends the run (a reply that also holds the typed
// answer's call).
func (a *Agent) RunStream(ctx context.Context, prompt string, hooks adapters.StreamHooks) (*AgentRun, error) {
	return a.start(ctx, prompt, &hooks)
}

func (a *Agent) start(ctx context.Context, prompt string, hooks *adapters.StreamHooks) (*AgentRun, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	r := &agentRunner{a: a, prompt: prompt, hooks: hooks, out: &AgentRun{}}
	r.append(a.p.Prompt(prompt)...)
	return r.loop(ctx)
}

// agentRunner is one run's state while it runs.
type agentRunner struct {
	a      *Agent
	prompt string
	hooks  *adapters.StreamHooks // nil: whole replies
	out    *AgentRun
	body   *adapters.Body // nil until the first step's request
	sent   int            // the entries of out.History in body
	// tools and choice are the body's: the plan of its last request
	tools  []define.Tool
	choice *adapters.Choice
	opts   []RunOption // the tool runs' options when every tool is offered
	steps  int         // model calls of the run, before a pause too
	// failures counts each tool's failed calls in a row.
	failures    map[string]int
	answerTries int
	offer       map[string]bool // the tools the step offers; nil for all
	done        bool            // the run has stopped
}

func (r *agentRunner) append(entries ...any) {
	r.out.History = append(r.out.History, entries...)
}

// loop takes steps until the run stops: the steps of a Session, with
// the model called through the Agent's transport and hooks, and the calls
// run by its toolkit (as the stream completes them, when streamed).
func (r *agentRunner) loop(ctx context.Context) (*AgentRun, error) {
	a := r.a
	for {
		body, err := r.next(ctx)
		if err != nil || r.done {
			return r.out, err
		}
		opts := r.runOptions(r.offer)
		mctx, end := r.startModel(ctx, body)
		t0 := time.Now()
		var turn adapters.Turn
		var results []define.Result
		if r.hooks == nil {
			turn, err = a.cfg.tr.Send(mctx, body)
		} else {
			turn, results, err = a.tk.runFed(mctx, *r.hooks, opts, func(h adapters.StreamHooks) (adapters.Turn, error) {
				return a.cfg.tr.Stream(mctx, body, h)
			})
		}
		latency := time.Since(t0)
		end(ModelEvent{Step: r.steps, Model: a.model, Turn: turn, Latency: latency, Err: err})
		if err != nil {
			r.done = true
			return r.out, fmt.Errorf("toolnexus: Agent: step %d: %w", r.steps, err)
		}
		calls, err := r.reply(turn, latency)
		if err != nil || r.done {
			return r.out, err
		}
		if len(calls) == 0 {
			continue // the answer asked for again
		}
		if results == nil {
			results = a.tk.Run(mctx, calls, opts...)
		}
		if err := r.results(ctx, results); err != nil || r.done {
			return r.out, err
		}
	}
}

// next plans the next step and returns its request body; r.done when the
// run has stopped (an error, or the step limit).
func (r *agentRunner) next(ctx context.Context) ([]byte, error) {
	a := r.a
	if err := ctx.Err(); err != nil {
		r.done = true
		return nil, err
	}
	if r.steps >= a.cfg.maxSteps {
		r.done = true
		return nil, fmt.Errorf("toolnexus: Agent: %w (%d steps)", ErrMaxSteps, a.cfg.maxSteps)
	}
	plan := StepPlan{Step: r.steps, Prompt: r.prompt, Tools: a.tk.tools}
	if len(a.cfg.prepare) > 0 {
		plan.Tools = a.tk.Tools() // the hooks' to change
	}
	for _, f := range a.cfg.prepare {
		if err := f(ctx, &plan); err != nil {
			r.done = true
			return nil, fmt.Errorf("toolnexus: Agent: step %d: prepare: %w", r.steps, err)
		}
	}
	body, err := r.request(&plan)
	if err != nil {
		r.done = true
		return nil, fmt.Errorf("toolnexus: Agent: step %d: %w", r.steps, err)
	}
	r.offer = r.offered(&plan)
	return body, nil
}

// reply takes the model's turn of the step: it returns the calls to run,
// none when the run stopped (r.done) or the answer is asked for again.
func (r *agentRunner) reply(turn adapters.Turn, latency time.Duration) ([]adapters.Call, error) {
	step := Step{Index: r.steps, Turn: turn, Latency: latency}
	r.steps++
	r.addUsage(turn.Usage)
	r.out.Text = turn.Text
	r.append(turn.Replay...)
	if r.a.cfg.decode != nil {
		done, again, err := r.answer(&step)
		if done || err != nil {
			r.done = true
			return nil, err
		}
		if again {
			return nil, nil
		}
	}
	if len(turn.Calls) == 0 {
		r.out.Steps = append(r.out.Steps, step)
		r.out.Stop = StopDone
		r.done = true
		return nil, nil
	}
	r.out.Steps = append(r.out.Steps, step)
	return turn.Calls, nil
}

// results takes the results of the last step's calls; r.done when the
// run stopped.
func (r *agentRunner) results(ctx context.Context, results []define.Result) error {
	last := &r.out.Steps[len(r.out.Steps)-1]
	last.Results = results
	if stop, err := r.afterCalls(ctx, last.Turn.Calls, results); stop || err != nil {
		r.done = true
		return err
	}
	for _, f := range r.a.cfg.stopWhen {
		if f(last) {
			r.out.Stop = StopWhen
			r.done = true
			return nil
		}
	}
	return nil
}

// request returns the body of the step planned so.
func (r *agentRunner) request(plan *StepPlan) ([]byte, error) {
	switch {
	case r.body == nil:
		b, err := adapters.NewBody(r.a.p, r.a.request(plan))
		if err != nil {
			return nil, err
		}
		r.body = b
	case !slices.Equal(plan.Tools, r.tools) || !sameChoice(plan.Choice, r.choice):
		// the request's members change: rendered again (the tools, the
		// choice); else the body's are the step before's
		if err := r.body.SetRequest(r.a.request(plan)); err != nil {
			return nil, err
		}
	}
	r.tools = plan.Tools
	r.choice = nil
	if plan.Choice != nil {
		c := *plan.Choice
		c.Allowed = slices.Clone(c.Allowed)
		r.choice = &c
	}
	if err := r.body.Append(r.out.History[r.sent:]...); err != nil {
		return nil, err
	}
	r.sent = len(r.out.History)
	return r.body.Bytes(), nil
}

// offered returns the names of the tools the model may call this step;
// nil when it may call any tool of the toolkit.
func (r *agentRunner) offered(plan *StepPlan) map[string]bool {
	tk := r.a.tk
	if plan.Choice == nil || plan.Choice.Mode != adapters.ChoiceNone && len(plan.Choice.Allowed) == 0 {
		if slices.Equal(plan.Tools, tk.tools) {
			return nil
		}
	}
	set := make(map[string]bool, len(plan.Tools))
	if plan.Choice != nil && plan.Choice.Mode == adapters.ChoiceNone {
		return set
	}
	for _, t := range plan.Tools {
		set[t.Name()] = true
	}
	if plan.Choice != nil && len(plan.Choice.Allowed) > 0 {
		allowed := make(map[string]bool, len(plan.Choice.Allowed))
		for _, n := range plan.Choice.Allowed {
			if set[n] {
				allowed[n] = true
			}
		}
		set = allowed
	}
	return set
}

// sameChoice reports whether a and b are the same tool choice.
func sameChoice(a, b *adapters.Choice) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Mode == b.Mode && slices.Equal(a.Allowed, b.Allowed)
}

// runOptions are the options of a step's tool runs: the Agent's, its
// provider, and the refusal of the calls of tools not offered (and of the
// answer's tool, which is not the toolkit's to run).
func (r *agentRunner) runOptions(offered map[string]bool) []RunOption {
	a := r.a
	answer := a.answerTool.Name()
	if offered == nil && answer == "" && r.opts != nil {
		return r.opts
	}
	opts := make([]RunOption, 0, len(a.cfg.runOpts)+2)
	opts = append(opts, a.cfg.runOpts...)
	opts = append(opts, WithProvider(a.p))
	if offered == nil && answer == "" {
		r.opts = opts
		return opts
	}
	return append(opts, runOption(func(c *runConfig) {
		c.refuse = func(call *adapters.Call) (define.Result, bool) { return a.refuse(call.Name, offered) }
	}))
}

// refuse answers a call of the tool named name that must not run at a
// step offering the tools offered (nil for all): one of a tool not
// offered, or of the typed answer's tool; ok is false for a call to run.
func (a *Agent) refuse(name string, offered map[string]bool) (r define.Result, ok bool) {
	if answer := a.answerTool.Name(); answer != "" && name == answer {
		return answerNotRun(answer), true
	}
	if offered == nil || offered[name] {
		return define.Result{}, false
	}
	return a.tk.notOffered(name, offered), true
}

// answerNotRun is the result of a call of the typed answer's tool, which
// is not the toolkit's to run.
func answerNotRun(answer string) define.Result {
	err := fmt.Errorf("the answer's tool %q is not run: its arguments are the answer", answer)
	return define.Result{Output: err.Error(), IsError: true, Err: err}
}

// notOffered is the result of a call of a tool not offered this step: an
// unknown tool's, naming the tools offered.
func (tk *Toolkit) notOffered(name string, offered map[string]bool) define.Result {
	err := &UnknownToolError{Name: cutName(name, tk.cfg.maxEchoedName), NameLen: len(name)}
	for _, n := range tk.names { // the toolkit's order
		if !offered[n] {
			continue
		}
		if len(err.Closest) < tk.cfg.closestNames {
			err.Closest = append(err.Closest, n)
		} else {
			err.More++
		}
	}
	return define.Result{Output: err.Error(), IsError: true, Err: err}
}

// startModel runs the model hooks before a model call.
func (r *agentRunner) startModel(ctx context.Context, body []byte) (context.Context, func(ModelEvent)) {
	hooks := r.a.cfg.hooks
	if len(hooks) == 0 {
		return ctx, func(ModelEvent) {}
	}
	ends := make([]func(ModelEvent), 0, len(hooks))
	c := ModelCall{Step: r.steps, Provider: r.a.p, Model: r.a.model, Body: body}
	for _, h := range hooks {
		var end func(ModelEvent)
		ctx, end = h(ctx, c)
		if end != nil {
			ends = append(ends, end)
		}
	}
	return ctx, func(e ModelEvent) {
		for i := len(ends) - 1; i >= 0; i-- {
			ends[i](e)
		}
	}
}

// addUsage adds a reply's usage to the run's: a count stays known while
// every reply gave it.
func (r *agentRunner) addUsage(u adapters.Usage) {
	t := &r.out.Usage
	if r.steps == 1 {
		*t = u
		t.Raw, t.RawOmitted = nil, 0
		return
	}
	t.Input += u.Input
	t.Output += u.Output
	t.CacheRead += u.CacheRead
	t.CacheWrite += u.CacheWrite
	t.Reasoning += u.Reasoning
	t.Known &= u.Known
}

// answer reads the typed answer of the step's turn. done says the run
// ended (the answer decoded, or err), again that the answer was asked for
// again; neither, that the turn's calls are to run.
func (r *agentRunner) answer(step *Step) (done, again bool, err error) {
	a := r.a
	turn := step.Turn
	if len(turn.Calls) > 0 {
		name := a.answerTool.Name()
		found := false
		for i := range turn.Calls {
			if name != "" && turn.Calls[i].Name == name {
				found = true
				break
			}
		}
		if !found {
			return false, false, nil // the tools first
		}
	}
	v, derr := a.cfg.decode(a.p, turn)
	if derr == nil {
		r.out.Steps = append(r.out.Steps, *step)
		r.out.Answer, r.out.Stop = v, StopDone
		return true, false, nil
	}
	var argErrs *define.ArgErrors
	if !errors.As(derr, &argErrs) && !errors.Is(derr, adapters.ErrNoAnswer) {
		r.out.Steps = append(r.out.Steps, *step)
		return true, false, fmt.Errorf("toolnexus: Agent: step %d: %w", step.Index, derr)
	}
	if r.answerTries >= a.cfg.answerRetries {
		r.out.Steps = append(r.out.Steps, *step)
		return true, false, fmt.Errorf("toolnexus: Agent: step %d: the answer failed after %d retries: %w", step.Index, r.answerTries, derr)
	}
	entries, rerr := adapters.RetryAnswer(a.p, a.cfg.answer, turn, derr)
	if rerr != nil {
		r.out.Steps = append(r.out.Steps, *step)
		return true, false, fmt.Errorf("toolnexus: Agent: step %d: %w", step.Index, derr)
	}
	r.answerTries++
	r.out.Steps = append(r.out.Steps, *step)
	r.append(entries...)
	return false, true, nil
}

// afterCalls follows the results of a step's calls: it pauses the run
// for the calls that wait for approval, counts the failures against the
// tools' budgets, sends the results, and stops at a WithStopAtTool tool.
func (r *agentRunner) afterCalls(ctx context.Context, calls []adapters.Call, results []define.Result) (stop bool, err error) {
	a := r.a
	if pending := PendingCalls(results); len(pending) > 0 {
		return true, r.pause(calls, results, pending)
	}
	budgetErr := r.count(calls, results)
	entries, err := a.p.Results(calls, results)
	if err != nil {
		return true, fmt.Errorf("toolnexus: Agent: step %d: results: %w", r.steps-1, err)
	}
	r.append(entries...)
	if budgetErr != nil {
		return true, budgetErr
	}
	if err := ctx.Err(); err != nil {
		return true, err
	}
	for i := range calls {
		if a.cfg.stopAt[calls[i].Name] && OutcomeOf(results[i]) == OutcomeOK {
			r.out.Stop = StopTool
			return true, nil
		}
	}
	return false, nil
}

// count counts each call's failure against its tool's budget: the error
// of the first tool past it.
func (r *agentRunner) count(calls []adapters.Call, results []define.Result) error {
	var over error
	for i := range results {
		name := calls[i].Name
		switch OutcomeOf(results[i]) {
		case OutcomeOK:
			delete(r.failures, name)
		case OutcomeBadArguments, OutcomeUnknownTool, OutcomeToolError, OutcomePanic, OutcomeTimeout:
			if r.failures == nil {
				r.failures = map[string]int{}
			}
			r.failures[name]++
			budget := r.a.cfg.toolRetries
			if b, ok := r.a.cfg.toolRetriesFor[name]; ok {
				budget = b
			}
			if n := r.failures[name]; n > budget && over == nil {
				err := results[i].Err
				if err == nil {
					err = errors.New(results[i].Output)
				}
				over = &ToolRetryError{Tool: name, Failures: n, Err: err}
			}
		}
	}
	return over
}
