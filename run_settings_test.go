package toolnexus_test

import (
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
)

func TestRunSettings(t *testing.T) {
	for _, c := range []struct {
		opts    []toolnexus.RunOption
		n       int
		timeout time.Duration
	}{
		{nil, toolnexus.DefaultParallelism, 0},
		{[]toolnexus.RunOption{toolnexus.WithParallelism(3)}, 3, 0},
		{[]toolnexus.RunOption{toolnexus.WithParallelism(0), toolnexus.WithCallTimeout(-time.Second)}, toolnexus.DefaultParallelism, 0},
		{[]toolnexus.RunOption{toolnexus.WithCallTimeout(time.Second), toolnexus.WithParallelism(2), toolnexus.WithParallelism(5)}, 5, time.Second},
	} {
		n, d := toolnexus.RunSettings(c.opts...)
		if n != c.n || d != c.timeout {
			t.Errorf("RunSettings(%v) = %d, %v; want %d, %v", c.opts, n, d, c.n, c.timeout)
		}
	}
}
