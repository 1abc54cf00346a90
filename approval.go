package toolnexus

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"strconv"
	"strings"
	"time"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// Approval. A tool marked with WithApproval (or WithApprovalIf) never runs
// before a person decides: its call ends at the gate, after its arguments
// are validated, as a pending result, unique by its nonce and issue time.
// Resume takes the decisions, checks each against what was shown, claims
// each decided call in the toolkit's ApprovalStore (so that a decision is
// carried out once), and runs what was approved.

// ErrPending is wrapped by the Err of the result of a call that waits
// for approval: its tool has not run. [PendingCalls] collects them.
var ErrPending = errors.New("tool call awaiting approval")

// ErrNotPending is wrapped by the error of [Toolkit.Resume] for a
// decision about a call that is not among the pending calls given.
var ErrNotPending = errors.New("no such pending call")

// ErrDigestMismatch is wrapped by the error of [Toolkit.Resume] for a
// decision made on other arguments than the pending call's (or about
// another pending call), or a pending call whose fields no longer match
// its digest.
var ErrDigestMismatch = errors.New("digest does not match the pending call")

// ErrApprovalKey is wrapped, with [ErrDigestMismatch], by the error of
// [Toolkit.Resume] for a pending call whose digest was made under another
// approval key than the resuming toolkit's ([WithApprovalKey]), or
// without one where it has one, or the other way round.
var ErrApprovalKey = errors.New("pending call made under another approval key")

// ErrDecided is wrapped by the error of [Toolkit.Resume] for a decision
// about a pending call that was decided before: its [ApprovalStore] has
// it. A decision is carried out once.
var ErrDecided = errors.New("the pending call was decided already")

// ErrExpired is wrapped by the error of [Toolkit.Resume] for a decision
// about a pending call past its Expires ([WithApprovalExpiry]).
var ErrExpired = errors.New("the pending call has expired")

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
// under key, so that a pending call altered while stored (its arguments,
// nonce or times changed and its digest made again) is refused by
// [Toolkit.Resume] unless the one who altered it had the key. The toolkit
// that resumes needs the same key. Without it the digest is a plain
// SHA-256, which catches a decision made on other arguments, not a forger
// (who can also give a replayed call a new nonce: single use against
// someone who can alter the stored state needs a key). An empty key (an
// unset environment variable, say) is an error of NewToolkitWith.
func WithApprovalKey(key []byte) ToolkitOption {
	key = append([]byte(nil), key...)
	return toolkitOption(func(c *toolkitConfig) { c.approvalKey, c.approvalKeySet = key, true })
}

// WithApprovalExpiry makes the pending calls of the toolkit expire d after
// they were issued: the Expires of each, covered by its digest, after
// which [Toolkit.Resume] refuses a decision about it ([ErrExpired]), and
// until which an [ApprovalStore] must remember it once decided. d <= 0
// means no expiry, the default.
func WithApprovalExpiry(d time.Duration) ToolkitOption {
	return toolkitOption(func(c *toolkitConfig) { c.approvalExpiry = d })
}

