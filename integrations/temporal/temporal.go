// Package tntemporal runs a toolkit's tool calls as Temporal activities:
// [Tools.Register] registers one activity per tool with a worker, and
// [Tools.Run], called from a workflow, runs the calls of one model turn
// through them, at most [WithParallelism] at a time, and returns their
// results in call order, as [toolnexus.Toolkit.Run] does in process.
//
// What runs where:
//
//   - in the workflow: each call's tool is found and its arguments are
//     decoded and validated against the tool's schema
//     ([toolnexus.Toolkit.Check]), which is deterministic; a call that
//     fails there gets the error result Toolkit.Run would give it (an
//     unknown tool, bad arguments) and no activity is scheduled;
//   - in the workflow too: the approval gate. A call of a tool that needs
//     approval waits there, its [toolnexus.PendingCall] readable by the
//     query [QueryPending], until a decision arrives by the update
//     [UpdateDecide] (see [Tools.Run]);
//   - in the worker: the call runs through the toolkit's lifecycle, its
//     middleware, handler and observers, as Toolkit.Run runs it (past
//     the approval gate, which the workflow ran); the
//     activity heartbeats while the tool runs, so that a dead worker is
//     seen within the heartbeat timeout and a cancelled workflow cancels
//     the tool's context.
//
// Results cross the workflow's history as [define.Result] JSON: text,
// error flag, value, parts, and the error's kind, so that errors.Is finds
// the root package's sentinels (toolnexus.ErrAbandoned, ErrDenied, ...)
// and context's in a result read back.
//
// A tool is retried (a new attempt after a timeout, a lost worker) only
// when it is idempotent: read-only or idempotent by its
// [define.Annotations], or by [ToolOptions].Idempotent. Any other tool
// runs at most once (its retry policy's MaximumAttempts is 1): a call
// whose attempt ended without a result says that the tool may have run
// and was not run again.
package tntemporal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// DefaultPrefix is what the activity of a tool is named after, followed
// by the tool's name: "toolnexus.tool.search" for the tool "search". The
// names are part of the workflows' histories: they do not change between
// versions of this module.
const DefaultPrefix = "toolnexus.tool."

// Defaults of the activity options of a tool that sets none.
const (
	// DefaultStartToCloseTimeout bounds one attempt of a call.
	DefaultStartToCloseTimeout = 5 * time.Minute
	// DefaultHeartbeatTimeout is how long the server waits for a
	// heartbeat before it takes the attempt as lost (its worker died).
	DefaultHeartbeatTimeout = 30 * time.Second
	// DefaultMaximumAttempts is how many attempts an idempotent tool
	// gets when its retry policy does not say.
	DefaultMaximumAttempts = 3
	// DefaultMaxResultBytes bounds a call's result as stored JSON: the
	// Temporal server refuses a payload past 2 MiB by default
	// (limit.blobSize.error), which would fail the activity with no
	// result the model could read.
	DefaultMaxResultBytes = 2<<20 - 16<<10
	// DefaultParallelism is how many activities of one turn run at once
	// unless [WithParallelism] says otherwise (as toolnexus.Toolkit.Run).
	DefaultParallelism = toolnexus.DefaultParallelism
)

// ToolOptions are the settings of one tool's activity ([WithTool]).
type ToolOptions struct {
	// Activity is the activity options of the tool's calls. Its empty
	// TaskQueue, zero timeouts and nil RetryPolicy take those of
	// [WithActivityOptions], then the package's defaults; its other
	// fields are its own. A tool that is not idempotent gets
	// MaximumAttempts 1 whatever its RetryPolicy says.
	Activity workflow.ActivityOptions
	// Idempotent, when set, says whether the tool may run again after an
	// attempt that may have run it, instead of its annotations
	// ([define.Annotations]: ReadOnly or Idempotent true).
	Idempotent define.Hint
	// ManualHeartbeat says that the tool heartbeats itself, with
	// [Heartbeat], at least once per heartbeat timeout: the worker then
	// does not heartbeat for it, so that a tool that hangs (not only a
	// worker that dies) times out. By default the worker heartbeats
	// while the tool runs.
	ManualHeartbeat bool
}

// Option configures [New].
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	maxResult   int
	prefix      string
	parallelism int
	defaults    workflow.ActivityOptions
	tools       map[string]ToolOptions
}

