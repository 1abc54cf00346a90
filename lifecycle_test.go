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
	"github.com/toolnexus/toolnexus/define"
)

// transferIn is a typed tool's input with constraints, so that a
// replaced argument can fail validation.
type transferIn struct {
	To     string `json:"to" minLength:"1"`
	Amount int    `json:"amount" minimum:"1" maximum:"1000"`
}

// lcTools returns a typed transfer tool that counts its runs, and a
// NewTool echo tool.
func lcTools(t *testing.T, runs *atomic.Int32) []define.Tool {
	t.Helper()
	transfer, err := define.DefineTool(func(ctx context.Context, in transferIn) (string, error) {
		runs.Add(1)
		if in.To == "fail" {
			return "", errors.New("bank said no")
		}
		if in.To == "panic" {
			panic("vault jammed")
		}
		if in.To == "slow" {
			select {
			case <-ctx.Done():
				return "", ctx.Err()
			case <-time.After(5 * time.Second):
			}
		}
		return "sent " + in.To + " " + itoa(in.Amount), nil
	}, define.WithName("transfer"), define.WithDescription("Sends money."))
	if err != nil {
		t.Fatal(err)
	}
	echo, err := define.NewTool("echo", json.RawMessage(`{"type":"object"}`), func(ctx context.Context, args json.RawMessage) (any, error) {
		runs.Add(1)
		return string(args), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return []define.Tool{transfer, echo}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func lcToolkit(t *testing.T, runs *atomic.Int32, opts ...toolnexus.ToolkitOption) *toolnexus.Toolkit {
	t.Helper()
	tk, err := toolnexus.NewToolkitWith(lcTools(t, runs), opts...)
	if err != nil {
		t.Fatalf("NewToolkitWith: %v", err)
	}
	return tk
}

// trace is a middleware that records its name before and after next.
func trace(log *[]string, mu *sync.Mutex, name string) toolnexus.Middleware {
	return func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			mu.Lock()
			*log = append(*log, name+">"+c.Name)
			mu.Unlock()
			r := next(ctx, c)
			mu.Lock()
			*log = append(*log, "<"+name)
			mu.Unlock()
			return r
		}
	}
}

func TestMiddlewareOrder(t *testing.T) {
	var runs atomic.Int32
	var log []string
	var mu sync.Mutex
	tk := lcToolkit(t, &runs,
		toolnexus.WithToolMiddleware("transfer", trace(&log, &mu, "tool1"), trace(&log, &mu, "tool2")),
		toolnexus.WithMiddleware(trace(&log, &mu, "kit1"), trace(&log, &mu, "kit2")),
		toolnexus.WithMiddleware(trace(&log, &mu, "kit3")),
	)
	r := tk.ExecuteJSON(context.Background(), "transfer", []byte(`{"to":"ann","amount":5}`))
	if r.IsError || r.Output != "sent ann 5" {
		t.Fatalf("result = %+v", r)
	}
	want := "kit1>transfer kit2>transfer kit3>transfer tool1>transfer tool2>transfer <tool2 <tool1 <kit3 <kit2 <kit1"
	if got := strings.Join(log, " "); got != want {
		t.Errorf("order:\n got %s\nwant %s", got, want)
	}
	log = nil
	r = tk.ExecuteJSON(context.Background(), "echo", []byte(`{}`))
	if r.IsError {
		t.Fatalf("echo: %+v", r)
	}
	if got, want := strings.Join(log, " "), "kit1>echo kit2>echo kit3>echo <kit3 <kit2 <kit1"; got != want {
		t.Errorf("the other tool has only the toolkit's middleware:\n got %s\nwant %s", got, want)
	}
}

func TestMiddlewareSeesValidatedArgs(t *testing.T) {
	var runs atomic.Int32
	var seen []string
	var inputs []any
	mw := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			seen = append(seen, c.ID+"|"+c.Name+"|"+string(c.Args()))
			inputs = append(inputs, c.Input())
			return next(ctx, c)
		}
	}
	tk := lcToolkit(t, &runs, toolnexus.WithMiddleware(mw))
	ctx := context.Background()
	tk.ExecuteJSON(ctx, "transfer", []byte(" {\"to\": \"ann\",\n \"amount\": 5} "))
	tk.Execute(ctx, "transfer", map[string]any{"to": "bob", "amount": json.Number("7")})
	tk.ExecuteJSON(ctx, "echo", nil)
	// Bad arguments and unknown tools never reach the middleware.
	bad := tk.ExecuteJSON(ctx, "transfer", []byte(`{"to":"ann","amount":0}`))
	unknown := tk.ExecuteJSON(ctx, "nope", []byte(`{}`))
	want := []string{`|transfer|{"to":"ann","amount":5}`, `|transfer|{"amount":7,"to":"bob"}`, `|echo|{}`}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("seen:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
	if in, ok := inputs[0].(transferIn); !ok || in != (transferIn{To: "ann", Amount: 5}) {
		t.Errorf("Input() = %#v", inputs[0])
	}
	if in, ok := inputs[1].(transferIn); !ok || in != (transferIn{To: "bob", Amount: 7}) {
		t.Errorf("Input() of map args = %#v", inputs[1])
	}
	if raw, ok := inputs[2].(json.RawMessage); !ok || string(raw) != "{}" {
		t.Errorf("Input() of a NewTool = %#v", inputs[2])
	}
	if toolnexus.OutcomeOf(bad) != toolnexus.OutcomeBadArguments || toolnexus.OutcomeOf(unknown) != toolnexus.OutcomeUnknownTool {
		t.Errorf("bad = %v, unknown = %v", toolnexus.OutcomeOf(bad), toolnexus.OutcomeOf(unknown))
	}
	if runs.Load() != 3 {
		t.Errorf("runs = %d, want 3", runs.Load())
	}
}

