package toolnexus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/echo"
)

// RunStream reads a streamed reply of p's provider from body (the HTTP
// response body as the provider sends it) and runs each tool call as soon
// as the stream completes it, while the rest of the reply is still
// arriving. It returns the reply's Turn, as p.ParseStream would, and one
// result per call of the Turn, in call order, as [Toolkit.Run] returns
// them: ready for p.Results(turn.Calls, results).
//
// hooks are the caller's own (a UI's text, a log of calls): each is
// called as the stream delivers its part, Call before the call starts.
// The calls run under the same rules as Run's, with its options: at most
// [WithParallelism] at once (an abandoned call keeps its slot until its
// tool returns, and when every slot is held so, calls not yet started get
// results wrapping [ErrSlotsHeld]), each bounded by [WithCallTimeout],
// every panic and runtime.Goexit of a tool an error result, never on the
// caller's goroutine. When ctx is done, calls not started are not started
// and RunStream returns without waiting for the ones running (their
// results wrap [ErrAbandoned]); reading body stops only when its own
// Read returns, so give the request the same ctx.
//
// Each call goes through the toolkit's middleware, approval gate and
// observers as under Run (see [Middleware]): a call that needs approval
// does not run, its result is pending ([PendingCalls]), and the observers
// see every result, in call order, before RunStream returns.
//
// A stream that is broken or ends early returns its [*adapters.ReplyError]
// with a zero Turn, and the results of the calls it had completed before
// (which started, and are abandoned if still running), so that what ran
// can be logged; nothing should be sent back to the model for them.
func (tk *Toolkit) RunStream(ctx context.Context, p adapters.Provider, body io.Reader, hooks adapters.StreamHooks, opts ...RunOption) (adapters.Turn, []define.Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	r := &streamRun{tk: tk}
	for _, o := range opts {
		if o != nil {
			o.applyRun(&r.cfg)
		}
	}
	if r.cfg.parallelism < 1 {
		r.cfg.parallelism = DefaultParallelism
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop() // only after every result is final: see wait
	r.ctx = ctx
	userCall := hooks.Call
	hooks.Call = func(c adapters.Call) {
		if userCall != nil {
			userCall(c)
		}
		r.add(c)
	}
	s, err := adapters.NewStream(p, hooks)
	if err != nil {
		return adapters.Turn{}, nil, err
	}
	turn, err := readStream(s, body)
	if err != nil {
		stop() // the calls still running are abandoned
	}
	results := r.wait()
	if tk.hooks != nil && len(tk.hooks.observers) > 0 {
		r.mu.Lock()
		calls, times := r.calls, r.times
		r.mu.Unlock()
		tk.observeAll(ctx, calls, results, times)
	}
	return turn, results, err
}

// readStream reads body into s to its end.
func readStream(s *adapters.Stream, body io.Reader) (adapters.Turn, error) {
	if body == nil {
		return s.Close()
	}
	if _, err := s.ReadFrom(body); err != nil {
		return adapters.Turn{}, err
	}
	return s.Close()
}

// streamRun runs the calls of one stream as they come: each call is a
// goroutine of its own, started when a slot is free, that runs its tool
// and ends with it.
type streamRun struct {
	tk  *Toolkit
	ctx context.Context
	cfg runConfig

	mu      sync.Mutex
	calls   []adapters.Call
	results []define.Result
	state   []callState
	times   []callTime // each call's times, for the observers
	queue   []int      // calls waiting for a slot, in order
	busy    int        // slots taken: calls whose tool has not returned
	held    int        // of them, calls abandoned whose tool has not returned
	left    int        // calls without a result
	closed  bool       // results belong to the caller
	full    bool       // every slot is held by an abandoned call: no call starts
	settle  chan struct{}
}

// add takes call c, the next of the stream.
func (r *streamRun) add(c adapters.Call) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := len(r.calls)
	r.calls = append(r.calls, c)
	r.results = append(r.results, define.Result{})
	r.state = append(r.state, pending)
	if r.tk.hooks != nil {
		r.times = append(r.times, callTime{})
	}
	r.left++
	switch {
	case r.closed:
		r.results[i] = notStarted(c, context.Canceled)
		r.state[i] = finished
		r.left--
	case r.ctx.Err() != nil:
		r.results[i] = notStarted(c, r.ctx.Err())
		r.state[i] = finished
		r.left--
	case r.full:
		r.slotsHeld(i)
	case r.busy < r.cfg.parallelism:
		r.launch(i)
	default:
		r.queue = append(r.queue, i)
	}
}

// launch starts call i; r.mu is held.
func (r *streamRun) launch(i int) {
	r.busy++
	r.state[i] = running
	if r.tk.hooks != nil {
		r.times[i].start = time.Now()
	}
	go r.run(i, r.calls[i])
}

