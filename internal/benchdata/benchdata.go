// Package benchdata holds the realistic tool input shared by the benchmarks
// of this repository: the arguments of a flight search, as a Go struct with
// json and constraint tags, as a map (the way Gemini and Anthropic replies
// decode) and as JSON text (the way OpenAI sends arguments), plus a
// hand-written decoder that is the floor the generic decoders are measured
// against.
package benchdata

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"time"
	"unicode/utf8"
)

// Args are the arguments of a flight search tool.
type Args struct {
	Origin      string    `json:"origin" pattern:"^[A-Z]{3}$" description:"IATA code of the departure airport"`
	Destination string    `json:"destination" pattern:"^[A-Z]{3}$" description:"IATA code of the arrival airport"`
	Date        time.Time `json:"date" description:"departure time, RFC 3339"`
	Passengers  int       `json:"passengers" minimum:"1" maximum:"9"`
	Cabin       string    `json:"cabin" enum:"economy,premium,business,first"`
	MaxPrice    *float64  `json:"max_price" exclusiveMinimum:"0" description:"upper price limit in EUR"`
	Filters     Filters   `json:"filters"`
	Tags        []string  `json:"tags"`
	Note        string    `json:"note,omitempty" maxLength:"200"`
}

// Filters narrow the search.
type Filters struct {
	MaxStops   int      `json:"max_stops" minimum:"0" maximum:"3"`
	Airlines   []string `json:"airlines" maxItems:"5"`
	Refundable bool     `json:"refundable"`
}

// SampleJSON is a valid set of arguments as JSON text.
var SampleJSON = []byte(`{"origin":"FRA","destination":"JFK","date":"2026-03-14T09:30:00Z",` +
	`"passengers":2,"cabin":"business","max_price":1450.5,` +
	`"filters":{"max_stops":1,"airlines":["LH","UA","AC"],"refundable":true},` +
	`"tags":["family","window"],"note":"vegetarian meals for both passengers"}`)

// SampleMap returns SampleJSON as a provider's reply decodes it: float64
// numbers, []any arrays and map[string]any objects. It returns a new map on
// every call.
func SampleMap() map[string]any {
	return map[string]any{
		"origin":      "FRA",
		"destination": "JFK",
		"date":        "2026-03-14T09:30:00Z",
		"passengers":  float64(2),
		"cabin":       "business",
		"max_price":   1450.5,
		"filters": map[string]any{
			"max_stops":  float64(1),
			"airlines":   []any{"LH", "UA", "AC"},
			"refundable": true,
		},
		"tags": []any{"family", "window"},
		"note": "vegetarian meals for both passengers",
	}
}

var iata = regexp.MustCompile(`^[A-Z]{3}$`)

var (
	argsKeys    = map[string]bool{"origin": true, "destination": true, "date": true, "passengers": true, "cabin": true, "max_price": true, "filters": true, "tags": true, "note": true}
	filtersKeys = map[string]bool{"max_stops": true, "airlines": true, "refundable": true}
)

// DecodeByHand decodes m into Args with type assertions and the same
// validation the tags ask for: the floor a generic decoder is compared with.
// It stops at the first problem.
func DecodeByHand(m map[string]any) (Args, error) {
	var a Args
	for k := range m {
		if !argsKeys[k] {
			return a, fmt.Errorf("/%s: unknown property", k)
		}
	}
	var ok bool
	if a.Origin, ok = m["origin"].(string); !ok || !iata.MatchString(a.Origin) {
		return a, errors.New("/origin: expected IATA code")
	}
	if a.Destination, ok = m["destination"].(string); !ok || !iata.MatchString(a.Destination) {
		return a, errors.New("/destination: expected IATA code")
	}
	ds, ok := m["date"].(string)
	if !ok {
		return a, errors.New("/date: expected string")
	}
	var err error
	if a.Date, err = time.Parse(time.RFC3339, ds); err != nil {
		return a, errors.New("/date: expected RFC 3339 date-time")
	}
	p, ok := m["passengers"].(float64)
	if !ok || p != math.Trunc(p) || p < 1 || p > 9 {
		return a, errors.New("/passengers: expected integer from 1 to 9")
	}
	a.Passengers = int(p)
	switch a.Cabin, _ = m["cabin"].(string); a.Cabin {
	case "economy", "premium", "business", "first":
	default:
		return a, errors.New("/cabin: expected one of economy, premium, business, first")
	}
	if v, present := m["max_price"]; present && v != nil {
		f, ok := v.(float64)
		if !ok || f <= 0 {
			return a, errors.New("/max_price: expected number > 0")
		}
		a.MaxPrice = &f
	}
	fm, ok := m["filters"].(map[string]any)
	if !ok {
		return a, errors.New("/filters: expected object")
	}
	for k := range fm {
		if !filtersKeys[k] {
			return a, fmt.Errorf("/filters/%s: unknown property", k)
		}
	}
	s, ok := fm["max_stops"].(float64)
	if !ok || s != math.Trunc(s) || s < 0 || s > 3 {
		return a, errors.New("/filters/max_stops: expected integer from 0 to 3")
	}
	a.Filters.MaxStops = int(s)
	if _, present := fm["airlines"]; !present {
		return a, errors.New("/filters/airlines: expected array (required)")
	}
	if a.Filters.Airlines, err = strings(fm["airlines"], "/filters/airlines"); err != nil {
		return a, err
	}
	if len(a.Filters.Airlines) > 5 {
		return a, errors.New("/filters/airlines: expected at most 5 items")
	}
	if a.Filters.Refundable, ok = fm["refundable"].(bool); !ok {
		return a, errors.New("/filters/refundable: expected boolean")
	}
	if _, present := m["tags"]; !present {
		return a, errors.New("/tags: expected array (required)")
	}
	if a.Tags, err = strings(m["tags"], "/tags"); err != nil {
		return a, err
	}
	if v, present := m["note"]; present {
		if a.Note, ok = v.(string); !ok || utf8.RuneCountInString(a.Note) > 200 {
			return a, errors.New("/note: expected string of at most 200 characters")
		}
	}
	return a, nil
}

// strings converts a []any of strings (or nil) to a []string.
func strings(v any, path string) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	xs, ok := v.([]any)
	if !ok {
		return nil, errors.New(path + ": expected array")
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		if out[i], ok = x.(string); !ok {
			return nil, fmt.Errorf("%s/%d: expected string", path, i)
		}
	}
	return out, nil
}
