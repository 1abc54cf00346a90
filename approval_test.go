package toolnexus_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// approvalBatch is a reply's calls: two transfers (the large one needs
// approval) and an echo.
var approvalBatch = []adapters.Call{
	{ID: "call_a", Name: "transfer", Args: json.RawMessage(`{"to":"ann","amount":20}`)},
	{ID: "call_b", Name: "transfer", Args: json.RawMessage(`{ "to": "bob", "amount": 800 }`)},
	{ID: "call_c", Name: "echo", Args: json.RawMessage(`{"x":1}`)},
	{ID: "call_d", Name: "transfer", Args: json.RawMessage(`{"to":"bob","amount":8000}`)}, // invalid: not pending
}

func largeTransfer(ctx context.Context, c *toolnexus.Call) bool {
	return c.Input().(transferIn).Amount >= 100
}

// TestApprovalResumeInAFreshToolkit runs a batch, stores its pending calls
// as JSON, and resumes them with a toolkit made anew, as another process
// would.
func TestApprovalResumeInAFreshToolkit(t *testing.T) {
	var runs atomic.Int32
	var mwSaw []string
	mw := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			mwSaw = append(mwSaw, c.ID+" "+string(c.Args()))
			return next(ctx, c)
		}
	}
	opts := []toolnexus.ToolkitOption{toolnexus.WithApprovalIf("transfer", largeTransfer), toolnexus.WithApproval("echo"), toolnexus.WithMiddleware(mw)}
	tk := lcToolkit(t, &runs, opts...)
	results := tk.Run(context.Background(), approvalBatch, toolnexus.WithParallelism(1))
	if results[0].Output != "sent ann 20" || runs.Load() != 1 {
		t.Fatalf("the small transfer: %+v (runs %d)", results[0], runs.Load())
	}
	if toolnexus.OutcomeOf(results[3]) != toolnexus.OutcomeBadArguments {
		t.Errorf("invalid arguments are an error, not pending: %+v", results[3])
	}
	pending := toolnexus.PendingCalls(results)
	if len(pending) != 2 {
		t.Fatalf("pending = %+v", pending)
	}
	if p := pending[0]; p.Index != 1 || p.ID != "call_b" || p.Tool != "transfer" || string(p.Args) != `{"to":"bob","amount":800}` || !strings.HasPrefix(p.Digest, "sha256:") {
		t.Errorf("pending[0] = %+v", p)
	}
	if p := pending[1]; p.Index != 2 || p.ID != "call_c" || p.Tool != "echo" || string(p.Args) != `{"x":1}` {
		t.Errorf("pending[1] = %+v", p)
	}
	var pe *toolnexus.PendingError
	if !errors.As(results[1].Err, &pe) || !errors.Is(results[1].Err, toolnexus.ErrPending) || pe.Call.ID != "call_b" {
		t.Errorf("Err = %v", results[1].Err)
	}
	if len(mwSaw) != 1 {
		t.Errorf("middleware ran for pending calls: %q", mwSaw)
	}

	// Stored indented, as a person-readable file might be.
	stored, err := json.MarshalIndent(pending, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	// Another process, later: the same tools, a fresh toolkit.
	var runs2 atomic.Int32
	mwSaw = nil
	fresh := lcToolkit(t, &runs2, opts...)
	var loaded []toolnexus.PendingCall
	if err := json.Unmarshal(stored, &loaded); err != nil {
		t.Fatal(err)
	}
	decisions := []toolnexus.Decision{
		toolnexus.Edit(loaded[0], json.RawMessage(`{"to":"bob","amount":300}`)),
		toolnexus.Deny(loaded[1], "echo is disabled today"),
	}
	wire, err := json.Marshal(decisions)
	if err != nil {
		t.Fatal(err)
	}
	decisions = nil
	if err := json.Unmarshal(wire, &decisions); err != nil {
		t.Fatal(err)
	}
	resumed, err := fresh.Resume(context.Background(), loaded, decisions)
	if err != nil {
		t.Fatal(err)
	}
	if resumed[0].IsError || resumed[0].Output != "sent bob 300" {
		t.Errorf("edited: %+v", resumed[0])
	}
	if !resumed[1].IsError || resumed[1].Output != "denied: echo is disabled today" || !errors.Is(resumed[1].Err, toolnexus.ErrDenied) {
		t.Errorf("denied: %+v", resumed[1])
	}
	if runs2.Load() != 1 {
		t.Errorf("the fresh toolkit ran %d tools, want 1", runs2.Load())
	}
	if len(mwSaw) != 1 || mwSaw[0] != `call_b {"to":"bob","amount":300}` {
		t.Errorf("an approved call goes through the middleware: %q", mwSaw)
	}

	// The turn's results, in call order, rendered for the provider.
	for i, p := range loaded {
		results[p.Index] = resumed[i]
	}
	msgs, err := adapters.OpenAIResults(approvalBatch, results)
	if err != nil {
		t.Fatal(err)
	}
	if msgs[2].Content != "error: denied: echo is disabled today" || msgs[1].Content != "sent bob 300" {
		t.Errorf("rendered: %+v", msgs)
	}
	// Approve as shown, in yet another toolkit. (It has a store of its
	// own, so it does not know that fresh decided the call: toolkits that
	// resume the same calls share a store, TestApprovalStoreShared.)
	again, err := lcToolkit(t, &runs2, opts...).Resume(context.Background(), loaded[:1], []toolnexus.Decision{toolnexus.Approve(loaded[0])})
	if err != nil || again[0].Output != "sent bob 800" {
		t.Errorf("approved: %+v, %v", again, err)
	}
}

