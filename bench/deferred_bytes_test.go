package bench

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// TestDeferredBytes measures the tools array of the "render 128 tools"
// toolkit, whole and deferred, for Anthropic and OpenAI Responses (run
// with -v for the table of docs/large-toolkits.md). Bytes stand in for
// tokens. A deferred request still carries every tool (the provider hides
// the deferred ones from the model), so two numbers matter: the request's
// bytes, and the bytes of definitions the model sees before it searches
// (Anthropic: the loaded entries; Responses: the loaded entries, plus the
// name and description of each deferred function, or of each namespace),
// and after a search that loads 5 tools.
func TestDeferredBytes(t *testing.T) {
	tools := renderToolkit(t)
	size := func(v any, err error) int {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		b, err := adapters.AppendJSON(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		return len(b)
	}
	one := size(adapters.ToAnthropic(tools[:1]))
	an := size(adapters.ToAnthropic(tools))
	anDef, err := adapters.ToAnthropic(tools, adapters.Deferred())
	if err != nil {
		t.Fatal(err)
	}
	anSeen := size(anDef[len(anDef)-1:], nil) + 2
	t.Logf("anthropic: whole %d B; deferred request %d B; seen before a search %d B (%.1f%%); after loading 5 tools %d B (%.1f%%)",
		an, size(anDef, nil), anSeen, pct(anSeen, an), anSeen+5*(one-2), pct(anSeen+5*(one-2), an))

	rs := size(adapters.ToOpenAIResponses(tools))
	rsOne := size(adapters.ToOpenAIResponses(tools[:1]))
	rsDef, err := adapters.ToOpenAIResponses(tools, adapters.Deferred())
	if err != nil {
		t.Fatal(err)
	}
	seen := size(rsDef[len(rsDef)-1:], nil)
	for _, e := range rsDef[:len(rsDef)-1] {
		b, _ := json.Marshal(struct{ Type, Name, Description string }{e.Type, e.Name, e.Description})
		seen += len(b) + 1
	}
	names := make([]string, len(tools))
	for i, tl := range tools {
		names[i] = tl.Name()
	}
	// Namespaces of 8 tools, under OpenAI's advice of fewer than 10 each.
	opts := []adapters.Option{adapters.Deferred()}
	for i := 0; i < len(names); i += 8 {
		opts = append(opts, adapters.Namespace(fmt.Sprintf("flights_%02d", i/8), "Flight searches between airports, group "+fmt.Sprint(i/8)+".", names[i:i+8]...))
	}
	rsNS, err := adapters.ToOpenAIResponses(tools, opts...)
	if err != nil {
		t.Fatal(err)
	}
	nsSeen := size(rsNS[len(rsNS)-1:], nil)
	for _, e := range rsNS[:len(rsNS)-1] {
		b, _ := json.Marshal(struct{ Type, Name, Description string }{e.Type, e.Name, e.Description})
		nsSeen += len(b) + 1
	}
	load := 5 * (rsOne - 2)
	t.Logf("openai-responses: whole %d B; deferred request %d B; seen before a search %d B (%.1f%%), after loading 5 %d B (%.1f%%); "+
		"in 16 namespaces: request %d B, seen %d B (%.1f%%), after loading 5 %d B (%.1f%%)",
		rs, size(rsDef, nil), seen, pct(seen, rs), seen+load, pct(seen+load, rs),
		size(rsNS, nil), nsSeen, pct(nsSeen, rs), nsSeen+load, pct(nsSeen+load, rs))
}

func pct(a, b int) float64 { return 100 * float64(a) / float64(b) }
