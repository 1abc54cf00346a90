package toolnexus_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
)

type weatherArgs struct {
	City string `json:"city" description:"City name"`
}

func currentWeather(ctx context.Context, in weatherArgs) (string, error) {
	return "sunny in " + in.City, nil
}

// A toolkit renders its tools for a provider and routes the model's calls.
func Example() {
	weather := define.MustDefineTool(currentWeather,
		define.WithName("get_weather"), define.WithDescription("Current weather for a city"))
	tk, err := toolnexus.NewToolkit(weather)
	if err != nil {
		panic(err)
	}

	tools, err := tk.ToOpenAI()
	if err != nil {
		panic(err)
	}
	data, _ := json.Marshal(tools)
	fmt.Println(string(data))

	// The model calls the tool with JSON text arguments.
	res := tk.ExecuteJSON(context.Background(), "get_weather", []byte(`{"city":"Paris"}`))
	fmt.Println(res.Output, res.IsError)

	// An unknown name is an error result the model can act on.
	res = tk.ExecuteJSON(context.Background(), "get_time", nil)
	fmt.Println(res.Output)
	// Output:
	// [{"type":"function","function":{"name":"get_weather","description":"Current weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"],"additionalProperties":false}}}]
	// sunny in Paris false
	// unknown tool "get_time" (available tools: get_weather)
}
