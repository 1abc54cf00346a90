package toolnexus_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

func TestCheckGivesRunsResult(t *testing.T) {
	type in struct {
		N int    `json:"n" minimum:"1"`
		S string `json:"s"`
	}
	ran := 0
	tool := define.MustDefineTool(func(ctx context.Context, x in) (string, error) {
		ran++
		return "ok", nil
	}, define.WithName("count"), define.WithDescription("counts"))
	observed := 0
	mw := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			ran++
			return next(ctx, c)
		}
	}
	for _, opts := range [][]toolnexus.ToolkitOption{nil, {toolnexus.WithMiddleware(mw), toolnexus.WithObserver(func(context.Context, toolnexus.Event) { observed++ })}} {
		tk, err := toolnexus.NewToolkitWith([]define.Tool{tool}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		bad := []adapters.Call{
			{Name: "count", Args: json.RawMessage(`{"n":0,"s":"x"}`)},
			{Name: "count", Args: json.RawMessage(` {"n": "1", "s": 2} `)},
			{Name: "count", Args: json.RawMessage(`{"n":`)},
			{Name: "count", Input: map[string]any{"n": "one"}},
			{Name: "cuont", Args: json.RawMessage(`{}`)},
		}
		for i, c := range bad {
			ran, observed = 0, 0
			got, ok := tk.Check(c)
			if ok {
				t.Fatalf("call %d: Check passed bad call %s", i, c.Args)
			}
			if ran != 0 || observed != 0 {
				t.Fatalf("call %d: Check ran %d handlers and %d observers", i, ran, observed)
			}
			want := tk.Run(context.Background(), []adapters.Call{c})[0]
			if got.Output != want.Output || got.IsError != want.IsError || got.Err.Error() != want.Err.Error() {
				t.Errorf("call %d: Check gave %q (%v), Run gave %q (%v)", i, got.Output, got.Err, want.Output, want.Err)
			}
			if toolnexus.OutcomeOf(got) != toolnexus.OutcomeOf(want) {
				t.Errorf("call %d: outcome %s, Run's %s", i, toolnexus.OutcomeOf(got), toolnexus.OutcomeOf(want))
			}
		}
		var unknown *toolnexus.UnknownToolError
		if r, _ := tk.Check(bad[4]); !errors.As(r.Err, &unknown) || unknown.Name != "cuont" {
			t.Errorf("unknown tool: Err %v", r.Err)
		}
		ran = 0
		if r, ok := tk.Check(adapters.Call{Name: "count", Args: json.RawMessage(`{"n":2,"s":"x"}`)}); !ok || r.IsError || r.Output != "" {
			t.Errorf("good call: %+v, %v", r, ok)
		}
		if ran != 0 {
			t.Errorf("Check of a good call ran the tool")
		}
	}
}
