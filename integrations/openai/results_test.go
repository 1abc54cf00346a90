package tnopenai_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tnopenai "github.com/toolnexus/toolnexus/integrations/openai"
	"github.com/toolnexus/toolnexus/internal/mediatest"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// sameJSON fails t unless got and want marshal to the same JSON value.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	var g, w any
	for _, p := range []struct {
		v   any
		dst *any
	}{{got, &g}, {want, &w}} {
		b, err := json.Marshal(p.v)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := json.Unmarshal(b, p.dst); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("%s (-adapters +SDK):\n%s", what, diff)
	}
}

// batch runs sdktest.BatchCalls: the calls, their results (the second
// pending), and the calls and results that are not pending.
func batch(t *testing.T) (*toolnexus.Toolkit, []adapters.Call, []define.Result, []adapters.Call, []define.Result) {
	t.Helper()
	tk := sdktest.BatchToolkit(define.ImagePart("", mediatest.PNG()), define.FilePart("application/pdf", "report.pdf", mediatest.PDF()))
	calls := sdktest.BatchCalls()
	results := tk.Run(context.Background(), calls)
	if len(toolnexus.PendingCalls(results)) != 1 || !results[2].IsError || results[0].IsError {
		t.Fatalf("the batch's results are not ok, pending, error, ...: %+v", results)
	}
	done := []int{0, 2, 3, 4}
	var c []adapters.Call
	var r []define.Result
	for _, i := range done {
		c, r = append(c, calls[i]), append(r, results[i])
	}
	return tk, calls, results, c, r
}

// resume stores pending as JSON, loads it and approves every call.
func resume(t *testing.T, tk *toolnexus.Toolkit, pending []toolnexus.PendingCall) ([]adapters.Call, []define.Result) {
	t.Helper()
	stored, err := json.Marshal(pending)
	if err != nil {
		t.Fatal(err)
	}
	var loaded []toolnexus.PendingCall
	if err := json.Unmarshal(stored, &loaded); err != nil {
		t.Fatal(err)
	}
	var decisions []toolnexus.Decision
	var calls []adapters.Call
	for _, p := range loaded {
		decisions = append(decisions, toolnexus.Approve(p))
		calls = append(calls, p.Call())
	}
	results, err := tk.Resume(context.Background(), loaded, decisions)
	if err != nil {
		t.Fatal(err)
	}
	return calls, results
}

// TestResults: Results renders a batch as adapters.OpenAIResultsAndMedia
// does (a JSON result, an error, media in the user message after the
// tool messages), holding the pending call out; its resumed result renders
// with Results again, and the whole batch with it in place as adapters
// renders the whole batch.
func TestResults(t *testing.T) {
	tk, calls, results, doneCalls, doneResults := batch(t)
	next, pending, err := tnopenai.Results(calls, results)
	if err != nil {
		t.Fatal(err)
	}
	msgs, media, err := adapters.OpenAIResultsAndMedia(doneCalls, doneResults)
	if err != nil {
		t.Fatal(err)
	}
	if media == nil {
		t.Fatal("the batch has no media message")
	}
	want := []any{}
	for _, m := range msgs {
		want = append(want, m)
	}
	sameJSON(t, "the batch, pending held out", next, append(want, media))
	if len(pending) != 1 || pending[0].ID != "call_2" || pending[0].Index != 1 || pending[0].Tool != "refund" {
		t.Fatalf("pending = %+v, want call_2 (refund) at index 1", pending)
	}

	rc, rr := resume(t, tk, pending)
	if rr[0].IsError || rr[0].Output != "refunded 45 on B-7" {
		t.Fatalf("resumed result %+v", rr[0])
	}
	again, still, err := tnopenai.Results(rc, rr)
	if err != nil || still != nil {
		t.Fatalf("Results of the resumed calls: pending %v, err %v", still, err)
	}
	wantAgain, err := adapters.OpenAIResults(rc, rr)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "the resumed call", again, wantAgain)

	whole := append([]define.Result(nil), results...)
	whole[pending[0].Index] = rr[0]
	all, none, err := tnopenai.Results(calls, whole)
	if err != nil || none != nil {
		t.Fatalf("Results of the whole batch: pending %v, err %v", none, err)
	}
	msgs, media, err = adapters.OpenAIResultsAndMedia(calls, whole)
	if err != nil {
		t.Fatal(err)
	}
	want = want[:0]
	for _, m := range msgs {
		want = append(want, m)
	}
	sameJSON(t, "the whole batch", all, append(want, media))

	// Every call pending: nothing to render.
	onlyPending, p, err := tnopenai.Results(calls[1:2], results[1:2])
	if err != nil || onlyPending != nil || len(p) != 1 {
		t.Errorf("a batch of one pending call: next %v, pending %v, err %v", onlyPending, p, err)
	}
	if _, _, err := tnopenai.Results(calls, results[:2]); !errors.Is(err, adapters.ErrResultCount) {
		t.Errorf("5 calls, 2 results: err %v, want ErrResultCount", err)
	}
}

// TestResponsesResults: ResponsesResults renders as
// adapters.OpenAIResponsesResults does, the pending call held out.
func TestResponsesResults(t *testing.T) {
	tk, calls, results, doneCalls, doneResults := batch(t)
	next, pending, err := tnopenai.ResponsesResults(calls, results)
	if err != nil {
		t.Fatal(err)
	}
	want, err := adapters.OpenAIResponsesResults(doneCalls, doneResults)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "the batch, pending held out", next, want)
	if len(pending) != 1 || pending[0].ID != "call_2" {
		t.Fatalf("pending = %+v, want call_2", pending)
	}
	rc, rr := resume(t, tk, pending)
	again, still, err := tnopenai.ResponsesResults(rc, rr)
	if err != nil || still != nil {
		t.Fatalf("pending %v, err %v", still, err)
	}
	wantAgain, err := adapters.OpenAIResponsesResults(rc, rr)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "the resumed call", again, wantAgain)
}