func TestMiddlewareDeny(t *testing.T) {
	var runs atomic.Int32
	deny := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			if in := c.Input().(transferIn); in.Amount > 100 {
				return toolnexus.Denied("transfers over 100 need a manager")
			}
			return next(ctx, c)
		}
	}
	tk := lcToolkit(t, &runs, toolnexus.WithToolMiddleware("transfer", deny))
	r := tk.ExecuteJSON(context.Background(), "transfer", []byte(`{"to":"ann","amount":500}`))
	if !r.IsError || r.Output != "denied: transfers over 100 need a manager" || !errors.Is(r.Err, toolnexus.ErrDenied) {
		t.Fatalf("result = %+v", r)
	}
	var de *toolnexus.DeniedError
	if !errors.As(r.Err, &de) || de.Reason != "transfers over 100 need a manager" {
		t.Errorf("Err = %v", r.Err)
	}
	if toolnexus.OutcomeOf(r) != toolnexus.OutcomeDenied {
		t.Errorf("outcome = %v", toolnexus.OutcomeOf(r))
	}
	if runs.Load() != 0 {
		t.Errorf("the tool ran %d times", runs.Load())
	}
	if r := tk.ExecuteJSON(context.Background(), "transfer", []byte(`{"to":"ann","amount":50}`)); r.IsError || runs.Load() != 1 {
		t.Errorf("allowed call: %+v, runs %d", r, runs.Load())
	}
}