// WithApprovalStore sets where [Toolkit.Resume] records the pending calls
// it decided, so that each decision is carried out once: the default is
// an [NewApprovalMemory] of [DefaultApprovalMemory] calls, of this
// toolkit alone. Give toolkits that resume the same pending calls one
// store: the same ApprovalMemory within a process, a durable store of the
// application's (a database, a cache with atomic inserts) across
// processes and replicas.
func WithApprovalStore(s ApprovalStore) ToolkitOption {
	return toolkitOption(func(c *toolkitConfig) { c.approvalStore = s })
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
	// Nonce makes the pending call unique: 16 random bytes, base64url.
	// Two calls of the same tool on the same arguments are two pending
	// calls, each decided once.
	Nonce string `json:"nonce"`
	// Issued is when the gate stopped the call (UTC, to the millisecond).
	Issued time.Time `json:"issued"`
	// Expires is when a decision about it stops being carried out
	// ([WithApprovalExpiry]); zero (absent from the JSON) for never.
	Expires time.Time `json:"expires,omitzero"`
	// Digest binds the decision to every field above ("sha256:..." or,
	// with [WithApprovalKey], "hmac-sha256:KEYID:...", KEYID naming the
	// key without revealing it).
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

// SplitPending splits a batch of calls and their results (as Run gives
// them) into the calls whose results are to be rendered and sent now, with
// their results, and the pending calls (PendingCalls), keeping the order
// of each: a renderer that holds the pending calls out of the history
// until a person decides (the SDK modules' Results). calls and results are
// returned as they are when none is pending. Calls and results of other
// lengths are an error wrapping adapters.ErrResultCount.
func SplitPending(calls []adapters.Call, results []define.Result) (ready []adapters.Call, readyResults []define.Result, pending []PendingCall, err error) {
	if len(calls) != len(results) {
		return nil, nil, nil, fmt.Errorf("toolnexus: SplitPending: %d calls and %d results: %w", len(calls), len(results), adapters.ErrResultCount)
	}
	for i := range results {
		var pe *PendingError
		if results[i].IsError && errors.As(results[i].Err, &pe) {
			if pending == nil {
				ready = append(make([]adapters.Call, 0, len(calls)-1), calls[:i]...)
				readyResults = append(make([]define.Result, 0, len(calls)-1), results[:i]...)
			}
			pending = append(pending, pe.Call)
			continue
		}
		if pending != nil {
			ready, readyResults = append(ready, calls[i]), append(readyResults, results[i])
		}
	}
	if pending == nil {
		return calls, results, nil, nil
	}
	return ready, readyResults, pending, nil
}

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
func (tk *Toolkit) pendingResult(index int, c *Call) define.Result {
	args := append(json.RawMessage(nil), c.Args()...) // the caller's buffer may be reused
	var nonce [16]byte
	_, _ = rand.Read(nonce[:]) // never fails (crypto/rand)
	return pendingOf(tk.sealPending(PendingCall{Index: index, ID: c.ID, Tool: c.Name, Args: args,
		Nonce: base64.RawURLEncoding.EncodeToString(nonce[:]), Issued: time.Now()}))
}

// sealPending gives p, its Index, ID, Tool, Args, Nonce and Issued set,
// its issue time in UTC to the millisecond, its expiry and its digest.
func (tk *Toolkit) sealPending(p PendingCall) PendingCall {
	p.Issued = p.Issued.UTC().Truncate(time.Millisecond)
	p.Expires = time.Time{}
	if d := tk.cfg.approvalExpiry; d > 0 {
		p.Expires = p.Issued.Add(d)
	}
	p.Digest = tk.digest(&p)
	return p
}

func pendingOf(p PendingCall) define.Result {
	return define.Result{Output: "awaiting approval: the tool has not run yet", IsError: true, Err: &PendingError{Call: p}}
}

// keyID names an approval key in the digests made under it: the first 8
// bytes of an HMAC of a fixed text under the key, which tells keys apart
// without revealing more of the key than the digests do.
func keyID(key []byte) string {
	h := hmac.New(sha256.New, key)
	h.Write([]byte("toolnexus approval key id"))
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// digest hashes a pending call's fields (its Digest aside), each with its
// length first so that no two calls' fields run together the same way,
// under the toolkit's key if it has one.
func (tk *Toolkit) digest(p *PendingCall) string {
	var h hash.Hash
	prefix := "sha256:"
	if tk.cfg.approvalKeySet {
		h, prefix = hmac.New(sha256.New, tk.cfg.approvalKey), "hmac-sha256:"+tk.cfg.approvalKeyID+":"
	} else {
		h = sha256.New()
	}
	var n [8]byte
	field := func(b []byte) {
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	field(strconv.AppendInt(nil, int64(p.Index), 10))
	field([]byte(p.ID))
	field([]byte(p.Tool))
	field(p.Args)
	field([]byte(p.Nonce))
	field(strconv.AppendInt(nil, p.Issued.UnixNano(), 10))
	var expires []byte
	if !p.Expires.IsZero() {
		expires = strconv.AppendInt(nil, p.Expires.UnixNano(), 10)
	}
	field(expires)
	return prefix + hex.EncodeToString(h.Sum(nil))
}

// checkDigest reports why p's digest is not the one tk makes of its
// fields, telling a key other than tk's apart from altered fields where
// the digest shows which.
func (tk *Toolkit) checkDigest(p *PendingCall) error {
	if hmac.Equal([]byte(tk.digest(p)), []byte(p.Digest)) {
		return nil
	}
	keyed := tk.cfg.approvalKeySet
	switch kind, rest, _ := strings.Cut(p.Digest, ":"); {
	case kind == "sha256" && keyed:
		return fmt.Errorf("the pending call was made without an approval key, and this toolkit has one (WithApprovalKey): %w: %w", ErrApprovalKey, ErrDigestMismatch)
	case kind == "hmac-sha256" && !keyed:
		return fmt.Errorf("the pending call was made under an approval key, and this toolkit has none (WithApprovalKey): %w: %w", ErrApprovalKey, ErrDigestMismatch)
	case kind == "hmac-sha256":
		if id, _, _ := strings.Cut(rest, ":"); id != tk.cfg.approvalKeyID {
			return fmt.Errorf("the digest names another approval key than this toolkit's: the pending call was made under another key, or its digest was altered: %w: %w", ErrApprovalKey, ErrDigestMismatch)
		}
	case kind != "sha256":
		return fmt.Errorf("the digest is none this library makes: %w", ErrDigestMismatch)
	}
	return fmt.Errorf("the pending call's fields have changed since it was made: %w", ErrDigestMismatch)
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
// [ErrDigestMismatch], [ErrApprovalKey], [ErrDecided], [ErrExpired],
// [ErrUnknownTool], the arguments' [*define.ArgErrors] or the
// [ApprovalStore]'s error, among others).
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
// match its fields (else [ErrDigestMismatch], with [ErrApprovalKey] when
// the digest shows another key); every decision must name a pending call
// (by Index and ID: else [ErrNotPending]), carry its digest (else
// [ErrDigestMismatch]: the decision was made on other arguments, or about
// another pending call), come before the call's Expires (else
// [ErrExpired]), be the only decision for it and have a known verdict; an
// edit's arguments must pass the tool's validation. Then it claims each
// decided call in the toolkit's [ApprovalStore] ([WithApprovalStore]): a
// call decided before, by this Resume's toolkit or another sharing its
// store, is refused ([ErrDecided]), and the calls claimed so far are
// released, so that a decision is carried out once. The error is then a
// [*DecisionError].
func (tk *Toolkit) Resume(ctx context.Context, pending []PendingCall, decisions []Decision, opts ...RunOption) ([]define.Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	byCall := make(map[string]int, len(pending))
	callKey := func(index int, id string) string { return strconv.Itoa(index) + "\x00" + id }
	// Stored JSON may have been indented: the digest is of the compact
	// arguments, and those are what runs.
	pending = append([]PendingCall(nil), pending...)
	for k := range pending {
		pending[k].Args = compactArgs(pending[k].Args)
	}
	for k := range pending {
		p := &pending[k]
		fail := func(err error) error { return &DecisionError{Index: p.Index, ID: p.ID, Err: err} }
		t, ok := tk.Get(p.Tool)
		if !ok {
			return nil, fail(fmt.Errorf("pending call of tool %q: %w", p.Tool, ErrUnknownTool))
		}
		if err := tk.checkDigest(p); err != nil {
			return nil, fail(err)
		}
		if p.Nonce == "" || p.Issued.IsZero() {
			return nil, fail(fmt.Errorf("the pending call has no nonce or no issue time: %w", ErrDigestMismatch))
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
	now := time.Now()
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
			return nil, fail(fmt.Errorf("the decision was made on other arguments, or about another pending call: %w", ErrDigestMismatch))
		}
		if chosen[k] != nil {
			return nil, fail(errors.New("two decisions for one call"))
		}
		if !p.Expires.IsZero() && !now.Before(p.Expires) {
			return nil, fail(fmt.Errorf("expired at %s: %w", p.Expires.Format(time.RFC3339), ErrExpired))
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
	if err := tk.claim(ctx, pending, chosen); err != nil {
		return nil, err
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
	if tk.observed() {
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

// claim claims, in the toolkit's store, every pending call that has a
// decision, in order; when one is refused (decided before) or the store
// fails, it releases those it claimed and returns the error.
func (tk *Toolkit) claim(ctx context.Context, pending []PendingCall, chosen []*Decision) error {
	store := tk.cfg.approvalStore
	for k := range pending {
		if chosen[k] == nil {
			continue
		}
		p := &pending[k]
		fresh, err := store.Claim(ctx, *p)
		if err == nil && !fresh {
			err = ErrDecided
		}
		if err == nil {
			continue
		}
		for j := range k {
			if chosen[j] != nil {
				if rerr := store.Release(ctx, pending[j]); rerr != nil {
					err = errors.Join(err, fmt.Errorf("releasing call %d (id %q): %w", pending[j].Index, pending[j].ID, rerr))
				}
			}
		}
		return &DecisionError{Index: p.Index, ID: p.ID, Err: err}
	}
	return nil
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
