package bench

import (
	"strings"
	"testing"
)

// TestRejections computes the rejection table and checks its shape: every
// library ran every case, and every library passes the plain valid call (so
// a "rejects" elsewhere is about the arguments, not a broken adapter).
func TestRejections(t *testing.T) {
	tab, err := Rejections()
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.JSON) != len(Cases) || len(tab.Map) != len(Cases) {
		t.Fatalf("Rejections() has %d/%d rows, want %d", len(tab.JSON), len(tab.Map), len(Cases))
	}
	for ci, c := range Cases {
		for i, p := range tab.Peers {
			if tab.JSON[ci][i] == NotRun {
				t.Errorf("%s, %s: JSON form not run", p, c.Name)
			}
			if c.NoMap != (tab.Map[ci][i] == NotRun) {
				t.Errorf("%s, %s: map form run = %v, want %v", p, c.Name, tab.Map[ci][i] != NotRun, !c.NoMap)
			}
			if c.Name == "valid" && (tab.JSON[ci][i] != Passed || tab.Map[ci][i] != Passed) {
				t.Errorf("%s: valid call = %v (JSON), %v (map), want ok", p, tab.JSON[ci][i], tab.Map[ci][i])
			}
		}
	}
	md := tab.Markdown()
	if got, want := strings.Count(md, "\n"), len(Cases)+4; got != want {
		t.Errorf("Markdown() has %d lines, want %d:\n%s", got, want, md)
	}
	if testing.Verbose() {
		t.Log("\n" + md)
	}
}