// WithPrefix names the activities prefix followed by the tool's name,
// instead of [DefaultPrefix], for two toolkits on one worker. The name of
// an activity is recorded in the histories of the workflows that called
// it: change it only with a new workflow version.
func WithPrefix(prefix string) Option {
	return optionFunc(func(c *config) { c.prefix = prefix })
}

// WithParallelism sets how many activities of one [Tools.Run] are
// scheduled at once; n < 1 means [DefaultParallelism]. The calls still
// start in call order.
func WithParallelism(n int) Option {
	return optionFunc(func(c *config) { c.parallelism = n })
}

// WithMaxResultBytes bounds a call's result as stored JSON; a larger
// one is replaced, in the worker, by an error result that gives its
// size (the tool ran: its effects stand). n < 1 means
// [DefaultMaxResultBytes]. Raise it with the server's
// limit.blobSize.error; send large content as a URL part instead.
func WithMaxResultBytes(n int) Option {
	return optionFunc(func(c *config) { c.maxResult = n })
}

// WithActivityOptions sets the activity options of every tool that
// [WithTool] does not set otherwise; zero timeouts take the package's
// defaults ([DefaultStartToCloseTimeout], [DefaultHeartbeatTimeout]) and
// a nil RetryPolicy gives an idempotent tool [DefaultMaximumAttempts].
func WithActivityOptions(o workflow.ActivityOptions) Option {
	return optionFunc(func(c *config) { c.defaults = o })
}

// WithTool sets the options of the tool named name; a later WithTool for
// the same tool replaces an earlier one. A name that is no tool of the
// toolkit is an error of [New].
func WithTool(name string, o ToolOptions) Option {
	return optionFunc(func(c *config) {
		if c.tools == nil {
			c.tools = map[string]ToolOptions{}
		}
		c.tools[name] = o
	})
}

// Tools is a toolkit's tools as Temporal activities. It is immutable after
// [New] and safe for concurrent use, from workflows and from workers.
type Tools struct {
	tk          *toolnexus.Toolkit
	maxResult   int
	prefix      string
	parallelism int
	opts        map[string]workflow.ActivityOptions // each tool's, resolved
	idempotent  map[string]bool
	manual      map[string]bool
	gated       bool // a tool needs approval: Run registers the query and the update
	asks        bool // a tool needs approval by a predicate: Register registers its local activity
}

// New returns the tools of tk as activities. The workflows and the
// workers of an application make it the same way, from toolkits of the
// same tools: the workflow needs the tools' schemas to validate the
// calls, the worker runs them.
func New(tk *toolnexus.Toolkit, opts ...Option) (*Tools, error) {
	if tk == nil {
		return nil, errors.New("tntemporal: New: nil toolkit")
	}
	cfg := config{prefix: DefaultPrefix}
	for _, o := range opts {
		if o != nil {
			o.apply(&cfg)
		}
	}
	if cfg.parallelism < 1 {
		cfg.parallelism = DefaultParallelism
	}
	if cfg.maxResult < 1 {
		cfg.maxResult = DefaultMaxResultBytes
	}
	for name := range cfg.tools {
		if _, ok := tk.Get(name); !ok {
			return nil, fmt.Errorf("tntemporal: New: WithTool(%q): no tool of that name in the toolkit", name)
		}
	}
	t := &Tools{
		tk: tk, prefix: cfg.prefix, parallelism: cfg.parallelism, maxResult: cfg.maxResult,
		opts:       make(map[string]workflow.ActivityOptions, tk.Len()),
		idempotent: make(map[string]bool, tk.Len()),
		manual:     map[string]bool{},
	}
	for _, tool := range tk.Tools() {
		name := tool.Name()
		to := cfg.tools[name]
		idem := idempotentOf(tool.Annotations())
		if v, ok := to.Idempotent.Set(); ok {
			idem = v
		}
		t.idempotent[name] = idem
		if to.ManualHeartbeat {
			t.manual[name] = true
		}
		t.opts[name] = resolve(to.Activity, cfg.defaults, idem)
		switch tk.ApprovalMode(name) {
		case toolnexus.ApprovalAlways:
			t.gated = true
		case toolnexus.ApprovalIf:
			t.gated, t.asks = true, true
		}
	}
	return t, nil
}

