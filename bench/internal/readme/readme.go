// Command readme runs the peer benchmarks and the rejection table of the
// bench module and rewrites the section of docs/benchmarks.md between the
// markers
//
//	<!-- bench-peers:start -->
//	<!-- bench-peers:end -->
//
// with tables of medians and ratios to the floor, in the manner of zap's
// internal/readme. It is `make bench-peers`; run it from the bench module:
//
//	go run ./internal/readme -doc ../docs/benchmarks.md
//
// The test binaries are compiled once: the bench module's, and the root
// package's for the Toolkit.Run and lookup tables (BenchmarkBatch and
// BenchmarkLookup, which have no peer). Every row of the Execute, Render,
// Define/again, Batch and Lookup tables is measured -count times, each time
// in a process of its own with -test.count=1, so that no row shares a heap,
// a GC pace or caches with another; the rows run in rounds, every table's
// rows in turn within a round, and the tables show the medians over the
// rounds. Define/first needs a type the library has never seen per
// iteration, from a generated pool, so each of its samples is a separate
// process with -benchtime=100x.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolnexus/toolnexus/bench"
)

const (
	startMarker = "<!-- bench-peers:start -->"
	endMarker   = "<!-- bench-peers:end -->"
)

var (
	docPath   = flag.String("doc", "../docs/benchmarks.md", "Markdown file to rewrite between the markers")
	count     = flag.Int("count", 5, "rounds: samples per row, each a process of its own (the tables show medians)")
	benchtime = flag.String("benchtime", "500ms", "-benchtime of each row's process (all but Define/first)")
	dryRun    = flag.Bool("n", false, "print the section instead of writing the file")
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("readme: ")
	flag.Parse()
	if *count < 1 {
		log.Fatal("-count must be at least 1")
	}
	section, err := run()
	if err != nil {
		log.Fatal(err)
	}
	if *dryRun {
		fmt.Print(section)
		return
	}
	if err := rewrite(*docPath, section); err != nil {
		log.Fatal(err)
	}
	log.Printf("rewrote %s", *docPath)
}

func run() (string, error) {
	tmp, err := os.MkdirTemp("", "bench-peers")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	bin, rootBin := filepath.Join(tmp, "bench.test"), filepath.Join(tmp, "toolnexus.test")
	log.Print("compiling the benchmarks")
	if err := command("go", "test", "-c", "-o", bin, ".").Run(); err != nil {
		return "", fmt.Errorf("go test -c: %w", err)
	}
	// Toolkit.Run and lookup have no peer: they are the root package's own
	// benchmarks (bench_run_test.go), compiled in the root module.
	compileRoot := command("go", "test", "-c", "-o", rootBin, ".")
	compileRoot.Dir = ".."
	if err := compileRoot.Run(); err != nil {
		return "", fmt.Errorf("go test -c (root package): %w", err)
	}

	res := results{}
	var cpu string
	all := scenarios()
	jobs := schedule(all, *count)
	perRound := len(jobs) / *count
	began := time.Now()
	for i, j := range jobs {
		if i%perRound == 0 {
			log.Printf("round %d of %d: %d rows, one process each (-benchtime %s); %s so far",
				i/perRound+1, *count, perRound, *benchtime, time.Since(began).Round(time.Second))
		}
		b := bin
		if j.root {
			b = rootBin
		}
		out, err := output(command(b, "-test.run=^$", "-test.bench="+rowPattern(j.bench),
			"-test.benchmem", "-test.count=1", "-test.benchtime="+*benchtime))
		if err != nil {
			return "", err
		}
		got := results{}
		if c := got.parse(out); c != "" {
			cpu = c
		}
		if len(got) != 1 || len(got[j.bench]) != 1 {
			os.Stderr.Write(out)
			return "", fmt.Errorf("-test.bench=%s ran %d benchmarks, want %s alone", rowPattern(j.bench), len(got), j.bench)
		}
		res[j.bench] = append(res[j.bench], got[j.bench]...)
	}
	log.Printf("running Define/first (%d processes, -benchtime 100x)", *count)
	for range *count {
		out, err := output(command(bin, "-test.run=^$", "-test.bench=^BenchmarkDefine$/^first$",
			"-test.benchmem", "-test.count=1", "-test.benchtime=100x"))
		if err != nil {
			return "", err
		}
		res.parse(out)
	}
	log.Printf("benchmarks done in %s", time.Since(began).Round(time.Second))
	rej, err := bench.Rejections()
	if err != nil {
		return "", err
	}
	return render(all, res, rej, cpu), nil
}

