package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/bench"
)

func TestParseMedian(t *testing.T) {
	out := []byte(`goos: linux
cpu: Some CPU
BenchmarkExecute/map/eino_InferTool-2   	  21752	     10778 ns/op	    1559 B/op	      34 allocs/op
BenchmarkExecute/map/eino_InferTool-2   	  21752	     30000 ns/op	    1559 B/op	      34 allocs/op
BenchmarkExecute/map/eino_InferTool-2   	  21752	     20000 ns/op	    1559 B/op	      34 allocs/op
BenchmarkExecute/json/toolnexus-2       	  63192	      3920 ns/op	  67.34 MB/s	     400 B/op	      13 allocs/op
PASS
`)
	r := results{}
	if cpu := r.parse(out); cpu != "Some CPU" {
		t.Errorf("parse() cpu = %q, want %q", cpu, "Some CPU")
	}
	m, ok := r.median(benchName("Execute", "map", "eino InferTool"))
	if !ok || m.ns != 20000 || m.allocs != 34 || m.bytes != 1559 {
		t.Errorf("median(eino) = %+v, %v; want 20000 ns, 34 allocs, 1559 B", m, ok)
	}
	if m, ok := r.median("Execute/json/toolnexus"); !ok || m.ns != 3920 || m.allocs != 13 {
		t.Errorf("median(toolnexus) = %+v, %v; want 3920 ns, 13 allocs (MB/s skipped)", m, ok)
	}
}

func TestRewrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	before := "# T\n\nintro\n\n" + startMarker + "\nold\n" + endMarker + "\n\nafter\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	section := startMarker + "\nnew\n" + endMarker + "\n"
	if err := rewrite(path, section); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := "# T\n\nintro\n\n" + startMarker + "\nnew\n" + endMarker + "\n\nafter\n"
	if string(got) != want {
		t.Errorf("rewrite() = %q, want %q", got, want)
	}
	if err := os.WriteFile(path, []byte("no markers"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rewrite(path, section); err == nil || !strings.Contains(err.Error(), "markers") {
		t.Errorf("rewrite(no markers) = %v, want an error about the markers", err)
	}
}

// TestRunScenarioPerCall: a batch's row shows time, allocations and bytes
// per call, and its ratio is to one ExecuteJSON.
func TestRunScenarioPerCall(t *testing.T) {
	res := results{
		benchExec:                   {{ns: 500, allocs: 2, bytes: 18}},
		benchRun(8):                 {{ns: 8000, allocs: 20, bytes: 840}},
		benchRun(1):                 {{ns: 1400, allocs: 5, bytes: 300}},
		benchGoroutine:              {{ns: 1000, allocs: 3, bytes: 60}},
		"Batch/Toolkit.ExecuteJSON": {{ns: 550, allocs: 2, bytes: 18}},
	}
	var b strings.Builder
	if m := writeScenario(&b, res, nil, runScenario()); len(m) != 0 {
		t.Errorf("writeScenario misses = %v, want none (no peers)", m)
	}
	for _, want := range []string{
		"| What | time/call | × ExecuteJSON | allocs/call | B/call |",
		"| **`Run`, batch of 8** | 1.00 µs | 2.00× | 2.5 | 105 |",
		"| **`Run`, batch of 1** | 1.40 µs | 2.80× | 5 | 300 |",
		"| **`Run`, batch of 64** | - | - | - | - |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 10: "10", 999: "999", 1000: "1,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestAgentMisses: a batch of one over ExecuteJSON + 1 µs, and a lookup
// that grows, are misses explained by the run's own measurements; within
// the targets there is no miss.
func TestAgentMisses(t *testing.T) {
	res := results{
		benchExec:              {{ns: 500}},
		benchRun(1):            {{ns: 4500}},
		benchGoroutine:         {{ns: 2500}},
		benchGet("hit", 10):    {{ns: 40}},
		benchGet("hit", 1000):  {{ns: 100}},
		benchGet("miss", 10):   {{ns: 25}},
		benchGet("miss", 1000): {{ns: 30}},
	}
	got := agentMisses(res)
	if len(got) != 2 {
		t.Fatalf("agentMisses = %v, want 2 misses", got)
	}
	for _, want := range []string{"costs 4.00 µs over one", "costs 2.00 µs over the call (50% of Run's overhead)", "the other 2.00 µs"} {
		if !strings.Contains(got[0].String(), want) {
			t.Errorf("miss %q lacks %q", got[0], want)
		}
	}
	for _, want := range []string{"2.50× as long at 1,000 tools", "takes 25 ns at 10 tools and 30 ns at 1,000 (1.20×)"} {
		if !strings.Contains(got[1].String(), want) {
			t.Errorf("miss %q lacks %q", got[1], want)
		}
	}
	// A goroutine floor above Run itself (noise) is said to be so.
	res[benchGoroutine] = []sample{{ns: 5000}}
	if got := agentMisses(res); len(got) != 2 || !strings.Contains(got[0].String(), "(100% of Run's overhead)") || !strings.Contains(got[0].String(), "within the noise") {
		t.Errorf("agentMisses with the floor above Run = %v, want 100%% and the noise named", got)
	}
	res[benchRun(1)] = []sample{{ns: 1400}}
	res[benchGet("hit", 1000)] = []sample{{ns: 60}}
	if got := agentMisses(res); len(got) != 0 {
		t.Errorf("agentMisses within the targets = %v, want none", got)
	}
}

// TestPeerWhy: a peer's lead is explained by the bad calls it lets
// through and by both allocation counts.
func TestPeerWhy(t *testing.T) {
	rej := &bench.RejectionTable{
		Peers: []string{bench.NameToolnexus, bench.NameEino},
		Cases: []bench.Case{{Valid: false}, {Valid: false}, {Valid: true}},
		JSON:  [][]bench.Outcome{{bench.Rejected, bench.Rejected}, {bench.Rejected, bench.LetThrough}, {bench.Passed, bench.Passed}},
		Map:   [][]bench.Outcome{{bench.Rejected, bench.NotRun}, {bench.Rejected, bench.LetThrough}, {bench.Passed, bench.Passed}},
	}
	got := peerWhy(rej, true, bench.NameEino, sample{allocs: 30, bytes: 1500}, sample{allocs: 13, bytes: 400})
	want := "eino InferTool rejects 1 of the 3 bad calls of the table below, toolnexus 4; eino InferTool makes 30 allocations (1500 B), toolnexus 13 (400 B)."
	if got != want {
		t.Errorf("peerWhy =\n%s\nwant\n%s", got, want)
	}
	// Defining a tool checks no call: only the allocations are measured.
	got = peerWhy(rej, false, bench.NameEino, sample{allocs: 224, bytes: 18400}, sample{allocs: 650, bytes: 73870})
	want = "eino InferTool makes 224 allocations (18400 B), toolnexus 650 (73870 B)."
	if got != want {
		t.Errorf("peerWhy without checks =\n%s\nwant\n%s", got, want)
	}
}
