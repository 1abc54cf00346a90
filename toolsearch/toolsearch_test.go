package toolsearch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/toolsearch"
)

func TestWords(t *testing.T) {
	cases := map[string][]string{
		"getWeather":                  {"weather"},
		"read_file":                   {"read", "fil"},
		"HTTPServer v2":               {"http", "server", "v", "2"},
		"Lists the files in a folder": {"list", "fil", "folder"},
		"filing, filed, files, file":  {"fil", "fil", "fil", "fil"},
		"ChaDri.change_drink":         {"cha", "dri", "chang", "drink"},
		"searches cities":             {"search", "city"},
		"stopping STOP":               {"stop", "stop"},
		"Grüße aus München":           {"grüß", "aus", "münchen"},
		"":                            nil,
		"the of and":                  nil,
	}
	for in, want := range cases {
		if got := toolsearch.Words(in); !slices.Equal(got, want) {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}

func tool(t testing.TB, name, desc, schema string) define.Tool {
	t.Helper()
	tl, err := define.NewTool(name, json.RawMessage(schema), func(context.Context, json.RawMessage) (any, error) { return nil, nil }, define.WithDescription(desc))
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func fixtureTools(t testing.TB) []define.Tool {
	return []define.Tool{
		tool(t, "get_weather", "Current weather and forecast for a city.", `{"type":"object","properties":{"city":{"type":"string","description":"City name, e.g. Paris"},"days":{"type":"integer","description":"Days of forecast"}}}`),
		tool(t, "get_stock_price", "Latest trading price of a stock.", `{"type":"object","properties":{"ticker":{"type":"string","description":"Ticker symbol such as AAPL"}}}`),
		tool(t, "read_file", "Read a file from the workspace and return its text.", `{"type":"object","properties":{"path":{"type":"string","description":"Path of the file"}}}`),
		tool(t, "write_file", "Write text to a file in the workspace, replacing it.", `{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string","description":"The text to write"}}}`),
		tool(t, "send_email", "Send an email message to one or more recipients.", `{"type":"object","properties":{"to":{"type":"array","items":{"type":"string"},"description":"Recipient addresses"},"subject":{"type":"string"},"body":{"type":"string"}}}`),
		tool(t, "list_cities", "List the cities the weather service covers.", `{"type":"object"}`),
	}
}

func TestSearch(t *testing.T) {
	ix := toolsearch.FromTools(fixtureTools(t))
	cases := []struct {
		query string
		first string
	}{
		{"What's the weather in Paris tomorrow?", "get_weather"},
		{"how much is AAPL trading at", "get_stock_price"},
		{"open notes.txt and show me what's in the file", "read_file"},
		{"save this text to todo.md", "write_file"},
		{"mail Bob the report with subject Q3", "send_email"},
		{"which cities are covered", "list_cities"},
		{"forecast for the next 3 days", "get_weather"},
	}
	for _, c := range cases {
		hits := ix.Search(c.query, 3)
		if len(hits) == 0 || hits[0].Name != c.first {
			t.Errorf("Search(%q) = %+v, want %s first", c.query, hits, c.first)
		}
		for i := 1; i < len(hits); i++ {
			if hits[i].Score > hits[i-1].Score {
				t.Errorf("Search(%q): hits not best first: %+v", c.query, hits)
			}
		}
	}
	if hits := ix.Search("zebra quantum", 5); len(hits) != 0 {
		t.Errorf("a query sharing no word: %+v, want none", hits)
	}
	if got := ix.Tools("file", 1); len(got) != 1 || !strings.HasSuffix(got[0].Name(), "_file") {
		t.Errorf("Tools(file, 1) = %v", got)
	}
	if got := ix.Search("file", 0); got != nil {
		t.Errorf("k = 0: %v", got)
	}
	if got := toolsearch.New(nil, toolsearch.Weights{}).Search("file", 3); got != nil {
		t.Errorf("empty index: %v", got)
	}
}

// TestSearchNamesOnly: weights reach the ranking: with names only, a word
// of a description finds nothing.
func TestSearchNamesOnly(t *testing.T) {
	var docs []toolsearch.Doc
	for _, tl := range fixtureTools(t) {
		docs = append(docs, toolsearch.DocOf(tl))
	}
	ix := toolsearch.New(docs, toolsearch.Weights{Name: 1})
	if hits := ix.Search("forecast", 3); len(hits) != 0 {
		t.Errorf("names only, a description word: %+v", hits)
	}
	if hits := ix.Search("weather", 3); len(hits) == 0 || hits[0].Name != "get_weather" {
		t.Errorf("names only, a name word: %+v", hits)
	}
	if ix.Tools("weather", 3) != nil {
		t.Error("Tools of an index made by New is not nil")
	}
}

// TestSearchConcurrent: searches share the index (run with -race).
func TestSearchConcurrent(t *testing.T) {
	ix := toolsearch.FromTools(synthetic(t, 300))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				_ = ix.Search(fmt.Sprintf("%s %s", vocab[(g*7+i)%len(vocab)], vocab[i%len(vocab)]), 10)
			}
		}()
	}
	wg.Wait()
}

