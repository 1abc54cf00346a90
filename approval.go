package toolnexus

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"strconv"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// Approval. A tool marked with WithApproval (or WithApprovalIf) never runs
// before a person decides: its call ends at the gate, after its arguments
// are validated, as a pending result. Resume takes the decisions, checks
// each against what was shown, and runs what was approved.

// ErrPending is wrapped by the Err of the result of a call that waits
// for approval: its tool has not run. [PendingCalls] collects them.
var ErrPending = errors.New("tool call awaiting approval")

// ErrNotPending is wrapped by the error of [Toolkit.Resume] for a
// decision about a call that is not among the pending calls given.
var ErrNotPending = errors.New("no such pending call")

// ErrDigestMismatch is wrapped by the error of [Toolkit.Resume] for a
// decision made on other arguments than the pending call's, or a pending
// call whose arguments no longer match its digest.
var ErrDigestMismatch = errors.New("digest does not match the pending call")

// approvalRule says whether a call of one tool needs approval.
type approvalRule struct {
	set  bool
	pred func(ctx context.Context, c *Call) bool // nil: always
}

func (r approvalRule) needs(ctx context.Context, c *Call) bool {
	return r.pred == nil || r.pred(ctx, c)
}

// WithApproval marks the tool named tool as needing approval for every
// call: [Toolkit.Run], [Toolkit.RunStream], [Toolkit.Execute] and
// [Toolkit.ExecuteJSON] never run it, and give each call a pending result
// instead (see [PendingCalls] and [Toolkit.Resume]). A call with bad
// arguments is not pending: it gets its error result, as always. A name
// that is no tool of the toolkit is an error of NewToolkitWith.
func WithApproval(tool string) ToolkitOption {
	return WithApprovalIf(tool, nil)
}

// WithApprovalIf is [WithApproval] for the calls for which needs, given
// the call with its decoded and validated arguments ([Call.Input]),
// returns true; a nil needs means every call. needs runs where the
// handler would (never on Run's caller's goroutine); a panic in it is
// the call's error result, and the tool does not run.
func WithApprovalIf(tool string, needs func(ctx context.Context, c *Call) bool) ToolkitOption {
	return toolkitOption(func(c *toolkitConfig) {
		c.named = append(c.named, namedOption{tool: tool, approval: &approvalRule{set: true, pred: needs}})
	})
}

// WithApprovalKey makes the digests of pending calls HMAC-SHA256 digests
// under key, so that a pending call altered while stored (its arguments
// changed and its digest made again) is refused by [Toolkit.Resume]
// unless the one who altered it had the key. The toolkit that resumes
// needs the same key. Without it the digest is a plain SHA-256, which
// catches a decision made on other arguments, not a forger.
func WithApprovalKey(key []byte) ToolkitOption {
	key = append([]byte(nil), key...)
	return toolkitOption(func(c *toolkitConfig) { c.approvalKey = key })
}

// PendingCall is a call waiting for approval: plain data, to show a
// person and to store as JSON until the decision, which may come in
// another process ([Toolkit.Resume] with a toolkit of the same tools).
type PendingCall struct {
	// Index is the call's position in the batch given to Run (0 for
	// Execute): where its result goes among the others.
	Index int `json:"index"`
	// ID is the provider's id for the call; "" for Execute and for
	// providers that send none.
	ID string `json:"id,omitempty"`
	// Tool is the tool's name.
	Tool string `json:"tool"`
	// Args is the call's arguments as validated, compact JSON: what
	// runs if the call is approved.
	Args json.RawMessage `json:"args"`
	// Digest binds the decision to Index, ID, Tool and Args
	// ("sha256:..." or, with [WithApprovalKey], "hmac-sha256:...").
	Digest string `json:"digest"`
}

// Call returns the call as an [adapters.Call], for rendering its result
// with the provider's results function.
func (p PendingCall) Call() adapters.Call {
	return adapters.Call{ID: p.ID, Name: p.Tool, Args: p.Args}
}

// PendingError is the Err of a pending call's result; it wraps
// [ErrPending].
type PendingError struct {
	Call PendingCall
}

func (e *PendingError) Error() string {
	if e.Call.ID == "" {
		return "tool " + e.Call.Tool + ": " + ErrPending.Error()
	}
	return "tool " + e.Call.Tool + " (call " + e.Call.ID + "): " + ErrPending.Error()
}

// Unwrap returns [ErrPending].
func (e *PendingError) Unwrap() error { return ErrPending }

