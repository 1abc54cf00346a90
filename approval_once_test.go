package toolnexus_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
)

// refundCall is one call of transfer that needs approval.
var refundCall = []adapters.Call{{ID: "call_r", Name: "transfer", Args: json.RawMessage(`{"to":"bob","amount":700}`)}}

// storedPending runs refundCall through tk and returns its pending call
// as it comes back from storage: through JSON.
func storedPending(t *testing.T, tk *toolnexus.Toolkit) (toolnexus.PendingCall, []byte) {
	t.Helper()
	pending := toolnexus.PendingCalls(tk.Run(context.Background(), refundCall))
	if len(pending) != 1 {
		t.Fatalf("pending = %+v", pending)
	}
	stored, err := json.Marshal(pending[0])
	if err != nil {
		t.Fatal(err)
	}
	return load(t, stored), stored
}

func load(t *testing.T, stored []byte) toolnexus.PendingCall {
	t.Helper()
	var p toolnexus.PendingCall
	if err := json.Unmarshal(stored, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestApprovalSingleUse: one stored Approve resumed again and again, in
// turn and then at once from many goroutines, runs the tool once; a
// denied call cannot be approved afterwards; with a key and without.
func TestApprovalSingleUse(t *testing.T) {
	for _, opts := range [][]toolnexus.ToolkitOption{
		{toolnexus.WithApproval("transfer")},
		{toolnexus.WithApproval("transfer"), toolnexus.WithApprovalKey([]byte("k"))},
	} {
		var runs atomic.Int32
		tk := lcToolkit(t, &runs, opts...)
		p, stored := storedPending(t, tk)
		if len(p.Nonce) != 22 || p.Issued.IsZero() || time.Since(p.Issued) > time.Minute || !p.Expires.IsZero() {
			t.Errorf("pending call %s: want a nonce, an issue time, no expiry", stored)
		}
		for i := range 3 {
			res, err := tk.Resume(context.Background(), []toolnexus.PendingCall{load(t, stored)}, []toolnexus.Decision{toolnexus.Approve(load(t, stored))})
			switch {
			case i == 0 && (err != nil || res[0].Output != "sent bob 700"):
				t.Errorf("first Resume: %+v, %v", res, err)
			case i > 0 && (!errors.Is(err, toolnexus.ErrDecided) || res != nil):
				t.Errorf("Resume %d: %+v, %v; want ErrDecided", i, res, err)
			}
		}
		p, stored = storedPending(t, tk)
		var wg sync.WaitGroup
		var ok, decided atomic.Int32
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				q := load(t, stored)
				_, err := tk.Resume(context.Background(), []toolnexus.PendingCall{q}, []toolnexus.Decision{toolnexus.Approve(q)})
				switch {
				case err == nil:
					ok.Add(1)
				case errors.Is(err, toolnexus.ErrDecided):
					decided.Add(1)
				default:
					t.Errorf("concurrent Resume: %v", err)
				}
			}()
		}
		wg.Wait()
		if ok.Load() != 1 || decided.Load() != 7 || runs.Load() != 2 {
			t.Errorf("8 concurrent Resumes: %d ran, %d refused, the tool ran %d times in all; want 1, 7, 2", ok.Load(), decided.Load(), runs.Load())
		}
		p, _ = storedPending(t, tk)
		if res, err := tk.Resume(context.Background(), []toolnexus.PendingCall{p}, []toolnexus.Decision{toolnexus.Deny(p, "no")}); err != nil || res[0].Output != "denied: no" {
			t.Fatalf("deny: %+v, %v", res, err)
		}
		if _, err := tk.Resume(context.Background(), []toolnexus.PendingCall{p}, []toolnexus.Decision{toolnexus.Approve(p)}); !errors.Is(err, toolnexus.ErrDecided) {
			t.Errorf("approve after deny: %v, want ErrDecided", err)
		}
		// Without a decision, a pending call stays pending and can be
		// decided later.
		p, _ = storedPending(t, tk)
		if res, err := tk.Resume(context.Background(), []toolnexus.PendingCall{p}, nil); err != nil || toolnexus.OutcomeOf(res[0]) != toolnexus.OutcomePending {
			t.Fatalf("no decision: %+v, %v", res, err)
		}
		if res, err := tk.Resume(context.Background(), []toolnexus.PendingCall{p}, []toolnexus.Decision{toolnexus.Approve(p)}); err != nil || res[0].IsError {
			t.Errorf("decided after staying pending: %+v, %v", res, err)
		}
		if runs.Load() != 3 {
			t.Errorf("the tool ran %d times, want 3", runs.Load())
		}
	}
}