// idempotentOf reports whether a tool may run twice on the same
// arguments by its annotations: read-only, or idempotent.
func idempotentOf(a define.Annotations) bool {
	if ro, ok := a.ReadOnly.Set(); ok && ro {
		return true
	}
	idem, ok := a.Idempotent.Set()
	return ok && idem
}

// resolve fills o's unset fields from defaults and the package's, and
// bounds the attempts of a tool that is not idempotent to one.
func resolve(o, defaults workflow.ActivityOptions, idempotent bool) workflow.ActivityOptions {
	if o.TaskQueue == "" {
		o.TaskQueue = defaults.TaskQueue
	}
	if o.ScheduleToCloseTimeout == 0 {
		o.ScheduleToCloseTimeout = defaults.ScheduleToCloseTimeout
	}
	if o.ScheduleToStartTimeout == 0 {
		o.ScheduleToStartTimeout = defaults.ScheduleToStartTimeout
	}
	if o.StartToCloseTimeout == 0 {
		o.StartToCloseTimeout = defaults.StartToCloseTimeout
	}
	if o.StartToCloseTimeout == 0 && o.ScheduleToCloseTimeout == 0 {
		o.StartToCloseTimeout = DefaultStartToCloseTimeout
	}
	if o.HeartbeatTimeout == 0 {
		o.HeartbeatTimeout = defaults.HeartbeatTimeout
	}
	if o.HeartbeatTimeout == 0 {
		o.HeartbeatTimeout = DefaultHeartbeatTimeout
	}
	if o.RetryPolicy == nil {
		o.RetryPolicy = defaults.RetryPolicy
	}
	var rp temporal.RetryPolicy
	if o.RetryPolicy != nil {
		rp = *o.RetryPolicy // a copy: the caller's is not changed
	}
	switch {
	case !idempotent:
		// The only way to never start an attempt after one that may
		// have run the tool: an attempt lost with its worker ends in a
		// timeout, which NonRetryableErrorTypes (application errors'
		// types) does not cover.
		rp.MaximumAttempts = 1
	case rp.MaximumAttempts == 0:
		rp.MaximumAttempts = DefaultMaximumAttempts
	}
	o.RetryPolicy = &rp
	return o
}

// Toolkit returns the toolkit the tools are of.
func (t *Tools) Toolkit() *toolnexus.Toolkit { return t.tk }

// ActivityName returns the name of the activity of the tool named tool:
// the prefix ([DefaultPrefix] or [WithPrefix]) followed by the name.
func (t *Tools) ActivityName(tool string) string { return t.prefix + tool }

// ActivityOptions returns the activity options [Tools.Run] schedules the
// tool's calls with, resolved: its own, the defaults', the package's; and
// false for a name that is no tool of the toolkit. The RetryPolicy is a
// copy.
func (t *Tools) ActivityOptions(tool string) (workflow.ActivityOptions, bool) {
	o, ok := t.opts[tool]
	if ok && o.RetryPolicy != nil {
		rp := *o.RetryPolicy
		o.RetryPolicy = &rp
	}
	return o, ok
}

// Idempotent reports whether the tool's calls may be retried: by its
// annotations, or by [ToolOptions].Idempotent.
func (t *Tools) Idempotent(tool string) bool { return t.idempotent[tool] }

// Register registers one activity per tool with r (a worker.Worker),
// named [Tools.ActivityName]. Its input is the call, as [adapters.Call]
// marshals it (id, name, args), and for a call whose approval the
// workflow decided a note that says so (the worker then runs it past its
// toolkit's approval gate); its output is the call's [define.Result] as
// JSON. When a tool needs approval by a [toolnexus.WithApprovalIf]
// predicate, it also registers the local activity that asks the
// predicates ([NeedsApprovalActivity]).
func (t *Tools) Register(r worker.ActivityRegistry) {
	for _, tool := range t.tk.Tools() {
		name := tool.Name()
		r.RegisterActivityWithOptions(t.activity(name), activity.RegisterOptions{Name: t.ActivityName(name)})
	}
	if t.asks {
		r.RegisterActivityWithOptions(t.needsActivity, activity.RegisterOptions{Name: t.prefix + NeedsApprovalActivity})
	}
}

