package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Booking is the input of the rejection table: the struct the core issue's
// call tests run against (define/define_test.go), with constraints in
// toolnexus's tags.
type Booking struct {
	City       string   `json:"city" pattern:"^[A-Z][a-z]+$"`
	Passengers int      `json:"passengers" minimum:"1" maximum:"9"`
	Cabin      string   `json:"cabin,omitempty" enum:"economy,business"`
	Budget     *float64 `json:"budget,omitempty" exclusiveMinimum:"0"`
	Account    int64    `json:"account,omitempty"`
	Tags       []string `json:"tags,omitempty" maxItems:"3"`
}

// BookingInvopop is Booking with the same constraints in the jsonschema tag
// dialect of invopop/jsonschema, which eino (through its fork) and genkit
// read: each peer gets the constraints in the tags it understands. go-sdk and
// mcp-go read github.com/google/jsonschema-go's jsonschema tag, which holds
// only a description, so they get Booking (and go-sdk also a hand-written
// schema, see GoSDK).
type BookingInvopop struct {
	City       string   `json:"city" jsonschema:"pattern=^[A-Z][a-z]+$"`
	Passengers int      `json:"passengers" jsonschema:"minimum=1,maximum=9"`
	Cabin      string   `json:"cabin,omitempty" jsonschema:"enum=economy,enum=business"`
	Budget     *float64 `json:"budget,omitempty" jsonschema:"exclusiveMinimum=0"`
	Account    int64    `json:"account,omitempty"`
	Tags       []string `json:"tags,omitempty" jsonschema:"maxItems=3"`
}

// A Case is one set of arguments of the core issue's call tests
// (define_test.go callCases), as JSON text and, unless NoMap, as the map a
// provider's SDK would have decoded. Cases about the handler (its errors,
// panics, cancellation) are left out: they are not bad inputs.
type Case struct {
	Name  string
	JSON  string
	Map   map[string]any
	NoMap bool
	// Valid marks arguments a correct library must pass to the function;
	// Want, if set, must appear in the function's input marshaled as JSON.
	Valid bool
	Want  string
}

// Cases are the rejection table's rows.
var Cases = []Case{
	{Name: "valid", JSON: `{"city":"Paris","passengers":2,"cabin":"business"}`,
		Map: map[string]any{"city": "Paris", "passengers": 2.0, "cabin": "business"}, Valid: true, Want: `"city":"Paris","passengers":2,"cabin":"business"`},
	{Name: "2^53+1 into int64 stays exact", JSON: `{"city":"Paris","passengers":1,"account":9007199254740993}`,
		Map: map[string]any{"city": "Paris", "passengers": 1.0, "account": json.Number("9007199254740993")}, Valid: true, Want: `"account":9007199254740993`},
	{Name: "missing required", JSON: `{"city":"Paris"}`, Map: map[string]any{"city": "Paris"}},
	{Name: "wrong type", JSON: `{"city":"Paris","passengers":"2"}`, Map: map[string]any{"city": "Paris", "passengers": "2"}},
	{Name: "unknown key", JSON: `{"city":"Paris","passengers":2,"seat":"12A"}`, Map: map[string]any{"city": "Paris", "passengers": 2.0, "seat": "12A"}},
	{Name: "wrong-case key", JSON: `{"City":"Paris","passengers":2}`, Map: map[string]any{"City": "Paris", "passengers": 2.0}},
	{Name: "null arguments (required fields)", JSON: `null`, Map: nil},
	{Name: "empty JSON text", JSON: ``, NoMap: true},
	{Name: "2.5 for an int", JSON: `{"city":"Paris","passengers":2.5}`, Map: map[string]any{"city": "Paris", "passengers": 2.5}},
	{Name: "value outside the enum", JSON: `{"city":"Paris","passengers":2,"cabin":"first"}`, Map: map[string]any{"city": "Paris", "passengers": 2.0, "cabin": "first"}},
	{Name: "over the maximum", JSON: `{"city":"Paris","passengers":10}`, Map: map[string]any{"city": "Paris", "passengers": 10.0}},
	{Name: "exclusive minimum hit exactly", JSON: `{"city":"Paris","passengers":1,"budget":0}`, Map: map[string]any{"city": "Paris", "passengers": 1.0, "budget": 0.0}},
	{Name: "pattern mismatch", JSON: `{"city":"paris","passengers":1}`, Map: map[string]any{"city": "paris", "passengers": 1.0}},
	{Name: "too many items", JSON: `{"city":"Paris","passengers":1,"tags":["a","b","c","d"]}`, Map: map[string]any{"city": "Paris", "passengers": 1.0, "tags": []any{"a", "b", "c", "d"}}},
	{Name: "not JSON", JSON: `{"city":`, NoMap: true},
	{Name: "duplicate key", JSON: `{"city":"Paris","city":"Rome","passengers":1}`, NoMap: true},
	{Name: "arguments not an object", JSON: `[1,2]`, NoMap: true},
}

// Outcome is what one library did with one set of arguments.
type Outcome int