// TestApprovalEveryCallUnique: the same call stopped twice gives two
// pending calls, each with its own nonce and digest; a decision about one
// does not fit the other.
func TestApprovalEveryCallUnique(t *testing.T) {
	var runs atomic.Int32
	tk := lcToolkit(t, &runs, toolnexus.WithApproval("transfer"))
	a, _ := storedPending(t, tk)
	b, _ := storedPending(t, tk)
	if a.Nonce == b.Nonce || a.Digest == b.Digest {
		t.Fatalf("two pending calls share a nonce or a digest: %+v, %+v", a, b)
	}
	for _, tk := range []*toolnexus.Toolkit{tk, lcToolkit(t, &runs, toolnexus.WithApproval("transfer"))} {
		if _, err := tk.Resume(context.Background(), []toolnexus.PendingCall{b}, []toolnexus.Decision{toolnexus.Approve(a)}); !errors.Is(err, toolnexus.ErrDigestMismatch) {
			t.Errorf("a's decision for b: %v, want ErrDigestMismatch", err)
		}
	}
	// b with a's nonce and issue time: its digest no longer fits.
	b.Nonce, b.Issued = a.Nonce, a.Issued
	if _, err := tk.Resume(context.Background(), []toolnexus.PendingCall{b}, []toolnexus.Decision{toolnexus.Approve(b)}); !errors.Is(err, toolnexus.ErrDigestMismatch) {
		t.Errorf("b with a's nonce: %v, want ErrDigestMismatch", err)
	}
	if runs.Load() != 0 {
		t.Errorf("ran %d", runs.Load())
	}
}

// mapStore is an ApprovalStore of the application's own, as a database
// table with a unique key would be: here a map, shared by toolkits that
// stand for processes.
type mapStore struct {
	mu      sync.Mutex
	claimed map[string]time.Time // nonce: keep until (zero: for ever)
}

func (s *mapStore) Claim(ctx context.Context, p toolnexus.PendingCall) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.claimed[p.Nonce]; ok {
		return false, nil
	}
	s.claimed[p.Nonce] = p.Expires
	return true, nil
}

func (s *mapStore) Release(ctx context.Context, p toolnexus.PendingCall) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.claimed, p.Nonce)
	return nil
}

// TestApprovalStoreShared: toolkits that share a store (the same
// NewApprovalMemory, or a store of the application's) carry out a stored
// decision once among them, in turn and at once; toolkits with their own
// default stores each remember only their own decisions.
func TestApprovalStoreShared(t *testing.T) {
	for _, tc := range []struct {
		name  string
		store toolnexus.ApprovalStore
	}{
		{"NewApprovalMemory", toolnexus.NewApprovalMemory(0)},
		{"the application's store", &mapStore{claimed: map[string]time.Time{}}},
	} {
		var runs atomic.Int32
		opts := []toolnexus.ToolkitOption{toolnexus.WithApproval("transfer"), toolnexus.WithApprovalKey([]byte("shared")), toolnexus.WithApprovalStore(tc.store)}
		one, two := lcToolkit(t, &runs, opts...), lcToolkit(t, &runs, opts...)
		_, stored := storedPending(t, one)
		p := load(t, stored)
		if _, err := two.Resume(context.Background(), []toolnexus.PendingCall{p}, []toolnexus.Decision{toolnexus.Approve(p)}); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, err := one.Resume(context.Background(), []toolnexus.PendingCall{p}, []toolnexus.Decision{toolnexus.Approve(p)}); !errors.Is(err, toolnexus.ErrDecided) {
			t.Errorf("%s: the other toolkit resumed it again: %v", tc.name, err)
		}
		_, stored = storedPending(t, two)
		var wg sync.WaitGroup
		var ok atomic.Int32
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tk := one
				if i%2 == 1 {
					tk = two
				}
				q := load(t, stored)
				if _, err := tk.Resume(context.Background(), []toolnexus.PendingCall{q}, []toolnexus.Decision{toolnexus.Approve(q)}); err == nil {
					ok.Add(1)
				} else if !errors.Is(err, toolnexus.ErrDecided) {
					t.Errorf("%s: %v", tc.name, err)
				}
			}()
		}
		wg.Wait()
		if ok.Load() != 1 || runs.Load() != 2 {
			t.Errorf("%s: %d Resumes ran, the tool %d times; want 1 and 2", tc.name, ok.Load(), runs.Load())
		}
	}
	// Each toolkit's default store is its own.
	var runs atomic.Int32
	one := lcToolkit(t, &runs, toolnexus.WithApproval("transfer"))
	two := lcToolkit(t, &runs, toolnexus.WithApproval("transfer"))
	p, _ := storedPending(t, one)
	for _, tk := range []*toolnexus.Toolkit{one, two} {
		if _, err := tk.Resume(context.Background(), []toolnexus.PendingCall{p}, []toolnexus.Decision{toolnexus.Approve(p)}); err != nil {
			t.Errorf("default stores: %v", err)
		}
	}
	if runs.Load() != 2 {
		t.Errorf("default stores: ran %d, want 2 (one per toolkit)", runs.Load())
	}
}

