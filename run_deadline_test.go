package toolnexus_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

type slowArgs struct {
	Items []any `json:"items" uniqueItems:"true"`
}

// TestRunFirstCallSlowDecode: the first call of a batch whose arguments
// take long to decode (4 MB of small objects in an []any) does not hold
// Run past its context's deadline or the call timeout.
func TestRunFirstCallSlowDecode(t *testing.T) {
	tool, err := define.DefineTool(func(_ context.Context, in slowArgs) (string, error) { return "done", nil },
		define.WithName("slow"))
	if err != nil {
		t.Fatal(err)
	}
	tk := runTestToolkit(t, tool)
	var sb strings.Builder
	sb.WriteString(`{"items":[`)
	for i := 0; sb.Len() < 5<<19; i++ {
		fmt.Fprintf(&sb, `{"n":%d,"s":"x"},`, i)
	}
	sb.WriteString(`{}]}`)
	text := sb.String()
	var input map[string]any
	if err := json.Unmarshal([]byte(text), &input); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		call adapters.Call
	}{
		{"text", adapters.Call{Name: "slow", Args: []byte(text)}},
		{"map", adapters.Call{Name: "slow", Input: input}},
	} {
		start := time.Now()
		var r define.Result
		if c.call.Input != nil {
			r = tk.Execute(context.Background(), "slow", input)
		} else {
			r = tk.ExecuteJSON(context.Background(), "slow", []byte(text))
		}
		decode := time.Since(start)
		if r.IsError {
			t.Fatalf("%s: %.200s", c.name, r.Output)
		}
		if decode < 40*time.Millisecond {
			t.Logf("%s: the call takes only %v here", c.name, decode)
			continue
		}
		bound := 5 * time.Millisecond
		ctx, cancel := context.WithTimeout(context.Background(), bound)
		start = time.Now()
		got := tk.Run(ctx, []adapters.Call{c.call})
		elapsed := time.Since(start)
		cancel()
		if !errors.Is(got[0].Err, context.DeadlineExceeded) {
			t.Errorf("%s, deadline: result %+v, want past its deadline", c.name, got[0])
		}
		if elapsed > decode/2 {
			t.Errorf("%s, deadline: Run returned after %v (deadline %v, the call takes %v)", c.name, elapsed, bound, decode)
		}
		start = time.Now()
		got = tk.Run(context.Background(), []adapters.Call{c.call}, toolnexus.WithCallTimeout(bound))
		elapsed = time.Since(start)
		if !errors.Is(got[0].Err, toolnexus.ErrAbandoned) || !errors.Is(got[0].Err, context.DeadlineExceeded) {
			t.Errorf("%s, call timeout: result %+v, want abandoned", c.name, got[0])
		}
		if elapsed > decode/2 {
			t.Errorf("%s, call timeout: Run returned after %v (timeout %v, the call takes %v)", c.name, elapsed, bound, decode)
		}
		t.Logf("%s: the call takes %v, Run with a call timeout returned after %v", c.name, decode, elapsed)
		time.Sleep(2 * decode) // let the abandoned decode end
	}
}

// TestRunCancelledPendingErrors: the calls a cancelled batch never started
// each get an error naming their tool and wrapping the context's error,
// though they share one allocation.
func TestRunCancelledPendingErrors(t *testing.T) {
	hold := runTestTool(t, "hold", func(ctx context.Context, _ json.RawMessage) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	other := runTestTool(t, "other", func(context.Context, json.RawMessage) (any, error) { return "ran", nil })
	tk := runTestToolkit(t, hold, other)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	calls := []adapters.Call{runTestCall("hold", `{}`), runTestCall("other", `{}`), runTestCall("hold", `{}`), runTestCall("other", `{}`)}
	results := tk.Run(ctx, calls, toolnexus.WithParallelism(1))
	for i, want := range []string{"", "tool other not run: context canceled", "tool hold not run: context canceled", "tool other not run: context canceled"} {
		r := results[i]
		if !r.IsError || !errors.Is(r.Err, context.Canceled) {
			t.Errorf("result %d = %+v, want an error wrapping context.Canceled", i, r)
			continue
		}
		if want != "" && (r.Err.Error() != want || r.Output != "cancelled before the tool ran: context canceled") {
			t.Errorf("result %d: %q / %q", i, r.Err, r.Output)
		}
	}
}
