package tnanthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tnanthropic "github.com/toolnexus/toolnexus/integrations/anthropic"
	"github.com/toolnexus/toolnexus/internal/mediatest"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// sameJSON fails t unless got and want marshal to the same JSON value,
// but for a tool_result's text content: the SDK's type holds it as the one
// text block ([{"type":"text","text":...}]) that adapters writes as the
// string, which the API reads the same.
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
	textBlocks(w)
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("%s (-adapters +SDK):\n%s", what, diff)
	}
}

// TestResults: Results renders a batch as adapters.AnthropicResults does
// (a JSON result, an error with is_error, an image and a PDF as blocks of
// the tool_result), holding the pending call out; its resumed result
// renders with Results again, and the whole batch with it in place as
// adapters renders the whole batch.
func TestResults(t *testing.T) {
	ctx := context.Background()
	tk := sdktest.BatchToolkit(define.ImagePart("", mediatest.PNG()), define.FilePart("application/pdf", "report.pdf", mediatest.PDF()))
	calls := sdktest.BatchCalls()
	results := tk.Run(ctx, calls)
	next, pending, err := tnanthropic.Results(calls, results)
	if err != nil {
		t.Fatal(err)
	}
	done := []int{0, 2, 3, 4}
	var dc []adapters.Call
	var dr []define.Result
	for _, i := range done {
		dc, dr = append(dc, calls[i]), append(dr, results[i])
	}
	want, err := adapters.AnthropicResults(dc, dr)
	if err != nil {
		t.Fatal(err)
	}
	if len(next) != 1 {
		t.Fatalf("%d messages, want 1", len(next))
	}
	sameJSON(t, "the batch, pending held out", next[0], want)
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
	resumed, err := tk.Resume(ctx, loaded, []toolnexus.Decision{toolnexus.Deny(loaded[0], "not this customer")})
	if err != nil {
		t.Fatal(err)
	}
	again, still, err := tnanthropic.Results([]adapters.Call{loaded[0].Call()}, resumed)
	if err != nil || still != nil || len(again) != 1 {
		t.Fatalf("Results of the resumed call: %d messages, pending %v, err %v", len(again), still, err)
	}
	wantAgain, err := adapters.AnthropicResults([]adapters.Call{loaded[0].Call()}, resumed)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "the denied call", again[0], wantAgain)
	if !wantAgain.Content[0].IsError {
		t.Error("a denied call's tool_result is not an error")
	}

	whole := append([]define.Result(nil), results...)
	whole[pending[0].Index] = resumed[0]
	all, none, err := tnanthropic.Results(calls, whole)
	if err != nil || none != nil {
		t.Fatalf("the whole batch: pending %v, err %v", none, err)
	}
	wantAll, err := adapters.AnthropicResults(calls, whole)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "the whole batch", all[0], wantAll)

	if only, p, err := tnanthropic.Results(calls[1:2], results[1:2]); err != nil || only != nil || len(p) != 1 {
		t.Errorf("a batch of one pending call: next %v, pending %v, err %v", only, p, err)
	}
	if _, _, err := tnanthropic.Results(calls[:1], results); !errors.Is(err, adapters.ErrResultCount) {
		t.Errorf("1 call, 5 results: err %v, want ErrResultCount", err)
	}
}

// textBlocks rewrites in v, a decoded user message of tool_result blocks,
// each string content as the one text block.
func textBlocks(v any) {
	msg, _ := v.(map[string]any)
	blocks, _ := msg["content"].([]any)
	for _, b := range blocks {
		if r, ok := b.(map[string]any); ok {
			if s, ok := r["content"].(string); ok {
				r["content"] = []any{map[string]any{"type": "text", "text": s}}
			}
		}
	}
}