// slotsHeld gives call i, not started, its result when every slot is
// held by an abandoned call; r.mu is held.
func (r *streamRun) slotsHeld(i int) {
	c := r.calls[i]
	err := fmt.Errorf("tool %s not run: %w (%d still running)", c.Name, ErrSlotsHeld, r.cfg.parallelism)
	r.results[i] = define.Result{Output: "not run: every slot was held by an earlier call that timed out and is still running", IsError: true, Err: err}
	r.state[i] = finished
	r.settled()
}

// run runs call i's tool on this goroutine and records its result.
func (r *streamRun) run(i int, c adapters.Call) {
	ctx, cancel := r.ctx, context.CancelFunc(func() {})
	if r.cfg.callTimeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, r.cfg.callTimeout)
	}
	callCtx := ctx
	stopAbandon := context.AfterFunc(callCtx, func() { r.abandon(i, callCtx.Err()) })
	returned := false
	defer func() {
		if returned {
			return
		}
		// define recovers a handler's panic; this guards what runs around
		// it, and a tool that calls runtime.Goexit.
		var res define.Result
		if v := recover(); v != nil {
			err := &define.PanicError{Tool: c.Name, Value: v, Stack: debug.Stack()}
			res = define.Result{Output: "tool " + c.Name + " failed with an internal error: " + echo.Value(v, define.MaxEchoedPanic), IsError: true, Err: err}
		} else {
			err := fmt.Errorf("tool %s: %w (runtime.Goexit)", c.Name, ErrToolExited)
			res = define.Result{Output: "the tool ended without a result", IsError: true, Err: err}
		}
		stopAbandon()
		cancel()
		r.finish(i, res)
	}()
	var res define.Result
	if r.tk.hooks != nil {
		res = r.tk.call(ctx, i, &c, false)
	} else if c.Input != nil {
		res = r.tk.Execute(ctx, c.Name, c.Input)
	} else {
		res = r.tk.ExecuteJSON(ctx, c.Name, c.Args)
	}
	returned = true
	stopAbandon()
	cancel()
	r.finish(i, res)
}

// finish records the result of call i, whose tool returned, unless the
// call was abandoned meanwhile, and gives its slot to the next call.
func (r *streamRun) finish(i int, res define.Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.busy--
	switch r.state[i] {
	case abandoned:
		r.held--
		r.full = false
	case running:
		if !r.closed {
			r.results[i] = res
			r.state[i] = finished
			r.ended(i)
			r.settled()
		}
	}
	r.next()
}

// next starts queued calls while slots are free; r.mu is held.
func (r *streamRun) next() {
	for len(r.queue) > 0 && r.busy < r.cfg.parallelism && !r.closed {
		i := r.queue[0]
		r.queue = r.queue[1:]
		if err := r.ctx.Err(); err != nil {
			r.results[i] = notStarted(r.calls[i], err)
			r.state[i] = finished
			r.settled()
			continue
		}
		r.launch(i)
	}
}

// abandon gives running call i an abandoned result, its context done with
// cause; its tool keeps its slot until it returns.
func (r *streamRun) abandon(i int, cause error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.state[i] != running {
		return
	}
	r.results[i] = abandonedResult(r.calls[i], cause)
	r.state[i] = abandoned
	r.ended(i)
	r.held++
	r.settled()
	if r.held == r.cfg.parallelism {
		r.full = true
		for _, j := range r.queue {
			r.slotsHeld(j)
		}
		r.queue = r.queue[:0]
	}
}

// ended records when call i had its result, for the observers; r.mu is
// held.
func (r *streamRun) ended(i int) {
	if r.times != nil && !r.times[i].start.IsZero() {
		r.times[i].end = time.Now()
	}
}

// settled counts one more call with its result; r.mu is held.
func (r *streamRun) settled() {
	r.left--
	if r.left == 0 && r.settle != nil {
		close(r.settle)
		r.settle = nil
	}
}

// wait returns the results once every call has one, or once r.ctx is
// done: then calls not started are not started and the running ones are
// abandoned.
func (r *streamRun) wait() []define.Result {
	r.mu.Lock()
	if r.left == 0 {
		r.closed = true
		defer r.mu.Unlock()
		return r.results
	}
	settle := make(chan struct{})
	r.settle = settle
	r.mu.Unlock()
	select {
	case <-settle:
	case <-r.ctx.Done():
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	if r.left > 0 {
		err := r.ctx.Err()
		if err == nil {
			err = errors.New("the stream failed")
		}
		for i, st := range r.state {
			switch st {
			case pending:
				r.results[i] = notStarted(r.calls[i], err)
			case running:
				r.results[i] = abandonedResult(r.calls[i], err)
				r.ended(i)
			}
		}
		r.queue = nil
	}
	return r.results
}
