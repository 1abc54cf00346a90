package define_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus/define"
)

// WeatherArgs is the input of get_weather: one required city.
type WeatherArgs struct {
	City string `json:"city"`
}

func getWeather(_ context.Context, in WeatherArgs) (string, error) {
	return "sunny in " + in.City, nil
}

// The get_weather tool of the reference library: the name comes from the Go
// function, the schema from the input struct, and a call runs the function.
func ExampleDefineTool() {
	weather, err := define.DefineTool(getWeather, define.WithDescription("Current weather for a city"))
	if err != nil {
		panic(err)
	}
	fmt.Println(weather.Name(), "-", weather.Description())
	fmt.Println(string(weather.InputSchema()))

	res := weather.Execute(context.Background(), map[string]any{"city": "Chennai"})
	fmt.Println(res.Output, res.IsError)
	// Output:
	// get_weather - Current weather for a city
	// {"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}
	// sunny in Chennai false
}

// Arguments a model gets wrong come back as one error result that names
// every problem, so the model can fix them in one retry.
func ExampleTool_ExecuteJSON_invalidArguments() {
	type SearchArgs struct {
		Query string `json:"query" minLength:"3"`
		Limit int    `json:"limit,omitempty" minimum:"1" maximum:"50"`
	}
	search := define.MustDefineTool(func(_ context.Context, in SearchArgs) ([]string, error) {
		return []string{"result for " + in.Query}, nil
	}, define.WithName("search"))

	res := search.ExecuteJSON(context.Background(), []byte(`{"query":"go","limit":2.5,"Sort":"asc"}`))
	fmt.Println(res.IsError)
	fmt.Println(res.Output)

	res = search.ExecuteJSON(context.Background(), []byte(`{"query":"golang"}`))
	fmt.Println(res.Output)
	// Output:
	// true
	// invalid arguments: /query: expected at least 3 characters, got "go"; /limit: expected integer, got 2.5; /Sort: expected no such property (allowed: query, limit), got "asc"
	// ["result for golang"]
}

// A tool with a hand-written schema and an untyped handler.
func ExampleNewTool() {
	ping, err := define.NewTool("ping",
		json.RawMessage(`{"type":"object","properties":{}}`),
		func(context.Context, json.RawMessage) (any, error) { return "pong", nil },
		define.WithDescription("Health check"))
	if err != nil {
		panic(err)
	}
	fmt.Println(ping.ExecuteJSON(context.Background(), nil).Output)
	// Output: pong
}

// A call split in two: the decode and validation first (a bad call ends
// there, its result written), then, after whatever the runner puts
// between them (a log line here; a middleware or a person's approval in
// an agent), the handler.
func ExampleTool_DecodeJSON() {
	weather := define.MustDefineTool(getWeather)
	ctx := context.Background()
	for _, args := range []string{`{"city":"Oslo"}`, `{"town":"Oslo"}`} {
		var res define.Result
		call := weather.DecodeJSON(ctx, []byte(args), &res)
		if call == nil {
			fmt.Println("refused:", res.Output)
			continue
		}
		fmt.Printf("about to run with %+v\n", call.Input())
		call.Finish(ctx)
		fmt.Println("ran:", res.Output)
	}
	// Output:
	// about to run with {City:Oslo}
	// ran: sunny in Oslo
	// refused: invalid arguments: /town: expected no such property (allowed: city), got "Oslo"; /city: expected string (required), got nothing
}

// A rendering kept on the tool: built once per key, then shared.
func ExampleMemo() {
	weather := define.MustDefineTool(getWeather)
	type shortForm struct{} // a key of this package's own type
	builds := 0
	for range 3 {
		s, err := define.Memo(weather, shortForm{}, func() (string, error) {
			builds++
			tree := weather.InputSchemaTree() // a copy this package owns
			return fmt.Sprintf("%s(%s)", weather.Name(), tree.Properties[0].Name), nil
		})
		if err != nil {
			panic(err)
		}
		fmt.Println(s)
	}
	fmt.Println("builds:", builds)
	// Output:
	// get_weather(city)
	// get_weather(city)
	// get_weather(city)
	// builds: 1
}