// job is one process of a round: one row's benchmark, alone.
type job struct {
	bench string // the row's benchmark name, as results keys it
	root  bool   // a benchmark of the root package, not of the bench module
}

// schedule lists the processes of every round in the order they run:
// round after round, and within a round every table's rows in turn
// (A B C ... then A B C ...), so a slow moment of a shared machine hits the
// rows of a round alike rather than one row's samples. Tables of first
// definitions are left out: each of their samples is a process of its own
// with -benchtime=100x, run apart. A row that two tables show runs once.
func schedule(tables []scenario, rounds int) []job {
	var round []job
	seen := map[string]bool{}
	for _, s := range tables {
		if s.fresh {
			continue
		}
		for _, r := range s.rows {
			if !seen[r.bench] {
				seen[r.bench] = true
				round = append(round, job{bench: r.bench, root: s.root})
			}
		}
	}
	var jobs []job
	for range rounds {
		jobs = append(jobs, round...)
	}
	return jobs
}

// rowPattern is the -test.bench pattern that selects the benchmark name
// (as results keys it, without the Benchmark prefix) and nothing else.
// go test splits the pattern at slashes outside brackets and parentheses and
// matches each piece against one level of the name, the name's own slashes
// included ("Execute/json/encoding/json" is four levels); each level is
// quoted and anchored so that a row never also selects a longer name
// ("go-sdk AddTool" and "go-sdk AddTool + full schema").
func rowPattern(name string) string {
	levels := strings.Split("Benchmark"+name, "/")
	for i, l := range levels {
		levels[i] = "^" + regexp.QuoteMeta(l) + "$"
	}
	return strings.Join(levels, "/")
}

func command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	return cmd
}

func output(cmd *exec.Cmd) ([]byte, error) {
	out, err := cmd.Output()
	if err != nil {
		os.Stderr.Write(out)
		return nil, fmt.Errorf("%s: %w", strings.Join(cmd.Args, " "), err)
	}
	if bytes.Contains(out, []byte("--- SKIP")) || bytes.Contains(out, []byte("--- FAIL")) {
		os.Stderr.Write(out)
		return nil, errors.New("a benchmark was skipped or failed")
	}
	return out, nil
}

// sample is one benchmark result line.
type sample struct{ ns, bytes, allocs float64 }

// results maps a benchmark's name without the Benchmark prefix and the
// -GOMAXPROCS suffix ("Execute/map/toolnexus") to its samples.
type results map[string][]sample

// parse adds the result lines of go test -bench output and returns the
// cpu: line.
func (r results) parse(out []byte) (cpu string) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if c, ok := strings.CutPrefix(line, "cpu: "); ok {
			cpu = strings.TrimSpace(c)
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := strings.TrimPrefix(f[0], "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		var s sample
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				s.ns = v
			case "B/op":
				s.bytes = v
			case "allocs/op":
				s.allocs = v
			}
		}
		r[name] = append(r[name], s)
	}
	return cpu
}

// median returns the median sample of a benchmark, field by field.
func (r results) median(name string) (sample, bool) {
	ss := r[name]
	if len(ss) == 0 {
		return sample{}, false
	}
	med := func(get func(sample) float64) float64 {
		vs := make([]float64, len(ss))
		for i, s := range ss {
			vs[i] = get(s)
		}
		slices.Sort(vs)
		if n := len(vs); n%2 == 0 {
			return (vs[n/2-1] + vs[n/2]) / 2
		}
		return vs[len(vs)/2]
	}
	return sample{
		ns:     med(func(s sample) float64 { return s.ns }),
		bytes:  med(func(s sample) float64 { return s.bytes }),
		allocs: med(func(s sample) float64 { return s.allocs }),
	}, true
}

