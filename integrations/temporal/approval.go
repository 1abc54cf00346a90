package tntemporal

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// Approvals in the workflow. A call of a tool that needs approval
// ([toolnexus.WithApproval], [toolnexus.WithApprovalIf]) is stopped by
// [Tools.Run] in the workflow, before any activity is scheduled for it:
// its [toolnexus.PendingCall] is made there, with the call's index in the
// batch, a nonce drawn in a side effect and the workflow's time, so that
// a replay makes the same one. The pending calls are readable by the
// query [QueryPending]; the decisions arrive as the update
// [UpdateDecide], whose validator refuses a bad decision before it is
// written to the history. The workflow's state records what was decided,
// so a decision is applied once: a second one about the same call is
// refused. Run then schedules the approved and edited calls, and gives
// each call its result in call order.

// The query and the update of a workflow whose [Tools.Run] waits for
// decisions, and the version of the change that brought approvals into
// the workflow ([workflow.GetVersion]).
const (
	// QueryPending is the query that returns the calls waiting for a
	// decision, a []toolnexus.PendingCall (empty when none is waiting).
	QueryPending = "toolnexus.pending"
	// UpdateDecide is the update that carries decisions, a
	// []toolnexus.Decision made with toolnexus.Approve, Deny or Edit.
	// All of them are applied, or none (its error says which one was
	// refused and why).
	UpdateDecide = "toolnexus.decide"
	// ApprovalChangeID is the change ID [Tools.Run] asks
	// [workflow.GetVersion] about when a batch has calls of tools that
	// need approval: a workflow that started under an earlier version of
	// this module (which ran the approval gate in the worker) keeps doing
	// so when it replays.
	ApprovalChangeID = "toolnexus.approval-in-workflow"
)

// NeedsApprovalActivity is the name, after the prefix ([DefaultPrefix]
// or [WithPrefix]), of the local activity that asks the
// [toolnexus.WithApprovalIf] predicates of a batch whether its calls
// need approval. It holds a ".", which no tool's name does.
const NeedsApprovalActivity = "approval.needs"

// ApprovalTimeout bounds the local activity of the predicates
// ([NeedsApprovalActivity]); when it fails (the worker lost, the
// predicate stuck), the calls it asked about need approval.
const ApprovalTimeout = 30 * time.Second

// gateNote is the second input of a tool's activity for a call whose
// approval the workflow decided: the worker runs it past its toolkit's
// gate (toolnexus.WithApprovalDecided). An activity scheduled without it
// (by an earlier version of this module) runs the call through the gate.
type gateNote struct {
	Gate string `json:"gate"` // "not_needed", "approved" or "edited"
}

// gateAnswer is what the predicate said of one call: Result, when the
// call ended in the gate (its arguments rejected by the worker, a panic
// of the predicate).
type gateAnswer struct {
	Needs  bool           `json:"needs,omitempty"`
	Result *define.Result `json:"result,omitempty"`
}

// needsActivity is the local activity of NeedsApprovalActivity.
func (t *Tools) needsActivity(ctx context.Context, calls []adapters.Call) ([]gateAnswer, error) {
	out := make([]gateAnswer, len(calls))
	for i, c := range calls {
		needs, res, ok := t.tk.NeedsApproval(ctx, c)
		if !ok {
			out[i].Result = &res
			continue
		}
		out[i].Needs = needs
	}
	return out, nil
}

// approvals is the state of one Run's pending calls.
type approvals struct {
	t       *Tools
	pending []toolnexus.PendingCall
	decided []bool
	ready   []int // positions in pending decided and not yet taken by Run
	verdict []*toolnexus.Decision
	notify  workflow.Channel // a token after an applied update
	closed  bool             // Run has returned: no decision is taken
}

// undecided returns the pending calls without a decision.
func (a *approvals) undecided() []toolnexus.PendingCall {
	out := []toolnexus.PendingCall{}
	for k, p := range a.pending {
		if !a.decided[k] && !a.closed {
			out = append(out, p)
		}
	}
	return out
}

