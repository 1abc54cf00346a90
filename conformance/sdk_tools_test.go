package conformance

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
)

// The tools of the SDK round trips: a struct output, a string output, and
// arguments with a default, an enum, a pattern, bounds, a date-time, a
// nullable pointer and an optional slice.

type WeatherArgs struct {
	City string `json:"city" description:"City name, e.g. Paris" minLength:"1"`
	Unit string `json:"unit,omitempty" enum:"C,F" default:"C" description:"Temperature unit"`
}

type Weather struct {
	City  string  `json:"city"`
	TempC float64 `json:"temp_c"`
	Unit  string  `json:"unit"`
}

func getWeather(_ context.Context, in WeatherArgs) (Weather, error) {
	return Weather{City: in.City, TempC: 21.5, Unit: in.Unit}, nil
}

type ConvertArgs struct {
	Amount float64 `json:"amount" minimum:"0"`
	From   string  `json:"from" pattern:"^[A-Z]{3}$"`
	To     string  `json:"to" pattern:"^[A-Z]{3}$"`
}

func convertCurrency(_ context.Context, in ConvertArgs) (string, error) {
	return fmt.Sprintf("%.2f %s", in.Amount*1.1, in.To), nil
}

type BookArgs struct {
	Passengers int       `json:"passengers" minimum:"1" maximum:"9"`
	Date       time.Time `json:"date"`
	Seat       *string   `json:"seat" enum:"aisle,window"`
	Tags       []string  `json:"tags,omitempty" maxItems:"3"`
}

type Booking struct {
	Confirmation string `json:"confirmation"`
	Passengers   int    `json:"passengers"`
	Seat         string `json:"seat"`
}

func bookFlight(_ context.Context, in BookArgs) (Booking, error) {
	seat := "any"
	if in.Seat != nil {
		seat = *in.Seat
	}
	return Booking{
		Confirmation: fmt.Sprintf("BK-%d-%s", in.Passengers, in.Date.Format("2006-01-02")),
		Passengers:   in.Passengers,
		Seat:         seat,
	}, nil
}

func sdkToolkit(t testing.TB) *toolnexus.Toolkit {
	t.Helper()
	tools := []define.Tool{
		mustTool(t)(define.DefineTool(getWeather, define.WithDescription("Current weather for a city"))),
		mustTool(t)(define.DefineTool(convertCurrency, define.WithDescription("Convert an amount between currencies"))),
		mustTool(t)(define.DefineTool(bookFlight, define.WithDescription("Book a flight"))),
	}
	tk, err := toolnexus.NewToolkit(tools...)
	if err != nil {
		t.Fatalf("NewToolkit: %v", err)
	}
	return tk
}

func mustTool(t testing.TB) func(define.Tool, error) define.Tool {
	return func(tool define.Tool, err error) define.Tool {
		t.Helper()
		if err != nil {
			t.Fatalf("DefineTool: %v", err)
		}
		return tool
	}
}

// plannedCall is one tool call the fake server makes, and what the result
// that comes back must say.
type plannedCall struct {
	Name string
	Args string // the arguments object, as JSON text

	// WantOutput is the tool's output for a successful call: JSON text for
	// a struct output, plain text otherwise.
	WantOutput string
	// WantErrorHas, when set, means the call must fail, with a result whose
	// message contains it (the JSON Pointer of the bad argument).
	WantErrorHas string
}

// conversation is what every fake server plays: two tool-calling turns of
// two parallel calls each (the second turn with one bad call), then a
// final text.
var conversation = [][]plannedCall{
	{
		{Name: "get_weather", Args: `{"city":"Paris"}`, WantOutput: `{"city":"Paris","temp_c":21.5,"unit":"C"}`},
		{Name: "convert_currency", Args: `{"amount":100,"from":"EUR","to":"USD"}`, WantOutput: `110.00 USD`},
	},
	{
		{Name: "book_flight", Args: `{"passengers":2,"date":"2026-09-01T10:00:00Z","seat":"aisle","tags":["work"]}`,
			WantOutput: `{"confirmation":"BK-2-2026-09-01","passengers":2,"seat":"aisle"}`},
		{Name: "get_weather", Args: `{"city":"Oslo","unit":"K"}`, WantErrorHas: "/unit"},
	},
}

const finalText = "All done: 21.5 C in Paris, 110.00 USD, flight BK-2-2026-09-01."

// checkOutput compares what a result carried with the plan. got is the
// result's text (for Gemini: the output value as JSON, or the error text).
func checkOutput(pc plannedCall, got string, isError bool) error {
	if pc.WantErrorHas != "" {
		if !isError {
			return fmt.Errorf("%s(%s): result is not marked as an error: %q", pc.Name, pc.Args, got)
		}
		if !strings.Contains(got, pc.WantErrorHas) {
			return fmt.Errorf("%s(%s): error result %q does not name %q", pc.Name, pc.Args, got, pc.WantErrorHas)
		}
		return nil
	}
	if isError {
		return fmt.Errorf("%s(%s): unexpected error result %q", pc.Name, pc.Args, got)
	}
	if strings.HasPrefix(pc.WantOutput, "{") {
		if d := jsonDiff([]byte(pc.WantOutput), []byte(got), false); d != "" {
			return fmt.Errorf("%s(%s): output mismatch (-want +got):\n%s", pc.Name, pc.Args, d)
		}
		return nil
	}
	if got != pc.WantOutput {
		return fmt.Errorf("%s(%s): output = %q, want %q", pc.Name, pc.Args, got, pc.WantOutput)
	}
	return nil
}
