package tngenai_test

import (
	"context"
	"fmt"
	"log"

	tngenai "github.com/toolnexus/toolnexus/integrations/genai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// The Agent over the SDK's client: the loop of the package example, run by
// toolnexus.Agent, whose requests go out through the client's
// GenerateContent; thought signatures go back on their parts.
func ExampleNewAgent() {
	ctx := context.Background()
	m := sdktest.NewModel(modelPath, script...)
	defer m.Close()
	client, err := newClient(ctx, m)
	if err != nil {
		log.Fatal(err)
	}
	tk := sdktest.Toolkit()

	// README: sdk-genai-agent
	agent, err := tngenai.NewAgent(client, tk, "gemini-test")
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
