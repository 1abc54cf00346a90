package adapters_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/golden"
)

// Stream fixtures: testdata/golden/calls/<provider>/streams/<name>.<ext>
// hold streamed bodies written by hand in each provider's documented
// format (.sse, .ndjson, .json, .bin); next to each, <name>.golden.json
// holds what the provider's ParseStream gives for it: the Turn, or the
// error (its sentinel and text). Every fixture is also read in pieces (see
// checkSplits), which must give the same result.

// streamResult is a stream fixture's golden: its turn or its error.
type streamResult struct {
	Calls  []adapters.Call `json:"calls,omitempty"`
	Text   string          `json:"text,omitempty"`
	Stop   string          `json:"stop,omitempty"`
	Replay []any           `json:"replay,omitempty"`
	Error  string          `json:"error,omitempty"`
	Is     string          `json:"is,omitempty"` // the sentinel's variable name
	Event  int             `json:"event,omitempty"`
}

var streamSentinels = []struct {
	name string
	err  error
}{
	{"ErrIncomplete", adapters.ErrIncomplete},
	{"ErrArguments", adapters.ErrArguments},
	{"ErrProviderError", adapters.ErrProviderError},
	{"ErrReplyLimit", adapters.ErrReplyLimit},
	{"ErrNotJSON", adapters.ErrNotJSON},
	{"ErrReplyShape", adapters.ErrReplyShape},
}

func resultOf(t adapters.Turn, err error) streamResult {
	if err != nil {
		r := streamResult{Error: err.Error(), Is: "(none)"}
		for _, s := range streamSentinels {
			if errors.Is(err, s.err) {
				r.Is = s.name
				break
			}
		}
		var re *adapters.ReplyError
		if errors.As(err, &re) {
			r.Event = re.Event
		} else {
			r.Is = "(not a *ReplyError)"
		}
		return r
	}
	return streamResult{Calls: t.Calls, Text: t.Text, Stop: t.Stop, Replay: t.Replay}
}

// same reports the difference between two results, compared as JSON.
func sameResult(want, got streamResult) string {
	w, _ := json.Marshal(want)
	g, _ := json.Marshal(got)
	if bytes.Equal(w, g) {
		return ""
	}
	var wv, gv any
	_ = json.Unmarshal(w, &wv)
	_ = json.Unmarshal(g, &gv)
	return cmp.Diff(wv, gv)
}

