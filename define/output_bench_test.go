package define_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/benchdata"
)

// flightOffer is a typical structured output: nested structs, slices,
// a pointer, a time and a map.
type flightOffer struct {
	ID       string            `json:"id"`
	Price    float64           `json:"price"`
	Currency string            `json:"currency"`
	Depart   time.Time         `json:"depart"`
	Stops    int               `json:"stops"`
	Legs     []flightLeg       `json:"legs"`
	Discount *float64          `json:"discount"`
	Extras   map[string]string `json:"extras"`
}

type flightLeg struct {
	From    string `json:"from"`
	To      string `json:"to"`
	Carrier string `json:"carrier"`
	Minutes int    `json:"minutes"`
}

type flightOffers struct {
	Offers []flightOffer `json:"offers"`
	Total  int           `json:"total"`
	Note   string        `json:"note,omitempty"`
}

func sampleOffers() flightOffers {
	d := 0.15
	dep := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	out := flightOffers{Total: 3}
	for i := range 3 {
		out.Offers = append(out.Offers, flightOffer{
			ID: "LH400-" + string(rune('A'+i)), Price: 1234.5 + float64(i), Currency: "EUR",
			Depart: dep, Stops: 1, Discount: &d, Extras: map[string]string{"meal": "veg", "seat": "12A"},
			Legs: []flightLeg{{"FRA", "MUC", "LH", 55}, {"MUC", "JFK", "LH", 540}},
		})
	}
	return out
}

// BenchmarkExecuteStructOutput is one call whose handler returns a
// normal struct: the output path (rendering the value as JSON) on top of
// BenchmarkExecute's json/toolnexus.
func BenchmarkExecuteStructOutput(b *testing.B) {
	ctx := context.Background()
	offers := sampleOffers()
	tool := define.MustDefineTool(func(context.Context, benchdata.Args) (flightOffers, error) {
		return offers, nil
	}, define.WithName("search"))
	text := benchdata.SampleJSON
	res := tool.ExecuteJSON(ctx, text)
	if res.IsError {
		b.Fatal(res.Output)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(res.Output)))
	for b.Loop() {
		if res := tool.ExecuteJSON(ctx, text); res.IsError {
			b.Fatal(res.Output)
		}
	}
}

// bigOutput is about 100 MB as JSON: 1,000 items of 100,000 bytes.
type bigOutput struct {
	Items []bigItem `json:"items"`
}

type bigItem struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// BenchmarkExecuteOutputRefused is a struct output of about 100 MB refused by
// the default output limit (1 MiB). It reports B/outbyte, the bytes
// allocated per byte the output would have as JSON.
func BenchmarkExecuteOutputRefused(b *testing.B) {
	ctx := context.Background()
	text := strings.Repeat("x", 100_000)
	out := bigOutput{Items: make([]bigItem, 1000)}
	for i := range out.Items {
		out.Items[i] = bigItem{Name: "item", Text: text}
	}
	const size = 1000*(len(`{"name":"item","text":""}`)+100_000+1) + len(`{"items":[]}`) - 1
	tool := define.MustDefineTool(func(context.Context, struct{}) (bigOutput, error) {
		return out, nil
	}, define.WithName("big"))
	if r := tool.ExecuteJSON(ctx, nil); !errors.Is(r.Err, define.ErrOutputTooLarge) {
		b.Fatalf("%.200v, want ErrOutputTooLarge", r)
	}
	b.ReportAllocs()
	var ms testingMem
	ms.start()
	for b.Loop() {
		tool.ExecuteJSON(ctx, nil)
	}
	b.ReportMetric(ms.bytes()/float64(b.N)/float64(size), "B/outbyte")
}

// testingMem measures the bytes a benchmark allocates, for metrics per
// byte of data.
type testingMem struct{ before uint64 }

func (m *testingMem) start() {
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	m.before = s.TotalAlloc
}

func (m *testingMem) bytes() float64 {
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	return float64(s.TotalAlloc - m.before)
}