// benchName is the name testing gives a sub-benchmark (spaces become
// underscores).
func benchName(parts ...string) string {
	return strings.ReplaceAll(strings.Join(parts, "/"), " ", "_")
}

func duration(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

func ratio(x, base float64) string {
	if base == 0 {
		return "-"
	}
	r := x / base
	if r >= 10 {
		return fmt.Sprintf("%.0f×", r)
	}
	return fmt.Sprintf("%.2f×", r)
}

// row is one library in one scenario.
type row struct {
	label, bench string
	floor, ours  bool
	calls        float64 // the benchmark's op is a batch of calls: the table shows per call
}

// scenario is one table.
type scenario struct {
	title, intro, baseLabel string
	unit                    string // "op" unless the table shows per call
	rows                    []row
	noPeers                 bool // toolnexus's rows only: no row is a peer to beat
	checks                  bool // a peer's lead is explained by the bad calls it lets through
	root                    bool // the root package's benchmarks, not the bench module's
	fresh                   bool // first definitions: samples of -benchtime=100x, run apart
}

// median returns the median of r's benchmark, per call when its op is a
// batch.
func (r row) median(res results) (sample, bool) {
	m, ok := res.median(r.bench)
	if ok && r.calls > 1 {
		m.ns /= r.calls
		m.bytes /= r.calls
		m.allocs /= r.calls
	}
	return m, ok
}

var peerNames = []string{bench.NameEino, bench.NameMCPGo, bench.NameGoSDK, bench.NameGoSDKSchema, bench.NameGenkit}

func executeScenario(form, floorBench, floorLabel, intro string) scenario {
	s := scenario{title: "Execute from " + form, intro: intro, baseLabel: "floor", checks: true}
	key := "map"
	if form == "JSON text" {
		key = "json"
	}
	s.rows = append(s.rows, row{label: floorLabel, bench: floorBench, floor: true})
	s.rows = append(s.rows, row{label: bench.NameToolnexus, bench: benchName("Execute", key, bench.NameToolnexus), ours: true})
	if key == "map" {
		s.rows = append(s.rows, row{label: "encoding/json round trip (no validation)", bench: benchName("Execute", key, bench.NameJSON)})
	}
	for _, p := range peerNames {
		s.rows = append(s.rows, row{label: p, bench: benchName("Execute", key, p)})
	}
	return s
}

func defineScenario(which, title, intro string) scenario {
	s := scenario{title: title, intro: intro, baseLabel: "toolnexus", fresh: which == "first"}
	s.rows = append(s.rows, row{label: bench.NameToolnexus, bench: benchName("Define", which, bench.NameToolnexus), ours: true, floor: true})
	for _, p := range []string{bench.NameEino, bench.NameMCPGo, bench.NameGoSDK, bench.NameGoSDK + " + SchemaCache", bench.NameGenkit} {
		s.rows = append(s.rows, row{label: p, bench: benchName("Define", which, p)})
	}
	return s
}

func renderScenarios() []scenario {
	providers := []struct{ key, title string }{
		{"openai", "OpenAI Chat Completions"},
		{"openai-responses", "OpenAI Responses"},
		{"anthropic", "Anthropic"},
		{"gemini", "Gemini"},
		{"bedrock", "Bedrock Converse"},
		{"mcp", "MCP tools/list"},
	}
	peers := map[string][]string{
		"openai": {bench.NameEino, bench.NameGenkit},
		"mcp":    {bench.NameMCPGo, bench.NameGoSDK},
	}
	var out []scenario
	for _, p := range providers {
		s := scenario{title: "Render 128 tools: " + p.title, baseLabel: "floor"}
		s.rows = append(s.rows, row{label: "copy pre-rendered bytes", bench: benchName("Render", p.key, "copy"), floor: true})
		s.rows = append(s.rows, row{label: bench.NameToolnexus, bench: benchName("Render", p.key, bench.NameToolnexus), ours: true})
		for _, peer := range peers[p.key] {
			s.rows = append(s.rows, row{label: peer, bench: benchName("Render", p.key, peer)})
		}
		out = append(out, s)
	}
	return out
}

// scenarios are the tables of the section, in order.
func scenarios() []scenario {
	all := []scenario{
		executeScenario("a map", "Execute/map/hand-written", "hand-written decoder (floor)",
			"Arguments already parsed into a map (Gemini, Anthropic). Peers that take only JSON text marshal the map inside the timed call."),
		executeScenario("JSON text", benchName("Execute", "json", bench.NameJSON), "encoding/json.Unmarshal, no validation (floor)",
			"Arguments as JSON text (OpenAI, MCP)."),
		defineScenario("first", "Define a tool, first time for its type",
			"Each iteration defines a tool for a Go type the library has not seen (the nested struct type is shared). No floor: ratios are to toolnexus."),
		defineScenario("again", "Define a tool again, for a type already seen", "No floor: ratios are to toolnexus."),
	}
	all = append(all, renderScenarios()...)
	return append(all, runScenario(), lookupScenario())
}

// header is the section's first sentence: how the samples were taken.
func header(cpu string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Medians of %d rounds, %s, %s/%s", *count, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if cpu != "" {
		fmt.Fprintf(&b, ", %s", cpu)
	}
	fmt.Fprintf(&b, ". In each round every row ran alone in a process of its own (`-benchtime %s`), "+
		"the rows of a table one after another, so no row shares a heap with another and a slow moment of the machine "+
		"hits every row of a round alike; a first definition's sample is a process of 100 definitions. "+
		"Ratios are to the first row of each table; absolute times depend on the machine, ratios much less.\n\n", *benchtime)
	return b.String()
}

