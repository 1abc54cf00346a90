package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// DefaultParallelism is how many calls [Toolkit.Run] runs at once unless
// [WithParallelism] says otherwise.
const DefaultParallelism = 8

// ErrAbandoned is wrapped by the Err of the result of a call that was still
// running when its context was done (cancelled, past its deadline, or past
// [WithCallTimeout]); the context's error is wrapped too.
var ErrAbandoned = errors.New("tool call abandoned")

// ErrSlotsHeld is wrapped by the Err of the result of a call that was not
// started because every slot of the batch ([WithParallelism]) was held by
// an abandoned call whose tool had not returned.
var ErrSlotsHeld = errors.New("every slot is held by an abandoned call")

// ErrToolExited is wrapped by the Err of the result of a call whose tool
// ended its goroutine without returning (runtime.Goexit, as t.FailNow
// does), so that it gave no result.
var ErrToolExited = errors.New("tool exited without returning")

// RunOption configures [Toolkit.Run], [Toolkit.RunStream] and
// [Toolkit.Resume]. The set is sealed: make options with
// [WithParallelism], [WithCallTimeout], [WithEarlyStart], [WithProvider]
// and [WithApprovalDecided].
type RunOption interface {
	applyRun(*runConfig)
}

// runConfig is what the options of one Run, RunStream or Resume set.
type runConfig struct {
	parallelism int
	callTimeout time.Duration
	early       EarlyStart
	rendering   adapters.Rendering // WithProvider's, for calls that carry none
	decided     bool               // WithApprovalDecided: no approval gate
	// refuse, when set, answers a call before it runs: an Agent's call of
	// a tool its step does not offer. Only the package sets it.
	refuse func(c *adapters.Call) (define.Result, bool)
}

// read applies opts to c, then the defaults: the one place where the
// options are read, for Run, RunStream, Resume and [RunSettings].
func (c *runConfig) read(opts []RunOption) {
	for _, o := range opts {
		if o != nil {
			o.applyRun(c)
		}
	}
	c.defaults()
}

// defaults gives what opts left unset or out of range its default.
func (c *runConfig) defaults() {
	if c.parallelism < 1 {
		c.parallelism = DefaultParallelism
	}
	if c.callTimeout < 0 {
		c.callTimeout = 0
	}
	if c.early > EarlyStartNone {
		c.early = EarlyStartNone
	}
}

type runOption func(*runConfig)

func (o runOption) applyRun(c *runConfig) { o(c) }

// WithParallelism sets how many calls of one batch run at once; n < 1
// means [DefaultParallelism]. WithParallelism(1) runs the calls one after
// another, in order.
func WithParallelism(n int) RunOption {
	return runOption(func(c *runConfig) { c.parallelism = n })
}

// WithCallTimeout bounds each call: its context is done after d, and if the
// tool has not returned by then its result is an error wrapping
// [ErrAbandoned] and [context.DeadlineExceeded]. d <= 0 means no bound
// beyond the context given to Run.
func WithCallTimeout(d time.Duration) RunOption {
	return runOption(func(c *runConfig) { c.callTimeout = d })
}

// RunSettings reports what opts set, as [Toolkit.Run] reads them: the
// parallelism ([DefaultParallelism] when unset or below 1) and the call
// timeout (0 when unset or not positive: no bound). It is for code that
// runs calls outside Run under the same options, such as an MCP server's
// tool handlers, which bound all the calls of a server rather than those
// of one batch.
func RunSettings(opts ...RunOption) (parallelism int, callTimeout time.Duration) {
	var c runConfig
	c.read(opts)
	return c.parallelism, c.callTimeout
}