var vocab = strings.Fields(`account address alert archive backup balance bill book branch bucket
	budget cache calendar campaign card cart channel chart check city client cluster
	comment commit contact container contract coupon course credit customer dashboard
	database deal deploy device discount document domain draft email employee event
	expense feed file flight folder forecast form game grade graph group hotel image
	incident invoice issue job key label lead ledger license link list log map meeting
	message metric model note order package page payment permission photo pipeline
	playlist policy post price product profile project queue quote receipt record
	refund release report repository request reservation review role route schedule
	secret server session shipment song stock subscription survey table task team
	template ticket timer token topic trade transaction trip user vendor video
	volume wallet weather webhook wiki workflow zone`)

var verbs = strings.Fields(`get list create update delete search send cancel approve archive
	export import sync find book close open merge restore share`)

// synthetic makes n tools from the vocabulary, each a verb and one or two
// nouns, with a description and parameters of words from it.
func synthetic(t testing.TB, n int) []define.Tool {
	r := rand.New(rand.NewPCG(uint64(n), 1))
	out := make([]define.Tool, n)
	for i := range n {
		v, a, b := verbs[r.IntN(len(verbs))], vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))]
		name := fmt.Sprintf("%s_%s_%s_%d", v, a, b, i)
		desc := fmt.Sprintf("%s a %s of the %s, with its %s and %s.", v, a, b, vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))])
		p1, p2 := vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))]
		schema := fmt.Sprintf(`{"type":"object","properties":{"%s_id":{"type":"string","description":"The %s to use"},"%s":{"type":"string","description":"Which %s"}}}`, p1, p1, p2, a)
		out[i] = tool(t, name, desc, schema)
	}
	return out
}

// BenchmarkSearch: one search of a three-word query at 100, 1,000 and
// 10,000 tools.
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		ix := toolsearch.FromTools(synthetic(b, n))
		b.Run(fmt.Sprintf("tools-%d", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				q := vocab[i%len(vocab)] + " " + verbs[i%len(verbs)] + " " + vocab[(i*13)%len(vocab)]
				_ = ix.Search(q, 20)
				i++
			}
		})
	}
}

// BenchmarkIndex: building the index of 1,000 tools.
func BenchmarkIndex(b *testing.B) {
	tools := synthetic(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		_ = toolsearch.FromTools(tools)
	}
}

// longQuery returns a query of about n bytes of shape: "vocab" repeats
// the synthetic toolkit's words (each matching about a tenth of the
// tools), "distinct" is words that differ and match nothing, "camel" is
// one run of camelCase humps ("aBcDeF..."), a word every letter.
func longQuery(shape string, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch shape {
		case "vocab":
			b.WriteString(vocab[i%len(vocab)])
			b.WriteByte(' ')
		case "distinct":
			fmt.Fprintf(&b, "w%x ", i)
		case "camel":
			b.WriteString("aB")
		}
	}
	return b.String()[:n]
}

