package toolnexus_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"log/slog"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// The README's lifecycle example: a middleware, an approval gate and a
// log observer on one toolkit; the pending call resumed with an edit.
func Example_readmeLifecycle() {
	tools := []define.Tool{define.MustDefineTool(refund, define.WithName("refund"))}
	limit := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			if c.Input().(refundArgs).Order == "" {
				return toolnexus.Denied("no order")
			}
			return next(ctx, c)
		}
	}
	large := func(ctx context.Context, c *toolnexus.Call) bool { return c.Input().(refundArgs).Amount > 100 }
	ctx := context.Background()
	calls := []adapters.Call{{ID: "call_1", Name: "refund", Args: json.RawMessage(`{"order":"B-7","amount":450}`)}}
	decide := func(p []toolnexus.PendingCall) []toolnexus.Decision {
		return []toolnexus.Decision{toolnexus.Edit(p[0], json.RawMessage(`{"order":"B-7","amount":45}`))}
	}
	slog.SetDefault(slog.New(slog.DiscardHandler))
	// README: lifecycle
	tk, err := toolnexus.NewToolkitWith(tools,
		toolnexus.WithMiddleware(limit),                                // around each handler, after validation
		toolnexus.WithApprovalIf("refund", large),                      // such calls wait for a decision
		toolnexus.WithObserver(toolnexus.SlogObserver(slog.Default())), // one record per call, any outcome
	)
	if err != nil {
		log.Fatal(err)
	}
	results := tk.Run(ctx, calls)
	pending := toolnexus.PendingCalls(results) // plain data: store it, show it, decide later
	decided, err := tk.Resume(ctx, pending, decide(pending))
	// README end
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(results[0].Output, "|", decided[0].Output)
	// Output: awaiting approval: the tool has not run yet | refunded 45 on B-7
}
