package toolnexus

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
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

// RunOption configures [Toolkit.Run]. The set is sealed: make options with
// [WithParallelism] and [WithCallTimeout].
type RunOption interface {
	applyRun(*runConfig)
}

type runConfig struct {
	parallelism int
	callTimeout time.Duration
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

// Run executes a batch of tool calls, as parsed from one model reply, and
// returns one [define.Result] per call, in call order, ready for the
// provider's results rendering (adapters.OpenAIResults, ...,
// [adapters.Provider].Results).
//
// The calls run concurrently, at most [DefaultParallelism] (or
// [WithParallelism]) at a time, each through [Toolkit.ExecuteJSON] with its
// Name and Args, or through [Toolkit.Execute] with its Input when the
// arguments arrived already parsed (Input non-nil). Run never fails as a whole; every problem is one call's error
// result, which the model sees and can act on:
//
//   - a name that is no tool of the toolkit gives an error naming the
//     available tools (Err wraps [ErrUnknownTool]), as [Toolkit.ExecuteJSON]
//     does;
//   - bad arguments, a tool's error and a tool's panic are error results,
//     as define makes them; a panic never reaches the other calls;
//   - when ctx is done, calls not yet started are not started (their error
//     wraps the context's error), and Run returns at once without waiting
//     for the calls still running: their results are errors wrapping
//     [ErrAbandoned] and the context's error.
//
// A tool that ignores its context keeps running after its call is
// abandoned, in the background, and its result is dropped; tools should
// honour ctx. [WithCallTimeout] bounds how long one slow call can hold its
// slot and the batch.
func (tk *Toolkit) Run(ctx context.Context, calls []adapters.Call, opts ...RunOption) []define.Result {
	cfg := runConfig{parallelism: DefaultParallelism}
	for _, o := range opts {
		if o != nil {
			o.applyRun(&cfg)
		}
	}
	if cfg.parallelism < 1 {
		cfg.parallelism = DefaultParallelism
	}
	if ctx == nil {
		ctx = context.Background()
	}
	results := make([]define.Result, len(calls))
	if len(calls) == 0 {
		return results
	}

	// Each call's result arrives on its own buffered channel, so that a
	// call abandoned by Run can still deliver (and be dropped) without
	// blocking or racing with the caller.
	done := make([]chan define.Result, len(calls))
	sem := make(chan struct{}, cfg.parallelism)
	started := 0
launch:
	for i := range calls {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			break launch
		}
		if ctx.Err() != nil { // both cases were ready; do not start more
			<-sem
			break
		}
		done[i] = make(chan define.Result, 1)
		started++
		go func(i int) {
			defer func() { <-sem }()
			done[i] <- tk.runCall(ctx, calls[i], cfg)
		}(i)
	}
	for i := range calls {
		if i >= started {
			results[i] = notStarted(calls[i], ctx.Err())
			continue
		}
		select {
		case r := <-done[i]:
			results[i] = r
		case <-ctx.Done():
			select {
			case r := <-done[i]: // finished as the context ended: keep it
				results[i] = r
			default:
				results[i] = abandoned(calls[i], ctx.Err())
			}
		}
	}
	return results
}

// runCall runs one call under its own context, returning when the tool
// returns or the context is done, whichever is first.
func (tk *Toolkit) runCall(ctx context.Context, c adapters.Call, cfg runConfig) define.Result {
	if cfg.callTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.callTimeout)
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return notStarted(c, err)
	}
	out := make(chan define.Result, 1)
	go func() {
		defer func() {
			// define recovers a handler's panic; this guards what runs
			// around it, so that nothing can take the batch down.
			if v := recover(); v != nil {
				err := &define.PanicError{Tool: c.Name, Value: v, Stack: debug.Stack()}
				out <- define.Result{Output: fmt.Sprintf("tool %s failed with an internal error: %v", c.Name, v), IsError: true, Err: err}
			}
		}()
		if c.Input != nil {
			out <- tk.Execute(ctx, c.Name, c.Input)
			return
		}
		out <- tk.ExecuteJSON(ctx, c.Name, c.Args)
	}()
	select {
	case r := <-out:
		return r
	case <-ctx.Done():
		select {
		case r := <-out:
			return r
		default:
			return abandoned(c, ctx.Err())
		}
	}
}

func notStarted(c adapters.Call, cause error) define.Result {
	err := fmt.Errorf("tool %s not run: %w", c.Name, cause)
	return define.Result{Output: "cancelled before the tool ran: " + cause.Error(), IsError: true, Err: err}
}

func abandoned(c adapters.Call, cause error) define.Result {
	err := fmt.Errorf("tool %s: %w: %w", c.Name, ErrAbandoned, cause)
	msg := "the tool did not finish: " + cause.Error()
	if errors.Is(cause, context.DeadlineExceeded) {
		msg = "the tool timed out"
	}
	return define.Result{Output: msg, IsError: true, Err: err}
}
