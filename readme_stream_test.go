package toolnexus_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// The README's streaming example over a streamed OpenAI Chat reply: the
// text as it arrives, the call run once its arguments are whole, and its
// result rendered for the next request.
func Example_readmeStream() {
	body := strings.NewReader(`data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Checking "}}]}

data: {"choices":[{"index":0,"delta":{"content":"Oslo.","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":"}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Oslo\"}"}}]},"finish_reason":"tool_calls"}]}

data: [DONE]

`)
	weather := define.MustDefineTool(func(_ context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		return "sunny in " + in.City, nil
	}, define.WithName("get_weather"))
	tk, err := toolnexus.NewToolkit(weather)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	p := adapters.ForOpenAI()
	run := func() ([]any, error) {
		// README: stream
		turn, results, err := tk.RunStream(ctx, p, body, adapters.StreamHooks{Text: func(d string) { fmt.Print(d) }})
		if err != nil { // a broken or cut-off stream: never a turn with a partial call
			return nil, err
		}
		next, err := p.Results(turn.Calls, results) // as after tk.Run
		// README end
		return next, err
	}
	next, err := run()
	if err != nil {
		log.Fatal(err)
	}
	out, _ := json.Marshal(next)
	fmt.Printf("\n%s\n", out)
	// Output:
	// Checking Oslo.
	// [{"role":"tool","tool_call_id":"call_1","content":"sunny in Oslo"}]
}
