package tnanthropic_test

import (
	"context"
	"fmt"
	"log"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	tnanthropic "github.com/toolnexus/toolnexus/integrations/anthropic"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// The Agent over the SDK's client: the loop of the package example, run by
// toolnexus.Agent, whose requests the client sends; thinking blocks go
// back with their signatures.
func ExampleNewAgent() {
	ctx := context.Background()
	m := sdktest.NewModel(modelPath, script...)
	defer m.Close()
	client := newClient(m)
	tk := sdktest.Toolkit()

	// README: sdk-anthropic-agent
	agent, err := tnanthropic.NewAgent(client, tk, "claude-test",
		toolnexus.WithRequest(adapters.Request{MaxTokens: 1024})) // the Messages API requires max_tokens
	if err != nil {
		log.Fatal(err)
	}
	run, err := agent.Run(ctx, "Weather and time in Oslo?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(run.Text)
	// README end
	fmt.Println(len(run.Steps), "steps,", run.Usage.Input, "input tokens")

	// Output:
	// 12 °C and overcast in Oslo, where it is 09:00.
	// 3 steps, 30 input tokens
}
