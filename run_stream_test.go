package toolnexus_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// sseChunk is one OpenAI Chat stream event carrying delta.
func sseChunk(delta string, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + "}]}\n\n"
}

// sseCall is a chunk opening tool call index with id and name, and the
// arguments piece args.
func sseCall(index int, id, name, args string) string {
	a, _ := json.Marshal(args)
	return sseChunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":%q,"type":"function","function":{"name":%q,"arguments":%s}}]}`, index, id, name, a), "")
}

// TestRunStreamStartsEarly: the first call runs while the stream is still
// open. The body is a pipe whose writer waits, before the rest of the
// stream, until the first call's tool has started: if RunStream waited for
// the end of the stream, neither would go on.
func TestRunStreamStartsEarly(t *testing.T) {
	started := make(chan string, 4)
	tool := runTestTool(t, "look", func(ctx context.Context, args json.RawMessage) (any, error) {
		started <- string(args)
		return "seen " + string(args), nil
	})
	tk := runTestToolkit(t, tool)
	pr, pw := io.Pipe()
	go func() {
		_, _ = io.WriteString(pw, sseChunk(`{"role":"assistant","content":null}`, ""))
		_, _ = io.WriteString(pw, sseCall(0, "call_a", "look", `{"q":`))
		_, _ = io.WriteString(pw, sseCall(0, "", "", `"first"}`))
		_, _ = io.WriteString(pw, sseCall(1, "call_b", "look", `{"q":"sec`)) // call 0 is complete now
		select {
		case <-started:
		case <-time.After(20 * time.Second):
			pw.CloseWithError(errors.New("the first call did not start before the stream ended"))
			return
		}
		_, _ = io.WriteString(pw, sseCall(1, "", "", `ond"}`))
		_, _ = io.WriteString(pw, sseChunk(`{}`, "tool_calls")+"data: [DONE]\n\n")
		pw.Close()
	}()
	turn, results, err := tk.RunStream(context.Background(), adapters.ForOpenAI(), pr, adapters.StreamHooks{})
	if err != nil {
		t.Fatal(err)
	}
	if len(turn.Calls) != 2 || len(results) != 2 {
		t.Fatalf("got %d calls and %d results, want 2 and 2", len(turn.Calls), len(results))
	}
	for i, want := range []string{`seen {"q":"first"}`, `seen {"q":"second"}`} {
		if results[i].Output != want || results[i].IsError {
			t.Errorf("result %d = %+v, want output %q", i, results[i], want)
		}
	}
	if _, err := adapters.ForOpenAI().Results(turn.Calls, results); err != nil {
		t.Fatalf("the results do not render: %v", err)
	}
}

// streamOf is an OpenAI Chat stream whose calls are given as name/args
// pairs, each with the id call_<i>.
func streamOf(pairs ...string) string {
	var b strings.Builder
	b.WriteString(sseChunk(`{"role":"assistant","content":"Running."}`, ""))
	for i := 0; i < len(pairs); i += 2 {
		b.WriteString(sseCall(i/2, fmt.Sprintf("call_%d", i/2), pairs[i], pairs[i+1]))
	}
	b.WriteString(sseChunk(`{}`, "tool_calls") + "data: [DONE]\n\n")
	return b.String()
}

