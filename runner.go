package toolnexus

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// runner is the one scheduler under Run, RunStream and Resume. Its calls
// come from one of two feeds: a known list (Run and Resume: runBatch and
// start) or one call at a time as a stream completes it (RunStream: add,
// then close). Workers, at most one per slot, take the calls in the order
// they may start and run each on their own goroutine, so that a call
// costs no goroutine or channel of its own; a worker ends when no call is
// left for it, and a call fed while a slot is free starts one. A worker
// whose call was abandoned (its timeout passed) goes on running the tool,
// so it holds its slot until the tool returns.
//
// Results are written under mu into results, which the caller owns once
// closed is set: when the feed has ended and every call has its result
// (done or wait signals it then), or when the caller stops waiting because
// ctx is done (cancel).
type runner struct {
	tk          *Toolkit
	ctx         context.Context
	cfg         runConfig
	approved    bool           // Resume's calls: no approval gate
	fed         bool           // calls come one at a time (a stream): order says which may start
	slots       int            // workers at most
	cancellable bool           // ctx can be done: the caller waits on done, else on wait
	done        chan struct{}  // a cancellable runner's signal that its results are final (capacity 1; kept when recycled)
	wait        sync.WaitGroup // else done then

	mu      sync.Mutex
	calls   []adapters.Call // a stream's grows under mu: a worker reads its call there
	results []define.Result
	times   []callTime // each call's times, for the observers; nil without them
	state   []callState
	small   [8]callState // state of a few calls, without an allocation
	order   []int        // fed calls in the order they may start (else call order)
	later   []int        // fed calls held back until the stream has ended whole (EarlyStart)
	next    int          // the next call to start: its position in order, or in calls
	left    int          // calls fed without a result yet
	held    int          // workers running an abandoned call's tool
	started int          // workers running, at most slots
	fresh   int          // workers started that have not tried to claim a call yet
	open    bool         // the feed may bring more calls
	closed  bool         // results belongs to the caller

	first firstCall // call 0 of a known list, begun on the caller's goroutine

	// refs counts who still uses the runner: its caller until it has the
	// results, and each worker goroutine until it ends (see release).
	refs atomic.Int32
}

// callState is where one call stands.
type callState uint8

const (
	pending   callState = iota // not started
	running                    // its tool is running
	finished                   // results[i] is its result
	abandoned                  // results[i] is final, its tool is still running and holds its worker
)

// runners holds runners for reuse: one goes back once its caller and
// every goroutine it started are done with it (release), which saves a
// batch of one call most of what its allocation cost (clearing and
// collecting 400 bytes per Run was about a fifth of it).
var runners = sync.Pool{New: func() any { return new(runner) }}

// newRunner returns a runner for calls of tk on ctx under opts, without
// its calls: the feed gives them.
func (tk *Toolkit) newRunner(ctx context.Context, approved bool, opts []RunOption) *runner {
	b := runners.Get().(*runner)
	b.refs.Store(1) // the caller's; see release
	b.tk, b.ctx, b.approved = tk, ctx, approved
	b.cfg.read(opts) // into b, which is on the heap anyway
	b.approved = approved || b.cfg.decided
	if b.cfg.callTimeout > 0 {
		// A call's timeout runs b.abandon from a goroutine of its own,
		// which may still be at it when every worker is done: such a
		// runner is never recycled (this reference is never released).
		b.refs.Add(1)
	}
	if ctx.Done() != nil {
		b.cancellable = true
		if b.done == nil { // a recycled runner keeps its channel
			b.done = make(chan struct{}, 1)
		}
	} else {
		b.wait.Add(1)
	}
	return b
}

// observed reports whether tk has observers, which need each call's times.
func (tk *Toolkit) observed() bool { return tk.hooks != nil && len(tk.hooks.observers) > 0 }

// await waits until every call has its result, or until ctx is done: then
// the calls without one get theirs (cancel). The results are then the
// caller's; it gives up its reference to b (release) once it has them.
func (b *runner) await() {
	if !b.cancellable {
		b.wait.Wait()
	} else {
		select {
		case <-b.done:
		case <-b.ctx.Done():
			b.cancel()
		}
	}
}

// release gives up one reference to b: its caller's, or a worker's when
// it ends. The last one clears b and returns it to runners. The results
// slice is the caller's, so it is not part of b.
func (b *runner) release() {
	if b.refs.Add(-1) == 0 {
		done := b.done
		*b = runner{}
		if done != nil {
			select { // the signal the caller did not wait for, if any
			case <-done:
			default:
			}
			b.done = done
		}
		runners.Put(b)
	}
}

// firstCall is call 0 of a known list, which the caller begins (see
// runner.start) and the first worker runs.
type firstCall struct {
	ctx    context.Context
	cancel context.CancelFunc
	stop   func() bool
	call   define.Decoded // the handler's part, or nil: the whole call runs on the worker
	res    define.Result  // where call writes its result
}

