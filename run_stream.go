package toolnexus

import (
	"context"
	"io"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// EarlyStart says which calls [Toolkit.RunStream] starts while the stream
// is still arriving ([WithEarlyStart]). A call started early has run, with
// its side effects, even if the stream then breaks and the turn never
// happens; a call held back costs the time from its end in the stream to
// the stream's end.
type EarlyStart uint8

const (
	// EarlyStartAll starts every call as soon as the stream completes
	// it: the default, the soonest results.
	EarlyStartAll EarlyStart = iota
	// EarlyStartReadOnly starts early only the calls of tools marked
	// read-only (define.Annotations ReadOnly set to define.HintTrue), and
	// the others once the stream has ended whole.
	EarlyStartReadOnly
	// EarlyStartNone starts no call before the stream has ended whole:
	// a broken stream runs no tool.
	EarlyStartNone
)

// WithEarlyStart sets which calls [Toolkit.RunStream] starts before the
// stream has ended (see [EarlyStart]; a value that is none of the
// constants is EarlyStartNone). [Toolkit.Run] and [Toolkit.Resume], whose
// calls are all known at once, ignore it.
func WithEarlyStart(e EarlyStart) RunOption {
	return runOption(func(c *runConfig) { c.early = e })
}

// RunStream reads a streamed reply of p's provider from body (the HTTP
// response body as the provider sends it) and runs each tool call as soon
// as the stream completes it, while the rest of the reply is still
// arriving ([WithEarlyStart] holds calls back until the stream's end). It
// returns the reply's Turn, as p.ParseStream would, and one result per
// call of the Turn, in call order, as [Toolkit.Run] returns them: ready
// for p.Results(turn.Calls, results).
//
// hooks are the caller's own (a UI's text, a log of calls): each is
// called as the stream delivers its part, Call before the call starts.
// The calls run under Run's rules, with its options: at most
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
// with a zero Turn, and the results of the calls it had completed before:
// those that started (abandoned if still running), and those not started
// (held back, or waiting for a slot), whose errors wrap
// [context.Canceled]; so that what ran can be logged. Nothing should be
// sent back to the model for them.
func (tk *Toolkit) RunStream(ctx context.Context, p adapters.Provider, body io.Reader, hooks adapters.StreamHooks, opts ...RunOption) (adapters.Turn, []define.Result, error) {
	return tk.runFed(ctx, hooks, opts, func(h adapters.StreamHooks) (adapters.Turn, error) {
		s, err := adapters.NewStream(p, h)
		if err != nil {
			return adapters.Turn{}, err
		}
		return readStream(s, body)
	})
}

// runFed runs the calls of a streamed reply as read feeds them: read
// reads the reply, calling the hooks it is given (the caller's, whose
// Call also feeds the call to the runner) as the reply arrives.
func (tk *Toolkit) runFed(ctx context.Context, hooks adapters.StreamHooks, opts []RunOption, read func(adapters.StreamHooks) (adapters.Turn, error)) (adapters.Turn, []define.Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop() // only after every result is final: see await
	b := tk.newRunner(ctx, false, opts)
	b.fed, b.open, b.slots = true, true, b.cfg.parallelism
	b.state = b.small[:0]
	userCall := hooks.Call
	hooks.Call = func(c adapters.Call) {
		if userCall != nil {
			userCall(c)
		}
		b.add(c)
	}
	turn, err := read(hooks)
	if err != nil {
		stop() // the calls still running are abandoned, those held back not started
	}
	b.close(err == nil)
	b.await()
	b.mu.Lock() // the feed grew calls, results and times under it
	calls, results, times := b.calls, b.results, b.times
	b.mu.Unlock()
	b.release()
	if times != nil {
		tk.observeAll(ctx, calls, results, times)
	}
	if err != nil {
		return adapters.Turn{}, results, err
	}
	return turn, results, nil
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

// add feeds c, the next call of a stream: it starts as soon as a slot is
// free, unless it is held back until the stream's end (b.cfg.early).
func (b *runner) add(c adapters.Call) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := len(b.calls)
	b.calls = append(b.calls, c)
	b.results = append(b.results, define.Result{})
	b.state = append(b.state, pending)
	if b.tk.observed() {
		b.times = append(b.times, callTime{})
	}
	b.left++
	switch {
	case b.ctx.Err() != nil:
		r := notStarted(c.Name, b.ctx.Err())
		b.results[i] = r
		b.state[i] = finished
		b.settled()
	case b.startsEarly(&c):
		b.queue(i)
	default:
		b.later = append(b.later, i)
	}
}

// startsEarly reports whether c may start before the stream has ended.
func (b *runner) startsEarly(c *adapters.Call) bool {
	switch b.cfg.early {
	case EarlyStartAll:
		return true
	case EarlyStartReadOnly:
		i, ok := b.tk.toolIndex(c.Name)
		return ok && b.tk.tools[i].Annotations().ReadOnly == define.HintTrue
	}
	return false
}

// close ends the feed of a stream: whole says the stream ended whole, so
// that the calls held back may start.
func (b *runner) close(whole bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.open = false
	if whole && b.ctx.Err() == nil {
		for _, i := range b.later {
			b.queue(i)
		}
		b.later = nil
	}
	if b.left == 0 && !b.closed {
		b.signal()
	}
}
