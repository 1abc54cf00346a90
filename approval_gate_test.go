package toolnexus_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// The gate taken apart gives the answers Run's gate gives, without
// running any tool.
func TestApprovalGateParts(t *testing.T) {
	var runs atomic.Int32
	var predRuns int
	pred := func(ctx context.Context, c *toolnexus.Call) bool {
		predRuns++
		if c.Input().(transferIn).To == "boom" {
			panic("predicate jammed")
		}
		return largeTransfer(ctx, c)
	}
	tk := lcToolkit(t, &runs, toolnexus.WithApprovalIf("transfer", pred), toolnexus.WithApproval("echo"),
		toolnexus.WithApprovalExpiry(time.Hour))
	plain := lcToolkit(t, &runs)
	if m := tk.ApprovalMode("transfer"); m != toolnexus.ApprovalIf || m.String() != "if" {
		t.Errorf("transfer: %v", m)
	}
	if m := tk.ApprovalMode("echo"); m != toolnexus.ApprovalAlways {
		t.Errorf("echo: %v", m)
	}
	if tk.ApprovalMode("nope") != toolnexus.ApprovalNever || plain.ApprovalMode("transfer") != toolnexus.ApprovalNever {
		t.Error("an unknown tool, or a toolkit without approvals, needs approval")
	}

	cases := []struct {
		call      adapters.Call
		needs, ok bool
		outcome   toolnexus.Outcome
	}{
		{call: call("transfer", `{"to":"ann","amount":20}`), ok: true},
		{call: call("transfer", `{"to":"bob","amount":800}`), needs: true, ok: true},
		{call: adapters.Call{Name: "transfer", Input: map[string]any{"to": "bob", "amount": json.Number("900")}}, needs: true, ok: true},
		{call: call("echo", `{}`), needs: true, ok: true},
		{call: call("transfer", `{"to":"bob","amount":8000}`), outcome: toolnexus.OutcomeBadArguments},
		{call: call("transfr", `{}`), outcome: toolnexus.OutcomeUnknownTool},
		{call: call("transfer", `{"to":"boom","amount":500}`), outcome: toolnexus.OutcomePanic},
	}
	for i, c := range cases {
		needs, res, ok := tk.NeedsApproval(context.Background(), c.call)
		if needs != c.needs || ok != c.ok {
			t.Errorf("case %d: needs %v ok %v, want %v %v (%+v)", i, needs, ok, c.needs, c.ok, res)
		}
		if !ok && toolnexus.OutcomeOf(res) != c.outcome {
			t.Errorf("case %d: outcome %s (%q), want %s", i, toolnexus.OutcomeOf(res), res.Output, c.outcome)
		}
		// Run's gate agrees.
		got := tk.Run(context.Background(), []adapters.Call{c.call})[0]
		if pending := toolnexus.OutcomeOf(got) == toolnexus.OutcomePending; pending != (c.needs && c.ok) {
			t.Errorf("case %d: Run gave %s (%q)", i, toolnexus.OutcomeOf(got), got.Output)
		}
	}
	if predRuns == 0 {
		t.Error("the predicate never ran")
	}
	if n := runs.Load(); n != 1 { // Run of case 0, the only call that needs no approval
		t.Errorf("tools ran %d times, want 1 (Run of the small transfer)", n)
	}

	// A pending call made with a chosen nonce and time is one Resume
	// takes, and the same inputs make the same pending call.
	// Not past its expiry when resumed below; in a zone that is not UTC.
	issued := time.Now().Add(-time.Minute).In(time.FixedZone("x", 3600))
	c := call("transfer", `{ "to": "bob", "amount": 800 }`)
	c.ID = "call_9"
	p, err := tk.NewPendingCall(4, c, "nonce-1", issued)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := tk.NewPendingCall(4, c, "nonce-1", issued)
	if p.Digest != again.Digest || p.Index != 4 || p.ID != "call_9" || string(p.Args) != `{"to":"bob","amount":800}` ||
		!p.Issued.Equal(issued.Truncate(time.Millisecond)) || p.Issued.Location() != time.UTC ||
		!p.Expires.Equal(p.Issued.Add(time.Hour)) || !strings.HasPrefix(p.Digest, "sha256:") {
		t.Errorf("pending call %+v", p)
	}
	if other, _ := tk.NewPendingCall(4, c, "nonce-2", issued); other.Digest == p.Digest {
		t.Error("another nonce, the same digest")
	}
	if in, err := tk.NewPendingCall(0, adapters.Call{Name: "transfer", Input: map[string]any{"to": "bob", "amount": 800}}, "n", issued); err != nil || string(in.Args) != `{"amount":800,"to":"bob"}` {
		t.Errorf("from Input: %s, %v", in.Args, err)
	}
	res, err := tk.Resume(context.Background(), []toolnexus.PendingCall{p}, []toolnexus.Decision{toolnexus.Approve(p)})
	if err != nil || res[0].Output != "sent bob 800" {
		t.Errorf("Resume: %+v, %v", res, err)
	}
	for _, bad := range []struct {
		c      adapters.Call
		nonce  string
		issued time.Time
		want   string
	}{
		{c, "", issued, "empty nonce"},
		{c, "n", time.Time{}, "zero issue time"},
		{call("nope", `{}`), "n", issued, "unknown tool"},
		{call("transfer", `{"to":"bob","amount":0}`), "n", issued, "/amount"},
	} {
		if _, err := tk.NewPendingCall(0, bad.c, bad.nonce, bad.issued); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("NewPendingCall(%s, %q): %v, want an error with %q", bad.c.Args, bad.nonce, err, bad.want)
		}
	}
}

// WithApprovalDecided runs a call past the gate, through the middleware.
func TestWithApprovalDecided(t *testing.T) {
	var runs atomic.Int32
	var mw int
	tk := lcToolkit(t, &runs, toolnexus.WithApproval("transfer"), toolnexus.WithMiddleware(func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result { mw++; return next(ctx, c) }
	}))
	calls := []adapters.Call{call("transfer", `{"to":"ann","amount":20}`)}
	if r := tk.Run(context.Background(), calls)[0]; toolnexus.OutcomeOf(r) != toolnexus.OutcomePending || runs.Load() != 0 {
		t.Fatalf("without the option: %q", r.Output)
	}
	if r := tk.Run(context.Background(), calls, toolnexus.WithApprovalDecided())[0]; r.Output != "sent ann 20" || runs.Load() != 1 || mw != 1 {
		t.Errorf("with the option: %q, runs %d, middleware %d", r.Output, runs.Load(), mw)
	}
	// The option belongs to one Run: the next is gated again (the
	// runner that ran it is recycled).
	if r := tk.Run(context.Background(), calls)[0]; toolnexus.OutcomeOf(r) != toolnexus.OutcomePending {
		t.Errorf("the next Run: %q", r.Output)
	}
}

func call(name, args string) adapters.Call {
	return adapters.Call{Name: name, Args: json.RawMessage(args)}
}
