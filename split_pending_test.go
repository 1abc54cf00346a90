package toolnexus_test

import (
	"context"
	"errors"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
)

// SplitPending holds the pending calls out of a batch, keeping the order
// of both parts; a batch without one comes back as it was.
func TestSplitPending(t *testing.T) {
	tools := newAgentTools(t)
	tk, err := toolnexus.NewToolkitWith(tools.tools, toolnexus.WithApproval("refund"))
	if err != nil {
		t.Fatal(err)
	}
	calls := []adapters.Call{
		{ID: "a", Name: "get_weather", Args: []byte(`{"city":"Oslo"}`)},
		{ID: "b", Name: "refund", Args: []byte(`{"order":"A"}`)},
		{ID: "c", Name: "get_time", Args: []byte(`{"zone":"UTC"}`)},
		{ID: "d", Name: "refund", Args: []byte(`{"order":"B"}`)},
	}
	results := tk.Run(context.Background(), calls)
	ready, readyResults, pending, err := toolnexus.SplitPending(calls, results)
	if err != nil {
		t.Fatal(err)
	}
	if len(ready) != 2 || ready[0].ID != "a" || ready[1].ID != "c" || len(readyResults) != 2 || readyResults[1].Output != "14:05 in UTC" {
		t.Errorf("ready %+v, %+v", ready, readyResults)
	}
	if len(pending) != 2 || pending[0].ID != "b" || pending[0].Index != 1 || pending[1].ID != "d" || pending[1].Index != 3 {
		t.Errorf("pending %+v", pending)
	}
	if &calls[0] == &ready[0] {
		t.Error("the ready calls share the batch's array: appending to them would write over it")
	}
	r2, rr2, p2, err := toolnexus.SplitPending(calls[:1], results[:1])
	if err != nil || len(p2) != 0 || &r2[0] != &calls[0] || len(rr2) != 1 {
		t.Errorf("a batch without a pending call: %v, %v, %v", r2, p2, err)
	}
	if _, _, _, err := toolnexus.SplitPending(calls, results[:1]); !errors.Is(err, adapters.ErrResultCount) {
		t.Errorf("4 calls, 1 result: %v", err)
	}
}
