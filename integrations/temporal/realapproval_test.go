package tntemporal_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	tntemporal "github.com/toolnexus/toolnexus/integrations/temporal"
)

// approvalWorkflowName is the name the tests register the turn workflow
// of the approval toolkit under.
const approvalWorkflowName = "toolnexus.test.approval-turn"

// approvalHistoryFile is the history of TestServerApprovalAcrossRestart's
// workflow, which TestReplayApproval replays; TOOLNEXUS_UPDATE_GOLDEN=1
// records it again.
var approvalHistoryFile = filepath.Join("testdata", "approval-history.json")

// childProcess starts the test binary as a child (TestMain) with env.
func childProcess(t *testing.T, env ...string) *exec.Cmd {
	t.Helper()
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(append(os.Environ(), "TNTEMPORAL_CHILD_ADDR="+srv.addr), env...)
	child.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return child
}

// startApprovalWorker starts a worker process of the approval toolkit on
// queue; its tools' runs leave files in dir.
func startApprovalWorker(t *testing.T, queue, dir string) *exec.Cmd {
	t.Helper()
	w := childProcess(t, childWorkerEnv+"="+queue, "TNTEMPORAL_CHILD_DIR="+dir, "TNTEMPORAL_CHILD_APPROVAL=1")
	w.Stderr = os.Stderr
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Process.Kill(); _ = w.Wait() })
	return w
}

// decideFromChild sends decisions from another process; it returns what
// that process wrote when they were refused.
func decideFromChild(t *testing.T, id string, ds ...toolnexus.Decision) (refused string) {
	t.Helper()
	b, err := json.Marshal(ds)
	if err != nil {
		t.Fatal(err)
	}
	cmd := childProcess(t, childWorkerEnv+"=decide", "TNTEMPORAL_CHILD_DECIDE="+id, "TNTEMPORAL_CHILD_DECISIONS="+string(b))
	var out bytes.Buffer
	cmd.Stderr = &out
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &exit) && exit.ExitCode() == 4:
		return out.String()
	}
	t.Fatalf("the deciding process: %v\n%s", err, out.String())
	return ""
}

