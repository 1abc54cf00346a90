package tntemporal_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tntemporal "github.com/toolnexus/toolnexus/integrations/temporal"
)

// env returns a test environment with tools registered, and a counter of
// the activities it started.
func env(t *testing.T, tools *tntemporal.Tools) (*testsuite.TestWorkflowEnvironment, *[]string) {
	t.Helper()
	e := newEnv()
	e.RegisterWorkflowWithOptions(turnWorkflow(tools), workflow.RegisterOptions{Name: turnWorkflowName})
	tools.Register(e)
	var started []string
	e.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		started = append(started, info.ActivityType.Name)
	})
	return e, &started
}

// deadlockTimeout is how long a workflow task may run before the SDK
// takes it for a deadlock: its default, one second, is too short on a
// loaded shared machine.
const deadlockTimeout = 30 * time.Second

// newEnv returns a test environment that logs warnings and errors only.
func newEnv() *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	s.SetLogger(tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	e := s.NewTestWorkflowEnvironment()
	e.SetTestTimeout(time.Minute)
	e.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: deadlockTimeout})
	return e
}

func runTurn(t *testing.T, e *testsuite.TestWorkflowEnvironment, calls []adapters.Call) []define.Result {
	t.Helper()
	e.ExecuteWorkflow(turnWorkflowName, calls)
	if !e.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	if err := e.GetWorkflowError(); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	var results []define.Result
	if err := e.GetWorkflowResult(&results); err != nil {
		t.Fatal(err)
	}
	return results
}

// sameResult reports how got, read back from a workflow, differs from
// want, a result of Toolkit.Run in process: as JSON, and by kind.
func sameResult(got, want define.Result) string {
	g, err1 := json.Marshal(got)
	w, err2 := json.Marshal(want)
	if err1 != nil || err2 != nil {
		return "marshal: " + errors.Join(err1, err2).Error()
	}
	if string(g) != string(w) {
		return "got  " + string(g) + "\nwant " + string(w)
	}
	if toolnexus.OutcomeOf(got) != toolnexus.OutcomeOf(want) {
		return "outcome " + string(toolnexus.OutcomeOf(got)) + ", want " + string(toolnexus.OutcomeOf(want))
	}
	return ""
}

// A turn run as activities gives the results Toolkit.Run gives in
// process, in call order, with their error kinds, and runs the worker's
// middleware and observers once per scheduled call.
func TestRunMatchesToolkitRun(t *testing.T) {
	calls := []adapters.Call{
		call("c0", "add", `{"a":9007199254740993,"b":1}`), // beyond float64: kept exact
		call("c1", "charge", `{"account":"acme","cents":250}`),
		call("c2", "charge", `{"account":"closed","cents":1}`),
		call("c3", "boom", `{}`),
		call("c4", "charge", `{"account":"blocked","cents":1}`),
		call("c5", "add", `{"a":1}`),
		call("c6", "add", `{"a":"one","b":2,"c":3}`),
		call("c7", "ad", `{}`),
		call("c8", "slow", `{"millis":30}`),
	}
	local := newProbe()
	want := testToolkit(local).Run(context.Background(), calls)

	p := newProbe()
	e, started := env(t, testTools(testToolkit(p)))
	got := runTurn(t, e, calls)
	if len(got) != len(calls) {
		t.Fatalf("%d results for %d calls", len(got), len(calls))
	}
	for i := range calls {
		if d := sameResult(got[i], want[i]); d != "" && calls[i].Name != "boom" {
			t.Errorf("call %d (%s): %s", i, calls[i].Name, d)
		}
	}
	// A panic's stack differs from one run to another: compare the rest.
	if got[3].Output != want[3].Output || toolnexus.OutcomeOf(got[3]) != toolnexus.OutcomePanic {
		t.Errorf("panic: %q (%s), want %q", got[3].Output, toolnexus.OutcomeOf(got[3]), want[3].Output)
	}
	var pe *define.PanicError
	if !errors.As(got[3].Err, &pe) || pe.Tool != "boom" {
		t.Errorf("panic: Err %v is no *define.PanicError of boom", got[3].Err)
	}
	if got[0].Output != `{"sum":9007199254740994}` {
		t.Errorf("large integer: %s", got[0].Output)
	}
	if !errors.Is(got[4].Err, toolnexus.ErrDenied) {
		t.Errorf("denied: Err %v", got[4].Err)
	}
	var argErrs *define.ArgErrors
	if !errors.As(got[6].Err, &argErrs) || len(argErrs.Errs) < 2 {
		t.Errorf("bad arguments: Err %v", got[6].Err)
	} else if argErrs.Errs[0].Path != "/a" {
		t.Errorf("bad arguments: first path %q", argErrs.Errs[0].Path)
	}
	if !errors.Is(got[7].Err, toolnexus.ErrUnknownTool) {
		t.Errorf("unknown tool: Err %v", got[7].Err)
	}
	// Calls 5, 6, 7 were rejected in the workflow: no activity.
	wantStarted := []string{"toolnexus.tool.add", "toolnexus.tool.boom", "toolnexus.tool.charge", "toolnexus.tool.charge", "toolnexus.tool.charge", "toolnexus.tool.slow"}
	slices.Sort(*started) // they run at once
	if strings.Join(*started, " ") != strings.Join(wantStarted, " ") {
		t.Errorf("activities started: %v\nwant %v", *started, wantStarted)
	}
	if n := p.count(p.mw, "charge"); n != 3 {
		t.Errorf("middleware ran %d times for charge, want 3", n)
	}
	if n := p.count(p.mw, "add"); n != 1 {
		t.Errorf("middleware ran %d times for add, want 1 (bad calls never reach the worker)", n)
	}
	if len(p.outcomes) != 6 {
		t.Errorf("observers saw %d calls (%v), want the 6 scheduled", len(p.outcomes), p.outcomes)
	}
}

