package adapters

import (
	"strconv"
	"testing"
)

// TestCallIDs: the set of call ids finds every id added, before and after
// it moves from its first few to a map, and no other.
func TestCallIDs(t *testing.T) {
	for _, hint := range []int{0, 3, 40} {
		ids := callIDs{hint: hint}
		for i := range 20 {
			id := "call_" + strconv.Itoa(i)
			if ids.has(id) {
				t.Fatalf("hint %d: %s found before it was added", hint, id)
			}
			ids.add(id)
			for j := range i + 1 {
				if !ids.has("call_" + strconv.Itoa(j)) {
					t.Fatalf("hint %d: after %d ids, call_%d is not found", hint, i+1, j)
				}
			}
			if ids.has("call_" + strconv.Itoa(i+1)) {
				t.Fatalf("hint %d: after %d ids, call_%d is found", hint, i+1, i+1)
			}
		}
	}
	p := ReplyLimits{}.parser(NameOpenAI)
	ids := callIDs{}
	for i := range 12 {
		if err := p.uniqueID(&ids, pointer("/x"), "id"+strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	for _, dup := range []string{"id0", "id7", "id8", "id11"} {
		if err := p.uniqueID(&ids, pointer("/x"), dup); err == nil {
			t.Errorf("%s given twice: no error", dup)
		}
	}
}
