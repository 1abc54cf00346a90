package define_test

import (
	"testing"

	"github.com/toolnexus/toolnexus/define"
)

// TestMaxOutputBytesResolved: the limit the options give, resolved as a tool
// resolves it (the last one wins, 0 is the default, < 0 no bound).
func TestMaxOutputBytesResolved(t *testing.T) {
	for _, tc := range []struct {
		opts []define.Option
		want int
	}{
		{nil, define.DefaultMaxOutputBytes},
		{[]define.Option{define.WithMaxOutputBytes(0)}, define.DefaultMaxOutputBytes},
		{[]define.Option{define.WithMaxOutputBytes(10), nil, define.WithDescription("d")}, 10},
		{[]define.Option{define.WithMaxOutputBytes(10), define.WithMaxOutputBytes(-1)}, -1},
		{[]define.Option{define.WithMaxOutputBytes(-1), define.WithMaxOutputBytes(0)}, define.DefaultMaxOutputBytes},
	} {
		if got := define.MaxOutputBytes(tc.opts...); got != tc.want {
			t.Errorf("MaxOutputBytes(%v) = %d, want %d", tc.opts, got, tc.want)
		}
	}
}
