package adapters_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// TestConformance holds every registered provider (adapters.Providers) to
// the same checks, so that a provider added without its goldens, fixtures
// or round trip fails here rather than at a user's first call. The
// renderings against goldens (TestGolden, TestStable, TestProviderRules,
// TestAppendJSON), the reply fixtures (TestParseFixtures, TestCallsGolden,
// TestReplyClasses) and the parse fuzz target run over the same list.
func TestConformance(t *testing.T) {
	providers := adapters.Providers()
	if len(providers) < 7 {
		t.Fatalf("%d providers registered, want at least 7", len(providers))
	}
	seen := map[string]bool{}
	for _, p := range providers {
		name := p.Name()
		if name == "" || name != strings.ToLower(name) || seen[name] {
			t.Fatalf("provider name %q is empty, not lower case, or registered twice", name)
		}
		seen[name] = true
		t.Run(name, func(t *testing.T) { conform(t, p, providers) })
	}
}

func conform(t *testing.T, p adapters.Provider, all []adapters.Provider) {
	dir := filepath.Join("..", "testdata", "golden")
	name := p.Name()

	// What the tests know of it that its code cannot tell them.
	h, ok := testHomes[name]
	switch {
	case !ok:
		t.Fatalf("no test home: write %s_home_test.go (see homes_test.go)", name)
	case len(h.calls) == 0 || h.results == nil || h.replay == nil || h.schemas == nil || h.missing == "" || h.like == "":
		t.Fatalf("test home incomplete: calls, results, replay, schemas, missing and like are all needed")
	}

	// Goldens of its renderings, one per golden case.
	entries, err := os.ReadDir(filepath.Join(dir, strings.ReplaceAll(name, "-", "_")))
	if err != nil {
		t.Fatalf("no rendering goldens: %v", err)
	}
	if len(entries) < len(goldenCases()) {
		t.Errorf("%d rendering goldens, want one per golden case (%d)", len(entries), len(goldenCases()))
	}

	// Tools: an empty list is a list, never null, and AppendJSON writes
	// json.Marshal's bytes for the provider's tools value.
	tools, err := p.Tools(nil)
	if err != nil {
		t.Fatalf("Tools(nil): %v", err)
	}
	if data := mustMarshal(t, tools); bytes.Contains(data, []byte("null")) {
		t.Errorf("Tools(nil) marshals to %s", data)
	}
	tool := weatherTool(t)
	tools, err = p.Tools([]define.Tool{tool})
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}
	appended, err := adapters.AppendJSON(nil, tools)
	if err != nil {
		t.Fatalf("AppendJSON(%T): %v", tools, err)
	}
	if want := mustMarshal(t, tools); !bytes.Equal(appended, want) {
		t.Errorf("AppendJSON differs from json.Marshal:\n%s\n%s", appended, want)
	}
	if _, err := p.Tools([]define.Tool{tool, tool}); !errors.Is(err, adapters.ErrName) {
		t.Errorf("Tools with a name given twice: err = %v, want ErrName", err)
	}
	if _, err := p.Tools([]define.Tool{{}}); !errors.Is(err, adapters.ErrZeroTool) {
		t.Errorf("Tools with a zero tool: err = %v, want ErrZeroTool", err)
	}

	// Replies: the shared fixture, recorded-style fixtures with at least one
	// error body, and every other provider's reply refused.
	calls := dir + "/calls/" + name
	reply, err := os.ReadFile(filepath.Join(calls, "replies", "tool_calls.json"))
	if err != nil {
		t.Fatalf("no shared reply fixture: %v", err)
	}
	turn, err := p.Parse(reply)
	if err != nil {
		t.Fatalf("Parse(tool_calls.json): %v", err)
	}
	var names []string
	for _, c := range turn.Calls {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, ","); got != "get_weather,get_time,list_cities" {
		t.Errorf("tool_calls.json calls %s, want get_weather,get_time,list_cities", got)
	}
	if len(turn.Replay) == 0 {
		t.Errorf("tool_calls.json: no replay")
	}
	errorBodies, _ := filepath.Glob(filepath.Join(calls, "replies", "*error*.json"))
	if len(errorBodies) == 0 {
		t.Errorf("no *error*.json reply fixture (the provider's error body)")
	}
	for _, body := range [][]byte{nil, []byte("  "), []byte("[1"), []byte(`"text"`)} {
		if _, err := p.Parse(body); !errors.Is(err, adapters.ErrNotJSON) && !errors.Is(err, adapters.ErrReplyShape) {
			t.Errorf("Parse(%q): err = %v, want ErrNotJSON or ErrReplyShape", body, err)
		}
	}
	limited := adapters.WithReplyLimits(p, adapters.ReplyLimits{MaxBytes: len(reply) - 1})
	if _, err := limited.Parse(reply); !errors.Is(err, adapters.ErrReplyLimit) {
		t.Errorf("Parse over MaxBytes: err = %v, want ErrReplyLimit", err)
	}
	for _, other := range all {
		if other.Name() == name || adapters.SameShape(name, other.Name()) {
			continue
		}
		foreign, err := os.ReadFile(filepath.Join(dir, "calls", other.Name(), "replies", "tool_calls.json"))
		if err != nil {
			continue // reported in other's own run
		}
		if turn, err := p.Parse(foreign); !errors.Is(err, adapters.ErrReplyShape) {
			t.Errorf("Parse(%s's reply) = %d calls, %v: a reply of another shape must be an ErrReplyShape", other.Name(), len(turn.Calls), err)
		}
	}

	// Results: one entry set per call set, each marshalling; counts checked.
	results := resultFixtures[:len(turn.Calls)]
	out, err := p.Results(turn.Calls, results)
	if err != nil {
		t.Fatalf("Results: %v", err)
	}
	if len(out) == 0 {
		t.Errorf("Results gave no history entries")
	}
	if data := mustMarshal(t, out); bytes.Contains(data, []byte(":null")) {
		t.Errorf("Results marshal with a null: %s", data)
	}
	if _, err := p.Results(turn.Calls, results[:len(results)-1]); !errors.Is(err, adapters.ErrResultCount) {
		t.Errorf("Results with one result missing: err = %v, want ErrResultCount", err)
	}

	// Prompt: the user's text, as a history entry of the provider's shape.
	prompt := mustMarshal(t, p.Prompt("hello there"))
	if name != adapters.NameMCP && !bytes.Contains(prompt, []byte(`"hello there"`)) {
		t.Errorf("Prompt = %s, does not hold the text", prompt)
	}
}
