package toolnexus_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/transport"
)

// An Agent runs the whole conversation: here against a scripted Anthropic
// server, which calls get_weather with a unit the tool refuses, reads the
// error, corrects itself, and answers.
func ExampleAgent() {
	replies := []string{
		`{"type":"message","role":"assistant","stop_reason":"tool_use","usage":{"input_tokens":310,"output_tokens":40},
		  "content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo","unit":"K"}}]}`,
		`{"type":"message","role":"assistant","stop_reason":"tool_use","usage":{"input_tokens":390,"output_tokens":38},
		  "content":[{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Oslo","unit":"C"}}]}`,
		`{"type":"message","role":"assistant","stop_reason":"end_turn","usage":{"input_tokens":450,"output_tokens":12},
		  "content":[{"type":"text","text":"It is sunny in Oslo, 21 °C."}]}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, replies[0])
		replies = replies[1:]
	}))
	defer srv.Close()
	weather := define.MustDefineTool(getWeather, define.WithName("get_weather"),
		define.WithDescription("Current weather for a city"))
	tk, err := toolnexus.NewToolkit(weather)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	ep := transport.Anthropic("sk-test").Rebase(srv.URL)

	// README: agent
	// ep is the provider's endpoint: transport.Anthropic(apiKey), or OpenAI, Gemini, Bedrock, Ollama, ...
	agent, err := toolnexus.NewAgent(ep.Provider, tk, "claude-sonnet-4-5",
		toolnexus.WithTransport(ep),
		toolnexus.WithSystem("You answer weather questions."),
		toolnexus.WithRequest(adapters.Request{MaxTokens: 1024}),
		toolnexus.WithMaxSteps(10))
	if err != nil {
		log.Fatal(err)
	}
	run, err := agent.Run(ctx, "What's the weather in Oslo?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(run.Text)
	fmt.Printf("%d steps, %d input and %d output tokens\n", len(run.Steps), run.Usage.Input, run.Usage.Output)
	// README end
	fmt.Println(run.Steps[0].Results[0].Output)

	// Output:
	// It is sunny in Oslo, 21 °C.
	// 3 steps, 1150 input and 90 output tokens
	// invalid arguments: /unit: expected one of "C", "F", got "K"
}