const (
	NotRun     Outcome = iota // the case has no map form
	Rejected                  // an error, and the function was not called
	LetThrough                // the function was called with bad arguments
	Passed                    // valid arguments reached the function intact
	Altered                   // valid arguments reached the function changed
	Refused                   // valid arguments were rejected
)

func (o Outcome) String() string {
	return [...]string{"-", "rejects", "**lets through**", "ok", "**changes the value**", "**refuses**"}[o]
}

// Good reports whether o is the right outcome.
func (o Outcome) Good() bool { return o == Rejected || o == Passed }

// RejectionTable holds Outcomes[case][peer] for JSON text and for maps.
type RejectionTable struct {
	Peers []string
	Cases []Case
	JSON  [][]Outcome
	Map   [][]Outcome
}

// recorder is the rejection table's handler state.
type recorder struct {
	called bool
	got    []byte
}

func record[T any](r *recorder) Handler[T] {
	return func(_ context.Context, in T) (string, error) {
		r.called = true
		r.got, _ = json.Marshal(in)
		return "ok", nil
	}
}

// RejectionPeers returns every library's Peer on Booking, all recording
// into r. The toolnexus schema of Booking is go-sdk's hand-written schema.
func rejectionPeers(r *recorder) ([]Peer, error) {
	tn, err := Toolnexus(record[Booking](r))
	if err != nil {
		return nil, err
	}
	full, err := GoSDKSchemaOf[Booking]()
	if err != nil {
		return nil, err
	}
	eino, err := Eino(record[BookingInvopop](r))
	if err != nil {
		return nil, err
	}
	sdk, err := GoSDK(record[Booking](r), nil)
	if err != nil {
		return nil, err
	}
	sdkFull, err := GoSDK(record[Booking](r), full)
	if err != nil {
		return nil, err
	}
	return []Peer{
		tn,
		EncodingJSON(record[Booking](r)),
		eino,
		MCPGo(record[Booking](r)),
		sdk,
		sdkFull,
		Genkit(record[BookingInvopop](r)),
	}, nil
}

// Rejections runs every case through every library.
func Rejections() (*RejectionTable, error) {
	var r recorder
	peers, err := rejectionPeers(&r)
	if err != nil {
		return nil, err
	}
	t := &RejectionTable{Cases: Cases}
	for _, p := range peers {
		t.Peers = append(t.Peers, p.Name)
	}
	ctx := context.Background()
	judge := func(c Case, err error) Outcome {
		switch {
		case !r.called:
			if c.Valid {
				return Refused
			}
			return Rejected
		case !c.Valid:
			return LetThrough
		case err != nil:
			return Refused
		case c.Want != "" && !strings.Contains(string(r.got), c.Want):
			return Altered
		}
		return Passed
	}
	for _, c := range Cases {
		js := make([]Outcome, len(peers))
		ms := make([]Outcome, len(peers))
		for i, p := range peers {
			r = recorder{}
			js[i] = judge(c, p.JSON(ctx, []byte(c.JSON)))
			if !c.NoMap {
				r = recorder{}
				ms[i] = judge(c, p.Map(ctx, c.Map))
			}
		}
		t.JSON = append(t.JSON, js)
		t.Map = append(t.Map, ms)
	}
	return t, nil
}

// Score counts, for peer i, the bad calls rejected and the bad calls in all
// (JSON and map forms), and the valid calls passed intact and in all.
func (t *RejectionTable) Score(i int) (rejected, bad, passed, valid int) {
	for ci, c := range t.Cases {
		for _, o := range []Outcome{t.JSON[ci][i], t.Map[ci][i]} {
			if o == NotRun {
				continue
			}
			if c.Valid {
				valid++
				if o == Passed {
					passed++
				}
				continue
			}
			bad++
			if o == Rejected {
				rejected++
			}
		}
	}
	return
}

// Markdown renders the table: one row per case, one column per library. A
// cell holds one outcome when JSON text and map agree, else both.
func (t *RejectionTable) Markdown() string {
	var b strings.Builder
	b.WriteString("| Arguments |")
	for _, p := range t.Peers {
		fmt.Fprintf(&b, " %s |", p)
	}
	b.WriteString("\n|---|")
	for range t.Peers {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for ci, c := range t.Cases {
		name := c.Name
		if c.NoMap {
			name += " (JSON only)"
		}
		fmt.Fprintf(&b, "| %s |", name)
		for i := range t.Peers {
			j, m := t.JSON[ci][i], t.Map[ci][i]
			if m == NotRun || m == j {
				fmt.Fprintf(&b, " %s |", j)
			} else {
				fmt.Fprintf(&b, " JSON %s, map %s |", j, m)
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("| **bad calls rejected** |")
	for i := range t.Peers {
		rej, bad, _, _ := t.Score(i)
		fmt.Fprintf(&b, " %d of %d |", rej, bad)
	}
	b.WriteString("\n| **valid calls passed intact** |")
	for i := range t.Peers {
		_, _, ok, valid := t.Score(i)
		fmt.Fprintf(&b, " %d of %d |", ok, valid)
	}
	b.WriteString("\n")
	return b.String()
}
