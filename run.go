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
//     tools to call instead (Err is an [*UnknownToolError], which wraps
//     [ErrUnknownTool]), as [Toolkit.ExecuteJSON] does;
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
//
// The tools never run on the caller's goroutine (a tool's runtime.Goexit
// must not end it): they run on worker goroutines of the batch, at most
// one per slot, which end with the batch.
func (tk *Toolkit) Run(ctx context.Context, calls []adapters.Call, opts ...RunOption) []define.Result {
	if ctx == nil {
		ctx = context.Background()
	}
	results := make([]define.Result, len(calls))
	if len(calls) == 0 {
		return results
	}
	b := &batch{tk: tk, ctx: ctx, calls: calls, results: results, left: len(calls)}
	for _, o := range opts {
		if o != nil {
			o.applyRun(&b.cfg) // into b, which is on the heap anyway
		}
	}
	if b.cfg.parallelism < 1 {
		b.cfg.parallelism = DefaultParallelism
	}
	b.workers = min(b.cfg.parallelism, len(calls))
	if ctx.Done() != nil {
		b.done = make(chan struct{})
	} else {
		b.wait.Add(1)
	}
	if len(calls) <= len(b.small) {
		b.state = b.small[:len(calls)]
	} else {
		b.state = make([]callState, len(calls))
	}
	b.started, b.fresh = 1, 1
	startWorker(b)
	if b.done == nil { // ctx is never done
		b.wait.Wait()
		return results
	}
	select {
	case <-b.done:
	case <-ctx.Done():
		b.cancel()
	}
	return results
}

// callState is where one call of a batch stands.
type callState uint8

const (
	pending   callState = iota // not started
	running                    // its tool is running
	finished                   // results[i] is its result
	abandoned                  // results[i] is final, its tool is still running and holds its worker
)

// batch is the state of one Run. Workers, one per slot, take the calls in
// order and run each tool on their own goroutine, so that a call costs no
// goroutine or channel of its own. A worker whose call was abandoned (its
// timeout passed) goes on running the tool, so it holds its slot until
// the tool returns.
//
// Results are written under mu into results, which the caller owns once
// closed is set: when every call has its result (done is closed then), or
// when Run returns early because ctx is done.
type batch struct {
	tk      *Toolkit
	ctx     context.Context
	calls   []adapters.Call
	cfg     runConfig
	results []define.Result
	workers int
	done    chan struct{}  // closed when left reaches 0, if ctx can be done
	wait    sync.WaitGroup // else done when left reaches 0

	mu      sync.Mutex
	state   []callState
	small   [8]callState // state of a small batch, without an allocation
	next    int          // the next call to start
	left    int          // calls without a result yet
	held    int          // workers running an abandoned call's tool
	started int          // workers started, at most workers
	fresh   int          // workers started that have not tried to claim a call yet
	stopped bool         // no more calls start
	closed  bool         // results belongs to the caller
}

func (b *batch) work() {
	for first := true; ; first = false {
		i, more, ok := b.claim(first)
		if !ok {
			return
		}
		if more {
			startWorker(b)
		}
		b.run(i)
	}
}

// startWorker gives b one more worker goroutine. A worker ends when its
// batch has no call left for it, so Run leaves no goroutine behind but the
// ones of abandoned tools that have not returned.
func startWorker(b *batch) { go runWorkers(b) }

// runWorkers is a worker goroutine of b.
func runWorkers(b *batch) {
	growStack(0)
	b.work()
}

// stackReserve is the stack frame growStack takes: a new goroutine's stack
// (2 KiB) grows once, to 4 KiB, before the worker starts, which covers the
// decode of a small tool's arguments.
const stackReserve = 2048

// growStack makes a new worker's stack grow while it holds a single frame.
// Without it the stack grows in the middle of the first call, where the
// runtime has to copy and adjust every frame of the decode: that growth
// was about half of what a batch of one call cost (3 of 6 µs).
//
//go:noinline
func growStack(i int) byte {
	var frame [stackReserve]byte
	return frame[i&(stackReserve-1)]
}

// claim returns the next call to start, if any may start, and whether
// the caller is to start one more worker first; first says the caller is
// a worker's first claim. Workers start one at a time: a call claimed
// while others wait starts one more worker if a slot is free and no
// worker started earlier has yet come to claim, so that a batch of quick
// calls does not wake goroutines that would find nothing left to do,
// while slow calls still get every slot, each new worker starting the
// next.
func (b *batch) claim(first bool) (i int, more, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if first {
		b.fresh--
	}
	if b.stopped || b.next == len(b.calls) || b.ctx.Err() != nil {
		return 0, false, false
	}
	i = b.next
	b.next++
	b.state[i] = running
	if b.next < len(b.calls) && b.started < b.workers && b.fresh == 0 {
		b.started++
		b.fresh++
		more = true
	}
	return i, more, true
}