// PendingCalls returns the pending calls among results, as Run and
// RunStream give them, in order; nil when there is none.
func PendingCalls(results []define.Result) []PendingCall {
	var out []PendingCall
	for _, r := range results {
		var pe *PendingError
		if r.IsError && errors.As(r.Err, &pe) {
			out = append(out, pe.Call)
		}
	}
	return out
}

// pendingResult is the result of call c, the index-th of its batch,
// stopped at the gate.
func pendingResult(key []byte, index int, c *Call) define.Result {
	args := append(json.RawMessage(nil), c.Args()...) // the caller's buffer may be reused
	p := PendingCall{Index: index, ID: c.ID, Tool: c.Name, Args: args, Digest: digest(key, index, c.ID, c.Name, args)}
	return pendingOf(p)
}

func pendingOf(p PendingCall) define.Result {
	return define.Result{Output: "awaiting approval: the tool has not run yet", IsError: true, Err: &PendingError{Call: p}}
}

// digest hashes a pending call's fields, each with its length first so
// that no two calls' fields run together the same way.
func digest(key []byte, index int, id, tool string, args []byte) string {
	var h hash.Hash
	prefix := "sha256:"
	if key != nil {
		h, prefix = hmac.New(sha256.New, key), "hmac-sha256:"
	} else {
		h = sha256.New()
	}
	var n [8]byte
	field := func(b []byte) {
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	field(strconv.AppendInt(nil, int64(index), 10))
	field([]byte(id))
	field([]byte(tool))
	field(args)
	return prefix + hex.EncodeToString(h.Sum(nil))
}

// Verdict is a person's decision about a pending call.
type Verdict string

// The verdicts of a [Decision].
const (
	VerdictApprove Verdict = "approve" // run the call as shown
	VerdictDeny    Verdict = "deny"    // do not run it; the model sees the reason
	VerdictEdit    Verdict = "edit"    // run it on other arguments, validated again
)

// Decision is a person's decision about one [PendingCall], plain data
// like it: make one with [Approve], [Deny] or [Edit].
type Decision struct {
	Index   int             `json:"index"`            // the PendingCall's Index
	ID      string          `json:"id,omitempty"`     // its ID
	Digest  string          `json:"digest"`           // its Digest: the arguments that were shown
	Verdict Verdict         `json:"verdict"`          // approve, deny or edit
	Reason  string          `json:"reason,omitempty"` // for deny: what the model is told
	Args    json.RawMessage `json:"args,omitempty"`   // for edit: the arguments to run instead
}

// Approve returns the decision to run p as shown.
func Approve(p PendingCall) Decision {
	return Decision{Index: p.Index, ID: p.ID, Digest: p.Digest, Verdict: VerdictApprove}
}

// Deny returns the decision not to run p; the call's result is an error
// the model sees, "denied: " and reason, whose Err is a [*DeniedError].
func Deny(p PendingCall, reason string) Decision {
	return Decision{Index: p.Index, ID: p.ID, Digest: p.Digest, Verdict: VerdictDeny, Reason: reason}
}

// Edit returns the decision to run p on args instead of its own; Resume
// validates them as the model's were, and refuses the decision if they
// are not valid.
func Edit(p PendingCall, args json.RawMessage) Decision {
	return Decision{Index: p.Index, ID: p.ID, Digest: p.Digest, Verdict: VerdictEdit, Args: args}
}

// DecisionError is the error of [Toolkit.Resume]: which pending call or
// decision it refused, and why (it wraps [ErrNotPending],
// [ErrDigestMismatch], [ErrUnknownTool] or the arguments'
// [*define.ArgErrors], among others).
type DecisionError struct {
	Index int    // the call's Index
	ID    string // its ID
	Err   error
}

func (e *DecisionError) Error() string {
	return fmt.Sprintf("toolnexus: Resume: call %d (id %q): %v", e.Index, e.ID, e.Err)
}

// Unwrap returns the reason.
func (e *DecisionError) Unwrap() error { return e.Err }

// Resume carries out decisions about pending calls, as [PendingCalls]
// gave them (perhaps through JSON, in another process: tk needs the
// tools, and the [WithApprovalKey], of the toolkit that made them). It
// returns one result per pending call, in the order given: an approved
// or edited call's result from its tool, run as [Toolkit.Run] runs calls
// (with opts, through the toolkit's middleware, not through its approval
// gate); a denied call's error result ([Deny]); and for a pending call
// without a decision its pending result again. Put each at its
// PendingCall's Index among the batch's results, or render them with
// each PendingCall's [PendingCall.Call].
//
// Resume checks everything before it runs anything, and runs nothing if
// a check fails: every pending call's tool must be in tk and its digest
// match its fields; every decision must name a pending call (by Index and
// ID: else [ErrNotPending]), carry its digest (else [ErrDigestMismatch]:
// the decision was made on other arguments), be the only decision for it
// and have a known verdict; an edit's arguments must pass the tool's
// validation. The error is then a [*DecisionError].
func (tk *Toolkit) Resume(ctx context.Context, pending []PendingCall, decisions []Decision, opts ...RunOption) ([]define.Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	key := tk.cfg.approvalKey
	byCall := make(map[string]int, len(pending))
	callKey := func(index int, id string) string { return strconv.Itoa(index) + "\x00" + id }
	// Stored JSON may have been indented: the digest is of the compact
	// arguments, and those are what runs.
	pending = append([]PendingCall(nil), pending...)
	for k := range pending {
		pending[k].Args = compactArgs(pending[k].Args)
	}
	for k, p := range pending {
		fail := func(err error) error { return &DecisionError{Index: p.Index, ID: p.ID, Err: err} }
		t, ok := tk.Get(p.Tool)
		if !ok {
			return nil, fail(fmt.Errorf("pending call of tool %q: %w", p.Tool, ErrUnknownTool))
		}
		if !hmac.Equal([]byte(digest(key, p.Index, p.ID, p.Tool, p.Args)), []byte(p.Digest)) {
			return nil, fail(fmt.Errorf("the pending call's fields have changed since it was made: %w", ErrDigestMismatch))
		}
		if err := validate(t, p.Args); err != nil {
			return nil, fail(err)
		}
		ck := callKey(p.Index, p.ID)
		if _, dup := byCall[ck]; dup {
			return nil, fail(errors.New("the same call is pending twice"))
		}
		byCall[ck] = k
	}
	chosen := make([]*Decision, len(pending))
	for j := range decisions {
		d := &decisions[j]
		fail := func(err error) error { return &DecisionError{Index: d.Index, ID: d.ID, Err: err} }
		k, ok := byCall[callKey(d.Index, d.ID)]
		if !ok {
			return nil, fail(ErrNotPending)
		}
		p := pending[k]
		if !hmac.Equal([]byte(d.Digest), []byte(p.Digest)) {
			return nil, fail(fmt.Errorf("the decision was made on other arguments: %w", ErrDigestMismatch))
		}
		if chosen[k] != nil {
			return nil, fail(errors.New("two decisions for one call"))
		}
		switch d.Verdict {
		case VerdictApprove, VerdictDeny:
		case VerdictEdit:
			if len(d.Args) == 0 {
				return nil, fail(errors.New("an edit without arguments"))
			}
			t, _ := tk.Get(p.Tool)
			if err := validate(t, d.Args); err != nil {
				return nil, fail(fmt.Errorf("the edited arguments: %w", err))
			}
		default:
			return nil, fail(fmt.Errorf("unknown verdict %q (want approve, deny or edit)", d.Verdict))
		}
		chosen[k] = d
	}
	results := make([]define.Result, len(pending))
	var run []adapters.Call
	var runAt []int
	for k, p := range pending {
		d := chosen[k]
		switch {
		case d == nil:
			results[k] = pendingOf(p)
		case d.Verdict == VerdictDeny:
			results[k] = Denied(d.Reason)
		default:
			args := p.Args
			if d.Verdict == VerdictEdit {
				args = d.Args
			}
			run = append(run, adapters.Call{ID: p.ID, Name: p.Tool, Args: args})
			runAt = append(runAt, k)
		}
	}
	var ran []define.Result
	var times []callTime
	if len(run) > 0 {
		ran, times = tk.runBatch(ctx, run, true, opts)
		for j, k := range runAt {
			results[k] = ran[j]
		}
	}
	if tk.hooks != nil && len(tk.hooks.observers) > 0 {
		j := 0
		for k, p := range pending {
			var ct callTime
			if j < len(runAt) && runAt[j] == k {
				ct = times[j]
				j++
			}
			c := p.Call()
			tk.observe(ctx, &c, results[k], ct)
		}
	}
	return results, nil
}

// validate runs args through t's decoder and validation, without its
// handler.
func validate(t define.Tool, args json.RawMessage) error {
	var res define.Result
	if t.DecodeJSON(context.Background(), args, &res) == nil {
		if res.Err != nil {
			return res.Err
		}
		return errors.New(res.Output)
	}
	return nil
}
