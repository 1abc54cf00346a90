package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/echo"
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
// A tool's code never runs on the caller's goroutine (a tool's
// runtime.Goexit must not end it): handlers run on worker goroutines of
// the batch, at most one per slot, which end with the batch. What is the
// library's own work for the first call (finding its tool, decoding and
// checking its arguments) runs on the caller's goroutine before the first
// worker starts, unless decoding may call a method of the user's (an
// input type with an UnmarshalJSON or UnmarshalText method) or the
// arguments are larger than [InlineArgBytes]: then it runs on the worker
// too, and Run returns at ctx's end or the call's timeout while it
// decodes. So a batch of one ordinary call costs one goroutine, whose
// stack does not have to grow for the decode, and a first call with an
// unknown tool or bad arguments costs none; the decode that runs on the
// caller's goroutine is that of at most InlineArgBytes, and a done ctx is
// seen once it ends.
//
// With middleware, approvals or observers (see [Middleware]) each call
// goes through them, and the first call's decode runs on its worker too;
// a call that needs approval does not run: its result is pending, and
// [PendingCalls] gives what to show, for [Toolkit.Resume]. The observers
// see every call's result, in call order, on the caller's goroutine,
// before Run returns.
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
	if tk.hooks != nil && len(tk.hooks.observers) > 0 {
		times = make([]callTime, len(calls))
	}
	b := batches.Get().(*batch)
	b.refs.Store(1) // Run's own; see release
	b.tk, b.ctx, b.calls, b.left = tk, ctx, calls, len(calls)
	b.approved, b.times = approved, times
	results := make([]define.Result, len(calls))
	b.results = results
	for _, o := range opts {
		if o != nil {
			o.applyRun(&b.cfg) // into b, which is on the heap anyway
		}
	}
	if b.cfg.callTimeout > 0 {
		// A call's timeout runs b.abandon from a goroutine of its own,
		// which may still be at it when every worker is done: such a
		// batch is never recycled (this reference is never released).
		b.refs.Add(1)
	}
	if b.cfg.parallelism < 1 {
		b.cfg.parallelism = DefaultParallelism
	}
	b.workers = min(b.cfg.parallelism, len(calls))
	if ctx.Done() != nil {
		b.cancellable = true
		if b.done == nil { // a recycled batch keeps its channel
			b.done = make(chan struct{}, 1)
		}
	} else {
		b.wait.Add(1)
	}
	if len(calls) <= len(b.small) {
		b.state = b.small[:len(calls)]
	} else {
		b.state = make([]callState, len(calls))
	}
	if err := ctx.Err(); err != nil {
		b.cancel() // no call starts
		b.release()
		return results, times
	}
	b.start()
	if !b.cancellable {
		b.wait.Wait()
	} else {
		select {
		case <-b.done:
		case <-ctx.Done():
			b.cancel()
		}
	}
	b.release()
	return results, times
}

// batches holds batches for Run to reuse: a batch goes back once Run and
// every goroutine it started are done with it (release), which saves a
// batch of one call most of what its allocation cost (clearing and
// collecting 400 bytes per Run was about a fifth of it).
var batches = sync.Pool{New: func() any { return new(batch) }}

