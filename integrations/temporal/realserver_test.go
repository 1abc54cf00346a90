package tntemporal_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tntemporal "github.com/toolnexus/toolnexus/integrations/temporal"
)

// quietLogger logs the SDK's warnings and errors only.
func quietLogger() tlog.Logger {
	return tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
}

// workerOptions are those of the tests' workers. The SDK sends an
// activity's heartbeats at most every 0.8 heartbeat timeout by default,
// which leaves a loaded machine 0.4 s of the tests' 2 s to deliver one:
// every 0.5 s leaves 1.5 s.
var workerOptions = worker.Options{
	DeadlockDetectionTimeout:     deadlockTimeout,
	MaxHeartbeatThrottleInterval: 500 * time.Millisecond,
}

// startWorker runs a worker of tools and the turn workflow on queue until
// the test ends.
func startWorker(t testing.TB, c client.Client, queue string, tools *tntemporal.Tools) worker.Worker {
	t.Helper()
	w := worker.New(c, queue, workerOptions)
	w.RegisterWorkflowWithOptions(turnWorkflow(tools), workflow.RegisterOptions{Name: turnWorkflowName})
	tools.Register(w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return w
}

func execTurn(t *testing.T, c client.Client, queue, id string, calls []adapters.Call) client.WorkflowRun {
	t.Helper()
	run, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{ID: id, TaskQueue: queue}, turnWorkflowName, calls)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func turnResults(t *testing.T, run client.WorkflowRun) []define.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var results []define.Result
	if err := run.Get(ctx, &results); err != nil {
		t.Fatal(err)
	}
	return results
}

// historyFile is the history of TestServerTurn's workflow, which
// TestReplay replays; TOOLNEXUS_UPDATE_GOLDEN=1 records it again.
var historyFile = filepath.Join("testdata", "turn-history.json")

// replayCalls are the calls of the recorded turn.
var replayCalls = []adapters.Call{
	call("c0", "add", `{"a":9007199254740993,"b":1}`),
	call("c1", "charge", `{"account":"acme","cents":250}`),
	call("c2", "charge", `{"account":"closed","cents":1}`),
	call("c3", "boom", `{}`),
	call("c4", "charge", `{"account":"blocked","cents":1}`),
	call("c5", "add", `{"a":"one"}`),
	call("c6", "nope", `{}`),
	call("c7", "slow", `{"millis":50}`),
}

// A turn against the real server gives the results Toolkit.Run gives in
// process, kinds included.
func TestServerTurn(t *testing.T) {
	c := dial(t)
	p := newProbe()
	queue := "turn-" + t.Name()
	startWorker(t, c, queue, testTools(testToolkit(p), tntemporal.WithParallelism(3)))
	id := "turn-" + time.Now().Format("150405.000000")
	got := turnResults(t, execTurn(t, c, queue, id, replayCalls))
	want := testToolkit(newProbe()).Run(context.Background(), replayCalls)
	for i := range replayCalls {
		if i == 3 {
			continue // a panic's stack differs
		}
		if d := sameResult(got[i], want[i]); d != "" {
			t.Errorf("call %d: %s", i, d)
		}
	}
	if toolnexus.OutcomeOf(got[3]) != toolnexus.OutcomePanic || got[3].Output != want[3].Output {
		t.Errorf("panic: %q", got[3].Output)
	}
	if n := len(p.outcomes); n != 6 {
		t.Errorf("the worker's observers saw %d calls, want the 6 scheduled", n)
	}
	if os.Getenv("TOOLNEXUS_UPDATE_GOLDEN") == "1" {
		writeHistory(t, c, id, historyFile)
	}
}

func writeHistory(t *testing.T, c client.Client, id, file string) {
	t.Helper()
	var h history.History
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, e)
	}
	b, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(&h)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %s (%d events)", file, len(h.Events))
}