// TestApprovalReleasedWhenRefused: a Resume of two decisions, one about a
// call decided before, runs nothing and releases its claim of the other,
// which a later Resume carries out.
func TestApprovalReleasedWhenRefused(t *testing.T) {
	var runs atomic.Int32
	store := &mapStore{claimed: map[string]time.Time{}}
	tk := lcToolkit(t, &runs, toolnexus.WithApproval("transfer"), toolnexus.WithApprovalStore(store))
	pending := toolnexus.PendingCalls(tk.Run(context.Background(), []adapters.Call{
		{ID: "c1", Name: "transfer", Args: json.RawMessage(`{"to":"ann","amount":1}`)},
		{ID: "c2", Name: "transfer", Args: json.RawMessage(`{"to":"bob","amount":2}`)},
	}))
	if len(pending) != 2 {
		t.Fatalf("pending = %+v", pending)
	}
	if _, err := tk.Resume(context.Background(), pending[1:], []toolnexus.Decision{toolnexus.Deny(pending[1], "no")}); err != nil {
		t.Fatal(err)
	}
	_, err := tk.Resume(context.Background(), pending, []toolnexus.Decision{toolnexus.Approve(pending[0]), toolnexus.Approve(pending[1])})
	var de *toolnexus.DecisionError
	if !errors.As(err, &de) || !errors.Is(err, toolnexus.ErrDecided) || de.ID != "c2" {
		t.Fatalf("Resume = %v, want ErrDecided for c2", err)
	}
	if runs.Load() != 0 || len(store.claimed) != 1 {
		t.Fatalf("ran %d, %d claims held; want 0 and 1 (c2's)", runs.Load(), len(store.claimed))
	}
	if res, err := tk.Resume(context.Background(), pending[:1], []toolnexus.Decision{toolnexus.Approve(pending[0])}); err != nil || res[0].Output != "sent ann 1" {
		t.Errorf("c1 after its claim was released: %+v, %v", res, err)
	}
}

// TestApprovalExpiry: a pending call of a toolkit with an expiry carries
// it, under its digest; a decision past it is refused, before it runs.
func TestApprovalExpiry(t *testing.T) {
	var runs atomic.Int32
	tk := lcToolkit(t, &runs, toolnexus.WithApproval("transfer"), toolnexus.WithApprovalExpiry(time.Hour))
	p, stored := storedPending(t, tk)
	if d := p.Expires.Sub(p.Issued); d != time.Hour || !strings.Contains(string(stored), `"expires":`) || plainDigest(p) != p.Digest {
		t.Fatalf("pending call %s: want an expiry an hour after its issue, under the digest", stored)
	}
	if res, err := tk.Resume(context.Background(), []toolnexus.PendingCall{p}, []toolnexus.Decision{toolnexus.Approve(p)}); err != nil || res[0].IsError {
		t.Fatalf("within its time: %+v, %v", res, err)
	}
	// Extended by whoever stored it: the digest no longer fits.
	p, _ = storedPending(t, tk)
	p.Expires = p.Expires.Add(time.Hour)
	if _, err := tk.Resume(context.Background(), []toolnexus.PendingCall{p}, []toolnexus.Decision{toolnexus.Approve(p)}); !errors.Is(err, toolnexus.ErrDigestMismatch) {
		t.Errorf("extended expiry: %v", err)
	}
	short := lcToolkit(t, &runs, toolnexus.WithApproval("transfer"), toolnexus.WithApprovalExpiry(time.Millisecond))
	p, _ = storedPending(t, short)
	time.Sleep(5 * time.Millisecond)
	if _, err := short.Resume(context.Background(), []toolnexus.PendingCall{p}, []toolnexus.Decision{toolnexus.Approve(p)}); !errors.Is(err, toolnexus.ErrExpired) {
		t.Errorf("past its expiry: %v, want ErrExpired", err)
	}
	if runs.Load() != 1 {
		t.Errorf("ran %d, want 1", runs.Load())
	}
	// Without a decision an expired call is only given back as pending.
	if res, err := short.Resume(context.Background(), []toolnexus.PendingCall{p}, nil); err != nil || toolnexus.OutcomeOf(res[0]) != toolnexus.OutcomePending {
		t.Errorf("expired, no decision: %+v, %v", res, err)
	}
}

