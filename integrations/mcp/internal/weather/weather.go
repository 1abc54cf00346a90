// Package weather is the toolkit that the example server, the tests and
// the godoc example serve: three tools with fixed answers, two of them with
// struct outputs (an outputSchema and structuredContent) and one with a
// string output.
package weather

import (
	"context"
	"fmt"
	"math"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
)

// Args is the input of get_weather.
type Args struct {
	City string `json:"city" description:"City name, e.g. Paris"`
}

// Report is get_weather's output.
type Report struct {
	City  string  `json:"city"`
	TempC float64 `json:"temp_c"`
	Sky   string  `json:"sky"`
}

// TimeArgs is the input of get_time.
type TimeArgs struct {
	Zone string `json:"zone" description:"IANA time zone, e.g. Europe/Paris"`
}

// ConvertArgs is the input of celsius_to_fahrenheit.
type ConvertArgs struct {
	Celsius float64 `json:"celsius" description:"Temperature in degrees Celsius"`
}

// Fahrenheit is celsius_to_fahrenheit's output.
type Fahrenheit struct {
	Fahrenheit float64 `json:"fahrenheit"`
}

func getWeather(_ context.Context, in Args) (Report, error) {
	switch in.City {
	case "Paris":
		return Report{City: "Paris", TempC: 21, Sky: "sunny"}, nil
	case "Oslo":
		return Report{City: "Oslo", TempC: 4, Sky: "sleet"}, nil
	}
	return Report{}, fmt.Errorf("no weather station in %q (try Paris or Oslo)", in.City)
}

// getTime reads a fixed clock, so that answers never change.
func getTime(_ context.Context, in TimeArgs) (string, error) {
	if in.Zone == "Europe/Paris" || in.Zone == "Europe/Oslo" {
		return "14:05", nil
	}
	return "", fmt.Errorf("unknown time zone %q", in.Zone)
}

func celsiusToFahrenheit(_ context.Context, in ConvertArgs) (Fahrenheit, error) {
	return Fahrenheit{Fahrenheit: math.Round((in.Celsius*9/5+32)*10) / 10}, nil
}

// Toolkit returns get_weather, get_time and celsius_to_fahrenheit.
func Toolkit() (*toolnexus.Toolkit, error) {
	return toolnexus.NewToolkit(
		define.MustDefineTool(getWeather, define.WithDescription("Current weather for a city")),
		define.MustDefineTool(getTime, define.WithDescription("Local time (HH:MM) in a time zone")),
		define.MustDefineTool(celsiusToFahrenheit, define.WithDescription("Convert a temperature from Celsius to Fahrenheit")),
	)
}