func render(all []scenario, res results, rej *bench.RejectionTable, cpu string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n<!-- Generated by `make bench-peers` (bench/internal/readme); do not edit. -->\n\n", startMarker)
	b.WriteString(header(cpu))

	var misses []miss
	for _, s := range all {
		m := writeScenario(&b, res, rej, s)
		misses = append(misses, m...)
	}
	misses = append(misses, agentMisses(res)...)

	b.WriteString("## Which bad arguments each library rejects\n\n")
	b.WriteString("The argument cases of the core issue's call tests, on `Booking` (bench/rejections.go); " +
		"each library gets the constraints in the struct tags it reads, and go-sdk also a hand-written schema " +
		"(toolnexus's). \"lets through\" means the function was called with the bad arguments.\n\n")
	b.WriteString(rej.Markdown())
	b.WriteString("\n")
	ourRej, bad, _, _ := rej.Score(0)
	for i, p := range rej.Peers[1:] {
		if r, _, _, _ := rej.Score(i + 1); r >= ourRej {
			misses = append(misses, miss{text: fmt.Sprintf("%s rejects %d of %d bad calls, toolnexus %d.", p, r, bad, ourRej)})
		}
	}

	b.WriteString("## Targets\n\n")
	b.WriteString("toolnexus is to be the fastest library on every row while rejecting more bad arguments than any, " +
		"Execute from a map within 1.5× the hand-written floor, a `Toolkit.Run` of one call within one " +
		"`Tool.ExecuteJSON` plus 1 µs, and `Toolkit.Get` in constant time.\n\n")
	floor, _ := res.median("Execute/map/hand-written")
	ours, _ := res.median(benchName("Execute", "map", bench.NameToolnexus))
	if floor.ns > 0 && ours.ns/floor.ns > 1.5 {
		misses = append(misses, miss{
			text: fmt.Sprintf("Execute from a map is %.2f× the hand-written floor (target 1.5×).", ours.ns/floor.ns),
			why: fmt.Sprintf("the floor makes %s allocations (%s B), toolnexus %s (%s B).",
				amount(floor.allocs), amount(floor.bytes), amount(ours.allocs), amount(ours.bytes)),
		})
	}
	if len(misses) == 0 {
		b.WriteString("All met in this run.\n")
	} else {
		b.WriteString("Missed in this run:\n\n")
		for _, m := range misses {
			fmt.Fprintf(&b, "- %s\n", m)
		}
		if notes := notesFor(misses); len(notes) > 0 {
			b.WriteString("\nWhy:\n\n")
			for _, n := range notes {
				fmt.Fprintf(&b, "- %s\n", n)
			}
		}
	}
	b.WriteString("\n" + renderNote)
	fmt.Fprintf(&b, "\n%s\n", endMarker)
	return b.String()
}

