package tnopenai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/integrations/openai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// TestRunThroughTheLifecycle: Run goes through the toolkit's middleware,
// observers and approval gate; a call that needs approval does not run,
// and its tool message is the pending placeholder (docs/lifecycle.md).
func TestRunThroughTheLifecycle(t *testing.T) {
	var saw []string
	mw := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			saw = append(saw, c.ID+" "+string(c.Args()))
			r := next(ctx, c)
			r.Output = "[checked] " + r.Output
			return r
		}
	}
	var outcomes []string
	obs := func(ctx context.Context, e toolnexus.Event) {
		outcomes = append(outcomes, e.Call.ID+":"+string(e.Outcome))
	}
	tk, err := toolnexus.NewToolkitWith(sdktest.Toolkit().Tools(),
		toolnexus.WithMiddleware(mw), toolnexus.WithObserver(obs), toolnexus.WithApproval("get_weather"))
	if err != nil {
		t.Fatal(err)
	}
	var c openai.ChatCompletion
	raw := `{"choices":[{"message":{"role":"assistant","tool_calls":[
		{"id":"a","type":"function","function":{"name":"local_time","arguments":"{\"city\":\"Lima\"}"}},
		{"id":"b","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]}}]}`
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		t.Fatal(err)
	}
	next, _, err := tnopenai.Run(context.Background(), tk, &c, toolnexus.WithParallelism(1))
	if err != nil || len(next) != 3 {
		t.Fatalf("Run = %d messages, %v", len(next), err)
	}
	if got := next[1].OfTool.Content.OfString.Value; got != "[checked] 09:00 in Lima" {
		t.Errorf("a: %q", got)
	}
	if got := next[2].OfTool.Content.OfString.Value; !strings.HasPrefix(got, "error: awaiting approval") {
		t.Errorf("b: %q", got)
	}
	if strings.Join(saw, ",") != `a {"city":"Lima"}` {
		t.Errorf("middleware saw %q", saw)
	}
	if strings.Join(outcomes, " ") != "a:ok b:pending" {
		t.Errorf("outcomes %q", outcomes)
	}
}
