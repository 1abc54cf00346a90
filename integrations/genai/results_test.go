package tngenai_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tngenai "github.com/toolnexus/toolnexus/integrations/genai"
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

// geminiWant is adapters.GeminiResultsAndMedia's rendering of a batch, as
// the list of contents Results returns.
func geminiWant(t *testing.T, calls []adapters.Call, results []define.Result) []any {
	t.Helper()
	responses, media, err := adapters.GeminiResultsAndMedia(calls, results)
	if err != nil {
		t.Fatal(err)
	}
	if media == nil {
		return []any{responses}
	}
	return []any{responses, media}
}

// TestResults: Results renders a batch as adapters.GeminiResultsAndMedia
// does (a JSON output, an error, an image inline in its function response
// and audio in the user content after), holding the pending call out; its
// resumed result renders with Results again, and the whole batch with it
// in place as adapters renders the whole batch.
func TestResults(t *testing.T) {
	ctx := context.Background()
	tk := sdktest.BatchToolkit(define.ImagePart("", mediatest.PNG()), define.AudioPart("", mediatest.WAV()))
	calls := sdktest.BatchCalls()
	results := tk.Run(ctx, calls)
	next, pending, err := tngenai.Results(calls, results)
	if err != nil {
		t.Fatal(err)
	}
	var dc []adapters.Call
	var dr []define.Result
	for _, i := range []int{0, 2, 3, 4} {
		dc, dr = append(dc, calls[i]), append(dr, results[i])
	}
	want := geminiWant(t, dc, dr)
	if len(want) != 2 {
		t.Fatal("the batch has no media content")
	}
	sameJSON(t, "the batch, pending held out", next, want)
	if len(pending) != 1 || pending[0].ID != "call_2" || pending[0].Index != 1 {
		t.Fatalf("pending = %+v, want call_2 at index 1", pending)
	}

	stored, err := json.Marshal(pending)
	if err != nil {
		t.Fatal(err)
	}
	var loaded []toolnexus.PendingCall
	if err := json.Unmarshal(stored, &loaded); err != nil {
		t.Fatal(err)
	}
	resumed, err := tk.Resume(ctx, loaded, []toolnexus.Decision{toolnexus.Edit(loaded[0], json.RawMessage(`{"order":"B-7","amount":40}`))})
	if err != nil {
		t.Fatal(err)
	}
	rc := []adapters.Call{loaded[0].Call()}
	again, still, err := tngenai.Results(rc, resumed)
	if err != nil || still != nil {
		t.Fatalf("Results of the resumed call: pending %v, err %v", still, err)
	}
	sameJSON(t, "the edited call", again, geminiWant(t, rc, resumed))
	if resumed[0].Output != "refunded 40 on B-7" {
		t.Errorf("the edited call's output %q", resumed[0].Output)
	}

	whole := append([]define.Result(nil), results...)
	whole[pending[0].Index] = resumed[0]
	all, none, err := tngenai.Results(calls, whole)
	if err != nil || none != nil {
		t.Fatalf("the whole batch: pending %v, err %v", none, err)
	}
	sameJSON(t, "the whole batch", all, geminiWant(t, calls, whole))

	if only, p, err := tngenai.Results(calls[1:2], results[1:2]); err != nil || only != nil || len(p) != 1 {
		t.Errorf("a batch of one pending call: next %v, pending %v, err %v", only, p, err)
	}
	if _, _, err := tngenai.Results(calls[:4], results); !errors.Is(err, adapters.ErrResultCount) {
		t.Errorf("4 calls, 5 results: err %v, want ErrResultCount", err)
	}
}
