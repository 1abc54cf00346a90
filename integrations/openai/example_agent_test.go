package tnopenai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/openai/openai-go/v3"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	tnopenai "github.com/toolnexus/toolnexus/integrations/openai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// The Agent over the SDK's client: the loop of the package example, run by
// toolnexus.Agent, whose requests the client sends.
func ExampleNewAgent() {
	ctx := context.Background()
	m := sdktest.NewModel(chatPath, chatScript...)
	defer m.Close()
	client := newClient(m)
	tk := sdktest.Toolkit()

	// README: sdk-openai-agent
	agent, err := tnopenai.NewAgent(client, tk, "gpt-test", toolnexus.WithMaxSteps(10))
	if err != nil {
		log.Fatal(err)
	}
	run, err := agent.Run(ctx, "Weather and time in Oslo?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(run.Text)
	// README end
	fmt.Println(len(run.Steps), "steps")

	// Output:
	// 12 °C and overcast in Oslo, where it is 09:00.
	// 3 steps
}

// Results renders a turn's results in the SDK's params, and holds out the
// calls that wait for approval: they are stored, decided, resumed, and
// their results rendered with Results too.
func ExampleResults() {
	ctx := context.Background()
	tk := sdktest.BatchToolkit() // refund needs approval
	calls := []adapters.Call{
		{ID: "call_1", Name: "local_time", Args: json.RawMessage(`{"city":"Oslo"}`)},
		{ID: "call_2", Name: "refund", Args: json.RawMessage(`{"order":"B-7","amount":45}`)},
	}
	var history []openai.ChatCompletionMessageParamUnion // the assistant message of calls is already in it

	// README: sdk-openai-results
	next, pending, err := tnopenai.Results(calls, tk.Run(ctx, calls))
	if err != nil {
		log.Fatal(err)
	}
	// Keep next, and store pending (plain JSON), until a person decides; then:
	decided, err := tk.Resume(ctx, pending, []toolnexus.Decision{toolnexus.Approve(pending[0])})
	if err != nil {
		log.Fatal(err)
	}
	resumed := make([]adapters.Call, len(pending))
	for i, p := range pending {
		resumed[i] = p.Call()
	}
	more, _, err := tnopenai.Results(resumed, decided)
	if err != nil {
		log.Fatal(err)
	}
	history = append(history, next...)
	history = append(history, more...) // every call answered: send the next request
	// README end

	for _, msg := range history {
		fmt.Println(msg.OfTool.ToolCallID, msg.OfTool.Content.OfString.Value)
	}

	// Output:
	// call_1 09:00 in Oslo
	// call_2 refunded 45 on B-7
}