func TestMiddlewareReplaceArgs(t *testing.T) {
	var runs atomic.Int32
	var setErr error
	replace := func(args string) toolnexus.Middleware {
		return func(next toolnexus.Handler) toolnexus.Handler {
			return func(ctx context.Context, c *toolnexus.Call) define.Result {
				setErr = c.SetArgs(json.RawMessage(args))
				return next(ctx, c)
			}
		}
	}
	var after []string
	inner := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			after = append(after, string(c.Args()))
			return next(ctx, c)
		}
	}
	ctx := context.Background()

	tk := lcToolkit(t, &runs, toolnexus.WithMiddleware(replace(`{"to": "carol", "amount": 9}`), inner))
	r := tk.ExecuteJSON(ctx, "transfer", []byte(`{"to":"ann","amount":5}`))
	if r.IsError || r.Output != "sent carol 9" || setErr != nil {
		t.Fatalf("valid replacement: %+v, SetArgs: %v", r, setErr)
	}
	if len(after) != 1 || after[0] != `{"to":"carol","amount":9}` {
		t.Errorf("the next middleware saw %q", after)
	}
	// Map arguments replaced too.
	r = tk.Execute(ctx, "transfer", map[string]any{"to": "ann", "amount": json.Number("5")})
	if r.IsError || r.Output != "sent carol 9" {
		t.Fatalf("valid replacement of map args: %+v", r)
	}

	runs.Store(0)
	for _, bad := range []string{`{"to":"carol","amount":5000}`, `{"to":""}`, `[1]`, `{"to":`} {
		tk = lcToolkit(t, &runs, toolnexus.WithMiddleware(replace(bad)))
		r = tk.ExecuteJSON(ctx, "transfer", []byte(`{"to":"ann","amount":5}`))
		var ae *define.ArgErrors
		if !r.IsError || !errors.As(r.Err, &ae) || !strings.HasPrefix(r.Output, "invalid arguments: ") {
			t.Errorf("invalid replacement %s: %+v", bad, r)
		}
		if !errors.As(setErr, &ae) {
			t.Errorf("SetArgs(%s) = %v, want the *define.ArgErrors", bad, setErr)
		}
	}
	if runs.Load() != 0 {
		t.Errorf("the handler ran %d times on invalid replacements", runs.Load())
	}
	tk = lcToolkit(t, &runs, toolnexus.WithMiddleware(replace(`{"to":"carol","amount":5000}`)))
	r = tk.ExecuteJSON(ctx, "transfer", []byte(`{"to":"ann","amount":5}`))
	if !strings.Contains(r.Output, "/amount") {
		t.Errorf("the error names no field: %s", r.Output)
	}
}

func TestMiddlewareReplaceResultAndRetry(t *testing.T) {
	var runs atomic.Int32
	redact := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			r := next(ctx, c)
			r.Output = strings.ReplaceAll(r.Output, "ann", "[name]")
			return r
		}
	}
	retry := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			r := next(ctx, c)
			if r.IsError {
				if err := c.SetArgs(json.RawMessage(`{"to":"ann","amount":1}`)); err != nil {
					t.Errorf("SetArgs: %v", err)
				}
				r = next(ctx, c)
			}
			return r
		}
	}
	twice := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			next(ctx, c)
			return next(ctx, c)
		}
	}
	tk := lcToolkit(t, &runs, toolnexus.WithMiddleware(redact, retry))
	r := tk.ExecuteJSON(context.Background(), "transfer", []byte(`{"to":"fail","amount":5}`))
	if r.IsError || r.Output != "sent [name] 1" || runs.Load() != 2 {
		t.Errorf("result = %+v, runs %d", r, runs.Load())
	}
	runs.Store(0)
	tk = lcToolkit(t, &runs, toolnexus.WithMiddleware(twice))
	r = tk.ExecuteJSON(context.Background(), "transfer", []byte(`{"to":"ann","amount":5}`))
	if r.IsError || r.Output != "sent ann 5" || runs.Load() != 2 {
		t.Errorf("next twice: %+v, runs %d", r, runs.Load())
	}
}

func TestMiddlewarePanicIsAResult(t *testing.T) {
	var runs atomic.Int32
	boom := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result { panic("middleware bug") }
	}
	tk := lcToolkit(t, &runs, toolnexus.WithMiddleware(boom))
	for _, r := range []define.Result{
		tk.ExecuteJSON(context.Background(), "transfer", []byte(`{"to":"ann","amount":5}`)),
		tk.Run(context.Background(), []adapters.Call{{ID: "c1", Name: "echo", Args: json.RawMessage(`{}`)}})[0],
	} {
		var pe *define.PanicError
		if !r.IsError || !errors.As(r.Err, &pe) || !strings.Contains(r.Output, "middleware bug") {
			t.Errorf("result = %+v", r)
		}
	}
}

