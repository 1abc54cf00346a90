package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	path := filepath.Join(t.TempDir(), "benchmarks.md")
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

// TestDocHasMarkers: the file `make bench-peers` rewrites by default holds
// the two markers, in order, so that a run does not end in an error after
// its long measurements.
func TestDocHasMarkers(t *testing.T) {
	// The default path is relative to the bench module, two levels up.
	data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(*docPath)))
	if err != nil {
		t.Fatal(err)
	}
	start, end := strings.Index(string(data), startMarker), strings.Index(string(data), endMarker)
	if start < 0 || end < start {
		t.Errorf("%s has no %q ... %q section", *docPath, startMarker, endMarker)
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

// TestRowPattern: each level of the name is quoted and anchored, the name's
// own slashes included.
func TestRowPattern(t *testing.T) {
	for name, want := range map[string]string{
		"Execute/json/encoding/json":                `^BenchmarkExecute$/^json$/^encoding$/^json$`,
		"Define/again/go-sdk_AddTool_+_SchemaCache": `^BenchmarkDefine$/^again$/^go-sdk_AddTool_\+_SchemaCache$`,
		"Batch/Tool.ExecuteJSON":                    `^BenchmarkBatch$/^Tool\.ExecuteJSON$`,
		"Lookup/Get/hit/tools=1000":                 `^BenchmarkLookup$/^Get$/^hit$/^tools=1000$`,
		"Render/openai-responses/copy":              `^BenchmarkRender$/^openai-responses$/^copy$`,
	} {
		if got := rowPattern(name); got != want {
			t.Errorf("rowPattern(%q) = %s, want %s", name, got, want)
		}
	}
}

// rowsFixture, when set, makes the Benchmark functions below stand in for
// the real ones: TestRowPatternSelectsOneRow runs this test binary with it.
const rowsFixture = "README_ROWS_FIXTURE"

// fixtureExtra are sub-benchmarks of the real binaries that no table shows,
// and a top-level benchmark whose name extends one of the tables': a row's
// pattern must not select them either.
var fixtureExtra = []string{
	"Batch/Run/sequential/calls=1",
	"Batch/Run/sequential/calls=8",
	"DefineDistinct/first/toolnexus",
}

// fakeRows runs an empty sub-benchmark for every row of the tables (and
// fixtureExtra) under top. The real benchmarks name their rows with spaces
// ("json/eino InferTool") and go test reports them with underscores, as
// benchName writes them; no real name has an underscore of its own, so the
// fixture turns them back into spaces.
func fakeRows(b *testing.B, top string) {
	if os.Getenv(rowsFixture) == "" {
		b.Skip("a fixture of TestRowPatternSelectsOneRow")
	}
	names := fixtureExtra
	for _, s := range scenarios() {
		for _, r := range s.rows {
			names = append(names, r.bench)
		}
	}
	for _, name := range names {
		if rest, ok := strings.CutPrefix(name, top+"/"); ok {
			b.Run(strings.ReplaceAll(rest, "_", " "), func(b *testing.B) {
				for b.Loop() {
				}
			})
		}
	}
}

func BenchmarkExecute(b *testing.B)        { fakeRows(b, "Execute") }
func BenchmarkDefine(b *testing.B)         { fakeRows(b, "Define") }
func BenchmarkDefineDistinct(b *testing.B) { fakeRows(b, "DefineDistinct") }
func BenchmarkRender(b *testing.B)         { fakeRows(b, "Render") }
func BenchmarkBatch(b *testing.B)          { fakeRows(b, "Batch") }
func BenchmarkLookup(b *testing.B)         { fakeRows(b, "Lookup") }

// TestRowPatternSelectsOneRow runs this test binary, whose benchmarks have
// the real binaries' row names, with each row's pattern: go test must run
// that row and nothing else.
func TestRowPatternSelectsOneRow(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary once per row")
	}
	rows := 0
	for _, s := range scenarios() {
		for _, r := range s.rows {
			rows++
			cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench="+rowPattern(r.bench), "-test.benchtime=1x")
			// Under -race, a process sleeps 1 s at exit unless told not to.
			cmd.Env = append(os.Environ(), rowsFixture+"=1", "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", r.bench, err, out)
			}
			got := results{}
			got.parse(out)
			if len(got) != 1 || len(got[r.bench]) != 1 {
				t.Errorf("-test.bench=%s ran %v, want %s alone\n%s", rowPattern(r.bench), slices.Sorted(maps.Keys(got)), r.bench, out)
			}
		}
	}
	if rows < 50 {
		t.Errorf("the tables have %d rows, want at least 50", rows)
	}
}

