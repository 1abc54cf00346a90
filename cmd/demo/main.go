// Command demo shows toolnexus end to end without a network or an API key:
// a typed Go function becomes a tool, its schema is printed, and a model's
// arguments are executed, valid and invalid.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/toolnexus/toolnexus/define"
)

// WeatherArgs is the input of get_weather.
type WeatherArgs struct {
	City string `json:"city" description:"City name, e.g. Paris"`
	Unit string `json:"unit,omitempty" enum:"C,F" default:"C" description:"Temperature unit"`
}

func getWeather(_ context.Context, in WeatherArgs) (string, error) {
	return fmt.Sprintf("sunny in %s, 21°%s", in.City, in.Unit), nil
}

func main() {
	weather, err := define.DefineTool(getWeather, define.WithDescription("Current weather for a city"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("tool %s: %s\n", weather.Name(), weather.Description())
	fmt.Printf("input schema: %s\n\n", weather.InputSchema())

	ctx := context.Background()
	for _, args := range []string{
		`{"city":"Chennai"}`,
		`{"city":"Oslo","unit":"F"}`,
		`{"city":"Oslo","unit":"K"}`,
		`{"City":"Oslo"}`,
	} {
		res := weather.ExecuteJSON(ctx, []byte(args))
		fmt.Printf("call %s\n  -> is_error=%v output=%s\n", args, res.IsError, res.Output)
	}
}