// TestPanicOutputIsOneLine: a panic in a middleware, under Run and
// RunStream as under Execute, gives the same one-line output as a panic
// in a handler (define's): the model's view of a failure never spans
// lines, whichever part of the call panicked.
func TestPanicOutputIsOneLine(t *testing.T) {
	var runs atomic.Int32
	boom := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result { panic("middleware\nbug\r\nhere") }
	}
	tk := lcToolkit(t, &runs, toolnexus.WithToolMiddleware("echo", boom))
	_, streamed, err := tk.RunStream(context.Background(), adapters.ForOpenAI(), strings.NewReader(streamOf("echo", `{}`)), adapters.StreamHooks{})
	if err != nil || len(streamed) != 1 {
		t.Fatalf("RunStream = %+v, %v", streamed, err)
	}
	handler := runTestToolkit(t, runTestTool(t, "echo", func(context.Context, json.RawMessage) (any, error) { panic("middleware\nbug\r\nhere") }))
	want := handler.ExecuteJSON(context.Background(), "echo", []byte(`{}`)).Output
	if want != "tool echo failed with an internal error: middleware bug here" {
		t.Fatalf("a handler's panic: %q", want)
	}
	for _, r := range []define.Result{
		tk.ExecuteJSON(context.Background(), "echo", []byte(`{}`)),
		tk.Run(context.Background(), []adapters.Call{{ID: "c1", Name: "echo", Args: json.RawMessage(`{}`)}})[0],
		streamed[0],
	} {
		var pe *define.PanicError
		if !r.IsError || !errors.As(r.Err, &pe) || r.Output != want {
			t.Errorf("result = %+v, want output %q", r, want)
		}
	}
}

// TestNextAfterTheChainReturned: a middleware that keeps next and calls
// it after it returned (here after denying the call, and from a
// goroutine it did not wait for) gets an error, and the tool does not
// run on the arguments the model was told were denied.
func TestNextAfterTheChainReturned(t *testing.T) {
	var runs atomic.Int32
	type kept struct {
		next toolnexus.Handler
		c    *toolnexus.Call
	}
	keep := make(chan kept, 8)
	sneaky := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			keep <- kept{next, c}
			return toolnexus.Denied("not now")
		}
	}
	tk := lcToolkit(t, &runs, toolnexus.WithMiddleware(sneaky))
	results := tk.Run(context.Background(), []adapters.Call{
		{ID: "c1", Name: "transfer", Args: json.RawMessage(`{"to":"mallory","amount":900}`)},
		{ID: "c2", Name: "echo", Args: json.RawMessage(`{"x":1}`)},
	})
	direct := tk.ExecuteJSON(context.Background(), "transfer", []byte(`{"to":"mallory","amount":901}`))
	for i, r := range append(results, direct) {
		if toolnexus.OutcomeOf(r) != toolnexus.OutcomeDenied {
			t.Errorf("result %d = %+v, want denied", i, r)
		}
	}
	for range 3 {
		k := <-keep
		late := make(chan define.Result, 1)
		go func() { late <- k.next(context.Background(), k.c) }()
		r := <-late
		if runs.Load() != 0 {
			t.Fatalf("next after the chain returned ran the tool %s (%d runs)", k.c.Name, runs.Load())
		}
		if !r.IsError || !errors.Is(r.Err, toolnexus.ErrCallEnded) {
			t.Errorf("late next for %s = %+v, want an error wrapping ErrCallEnded", k.c.Name, r)
		}
	}
}

func TestNewToolkitLifecycleErrors(t *testing.T) {
	var runs atomic.Int32
	nilHandler := func(next toolnexus.Handler) toolnexus.Handler { return nil }
	for name, opt := range map[string]toolnexus.ToolkitOption{
		"middleware of no tool": toolnexus.WithToolMiddleware("nope"),
		"approval of no tool":   toolnexus.WithApproval("nope"),
		"nil handler":           toolnexus.WithMiddleware(nilHandler),
	} {
		if _, err := toolnexus.NewToolkitWith(lcTools(t, &runs), opt); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.HasPrefix(err.Error(), "toolnexus: NewToolkit: ") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// recorder is an observer that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []toolnexus.Event
}

func (r *recorder) observe(ctx context.Context, e toolnexus.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) outcomes() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		out = append(out, e.Call.ID+":"+string(e.Outcome))
	}
	return out
}

