package bench

import "time"

// The benchmarks' input is benchdata.Args (internal/benchdata, the core
// issue's realistic input). The peers read constraints and descriptions from
// other struct tags, so each gets a twin with the same fields, layout and
// constraints, written in the tags it understands: decoding costs the same,
// and a peer that validates checks the same rules.

// ArgsInvopop is benchdata.Args in invopop/jsonschema's tags, read by eino
// (through its fork, eino-contrib/jsonschema) and genkit.
type ArgsInvopop struct {
	Origin      string         `json:"origin" jsonschema:"pattern=^[A-Z]{3}$" jsonschema_description:"IATA code of the departure airport"`
	Destination string         `json:"destination" jsonschema:"pattern=^[A-Z]{3}$" jsonschema_description:"IATA code of the arrival airport"`
	Date        time.Time      `json:"date" jsonschema_description:"departure time, RFC 3339"`
	Passengers  int            `json:"passengers" jsonschema:"minimum=1,maximum=9"`
	Cabin       string         `json:"cabin" jsonschema:"enum=economy,enum=premium,enum=business,enum=first"`
	MaxPrice    *float64       `json:"max_price" jsonschema:"exclusiveMinimum=0" jsonschema_description:"upper price limit in EUR"`
	Filters     FiltersInvopop `json:"filters"`
	Tags        []string       `json:"tags"`
	Note        string         `json:"note,omitempty" jsonschema:"maxLength=200"`
}

// FiltersInvopop is benchdata.Filters in invopop/jsonschema's tags.
type FiltersInvopop struct {
	MaxStops   int      `json:"max_stops" jsonschema:"minimum=0,maximum=3"`
	Airlines   []string `json:"airlines" jsonschema:"maxItems=5"`
	Refundable bool     `json:"refundable"`
}

// ArgsGoogle is benchdata.Args in github.com/google/jsonschema-go's tags,
// read by go-sdk and mcp-go: the jsonschema tag is a description, and there
// is no tag for enum, bounds or patterns.
type ArgsGoogle struct {
	Origin      string        `json:"origin" jsonschema:"IATA code of the departure airport"`
	Destination string        `json:"destination" jsonschema:"IATA code of the arrival airport"`
	Date        time.Time     `json:"date" jsonschema:"departure time, RFC 3339"`
	Passengers  int           `json:"passengers"`
	Cabin       string        `json:"cabin"`
	MaxPrice    *float64      `json:"max_price" jsonschema:"upper price limit in EUR"`
	Filters     FiltersGoogle `json:"filters"`
	Tags        []string      `json:"tags"`
	Note        string        `json:"note,omitempty"`
}

// FiltersGoogle is benchdata.Filters in google/jsonschema-go's tags.
type FiltersGoogle struct {
	MaxStops   int      `json:"max_stops"`
	Airlines   []string `json:"airlines"`
	Refundable bool     `json:"refundable"`
}