// TestApprovalKeyRefusals: an empty key is an error; a pending call made
// under another key is told apart from one whose fields were altered.
func TestApprovalKeyRefusals(t *testing.T) {
	var runs atomic.Int32
	for _, key := range [][]byte{nil, {}} {
		if _, err := toolnexus.NewToolkitWith(lcTools(t, &runs), toolnexus.WithApproval("transfer"), toolnexus.WithApprovalKey(key)); err == nil || !strings.Contains(err.Error(), "WithApprovalKey: the key is empty") {
			t.Errorf("WithApprovalKey(%q): %v, want an error", key, err)
		}
	}
	mk := func(opts ...toolnexus.ToolkitOption) *toolnexus.Toolkit {
		return lcToolkit(t, &runs, append([]toolnexus.ToolkitOption{toolnexus.WithApproval("transfer")}, opts...)...)
	}
	old, rotated, none := mk(toolnexus.WithApprovalKey([]byte("old key"))), mk(toolnexus.WithApprovalKey([]byte("new key"))), mk()
	keyed, _ := storedPending(t, old)
	plain, _ := storedPending(t, none)
	altered := keyed
	altered.Args = json.RawMessage(`{"to":"mallory","amount":700}`)
	for _, tc := range []struct {
		name     string
		tk       *toolnexus.Toolkit
		p        toolnexus.PendingCall
		wrongKey bool
		text     string
	}{
		{"another key", rotated, keyed, true, "made under another key, or its digest was altered"},
		{"a key, resumed without", none, keyed, true, "made under an approval key, and this toolkit has none"},
		{"no key, resumed with one", rotated, plain, true, "made without an approval key, and this toolkit has one"},
		{"altered, the same key", old, altered, false, "fields have changed"},
		{"altered, without a key", none, func() toolnexus.PendingCall { p := plain; p.Tool = "echo"; return p }(), false, "fields have changed"},
	} {
		_, err := tc.tk.Resume(context.Background(), []toolnexus.PendingCall{tc.p}, []toolnexus.Decision{toolnexus.Approve(tc.p)})
		if !errors.Is(err, toolnexus.ErrDigestMismatch) || errors.Is(err, toolnexus.ErrApprovalKey) != tc.wrongKey || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: %v; want ErrDigestMismatch, ErrApprovalKey %t, %q", tc.name, err, tc.wrongKey, tc.text)
		}
	}
	if runs.Load() != 0 {
		t.Errorf("ran %d", runs.Load())
	}
	if res, err := mk(toolnexus.WithApprovalKey([]byte("old key"))).Resume(context.Background(), []toolnexus.PendingCall{keyed}, []toolnexus.Decision{toolnexus.Approve(keyed)}); err != nil || res[0].IsError {
		t.Errorf("the same key in another toolkit: %+v, %v", res, err)
	}
}

// TestApprovalMemoryBounded: a full NewApprovalMemory forgets the call
// issued first, and from then on refuses the calls issued at or before
// it, never letting a forgotten decision run again; a call that had
// expired is forgotten without refusing any.
func TestApprovalMemoryBounded(t *testing.T) {
	ctx := context.Background()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	call := func(nonce string, minute int, expires time.Time) toolnexus.PendingCall {
		return toolnexus.PendingCall{Tool: "transfer", Nonce: nonce, Issued: base.Add(time.Duration(minute) * time.Minute), Expires: expires}
	}
	m := toolnexus.NewApprovalMemory(3)
	claim := func(p toolnexus.PendingCall) string {
		ok, err := m.Claim(ctx, p)
		switch {
		case err != nil && errors.Is(err, toolnexus.ErrDecided):
			return "refused"
		case err != nil:
			return err.Error()
		case ok:
			return "claimed"
		}
		return "decided"
	}
	for _, step := range []struct {
		p    toolnexus.PendingCall
		want string
	}{
		{call("b", 2, time.Time{}), "claimed"},
		{call("a", 1, base.Add(time.Minute+time.Second)), "claimed"}, // expired long ago
		{call("c", 3, time.Time{}), "claimed"},
		{call("c", 3, time.Time{}), "decided"},
		{call("d", 4, time.Time{}), "claimed"},  // forgets a, expired: no refusal
		{call("a0", 0, time.Time{}), "claimed"}, // forgets b (minute 2)
		{call("b", 2, time.Time{}), "refused"},
		{call("x", 2, time.Time{}), "refused"}, // issued with b: may have been decided
		{call("e", 5, time.Time{}), "claimed"},
		{call("d", 4, time.Time{}), "decided"},
	} {
		if got := claim(step.p); got != step.want {
			t.Errorf("Claim(%s, minute %d) = %s, want %s", step.p.Nonce, step.p.Issued.Minute(), got, step.want)
		}
	}
	if err := m.Release(ctx, call("d", 4, time.Time{})); err != nil {
		t.Fatal(err)
	}
	if got := claim(call("d", 4, time.Time{})); got != "claimed" {
		t.Errorf("after Release: %s", got)
	}
}
