package bench

import (
	"context"
	"testing"

	"github.com/toolnexus/toolnexus/internal/benchdata"
)

// TestPeersAcceptSample checks that every peer takes the realistic input, as
// a map and as JSON text, so that the benchmarks time successful calls.
func TestPeersAcceptSample(t *testing.T) {
	peers, err := ExecutePeers()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, p := range peers {
		if err := p.Map(ctx, benchdata.SampleMap()); err != nil {
			t.Errorf("%s: Map(SampleMap()) = %v", p.Name, err)
		}
		if err := p.JSON(ctx, benchdata.SampleJSON); err != nil {
			t.Errorf("%s: JSON(SampleJSON) = %v", p.Name, err)
		}
	}
	if _, err := benchdata.DecodeByHand(benchdata.SampleMap()); err != nil {
		t.Errorf("DecodeByHand(SampleMap()) = %v", err)
	}
}
