package tntemporal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// Run runs a batch of tool calls, as parsed from one model reply, from a
// workflow, and returns one result per call, in call order: what
// [toolnexus.Toolkit.Run] returns in process, each call run as an
// activity of its tool ([Tools.Register]). Like Toolkit.Run it never fails
// as a whole; every problem is one call's error result:
//
//   - a call of an unknown tool or with bad arguments is rejected here,
//     in the workflow, with the result Toolkit.Run gives it
//     ([toolnexus.Toolkit.Check]); no activity is scheduled for it, so
//     the worker's middleware and observers do not see it;
//   - a call of a tool that needs approval ([toolnexus.WithApproval],
//     [toolnexus.WithApprovalIf]) waits, in the workflow, for a decision
//     sent by the update [UpdateDecide] (the query [QueryPending] shows
//     the calls that wait): approved or edited, it is scheduled as the
//     others, past the worker's approval gate; denied, its result is
//     [toolnexus.Denied]'s; past its expiry without a decision, it is
//     denied. The predicates of WithApprovalIf run in a local activity
//     ([NeedsApprovalActivity]). Run returns once every call has its
//     result; the calls that need no approval run meanwhile.
//   - the others are scheduled in call order, at most [WithParallelism]
//     at once, each with its tool's activity options
//     ([Tools.ActivityOptions]); their results are the worker's, read back
//     from JSON with their error's kind;
//   - an activity that failed (its attempts timed out: a lost worker, a
//     tool past its StartToCloseTimeout) gives an error result wrapping
//     [toolnexus.ErrAbandoned] and [context.DeadlineExceeded]; for a tool
//     that is not idempotent the result says that the tool may have run
//     and was not run again ([ErrMayHaveRun]);
//   - when ctx is cancelled, the calls not yet scheduled are not (their
//     results wrap [context.Canceled]), and the running ones are
//     cancelled: their results wrap ErrAbandoned and context.Canceled,
//     and their tools' contexts are cancelled in the worker at its next
//     heartbeat; the calls that wait for approval keep their pending
//     result ([toolnexus.PendingCalls] finds them), and the workflow
//     takes no decision about them after.
//
// The query and the update are registered by each Run of a toolkit with
// approvals, answering for that Run's calls: one Run at a time in a
// workflow may wait for decisions.
//
// Arguments that arrived parsed (a call's Input) are sent as JSON, as
// json.Marshal writes the map.
func (t *Tools) Run(ctx workflow.Context, calls []adapters.Call) []define.Result {
	results := make([]define.Result, len(calls))
	var ap *approvals
	if t.gated {
		// Registered by every Run of a toolkit with approvals, so that
		// the query answers (with nothing) while no call waits.
		ap = &approvals{t: t, notify: workflow.NewBufferedChannel(ctx, 1)}
		if err := ap.register(ctx); err != nil {
			panic(fmt.Sprintf("tntemporal: Run: registering the query and the update: %v", err))
		}
	}
	if len(calls) == 0 {
		return results
	}
	checked := make([]int, 0, len(calls))
	var gated []int
	sent := make([]adapters.Call, len(calls))
	for i, c := range calls {
		if r, ok := t.tk.Check(c); !ok {
			results[i] = r
			continue
		}
		if c.Input != nil {
			// Checked, so of JSON's types and bounded in depth.
			args, err := json.Marshal(c.Input)
			if err != nil {
				results[i] = define.Result{Output: "invalid arguments: " + err.Error(), IsError: true,
					Err: fmt.Errorf("tntemporal: tool %s: arguments not sent: %w", c.Name, err)}
				continue
			}
			c.Args, c.Input = args, nil
		}
		sent[i] = c
		checked = append(checked, i)
		if t.tk.ApprovalMode(c.Name) != toolnexus.ApprovalNever {
			gated = append(gated, i)
		}
	}
	notes := make([]*gateNote, len(calls))
	queue := checked
	waiting := 0
	var expiry workflow.Future
	var stopExpiry workflow.CancelFunc
	if len(gated) > 0 && workflow.GetVersion(ctx, ApprovalChangeID, workflow.DefaultVersion, 1) == 1 {
		pending, free := t.gate(ctx, sent, gated, results)
		for _, i := range free {
			notes[i] = &gateNote{Gate: "not_needed"}
		}
		isGated := make(map[int]bool, len(gated))
		for _, i := range gated {
			isGated[i] = true
		}
		queue = make([]int, 0, len(checked))
		for _, i := range checked {
			if !isGated[i] || notes[i] != nil {
				queue = append(queue, i)
			}
		}
		if len(pending) > 0 {
			ap.pending, ap.decided, ap.verdict = pending, make([]bool, len(pending)), make([]*toolnexus.Decision, len(pending))
			waiting = len(pending)
			if exp := pending[0].Expires; !exp.IsZero() { // one issue time for the batch
				var tctx workflow.Context
				tctx, stopExpiry = workflow.WithCancel(ctx)
				expiry = workflow.NewTimer(tctx, max(exp.Sub(workflow.Now(ctx)), time.Millisecond))
			}
		}
	}
	type slot struct {
		i int
		f workflow.Future
	}
	var running []slot
	cancelled := false
	for {
		for len(queue) > 0 && len(running) < t.parallelism && ctx.Err() == nil {
			i := queue[0]
			queue = queue[1:]
			actx := workflow.WithActivityOptions(ctx, t.opts[sent[i].Name])
			var f workflow.Future
			if notes[i] == nil {
				f = workflow.ExecuteActivity(actx, t.ActivityName(sent[i].Name), sent[i])
			} else {
				f = workflow.ExecuteActivity(actx, t.ActivityName(sent[i].Name), sent[i], *notes[i])
			}
			running = append(running, slot{i, f})
		}
		if ctx.Err() != nil {
			// A workflow's context ends only by cancellation.
			cancelled = true
			for _, i := range queue {
				results[i] = notScheduled(calls[i].Name, context.Canceled)
			}
			queue = nil
		}
		if len(running) == 0 && len(queue) == 0 && (waiting == 0 || cancelled) {
			break
		}
		sel := workflow.NewSelector(ctx)
		finished := -1
		for k, s := range running {
			sel.AddFuture(s.f, func(f workflow.Future) {
				results[s.i] = t.resultOf(ctx, f, sent[s.i].Name)
				finished = k
			})
		}
		if waiting > 0 && !cancelled {
			sel.AddReceive(ap.notify, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil) })
			sel.AddReceive(ctx.Done(), func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil) })
			if expiry != nil {
				sel.AddFuture(expiry, func(workflow.Future) {
					expiry = nil
					for k, p := range ap.pending {
						if !ap.decided[k] {
							ap.decided[k] = true
							waiting--
							results[p.Index] = toolnexus.Denied("no decision before the approval request expired at " + p.Expires.Format(time.RFC3339))
						}
					}
				})
			}
		}
		sel.Select(ctx)
		if finished >= 0 {
			running = append(running[:finished], running[finished+1:]...)
		}
		if ap != nil && len(ap.ready) > 0 {
			for _, k := range ap.ready {
				waiting--
				p, d := ap.pending[k], ap.verdict[k]
				if d.Verdict == toolnexus.VerdictDeny {
					results[p.Index] = toolnexus.Denied(d.Reason)
					continue
				}
				c, note := decidedCall(p, d)
				sent[p.Index], notes[p.Index] = c, &note
				at, _ := slices.BinarySearch(queue, p.Index)
				queue = slices.Insert(queue, at, p.Index)
			}
			ap.ready = ap.ready[:0]
		}
	}
	if expiry != nil {
		stopExpiry() // every call was decided: the timer is not needed
	}
	if ap != nil {
		// Cancelled: decisions applied since the loop last looked are
		// not carried out, and no decision is taken from now on.
		for _, k := range ap.ready {
			p := ap.pending[k]
			results[p.Index] = notScheduled(p.Tool, context.Canceled)
		}
		ap.ready, ap.closed = nil, true
		for k, p := range ap.pending {
			if !ap.decided[k] { // cancelled while it waited: it has not run
				results[p.Index] = define.Result{Output: "awaiting approval: the tool has not run yet", IsError: true,
					Err: &toolnexus.PendingError{Call: p}}
			}
		}
	}
	return results
}