// Names of the root package's benchmarks (bench_run_test.go).
const (
	benchExec      = "Batch/Tool.ExecuteJSON"
	benchGoroutine = "Batch/goroutine"
)

func benchRun(calls int) string { return "Batch/Run/parallel/calls=" + strconv.Itoa(calls) }

func benchGet(kind string, tools int) string {
	if kind == "unknown" {
		return "Lookup/ExecuteJSON/unknown/tools=" + strconv.Itoa(tools)
	}
	return "Lookup/Get/" + kind + "/tools=" + strconv.Itoa(tools)
}

// runScenario is Toolkit.Run on batches of a trivial tool, per call,
// against one Tool.ExecuteJSON of it.
func runScenario() scenario {
	s := scenario{
		title: "What an agent turn costs beyond its tools: `Toolkit.Run`",
		intro: "A trivial tool (one string argument, returned), so the rows are the library's overhead; " +
			"times and allocations per call. The second row is the least a batch of one can cost " +
			"while the tool's code runs off the caller's goroutine (so that its runtime.Goexit cannot end it) " +
			"and no goroutine outlives the batch: the call decoded on the caller's goroutine, as Run does, " +
			"its handler run on a new goroutine, waited for. From the root package's BenchmarkBatch.",
		baseLabel: "ExecuteJSON", unit: "call", noPeers: true, root: true,
	}
	s.rows = []row{
		{label: "one `Tool.ExecuteJSON` (floor)", bench: benchExec, floor: true},
		{label: "the same call, its handler on a new goroutine, waited for", bench: benchGoroutine},
		{label: "`Toolkit.ExecuteJSON` (lookup and call)", bench: "Batch/Toolkit.ExecuteJSON"},
	}
	for _, n := range []int{1, 8, 64} {
		s.rows = append(s.rows, row{label: fmt.Sprintf("`Run`, batch of %d", n), bench: benchRun(n), ours: true, calls: float64(n)})
	}
	s.rows = append(s.rows, row{label: "`Run` with `WithParallelism(1)`, batch of 64", bench: "Batch/Run/sequential/calls=64", calls: 64})
	s.rows = append(s.rows, row{label: "`Run`, batch of 1, on a context that can be done", bench: "Batch/Run/cancellable/calls=1"})
	return s
}

// lookupScenario is finding a tool by name in toolkits of 10, 100 and
// 1,000 tools.
func lookupScenario() scenario {
	s := scenario{
		title: "What an agent turn costs beyond its tools: finding a tool by name",
		intro: "Toolkits of 10, 100 and 1,000 trivial tools; present names are visited in turn. " +
			"An unknown name's error names the 5 closest tools and counts the others. From the root package's BenchmarkLookup.",
		baseLabel: "Get, 10 tools", noPeers: true, root: true,
	}
	for _, k := range []struct{ kind, label string }{
		{"hit", "`Toolkit.Get`, a present name"},
		{"miss", "`Toolkit.Get`, an absent name"},
		{"unknown", "`Toolkit.ExecuteJSON`, an unknown name (error result)"},
	} {
		for _, n := range []int{10, 100, 1000} {
			s.rows = append(s.rows, row{label: fmt.Sprintf("%s, %s tools", k.label, thousands(n)), bench: benchGet(k.kind, n), ours: k.kind == "hit"})
		}
	}
	return s
}