// Arguments that arrived parsed (Input) are sent as JSON, numbers exact.
func TestRunInput(t *testing.T) {
	p := newProbe()
	tools := testTools(testToolkit(p))
	e := newEnv()
	tools.Register(e)
	e.ExecuteWorkflow(func(ctx workflow.Context) ([]define.Result, error) {
		return tools.Run(ctx, []adapters.Call{
			{Name: "add", Input: map[string]any{"a": json.Number("9007199254740993"), "b": json.Number("2")}},
			{Name: "add", Input: map[string]any{"a": "x", "b": 1.0}},
		}), nil
	})
	var got []define.Result
	if err := e.GetWorkflowResult(&got); err != nil {
		t.Fatal(err)
	}
	if got[0].Output != `{"sum":9007199254740995}` {
		t.Errorf("Input: %q", got[0].Output)
	}
	if toolnexus.OutcomeOf(got[1]) != toolnexus.OutcomeBadArguments {
		t.Errorf("bad Input: %q", got[1].Output)
	}
	if n := p.count(p.runs, "add"); n != 1 {
		t.Errorf("add ran %d times, want 1", n)
	}
}

// At most WithParallelism activities run at once, and the results stay in
// call order.
func TestRunParallelism(t *testing.T) {
	for _, n := range []int{1, 3} {
		p := newProbe()
		e, _ := env(t, testTools(testToolkit(p), tntemporal.WithParallelism(n)))
		var calls []adapters.Call
		for i := range 8 {
			calls = append(calls, call("", "add", `{"a":`+string(rune('0'+i))+`,"b":100}`))
		}
		got := runTurn(t, e, calls)
		for i, r := range got {
			if want := `{"sum":` + string(rune('0'+i)) + `}`; r.Output != strings.Replace(want, "sum\":", "sum\":10", 1) {
				t.Errorf("parallelism %d: result %d: %q", n, i, r.Output)
			}
		}
		if m := p.maxInFly.Load(); m > int32(n) || (n > 1 && m < 2) {
			t.Errorf("parallelism %d: %d ran at once", n, m)
		}
	}
}

// A tool that is not idempotent runs at most once; one that is, is tried
// again after an attempt lost without a result, and reads the progress
// the lost attempt heartbeat.
func TestRetryOnlyIdempotent(t *testing.T) {
	tk := testToolkit(newProbe())
	tools := testTools(tk)
	o, _ := tools.ActivityOptions("charge")
	if o.RetryPolicy.MaximumAttempts != 1 || tools.Idempotent("charge") {
		t.Errorf("charge: %+v", o.RetryPolicy)
	}
	if o.StartToCloseTimeout != 3*time.Second || o.HeartbeatTimeout != 2*time.Second {
		t.Errorf("charge: timeouts %v %v", o.StartToCloseTimeout, o.HeartbeatTimeout)
	}
	o, _ = tools.ActivityOptions("add")
	if o.RetryPolicy.MaximumAttempts != tntemporal.DefaultMaximumAttempts || !tools.Idempotent("add") {
		t.Errorf("add: %+v", o.RetryPolicy)
	}
	o, _ = tools.ActivityOptions("boom") // no annotations: not idempotent
	if o.RetryPolicy.MaximumAttempts != 1 {
		t.Errorf("boom: %+v", o.RetryPolicy)
	}
	// An option wins over the annotations, and asks for attempts in vain
	// when the tool is not idempotent.
	forced := testTools(tk,
		tntemporal.WithTool("add", tntemporal.ToolOptions{Idempotent: define.HintFalse,
			Activity: workflow.ActivityOptions{RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 9}}}),
		tntemporal.WithTool("boom", tntemporal.ToolOptions{Idempotent: define.HintTrue,
			Activity: workflow.ActivityOptions{RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 9}}}))
	if o, _ := forced.ActivityOptions("add"); o.RetryPolicy.MaximumAttempts != 1 {
		t.Errorf("forced add: %+v", o.RetryPolicy)
	}
	if o, _ := forced.ActivityOptions("boom"); o.RetryPolicy.MaximumAttempts != 9 {
		t.Errorf("forced boom: %+v", o.RetryPolicy)
	}
	if _, err := tntemporal.New(tk, tntemporal.WithTool("nope", tntemporal.ToolOptions{})); err == nil {
		t.Error("New accepted WithTool of an unknown tool")
	}
}

