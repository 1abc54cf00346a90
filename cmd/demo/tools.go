package main

import (
	"context"
	"fmt"
	"math"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
)

// WeatherArgs is the input of get_weather.
type WeatherArgs struct {
	City string `json:"city" description:"City name, e.g. Paris"`
}

// Weather is get_weather's typed output (MCP's structuredContent).
type Weather struct {
	City  string  `json:"city"`
	TempC float64 `json:"temp_c"`
	Sky   string  `json:"sky"`
}

func getWeather(_ context.Context, in WeatherArgs) (Weather, error) {
	switch in.City {
	case "Paris":
		return Weather{City: "Paris", TempC: 21, Sky: "sunny"}, nil
	case "Oslo":
		return Weather{City: "Oslo", TempC: 4, Sky: "sleet"}, nil
	}
	return Weather{}, fmt.Errorf("no weather station in %q (try Paris or Oslo)", in.City)
}

// TimeArgs is the input of get_time.
type TimeArgs struct {
	Zone string `json:"zone" description:"IANA time zone, e.g. Europe/Paris"`
}

// getTime reads a fixed clock, so that the demo's output never changes.
func getTime(_ context.Context, in TimeArgs) (string, error) {
	switch in.Zone {
	case "Europe/Paris":
		return "14:05", nil
	case "Europe/Oslo":
		return "14:05", nil
	}
	return "", fmt.Errorf("unknown time zone %q", in.Zone)
}

// ConvertArgs is the input of celsius_to_fahrenheit.
type ConvertArgs struct {
	Celsius float64 `json:"celsius" description:"Temperature in degrees Celsius"`
}

// Fahrenheit is celsius_to_fahrenheit's typed output.
type Fahrenheit struct {
	Fahrenheit float64 `json:"fahrenheit"`
}

func celsiusToFahrenheit(_ context.Context, in ConvertArgs) (Fahrenheit, error) {
	return Fahrenheit{Fahrenheit: math.Round((in.Celsius*9/5+32)*10) / 10}, nil
}

// demoToolkit holds the three tools the scripted models call.
func demoToolkit() (*toolnexus.Toolkit, error) {
	weather, err := define.DefineTool(getWeather, define.WithDescription("Current weather for a city"))
	if err != nil {
		return nil, err
	}
	clock, err := define.DefineTool(getTime, define.WithDescription("Local time (HH:MM) in a time zone"))
	if err != nil {
		return nil, err
	}
	convert, err := define.DefineTool(celsiusToFahrenheit, define.WithDescription("Convert a temperature from Celsius to Fahrenheit"))
	if err != nil {
		return nil, err
	}
	return toolnexus.NewToolkit(weather, clock, convert)
}