// waitPending queries the workflow until n calls wait for a decision.
func waitPending(t *testing.T, c client.Client, id string, n int) []toolnexus.PendingCall {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ps, err := tntemporal.Pending(ctx, c, id, "")
		cancel()
		if err == nil && len(ps) == n {
			return ps
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d pending calls, want %d (%v)", len(ps), n, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// A run paused for approval survives a restart of every worker: the
// worker process that ran it stops, a new one replays its history (the
// same pending calls, nonces and digests), decisions sent by another
// process resume it; a second decision about a call, and a bad edit, are
// refused; the results take their places in call order.
func TestServerApprovalAcrossRestart(t *testing.T) {
	c := dial(t)
	queue := "approval-" + time.Now().Format("150405.000000")
	dir := t.TempDir()
	first := startApprovalWorker(t, queue, dir)
	run, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{ID: queue, TaskQueue: queue}, approvalWorkflowName, approvalCalls)
	if err != nil {
		t.Fatal(err)
	}
	before := waitPending(t, c, queue, 3)
	// Until the call that needs no approval has its result (add is
	// idempotent: stopped while it ran, it would run again).
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		desc, err := c.DescribeWorkflow(context.Background(), queue, "")
		if err != nil {
			t.Fatal(err)
		}
		if runsIn(dir, "add") == 1 && len(desc.RawResponse.PendingActivities) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the call that needs no approval did not run")
		}
	}
	// Every worker stops (SIGTERM: the worker's graceful stop, as a
	// deploy does).
	if err := first.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	stopped := time.Now()
	// Nothing serves the workflow now; a new worker process does.
	startApprovalWorker(t, queue, dir)
	after := waitPending(t, c, queue, 3)
	t.Logf("the new worker answered the query %s after the old one stopped", time.Since(stopped).Round(time.Millisecond))
	for k := range before {
		if after[k].Digest != before[k].Digest || after[k].Nonce != before[k].Nonce || !after[k].Issued.Equal(before[k].Issued) {
			t.Errorf("pending call %d after the restart: %+v, before: %+v", k, after[k], before[k])
		}
	}
	p1, p2, p4 := after[0], after[1], after[2]
	if msg := decideFromChild(t, queue, toolnexus.Edit(p2, json.RawMessage(`{"a":-1,"b":"x"}`))); !strings.Contains(msg, "the edited arguments: /b: expected integer") {
		t.Errorf("a bad edit: %q", msg)
	}
	if msg := decideFromChild(t, queue, toolnexus.Approve(p1), toolnexus.Edit(p2, json.RawMessage(`{"a":7,"b":8}`))); msg != "" {
		t.Fatalf("approve and edit refused: %s", msg)
	}
	if msg := decideFromChild(t, queue, toolnexus.Approve(p1)); !strings.Contains(msg, "decided already") {
		t.Errorf("a second decision about a call: %q", msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := tntemporal.Decide(ctx, c, queue, "", toolnexus.Deny(p4, "not bob")); err != nil {
		t.Fatal(err)
	}
	var got []define.Result
	if err := run.Get(ctx, &got); err != nil {
		t.Fatal(err)
	}
	want := []string{`{"sum":3}`, "charged 250 to acme", `{"sum":15}`, "invalid arguments: /account: expected at least 1 character, got \"\"", "denied: not bob"}
	for i, w := range want {
		if got[i].Output != w {
			t.Errorf("result %d: %q, want %q", i, got[i].Output, w)
		}
	}
	if n := runsIn(dir, "charge"); n != 1 {
		t.Errorf("charge ran %d times, want 1", n)
	}
	if n := runsIn(dir, "add"); n != 2 {
		t.Errorf("add ran %d times, want 2 (c0 before the restart, c2 edited after)", n)
	}
	if os.Getenv("TOOLNEXUS_UPDATE_GOLDEN") == "1" {
		writeHistory(t, c, queue, approvalHistoryFile)
	}
}

// The recorded history of an approval run (side effect, local activity,
// version marker, updates) replays with this version's workflow code; a
// toolkit where charge needs no approval fails that replay.
func TestReplayApproval(t *testing.T) {
	replay := func(tk *toolnexus.Toolkit, logger tlog.Logger) error {
		r := worker.NewWorkflowReplayer()
		r.RegisterWorkflowWithOptions(turnWorkflow(testTools(tk)), workflow.RegisterOptions{Name: approvalWorkflowName})
		return r.ReplayWorkflowHistoryFromJSONFile(logger, approvalHistoryFile)
	}
	if err := replay(approvalToolkit(newProbe()), quietLogger()); err != nil {
		t.Fatalf("replay of %s: %v", approvalHistoryFile, err)
	}
	err := replay(testToolkitWith(newProbe(), toolnexus.WithApproval("add")), tlog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	if err == nil {
		t.Error("a workflow whose toolkit gates other tools replayed the approval history")
	}
}

// approvalV0HistoryFile is the history of a turn of the approval toolkit
// recorded with this module before approvals moved into the workflow
// (commit 86b4acf: the gate ran in the worker, each gated call an
// activity whose result was pending). A workflow that started then must
// replay with this version: Run asks workflow.GetVersion before it
// decides approvals in the workflow, and takes the earlier way for it.
var approvalV0HistoryFile = filepath.Join("testdata", "approval-v0-history.json")

func TestReplayApprovalEarlierVersion(t *testing.T) {
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(turnWorkflow(testTools(approvalToolkit(newProbe()))), workflow.RegisterOptions{Name: approvalWorkflowName})
	if err := r.ReplayWorkflowHistoryFromJSONFile(quietLogger(), approvalV0HistoryFile); err != nil {
		t.Fatalf("replay of %s: %v", approvalV0HistoryFile, err)
	}
}
