package bench

import (
	"context"
	"testing"

	"github.com/toolnexus/toolnexus/internal/benchdata"
)

// BenchmarkExecute times one call on the realistic input, from a map
// (map/*) and from JSON text (json/*). The floors are, from a map, the
// hand-written decoder of internal/benchdata (type assertions and the same
// validation) and, from JSON text, encoding/json.Unmarshal into the struct
// (no validation). encoding/json on a map is a json.Marshal then
// json.Unmarshal round trip.
func BenchmarkExecute(b *testing.B) {
	ctx := context.Background()
	peers, err := ExecutePeers()
	if err != nil {
		b.Fatal(err)
	}
	m := benchdata.SampleMap()
	text := benchdata.SampleJSON

	b.Run("map/hand-written", func(b *testing.B) {
		for b.Loop() {
			in, err := benchdata.DecodeByHand(m)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Ok(ctx, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, p := range peers {
		b.Run("map/"+p.Name, func(b *testing.B) {
			if err := p.Map(ctx, m); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := p.Map(ctx, m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, p := range peers {
		b.Run("json/"+p.Name, func(b *testing.B) {
			if err := p.JSON(ctx, text); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if err := p.JSON(ctx, text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