// streamFixtures lists the stream fixtures of provider name.
func streamFixtures(t testing.TB, name string) []string {
	t.Helper()
	dir := filepath.Join("..", "testdata", "golden", "calls", name, "streams")
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && !strings.HasSuffix(e.Name(), ".golden.json") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// feed writes body to a new Stream of p in the pieces cuts gives (offsets
// into body, increasing), and returns the result and the calls the Call
// hook got, with the text the Text hook got.
func feed(t testing.TB, p adapters.Provider, body []byte, cuts []int) (streamResult, []adapters.Call, string) {
	t.Helper()
	var calls []adapters.Call
	var text strings.Builder
	s, err := adapters.NewStream(p, adapters.StreamHooks{
		Call: func(c adapters.Call) { calls = append(calls, c) },
		Text: func(d string) { text.WriteString(d) },
	})
	if err != nil {
		t.Fatal(err)
	}
	prev := 0
	for _, c := range append(cuts, len(body)) {
		if _, err := s.Write(body[prev:c]); err != nil {
			break
		}
		prev = c
	}
	turn, err := s.Close()
	return resultOf(turn, err), calls, text.String()
}

// checkSplits reads body whole with ParseStream, then in pieces: cut in two
// at every offset (for bodies up to limit bytes; a sample of offsets
// beyond), one byte at a time, and at random offsets. Every reading must
// give the whole body's result, the Call hook must get exactly the turn's
// calls, and the Text hook exactly its text (on success).
func checkSplits(t *testing.T, p adapters.Provider, body []byte, limit int) streamResult {
	t.Helper()
	whole := resultOf(p.ParseStream(bytes.NewReader(body)))
	check := func(how string, cuts []int) {
		t.Helper()
		got, calls, text := feed(t, p, body, cuts)
		if d := sameResult(whole, got); d != "" {
			t.Fatalf("%s: result differs from the whole body's (-whole +pieces):\n%s", how, d)
		}
		if whole.Error == "" {
			if d := cmp.Diff(whole.Calls, calls); d != "" {
				t.Fatalf("%s: the Call hook got other calls than the turn's (-turn +hook):\n%s", how, d)
			}
			if text != whole.Text {
				t.Fatalf("%s: the Text hook got %q, the turn's text is %q", how, text, whole.Text)
			}
		}
	}
	step := 1
	if len(body) > limit {
		step = len(body)/limit + 1
	}
	for i := 1; i < len(body); i += step {
		check(fmt.Sprintf("cut at byte %d", i), []int{i})
	}
	ones := make([]int, 0, len(body))
	for i := 1; i < len(body); i++ {
		ones = append(ones, i)
	}
	check("one byte at a time", ones)
	r := rand.New(rand.NewPCG(uint64(len(body)), 7))
	for range 20 {
		var cuts []int
		for i := r.IntN(40) + 1; i < len(body); i += r.IntN(40) + 1 {
			cuts = append(cuts, i)
		}
		check(fmt.Sprintf("random cuts %v", cuts), cuts)
	}
	return whole
}

// TestStreamFixtures reads every provider's stream fixtures against their
// goldens, whole and in pieces.
func TestStreamFixtures(t *testing.T) {
	for _, p := range adapters.Providers() {
		for _, f := range streamFixtures(t, p.Name()) {
			t.Run(p.Name()+"/"+filepath.Base(f), func(t *testing.T) {
				body, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				got := checkSplits(t, p, body, 3000)
				golden.JSON(t, strings.TrimSuffix(f, filepath.Ext(f))+".golden.json", got)
			})
		}
	}
}

// fuzzStream is the fuzz property of every stream parser: a body read in
// pieces cut anywhere gives what the whole body gives, never panics, and
// a turn's calls have compact object arguments.
func fuzzStream(f *testing.F, p adapters.Provider) {
	for _, file := range streamFixtures(f, p.Name()) {
		body, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body, uint16(len(body)/2), uint16(7))
	}
	f.Fuzz(func(t *testing.T, body []byte, cut, step uint16) {
		whole := resultOf(p.ParseStream(bytes.NewReader(body)))
		var cuts []int
		for i, k := int(cut)%(len(body)+1), int(step)%64+1; i < len(body); i += k {
			if i > 0 {
				cuts = append(cuts, i)
			}
		}
		got, calls, _ := feed(t, p, body, cuts)
		if d := sameResult(whole, got); d != "" {
			t.Fatalf("pieces %v differ from the whole body (-whole +pieces):\n%s", cuts, d)
		}
		if whole.Error != "" {
			return
		}
		if d := cmp.Diff(whole.Calls, calls); d != "" {
			t.Fatalf("the Call hook got other calls (-turn +hook):\n%s", d)
		}
		for _, c := range whole.Calls {
			var v map[string]any
			err := json.Unmarshal(c.Args, &v)
			if c.Malformed != "" {
				// The text as sent, which the strict reader refuses.
				if strictObject(c.Args) {
					t.Fatalf("call %q: malformed (%s), but its arguments %s are an object", c.Name, c.Malformed, c.Args)
				}
				continue
			}
			if err != nil || v == nil {
				t.Fatalf("call %q: arguments %s are not an object: %v", c.Name, c.Args, err)
			}
			var b bytes.Buffer
			_ = json.Compact(&b, c.Args)
			if b.String() != string(c.Args) {
				t.Fatalf("call %q: arguments %s are not compact", c.Name, c.Args)
			}
		}
	})
}

func FuzzOpenAIStream(f *testing.F) { fuzzStream(f, adapters.ForOpenAI()) }
