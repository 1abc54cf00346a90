package main

import (
	"context"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/transport"
)

const prompt = "What's the weather and the local time in Paris, in Fahrenheit? And book a table for two at 19:30."

type cityArgs struct {
	City string `json:"city" description:"City name, e.g. Paris"`
}
type convertArgs struct {
	Celsius float64 `json:"celsius" description:"Degrees Celsius"`
}
type bookingArgs struct {
	City   string `json:"city"`
	Time   string `json:"time" pattern:"^[0-2][0-9]:[0-5][0-9]$" description:"Local time, HH:MM"`
	People int    `json:"people" minimum:"1"`
}

func getWeather(context.Context, cityArgs) (string, error) { return "sunny, 21 °C", nil } // a fixed sky
func getTime(context.Context, cityArgs) (string, error)    { return "14:05", nil }        // and clock
func celsiusToFahrenheit(_ context.Context, in convertArgs) (float64, error) {
	return in.Celsius*9/5 + 32, nil
}
func bookTable(context.Context, bookingArgs) (string, error) { return "booked, ref T-1930", nil }

// tools are the agent's tools, from Go functions.
var tools = []define.Tool{
	define.MustDefineTool(getWeather, define.WithDescription("Current weather in a city")),
	define.MustDefineTool(getTime, define.WithDescription("Local time (HH:MM) in a city")),
	define.MustDefineTool(celsiusToFahrenheit, define.WithDescription("Convert Celsius to Fahrenheit")),
	define.MustDefineTool(bookTable, define.WithDescription("Book a restaurant table")),
}

// Report is the run's typed answer.
type Report struct {
	City      string  `json:"city"`
	TempF     float64 `json:"temp_f"`
	LocalTime string  `json:"local_time"`
	Booked    bool    `json:"booked"`
}

// planEvening runs until book_table waits for a person's approval, then resumes on a new Agent.
func planEvening(ctx context.Context, p adapters.Provider, model string, llm transport.Transport,
	approve func(toolnexus.PendingCall) bool, opts ...toolnexus.AgentOption) (paused, done *toolnexus.AgentRun, err error) {
	newAgent := func() (*toolnexus.Agent, error) { // made the same way in every process
		tk, err := toolnexus.NewToolkitWith(tools, toolnexus.WithApproval("book_table")) // a person decides before it runs
		if err != nil {
			return nil, err
		}
		return toolnexus.NewAgent(p, tk, model, opts...)
	}
	opts = append(opts, toolnexus.WithTransport(llm), toolnexus.WithRequest(adapters.Request{MaxTokens: 1024}),
		toolnexus.WithAnswer(define.MustDefineAnswer[Report]()))
	agent, err := newAgent()
	if err != nil {
		return nil, nil, err
	}
	if paused, err = agent.Run(ctx, prompt); err != nil || paused.Stop != toolnexus.StopPending {
		return paused, nil, err // failed, or done without a pause
	}
	var decisions []toolnexus.Decision
	for _, call := range paused.Pending {
		if approve(call) { // a call left undecided pauses the run again
			decisions = append(decisions, toolnexus.Approve(call))
		}
	}
	later, err := newAgent() // later, maybe in another process
	if err == nil {
		done, err = later.Resume(ctx, paused.State, decisions) // the state: plain JSON, stored meanwhile
	}
	return paused, done, err
}
