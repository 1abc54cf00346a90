package bench

import (
	"context"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus/internal/benchdata"
)

// Stay is a second nine-field input for the comparison with eino from JSON
// text: a nested struct, a string slice, enums and numeric bounds, and no
// pattern or date-time, so that the decoders' own work dominates.
type Stay struct {
	City      string   `json:"city" minLength:"1" maxLength:"64"`
	Nights    int      `json:"nights" minimum:"1" maximum:"30"`
	Guests    int      `json:"guests" minimum:"1" maximum:"8"`
	Room      string   `json:"room" enum:"single,double,suite"`
	Budget    float64  `json:"budget" minimum:"0" maximum:"10000"`
	Breakfast bool     `json:"breakfast"`
	Amenities []string `json:"amenities" maxItems:"10"`
	Guest     Guest    `json:"guest"`
	Notes     string   `json:"notes,omitempty" maxLength:"500"`
}

// Guest is Stay's nested struct.
type Guest struct {
	Name    string `json:"name" minLength:"1"`
	Age     int    `json:"age" minimum:"18" maximum:"120"`
	Loyalty string `json:"loyalty" enum:"none,silver,gold"`
}

// StayInvopop is Stay in invopop/jsonschema's tags, for eino.
type StayInvopop struct {
	City      string       `json:"city" jsonschema:"minLength=1,maxLength=64"`
	Nights    int          `json:"nights" jsonschema:"minimum=1,maximum=30"`
	Guests    int          `json:"guests" jsonschema:"minimum=1,maximum=8"`
	Room      string       `json:"room" jsonschema:"enum=single,enum=double,enum=suite"`
	Budget    float64      `json:"budget" jsonschema:"minimum=0,maximum=10000"`
	Breakfast bool         `json:"breakfast"`
	Amenities []string     `json:"amenities" jsonschema:"maxItems=10"`
	Guest     GuestInvopop `json:"guest"`
	Notes     string       `json:"notes,omitempty" jsonschema:"maxLength=500"`
}

// GuestInvopop is Guest in invopop/jsonschema's tags.
type GuestInvopop struct {
	Name    string `json:"name" jsonschema:"minLength=1"`
	Age     int    `json:"age" jsonschema:"minimum=18,maximum=120"`
	Loyalty string `json:"loyalty" jsonschema:"enum=none,enum=silver,enum=gold"`
}

// StayJSON is a valid Stay as JSON text.
var StayJSON = []byte(`{"city":"Lisbon","nights":4,"guests":2,"room":"double","budget":860.75,` +
	`"breakfast":true,"amenities":["wifi","parking","late checkout"],` +
	`"guest":{"name":"Ana Souza","age":34,"loyalty":"gold"},"notes":"quiet room, high floor if possible"}`)

// BenchmarkVsEino compares toolnexus's Tool.ExecuteJSON with eino's
// InvokableRun on the same bytes, on two inputs: flights (benchdata, the
// input of make bench-peers) and stay. For each input, toolnexus and eino
// time one side alone (run each in a process of its own, as make
// bench-peers does, and compare the medians of interleaved processes); ab
// runs both in one loop, in alternating blocks of calls, so that a slow
// moment of a shared machine hits both alike, and reports both sides' time
// per call and their ratio (tn/eino; its ns/op is one call of each).
func BenchmarkVsEino(b *testing.B) {
	ctx := context.Background()
	// Each sub-benchmark defines the tools it runs, so that a process
	// running one side alone never sets up the other (sonic compiles its
	// decoders on first use).
	for _, in := range []struct {
		name     string
		text     []byte
		tn, eino func() (Peer, error)
	}{
		{"flights", benchdata.SampleJSON, func() (Peer, error) { return Toolnexus(Ok[benchdata.Args]) }, func() (Peer, error) { return Eino(Ok[ArgsInvopop]) }},
		{"stay", StayJSON, func() (Peer, error) { return Toolnexus(Ok[Stay]) }, func() (Peer, error) { return Eino(Ok[StayInvopop]) }},
	} {
		peer := func(b *testing.B, mk func() (Peer, error)) Peer {
			p, err := mk()
			if err != nil {
				b.Fatal(err)
			}
			if err := p.JSON(ctx, in.text); err != nil {
				b.Fatalf("%s %s: %v", in.name, p.Name, err)
			}
			return p
		}
		for _, side := range []struct {
			name string
			mk   func() (Peer, error)
		}{{"toolnexus", in.tn}, {"eino", in.eino}} {
			b.Run(in.name+"/"+side.name, func(b *testing.B) {
				p := peer(b, side.mk)
				b.ReportAllocs()
				for b.Loop() {
					if err := p.JSON(ctx, in.text); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(in.name+"/ab", func(b *testing.B) {
			tn, eino := peer(b, in.tn), peer(b, in.eino)
			const block = 32
			var tTN, tEino time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for done := 0; done < b.N; {
				k := min(block, b.N-done)
				start := time.Now()
				for range k {
					if err := tn.JSON(ctx, in.text); err != nil {
						b.Fatal(err)
					}
				}
				mid := time.Now()
				for range k {
					if err := eino.JSON(ctx, in.text); err != nil {
						b.Fatal(err)
					}
				}
				tTN += mid.Sub(start)
				tEino += time.Since(mid)
				done += k
			}
			b.ReportMetric(float64(tTN.Nanoseconds())/float64(b.N), "tn-ns/op")
			b.ReportMetric(float64(tEino.Nanoseconds())/float64(b.N), "eino-ns/op")
			b.ReportMetric(float64(tTN)/float64(tEino), "tn/eino")
		})
	}
}
