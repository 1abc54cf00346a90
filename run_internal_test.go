package toolnexus

import "testing"

// TestGrowStackAnyIndex: growStack reads its frame at any index without
// panicking, negative and past the frame included, and the frame is zero.
func TestGrowStackAnyIndex(t *testing.T) {
	for _, i := range []int{0, 1, stackReserve - 1, stackReserve, -1, -stackReserve - 3, 1 << 40} {
		if got := growStack(i); got != 0 {
			t.Errorf("growStack(%d) = %d, want 0", i, got)
		}
	}
}