// The recorded history replays with this version's workflow code; a
// change that schedules differently (here: one activity at a time instead
// of three) fails the replay.
func TestReplay(t *testing.T) {
	replay := func(parallelism int, logger tlog.Logger) error {
		r := worker.NewWorkflowReplayer()
		tools := testTools(testToolkit(newProbe()), tntemporal.WithParallelism(parallelism))
		r.RegisterWorkflowWithOptions(turnWorkflow(tools), workflow.RegisterOptions{Name: turnWorkflowName})
		return r.ReplayWorkflowHistoryFromJSONFile(logger, historyFile)
	}
	if err := replay(3, quietLogger()); err != nil {
		t.Fatalf("replay of %s: %v", historyFile, err)
	}
	// The SDK logs the expected failure with its stack: not shown.
	err := replay(1, tlog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	if err == nil || !strings.Contains(err.Error(), "TMPRL1100") { // the SDK's nondeterminism error
		t.Errorf("a workflow that schedules one activity at a time replayed a history of three at once: %v", err)
	}
}

// childWorkerEnv makes the test binary a worker process (TestMain).
const childWorkerEnv = "TNTEMPORAL_CHILD_WORKER"

// runChildWorker is the worker process of TestServerWorkerKilled: it runs
// the tools until it is killed, each run leaving a file in the folder
// TNTEMPORAL_CHILD_DIR.
//
// With TNTEMPORAL_CHILD_APPROVAL set it runs the approval toolkit's tools
// and workflow instead (TestServerApprovalAcrossRestart); with
// TNTEMPORAL_CHILD_DECIDE set it is no worker but another client, which
// sends the decisions of TNTEMPORAL_CHILD_DECISIONS (JSON) to that
// workflow and exits: 0 when they were applied, 4 when refused.
func runChildWorker() int {
	c, err := client.Dial(client.Options{HostPort: os.Getenv("TNTEMPORAL_CHILD_ADDR"), Namespace: testNamespace, Logger: quietLogger()})
	if err != nil {
		return 2
	}
	if id := os.Getenv("TNTEMPORAL_CHILD_DECIDE"); id != "" {
		var ds []toolnexus.Decision
		if err := json.Unmarshal([]byte(os.Getenv("TNTEMPORAL_CHILD_DECISIONS")), &ds); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := tntemporal.Decide(ctx, c, id, "", ds...); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 4
		}
		return 0
	}
	p := newProbe()
	p.dir = os.Getenv("TNTEMPORAL_CHILD_DIR")
	w := worker.New(c, os.Getenv(childWorkerEnv), workerOptions)
	if os.Getenv("TNTEMPORAL_CHILD_APPROVAL") != "" {
		tools := testTools(approvalToolkit(p))
		w.RegisterWorkflowWithOptions(turnWorkflow(tools), workflow.RegisterOptions{Name: approvalWorkflowName})
		tools.Register(w)
	} else {
		tools := testTools(testToolkit(p))
		w.RegisterWorkflowWithOptions(turnWorkflow(tools), workflow.RegisterOptions{Name: turnWorkflowName})
		tools.Register(w)
	}
	if err := w.Run(worker.InterruptCh()); err != nil {
		return 3
	}
	return 0
}