// check refuses decisions that Toolkit.Resume would refuse, and those
// about a call decided already; it returns the position in pending of
// each decision.
func (a *approvals) check(ctx workflow.Context, ds []toolnexus.Decision) ([]int, error) {
	if len(ds) == 0 {
		return nil, errors.New("tntemporal: no decisions")
	}
	if a.closed {
		return nil, fmt.Errorf("tntemporal: the run no longer waits for decisions (it has returned): %w", toolnexus.ErrNotPending)
	}
	now := workflow.Now(ctx)
	type key struct {
		index int
		id    string
	}
	byCall := make(map[key]int, len(a.pending))
	for k, p := range a.pending {
		byCall[key{p.Index, p.ID}] = k
	}
	at := make([]int, len(ds))
	seen := map[int]bool{}
	for j := range ds {
		d := &ds[j]
		fail := func(err error) error {
			return fmt.Errorf("tntemporal: decision about call %d (id %q): %w", d.Index, d.ID, err)
		}
		k, ok := byCall[key{d.Index, d.ID}]
		if !ok {
			return nil, fail(toolnexus.ErrNotPending)
		}
		p := a.pending[k]
		switch {
		case d.Digest != p.Digest:
			return nil, fail(fmt.Errorf("the decision was made on other arguments, or about another pending call: %w", toolnexus.ErrDigestMismatch))
		case !p.Expires.IsZero() && !now.Before(p.Expires):
			return nil, fail(fmt.Errorf("expired at %s: %w", p.Expires.Format(time.RFC3339), toolnexus.ErrExpired))
		case a.decided[k]:
			return nil, fail(toolnexus.ErrDecided)
		case seen[k]:
			return nil, fail(errors.New("two decisions for one call"))
		}
		switch d.Verdict {
		case toolnexus.VerdictApprove, toolnexus.VerdictDeny:
		case toolnexus.VerdictEdit:
			if len(d.Args) == 0 {
				return nil, fail(errors.New("an edit without arguments"))
			}
			if r, ok := a.t.tk.Check(adapters.Call{ID: p.ID, Name: p.Tool, Args: d.Args}); !ok {
				return nil, fail(fmt.Errorf("the edited arguments: %w", r.Err))
			}
		default:
			return nil, fail(fmt.Errorf("unknown verdict %q (want approve, deny or edit)", d.Verdict))
		}
		seen[k] = true
		at[j] = k
	}
	return at, nil
}

// apply records decisions checked by check.
func (a *approvals) apply(ctx workflow.Context, ds []toolnexus.Decision) error {
	at, err := a.check(ctx, ds) // again: the validator does not run on replay
	if err != nil {
		return err
	}
	for j, k := range at {
		d := ds[j]
		a.decided[k], a.verdict[k] = true, &d
		a.ready = append(a.ready, k)
	}
	a.notify.SendAsync(struct{}{})
	return nil
}

// register makes a the state the query and the update of the workflow
// read and write.
func (a *approvals) register(ctx workflow.Context) error {
	if err := workflow.SetQueryHandler(ctx, QueryPending, func() ([]toolnexus.PendingCall, error) {
		return a.undecided(), nil
	}); err != nil {
		return err
	}
	return workflow.SetUpdateHandlerWithOptions(ctx, UpdateDecide, a.apply, workflow.UpdateHandlerOptions{
		Validator: func(ctx workflow.Context, ds []toolnexus.Decision) error {
			_, err := a.check(ctx, ds)
			return err
		},
	})
}

