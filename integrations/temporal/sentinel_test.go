package tntemporal_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	tntemporal "github.com/toolnexus/toolnexus/integrations/temporal"
)

// TestMayHaveRunStored: the error of a call that may have run keeps its
// sentinels through the result's JSON.
func TestMayHaveRunStored(t *testing.T) {
	r := define.Result{Output: "may have run", IsError: true,
		Err: fmt.Errorf("tool refund: %w: %w: %w", toolnexus.ErrAbandoned, errors.New("timeout"), tntemporal.ErrMayHaveRun)}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back define.Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(back.Err, tntemporal.ErrMayHaveRun) || !errors.Is(back.Err, toolnexus.ErrAbandoned) {
		t.Errorf("read back %v from %s: want ErrMayHaveRun and ErrAbandoned", back.Err, b)
	}
}
