package toolnexus

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// The approval gate, taken apart for a scheduler that must decide
// without running anything (a durable workflow, which replays its code
// and must give the same answers each time): ApprovalMode says whether a
// tool's calls stop at the gate, NeedsApproval asks a WithApprovalIf
// predicate, NewPendingCall makes the pending call with a nonce and a time
// the scheduler chose, and WithApprovalDecided runs calls past the gate
// once the scheduler has their decision.

// ApprovalMode is what a toolkit's approval gate does with the calls of
// one tool ([Toolkit.ApprovalMode]).
type ApprovalMode int

// The approval modes.
const (
	// ApprovalNever: the calls run without approval (no WithApproval or
	// WithApprovalIf for the tool).
	ApprovalNever ApprovalMode = iota
	// ApprovalAlways: every call needs approval ([WithApproval], or
	// [WithApprovalIf] with a nil predicate).
	ApprovalAlways
	// ApprovalIf: the calls for which the [WithApprovalIf] predicate,
	// the program's code, returns true ([Toolkit.NeedsApproval] asks it).
	ApprovalIf
)

// String returns "never", "always" or "if".
func (m ApprovalMode) String() string {
	switch m {
	case ApprovalNever:
		return "never"
	case ApprovalAlways:
		return "always"
	case ApprovalIf:
		return "if"
	}
	return fmt.Sprintf("ApprovalMode(%d)", int(m))
}

// ApprovalMode reports what the approval gate does with the calls of the
// tool named tool; ApprovalNever for a name that is no tool of tk. It
// depends on the toolkit's options alone, and runs nothing.
func (tk *Toolkit) ApprovalMode(tool string) ApprovalMode {
	i, ok := tk.byName[tool]
	if !ok || tk.hooks == nil || tk.hooks.gates == nil {
		return ApprovalNever
	}
	switch g := tk.hooks.gates[i]; {
	case !g.set:
		return ApprovalNever
	case g.pred == nil:
		return ApprovalAlways
	}
	return ApprovalIf
}

// NeedsApproval runs call c as [Toolkit.Run] would up to its approval
// gate, and nothing after it (no middleware, handler or observer): it
// finds the tool, decodes and validates the arguments, and reports
// whether the call stops at the gate, running the tool's
// [WithApprovalIf] predicate if it has one (on this goroutine, with
// ctx). ok is false when the call ends before the gate, or in it: res is
// then the result Run gives the call (an unknown tool, bad arguments, a
// panic of the predicate); otherwise res is the zero Result.
func (tk *Toolkit) NeedsApproval(ctx context.Context, c adapters.Call) (needs bool, res define.Result, ok bool) {
	if ctx == nil {
		ctx = context.Background()
	}
	i, found := tk.byName[c.Name]
	if !found {
		return false, tk.unknownTool(c.Name), false
	}
	call := &Call{ID: c.ID, Name: c.Name, Tool: tk.tools[i]}
	if c.Input != nil {
		call.input = c.Input
		call.prepared = call.Tool.DecodeMap(ctx, c.Input, &call.res)
	} else {
		call.args = compactArgs(c.Args)
		call.prepared = call.Tool.DecodeJSON(ctx, call.args, &call.res)
	}
	if call.prepared == nil {
		return false, call.res, false
	}
	var gate approvalRule
	if tk.hooks != nil && tk.hooks.gates != nil {
		gate = tk.hooks.gates[i]
	}
	if !gate.set {
		return false, define.Result{}, true
	}
	defer func() {
		if v := recover(); v != nil {
			needs, res, ok = false, panicResult(c.Name, v), false
		}
	}()
	return gate.needs(ctx, call), define.Result{}, true
}

// NewPendingCall returns the pending call [Toolkit.Run] would give call
// c, the index-th of its batch, at the approval gate, with nonce and
// issued instead of a random nonce and the time: its arguments validated
// and compact, its issue time in UTC to the millisecond, its expiry
// ([WithApprovalExpiry]) and its digest (under [WithApprovalKey]), so
// that [Approve], [Deny], [Edit] and [Toolkit.Resume] take it as one of
// Run's. It is for a scheduler whose code must be deterministic (a
// durable workflow draws the nonce and reads the time in a way that
// replays); the nonce must be unique, as Run's 16 random bytes are. A
// call that would not reach the gate (an unknown tool, bad arguments),
// an empty nonce and a zero time are errors. It does not ask whether the
// call needs approval ([Toolkit.NeedsApproval]).
func (tk *Toolkit) NewPendingCall(index int, c adapters.Call, nonce string, issued time.Time) (PendingCall, error) {
	if nonce == "" || issued.IsZero() {
		return PendingCall{}, errors.New("toolnexus: NewPendingCall: an empty nonce or a zero issue time")
	}
	t, ok := tk.Get(c.Name)
	if !ok {
		return PendingCall{}, fmt.Errorf("toolnexus: NewPendingCall: tool %q: %w", c.Name, ErrUnknownTool)
	}
	call := &Call{ID: c.ID, Name: c.Name, Tool: t, input: c.Input}
	if c.Input == nil {
		call.args = compactArgs(c.Args)
	}
	if err := validate(t, call.Args()); err != nil {
		return PendingCall{}, fmt.Errorf("toolnexus: NewPendingCall: tool %s: %w", c.Name, err)
	}
	args := append([]byte(nil), call.Args()...)
	return tk.sealPending(PendingCall{Index: index, ID: c.ID, Tool: c.Name, Args: args, Nonce: nonce, Issued: issued}), nil
}

// WithApprovalDecided says that the calls given to [Toolkit.Run] were
// past the approval gate already: a scheduler decided, with
// [Toolkit.NeedsApproval] and a person's decision, that they need none or
// were approved (or edited), as a durable workflow does before it sends
// a call to a worker. Run then does not stop them at the gate; they run
// through the middleware, handler and observers as usual. It gives no
// power a caller of Run lacks (a tool's own Execute skips every hook):
// the approval holds only as far as the code that decides it.
func WithApprovalDecided() RunOption {
	return runOption(func(c *runConfig) { c.decided = true })
}