// Run executes a batch of tool calls, as parsed from one model reply, and
// returns one [define.Result] per call, in call order, ready for the
// provider's results rendering (adapters.OpenAIResults, ...,
// [adapters.Provider].Results).
//
// Each call runs as [Toolkit.ExecuteJSON] runs it with its Name and Args
// ([Toolkit.Execute] with its Input when the arguments arrived parsed),
// through the toolkit's middleware, approval gate and observers (see
// [Middleware]), at most [DefaultParallelism] (or [WithParallelism]) at
// a time. Run never fails as a whole; every problem is one call's error
// result, which the model sees and can act on:
//
//   - a name that is no tool of the toolkit gives an error naming the
//     tools to call instead (Err is an [*UnknownToolError], which wraps
//     [ErrUnknownTool]);
//   - bad arguments, a tool's error and a tool's panic are error results,
//     as define makes them, and never reach the other calls; a tool that
//     ends its goroutine with runtime.Goexit gives an error result
//     wrapping [ErrToolExited];
//   - a call that needs approval does not run: its result is pending
//     ([PendingCalls] gives what to show, for [Toolkit.Resume]);
//   - when ctx is done, calls not yet started are not started (their
//     error wraps the context's error), and Run returns at once without
//     waiting for the calls still running: their results are errors
//     wrapping [ErrAbandoned] and the context's error. [WithCallTimeout]
//     abandons one call the same way.
//
// A tool that ignores its context keeps running after its call is
// abandoned, in the background, and its result is dropped; tools should
// honour ctx. It keeps its slot until it returns, so that the parallelism
// bounds the tool bodies running at once, abandoned ones included: if
// every slot is held so, the calls not yet started are not started, and
// their errors wrap [ErrSlotsHeld].
//
// The program's code (a tool's handler, its input's UnmarshalJSON or
// UnmarshalText methods, the middleware) never runs on the caller's
// goroutine, and Run leaves no goroutine behind but those of abandoned
// tools that have not returned. The observers see every call's result, in
// call order, on the caller's goroutine, before Run returns. How the
// calls are scheduled, and what it costs, is in docs/performance.md.
func (tk *Toolkit) Run(ctx context.Context, calls []adapters.Call, opts ...RunOption) []define.Result {
	results, times := tk.runBatch(ctx, calls, false, opts)
	if times != nil {
		tk.observeAll(ctx, calls, results, times)
	}
	return results
}

// runBatch is Run, but for the observers, which it leaves to the caller
// with each call's times (nil when the toolkit has no observers);
// approved says the calls were approved (Resume): no approval gate.
func (tk *Toolkit) runBatch(ctx context.Context, calls []adapters.Call, approved bool, opts []RunOption) ([]define.Result, []callTime) {
	if ctx == nil {
		ctx = context.Background()
	}
	if len(calls) == 0 {
		return []define.Result{}, nil
	}
	var times []callTime
	if tk.observed() {
		times = make([]callTime, len(calls))
	}
	results := make([]define.Result, len(calls))
	b := tk.newRunner(ctx, approved, opts)
	b.calls, b.results, b.times, b.left = calls, results, times, len(calls)
	if len(calls) <= len(b.small) {
		b.state = b.small[:len(calls)]
	} else {
		b.state = make([]callState, len(calls))
	}
	b.slots = min(b.cfg.parallelism, len(calls))
	if ctx.Err() == nil {
		b.start()
	}
	b.await()
	b.release()
	return results, times
}

// InlineArgBytes is how large the arguments of a batch's first call may
// be for [Toolkit.Run] to decode them on the caller's goroutine (JSON
// text, or a map's size as compact JSON, escapes aside): larger ones are
// decoded on the worker, so that Run can return at its context's end or
// the call's timeout [WithCallTimeout] while they decode.
const InlineArgBytes = 8 << 10

// smallArgs reports whether the arguments of c are at most InlineArgBytes
// long, for a map without walking more of it than that.
func smallArgs(c *adapters.Call) bool {
	if c.Input == nil {
		return len(c.Args) <= InlineArgBytes
	}
	return mapBudget(c.Input, InlineArgBytes) >= 0
}

// mapBudget returns budget less the size of v as compact JSON, about (one
// byte per number or boolean below it), or a negative number once that
// passes budget; a value that is not of JSON's types counts as too large,
// so that it decodes on the worker. A cyclic map ends, as every step
// costs at least one byte.
func mapBudget(v any, budget int) int {
	switch x := v.(type) {
	case map[string]any:
		budget -= 2
		for k, e := range x {
			if budget -= len(k) + 4; budget < 0 {
				return budget
			}
			if budget = mapBudget(e, budget); budget < 0 {
				return budget
			}
		}
		return budget
	case []any:
		budget -= 2
		for _, e := range x {
			if budget = mapBudget(e, budget-1); budget < 0 {
				return budget
			}
		}
		return budget
	case string:
		return budget - len(x) - 2
	case nil, bool:
		return budget - 5
	case float64, float32, int, int64, int32, uint, uint64, uint32, json.Number:
		return budget - 24
	}
	return -1
}