func TestObserverSeesEveryOutcomeUnderRun(t *testing.T) {
	var runs atomic.Int32
	var rec recorder
	deny := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			if c.ID == "deny" {
				return toolnexus.Denied("no")
			}
			return next(ctx, c)
		}
	}
	tk := lcToolkit(t, &runs, toolnexus.WithMiddleware(deny), toolnexus.WithObserver(rec.observe))
	calls := []adapters.Call{
		{ID: "ok", Name: "transfer", Args: json.RawMessage(`{"to":"ann","amount":5}`)},
		{ID: "bad", Name: "transfer", Args: json.RawMessage(`{"to":"ann"}`)},
		{ID: "unknown", Name: "transfr", Args: json.RawMessage(`{}`)},
		{ID: "fail", Name: "transfer", Args: json.RawMessage(`{"to":"fail","amount":5}`)},
		{ID: "panic", Name: "transfer", Args: json.RawMessage(`{"to":"panic","amount":5}`)},
		{ID: "slow", Name: "transfer", Args: json.RawMessage(`{"to":"slow","amount":5}`)},
		{ID: "deny", Name: "echo", Args: json.RawMessage(`{}`)},
		{ID: "map", Name: "echo", Input: map[string]any{"a": "b"}},
	}
	results := tk.Run(context.Background(), calls, toolnexus.WithCallTimeout(100*time.Millisecond))
	want := "ok:ok bad:bad_arguments unknown:unknown_tool fail:tool_error panic:panic slow:timeout deny:denied map:ok"
	if got := strings.Join(rec.outcomes(), " "); got != want {
		t.Errorf("outcomes:\n got %s\nwant %s", got, want)
	}
	for i, e := range rec.events {
		if e.Result.Output != results[i].Output {
			t.Errorf("event %d: result %q, Run gave %q", i, e.Result.Output, results[i].Output)
		}
		if e.Start.IsZero() || e.Duration < 0 {
			t.Errorf("event %d: start %v, duration %v", i, e.Start, e.Duration)
		}
		if (e.Call.Name == "transfer") != (e.Tool.Name() == "transfer") {
			t.Errorf("event %d: tool %v", i, e.Tool)
		}
	}
	if d := rec.events[5].Duration; d < 100*time.Millisecond || d > 3*time.Second {
		t.Errorf("the timed-out call's duration is %v", d)
	}
}

func TestObserverSeesCancellation(t *testing.T) {
	var runs atomic.Int32
	var rec recorder
	tk := lcToolkit(t, &runs, toolnexus.WithObserver(rec.observe))
	ctx, cancel := context.WithCancel(context.Background())
	calls := []adapters.Call{
		{ID: "slow", Name: "transfer", Args: json.RawMessage(`{"to":"slow","amount":5}`)},
		{ID: "later", Name: "transfer", Args: json.RawMessage(`{"to":"ann","amount":5}`)},
	}
	time.AfterFunc(50*time.Millisecond, cancel)
	tk.Run(ctx, calls, toolnexus.WithParallelism(1))
	if got, want := strings.Join(rec.outcomes(), " "), "slow:cancelled later:cancelled"; got != want {
		t.Errorf("outcomes %s, want %s", got, want)
	}
	if !rec.events[1].Start.IsZero() {
		t.Errorf("a call not started has a start time")
	}
}