// thousands formats n with a comma between thousands, as the docs do.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// agentMisses checks the targets of the Run and lookup tables and explains
// each miss with what this run measured.
func agentMisses(res results) []miss {
	var misses []miss
	exec, ok1 := res.median(benchExec)
	one, ok2 := res.median(benchRun(1))
	gor, ok3 := res.median(benchGoroutine)
	if ok1 && ok2 && one.ns-exec.ns > 1000 {
		m := miss{text: fmt.Sprintf("`Toolkit.Run` of one call costs %s over one `Tool.ExecuteJSON` (target 1 µs).", duration(one.ns-exec.ns))}
		if ok3 {
			rest := "Run's own bookkeeping is the other " + duration(one.ns-gor.ns) + "."
			if gor.ns >= one.ns {
				rest = "in this run that floor cost as much as Run itself, so Run's own bookkeeping is within the noise."
			}
			m.why = fmt.Sprintf("decoding the call here and running its handler on a new goroutine, waited for, costs %s over the call (%.0f%% of Run's overhead): "+
				"Run starts a worker goroutine per batch, so that a tool's runtime.Goexit never ends the caller's goroutine "+
				"and no goroutine outlives the batch; %s",
				duration(gor.ns-exec.ns), min(100, 100*(gor.ns-exec.ns)/(one.ns-exec.ns)), rest)
		}
		misses = append(misses, m)
	}
	hit10, ok1 := res.median(benchGet("hit", 10))
	hit1k, ok2 := res.median(benchGet("hit", 1000))
	miss10, ok3 := res.median(benchGet("miss", 10))
	miss1k, ok4 := res.median(benchGet("miss", 1000))
	if ok1 && ok2 && hit1k.ns > 2*hit10.ns {
		m := miss{text: fmt.Sprintf("`Toolkit.Get` of a present name takes %.2f× as long at 1,000 tools as at 10 (target: constant time).", hit1k.ns/hit10.ns)}
		if ok3 && ok4 {
			m.why = fmt.Sprintf("an absent name, which hashes the name and probes the map without reading a tool, "+
				"takes %s at 10 tools and %s at 1,000 (%.2f×); the rest of the growth is reading 1,000 tools' state "+
				"that no longer fits in the CPU caches.", duration(miss10.ns), duration(miss1k.ns), miss1k.ns/miss10.ns)
		}
		misses = append(misses, m)
	}
	return misses
}

// whyNotes explain the misses these tables have shown; a note is printed
// when a miss contains its match.
var whyNotes = []struct{ match, text string }{
	{"Execute from JSON text: " + bench.NameEino, `eino decodes JSON text with bytedance/sonic, a JIT-compiled decoder, and
  checks nothing but JSON syntax and Go types (no required, unknown-key,
  enum, bound or pattern checks: see the rejection table); toolnexus checks
  every rule of the schema while it decodes.`},
	{"Define a tool, first time", `defining a new type, toolnexus infers the schema with its own walk
  (plus swaggest/jsonschema-go's reflector when a type implements its
  interfaces), validates every tag value, compiles each pattern and builds the decode
  plan; eino
  and mcp-go only infer a schema. A second definition of
  the type is served from toolnexus's caches.`},
	{"Define a tool again", `a second DefineTool of a type finds the schema and decode plan in
  toolnexus's caches but still clones the cached schema and marshals it to
  JSON (most of its time in a CPU profile); eino has no cache but only
  reflects a schema.`},
	{"Execute from a map is", `the hand-written decoder knows the type at compile time; toolnexus walks
  a generic decode plan: per-field map lookups and the generic slice path
  are most of its time in a CPU profile, and it allocates more.`},
}

// notesFor returns the whyNotes that explain some of the misses, in
// whyNotes order; a miss that carries its own measurements may have none.
func notesFor(misses []miss) []string {
	var notes []string
	for _, n := range whyNotes {
		for _, m := range misses {
			if strings.Contains(m.text, n.match) {
				notes = append(notes, n.text)
				break
			}
		}
	}
	return notes
}