// storedResult is an activity's output: a define.Result already encoded,
// so that a result that cannot be encoded becomes an error result in the
// worker rather than a failed activity.
type storedResult struct{ json []byte }

func (s storedResult) MarshalJSON() ([]byte, error) {
	if len(s.json) == 0 {
		return []byte("null"), nil
	}
	return s.json, nil
}

func (s *storedResult) UnmarshalJSON(b []byte) error {
	s.json = append([]byte(nil), b...)
	return nil
}

// activity returns the activity of the tool named name.
func (t *Tools) activity(name string) func(ctx context.Context, c adapters.Call, note gateNote) (storedResult, error) {
	manual := t.manual[name]
	return func(ctx context.Context, c adapters.Call, note gateNote) (storedResult, error) {
		if c.Name != name {
			// Scheduled by hand with another tool's call: refused, and
			// not retried.
			return storedResult{}, temporal.NewNonRetryableApplicationError(
				fmt.Sprintf("tntemporal: activity %s got a call of %q", t.ActivityName(name), c.Name), "toolnexus.WrongTool", nil)
		}
		hb := &heartbeat{}
		ctx = context.WithValue(ctx, heartbeatKey{}, hb)
		if !manual {
			stop := hb.keepAlive(ctx, activity.GetInfo(ctx).HeartbeatTimeout)
			defer stop()
		}
		opts := []toolnexus.RunOption{toolnexus.WithParallelism(1)}
		if note.Gate != "" {
			opts = append(opts, toolnexus.WithApprovalDecided())
		}
		res := t.tk.Run(ctx, []adapters.Call{c}, opts...)[0]
		data, err := json.Marshal(res)
		if err == nil && len(data) > t.maxResult {
			err = fmt.Errorf("%d bytes as JSON, more than the %d a result may have (WithMaxResultBytes)", len(data), t.maxResult)
		}
		if err != nil {
			data, err = json.Marshal(define.Result{
				Output: "the tool ran, but its result could not be stored: " + err.Error(), IsError: true,
				Err: fmt.Errorf("tntemporal: tool %s: result not stored: %w", name, err),
			})
			if err != nil {
				return storedResult{}, err
			}
		}
		return storedResult{json: data}, nil
	}
}

// heartbeatKey is the context key of a call's heartbeat state.
type heartbeatKey struct{}

// heartbeat is what a call's activity last reported with [Heartbeat]:
// the worker's own heartbeats repeat it, so that they do not erase it.
type heartbeat struct {
	mu      sync.Mutex
	details []any
}

// keepAlive heartbeats every third of timeout (at least every second
// when timeout is 0, so that a cancellation is seen) until stop is
// called.
func (h *heartbeat) keepAlive(ctx context.Context, timeout time.Duration) (stop func()) {
	every := timeout / 3
	if every <= 0 {
		every = time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			h.mu.Lock()
			d := h.details
			h.mu.Unlock()
			activity.RecordHeartbeat(ctx, d...)
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

// Heartbeat records a long tool's progress when the tool runs as an
// activity: the server then knows its worker is alive, a cancelled
// workflow's cancellation reaches ctx, and details are what
// [HeartbeatDetails] gives the next attempt, if there is one. Outside an
// activity (the toolkit's Run in process) it does nothing, so a tool can
// call it wherever it runs. A tool with [ToolOptions].ManualHeartbeat
// must call it at least once per heartbeat timeout.
func Heartbeat(ctx context.Context, details ...any) {
	if !activity.IsActivity(ctx) {
		return
	}
	if hb, ok := ctx.Value(heartbeatKey{}).(*heartbeat); ok {
		hb.mu.Lock()
		hb.details = details
		hb.mu.Unlock()
	}
	activity.RecordHeartbeat(ctx, details...)
}

// HeartbeatDetails reads into d the details of the last [Heartbeat] of an
// earlier attempt of the same call (an idempotent tool retried after its
// worker died), and reports whether there were any. Outside an activity
// it reports false.
func HeartbeatDetails(ctx context.Context, d ...any) (bool, error) {
	if !activity.IsActivity(ctx) || !activity.HasHeartbeatDetails(ctx) {
		return false, nil
	}
	return true, activity.GetHeartbeatDetails(ctx, d...)
}
