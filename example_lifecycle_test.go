package toolnexus_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

type refundArgs struct {
	Order  string `json:"order" minLength:"1"`
	Amount int    `json:"amount" minimum:"1"`
}

func refund(ctx context.Context, in refundArgs) (string, error) {
	return fmt.Sprintf("refunded %d on %s", in.Amount, in.Order), nil
}

// Middleware runs around the handler once the arguments are validated: it
// may deny the call, replace its arguments (validated again) or its
// result. The first given is the outermost.
func ExampleWithMiddleware() {
	tool := define.MustDefineTool(refund, define.WithName("refund"))
	limit := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			if c.Input().(refundArgs).Amount > 100 {
				return toolnexus.Denied("refunds over 100 go to a person")
			}
			return next(ctx, c)
		}
	}
	shout := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			r := next(ctx, c)
			r.Output = strings.ToUpper(r.Output)
			return r
		}
	}
	tk, err := toolnexus.NewToolkitWith([]define.Tool{tool}, toolnexus.WithMiddleware(limit, shout))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	fmt.Println(tk.ExecuteJSON(ctx, "refund", []byte(`{"order":"A-1","amount":30}`)).Output)
	fmt.Println(tk.ExecuteJSON(ctx, "refund", []byte(`{"order":"A-1","amount":300}`)).Output)
	fmt.Println(tk.ExecuteJSON(ctx, "refund", []byte(`{"order":"A-1","amount":0}`)).Output)
	// Output:
	// REFUNDED 30 ON A-1
	// denied: refunds over 100 go to a person
	// invalid arguments: /amount: expected integer >= 1, got 0
}

// A tool that needs approval never runs before a decision: Run gives its
// call a pending result, PendingCalls the plain data to show and store,
// and Resume, perhaps in another process, carries out the decisions.
func ExampleToolkit_Resume() {
	tool := define.MustDefineTool(refund, define.WithName("refund"))
	large := func(ctx context.Context, c *toolnexus.Call) bool { return c.Input().(refundArgs).Amount > 100 }
	tk, err := toolnexus.NewToolkitWith([]define.Tool{tool}, toolnexus.WithApprovalIf("refund", large))
	if err != nil {
		panic(err)
	}
	calls := []adapters.Call{
		{ID: "call_1", Name: "refund", Args: json.RawMessage(`{"order":"A-1","amount":30}`)},
		{ID: "call_2", Name: "refund", Args: json.RawMessage(`{"order":"B-7","amount":450}`)},
	}
	results := tk.Run(context.Background(), calls)
	fmt.Println(results[0].Output, "|", results[1].Output)
	stored, _ := json.Marshal(toolnexus.PendingCalls(results))

	// Later, elsewhere: the same tools, a new toolkit.
	var pending []toolnexus.PendingCall
	if err := json.Unmarshal(stored, &pending); err != nil {
		panic(err)
	}
	fmt.Println(pending[0].Index, pending[0].Tool, string(pending[0].Args))
	later, _ := toolnexus.NewToolkitWith([]define.Tool{tool}, toolnexus.WithApprovalIf("refund", large))
	decided, err := later.Resume(context.Background(), pending,
		[]toolnexus.Decision{toolnexus.Edit(pending[0], json.RawMessage(`{"order":"B-7","amount":45}`))})
	if err != nil {
		panic(err)
	}
	results[pending[0].Index] = decided[0]
	msgs, _ := adapters.OpenAIResults(calls, results)
	for _, m := range msgs {
		fmt.Println(m.ToolCallID, m.Content)
	}
	// Output:
	// refunded 30 on A-1 | awaiting approval: the tool has not run yet
	// 1 refund {"order":"B-7","amount":450}
	// call_1 refunded 30 on A-1
	// call_2 refunded 45 on B-7
}

// SlogObserver logs one record per call, whatever its outcome.
func ExampleSlogObserver() {
	// A text handler without the time and the duration, so that the
	// output is the same at every run.
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" {
				return slog.Attr{}
			}
			return a
		},
	}))
	tool := define.MustDefineTool(refund, define.WithName("refund"))
	tk, err := toolnexus.NewToolkitWith([]define.Tool{tool},
		toolnexus.WithObserver(toolnexus.SlogObserver(logger, toolnexus.SlogArgs(200))))
	if err != nil {
		panic(err)
	}
	tk.Run(context.Background(), []adapters.Call{
		{ID: "call_1", Name: "refund", Args: json.RawMessage(`{"order":"A-1","amount":30}`)},
		{ID: "call_2", Name: "refund", Args: json.RawMessage(`{"order":"A-1"}`)},
		{ID: "call_3", Name: "refnd", Args: json.RawMessage(`{}`)},
	})
	// Output:
	// level=INFO msg="tool call" tool=refund call_id=call_1 outcome=ok args="{\"order\":\"A-1\",\"amount\":30}"
	// level=WARN msg="tool call" tool=refund call_id=call_2 outcome=bad_arguments error="invalid arguments: /amount: expected integer (required), got nothing" args="{\"order\":\"A-1\"}"
	// level=WARN msg="tool call" tool=refnd call_id=call_3 outcome=unknown_tool error="unknown tool \"refnd\" (available tools: refund)" args={}
}