// start begins a known list of calls on the caller's goroutine. It claims
// call 0 and runs the part of it that is the library's own code (finding
// the tool, decoding and checking the arguments: define.Tool.DecodeJSON),
// so that a worker whose first call was prepared runs only the handler,
// on the small stack a goroutine starts with (growing it was most of what
// a batch of one cost beyond the call); a call that fails there (an
// unknown tool, bad arguments) needs no worker at all. A tool whose
// decode may call a user's method runs whole on the worker. Then start
// starts the workers: the first one for call 0, and one more, which
// starts others as claim says, when other calls may run at once.
func (b *runner) start() {
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
	case !done && len(b.calls) > 1 && b.slots > 1:
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
func (b *runner) prepareFirst() bool {
	f := &b.first
	c := &b.calls[0]
	var ok bool
	if f.ctx, f.cancel, f.stop, ok = b.begin(0, c); !ok {
		return false
	}
	c = b.tk.effective(c, b.cfg.rendering)
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

// runFirst is the first worker of a known list: it runs the rest of call
// 0, then claims calls as any worker.
func runFirst(b *runner) {
	defer b.release()
	f := &b.first
	if f.call != nil {
		b.finishFirst()
	} else { // the whole call, its decode included
		growStack(0)
		b.guard(0, &b.calls[0], f.ctx, f.cancel, f.stop)
	}
	if len(b.calls) > 1 {
		growStack(0)
		b.work(false)
	}
}

// startWorker gives b one more worker goroutine; b.started counts it
// already. A worker ends when no call is left for it, so that no
// goroutine outlives the calls but the ones of abandoned tools that have
// not returned.
func startWorker(b *runner) {
	b.refs.Add(1)
	go runWorkers(b)
}

// runWorkers is a worker goroutine of b.
func runWorkers(b *runner) {
	defer b.release() // also when a tool's runtime.Goexit ends the worker
	growStack(0)
	b.work(true)
}

// runFed is a worker goroutine of b started for call i, c, which a stream
// fed while a slot was free: it runs that call, then claims others.
func runFed(b *runner, i int, c *adapters.Call) {
	defer b.release() // also when a tool's runtime.Goexit ends the worker
	growStack(0)
	b.run(i, c)
	b.work(false)
}

// work claims calls and runs them until none is left for this worker;
// first says the worker has not claimed a call yet.
func (b *runner) work(first bool) {
	for ; ; first = false {
		i, c, more, ok := b.claim(first)
		if !ok {
			return
		}
		if more {
			startWorker(b)
		}
		b.run(i, c)
	}
}

// run runs call i, c, claimed by this worker, and records its result.
func (b *runner) run(i int, c *adapters.Call) {
	if ctx, cancel, stop, ok := b.begin(i, c); ok {
		b.guard(i, c, ctx, cancel, stop)
	}
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

// ready reports how many calls may start in all, those started included:
// their positions in order, or in calls; b.mu is held.
func (b *runner) ready() int {
	if b.fed {
		return len(b.order)
	}
	return len(b.calls)
}

// at returns the call at position n of those that may start; b.mu is held.
func (b *runner) at(n int) int {
	if b.fed {
		return b.order[n]
	}
	return n
}

// claim returns the next call to start, if any may start, and whether
// the caller is to start one more worker first; first says the caller is
// a worker's first claim. A worker that gets none ends. Workers start one
// at a time: a call claimed while others wait starts one more worker if a
// slot is free and no worker started earlier has yet come to claim, so
// that quick calls do not wake goroutines that would find nothing left to
// do, while slow calls still get every slot, each new worker starting the
// next.
func (b *runner) claim(first bool) (i int, c *adapters.Call, more, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if first {
		b.fresh--
	}
	n := b.ready()
	if b.closed || b.next == n || b.ctx.Err() != nil {
		b.started--
		return 0, nil, false, false
	}
	i = b.at(b.next)
	b.next++
	b.state[i] = running
	if b.times != nil {
		b.times[i].start = time.Now()
	}
	if b.next < n && b.started < b.slots && b.fresh == 0 {
		b.started++
		b.fresh++
		more = true
	}
	return i, &b.calls[i], more, true
}

// queue lets fed call i start: at once, on a worker of its own, if a
// slot is free (then no call waits: workers end only when none is left),
// else when a worker is done with its call; b.mu is held.
func (b *runner) queue(i int) {
	switch {
	case b.held == b.slots:
		b.notRun(i)
	case b.started < b.slots:
		b.started++
		b.state[i] = running
		if b.times != nil {
			b.times[i].start = time.Now()
		}
		b.refs.Add(1)
		go runFed(b, i, &b.calls[i])
	default:
		b.order = append(b.order, i)
	}
}

// begin gives call i its context, bounded by the call timeout, whose end
// abandons the call (stop undoes that); when the timeout has passed
// already, or the run's refuse answers the call, the call has its result
// and ok is false.
func (b *runner) begin(i int, c *adapters.Call) (ctx context.Context, cancel context.CancelFunc, stop func() bool, ok bool) {
	if b.cfg.refuse != nil {
		if r, refused := b.cfg.refuse(c); refused {
			b.finish(i, &r)
			return nil, nil, nil, false
		}
	}
	ctx = b.ctx
	if b.cfg.callTimeout <= 0 {
		return ctx, nil, nil, true
	}
	ctx, cancel = context.WithTimeout(ctx, b.cfg.callTimeout)
	if err := ctx.Err(); err != nil {
		cancel()
		r := notStarted(c.Name, err)
		b.finish(i, &r)
		return nil, nil, nil, false
	}
	callCtx := ctx
	stop = context.AfterFunc(callCtx, func() { b.abandon(i, callCtx.Err()) })
	return ctx, cancel, stop, true
}

// end records r, the result of call i, once its tool returned.
func (b *runner) end(i int, cancel context.CancelFunc, stop func() bool, r *define.Result) {
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
func (b *runner) finishFirst() {
	f := &b.first
	returned := false
	defer func() {
		if !returned {
			b.exited(0, b.calls[0].Name, f.cancel, f.stop, recover())
		}
	}()
	f.call.Finish(f.ctx)
	returned = true
	b.end(0, f.cancel, f.stop, &f.res)
}

// guard runs call i, c, on the worker's goroutine and records its result.
// A panic outside define's own recovery gives a result and the worker goes
// on; a tool that calls runtime.Goexit ends the worker, so guard records
// an error result and starts a worker in its place, keeping the slot
// count.
func (b *runner) guard(i int, c *adapters.Call, ctx context.Context, cancel context.CancelFunc, stop func() bool) {
	returned := false
	defer func() {
		if !returned {
			b.exited(i, c.Name, cancel, stop, recover())
		}
	}()
	var r define.Result
	c = b.tk.effective(c, b.cfg.rendering)
	if b.tk.hooks != nil {
		r = b.tk.call(ctx, i, c, b.approved)
	} else if c.Input != nil {
		r = b.tk.Execute(ctx, c.Name, c.Input)
	} else {
		r = b.tk.ExecuteJSON(ctx, c.Name, c.Args)
	}
	returned = true
	b.end(i, cancel, stop, &r)
}

// exited records the result of call i, of tool name, whose tool did not
// return: it panicked outside define's own recovery (v is the panic
// value) or called runtime.Goexit (v is nil), which ends this worker: one
// takes its place.
func (b *runner) exited(i int, name string, cancel context.CancelFunc, stop func() bool, v any) {
	if v != nil {
		r := panicResult(name, v)
		b.end(i, cancel, stop, &r)
		return
	}
	r := exitedResult(name)
	b.end(i, cancel, stop, &r)
	b.mu.Lock()
	b.fresh++
	b.mu.Unlock()
	startWorker(b) // this goroutine is ending: its slot goes on
}

// finish records r, the result of call i's tool, unless the call was
// abandoned meanwhile: then the tool's worker no longer holds its slot.
func (b *runner) finish(i int, r *define.Result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state[i] {
	case abandoned:
		b.held--
	case running:
		if b.closed {
			return // the caller has the results: this one is dropped
		}
		b.results[i] = *r
		b.state[i] = finished
		b.ended(i)
		b.settled()
	}
}

// ended records when call i had its result, for the observers; b.mu is
// held.
func (b *runner) ended(i int) {
	if b.times != nil && !b.times[i].start.IsZero() {
		b.times[i].end = time.Now()
	}
}

// abandon gives running call i an abandoned result, its context done with
// cause. When every worker then runs an abandoned tool, the calls that
// may start are not started.
func (b *runner) abandon(i int, cause error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed || b.state[i] != running || b.ctx.Err() != nil {
		return // when the caller's ctx is done, cancel gives the results
	}
	b.results[i] = abandonedResult(b.calls[i].Name, cause)
	b.state[i] = abandoned
	b.ended(i)
	b.held++
	b.settled()
	if b.held == b.slots {
		for ; b.next < b.ready(); b.next++ {
			b.notRun(b.at(b.next))
		}
	}
}

// notRun gives call i, not started, its result when every slot is held by
// an abandoned call; b.mu is held.
func (b *runner) notRun(i int) {
	b.results[i] = slotsHeldResult(b.calls[i].Name, b.slots)
	b.state[i] = finished
	b.settled()
}

// settled counts one more call with its result; b.mu is held.
func (b *runner) settled() {
	b.left--
	if b.left == 0 && !b.open {
		b.signal()
	}
}

// signal hands the results to the caller, once every call fed has its
// result and the feed has ended; b.mu is held.
func (b *runner) signal() {
	b.closed = true
	if b.cancellable {
		b.done <- struct{}{} // once per runner, into an empty buffer
	} else {
		b.wait.Done()
	}
}

// cancel gives every call without a result its result when ctx is done,
// and hands results to the caller.
func (b *runner) cancel() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return // every call had its result as ctx ended
	}
	b.closed = true
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
			b.results[i] = e.result(msg)
		case running:
			b.results[i] = abandonedResult(b.calls[i].Name, err)
			b.ended(i)
		}
	}
}

// pendingFrom counts the calls not started from call i on; b.mu is held.
func (b *runner) pendingFrom(i int) int {
	n := 0
	for _, s := range b.state[i:] {
		if s == pending {
			n++
		}
	}
	return n
}