// gate decides, in the workflow, which of the calls at gated (checked
// calls of tools that need approval) wait for a decision: every call of a
// tool with WithApproval, and those the WithApprovalIf predicates want,
// asked in one local activity. It returns the pending calls (their
// Index is their place in calls) and fills results for the calls that
// ended in the gate; the others are returned as free.
func (t *Tools) gate(ctx workflow.Context, calls []adapters.Call, gated []int, results []define.Result) (pending []toolnexus.PendingCall, free []int) {
	var askAt []int
	var ask []adapters.Call
	needs := make(map[int]bool, len(gated))
	for _, i := range gated {
		if t.tk.ApprovalMode(calls[i].Name) == toolnexus.ApprovalIf {
			askAt = append(askAt, i)
			ask = append(ask, calls[i])
			continue
		}
		needs[i] = true
	}
	if len(ask) > 0 {
		lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
			ScheduleToCloseTimeout: ApprovalTimeout,
			RetryPolicy:            &temporal.RetryPolicy{MaximumAttempts: 3},
		})
		var answers []gateAnswer
		err := workflow.ExecuteLocalActivity(lctx, t.prefix+NeedsApprovalActivity, ask).Get(ctx, &answers)
		for n, i := range askAt {
			switch {
			case err != nil || n >= len(answers):
				needs[i] = true // not known: a person decides
			case answers[n].Result != nil:
				results[i] = *answers[n].Result // ended in the gate
			default:
				needs[i] = answers[n].Needs
			}
		}
	}
	var waiting []int
	for _, i := range gated {
		n, ok := needs[i]
		switch {
		case !ok:
			// ended in the gate: its result is set
		case n:
			waiting = append(waiting, i)
		default:
			free = append(free, i)
		}
	}
	if len(waiting) == 0 {
		return nil, free
	}
	var nonces []string
	if err := workflow.SideEffect(ctx, func(workflow.Context) any {
		out := make([]string, len(waiting))
		for k := range out {
			var b [16]byte
			_, _ = rand.Read(b[:]) // never fails (crypto/rand)
			out[k] = base64.RawURLEncoding.EncodeToString(b[:])
		}
		return out
	}).Get(&nonces); err != nil || len(nonces) != len(waiting) {
		panic(fmt.Sprintf("tntemporal: the side effect of the nonces: %v", err)) // a history that is not ours
	}
	issued := workflow.Now(ctx)
	for k, i := range waiting {
		p, err := t.tk.NewPendingCall(i, calls[i], nonces[k], issued)
		if err != nil {
			// Checked already: cannot happen; the call's error rather
			// than a run without approval.
			results[i] = define.Result{Output: "not run: " + err.Error(), IsError: true, Err: err}
			continue
		}
		pending = append(pending, p)
	}
	return pending, free
}

// decidedCall is the call an approved or edited pending call runs as.
func decidedCall(p toolnexus.PendingCall, d *toolnexus.Decision) (adapters.Call, gateNote) {
	c := adapters.Call{ID: p.ID, Name: p.Tool, Args: p.Args}
	if d.Verdict != toolnexus.VerdictEdit {
		return c, gateNote{Gate: "approved"}
	}
	var b bytes.Buffer
	if json.Compact(&b, d.Args) == nil {
		c.Args = b.Bytes()
	} else {
		c.Args = append(json.RawMessage(nil), d.Args...)
	}
	return c, gateNote{Gate: "edited"}
}

// Pending returns the calls that the workflow workflowID (its latest run
// when runID is "") waits for decisions about, by the query
// [QueryPending].
func Pending(ctx context.Context, c client.Client, workflowID, runID string) ([]toolnexus.PendingCall, error) {
	v, err := c.QueryWorkflow(ctx, workflowID, runID, QueryPending)
	if err != nil {
		return nil, err
	}
	var out []toolnexus.PendingCall
	if err := v.Get(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// Decide sends decisions to the workflow workflowID (its latest run when
// runID is "") by the update [UpdateDecide], and waits until the
// workflow has applied them: all of them, or none, and then the error
// says which one was refused and why (not pending, decided already, made
// on other arguments, expired, an edit whose arguments are not valid).
// The calls then run; their results are the workflow's.
func Decide(ctx context.Context, c client.Client, workflowID, runID string, decisions ...toolnexus.Decision) error {
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: workflowID, RunID: runID, UpdateName: UpdateDecide,
		Args: []any{decisions}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return err
	}
	return h.Get(ctx, nil)
}
