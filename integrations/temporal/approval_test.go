package tntemporal_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tntemporal "github.com/toolnexus/toolnexus/integrations/temporal"
)

// approvalCalls are a batch of the approval toolkit: c0 needs no
// approval (a sum of 3), c1 and c4 do (charge), c2 does by the predicate
// (a sum of 501), c3 has bad arguments.
var approvalCalls = []adapters.Call{
	call("c0", "add", `{"a":1,"b":2}`),
	call("c1", "charge", `{"account":"acme","cents":250}`),
	call("c2", "add", `{"a":500,"b":1}`),
	call("c3", "charge", `{"account":"","cents":1}`),
	call("c4", "charge", `{"account":"bob","cents":5}`),
}

// updateOutcome is what became of one update sent to the test
// environment.
type updateOutcome struct {
	rejected, failed error
	completed        bool
}

// sendDecisions sends decisions as the update, and records what became
// of it in out.
func sendDecisions(e *testsuite.TestWorkflowEnvironment, id string, out *updateOutcome, ds ...toolnexus.Decision) {
	e.UpdateWorkflow(tntemporal.UpdateDecide, id, &testsuite.TestUpdateCallback{
		OnAccept: func() {},
		OnReject: func(err error) { out.rejected = err },
		OnComplete: func(_ any, err error) {
			out.failed, out.completed = err, true
		},
	}, ds)
}

