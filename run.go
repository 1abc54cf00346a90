package toolnexus

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
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

// ErrSlotsHeld is wrapped by the Err of the result of a call that was not
// started because every slot of the batch ([WithParallelism]) was held by
// an abandoned call whose tool had not returned.
var ErrSlotsHeld = errors.New("every slot is held by an abandoned call")

// ErrToolExited is wrapped by the Err of the result of a call whose tool
// ended its goroutine without returning (runtime.Goexit, as t.FailNow
// does), so that it gave no result.
var ErrToolExited = errors.New("tool exited without returning")

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
//     as define makes them; a panic never reaches the other calls; a tool
//     that ends its goroutine with runtime.Goexit gives an error result
//     wrapping [ErrToolExited];
//   - when ctx is done, calls not yet started are not started (their error
//     wraps the context's error), and Run returns at once without waiting
//     for the calls still running: their results are errors wrapping
//     [ErrAbandoned] and the context's error.
//
// A tool that ignores its context keeps running after its call is
// abandoned, in the background, and its result is dropped; tools should
// honour ctx. It keeps its slot until it returns, so that the parallelism
// bounds the tool bodies running at once, abandoned ones included: if
// every slot is held by an abandoned call, the calls not yet started are
// not started, and their errors wrap [ErrSlotsHeld]. [WithCallTimeout]
// bounds how long one slow call can hold up the batch.
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
	b := &batch{done: make([]chan define.Result, len(calls)), workers: min(cfg.parallelism, len(calls)), allHeld: make(chan struct{})}
	for i := range b.done {
		// Buffered, so that a call abandoned by Run can still deliver
		// (and be dropped) without blocking.
		b.done[i] = make(chan define.Result, 1)
	}
	for range b.workers {
		go b.work(ctx, tk, calls, cfg)
	}
	for i := range calls {
		results[i] = b.await(ctx, i, calls[i])
	}
	return results
}

// batch is the state of one Run: workers, one per slot, take the calls in
// order; a worker whose call was abandoned waits for the tool to return
// before it takes another, so that it holds its slot.
type batch struct {
	done    []chan define.Result
	workers int

	mu      sync.Mutex
	next    int           // the next call to start
	stopped bool          // no more calls start
	held    int           // workers waiting for an abandoned tool
	allHeld chan struct{} // closed while held == workers
}

func (b *batch) work(ctx context.Context, tk *Toolkit, calls []adapters.Call, cfg runConfig) {
	for {
		i, ok := b.claim(ctx)
		if !ok {
			return
		}
		r, running := tk.runCall(ctx, calls[i], cfg)
		b.done[i] <- r
		if running != nil {
			b.hold(1)
			<-running
			b.hold(-1)
		}
	}
}

// claim returns the next call to start, if any may start.
func (b *batch) claim(ctx context.Context) (int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped || b.next == len(b.done) || ctx.Err() != nil {
		return 0, false
	}
	b.next++
	return b.next - 1, true
}

// hold counts a worker starting (+1) or ending (-1) its wait for an
// abandoned tool.
func (b *batch) hold(delta int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if delta < 0 && b.held == b.workers {
		b.allHeld = make(chan struct{})
	}
	b.held += delta
	if b.held == b.workers {
		close(b.allHeld)
	}
}

// await returns the result of call i: its own, or why it has none.
func (b *batch) await(ctx context.Context, i int, c adapters.Call) define.Result {
	for {
		b.mu.Lock()
		allHeld := b.allHeld
		b.mu.Unlock()
		select {
		case r := <-b.done[i]:
			return r
		case <-ctx.Done():
			return b.cancelled(ctx, i, c)
		case <-allHeld:
			if ctx.Err() != nil {
				return b.cancelled(ctx, i, c)
			}
			b.mu.Lock()
			if b.held != b.workers {
				b.mu.Unlock()
				continue // a slot came free meanwhile
			}
			b.stopped = true
			started := i < b.next
			b.mu.Unlock()
			if started {
				// Every worker is past delivering its call's result.
				return <-b.done[i]
			}
			err := fmt.Errorf("tool %s not run: %w (%d still running)", c.Name, ErrSlotsHeld, b.workers)
			return define.Result{Output: "not run: every slot was held by an earlier call that timed out and is still running", IsError: true, Err: err}
		}
	}
}

// cancelled is the result of call i when ctx is done before it has one.
func (b *batch) cancelled(ctx context.Context, i int, c adapters.Call) define.Result {
	select {
	case r := <-b.done[i]: // finished as the context ended: keep it
		return r
	default:
	}
	b.mu.Lock()
	b.stopped = true
	started := i < b.next
	b.mu.Unlock()
	if started {
		return abandoned(c, ctx.Err())
	}
	return notStarted(c, ctx.Err())
}

// runCall runs one call under its own context, returning when the tool
// returns or the context is done, whichever is first. When the call is
// abandoned, running is closed once the tool returns; it is nil when the
// tool has already returned.
func (tk *Toolkit) runCall(ctx context.Context, c adapters.Call, cfg runConfig) (r define.Result, running <-chan struct{}) {
	if cfg.callTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.callTimeout)
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return notStarted(c, err), nil
	}
	out := make(chan define.Result, 1)
	body := make(chan struct{})
	go func() {
		defer close(body)
		returned := false
		defer func() {
			if returned {
				return
			}
			// define recovers a handler's panic; this guards what runs
			// around it, and a tool that calls runtime.Goexit, so that
			// every way out of a tool gives a result.
			if v := recover(); v != nil {
				err := &define.PanicError{Tool: c.Name, Value: v, Stack: debug.Stack()}
				out <- define.Result{Output: fmt.Sprintf("tool %s failed with an internal error: %v", c.Name, v), IsError: true, Err: err}
				return
			}
			err := fmt.Errorf("tool %s: %w (runtime.Goexit)", c.Name, ErrToolExited)
			out <- define.Result{Output: "the tool ended without a result", IsError: true, Err: err}
		}()
		var r define.Result
		if c.Input != nil {
			r = tk.Execute(ctx, c.Name, c.Input)
		} else {
			r = tk.ExecuteJSON(ctx, c.Name, c.Args)
		}
		returned = true
		out <- r
	}()
	select {
	case r := <-out:
		<-body
		return r, nil
	case <-ctx.Done():
		select {
		case r := <-out:
			<-body
			return r, nil
		default:
			return abandoned(c, ctx.Err()), body
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
