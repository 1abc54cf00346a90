package toolnexus

import (
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// TestGrowStackAnyIndex: growStack reads its frame at any index without
// panicking, negative and past the frame included, and the frame is zero.
func TestGrowStackAnyIndex(t *testing.T) {
	for _, i := range []int{0, 1, stackReserve - 1, stackReserve, -1, -stackReserve - 3, 1 << 40} {
		if got := growStack(i); got != 0 {
			t.Errorf("growStack(%d) = %d, want 0", i, got)
		}
	}
}

// TestSmallArgs: the first call's arguments decode inline up to
// InlineArgBytes, text or map, and a cyclic map is not small.
func TestSmallArgs(t *testing.T) {
	big := strings.Repeat("x", InlineArgBytes)
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	for _, c := range []struct {
		name string
		call adapters.Call
		want bool
	}{
		{"small text", adapters.Call{Args: []byte(`{"n":1}`)}, true},
		{"large text", adapters.Call{Args: []byte(`{"s":"` + big + `"}`)}, false},
		{"small map", adapters.Call{Input: map[string]any{"n": 1.0, "l": []any{"a", true, nil}}}, true},
		{"large map", adapters.Call{Input: map[string]any{"s": big}}, false},
		{"many items", adapters.Call{Input: map[string]any{"l": make([]any, InlineArgBytes)}}, false},
		{"cyclic map", adapters.Call{Input: cyclic}, false},
		{"other types", adapters.Call{Input: map[string]any{"l": []string{"a"}}}, false},
	} {
		if got := smallArgs(&c.call); got != c.want {
			t.Errorf("%s: smallArgs = %v, want %v", c.name, got, c.want)
		}
	}
}