func queryPending(t *testing.T, e *testsuite.TestWorkflowEnvironment) []toolnexus.PendingCall {
	t.Helper()
	v, err := e.QueryWorkflow(tntemporal.QueryPending)
	if err != nil {
		t.Fatalf("query: %v", err)
	}
	var out []toolnexus.PendingCall
	if err := v.Get(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// The gate runs in the workflow: the calls that need approval wait, with
// their index, while the others run; the decisions, checked as Resume
// checks them, arrive by the update; each is applied once; the results
// take their places in call order.
func TestApprovalInWorkflow(t *testing.T) {
	p := newProbe()
	tools := testTools(approvalToolkit(p))
	e, started := env(t, tools)
	var locals []string
	e.SetOnLocalActivityStartedListener(func(info *activity.Info, _ context.Context, _ []any) {
		locals = append(locals, info.ActivityType.Name)
	})
	var pending, after []toolnexus.PendingCall
	var startedBefore []string
	bad := make([]updateOutcome, 5)
	var good, again, deny updateOutcome
	e.RegisterDelayedCallback(func() {
		pending = queryPending(t, e)
		startedBefore = slices.Clone(*started)
		if len(pending) != 3 {
			return
		}
		p1, p2 := pending[0], pending[1]
		other := p1
		other.Digest = pending[2].Digest
		sendDecisions(e, "bad0", &bad[0], toolnexus.Approve(other))                                         // another call's digest
		sendDecisions(e, "bad1", &bad[1], toolnexus.Decision{Index: 3, ID: "c3", Verdict: "approve"})       // not pending
		sendDecisions(e, "bad2", &bad[2], toolnexus.Edit(p2, json.RawMessage(`{"a":"seven","b":8}`)))       // bad edit
		sendDecisions(e, "bad3", &bad[3], toolnexus.Approve(p1), toolnexus.Deny(p1, "twice in one update")) // two for one call
		sendDecisions(e, "bad4", &bad[4], toolnexus.Decision{Index: p1.Index, ID: p1.ID, Digest: p1.Digest, Verdict: "maybe"})
		sendDecisions(e, "good", &good, toolnexus.Approve(p1), toolnexus.Edit(p2, json.RawMessage(`{"a":7, "b":8}`)))
	}, time.Second)
	e.RegisterDelayedCallback(func() {
		after = queryPending(t, e)
		if len(pending) == 3 {
			sendDecisions(e, "again", &again, toolnexus.Approve(pending[0]))
			sendDecisions(e, "deny", &deny, toolnexus.Deny(pending[2], "not bob"))
		}
	}, 2*time.Second)
	got := runTurn(t, e, approvalCalls)

	if len(pending) != 3 {
		t.Fatalf("pending calls: %+v", pending)
	}
	for k, want := range []struct {
		index int
		id    string
		args  string
	}{{1, "c1", `{"account":"acme","cents":250}`}, {2, "c2", `{"a":500,"b":1}`}, {4, "c4", `{"account":"bob","cents":5}`}} {
		pc := pending[k]
		if pc.Index != want.index || pc.ID != want.id || string(pc.Args) != want.args || pc.Nonce == "" ||
			pc.Issued.IsZero() || !strings.HasPrefix(pc.Digest, "sha256:") {
			t.Errorf("pending[%d] = %+v", k, pc)
		}
	}
	if pending[0].Nonce == pending[1].Nonce {
		t.Error("two pending calls share a nonce")
	}
	if strings.Join(startedBefore, " ") != "toolnexus.tool.add" {
		t.Errorf("activities started before any decision: %v, want add (c0) alone", startedBefore)
	}
	if strings.Join(locals, " ") != "toolnexus.tool.approval.needs" {
		t.Errorf("local activities: %v, want one that asks the predicate", locals)
	}
	for k, want := range []string{"digest does not match", "no such pending call", "decision about call 2 (id \"c2\"): the edited arguments: /a: expected integer", "two decisions for one call", `unknown verdict "maybe"`} {
		if bad[k].rejected == nil || !strings.Contains(bad[k].rejected.Error(), want) || bad[k].completed {
			t.Errorf("bad update %d: rejected %v (completed %v), want an error with %q", k, bad[k].rejected, bad[k].completed, want)
		}
	}
	if good.rejected != nil || good.failed != nil || !good.completed {
		t.Errorf("good update: %+v", good)
	}
	if len(after) != 1 || after[0].Index != 4 {
		t.Errorf("pending after the first decisions: %+v", after)
	}
	if again.rejected == nil || !strings.Contains(again.rejected.Error(), "decided already") {
		t.Errorf("a second decision about a call: %+v", again)
	}
	if deny.rejected != nil || !deny.completed {
		t.Errorf("deny: %+v", deny)
	}

	want := []string{`{"sum":3}`, "charged 250 to acme", `{"sum":15}`, "invalid arguments: /account: expected at least 1 character, got \"\"", "denied: not bob"}
	for i, w := range want {
		if got[i].Output != w {
			t.Errorf("result %d: %q, want %q", i, got[i].Output, w)
		}
	}
	if !errors.Is(got[4].Err, toolnexus.ErrDenied) || toolnexus.OutcomeOf(got[3]) != toolnexus.OutcomeBadArguments {
		t.Errorf("kinds: %v, %v", got[4].Err, got[3].Err)
	}
	if n := p.count(p.runs, "charge"); n != 1 {
		t.Errorf("charge ran %d times, want 1", n)
	}
	if n := p.count(p.runs, "add"); n != 2 {
		t.Errorf("add ran %d times, want 2", n)
	}
	// The worker's middleware and observers saw the calls that ran, and
	// none was pending there.
	if n := p.count(p.mw, "charge") + p.count(p.mw, "add"); n != 3 || slices.Contains(p.outcomes, toolnexus.OutcomePending) {
		t.Errorf("middleware ran %d times, observers saw %v", n, p.outcomes)
	}
}

// A call without a decision by its expiry is denied; a cancelled run's undecided calls keep
// their pending result, and it takes no decision after.
func TestApprovalExpiryAndCancel(t *testing.T) {
	t.Run("expiry", func(t *testing.T) {
		p := newProbe()
		tk := testToolkitWith(p, toolnexus.WithApproval("charge"), toolnexus.WithApprovalExpiry(time.Hour))
		e, _ := env(t, testTools(tk))
		var pending []toolnexus.PendingCall
		e.RegisterDelayedCallback(func() { pending = queryPending(t, e) }, time.Minute)
		got := runTurn(t, e, []adapters.Call{call("c0", "charge", `{"account":"acme","cents":1}`)})
		if len(pending) != 1 || !pending[0].Expires.Equal(pending[0].Issued.Add(time.Hour)) {
			t.Fatalf("pending: %+v", pending)
		}
		if !strings.HasPrefix(got[0].Output, "denied: no decision before the approval request expired at ") || p.count(p.runs, "charge") != 0 {
			t.Errorf("expired: %q", got[0].Output)
		}
	})
	t.Run("decided in time", func(t *testing.T) {
		p := newProbe()
		tk := testToolkitWith(p, toolnexus.WithApproval("charge"), toolnexus.WithApprovalExpiry(time.Hour))
		e, _ := env(t, testTools(tk))
		var ok updateOutcome
		e.RegisterDelayedCallback(func() {
			if ps := queryPending(t, e); len(ps) == 1 {
				sendDecisions(e, "ok", &ok, toolnexus.Approve(ps[0]))
			}
		}, 59*time.Minute)
		got := runTurn(t, e, []adapters.Call{call("c0", "charge", `{"account":"acme","cents":1}`)})
		if got[0].Output != "charged 1 to acme" || !ok.completed || p.count(p.runs, "charge") != 1 {
			t.Errorf("approved a minute before the expiry: %q, %+v", got[0].Output, ok)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		p := newProbe()
		tools := testTools(approvalToolkit(p))
		e, _ := env(t, tools)
		var after updateOutcome
		var pending []toolnexus.PendingCall
		e.RegisterDelayedCallback(func() {
			pending = queryPending(t, e)
			e.CancelWorkflow()
		}, time.Second)
		e.RegisterDelayedCallback(func() {
			if len(pending) == 1 {
				sendDecisions(e, "after", &after, toolnexus.Approve(pending[0]))
			}
		}, 2*time.Second)
		e.ExecuteWorkflow(func(ctx workflow.Context) ([]define.Result, error) {
			res := tools.Run(ctx, []adapters.Call{call("c0", "add", `{"a":1,"b":2}`), call("c1", "charge", `{"account":"acme","cents":1}`)})
			// The cancelled workflow goes on (to report), in a
			// disconnected context, long enough for the late update.
			dctx, _ := workflow.NewDisconnectedContext(ctx)
			_ = workflow.Sleep(dctx, 5*time.Second)
			return res, nil
		})
		var got []define.Result
		if err := e.GetWorkflowResult(&got); err != nil {
			t.Fatal(err)
		}
		if len(pending) != 1 {
			t.Fatalf("pending: %+v", pending)
		}
		if got[0].Output != `{"sum":3}` {
			t.Errorf("the free call: %q (%v)", got[0].Output, got[0].Err)
		}
		ps := toolnexus.PendingCalls(got)
		if len(ps) != 1 || ps[0].Digest != pending[0].Digest || toolnexus.OutcomeOf(got[1]) != toolnexus.OutcomePending {
			t.Errorf("the undecided call: %q, pending %+v", got[1].Output, ps)
		}
		if after.rejected == nil || !strings.Contains(after.rejected.Error(), "no longer waits") {
			t.Errorf("a decision after the run returned: %+v", after)
		}
		if p.count(p.runs, "charge") != 0 {
			t.Error("charge ran")
		}
	})
}

// A toolkit without approvals schedules as before: no marker, no local
// activity, no side effect; the query answers nothing for a toolkit
// with approvals whose batch has no call that needs one.
func TestApprovalNoneWaiting(t *testing.T) {
	tools := testTools(approvalToolkit(newProbe()))
	e, started := env(t, tools)
	var pending []toolnexus.PendingCall
	queried := false
	e.RegisterDelayedCallback(func() { pending, queried = queryPending(t, e), true }, 10*time.Millisecond)
	got := runTurn(t, e, []adapters.Call{call("c0", "slow", `{"millis":200}`), call("c1", "add", `{"a":1,"b":2}`)})
	if got[0].Output != "slept" || got[1].Output != `{"sum":3}` || len(*started) != 2 {
		t.Errorf("results %q %q, started %v", got[0].Output, got[1].Output, *started)
	}
	if !queried || pending == nil || len(pending) != 0 {
		t.Errorf("query with nothing waiting: %v %+v", queried, pending)
	}
}
