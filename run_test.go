package toolnexus_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

const runTestSchema = `{"type":"object"}`

// runTestTool makes a tool from a handler, without argument decoding, so these
// tests exercise Run alone.
func runTestTool(t *testing.T, name string, h define.RawHandler) define.Tool {
	t.Helper()
	tool, err := define.NewTool(name, json.RawMessage(runTestSchema), h)
	if err != nil {
		t.Fatalf("NewTool(%q): %v", name, err)
	}
	return tool
}

func runTestToolkit(t *testing.T, tools ...define.Tool) *toolnexus.Toolkit {
	t.Helper()
	tk, err := toolnexus.NewToolkit(tools...)
	if err != nil {
		t.Fatalf("NewToolkit: %v", err)
	}
	return tk
}

func runTestCall(name, args string) adapters.Call {
	return adapters.Call{ID: "id-" + name, Name: name, Args: json.RawMessage(args)}
}

// runTestEcho returns its arguments after sleeping for args.ms milliseconds.
func runTestEcho(ctx context.Context, args json.RawMessage) (any, error) {
	var in struct {
		MS int `json:"ms"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return nil, err
	}
	time.Sleep(time.Duration(in.MS) * time.Millisecond)
	return string(args), nil
}

func TestRunResultsInCallOrder(t *testing.T) {
	tk := runTestToolkit(t, runTestTool(t, "runTestEcho", runTestEcho))
	var calls []adapters.Call
	var want []string
	for i := range 12 {
		args := fmt.Sprintf(`{"ms":%d,"i":%d}`, (12-i)*3, i) // later calls finish first
		calls = append(calls, runTestCall("runTestEcho", args))
		want = append(want, args)
	}
	results := tk.Run(context.Background(), calls, toolnexus.WithParallelism(12))
	if len(results) != len(calls) {
		t.Fatalf("Run returned %d results for %d calls", len(results), len(calls))
	}
	for i, r := range results {
		if r.IsError || r.Output != want[i] {
			t.Errorf("results[%d] = %+v, want Output %s", i, r, want[i])
		}
	}
}

func TestRunBoundedParallelism(t *testing.T) {
	for _, tt := range []struct {
		name  string
		opts  []toolnexus.RunOption
		calls int
		max   int32
	}{
		{"one at a time", []toolnexus.RunOption{toolnexus.WithParallelism(1)}, 6, 1},
		{"three", []toolnexus.RunOption{toolnexus.WithParallelism(3)}, 10, 3},
		{"default", nil, 20, toolnexus.DefaultParallelism},
		{"zero means default", []toolnexus.RunOption{toolnexus.WithParallelism(0)}, 20, toolnexus.DefaultParallelism},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var running, peak atomic.Int32
			tool := runTestTool(t, "work", func(ctx context.Context, _ json.RawMessage) (any, error) {
				n := running.Add(1)
				for {
					p := peak.Load()
					if n <= p || peak.CompareAndSwap(p, n) {
						break
					}
				}
				time.Sleep(20 * time.Millisecond)
				running.Add(-1)
				return "ok", nil
			})
			tk := runTestToolkit(t, tool)
			calls := make([]adapters.Call, tt.calls)
			for i := range calls {
				calls[i] = runTestCall("work", `{}`)
			}
			for i, r := range tk.Run(context.Background(), calls, tt.opts...) {
				if r.IsError {
					t.Errorf("results[%d] = %+v", i, r)
				}
			}
			if got := peak.Load(); got > tt.max {
				t.Errorf("peak concurrency = %d, want at most %d", got, tt.max)
			}
			if got := peak.Load(); tt.max > 1 && got < 2 {
				t.Errorf("peak concurrency = %d: calls did not overlap", got)
			}
		})
	}
}

// TestRunSlowCallDoesNotBlockOthers: with two slots, a call that blocks
// holds one; the others all run in the other slot meanwhile.
func TestRunSlowCallDoesNotBlockOthers(t *testing.T) {
	release := make(chan struct{})
	var fastDone atomic.Int32
	allFast := make(chan struct{})
	tk := runTestToolkit(t,
		runTestTool(t, "slow", func(ctx context.Context, _ json.RawMessage) (any, error) {
			<-release
			return "slow done", nil
		}),
		runTestTool(t, "fast", func(ctx context.Context, _ json.RawMessage) (any, error) {
			if fastDone.Add(1) == 5 {
				close(allFast)
			}
			return "fast done", nil
		}),
	)
	calls := []adapters.Call{runTestCall("slow", `{}`), runTestCall("fast", `{}`), runTestCall("fast", `{}`), runTestCall("fast", `{}`), runTestCall("fast", `{}`), runTestCall("fast", `{}`)}
	go func() {
		select {
		case <-allFast: // every fast call ran while slow held its slot
		case <-time.After(5 * time.Second):
			t.Error("fast calls did not run while the slow call was running")
		}
		close(release)
	}()
	results := tk.Run(context.Background(), calls, toolnexus.WithParallelism(2))
	if results[0].Output != "slow done" {
		t.Errorf("results[0] = %+v, want slow done", results[0])
	}
	for i, r := range results[1:] {
		if r.Output != "fast done" {
			t.Errorf("results[%d] = %+v, want fast done", i+1, r)
		}
	}
}

func TestRunCancellation(t *testing.T) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	started := make(chan struct{})
	tk := runTestToolkit(t,
		runTestTool(t, "quick", func(ctx context.Context, _ json.RawMessage) (any, error) { return "quick", nil }),
		// stubborn ignores its context: Run must not wait for it.
		runTestTool(t, "stubborn", func(ctx context.Context, _ json.RawMessage) (any, error) {
			close(started)
			<-block
			return "too late", nil
		}),
	)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	calls := []adapters.Call{runTestCall("quick", `{}`), runTestCall("stubborn", `{}`), runTestCall("quick", `{}`), runTestCall("quick", `{}`)}
	begin := time.Now()
	results := tk.Run(ctx, calls, toolnexus.WithParallelism(1))
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("Run took %v after cancellation", d)
	}
	if results[0].IsError || results[0].Output != "quick" {
		t.Errorf("results[0] = %+v, want the finished call's result", results[0])
	}
	r := results[1]
	if !r.IsError || !errors.Is(r.Err, toolnexus.ErrAbandoned) || !errors.Is(r.Err, context.Canceled) {
		t.Errorf("results[1] = %+v, want an error wrapping ErrAbandoned and context.Canceled", r)
	}
	for i := 2; i < len(results); i++ {
		r := results[i]
		if !r.IsError || !errors.Is(r.Err, context.Canceled) || errors.Is(r.Err, toolnexus.ErrAbandoned) {
			t.Errorf("results[%d] = %+v, want a not-run error wrapping context.Canceled", i, r)
		}
	}
}

func TestRunCancelledBeforeStart(t *testing.T) {
	var ran atomic.Int32
	tk := runTestToolkit(t, runTestTool(t, "f", func(ctx context.Context, _ json.RawMessage) (any, error) {
		ran.Add(1)
		return "ran", nil
	}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	results := tk.Run(ctx, []adapters.Call{runTestCall("f", `{}`), runTestCall("f", `{}`), runTestCall("nope", `{}`)})
	if n := ran.Load(); n != 0 {
		t.Errorf("%d handlers ran on a cancelled context", n)
	}
	for i, r := range results {
		if !r.IsError || !errors.Is(r.Err, context.Canceled) {
			t.Errorf("results[%d] = %+v, want an error wrapping context.Canceled", i, r)
		}
	}
}

func TestRunCallTimeout(t *testing.T) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	tk := runTestToolkit(t,
		runTestTool(t, "hang", func(ctx context.Context, _ json.RawMessage) (any, error) {
			<-block
			return "never", nil
		}),
		runTestTool(t, "polite", func(ctx context.Context, _ json.RawMessage) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}),
		runTestTool(t, "ok", func(ctx context.Context, _ json.RawMessage) (any, error) { return "ok", nil }),
	)
	begin := time.Now()
	results := tk.Run(context.Background(), []adapters.Call{runTestCall("hang", `{}`), runTestCall("ok", `{}`), runTestCall("polite", `{}`)},
		toolnexus.WithCallTimeout(30*time.Millisecond))
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("Run took %v with a 30ms call timeout", d)
	}
	if r := results[0]; !errors.Is(r.Err, toolnexus.ErrAbandoned) || !errors.Is(r.Err, context.DeadlineExceeded) {
		t.Errorf("results[0] = %+v, want an error wrapping ErrAbandoned and DeadlineExceeded", r)
	}
	if r := results[1]; r.IsError || r.Output != "ok" {
		t.Errorf("results[1] = %+v, want ok", r)
	}
	if r := results[2]; !r.IsError || !errors.Is(r.Err, context.DeadlineExceeded) {
		t.Errorf("results[2] = %+v, want an error wrapping DeadlineExceeded", r)
	}
}

func TestRunUnknownTool(t *testing.T) {
	tk := runTestToolkit(t,
		runTestTool(t, "get_weather", func(ctx context.Context, _ json.RawMessage) (any, error) { return "sunny", nil }),
		runTestTool(t, "get_time", func(ctx context.Context, _ json.RawMessage) (any, error) { return "noon", nil }),
	)
	results := tk.Run(context.Background(), []adapters.Call{runTestCall("get_weather", `{}`), runTestCall("get_wether", `{}`), runTestCall("get_time", `{}`)})
	if results[0].Output != "sunny" || results[2].Output != "noon" {
		t.Errorf("known calls = %+v, %+v; the unknown one must not fail the batch", results[0], results[2])
	}
	r := results[1]
	if !r.IsError || !errors.Is(r.Err, toolnexus.ErrUnknownTool) {
		t.Fatalf("results[1] = %+v, want an error wrapping ErrUnknownTool", r)
	}
	for _, s := range []string{`"get_wether"`, "get_weather", "get_time"} {
		if !strings.Contains(r.Output, s) {
			t.Errorf("unknown-tool Output %q does not mention %s", r.Output, s)
		}
	}
}

func TestRunPanicIsolated(t *testing.T) {
	tk := runTestToolkit(t,
		runTestTool(t, "boom", func(ctx context.Context, _ json.RawMessage) (any, error) { panic("kaboom") }),
		runTestTool(t, "ok", func(ctx context.Context, _ json.RawMessage) (any, error) { return "ok", nil }),
	)
	results := tk.Run(context.Background(), []adapters.Call{runTestCall("ok", `{}`), runTestCall("boom", `{}`), runTestCall("ok", `{}`)})
	var pe *define.PanicError
	if r := results[1]; !r.IsError || !errors.As(r.Err, &pe) || pe.Value != "kaboom" {
		t.Errorf("results[1] = %+v, want a *define.PanicError with kaboom", r)
	}
	if results[0].Output != "ok" || results[2].Output != "ok" {
		t.Errorf("the other calls = %+v, %+v, want ok", results[0], results[2])
	}
}

// recordingTool is a tool named f that returns its arguments and records
// them, in the order the calls ran; seen returns the record.
func recordingTool(t *testing.T) (tool define.Tool, seen func() []string) {
	var mu sync.Mutex
	var got []string
	tool = runTestTool(t, "f", func(ctx context.Context, args json.RawMessage) (any, error) {
		mu.Lock()
		got = append(got, string(args))
		mu.Unlock()
		return string(args), nil
	})
	return tool, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

func TestRunArguments(t *testing.T) {
	tool, seen := recordingTool(t)
	tk := runTestToolkit(t, tool)
	results := tk.Run(context.Background(), []adapters.Call{runTestCall("f", `{"a":1}`), runTestCall("f", `[1]`)}, toolnexus.WithParallelism(1))
	got := seen()
	if len(got) != 1 || got[0] != `{"a":1}` {
		t.Errorf("handler saw %q, want only {\"a\":1}", got)
	}
	if r := results[1]; !r.IsError || !errors.Is(r.Err, define.ErrType) {
		t.Errorf("results[1] for non-object args = %+v, want an argument error", r)
	}
}

func TestRunEmpty(t *testing.T) {
	tk := runTestToolkit(t)
	if got := tk.Run(context.Background(), nil); got == nil || len(got) != 0 {
		t.Errorf("Run(nil) = %#v, want an empty, non-nil slice", got)
	}
}

// TestRunParsedInput: a call whose arguments arrived parsed (Input) reaches
// the tool's Execute with that map and its Args are not read; calls with
// Input and with Args mix in one batch, in order.
func TestRunParsedInput(t *testing.T) {
	type in struct {
		Query string `json:"query"`
		Limit int64  `json:"limit" minimum:"1"`
	}
	search := define.MustDefineTool(func(ctx context.Context, a in) (string, error) {
		return fmt.Sprintf("%s/%d", a.Query, a.Limit), nil
	}, define.WithName("search"))
	tk := runTestToolkit(t, search)
	calls := []adapters.Call{
		{ID: "a", Name: "search", Input: map[string]any{"query": "go", "limit": float64(3)}, Args: json.RawMessage(`not json`)},
		{ID: "b", Name: "search", Args: json.RawMessage(`{"query":"text","limit":9007199254740993}`)},
		{ID: "c", Name: "search", Input: map[string]any{"query": "big", "limit": json.Number("9007199254740993")}},
		{ID: "d", Name: "search", Input: map[string]any{"query": "bad", "limit": float64(0)}},
		{ID: "e", Name: "search", Input: map[string]any{}},
		{ID: "f", Name: "nope", Input: map[string]any{"query": "x"}},
	}
	results := tk.Run(context.Background(), calls, toolnexus.WithParallelism(3))
	type short struct {
		Output  string
		IsError bool
	}
	var got []short
	for _, r := range results {
		got = append(got, short{r.Output, r.IsError})
	}
	want := []short{
		{"go/3", false},
		{"text/9007199254740993", false},
		{"big/9007199254740993", false},
		{results[3].Output, true},
		{results[4].Output, true},
		{`unknown tool "nope" (available tools: search)`, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Run results (-want +got):\n%s", diff)
	}
	if !strings.Contains(results[3].Output, "/limit") {
		t.Errorf("results[3].Output = %q, want it to name /limit", results[3].Output)
	}
	if !errors.Is(results[3].Err, define.ErrConstraint) {
		t.Errorf("results[3].Err = %v, want ErrConstraint", results[3].Err)
	}
	if !errors.Is(results[4].Err, define.ErrMissing) {
		t.Errorf("results[4].Err = %v, want ErrMissing", results[4].Err)
	}
	if !errors.Is(results[5].Err, toolnexus.ErrUnknownTool) {
		t.Errorf("results[5].Err = %v, want ErrUnknownTool", results[5].Err)
	}
}

// TestRunParallelismBoundsAbandonedCalls: a tool that ignores its context
// keeps its slot after its call times out, so WithParallelism stays a
// bound on the tool bodies running at once; once every slot is held so,
// the rest of the batch is not started.
func TestRunParallelismBoundsAbandonedCalls(t *testing.T) {
	var running, peak, started atomic.Int32
	release := make(chan struct{})
	var bodies sync.WaitGroup
	stubborn := func(ctx context.Context, args json.RawMessage) (any, error) {
		started.Add(1)
		bodies.Add(1)
		defer bodies.Done()
		defer countRunning(&running, &peak)()
		<-release // ignores ctx
		return "late", nil
	}
	tk := runTestToolkit(t, runTestTool(t, "stubborn", stubborn))
	calls := make([]adapters.Call, 40)
	for i := range calls {
		calls[i] = runTestCall("stubborn", `{}`)
	}
	results := tk.Run(context.Background(), calls, toolnexus.WithParallelism(4), toolnexus.WithCallTimeout(20*time.Millisecond))
	close(release)
	if p := peak.Load(); p > 4 {
		t.Errorf("%d tool bodies ran at once under WithParallelism(4)", p)
	}
	var abandonedN, heldN int
	for i, r := range results {
		switch {
		case errors.Is(r.Err, toolnexus.ErrAbandoned) && errors.Is(r.Err, context.DeadlineExceeded):
			abandonedN++
		case errors.Is(r.Err, toolnexus.ErrSlotsHeld) && r.IsError:
			heldN++
		default:
			t.Errorf("results[%d] = %+v, want abandoned or not run for held slots", i, r)
		}
	}
	// Four bodies hold the four slots until release. Under load a call's
	// timeout may pass before its body starts: it is abandoned without
	// holding a slot, and one more call starts. So at least four are
	// abandoned, the rest not run, and never more than four bodies.
	if abandonedN < 4 || abandonedN+heldN != 40 || started.Load() > 4 {
		t.Errorf("%d abandoned, %d not run, %d bodies started; want at least 4 abandoned, the rest not run, at most 4 bodies", abandonedN, heldN, started.Load())
	}
	time.Sleep(time.Millisecond) // let the released bodies register before waiting
	bodies.Wait()
}

// TestRunSlotFreedWhenToolReturns: an abandoned call's slot serves the
// next call once its tool returns.
func TestRunSlotFreedWhenToolReturns(t *testing.T) {
	var running, peak atomic.Int32
	slowThenFast := func(ctx context.Context, args json.RawMessage) (any, error) {
		defer countRunning(&running, &peak)()
		if string(args) == `{"slow":true}` {
			time.Sleep(60 * time.Millisecond) // ignores ctx
		}
		return "ok", nil
	}
	tk := runTestToolkit(t, runTestTool(t, "f", slowThenFast))
	calls := []adapters.Call{runTestCall("f", `{"slow":true}`), runTestCall("f", `{}`), runTestCall("f", `{}`)}
	results := tk.Run(context.Background(), calls, toolnexus.WithParallelism(2), toolnexus.WithCallTimeout(20*time.Millisecond))
	if !errors.Is(results[0].Err, toolnexus.ErrAbandoned) {
		t.Errorf("results[0] = %+v, want abandoned", results[0])
	}
	for i, r := range results[1:] {
		if r.IsError || r.Output != "ok" {
			t.Errorf("results[%d] = %+v, want ok", i+1, r)
		}
	}
	if p := peak.Load(); p > 2 {
		t.Errorf("%d bodies at once under WithParallelism(2)", p)
	}
}

// TestRunGoexit: a tool that calls runtime.Goexit gives an error result,
// and Run returns without a timeout set; the other calls run.
func TestRunGoexit(t *testing.T) {
	exits := func(ctx context.Context, args json.RawMessage) (any, error) {
		runtime.Goexit()
		return nil, nil
	}
	panicsNil := func(ctx context.Context, args json.RawMessage) (any, error) {
		panic(nil)
	}
	tk := runTestToolkit(t, runTestTool(t, "exits", exits), runTestTool(t, "panicsNil", panicsNil), runTestTool(t, "runTestEcho", runTestEcho))
	calls := []adapters.Call{runTestCall("exits", `{}`), runTestCall("runTestEcho", `{}`), runTestCall("panicsNil", `{}`), runTestCall("exits", `{}`)}
	for _, par := range []int{1, 4} {
		results := tk.Run(context.Background(), calls, toolnexus.WithParallelism(par))
		for _, i := range []int{0, 3} {
			if !results[i].IsError || !errors.Is(results[i].Err, toolnexus.ErrToolExited) {
				t.Errorf("parallelism %d: results[%d] = %+v, want an error wrapping ErrToolExited", par, i, results[i])
			}
		}
		var pe *define.PanicError
		if !results[2].IsError || !errors.As(results[2].Err, &pe) {
			t.Errorf("parallelism %d: results[2] = %+v, want a panic error", par, results[2])
		}
		if results[1].IsError || results[1].Output != `{}` {
			t.Errorf("parallelism %d: results[1] = %+v, want {}", par, results[1])
		}
	}
}

// countRunning counts a running tool body in running and its maximum in
// peak; call the result when the body ends.
func countRunning(running, peak *atomic.Int32) func() {
	n := running.Add(1)
	for {
		p := peak.Load()
		if n <= p || peak.CompareAndSwap(p, n) {
			break
		}
	}
	return func() { running.Add(-1) }
}

// okBoomExitsToolkit has three tools: ok returns "ok", boom panics with
// "kaboom", exits calls runtime.Goexit.
func okBoomExitsToolkit(t *testing.T) *toolnexus.Toolkit {
	t.Helper()
	return runTestToolkit(t,
		runTestTool(t, "ok", func(ctx context.Context, _ json.RawMessage) (any, error) { return "ok", nil }),
		runTestTool(t, "boom", func(ctx context.Context, _ json.RawMessage) (any, error) { panic("kaboom") }),
		runTestTool(t, "exits", func(ctx context.Context, _ json.RawMessage) (any, error) {
			runtime.Goexit()
			return nil, nil
		}),
	)
}

// TestRunSingleCall: a batch of one call, on a context that can never be
// done and on one that can, gives the tool's result, a panic's and a
// Goexit's error result, and honours a cancelled context.
func TestRunSingleCall(t *testing.T) {
	tk := okBoomExitsToolkit(t)
	cancellable, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, ctx := range []context.Context{context.Background(), cancellable} {
		for _, opts := range [][]toolnexus.RunOption{nil, {toolnexus.WithParallelism(1)}, {toolnexus.WithCallTimeout(time.Minute)}} {
			name := fmt.Sprintf("ctx can be done: %t, %d options", ctx.Done() != nil, len(opts))
			if r := tk.Run(ctx, []adapters.Call{runTestCall("ok", `{}`)}, opts...); len(r) != 1 || r[0].IsError || r[0].Output != "ok" {
				t.Errorf("%s: ok = %+v, want ok", name, r)
			}
			var pe *define.PanicError
			if r := tk.Run(ctx, []adapters.Call{runTestCall("boom", `{}`)}, opts...); !r[0].IsError || !errors.As(r[0].Err, &pe) || pe.Value != "kaboom" {
				t.Errorf("%s: boom = %+v, want a *define.PanicError with kaboom", name, r[0])
			}
			if r := tk.Run(ctx, []adapters.Call{runTestCall("exits", `{}`)}, opts...); !r[0].IsError || !errors.Is(r[0].Err, toolnexus.ErrToolExited) {
				t.Errorf("%s: exits = %+v, want an error wrapping ErrToolExited", name, r[0])
			}
		}
	}
	cancel()
	if r := tk.Run(cancellable, []adapters.Call{runTestCall("ok", `{}`)}); !r[0].IsError || !errors.Is(r[0].Err, context.Canceled) || errors.Is(r[0].Err, toolnexus.ErrAbandoned) {
		t.Errorf("on a cancelled context: %+v, want a not-run error wrapping context.Canceled", r[0])
	}
}

// TestRunSequentialOrder: under WithParallelism(1) the tools run one after
// another in call order.
func TestRunSequentialOrder(t *testing.T) {
	tool, seen := recordingTool(t)
	tk := runTestToolkit(t, tool)
	var calls []adapters.Call
	var want []string
	for i := range 20 {
		args := fmt.Sprintf(`{"i":%d}`, i)
		calls = append(calls, runTestCall("f", args))
		want = append(want, args)
	}
	results := tk.Run(context.Background(), calls, toolnexus.WithParallelism(1))
	var got []string
	for _, r := range results {
		got = append(got, r.Output)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, seen()); diff != "" {
		t.Errorf("order the tools ran in (-want +got):\n%s", diff)
	}
}

// TestRunCancelledWithCallTimeout: when Run's context is cancelled while
// every slot runs a call under WithCallTimeout, the running call is
// abandoned with the context's error and the others are not run for it,
// not for held slots.
func TestRunCancelledWithCallTimeout(t *testing.T) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	started := make(chan struct{}, 1)
	tk := runTestToolkit(t,
		runTestTool(t, "stubborn", func(ctx context.Context, _ json.RawMessage) (any, error) {
			started <- struct{}{}
			<-block
			return "too late", nil
		}),
		runTestTool(t, "ok", func(ctx context.Context, _ json.RawMessage) (any, error) { return "ok", nil }),
	)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	calls := []adapters.Call{runTestCall("stubborn", `{}`), runTestCall("ok", `{}`), runTestCall("ok", `{}`)}
	results := tk.Run(ctx, calls, toolnexus.WithParallelism(1), toolnexus.WithCallTimeout(time.Minute))
	if r := results[0]; !errors.Is(r.Err, toolnexus.ErrAbandoned) || !errors.Is(r.Err, context.Canceled) {
		t.Errorf("results[0] = %+v, want an error wrapping ErrAbandoned and context.Canceled", r)
	}
	for i, r := range results[1:] {
		if !r.IsError || !errors.Is(r.Err, context.Canceled) || errors.Is(r.Err, toolnexus.ErrSlotsHeld) || errors.Is(r.Err, toolnexus.ErrAbandoned) {
			t.Errorf("results[%d] = %+v, want a not-run error wrapping context.Canceled", i+1, r)
		}
	}
}

// TestRunGoexitKeepsSlots: workers outlive their batch, and a tool that
// calls runtime.Goexit ends one; later batches, run at once from many
// goroutines, still get every result and keep their bound.
func TestRunGoexitKeepsSlots(t *testing.T) {
	var running, peak atomic.Int32
	tk := runTestToolkit(t,
		runTestTool(t, "exits", func(ctx context.Context, _ json.RawMessage) (any, error) {
			runtime.Goexit()
			return nil, nil
		}),
		runTestTool(t, "count", func(ctx context.Context, _ json.RawMessage) (any, error) {
			defer countRunning(&running, &peak)()
			time.Sleep(time.Millisecond)
			return "ok", nil
		}),
	)
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				calls := []adapters.Call{runTestCall("exits", `{}`), runTestCall("exits", `{}`), runTestCall("exits", `{}`)}
				for range 6 {
					calls = append(calls, runTestCall("count", `{}`))
				}
				results := tk.Run(context.Background(), calls, toolnexus.WithParallelism(3))
				for i, r := range results {
					if i < 3 && !errors.Is(r.Err, toolnexus.ErrToolExited) || i >= 3 && (r.IsError || r.Output != "ok") {
						t.Errorf("goroutine %d: results[%d] = %+v", g, i, r)
					}
				}
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 18 {
		t.Errorf("%d tool bodies at once from 6 batches under WithParallelism(3)", p)
	}
}

// TestRunAbandonedThenGoexit: a call abandoned at its timeout whose tool
// then calls runtime.Goexit frees its slot for the calls after it.
func TestRunAbandonedThenGoexit(t *testing.T) {
	release := make(chan struct{})
	tk := runTestToolkit(t,
		runTestTool(t, "late_exit", func(ctx context.Context, _ json.RawMessage) (any, error) {
			<-release
			runtime.Goexit()
			return nil, nil
		}),
		runTestTool(t, "ok", func(ctx context.Context, _ json.RawMessage) (any, error) {
			return "ok", nil
		}),
	)
	// One slot: the batch stops once late_exit is abandoned; the second
	// batch gets the slot back once late_exit has ended.
	results := tk.Run(context.Background(), []adapters.Call{runTestCall("late_exit", `{}`), runTestCall("ok", `{}`)},
		toolnexus.WithParallelism(1), toolnexus.WithCallTimeout(10*time.Millisecond))
	if !errors.Is(results[0].Err, toolnexus.ErrAbandoned) || !errors.Is(results[1].Err, toolnexus.ErrSlotsHeld) {
		t.Errorf("results = %+v, want abandoned, then not run for a held slot", results)
	}
	close(release)
	results = tk.Run(context.Background(), []adapters.Call{runTestCall("ok", `{}`), runTestCall("ok", `{}`)}, toolnexus.WithParallelism(1))
	for i, r := range results {
		if r.IsError || r.Output != "ok" {
			t.Errorf("after the Goexit: results[%d] = %+v, want ok", i, r)
		}
	}
}

// TestRunFillsEverySlot: workers start one at a time, yet calls that
// block until all of them run get a slot each: every one of n tools runs
// at once under WithParallelism(n).
func TestRunFillsEverySlot(t *testing.T) {
	const n = 6
	var arrived sync.WaitGroup
	arrived.Add(n)
	all := make(chan struct{})
	go func() {
		arrived.Wait()
		close(all)
	}()
	tk := runTestToolkit(t, runTestTool(t, "meet", func(ctx context.Context, _ json.RawMessage) (any, error) {
		arrived.Done()
		select {
		case <-all:
			return "met", nil
		case <-time.After(5 * time.Second):
			return nil, errors.New("the other calls did not run at the same time")
		}
	}))
	calls := make([]adapters.Call, n)
	for i := range calls {
		calls[i] = runTestCall("meet", `{}`)
	}
	for i, r := range tk.Run(context.Background(), calls, toolnexus.WithParallelism(n)) {
		if r.IsError || r.Output != "met" {
			t.Errorf("results[%d] = %+v, want met", i, r)
		}
	}
}

type benchArgs struct {
	N int `json:"n"`
}

func benchTrivial(ctx context.Context, in benchArgs) (string, error) { return "ok", nil }

// BenchmarkRunFloor is what BenchmarkRun/calls=1 is measured against: one
// Tool.ExecuteJSON of the same trivial tool, and the same call handed to
// a parked goroutine and back over channels, the least any Run can cost
// that keeps the caller's goroutine safe from a tool's runtime.Goexit.
func BenchmarkRunFloor(b *testing.B) {
	tool := define.MustDefineTool(benchTrivial, define.WithName("trivial"))
	ctx := context.Background()
	args := []byte(`{"n":1}`)
	b.Run("ExecuteJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if r := tool.ExecuteJSON(ctx, args); r.IsError {
				b.Fatal(r.Output)
			}
		}
	})
	b.Run("handoff", func(b *testing.B) {
		b.ReportAllocs()
		req, resp := make(chan []byte, 1), make(chan define.Result, 1)
		go func() {
			for a := range req {
				resp <- tool.ExecuteJSON(ctx, a)
			}
		}()
		defer close(req)
		for b.Loop() {
			req <- args
			if r := <-resp; r.IsError {
				b.Fatal(r.Output)
			}
		}
	})
}

// TestRunLeavesNoWorkers: the worker goroutines of a batch end with it,
// so that Run leaves no goroutine behind (leak checkers in users' tests see
// none).
func TestRunLeavesNoWorkers(t *testing.T) {
	var arrived sync.WaitGroup
	arrived.Add(4)
	tk := runTestToolkit(t, runTestTool(t, "wait", func(ctx context.Context, _ json.RawMessage) (any, error) {
		arrived.Done()
		arrived.Wait() // four workers at once
		return "ok", nil
	}))
	calls := []adapters.Call{runTestCall("wait", `{}`), runTestCall("wait", `{}`), runTestCall("wait", `{}`), runTestCall("wait", `{}`)}
	tk.Run(context.Background(), calls, toolnexus.WithParallelism(4))
	deadline := time.Now().Add(10 * time.Second)
	for countWorkers() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d worker goroutines still there 10s after Run returned", countWorkers())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// countWorkers counts the goroutines running Run's worker loop.
func countWorkers() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "toolnexus.runWorkers(")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// TestRunGoneWithinLeakCheckWindow: once Run returns, the worker
// goroutines of its batch end within the window go.uber.org/goleak's
// VerifyNone waits by default before it reports a leak (20 retries,
// sleeping 1 µs, 2 µs, 4 µs, ... up to 100 µs each: about 1.4 ms), after
// batches that return, panic and call runtime.Goexit.
func TestRunGoneWithinLeakCheckWindow(t *testing.T) {
	tk := okBoomExitsToolkit(t)
	one := []adapters.Call{runTestCall("ok", `{}`)}
	mixed := []adapters.Call{runTestCall("ok", `{}`), runTestCall("boom", `{}`), runTestCall("exits", `{}`), runTestCall("ok", `{}`), runTestCall("exits", `{}`)}
	for _, tt := range []struct {
		name  string
		calls []adapters.Call
		opts  []toolnexus.RunOption
	}{
		{"one call", one, nil},
		{"mixed, 4 slots", mixed, []toolnexus.RunOption{toolnexus.WithParallelism(4)}},
		{"mixed, one slot", mixed, []toolnexus.RunOption{toolnexus.WithParallelism(1)}},
		{"mixed, call timeout", mixed, []toolnexus.RunOption{toolnexus.WithCallTimeout(time.Minute)}},
	} {
		for range 20 {
			tk.Run(context.Background(), tt.calls, tt.opts...)
			n := countWorkers()
			for i := 0; n > 0 && i < 20; i++ {
				time.Sleep(min(time.Microsecond<<i, 100*time.Microsecond))
				n = countWorkers()
			}
			if n > 0 {
				t.Fatalf("%s: %d worker goroutines still there after goleak's retry window", tt.name, n)
			}
		}
	}
}
