package adapters_test

import (
	"os"
	"path/filepath"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// A reply fixture per provider, in the provider's real response shape, in
// testdata/golden/calls/<provider>/replies/tool_calls.json: the model calls
// get_weather, get_time and list_cities (the last with no arguments, sent
// the way the provider sends none) in one turn.
var replyFixtures = loadReplyFixtures()

type replyFixture struct {
	provider string
	reply    string
}

func loadReplyFixtures() []replyFixture {
	var out []replyFixture
	for _, pr := range adapters.Providers() {
		p := pr.Name()
		data, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "calls", p, "replies", "tool_calls.json"))
		if err != nil {
			panic(err)
		}
		out = append(out, replyFixture{p, string(data)})
	}
	return out
}

// fixtureWeather is a typed output, as define renders it: Output is its JSON and
// Value the Go value.
type fixtureWeather struct {
	City  string `json:"city"`
	TempC int    `json:"temp_c"`
	Sky   string `json:"sky"`
}

// resultFixtures answer the three calls of every reply fixture: a typed
// output, a plain text output, and an error.
var resultFixtures = []define.Result{
	{Output: `{"city":"Paris","temp_c":21,"sky":"sunny"}`, Value: fixtureWeather{City: "Paris", TempC: 21, Sky: "sunny"}},
	{Output: "14:05 CET"},
	{Output: "city index unavailable: upstream timed out", IsError: true},
}