// A worker process killed in the middle of a batch: a second worker
// finishes the run. Every tool that completed ran once; the tool that is
// not idempotent and may have started is not run again, and its result
// says so; the idempotent one is run again.
func TestServerWorkerKilled(t *testing.T) {
	c := dial(t)
	queue := "killed-" + time.Now().Format("150405.000000")
	dir := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), childWorkerEnv+"="+queue, "TNTEMPORAL_CHILD_ADDR="+srv.addr, "TNTEMPORAL_CHILD_DIR="+dir)
	child.Stderr = os.Stderr
	child.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()

	calls := []adapters.Call{
		call("c0", "add", `{"a":1,"b":2}`),
		call("c1", "charge", `{"account":"slow","cents":100}`),
		call("c2", "slow", `{"millis":5000}`),
		call("c3", "add", `{"a":3,"b":4}`),
	}
	long := tntemporal.WithTool("charge", tntemporal.ToolOptions{Activity: workflow.ActivityOptions{StartToCloseTimeout: time.Minute}})
	run := execTurn(t, c, queue, queue, calls)
	// Until the two long calls run and the two short ones are done.
	deadline := time.Now().Add(time.Minute)
	for {
		desc, err := c.DescribeWorkflow(context.Background(), queue, "")
		if err != nil {
			t.Fatal(err)
		}
		d := desc.RawResponse
		started := 0
		for _, a := range d.PendingActivities {
			if a.State == enumspb.PENDING_ACTIVITY_STATE_STARTED {
				started++
			}
		}
		if started == 2 && len(d.PendingActivities) == 2 && runsIn(dir, "add") == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the child worker did not get to the long calls: %d pending", len(d.PendingActivities))
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Long enough for a heartbeat of the tools' progress to be sent
	// (the SDK sends one at most every 0.8 heartbeat timeout).
	time.Sleep(2 * time.Second)
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	killed := time.Now()

	p := newProbe()
	p.dir = dir
	startWorker(t, c, queue, testTools(testToolkit(p), long))
	got := turnResults(t, run)
	t.Logf("the second worker finished the run %s after the kill", time.Since(killed).Round(time.Millisecond))

	if got[0].Output != `{"sum":3}` || got[3].Output != `{"sum":7}` {
		t.Errorf("short calls: %q, %q", got[0].Output, got[3].Output)
	}
	if n := runsIn(dir, "add"); n != 2 {
		t.Errorf("add ran %d times, want 2 (once per call)", n)
	}
	r := got[1]
	if !r.IsError || !errors.Is(r.Err, toolnexus.ErrAbandoned) || !errors.Is(r.Err, context.DeadlineExceeded) ||
		!strings.Contains(r.Output, "may have run") {
		t.Errorf("charge: %q (%v)", r.Output, r.Err)
	}
	if n := runsIn(dir, "charge"); n != 1 {
		t.Errorf("charge ran %d times, want 1", n)
	}
	if got[2].IsError || !strings.HasPrefix(got[2].Output, "slept, after an attempt that got to tick ") || strings.HasSuffix(got[2].Output, " 0") {
		t.Errorf("slow: %q (%v)", got[2].Output, got[2].Err)
	}
	// Once on the killed worker, then on the second one (more than once
	// only if a heartbeat came too late on a loaded machine).
	if n, second := runsIn(dir, "slow"), p.count(p.runs, "slow"); n-second != 1 || second < 1 {
		t.Errorf("slow ran %d times, %d on the second worker; want once on each", n, second)
	} else if second > 1 {
		t.Logf("slow ran %d times on the second worker", second)
	}
}

// A cancelled workflow cancels its running tool's context in the worker.
func TestServerCancel(t *testing.T) {
	c := dial(t)
	p := newProbe()
	queue := "cancel-" + time.Now().Format("150405.000000")
	startWorker(t, c, queue, testTools(testToolkit(p), tntemporal.WithParallelism(1)))
	run := execTurn(t, c, queue, queue, []adapters.Call{call("c0", "slow", `{"millis":60000}`), call("c1", "add", `{"a":1,"b":1}`)})
	deadline := time.Now().Add(time.Minute)
	for p.count(p.runs, "slow") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("slow never started")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := c.CancelWorkflow(context.Background(), queue, ""); err != nil {
		t.Fatal(err)
	}
	got := turnResults(t, run)
	if !errors.Is(got[0].Err, toolnexus.ErrAbandoned) || !errors.Is(got[0].Err, context.Canceled) {
		t.Errorf("running call: %q (%v)", got[0].Output, got[0].Err)
	}
	if toolnexus.OutcomeOf(got[1]) != toolnexus.OutcomeCancelled || p.count(p.runs, "add") != 0 {
		t.Errorf("call not scheduled: %q, add ran %d times", got[1].Output, p.count(p.runs, "add"))
	}
	for p.cancelled.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if p.cancelled.Load() != 1 {
		t.Error("the running tool's context was not cancelled")
	}
}
