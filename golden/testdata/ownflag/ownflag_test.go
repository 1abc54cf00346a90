// Package ownflag defines its own -update flag and imports golden: the
// test binary must start, and both must read the same value.
package ownflag

import (
	"flag"
	"testing"

	"github.com/toolnexus/toolnexus/golden"
)

var (
	update = flag.Bool("update", false, "this package's own -update flag")
	want   = flag.Bool("want", true, "the value -update should have")
)

func TestOwnFlag(t *testing.T) {
	if *update != *want || golden.Updating() != *want {
		t.Errorf("own -update = %v, golden.Updating() = %v, want both %v", *update, golden.Updating(), *want)
	}
}