func TestApprovalExecuteIsGated(t *testing.T) {
	var runs atomic.Int32
	tk := lcToolkit(t, &runs, toolnexus.WithApproval("transfer"))
	for _, r := range []define.Result{
		tk.ExecuteJSON(context.Background(), "transfer", []byte(`{"to":"ann","amount":1}`)),
		tk.Execute(context.Background(), "transfer", map[string]any{"to": "ann", "amount": json.Number("1")}),
	} {
		p := toolnexus.PendingCalls([]define.Result{r})
		if len(p) != 1 || p[0].Index != 0 || p[0].ID != "" {
			t.Errorf("pending = %+v (result %+v)", p, r)
		}
	}
	if runs.Load() != 0 {
		t.Errorf("ran %d", runs.Load())
	}
}

// plainDigest is the digest of a pending call without a key, made here
// by hand, as someone who alters the stored state could: SHA-256 over the
// index, id, tool, arguments, nonce, issue time and expiry (Unix
// nanoseconds, "" for none), each after its length.
func plainDigest(p toolnexus.PendingCall) string {
	h := sha256.New()
	expires := ""
	if !p.Expires.IsZero() {
		expires = strconv.FormatInt(p.Expires.UnixNano(), 10)
	}
	for _, f := range [][]byte{[]byte(strconv.Itoa(p.Index)), []byte(p.ID), []byte(p.Tool), p.Args,
		[]byte(p.Nonce), []byte(strconv.FormatInt(p.Issued.UnixNano(), 10)), []byte(expires)} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write(f)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func TestResumeRefusals(t *testing.T) {
	var runs atomic.Int32
	tk := lcToolkit(t, &runs, toolnexus.WithApprovalIf("transfer", largeTransfer))
	pending := toolnexus.PendingCalls(tk.Run(context.Background(), approvalBatch))
	if len(pending) != 1 {
		t.Fatalf("pending = %+v", pending)
	}
	p := pending[0]
	if plainDigest(p) != p.Digest {
		t.Fatalf("the digest is not the documented SHA-256")
	}
	other := p
	other.Args = json.RawMessage(`{"to":"mallory","amount":800}`)
	otherDigest := plainDigest(other)
	tampered := other
	tampered.Digest = otherDigest
	notPending := toolnexus.Approve(p)
	notPending.ID = "call_z"
	wrongIndex := toolnexus.Approve(p)
	wrongIndex.Index = 0
	shownOther := toolnexus.Approve(p)
	shownOther.Digest = otherDigest
	badVerdict := toolnexus.Approve(p)
	badVerdict.Verdict = "maybe"
	runs.Store(0)
	for _, tc := range []struct {
		name      string
		pending   []toolnexus.PendingCall
		decisions []toolnexus.Decision
		want      error  // errors.Is
		text      string // in the message
	}{
		{"a call that was not pending", pending, []toolnexus.Decision{notPending}, toolnexus.ErrNotPending, `"call_z"`},
		{"another index", pending, []toolnexus.Decision{wrongIndex}, toolnexus.ErrNotPending, "call 0"},
		{"other arguments than shown", pending, []toolnexus.Decision{shownOther}, toolnexus.ErrDigestMismatch, "other arguments"},
		{"altered pending args", []toolnexus.PendingCall{other}, []toolnexus.Decision{toolnexus.Approve(other)}, toolnexus.ErrDigestMismatch, "changed"},
		{"two decisions", pending, []toolnexus.Decision{toolnexus.Approve(p), toolnexus.Deny(p, "no")}, nil, "two decisions"},
		{"unknown verdict", pending, []toolnexus.Decision{badVerdict}, nil, `"maybe"`},
		{"invalid edit", pending, []toolnexus.Decision{toolnexus.Edit(p, json.RawMessage(`{"to":"bob","amount":0}`))}, nil, "/amount"},
		{"empty edit", pending, []toolnexus.Decision{toolnexus.Edit(p, nil)}, nil, "without arguments"},
		{"unknown tool", []toolnexus.PendingCall{{Index: 0, Tool: "wire", Args: json.RawMessage(`{}`)}}, nil, toolnexus.ErrUnknownTool, "wire"},
		// A valid decision next to a refused one: nothing runs.
		{"one bad of two", append(pending, tampered), []toolnexus.Decision{toolnexus.Approve(p), toolnexus.Approve(tampered)}, nil, ""},
	} {
		res, err := tk.Resume(context.Background(), tc.pending, tc.decisions)
		var de *toolnexus.DecisionError
		if err == nil || res != nil || !errors.As(err, &de) {
			t.Errorf("%s: Resume = %v, %v; want a *DecisionError", tc.name, res, err)
			continue
		}
		if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: %v does not wrap %v", tc.name, err, tc.want)
		}
		if !strings.HasPrefix(err.Error(), "toolnexus: Resume: ") || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: message %q", tc.name, err)
		}
	}
	if runs.Load() != 0 {
		t.Errorf("refused decisions ran %d tools", runs.Load())
	}
	// The tampered call with its plain digest recomputed passes without
	// a key; with WithApprovalKey it is refused.
	if _, err := tk.Resume(context.Background(), []toolnexus.PendingCall{tampered}, nil); err != nil {
		t.Errorf("keyless: %v", err)
	}
	key := []byte("a secret of the app")
	keyed := lcToolkit(t, &runs, toolnexus.WithApprovalIf("transfer", largeTransfer), toolnexus.WithApprovalKey(key))
	kp := toolnexus.PendingCalls(keyed.Run(context.Background(), approvalBatch))
	if len(kp) != 1 || !strings.HasPrefix(kp[0].Digest, "hmac-sha256:") {
		t.Fatalf("keyed pending = %+v", kp)
	}
	forged := kp[0]
	forged.Args = other.Args
	forged.Digest = plainDigest(forged)
	if _, err := keyed.Resume(context.Background(), []toolnexus.PendingCall{forged}, []toolnexus.Decision{toolnexus.Approve(forged)}); !errors.Is(err, toolnexus.ErrDigestMismatch) {
		t.Errorf("forged under a key: %v", err)
	}
	if _, err := tk.Resume(context.Background(), kp, []toolnexus.Decision{toolnexus.Approve(kp[0])}); !errors.Is(err, toolnexus.ErrDigestMismatch) {
		t.Errorf("a keyed digest resumed without the key: %v", err)
	}
	res, err := lcToolkit(t, &runs, toolnexus.WithApprovalKey(key)).Resume(context.Background(), kp, []toolnexus.Decision{toolnexus.Approve(kp[0])})
	if err != nil || res[0].Output != "sent bob 800" {
		t.Errorf("keyed resume: %+v, %v", res, err)
	}
}