// ErrMayHaveRun is wrapped by the Err of the result of a call of a tool
// that is not idempotent whose attempt ended without a result (its
// worker was lost, or it passed its timeout): the tool may have run, and
// it was not run again.
var ErrMayHaveRun = errors.New("the tool may have run and is not run again")

// ErrMayHaveRun survives a result's JSON (a workflow's result, a stored
// history) under this name.
func init() {
	if err := define.RegisterSentinel("tntemporal.may_have_run", ErrMayHaveRun); err != nil {
		panic(err)
	}
}

// resultOf is the result of the activity of f, a call of the tool named
// name.
func (t *Tools) resultOf(ctx workflow.Context, f workflow.Future, name string) define.Result {
	var res define.Result
	err := f.Get(ctx, &res)
	if err == nil {
		return res
	}
	var (
		canceled *temporal.CanceledError
		timeout  *temporal.TimeoutError
	)
	switch {
	case errors.As(err, &canceled):
		return define.Result{Output: "the tool did not finish: " + context.Canceled.Error(), IsError: true,
			Err: fmt.Errorf("tool %s: %w: %w", name, toolnexus.ErrAbandoned, context.Canceled)}
	case errors.As(err, &timeout) && !t.idempotent[name]:
		return define.Result{
			Output:  "the tool did not report a result in time; it may have run, and it is not run again",
			IsError: true,
			Err:     fmt.Errorf("tool %s: %w: %w (%s timeout): %w", name, toolnexus.ErrAbandoned, context.DeadlineExceeded, timeout.TimeoutType(), ErrMayHaveRun),
		}
	case errors.As(err, &timeout):
		return define.Result{Output: "the tool timed out", IsError: true,
			Err: fmt.Errorf("tool %s: %w: %w (%s timeout, every attempt)", name, toolnexus.ErrAbandoned, context.DeadlineExceeded, timeout.TimeoutType())}
	}
	return define.Result{Output: "the tool failed: " + err.Error(), IsError: true,
		Err: fmt.Errorf("tool %s: activity failed: %w", name, err)}
}

// notScheduled is the result of a call not scheduled because ctx was
// done, as toolnexus.Toolkit.Run gives one not started.
func notScheduled(name string, cause error) define.Result {
	return define.Result{Output: "cancelled before the tool ran: " + cause.Error(), IsError: true,
		Err: fmt.Errorf("tool %s not run: %w", name, cause)}
}
