package tntemporal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

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
//     heartbeat.
//
// Arguments that arrived parsed (a call's Input) are sent as JSON, as
// json.Marshal writes the map.
func (t *Tools) Run(ctx workflow.Context, calls []adapters.Call) []define.Result {
	results := make([]define.Result, len(calls))
	if len(calls) == 0 {
		return results
	}
	toRun := make([]int, 0, len(calls))
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
		toRun = append(toRun, i)
	}
	sel := workflow.NewSelector(ctx)
	running := 0
	for _, i := range toRun {
		for running >= t.parallelism {
			sel.Select(ctx)
			running--
		}
		if ctx.Err() != nil {
			// A workflow's context ends only by cancellation.
			results[i] = notScheduled(calls[i].Name, context.Canceled)
			continue
		}
		name := calls[i].Name
		f := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, t.opts[name]), t.ActivityName(name), sent[i])
		running++
		sel.AddFuture(f, func(f workflow.Future) {
			results[i] = t.resultOf(ctx, f, name)
		})
	}
	for ; running > 0; running-- {
		sel.Select(ctx)
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