// run runs call i on the worker's goroutine and records its result. A
// panic outside define's own recovery gives a result and the worker goes
// on; a tool that calls runtime.Goexit ends the worker, so run records an
// error result and starts a worker in its place, keeping the slot count.
func (b *batch) run(i int) {
	c := b.calls[i]
	ctx := b.ctx
	var stop func() bool
	if b.cfg.callTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, b.cfg.callTimeout)
		defer cancel()
		if err := ctx.Err(); err != nil {
			b.finish(i, notStarted(c, err))
			return
		}
		callCtx := ctx
		stop = context.AfterFunc(callCtx, func() { b.abandon(i, callCtx.Err()) })
	}
	returned := false
	defer func() {
		if returned {
			return
		}
		if stop != nil {
			stop()
		}
		// define recovers a handler's panic; this guards what runs
		// around it, and a tool that calls runtime.Goexit, so that
		// every way out of a tool gives a result.
		if v := recover(); v != nil {
			err := &define.PanicError{Tool: c.Name, Value: v, Stack: debug.Stack()}
			b.finish(i, define.Result{Output: fmt.Sprintf("tool %s failed with an internal error: %v", c.Name, v), IsError: true, Err: err})
			return
		}
		err := fmt.Errorf("tool %s: %w (runtime.Goexit)", c.Name, ErrToolExited)
		b.finish(i, define.Result{Output: "the tool ended without a result", IsError: true, Err: err})
		b.mu.Lock()
		b.fresh++
		b.mu.Unlock()
		go runWorkers(b) // this goroutine is ending: its slot goes on
	}()
	var r define.Result
	if c.Input != nil {
		r = b.tk.Execute(ctx, c.Name, c.Input)
	} else {
		r = b.tk.ExecuteJSON(ctx, c.Name, c.Args)
	}
	returned = true
	if stop != nil {
		stop()
	}
	b.finish(i, r)
}

// finish records r, the result of call i's tool, unless the call was
// abandoned meanwhile: then the tool's worker no longer holds its slot.
func (b *batch) finish(i int, r define.Result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state[i] {
	case abandoned:
		b.held--
	case running:
		if b.closed {
			return // Run has returned: the result is dropped
		}
		b.results[i] = r
		b.state[i] = finished
		b.settled()
	}
}

// abandon gives running call i an abandoned result, its context done with
// cause. When every worker then runs an abandoned tool, the calls not yet
// started are not started.
func (b *batch) abandon(i int, cause error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed || b.state[i] != running || b.ctx.Err() != nil {
		return // when Run's ctx is done, cancel gives the results
	}
	b.results[i] = abandonedResult(b.calls[i], cause)
	b.state[i] = abandoned
	b.held++
	b.settled()
	if b.held == b.workers && !b.stopped {
		b.stopped = true
		for ; b.next < len(b.calls); b.next++ {
			c := b.calls[b.next]
			err := fmt.Errorf("tool %s not run: %w (%d still running)", c.Name, ErrSlotsHeld, b.workers)
			b.results[b.next] = define.Result{Output: "not run: every slot was held by an earlier call that timed out and is still running", IsError: true, Err: err}
			b.state[b.next] = finished
			b.settled()
		}
	}
}

// settled counts one more call with its result; b.mu is held.
func (b *batch) settled() {
	b.left--
	if b.left == 0 {
		b.closed = true
		if b.done != nil {
			close(b.done)
		} else {
			b.wait.Done()
		}
	}
}

// cancel gives every call without a result its result when ctx is done,
// and hands results to the caller.
func (b *batch) cancel() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return // every call had its result as ctx ended
	}
	b.closed = true
	b.stopped = true
	err := b.ctx.Err()
	for i, s := range b.state {
		switch s {
		case pending:
			b.results[i] = notStarted(b.calls[i], err)
		case running:
			b.results[i] = abandonedResult(b.calls[i], err)
		}
	}
}

func notStarted(c adapters.Call, cause error) define.Result {
	err := fmt.Errorf("tool %s not run: %w", c.Name, cause)
	return define.Result{Output: "cancelled before the tool ran: " + cause.Error(), IsError: true, Err: err}
}

func abandonedResult(c adapters.Call, cause error) define.Result {
	err := fmt.Errorf("tool %s: %w: %w", c.Name, ErrAbandoned, cause)
	msg := "the tool did not finish: " + cause.Error()
	if errors.Is(cause, context.DeadlineExceeded) {
		msg = "the tool timed out"
	}
	return define.Result{Output: msg, IsError: true, Err: err}
}