// TestDeniedRendering shows how each provider renders a denied call.
func TestDeniedRendering(t *testing.T) {
	calls := []adapters.Call{{ID: "call_1", Name: "transfer", Args: json.RawMessage(`{}`)}}
	results := []define.Result{toolnexus.Denied("over the limit")}
	const text = "denied: over the limit"
	oa, _ := adapters.OpenAIResults(calls, results)
	rs, _ := adapters.OpenAIResponsesResults(calls, results)
	an, _ := adapters.AnthropicResults(calls, results)
	ge, _ := adapters.GeminiResults(calls, results)
	br, _ := adapters.BedrockResults(calls, results)
	mc := adapters.MCPResult(results[0])
	if oa[0].Content != "error: "+text || rs[0].Output != "error: "+text {
		t.Errorf("OpenAI: %+v, Responses: %+v", oa[0], rs[0])
	}
	if c := an.Content[0]; !c.IsError || !strings.Contains(mustJSON(t, c), text) {
		t.Errorf("Anthropic: %+v", c)
	}
	if r := ge.Parts[0].FunctionResponse.Response; r.Error != text {
		t.Errorf("Gemini: %+v", r)
	}
	if r := br.Content[0].ToolResult; r.Status != "error" || r.Content[0].Text != text {
		t.Errorf("Bedrock: %+v", r)
	}
	if !mc.IsError || mc.Content[0].Text != text {
		t.Errorf("MCP: %+v", mc)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
