package adapters_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// testHome is what the tests hold of one provider that its own code cannot
// tell them. Each provider's is in its own file (<provider>_home_test.go),
// registered by name; a provider registered in package adapters without
// one fails the tests that need it.
type testHome struct {
	// calls are the calls of testdata/golden/calls/<name>/replies/tool_calls.json.
	calls []adapters.Call
	// results renders results with the provider's typed XResults, as the
	// result goldens hold them.
	results func([]adapters.Call, []define.Result) (any, error)
	// replay reads the calls back out of a marshalled replay with
	// encoding/json, the way another layer (a logger, a policy check, the
	// provider itself) would.
	replay func(t *testing.T, data []byte, add func(id, name string, args json.RawMessage, sig string))
	// schemas returns the tool schemas of one entry of a rendered tools
	// array (decoded by encoding/json), each with the variant whose rules
	// it follows.
	schemas func(t *testing.T, dir string, entry map[string]any) []ruledSchema
	// rules returns the rules the schemas of variant dir keep beyond the
	// common ones; nil, or a nil rule, for none.
	rules func(dir string) schemaRule
	// variants are its renderings with options, each with its directory
	// of goldens (its default rendering is every provider's variant).
	variants []variant
	// missing is what its parser's error names on another provider's
	// reply (the keys its replies have); like is what the other parsers'
	// errors say its tool_calls.json looks like.
	missing, like string
	// otherShape is what its parser's error says instead of missing on
	// the fixture of the provider named, which has one of its keys with
	// another type or is not an object.
	otherShape map[string]string
	// benchReply builds a reply of its shape with n calls whose arguments
	// object is args, indented as the API sends it (BenchmarkParseVsValid).
	benchReply func(n int, args string) string
	// closedRoot: the root of an input schema has no anyOf, oneOf or allOf
	// (strict variants have that rule whatever the provider).
	closedRoot bool
}

var testHomes = map[string]testHome{}

// home registers the test home of the provider name.
func home(name string, h testHome) bool {
	testHomes[name] = h
	resultRenderers[name] = h.results
	return true
}

// homeOf returns the test home of the golden directory dir: the provider
// whose name, with _ for -, is the longest prefix of dir.
func homeOf(t testing.TB, dir string) testHome {
	t.Helper()
	best := ""
	for name := range testHomes {
		d := strings.ReplaceAll(name, "-", "_")
		if strings.HasPrefix(dir, d) && len(d) > len(best) {
			best = name
		}
	}
	if best == "" {
		t.Fatalf("no test home for %s (write <provider>_home_test.go)", dir)
	}
	return testHomes[best]
}

// The arguments of the calls in every tool_calls.json fixture.
var (
	fxWeather = rawJSON(`{"city":"Paris","days":2}`)
	fxTime    = rawJSON(`{"zone":"Europe/Paris"}`)
	fxNone    = rawJSON(`{}`)
)

// resultRenderers are the typed XResults of every provider, by name
// (filled by home).
var resultRenderers = map[string]func([]adapters.Call, []define.Result) (any, error){}