// A call of a tool that is not idempotent past its timeout: not run
// again, and its result says it may have run.
func TestNotIdempotentTimeout(t *testing.T) {
	p := newProbe()
	e, started := env(t, testTools(testToolkit(p)))
	got := runTurn(t, e, []adapters.Call{call("c0", "charge", `{"account":"hang","cents":5}`)})
	r := got[0]
	if !r.IsError || !errors.Is(r.Err, toolnexus.ErrAbandoned) || !errors.Is(r.Err, context.DeadlineExceeded) {
		t.Fatalf("result %q, Err %v", r.Output, r.Err)
	}
	if toolnexus.OutcomeOf(r) != toolnexus.OutcomeTimeout {
		t.Errorf("outcome %s", toolnexus.OutcomeOf(r))
	}
	if len(*started) != 1 || p.count(p.runs, "charge") != 1 {
		t.Errorf("charge started %d times, ran %d", len(*started), p.count(p.runs, "charge"))
	}
}

// A cancelled workflow cancels its running tools' contexts; calls not yet
// scheduled are not.
func TestCancelCancelsTools(t *testing.T) {
	p := newProbe()
	tools := testTools(testToolkit(p), tntemporal.WithParallelism(1))
	e := newEnv()
	tools.Register(e)
	e.RegisterDelayedCallback(func() { e.CancelWorkflow() }, time.Second)
	e.ExecuteWorkflow(func(ctx workflow.Context) ([]define.Result, error) {
		return tools.Run(ctx, []adapters.Call{
			call("c0", "slow", `{"millis":60000}`),
			call("c1", "add", `{"a":1,"b":2}`),
		}), nil
	})
	var got []define.Result
	if err := e.GetWorkflowResult(&got); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(got[0].Err, toolnexus.ErrAbandoned) || !errors.Is(got[0].Err, context.Canceled) {
		t.Errorf("running call: %q (%v)", got[0].Output, got[0].Err)
	}
	if toolnexus.OutcomeOf(got[1]) != toolnexus.OutcomeCancelled || p.count(p.runs, "add") != 0 {
		t.Errorf("call not scheduled: %q (%v), add ran %d", got[1].Output, got[1].Err, p.count(p.runs, "add"))
	}
	deadline := time.Now().Add(10 * time.Second)
	for p.cancelled.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if p.cancelled.Load() != 1 {
		t.Error("the running tool's context was not cancelled")
	}
}

// Heartbeat and HeartbeatDetails do nothing outside an activity: a tool
// that calls them runs under Toolkit.Run in process.
func TestHeartbeatOutsideActivity(t *testing.T) {
	p := newProbe()
	res := testToolkit(p).Run(context.Background(), []adapters.Call{call("", "slow", `{"millis":40}`), call("", "flaky", `{}`)})
	if res[0].Output != "slept" || res[1].Output != "attempt 1, earlier progress false 0" {
		t.Errorf("in process: %q, %q", res[0].Output, res[1].Output)
	}
}

// The activity of a tool refuses another tool's call.
func TestActivityRefusesOtherTool(t *testing.T) {
	tools := testTools(testToolkit(newProbe()))
	e := newEnv()
	tools.Register(e)
	e.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		return workflow.ExecuteActivity(ctx, tools.ActivityName("add"), call("", "charge", `{"account":"a","cents":1}`)).Get(ctx, nil)
	})
	err := e.GetWorkflowError()
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || !appErr.NonRetryable() || !strings.Contains(appErr.Error(), `"charge"`) {
		t.Errorf("err %v", err)
	}
}

// A result too large for the history is replaced in the worker by an
// error result that gives its size.
func TestResultTooLarge(t *testing.T) {
	p := newProbe()
	e, _ := env(t, testTools(testToolkit(p), tntemporal.WithMaxResultBytes(1000)))
	got := runTurn(t, e, []adapters.Call{call("", "big", `{"bytes":900}`), call("", "big", `{"bytes":3000}`)})
	if got[0].IsError || len(got[0].Output) != 900 {
		t.Errorf("small result: %d bytes, %v", len(got[0].Output), got[0].Err)
	}
	if !got[1].IsError || !strings.Contains(got[1].Output, "the tool ran, but its result could not be stored: 3013 bytes as JSON") {
		t.Errorf("large result: %q", got[1].Output)
	}
	if p.count(p.runs, "big") != 2 {
		t.Errorf("big ran %d times", p.count(p.runs, "big"))
	}
}
