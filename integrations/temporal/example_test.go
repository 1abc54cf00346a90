package tntemporal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"time"

	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tntemporal "github.com/toolnexus/toolnexus/integrations/temporal"
)

type weatherIn struct {
	City string `json:"city" minLength:"1"`
}

// The tools of a toolkit as activities: the worker registers them, a
// workflow runs a turn's calls through them. Here the SDK's test
// environment plays the server; against a real one, Register takes a
// worker.Worker and the workflow is started with a client.
func Example() {
	weather := define.MustDefineTool(func(ctx context.Context, in weatherIn) (string, error) {
		return "sunny in " + in.City, nil
	}, define.WithName("get_weather"), define.WithDescription("current weather of a city"),
		define.WithAnnotations(define.Annotations{ReadOnly: define.HintTrue}))
	tk, err := toolnexus.NewToolkit(weather)
	if err != nil {
		panic(err)
	}
	// README: temporal-turn
	tools, err := tntemporal.New(tk, tntemporal.WithActivityOptions(workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		HeartbeatTimeout:    10 * time.Second,
	}))
	if err != nil {
		panic(err)
	}
	turn := func(ctx workflow.Context, calls []adapters.Call) ([]define.Result, error) {
		return tools.Run(ctx, calls), nil // one result per call, in call order
	}
	// README end

	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))))
	env := suite.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: 30 * time.Second}) // a loaded test machine
	tools.Register(env)                                                              // a worker.Worker in production
	env.RegisterWorkflowWithOptions(turn, workflow.RegisterOptions{Name: "turn"})
	env.ExecuteWorkflow("turn", []adapters.Call{
		{ID: "call_1", Name: "get_weather", Args: json.RawMessage(`{"city":"Paris"}`)},
		{ID: "call_2", Name: "get_weather", Args: json.RawMessage(`{"city":""}`)}, // rejected in the workflow
	})
	var results []define.Result
	if err := env.GetWorkflowResult(&results); err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Printf("%s: %s\n", toolnexus.OutcomeOf(r), r.Output)
	}
	fmt.Println(tools.ActivityName("get_weather"))
	// Output:
	// ok: sunny in Paris
	// bad_arguments: invalid arguments: /city: expected at least 1 character, got ""
	// toolnexus.tool.get_weather
}