// renderNote is printed under the targets: the render floor is not a peer.
const renderNote = "Render rows time the adapters' `ToX` over cached renderings (each tool rendered once per provider; " +
	"a render looks 128 of them up and checks their names are unique) and `adapters.AppendJSON` of the result, " +
	"which sizes the request's tools bytes once and copies 128 pieces into them. " +
	"`json.Marshal` of the same typed values gives the same bytes, several times slower: " +
	"encoding/json re-validates and compacts every pre-rendered `json.RawMessage`.\n"

// miss is a target this run missed, and the measurements that explain it.
type miss struct{ text, why string }

func (m miss) String() string {
	if m.why == "" {
		return m.text
	}
	return m.text + " Measured: " + m.why
}

// amount formats a per-op count: whole, or with one decimal when per call.
func amount(v float64) string {
	if v == float64(int64(v)) || v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

func writeScenario(b *strings.Builder, res results, rej *bench.RejectionTable, s scenario) (misses []miss) {
	fmt.Fprintf(b, "## %s\n\n", s.title)
	if s.intro != "" {
		fmt.Fprintf(b, "%s\n\n", s.intro)
	}
	unit := s.unit
	if unit == "" {
		unit = "op"
	}
	first := "Library"
	if s.noPeers {
		first = "What"
	}
	fmt.Fprintf(b, "| %s | time/%s | × %s | allocs/%s | B/%s |\n|---|--:|--:|--:|--:|\n", first, unit, s.baseLabel, unit, unit)
	base, _ := s.rows[0].median(res)
	var ours sample
	for _, r := range s.rows {
		if r.ours {
			ours, _ = r.median(res)
		}
	}
	for _, r := range s.rows {
		m, ok := r.median(res)
		label := r.label
		if r.ours {
			label = "**" + label + "**"
		}
		if !ok {
			fmt.Fprintf(b, "| %s | - | - | - | - |\n", label)
			continue
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", label, duration(m.ns), ratio(m.ns, base.ns), amount(m.allocs), amount(m.bytes))
		if !s.noPeers && !r.ours && !r.floor && ours.ns > 0 && m.ns < ours.ns {
			misses = append(misses, miss{
				text: fmt.Sprintf("%s: %s is faster than toolnexus (%s vs %s; toolnexus takes %.2f× as long).",
					s.title, r.label, duration(m.ns), duration(ours.ns), ours.ns/m.ns),
				why: peerWhy(rej, s.checks, r.label, m, ours),
			})
		}
	}
	b.WriteString("\n")
	return misses
}

// peerWhy gives the measurements behind a peer's lead: the bad calls it
// lets through that toolnexus rejects (when checks), and what each
// allocates.
func peerWhy(rej *bench.RejectionTable, checks bool, peer string, m, ours sample) string {
	var parts []string
	if checks && rej != nil {
		if i := slices.Index(rej.Peers, peer); i > 0 {
			r, bad, _, _ := rej.Score(i)
			ourR, _, _, _ := rej.Score(0)
			if r < ourR {
				parts = append(parts, fmt.Sprintf("%s rejects %d of the %d bad calls of the table below, toolnexus %d", peer, r, bad, ourR))
			}
		}
	}
	parts = append(parts, fmt.Sprintf("%s makes %s allocations (%s B), toolnexus %s (%s B)", peer, amount(m.allocs), amount(m.bytes), amount(ours.allocs), amount(ours.bytes)))
	return strings.Join(parts, "; ") + "."
}

// rewrite replaces the file's section between the markers.
func rewrite(path, section string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	start := bytes.Index(data, []byte(startMarker))
	end := bytes.Index(data, []byte(endMarker))
	if start < 0 || end < start {
		return fmt.Errorf("%s has no %q ... %q section: add the two markers where the tables go", path, startMarker, endMarker)
	}
	var out bytes.Buffer
	out.Write(data[:start])
	out.WriteString(strings.TrimSuffix(section, "\n"))
	out.Write(data[end+len(endMarker):])
	return os.WriteFile(path, out.Bytes(), 0o644)
}