// TestRunStreamResults: results come in call order, with Run's errors for
// an unknown tool, a panic, a runtime.Goexit and a timeout, and the Text
// hook and the caller's Call hook see the stream.
func TestRunStreamResults(t *testing.T) {
	tk := runTestToolkit(t,
		runTestTool(t, "runTestEcho", runTestEcho),
		runTestTool(t, "boom", func(context.Context, json.RawMessage) (any, error) { panic("kaput") }),
		runTestTool(t, "leave", func(context.Context, json.RawMessage) (any, error) { runtime.Goexit(); return nil, nil }),
		runTestTool(t, "slow", func(ctx context.Context, _ json.RawMessage) (any, error) {
			<-ctx.Done()
			time.Sleep(20 * time.Millisecond)
			return "late", nil
		}),
	)
	body := streamOf("runTestEcho", `{"ms":30}`, "nope", `{}`, "boom", `{}`, "leave", `{}`, "slow", `{}`, "runTestEcho", `{"ms":0}`)
	var text strings.Builder
	var seen []string
	turn, results, err := tk.RunStream(context.Background(), adapters.ForOpenAI(), strings.NewReader(body),
		adapters.StreamHooks{Text: func(d string) { text.WriteString(d) }, Call: func(c adapters.Call) { seen = append(seen, c.Name) }},
		toolnexus.WithParallelism(3), toolnexus.WithCallTimeout(400*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if text.String() != "Running." || turn.Text != "Running." {
		t.Errorf("text hook %q, turn text %q", text.String(), turn.Text)
	}
	if strings.Join(seen, ",") != "runTestEcho,nope,boom,leave,slow,runTestEcho" {
		t.Errorf("Call hook saw %v", seen)
	}
	if len(results) != 6 {
		t.Fatalf("%d results, want 6", len(results))
	}
	if results[0].IsError || results[0].Output != `{"ms":30}` {
		t.Errorf("result 0 = %+v", results[0])
	}
	var unknown *toolnexus.UnknownToolError
	if !errors.As(results[1].Err, &unknown) {
		t.Errorf("result 1 err = %v, want an UnknownToolError", results[1].Err)
	}
	var pe *define.PanicError
	if !errors.As(results[2].Err, &pe) || !results[2].IsError {
		t.Errorf("result 2 = %+v, want a PanicError", results[2])
	}
	if !errors.Is(results[3].Err, toolnexus.ErrToolExited) {
		t.Errorf("result 3 err = %v, want ErrToolExited", results[3].Err)
	}
	if !errors.Is(results[4].Err, toolnexus.ErrAbandoned) || !errors.Is(results[4].Err, context.DeadlineExceeded) {
		t.Errorf("result 4 err = %v, want ErrAbandoned and DeadlineExceeded", results[4].Err)
	}
	if results[5].IsError || results[5].Output != `{"ms":0}` {
		t.Errorf("result 5 = %+v", results[5])
	}
}

// TestRunStreamParallelism: no more tools run at once than the bound.
func TestRunStreamParallelism(t *testing.T) {
	var now, peak atomic.Int32
	tool := runTestTool(t, "work", func(context.Context, json.RawMessage) (any, error) {
		n := now.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
		now.Add(-1)
		return "ok", nil
	})
	tk := runTestToolkit(t, tool)
	var pairs []string
	for range 12 {
		pairs = append(pairs, "work", `{}`)
	}
	_, results, err := tk.RunStream(context.Background(), adapters.ForOpenAI(), strings.NewReader(streamOf(pairs...)), adapters.StreamHooks{}, toolnexus.WithParallelism(2))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range results {
		if r.IsError {
			t.Errorf("result %d: %v", i, r.Err)
		}
	}
	if p := peak.Load(); p > 2 || p < 1 {
		t.Errorf("peak of %d tools at once, want 1 or 2", p)
	}
}

// TestRunStreamBroken: a stream that fails after a call completed returns
// the ReplyError and no turn; the call that ran has its result.
func TestRunStreamBroken(t *testing.T) {
	tk := runTestToolkit(t, runTestTool(t, "look", func(context.Context, json.RawMessage) (any, error) {
		return "ok", nil
	}))
	body := sseCall(0, "call_a", "look", `{}`) + sseCall(1, "call_b", "look", `{"q":`) + // call 0 complete
		"event: error\ndata: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n"
	turn, results, err := tk.RunStream(context.Background(), adapters.ForOpenAI(), strings.NewReader(body), adapters.StreamHooks{})
	if !errors.Is(err, adapters.ErrProviderError) {
		t.Fatalf("err = %v, want ErrProviderError", err)
	}
	if turn.Calls != nil || turn.Text != "" {
		t.Errorf("turn = %+v, want zero", turn)
	}
	if len(results) != 1 {
		t.Fatalf("%d results, want 1 (the call completed before the error)", len(results))
	}
	// The call ran to its end, was abandoned when the stream failed, or
	// had not started yet when it failed (then it never starts, and its
	// error wraps context.Canceled, as in TestRunStreamBrokenWaiting).
	if r := results[0]; !(r.Output == "ok" && !r.IsError) && !errors.Is(r.Err, toolnexus.ErrAbandoned) && !errors.Is(r.Err, context.Canceled) {
		t.Errorf("result 0 = %+v, want ok, abandoned or not started", r)
	}
}

// TestRunStreamCancelled: a done context starts no call.
func TestRunStreamCancelled(t *testing.T) {
	var ran atomic.Int32
	tk := runTestToolkit(t, runTestTool(t, "look", func(context.Context, json.RawMessage) (any, error) {
		ran.Add(1)
		return "ok", nil
	}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, results, err := tk.RunStream(ctx, adapters.ForOpenAI(), strings.NewReader(streamOf("look", `{}`, "look", `{}`)), adapters.StreamHooks{})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 || ran.Load() != 0 {
		t.Fatalf("%d results, %d ran; want 2 and 0", len(results), ran.Load())
	}
	for i, r := range results {
		if !errors.Is(r.Err, context.Canceled) {
			t.Errorf("result %d err = %v, want context.Canceled", i, r.Err)
		}
	}
}

// TestRunStreamNotStreamed: MCP has no streams.
func TestRunStreamNotStreamed(t *testing.T) {
	tk := runTestToolkit(t)
	if _, _, err := tk.RunStream(context.Background(), adapters.ForMCP(), strings.NewReader("{}"), adapters.StreamHooks{}); err == nil {
		t.Fatal("RunStream with MCP succeeded")
	}
}

// TestRunStreamBrokenWaiting: when a stream breaks, a call that was
// waiting for a slot (held by a tool that ignores its context) is not
// started, as Run's calls are not when its context ends: its error wraps
// context.Canceled, never ErrSlotsHeld. (Two schedulers used to race here: the abandoned call could
// fill the slots before the stream's end gave the results.)
func TestRunStreamBrokenWaiting(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	tk := runTestToolkit(t,
		runTestTool(t, "block", func(context.Context, json.RawMessage) (any, error) {
			<-release // ignores its context
			return "late", nil
		}),
		runTestTool(t, "look", func(context.Context, json.RawMessage) (any, error) { return "ok", nil }),
	)
	body := sseCall(0, "call_a", "block", `{}`) + sseCall(1, "call_b", "look", `{}`) + sseCall(2, "call_c", "look", `{"q":`) +
		"event: error\ndata: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n"
	for range 1000 {
		_, results, err := tk.RunStream(context.Background(), adapters.ForOpenAI(), strings.NewReader(body), adapters.StreamHooks{}, toolnexus.WithParallelism(1))
		if !errors.Is(err, adapters.ErrProviderError) {
			t.Fatalf("err = %v, want ErrProviderError", err)
		}
		if len(results) != 2 {
			t.Fatalf("%d results, want 2", len(results))
		}
		// Abandoned, or stopped by define's own check of the context if
		// the worker came to it after the stream broke.
		if r := results[0]; !errors.Is(r.Err, context.Canceled) || toolnexus.OutcomeOf(r) != toolnexus.OutcomeCancelled {
			t.Fatalf("result 0 = %+v, want abandoned or not run, cancelled", r)
		}
		if r := results[1]; !errors.Is(r.Err, context.Canceled) || errors.Is(r.Err, toolnexus.ErrSlotsHeld) || toolnexus.OutcomeOf(r) != toolnexus.OutcomeCancelled {
			t.Fatalf("result 1 = %+v, want not started, cancelled", r)
		}
	}
}

// streamOfCalls is streamOf for calls, with their own ids.
func streamOfCalls(calls []adapters.Call) string {
	var b strings.Builder
	for i, c := range calls {
		b.WriteString(sseCall(i, c.ID, c.Name, string(c.Args)))
	}
	b.WriteString(sseChunk(`{}`, "tool_calls") + "data: [DONE]\n\n")
	return b.String()
}

// TestRunAndRunStreamAgree: the same calls give the same results through
// Run and through RunStream, the two feeds of one scheduler: a tool's
// result, an unknown tool, a panic, a runtime.Goexit, and, with one slot
// held by a tool that outlives its call timeout, an abandoned call and
// the calls then not run.
func TestRunAndRunStreamAgree(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	tk := runTestToolkit(t,
		runTestTool(t, "ok", func(ctx context.Context, args json.RawMessage) (any, error) { return "ok " + string(args), nil }),
		runTestTool(t, "boom", func(ctx context.Context, _ json.RawMessage) (any, error) { panic("kaboom") }),
		runTestTool(t, "exits", func(ctx context.Context, _ json.RawMessage) (any, error) {
			runtime.Goexit()
			return nil, nil
		}),
		runTestTool(t, "block", func(context.Context, json.RawMessage) (any, error) {
			<-release // ignores its context
			return "late", nil
		}),
	)
	mixed := []adapters.Call{
		{ID: "c0", Name: "ok", Args: json.RawMessage(`{"n":0}`)},
		{ID: "c1", Name: "nope", Args: json.RawMessage(`{}`)},
		{ID: "c2", Name: "boom", Args: json.RawMessage(`{}`)},
		{ID: "c3", Name: "exits", Args: json.RawMessage(`{}`)},
		{ID: "c4", Name: "ok", Args: json.RawMessage(`{"n":4}`)},
	}
	held := []adapters.Call{
		{ID: "c0", Name: "block", Args: json.RawMessage(`{}`)},
		{ID: "c1", Name: "ok", Args: json.RawMessage(`{"n":1}`)},
		{ID: "c2", Name: "ok", Args: json.RawMessage(`{"n":2}`)},
	}
	for _, tc := range []struct {
		name  string
		calls []adapters.Call
		opts  []toolnexus.RunOption
	}{
		{"mixed", mixed, nil},
		{"mixed, one slot", mixed, []toolnexus.RunOption{toolnexus.WithParallelism(1)}},
		{"slot held", held, []toolnexus.RunOption{toolnexus.WithParallelism(1), toolnexus.WithCallTimeout(30 * time.Millisecond)}},
	} {
		batch := tk.Run(context.Background(), tc.calls, tc.opts...)
		_, streamed, err := tk.RunStream(context.Background(), adapters.ForOpenAI(), strings.NewReader(streamOfCalls(tc.calls)), adapters.StreamHooks{}, tc.opts...)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(streamed) != len(batch) {
			t.Fatalf("%s: %d results streamed, %d from Run", tc.name, len(streamed), len(batch))
		}
		for i := range batch {
			b, s := batch[i], streamed[i]
			if b.Output != s.Output || b.IsError != s.IsError || errText(b.Err) != errText(s.Err) || toolnexus.OutcomeOf(b) != toolnexus.OutcomeOf(s) {
				t.Errorf("%s: call %d: Run gives %+v, RunStream %+v", tc.name, i, b, s)
			}
		}
		if tc.name == "slot held" {
			want := []toolnexus.Outcome{toolnexus.OutcomeTimeout, toolnexus.OutcomeNotRun, toolnexus.OutcomeNotRun}
			for i, w := range want {
				if got := toolnexus.OutcomeOf(streamed[i]); got != w {
					t.Errorf("slot held: call %d: outcome %s, want %s", i, got, w)
				}
			}
		}
	}
}

// TestRunStreamEarlyStart: under each EarlyStart policy, which calls start
// before the stream has ended, with the stream whole and with it cut (an
// error event) after two calls completed: look is read-only, ticket is
// not. The writer of the stream waits, before its end, for the calls the
// policy starts early, so those must have started; the others must not
// start before the end (the writer leaves them 30 ms), and not at all
// when the stream is cut.
func TestRunStreamEarlyStart(t *testing.T) {
	var (
		mu      sync.Mutex
		ran     []string        // the calls whose tool ran, by id
		early   map[string]bool // whether each started before the stream's end
		ended   atomic.Bool     // the writer is about to end the stream
		started chan string
	)
	handler := func(_ context.Context, args json.RawMessage) (any, error) {
		var in struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(args, &in)
		mu.Lock()
		ran = append(ran, in.ID)
		early[in.ID] = !ended.Load()
		mu.Unlock()
		started <- in.ID
		return "done " + in.ID, nil
	}
	look, err := define.NewTool("look", json.RawMessage(runTestSchema), handler, define.WithAnnotations(define.Annotations{ReadOnly: define.HintTrue}))
	if err != nil {
		t.Fatal(err)
	}
	tk := runTestToolkit(t, look, runTestTool(t, "ticket", handler))
	wait := func(ids ...string) error {
		seen := map[string]bool{}
		for len(seen) < len(ids) {
			select {
			case id := <-started:
				seen[id] = true
			case <-time.After(20 * time.Second):
				return fmt.Errorf("%v did not start before the stream ended", ids)
			}
		}
		for _, id := range ids {
			if !seen[id] {
				return fmt.Errorf("%s did not start, %v did", id, seen)
			}
		}
		return nil
	}
	for _, tc := range []struct {
		name   string
		policy toolnexus.EarlyStart
		early  []string // the calls started before the end
	}{
		{"all", toolnexus.EarlyStartAll, []string{"a", "b"}},
		{"read-only", toolnexus.EarlyStartReadOnly, []string{"a"}},
		{"none", toolnexus.EarlyStartNone, nil},
		{"no such policy", toolnexus.EarlyStart(9), nil}, // as none
	} {
		for _, cut := range []bool{false, true} {
			name := fmt.Sprintf("%s, cut %t", tc.name, cut)
			ran, early, started = nil, map[string]bool{}, make(chan string, 8)
			ended.Store(false)
			pr, pw := io.Pipe()
			go func() {
				_, _ = io.WriteString(pw, sseChunk(`{"role":"assistant","content":null}`, ""))
				_, _ = io.WriteString(pw, sseCall(0, "call_a", "look", `{"id":"a"}`))
				_, _ = io.WriteString(pw, sseCall(1, "call_b", "ticket", `{"id":"b"}`))
				_, _ = io.WriteString(pw, sseCall(2, "call_c", "look", `{"id":`)) // a and b are complete
				if err := wait(tc.early...); err != nil {
					pw.CloseWithError(err)
					return
				}
				time.Sleep(30 * time.Millisecond) // time for a wrong early start
				ended.Store(true)
				if cut {
					_, _ = io.WriteString(pw, "event: error\ndata: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n")
				} else {
					_, _ = io.WriteString(pw, sseCall(2, "", "", `"c"}`))
					_, _ = io.WriteString(pw, sseChunk(`{}`, "tool_calls")+"data: [DONE]\n\n")
				}
				pw.Close()
			}()
			turn, results, err := tk.RunStream(context.Background(), adapters.ForOpenAI(), pr, adapters.StreamHooks{}, toolnexus.WithEarlyStart(tc.policy))
			mu.Lock()
			gotRan, gotEarly := append([]string(nil), ran...), early
			mu.Unlock()
			var startedEarly []string
			for _, id := range gotRan {
				if gotEarly[id] {
					startedEarly = append(startedEarly, id)
				}
			}
			slices.Sort(gotRan)
			slices.Sort(startedEarly)
			if strings.Join(startedEarly, ",") != strings.Join(tc.early, ",") {
				t.Errorf("%s: started before the end: %v, want %v", name, startedEarly, tc.early)
			}
			if !cut {
				if err != nil || len(turn.Calls) != 3 || len(results) != 3 {
					t.Fatalf("%s: %d calls, %d results, %v", name, len(turn.Calls), len(results), err)
				}
				for i, id := range []string{"a", "b", "c"} {
					if r := results[i]; r.IsError || r.Output != "done "+id {
						t.Errorf("%s: result %d = %+v", name, i, r)
					}
				}
				if len(gotRan) != 3 {
					t.Errorf("%s: ran %v, want every call", name, gotRan)
				}
				continue
			}
			if !errors.Is(err, adapters.ErrProviderError) || len(results) != 2 {
				t.Fatalf("%s: %d results, %v; want 2 and the provider's error", name, len(results), err)
			}
			if strings.Join(gotRan, ",") != strings.Join(tc.early, ",") {
				t.Errorf("%s: ran %v, want only %v", name, gotRan, tc.early)
			}
			for i, id := range []string{"a", "b"} {
				r := results[i]
				if slices.Contains(tc.early, id) {
					if !(r.Output == "done "+id && !r.IsError) && !errors.Is(r.Err, toolnexus.ErrAbandoned) {
						t.Errorf("%s: result %d = %+v, want its tool's or abandoned", name, i, r)
					}
				} else if !errors.Is(r.Err, context.Canceled) || toolnexus.OutcomeOf(r) != toolnexus.OutcomeCancelled || !strings.HasPrefix(r.Output, "cancelled before the tool ran") {
					t.Errorf("%s: result %d = %+v, want not started", name, i, r)
				}
			}
		}
	}
}
