package toolnexus_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// TestResultJSONEveryOutcome: a result of every outcome a toolkit gives
// is stored as JSON and read back into an equal result: the same text,
// flag, value and error message, the same OutcomeOf, the sentinels
// errors.Is found before, and the error types errors.As found before.
func TestResultJSONEveryOutcome(t *testing.T) {
	var runs atomic.Int32
	tk := lcToolkit(t, &runs, toolnexus.WithApprovalIf("transfer", largeTransfer),
		toolnexus.WithToolMiddleware("echo", func(next toolnexus.Handler) toolnexus.Handler {
			return func(ctx context.Context, c *toolnexus.Call) define.Result {
				if string(c.Args()) == `{"deny":true}` {
					return toolnexus.Denied("not on weekends")
				}
				return next(ctx, c)
			}
		}))
	calls := []adapters.Call{
		{ID: "ok", Name: "transfer", Args: json.RawMessage(`{"to":"ann","amount":20}`)},
		{ID: "tool_error", Name: "transfer", Args: json.RawMessage(`{"to":"fail","amount":20}`)},
		{ID: "bad_arguments", Name: "transfer", Args: json.RawMessage(`{"to":7,"amount":20}`)},
		{ID: "unknown_tool", Name: "tranfser", Args: json.RawMessage(`{}`)},
		{ID: "panic", Name: "transfer", Args: json.RawMessage(`{"to":"panic","amount":20}`)},
		{ID: "pending", Name: "transfer", Args: json.RawMessage(`{"to":"bob","amount":800}`)},
		{ID: "denied", Name: "echo", Args: json.RawMessage(`{"deny":true}`)},
		{ID: "timeout", Name: "transfer", Args: json.RawMessage(`{"to":"slow","amount":20}`)},
	}
	results := tk.Run(context.Background(), calls, toolnexus.WithCallTimeout(50*time.Millisecond))

	// Cancelled before it ran, and not run because every slot was held.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	results = append(results, tk.Run(ctx, calls[:1])...)
	calls = append(calls, adapters.Call{ID: "cancelled"})
	release := make(chan struct{})
	stubborn := runTestTool(t, "stubborn", func(context.Context, json.RawMessage) (any, error) { <-release; return "late", nil })
	held := runTestToolkit(t, stubborn).Run(context.Background(), []adapters.Call{runTestCall("stubborn", `{}`), runTestCall("stubborn", `{}`)},
		toolnexus.WithParallelism(1), toolnexus.WithCallTimeout(10*time.Millisecond))
	close(release)
	results = append(results, held...)
	calls = append(calls, adapters.Call{ID: "timeout"}, adapters.Call{ID: "not_run"})

	sentinels := []error{toolnexus.ErrDenied, toolnexus.ErrPending, toolnexus.ErrUnknownTool, toolnexus.ErrAbandoned,
		toolnexus.ErrSlotsHeld, context.Canceled, context.DeadlineExceeded, define.ErrType}
	for i, r := range results {
		want := toolnexus.Outcome(calls[i].ID)
		if got := toolnexus.OutcomeOf(r); got != want {
			t.Fatalf("results[%d]: outcome %s, want %s: %+v", i, got, want, r)
		}
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("%s: Marshal: %v", want, err)
		}
		var back define.Result
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: Unmarshal: %v", want, err)
		}
		if back.Output != r.Output || back.IsError != r.IsError || (r.Err == nil) != (back.Err == nil) || r.Err != nil && back.Err.Error() != r.Err.Error() {
			t.Errorf("%s: read back %+v, want %+v", want, back, r)
		}
		if got := toolnexus.OutcomeOf(back); got != want {
			t.Errorf("%s: read back as %s (%s)", want, got, data)
		}
		var stored struct {
			Error struct{ Kind string } `json:"error"`
		}
		_ = json.Unmarshal(data, &stored)
		if r.Err != nil && stored.Error.Kind != string(want) {
			t.Errorf("%s: stored kind %q", want, stored.Error.Kind)
		}
		for _, s := range sentinels {
			if errors.Is(r.Err, s) != errors.Is(back.Err, s) {
				t.Errorf("%s: errors.Is(%v) = %v before, %v after", want, s, errors.Is(r.Err, s), errors.Is(back.Err, s))
			}
		}
		var (
			de1, de2 *toolnexus.DeniedError
			pe1, pe2 *toolnexus.PendingError
			ue1, ue2 *toolnexus.UnknownToolError
			ae1, ae2 *define.ArgErrors
			pa1, pa2 *define.PanicError
		)
		for _, as := range [][2]bool{
			{errors.As(r.Err, &de1), errors.As(back.Err, &de2)},
			{errors.As(r.Err, &pe1), errors.As(back.Err, &pe2)},
			{errors.As(r.Err, &ue1), errors.As(back.Err, &ue2)},
			{errors.As(r.Err, &ae1), errors.As(back.Err, &ae2)},
			{errors.As(r.Err, &pa1), errors.As(back.Err, &pa2)},
		} {
			if as[0] != as[1] {
				t.Errorf("%s: errors.As of the error's type: %v before, %v after", want, as[0], as[1])
			}
		}
		if de2 != nil && de2.Reason != "not on weekends" || ue2 != nil && (ue2.Name != "tranfser" || len(ue2.Closest) == 0) {
			t.Errorf("%s: fields lost: %+v %+v", want, de2, ue2)
		}
	}

	// A pending result read back from JSON is resumed by another toolkit.
	data, _ := json.Marshal(results[5])
	var back define.Result
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	pending := toolnexus.PendingCalls([]define.Result{back})
	if len(pending) != 1 || pending[0].ID != "pending" {
		t.Fatalf("PendingCalls of the read-back result = %+v", pending)
	}
	resumed, err := lcToolkit(t, &runs, toolnexus.WithApprovalIf("transfer", largeTransfer)).Resume(context.Background(), pending, []toolnexus.Decision{toolnexus.Approve(pending[0])})
	if err != nil || resumed[0].Output != "sent bob 800" {
		t.Errorf("resumed: %+v, %v", resumed, err)
	}
}