// release gives up one reference to b: Run's own, or a worker's when it
// ends. The last one clears b and returns it to batches. The results
// slice is the caller's, so it is not part of b.
func (b *batch) release() {
	if b.refs.Add(-1) == 0 {
		done := b.done
		*b = batch{}
		if done != nil {
			select { // the signal Run did not wait for, if any
			case <-done:
			default:
			}
			b.done = done
		}
		batches.Put(b)
	}
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
// closed is set: when every call has its result (done or wait signals
// it then), or when Run returns early because ctx is done.
type batch struct {
	tk          *Toolkit
	ctx         context.Context
	calls       []adapters.Call
	cfg         runConfig
	results     []define.Result
	workers     int
	cancellable bool           // ctx can be done: Run waits on done, else on wait
	done        chan struct{}  // a cancellable batch's signal that left reached 0 (capacity 1; kept when b is recycled)
	wait        sync.WaitGroup // else done when left reaches 0

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

	first firstCall // call 0, begun on the caller's goroutine

	approved bool       // Resume's calls: no approval gate
	times    []callTime // each call's times, for the observers; nil without them

	// refs counts who still uses b: Run until it returns, and each worker
	// goroutine until it ends (see release).
	refs atomic.Int32
}

// firstCall is call 0 of a batch, which the caller begins (see
// batch.start) and the first worker runs.
type firstCall struct {
	ctx    context.Context
	cancel context.CancelFunc
	stop   func() bool
	call   define.Decoded // the handler's part, or nil: the whole call runs on the worker
	res    define.Result  // where call writes its result
}

// start begins the batch on the caller's goroutine. It claims call 0 and
// runs the part of it that is the library's own code (finding the tool,
// decoding and checking the arguments: define.Tool.DecodeJSON), so that a
// worker whose first call was prepared runs only the handler, on the
// small stack a goroutine starts with (growing it was most of what a
// batch of one cost beyond the call); a call that fails there (an unknown
// tool, bad arguments) needs no worker at all. A tool whose decode may
// call a user's method runs whole on the worker. Then start starts the
// workers: the first one for call 0, and one more, which starts others as
// claim says, when other calls may run at once.
func (b *batch) start() {
	b.next = 1
	b.state[0] = running
	if b.times != nil {
		b.times[0].start = time.Now()
	}
	done := !b.prepareFirst()
	switch {
	case done && len(b.calls) > 1:
		b.started, b.fresh = 1, 1
		startWorker(b)
	case !done && len(b.calls) > 1 && b.workers > 1:
		b.started, b.fresh = 2, 1
		b.refs.Add(1)
		go runFirst(b)
		startWorker(b)
	case !done:
		b.started = 1
		b.refs.Add(1)
		go runFirst(b)
	}
}

// prepareFirst begins call 0 on the caller's goroutine and reports
// whether a worker is to run the rest of it; if not, the call has its
// result.
func (b *batch) prepareFirst() bool {
	f := &b.first
	var ok bool
	if f.ctx, f.cancel, f.stop, ok = b.begin(0); !ok {
		return false
	}
	c := &b.calls[0]
	t, found := b.tk.Get(c.Name)
	if found && (!smallArgs(c) || b.tk.hooks != nil) {
		// Decoded on the worker, where Run need not wait for it, or
		// where the middleware runs.
		return true
	}
	if found {
		if t.DecodeCallsUserCode() {
			return true // the worker runs the whole call
		}
		if c.Input != nil {
			f.call = t.DecodeMap(f.ctx, c.Input, &f.res)
		} else {
			f.call = t.DecodeJSON(f.ctx, c.Args, &f.res)
		}
		if f.call != nil {
			return true // the worker runs its handler
		}
	} else {
		f.res = b.tk.unknownTool(c.Name)
	}
	b.end(0, f.cancel, f.stop, &f.res)
	return false
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

// runFirst is the first worker of a batch: it runs the rest of call 0,
// then the calls after it, as any worker.
func runFirst(b *batch) {
	defer b.release()
	f := &b.first
	if f.call != nil {
		b.finishFirst()
	} else { // the whole call, its decode included
		growStack(0)
		b.guard(0, f.ctx, f.cancel, f.stop)
	}
	if len(b.calls) > 1 {
		growStack(0)
		b.work(false)
	}
}

// work claims calls and runs them until none is left for this worker;
// first says the worker has not claimed a call yet.
func (b *batch) work(first bool) {
	for ; ; first = false {
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
func startWorker(b *batch) {
	b.refs.Add(1)
	go runWorkers(b)
}

// runWorkers is a worker goroutine of b.
func runWorkers(b *batch) {
	defer b.release() // also when a tool's runtime.Goexit ends the worker
	growStack(0)
	b.work(true)
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
	if b.times != nil {
		b.times[i].start = time.Now()
	}
	if b.next < len(b.calls) && b.started < b.workers && b.fresh == 0 {
		b.started++
		b.fresh++
		more = true
	}
	return i, more, true
}

// run runs call i on the worker's goroutine and records its result.
func (b *batch) run(i int) {
	ctx, cancel, stop, ok := b.begin(i)
	if ok {
		b.guard(i, ctx, cancel, stop)
	}
}

// begin gives call i its context, bounded by the call timeout, whose end
// abandons the call (stop undoes that); when the timeout has passed
// already, the call has its result and ok is false.
func (b *batch) begin(i int) (ctx context.Context, cancel context.CancelFunc, stop func() bool, ok bool) {
	ctx = b.ctx
	if b.cfg.callTimeout <= 0 {
		return ctx, nil, nil, true
	}
	ctx, cancel = context.WithTimeout(ctx, b.cfg.callTimeout)
	if err := ctx.Err(); err != nil {
		cancel()
		r := notStarted(b.calls[i], err)
		b.finish(i, &r)
		return nil, nil, nil, false
	}
	callCtx := ctx
	stop = context.AfterFunc(callCtx, func() { b.abandon(i, callCtx.Err()) })
	return ctx, cancel, stop, true
}

// end records r, the result of call i, once its tool returned.
func (b *batch) end(i int, cancel context.CancelFunc, stop func() bool, r *define.Result) {
	if stop != nil {
		stop()
	}
	if cancel != nil {
		cancel()
	}
	b.finish(i, r)
}

// finishFirst is guard for call 0 when the caller prepared it: it runs
// the rest of the call, its handler. Its frame is small, with no result
// of its own, so that the handler starts low on the worker's stack.
func (b *batch) finishFirst() {
	f := &b.first
	returned := false
	defer func() {
		if !returned {
			b.exited(0, f.cancel, f.stop, recover())
		}
	}()
	f.call.Finish(f.ctx)
	returned = true
	b.end(0, f.cancel, f.stop, &f.res)
}

// guard runs call i on the worker's goroutine and records its result. A
// panic outside define's own recovery gives a result and the worker goes
// on; a tool that calls runtime.Goexit ends the worker, so guard records
// an error result and starts a worker in its place, keeping the slot
// count.
func (b *batch) guard(i int, ctx context.Context, cancel context.CancelFunc, stop func() bool) {
	returned := false
	defer func() {
		if !returned {
			b.exited(i, cancel, stop, recover())
		}
	}()
	var r define.Result
	if c := &b.calls[i]; b.tk.hooks != nil {
		r = b.tk.call(ctx, i, c, b.approved)
	} else if c.Input != nil {
		r = b.tk.Execute(ctx, c.Name, c.Input)
	} else {
		r = b.tk.ExecuteJSON(ctx, c.Name, c.Args)
	}
	returned = true
	b.end(i, cancel, stop, &r)
}

// exited records the result of call i, whose tool did not return: it
// panicked outside define's own recovery (v is the panic value) or called
// runtime.Goexit (v is nil), which ends this worker: one takes its place.
func (b *batch) exited(i int, cancel context.CancelFunc, stop func() bool, v any) {
	c := b.calls[i]
	// define recovers a handler's panic; this guards what runs around
	// it, and a tool that calls runtime.Goexit, so that every way out
	// of a tool gives a result.
	if v != nil {
		err := &define.PanicError{Tool: c.Name, Value: v, Stack: debug.Stack()}
		b.end(i, cancel, stop, &define.Result{Output: "tool " + c.Name + " failed with an internal error: " + echo.Value(v, define.MaxEchoedPanic), IsError: true, Err: err})
		return
	}
	err := fmt.Errorf("tool %s: %w (runtime.Goexit)", c.Name, ErrToolExited)
	b.end(i, cancel, stop, &define.Result{Output: "the tool ended without a result", IsError: true, Err: err})
	b.mu.Lock()
	b.fresh++
	b.mu.Unlock()
	startWorker(b) // this goroutine is ending: its slot goes on
}

// finish records r, the result of call i's tool, unless the call was
// abandoned meanwhile: then the tool's worker no longer holds its slot.
func (b *batch) finish(i int, r *define.Result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state[i] {
	case abandoned:
		b.held--
	case running:
		if b.closed {
			return // Run has returned: the result is dropped
		}
		b.results[i] = *r
		b.state[i] = finished
		b.ended(i)
		b.settled()
	}
}

// ended records when call i had its result, for the observers; b.mu is
// held.
func (b *batch) ended(i int) {
	if b.times != nil && !b.times[i].start.IsZero() {
		b.times[i].end = time.Now()
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
	b.ended(i)
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
		if b.cancellable {
			b.done <- struct{}{} // once per batch, into an empty buffer
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
	// The calls not started share one message and one allocation for
	// their errors: a batch of a million pending calls is cancelled in
	// time linear in it, without a million error values.
	var errs []notStartedError
	msg := notStartedText(err)
	for i, s := range b.state {
		switch s {
		case pending:
			if errs == nil {
				errs = make([]notStartedError, b.pendingFrom(i))
			}
			e := &errs[0]
			errs = errs[1:]
			*e = notStartedError{tool: b.calls[i].Name, cause: err}
			b.results[i] = define.Result{Output: msg, IsError: true, Err: e}
		case running:
			b.results[i] = abandonedResult(b.calls[i], err)
			b.ended(i)
		}
	}
}

func notStarted(c adapters.Call, cause error) define.Result {
	return define.Result{Output: notStartedText(cause), IsError: true, Err: &notStartedError{tool: c.Name, cause: cause}}
}

// notStartedText is the output of a call not started because of cause.
func notStartedText(cause error) string { return "cancelled before the tool ran: " + cause.Error() }

// notStartedError is the error of a call that was not started: "tool
// NAME not run: CAUSE", wrapping the cause.
type notStartedError struct {
	tool  string
	cause error
}

func (e *notStartedError) Error() string { return "tool " + e.tool + " not run: " + e.cause.Error() }
func (e *notStartedError) Unwrap() error { return e.cause }

// pendingFrom counts the calls not started from call i on; b.mu is held.
func (b *batch) pendingFrom(i int) int {
	n := 0
	for _, s := range b.state[i:] {
		if s == pending {
			n++
		}
	}
	return n
}

func abandonedResult(c adapters.Call, cause error) define.Result {
	err := fmt.Errorf("tool %s: %w: %w", c.Name, ErrAbandoned, cause)
	msg := "the tool did not finish: " + cause.Error()
	if errors.Is(cause, context.DeadlineExceeded) {
		msg = "the tool timed out"
	}
	return define.Result{Output: msg, IsError: true, Err: err}
}
