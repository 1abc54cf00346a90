package toolnexus_test

// The Go code of README.md, compiled and run. Each region between a
// "README: <name>" comment and the next "README end" comment is a code
// block of the README, word for word after removing the region's common
// indentation; TestReadme (readme_test.go) fails when the two drift.

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/golden"
)

// README: quickstart-tool
type WeatherArgs struct {
	City string `json:"city" description:"City name, e.g. Paris"`
	Unit string `json:"unit,omitempty" enum:"C,F" default:"C"`
}

func getWeather(ctx context.Context, in WeatherArgs) (string, error) {
	return "sunny in " + in.City, nil
}

// README end

// The quick start: define a tool from a typed function and call it with
// the arguments a model sends.
func Example_readmeQuickstart() {
	ctx := context.Background()
	// README: quickstart
	weather, err := define.DefineTool(getWeather,
		define.WithDescription("Current weather for a city"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(weather.Name()) // get_weather, from the Go function's name

	res := weather.ExecuteJSON(ctx, []byte(`{"city":"Chennai"}`))
	fmt.Println(res.IsError, res.Output) // false sunny in Chennai

	res = weather.ExecuteJSON(ctx, []byte(`{"city":"Oslo","unit":"K"}`))
	fmt.Println(res.IsError, res.Output) // true invalid arguments: /unit: expected one of "C", "F", got "K"
	// README end

	// Output:
	// get_weather
	// false sunny in Chennai
	// true invalid arguments: /unit: expected one of "C", "F", got "K"
}

// Rendering a toolkit's tools as the bytes of a request's "tools" value.
func Example_readmeRender() {
	weather := define.MustDefineTool(getWeather, define.WithDescription("Current weather for a city"))
	// README: render
	tk, err := toolnexus.NewToolkit(weather) // tool names must be unique
	if err != nil {
		log.Fatal(err)
	}
	tools, err := tk.ToAnthropic() // or ToOpenAI, ToOpenAIResponses, ToGemini, ToBedrock, ToMCP, ToOllama, ToMistral
	if err != nil {
		log.Fatal(err)
	}
	body, err := adapters.AppendJSON(nil, tools) // the request's "tools" bytes
	// README end
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(body))

	// Output:
	// [{"name":"get_weather","description":"Current weather for a city","input_schema":{"type":"object","properties":{"city":{"type":"string","description":"City name, e.g. Paris"},"unit":{"type":"string","enum":["C","F"],"default":"C"}},"required":["city"],"additionalProperties":false}}]
}

// askModel is an agent loop written once for every provider. callModel is
// the client: it sends the tools and the history, and returns the reply.
//
// README: provider-loop
func askModel(ctx context.Context, tk *toolnexus.Toolkit, question string,
	callModel func(tools any, history []any) ([]byte, error)) (string, error) {
	p := adapters.ForAnthropic() // or ForOpenAI, ForOpenAIResponses, ForGemini, ForBedrock, ForMCP, ForOllama, ForMistral
	tools, err := p.Tools(tk.Tools())
	if err != nil {
		return "", err
	}
	history := p.Prompt(question)
	for {
		reply, err := callModel(tools, history)
		if err != nil {
			return "", err
		}
		turn, err := p.Parse(reply)
		if err != nil {
			return "", err
		}
		history = append(history, turn.Replay...) // the model's turn, as it sent it
		if len(turn.Calls) == 0 {
			return turn.Text, nil
		}
		results := tk.Run(ctx, turn.Calls) // concurrent, bounded, in call order
		next, err := p.Results(turn.Calls, results)
		if err != nil {
			return "", err
		}
		history = append(history, next...)
	}
}

// README end

// The provider loop against a scripted Anthropic model, which first sends
// a unit the tool refuses, reads the error result, and corrects itself.
func Example_readmeProviderLoop() {
	replies := []string{
		`{"id":"msg_1","type":"message","role":"assistant","model":"m","stop_reason":"tool_use",
		  "content":[{"type":"tool_use","id":"call_1","name":"get_weather","input":{"city":"Oslo","unit":"K"}}]}`,
		`{"id":"msg_2","type":"message","role":"assistant","model":"m","stop_reason":"tool_use",
		  "content":[{"type":"tool_use","id":"call_2","name":"get_weather","input":{"city":"Oslo","unit":"C"}}]}`,
		`{"id":"msg_3","type":"message","role":"assistant","model":"m","stop_reason":"end_turn",
		  "content":[{"type":"text","text":"It is sunny in Oslo."}]}`,
	}
	callModel := func(tools any, history []any) ([]byte, error) {
		if len(history) > 1 { // what the model reads: the last results
			last, err := json.Marshal(history[len(history)-1])
			if err != nil {
				return nil, err
			}
			fmt.Println(string(last))
		}
		reply := replies[0]
		replies = replies[1:]
		return []byte(reply), nil
	}
	tk, err := toolnexus.NewToolkit(define.MustDefineTool(getWeather))
	if err != nil {
		log.Fatal(err)
	}
	answer, err := askModel(context.Background(), tk, "What's the weather in Oslo?", callModel)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(answer)
	// Output:
	// {"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","content":"invalid arguments: /unit: expected one of \"C\", \"F\", got \"K\"","is_error":true}]}
	// {"role":"user","content":[{"type":"tool_result","tool_use_id":"call_2","content":"sunny in Oslo","is_error":false}]}
	// It is sunny in Oslo.
}

// README: golden
func TestToolSchemas(t *testing.T) {
	weather := define.MustDefineTool(getWeather, define.WithDescription("Current weather for a city"))
	tools, err := adapters.ToGemini([]define.Tool{weather})
	if err != nil {
		t.Fatal(err)
	}
	golden.JSON(t, "testdata/golden/readme/gemini_tools.json", tools)
}

// README end
