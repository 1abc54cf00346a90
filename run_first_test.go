package toolnexus_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// Run begins a batch's first call on the caller's goroutine: the toolkit
// finds the tool and define decodes the arguments there, and a worker runs
// only the handler. These tests use tools made by DefineTool, the ones
// whose calls split so (NewTool's run whole on the worker).

type firstArgs struct {
	N int `json:"n" minimum:"0"`
}

// exitingText is a field type whose UnmarshalJSON calls runtime.Goexit:
// user code that runs while the arguments decode.
type exitingText string

func (e *exitingText) UnmarshalJSON([]byte) error {
	runtime.Goexit()
	return nil
}

type exitingArgs struct {
	S exitingText `json:"s"`
}

// typedToolkit has DefineTool tools: typed_ok returns n, typed_boom panics,
// typed_exits calls runtime.Goexit in its handler, typed_fails returns an
// error and method_exits calls runtime.Goexit while its arguments decode.
func typedToolkit(t *testing.T) *toolnexus.Toolkit {
	t.Helper()
	mk := func(name string, fn func(context.Context, firstArgs) (string, error)) define.Tool {
		tool, err := define.DefineTool(fn, define.WithName(name))
		if err != nil {
			t.Fatal(err)
		}
		return tool
	}
	exits, err := define.DefineTool(func(context.Context, exitingArgs) (string, error) { return "unreachable", nil }, define.WithName("method_exits"))
	if err != nil {
		t.Fatal(err)
	}
	return runTestToolkit(t,
		mk("typed_ok", func(_ context.Context, in firstArgs) (string, error) { return fmt.Sprint(in.N), nil }),
		mk("typed_boom", func(context.Context, firstArgs) (string, error) { panic("kaboom") }),
		mk("typed_exits", func(context.Context, firstArgs) (string, error) {
			runtime.Goexit()
			return "", nil
		}),
		mk("typed_fails", func(context.Context, firstArgs) (string, error) { return "", errors.New("no flights") }),
		exits,
	)
}

// TestRunFirstCallTyped: a batch whose first call's tool comes from
// DefineTool gives, for every way the call can end, the result that
// Toolkit.ExecuteJSON gives on its own (a Goexit's aside, which ends the
// worker and not the caller), with or without a context that can be done,
// a call timeout, parallelism 1, and other calls after it; parsed input
// (Call.Input) as well as text.
func TestRunFirstCallTyped(t *testing.T) {
	tk := typedToolkit(t)
	cancellable, cancel := context.WithCancel(context.Background())
	defer cancel()
	cases := []struct {
		name, args string
		exits      bool
	}{
		{"typed_ok", `{"n":7}`, false},
		{"typed_ok", `{"n":-1}`, false},     // bad arguments: no worker runs
		{"typed_ok", `{"n":"7"}`, false},    // bad arguments
		{"no_such_tool", `{}`, false},       // unknown tool: no worker runs
		{"typed_boom", `{"n":1}`, false},    // define's recovery
		{"typed_fails", `{"n":1}`, false},   // the handler's error
		{"typed_exits", `{"n":1}`, true},    // Goexit in the handler
		{"method_exits", `{"s":"x"}`, true}, // Goexit while decoding: not split, whole on the worker
	}
	for _, ctx := range []context.Context{context.Background(), cancellable} {
		for _, opts := range [][]toolnexus.RunOption{nil, {toolnexus.WithParallelism(1)}, {toolnexus.WithCallTimeout(time.Minute)}} {
			for _, c := range cases {
				for _, parsed := range []bool{false, true} {
					call := runTestCall(c.name, c.args)
					if parsed {
						call.Input = mustMap(t, c.args)
					}
					var want define.Result
					switch {
					case c.exits: // it would end this goroutine
					case parsed:
						want = tk.Execute(context.Background(), c.name, call.Input)
					default:
						want = tk.ExecuteJSON(context.Background(), c.name, []byte(c.args))
					}
					for _, n := range []int{1, 3} {
						calls := []adapters.Call{call}
						for len(calls) < n {
							calls = append(calls, runTestCall("typed_ok", `{"n":2}`))
						}
						name := fmt.Sprintf("%s %s (parsed %t, ctx can be done %t, %d options, %d calls)", c.name, c.args, parsed, ctx.Done() != nil, len(opts), n)
						got := tk.Run(ctx, calls, opts...)
						if c.exits {
							if !got[0].IsError || !errors.Is(got[0].Err, toolnexus.ErrToolExited) {
								t.Errorf("%s: results[0] = %+v, want an error wrapping ErrToolExited", name, got[0])
							}
						} else if got[0].Output != want.Output || got[0].IsError != want.IsError || errText(got[0].Err) != errText(want.Err) {
							t.Errorf("%s: results[0] = %+v, want %+v as ExecuteJSON gives", name, got[0], want)
						}
						for i := 1; i < n; i++ {
							if got[i].IsError || got[i].Output != "2" {
								t.Errorf("%s: results[%d] = %+v, want 2", name, i, got[i])
							}
						}
					}
				}
			}
		}
	}
}