// TestSchedule: every round runs every row of the tables once, in table
// order, first definitions apart; the root package's rows are marked.
func TestSchedule(t *testing.T) {
	tables := []scenario{
		{rows: []row{{bench: "A"}, {bench: "B"}, {bench: "C"}}},
		{fresh: true, rows: []row{{bench: "F"}}},
		{root: true, rows: []row{{bench: "D"}, {bench: "E"}}},
		{rows: []row{{bench: "B"}}}, // shown twice, run once
	}
	var got []string
	for _, j := range schedule(tables, 3) {
		name := j.bench
		if j.root {
			name += "(root)"
		}
		got = append(got, name)
	}
	want := strings.Fields(strings.Repeat("A B C D(root) E(root) ", 3))
	if !slices.Equal(got, want) {
		t.Errorf("schedule = %v, want %v", got, want)
	}
	// The real tables: a round is every row but the first definitions'.
	all := scenarios()
	round := 0
	for _, s := range all {
		if !s.fresh {
			round += len(s.rows)
		}
	}
	if jobs := schedule(all, 2); len(jobs) != 2*round || jobs[0] != jobs[round] || jobs[0].bench != "Execute/map/hand-written" {
		t.Errorf("schedule(scenarios(), 2) has %d jobs starting %v, want 2 rounds of %d starting at Execute/map/hand-written", len(jobs), jobs[0], round)
	}
	for _, j := range schedule(all, 1) {
		if strings.HasPrefix(j.bench, "Define/first/") {
			t.Errorf("schedule runs %s in a round; first definitions run apart", j.bench)
		}
		if root := strings.HasPrefix(j.bench, "Batch/") || strings.HasPrefix(j.bench, "Lookup/"); j.root != root {
			t.Errorf("job %s: root = %v, want %v", j.bench, j.root, root)
		}
	}
}

// TestHeader: the section says how the samples were taken.
func TestHeader(t *testing.T) {
	got := header("Some CPU")
	for _, want := range []string{"Medians of 5 rounds", ", Some CPU.", "every row ran alone in a process of its own (`-benchtime 500ms`)", "the rows of a table one after another"} {
		if !strings.Contains(got, want) {
			t.Errorf("header lacks %q: %s", want, got)
		}
	}
}

// TestNotesFor: a note is given once for the misses it matches, and a miss
// that no note matches (Run's, which carries its own measurements) gives
// none, so the section prints no empty "Why:".
func TestNotesFor(t *testing.T) {
	run := miss{text: "`Toolkit.Run` of one call costs 2.78 µs over one `Tool.ExecuteJSON` (target 1 µs)."}
	if got := notesFor([]miss{run}); len(got) != 0 {
		t.Errorf("notesFor(Run's miss) = %q, want none", got)
	}
	eino := miss{text: "Execute from JSON text: " + bench.NameEino + " is faster than toolnexus"}
	mapMiss := miss{text: "Execute from a map is 1.60× the hand-written floor (target 1.5×)."}
	got := notesFor([]miss{mapMiss, run, eino, eino})
	if len(got) != 2 || !strings.Contains(got[0], "bytedance/sonic") || !strings.Contains(got[1], "hand-written decoder knows the type") {
		t.Errorf("notesFor = %q, want eino's note then the map floor's", got)
	}
}