// BenchmarkSearchLongQuery: one search of 1,000 tools with a query of 1
// KB and of 1 MB, per shape: the words past MaxQueryWords (and the bytes
// past MaxQueryBytes) cost nothing, so both sizes cost about the same.
// Reported per query byte too.
//
//	go test ./toolsearch -run '^$' -bench SearchLongQuery -benchmem
func BenchmarkSearchLongQuery(b *testing.B) {
	ix := toolsearch.FromTools(synthetic(b, 1000))
	for _, shape := range []string{"vocab", "distinct", "camel"} {
		for _, size := range []int{1 << 10, 1 << 20} {
			q := longQuery(shape, size)
			b.Run(fmt.Sprintf("%s/%dKB", shape, size>>10), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(size))
				for b.Loop() {
					_ = ix.Search(q, 20)
				}
			})
		}
	}
}

// TestQueryBounds: a search reads the first MaxQueryBytes of a query and
// ranks by its first MaxQueryWords words; the rest costs nothing. On
// main a whole 1 MB query was split into words (70 to 90 bytes allocated
// per query byte, up to 573 ms).
func TestQueryBounds(t *testing.T) {
	ix := toolsearch.FromTools(fixtureTools(t))
	found := func(q string) bool {
		hits := ix.Search(q, 1)
		return len(hits) == 1 && hits[0].Name == "get_weather"
	}
	filler := func(words int) string { // distinct words of letters that match no tool
		var b strings.Builder
		for i := range words {
			b.WriteString("zq")
			for n := i; n > 0; n /= 8 {
				b.WriteByte("bcfhjkmp"[n%8])
			}
			b.WriteByte(' ')
		}
		return b.String()
	}
	if !found(filler(toolsearch.MaxQueryWords-1) + "weather") {
		t.Error("the last word within MaxQueryWords was not ranked")
	}
	if found(filler(toolsearch.MaxQueryWords) + "weather") {
		t.Error("a word past MaxQueryWords was ranked")
	}
	pad := strings.Repeat(" ", toolsearch.MaxQueryBytes-len("weather"))
	if !found(pad + "weather") {
		t.Error("a word ending at MaxQueryBytes was not ranked")
	}
	if found(pad + " weather") {
		t.Error("a word past MaxQueryBytes was ranked")
	}
	// A word the cut splits is left out: "wea" would find the tool "wea".
	split := toolsearch.FromTools([]define.Tool{tool(t, "wea", "Short.", `{"type":"object"}`)})
	if hits := split.Search(strings.Repeat(" ", toolsearch.MaxQueryBytes-3)+"weather", 1); len(hits) != 0 {
		t.Errorf("the cut half of a word was ranked: %v", hits)
	}
	// A run of letters too long to be a word is cut, not dropped whole.
	if hits := split.Search(strings.Repeat("x", toolsearch.MaxQueryBytes-4)+" wea"+strings.Repeat("x", 100), 1); len(hits) != 0 {
		t.Errorf("the cut of a long run: %v", hits)
	}

	// What a search of 1 MB costs is what one of MaxQueryBytes costs.
	big := toolsearch.FromTools(synthetic(t, 300))
	cost := func(q string) uint64 {
		runtime.GC()
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		big.Search(q, 20)
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	for _, shape := range []string{"vocab", "distinct", "camel"} {
		atBound, huge := cost(longQuery(shape, toolsearch.MaxQueryBytes)), cost(longQuery(shape, 1<<20))
		t.Logf("%s: %d bytes allocated for a query of %d bytes, %d for 1 MiB", shape, atBound, toolsearch.MaxQueryBytes, huge)
		if huge > 2*atBound+64<<10 {
			t.Errorf("%s: %d bytes allocated for a query of %d bytes, %d for 1 MiB", shape, atBound, toolsearch.MaxQueryBytes, huge)
		}
	}
}