// TestRunFirstCallAbandoned: a first call whose tool outlives its call
// timeout or Run's context is abandoned as any call is, and the calls
// after it still run.
func TestRunFirstCallAbandoned(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	blocks, err := define.DefineTool(func(ctx context.Context, in firstArgs) (string, error) {
		<-release // ignores its context
		return "late", nil
	}, define.WithName("blocks"))
	if err != nil {
		t.Fatal(err)
	}
	ok, err := define.DefineTool(func(_ context.Context, in firstArgs) (string, error) { return fmt.Sprint(in.N), nil }, define.WithName("typed_ok"))
	if err != nil {
		t.Fatal(err)
	}
	tk := runTestToolkit(t, blocks, ok)
	calls := []adapters.Call{runTestCall("blocks", `{"n":1}`), runTestCall("typed_ok", `{"n":2}`)}
	got := tk.Run(context.Background(), calls, toolnexus.WithCallTimeout(20*time.Millisecond))
	if !got[0].IsError || !errors.Is(got[0].Err, toolnexus.ErrAbandoned) || !errors.Is(got[0].Err, context.DeadlineExceeded) {
		t.Errorf("timeout: results[0] = %+v, want abandoned past its deadline", got[0])
	}
	if got[1].IsError || got[1].Output != "2" {
		t.Errorf("timeout: results[1] = %+v, want 2", got[1])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	got = tk.Run(ctx, calls[:1])
	if !got[0].IsError || !errors.Is(got[0].Err, toolnexus.ErrAbandoned) {
		t.Errorf("context done: results[0] = %+v, want abandoned", got[0])
	}
}

// TestRunFirstCallConcurrent: batches run at once from many goroutines,
// whose first calls all take pooled inputs, each get their own arguments.
func TestRunFirstCallConcurrent(t *testing.T) {
	tk := typedToolkit(t)
	done := make(chan struct{})
	for g := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range 200 {
				n := g*1000 + i
				got := tk.Run(context.Background(), []adapters.Call{runTestCall("typed_ok", fmt.Sprintf(`{"n":%d}`, n))})
				if got[0].IsError || got[0].Output != fmt.Sprint(n) {
					t.Errorf("goroutine %d, batch %d: %+v, want %d", g, i, got[0], n)
					return
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
}

func mustMap(t *testing.T, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("json.Unmarshal(%s): %v", text, err)
	}
	return m
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestRunRecycledBatches: Run reuses a batch once Run and its workers are
// done with it. Batches of 1 to 10 calls run at once from many goroutines,
// mixing results, panics, runtime.Goexit, bad arguments, unknown tools,
// parsed input, parallelism 1 and 3 and contexts cancelled midway; each
// gets exactly its own results (run it with -race).
func TestRunRecycledBatches(t *testing.T) {
	tk := typedToolkit(t)
	done := make(chan struct{})
	for g := range 6 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range 150 {
				n := 1 + (g+i)%10
				calls := make([]adapters.Call, n)
				for j := range calls {
					v := g*100000 + i*100 + j
					switch (g + i + j) % 7 {
					case 0:
						calls[j] = runTestCall("typed_boom", `{"n":1}`)
					case 1:
						calls[j] = runTestCall("typed_exits", `{"n":1}`)
					case 2:
						calls[j] = runTestCall("typed_ok", `{"n":-1}`)
					case 3:
						calls[j] = runTestCall("no_such_tool", `{}`)
					case 4:
						calls[j] = runTestCall("typed_ok", fmt.Sprintf(`{"n":%d}`, v))
						calls[j].Input = map[string]any{"n": float64(v)}
					default:
						calls[j] = runTestCall("typed_ok", fmt.Sprintf(`{"n":%d}`, v))
					}
				}
				ctx, cancel := context.WithCancel(context.Background())
				if i%5 == 4 {
					cancel() // cancelled before Run: no call starts
				}
				opts := []toolnexus.RunOption{toolnexus.WithParallelism(1 + 2*(i%2))}
				got := tk.Run(ctx, calls, opts...)
				cancel()
				if len(got) != n {
					t.Errorf("goroutine %d, batch %d: %d results for %d calls", g, i, len(got), n)
					return
				}
				for j, r := range got {
					v := g*100000 + i*100 + j
					var ok bool
					switch {
					case i%5 == 4:
						ok = r.IsError && errors.Is(r.Err, context.Canceled)
					case (g+i+j)%7 == 0:
						var pe *define.PanicError
						ok = r.IsError && errors.As(r.Err, &pe)
					case (g+i+j)%7 == 1:
						ok = r.IsError && errors.Is(r.Err, toolnexus.ErrToolExited)
					case (g+i+j)%7 == 2:
						ok = r.IsError && errors.Is(r.Err, define.ErrConstraint)
					case (g+i+j)%7 == 3:
						ok = r.IsError && errors.Is(r.Err, toolnexus.ErrUnknownTool)
					default:
						ok = !r.IsError && r.Output == fmt.Sprint(v)
					}
					if !ok {
						t.Errorf("goroutine %d, batch %d, call %d (%s): %+v", g, i, j, calls[j].Name, r)
					}
				}
			}
		}()
	}
	for range 6 {
		<-done
	}
}