func TestObserverOfRunStream(t *testing.T) {
	var runs atomic.Int32
	var rec recorder
	tk := lcToolkit(t, &runs, toolnexus.WithObserver(rec.observe), toolnexus.WithApproval("echo"))
	body := strings.Join([]string{
		`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"transfer","arguments":"{\"to\":\"ann\",\"amount\":3}"}}]}}]}`,
		`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"c2","type":"function","function":{"name":"echo","arguments":"{}"}}]}}]}`,
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
		`data: [DONE]`, ``}, "\n\n")
	_, results, err := tk.RunStream(context.Background(), adapters.ForOpenAI(), strings.NewReader(body), adapters.StreamHooks{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(rec.outcomes(), " "), "c1:ok c2:pending"; got != want {
		t.Errorf("outcomes %s, want %s", got, want)
	}
	if p := toolnexus.PendingCalls(results); len(p) != 1 || p[0].Index != 1 || p[0].ID != "c2" {
		t.Errorf("pending = %+v", p)
	}
	if runs.Load() != 1 {
		t.Errorf("runs = %d", runs.Load())
	}
}

// TestRunWithMiddlewareRace runs batches of calls with middleware,
// observers and pending approvals from several goroutines at once, for
// -race.
func TestRunWithMiddlewareRace(t *testing.T) {
	var runs, wrapped atomic.Int32
	var rec recorder
	count := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			wrapped.Add(1)
			return next(ctx, c)
		}
	}
	big := func(ctx context.Context, c *toolnexus.Call) bool { return c.Input().(transferIn).Amount > 500 }
	tk := lcToolkit(t, &runs, toolnexus.WithMiddleware(count), toolnexus.WithObserver(rec.observe),
		toolnexus.WithApprovalIf("transfer", big))
	var calls []adapters.Call
	for i := range 16 {
		amount := 10
		if i%4 == 0 {
			amount = 900
		}
		calls = append(calls, adapters.Call{ID: "c" + itoa(i), Name: "transfer", Args: json.RawMessage(`{"to":"ann","amount":` + itoa(amount) + `}`)})
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results := tk.Run(context.Background(), calls, toolnexus.WithParallelism(4))
			pending := toolnexus.PendingCalls(results)
			if len(pending) != 4 {
				t.Errorf("%d pending, want 4", len(pending))
			}
			for _, p := range pending {
				if p.Index%4 != 0 || results[p.Index].Output != "awaiting approval: the tool has not run yet" {
					t.Errorf("pending %+v: %q", p, results[p.Index].Output)
				}
			}
			resumed, err := tk.Resume(context.Background(), pending, []toolnexus.Decision{toolnexus.Approve(pending[0]), toolnexus.Deny(pending[1], "no")})
			if err != nil {
				t.Error(err)
				return
			}
			if resumed[0].Output != "sent ann 900" || resumed[1].Output != "denied: no" || toolnexus.OutcomeOf(resumed[2]) != toolnexus.OutcomePending {
				t.Errorf("resumed = %+v", resumed)
			}
		}()
	}
	wg.Wait()
	if runs.Load() != 4*13 || wrapped.Load() != 4*13 {
		t.Errorf("runs %d, middleware %d, want %d", runs.Load(), wrapped.Load(), 4*13)
	}
	if len(rec.events) != 4*(16+4) {
		t.Errorf("%d events, want %d", len(rec.events), 4*20)
	}
}

// upper is a string that decodes with a method of its own, so that its
// tool's decode calls user code.
type upper string

func (u *upper) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "" {
		return errors.New("empty")
	}
	*u = upper(strings.ToUpper(s))
	return nil
}

func TestMiddlewareOnAUserDecoder(t *testing.T) {
	type in struct {
		Word upper `json:"word"`
	}
	tool, err := define.DefineTool(func(ctx context.Context, v in) (string, error) { return string(v.Word), nil }, define.WithName("shout"))
	if err != nil {
		t.Fatal(err)
	}
	var saw any
	mw := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			saw = c.Input()
			return next(ctx, c)
		}
	}
	tk, err := toolnexus.NewToolkitWith([]define.Tool{tool}, toolnexus.WithMiddleware(mw))
	if err != nil {
		t.Fatal(err)
	}
	results := tk.Run(context.Background(), []adapters.Call{
		{ID: "1", Name: "shout", Args: json.RawMessage(`{"word":"hey"}`)},
		{ID: "2", Name: "shout", Args: json.RawMessage(`{"word":""}`)},
	}, toolnexus.WithParallelism(1))
	if results[0].Output != "HEY" || toolnexus.OutcomeOf(results[1]) != toolnexus.OutcomeBadArguments {
		t.Errorf("results = %+v", results)
	}
	if v, ok := saw.(in); !ok || v.Word != "HEY" {
		t.Errorf("Input() = %#v", saw)
	}
}
