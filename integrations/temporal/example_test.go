package tntemporal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"time"

	"go.temporal.io/sdk/client"
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

type refundIn struct {
	Order string `json:"order" minLength:"1"`
	Cents int    `json:"cents" minimum:"1"`
}

// A tool that needs approval, run from a workflow: the call waits in the
// workflow, its pending call readable by the query, until a person's
// decision arrives by the update; then it runs as an activity. Here the
// SDK's test environment plays the server and the person.
func ExampleTools_Run_approval() {
	refund := define.MustDefineTool(func(ctx context.Context, in refundIn) (string, error) {
		return fmt.Sprintf("refunded %d on %s", in.Cents, in.Order), nil
	}, define.WithName("refund"), define.WithDescription("refunds an order"))
	// README: temporal-approval
	tk, err := toolnexus.NewToolkitWith([]define.Tool{refund}, toolnexus.WithApproval("refund"))
	if err != nil {
		panic(err)
	}
	tools, err := tntemporal.New(tk)
	if err != nil {
		panic(err)
	}
	// The workflow: Run waits for the decisions about the calls that
	// need approval (the query tntemporal.QueryPending shows them, the
	// update tntemporal.UpdateDecide carries the decisions), runs the
	// others meanwhile, and returns every result in call order.
	turn := func(ctx workflow.Context, calls []adapters.Call) ([]define.Result, error) {
		return tools.Run(ctx, calls), nil
	}
	// README end

	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))))
	env := suite.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: 30 * time.Second})
	tools.Register(env)
	env.RegisterWorkflowWithOptions(turn, workflow.RegisterOptions{Name: "turn"})
	// A person, an hour later (the test environment's clock): reads the
	// pending calls, approves the first, denies the second.
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(tntemporal.QueryPending)
		if err != nil {
			panic(err)
		}
		var pending []toolnexus.PendingCall
		if err := v.Get(&pending); err != nil {
			panic(err)
		}
		for _, p := range pending {
			fmt.Printf("waiting: call %d, %s %s\n", p.Index, p.Tool, p.Args)
		}
		env.UpdateWorkflow(tntemporal.UpdateDecide, "decision-1", &testsuite.TestUpdateCallback{
			OnAccept: func() {}, OnReject: func(err error) { panic(err) }, OnComplete: func(any, error) {},
		}, []toolnexus.Decision{toolnexus.Approve(pending[0]), toolnexus.Deny(pending[1], "refund the first order only")})
	}, time.Hour)
	env.ExecuteWorkflow("turn", []adapters.Call{
		{ID: "call_1", Name: "refund", Args: json.RawMessage(`{"order":"A-1","cents":500}`)},
		{ID: "call_2", Name: "refund", Args: json.RawMessage(`{"order":"A-2","cents":700}`)},
	})
	var results []define.Result
	if err := env.GetWorkflowResult(&results); err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Printf("%s: %s\n", toolnexus.OutcomeOf(r), r.Output)
	}
	// Output:
	// waiting: call 0, refund {"order":"A-1","cents":500}
	// waiting: call 1, refund {"order":"A-2","cents":700}
	// ok: refunded 500 on A-1
	// denied: denied: refund the first order only
}

// decideFromAnotherProcess is what a person's application does against a
// real server: read what waits, send the decisions. (Compiled, not run:
// TestServerApprovalAcrossRestart does it against the tests' server.)
func decideFromAnotherProcess(ctx context.Context, c client.Client, workflowID string) error {
	// README: temporal-decide
	pending, err := tntemporal.Pending(ctx, c, workflowID, "")
	if err != nil {
		return err
	}
	var decisions []toolnexus.Decision
	for _, p := range pending {
		decisions = append(decisions, toolnexus.Approve(p)) // after a person looked at p.Tool and p.Args
	}
	// Applied all, or none: the error says which decision was refused
	// (decided already, made on other arguments, an edit that is not
	// valid, expired).
	return tntemporal.Decide(ctx, c, workflowID, "", decisions...)
	// README end
}

var _ = decideFromAnotherProcess
