package adapters_test

import (
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

var _ = home("mistral", testHome{
	// A reply in its real shape (the fields a real reply has around the calls).
	benchReply: func(n int, args string) string {
		q, _ := json.Marshal(args) // the arguments are JSON text in a string
		return repeatN(`{"id":"5c1f0a9e27d34e8f9b6a0d2c4e8f1a3b","object":"chat.completion","created":1767225600,"model":"mistral-large-latest","choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[`,
			`{"id":"c%08d","function":{"name":"get_weather","arguments":`+string(q)+`},"index":0}`,
			`]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":95,"completion_tokens":41,"total_tokens":136}}`, n)
	},
	calls: []adapters.Call{
		{ID: "w1Pa7XqR2", Name: "get_weather", Args: fxWeather},
		{ID: "t2Zn4MkL8", Name: "get_time", Args: fxTime},
		{ID: "l3Cd9VbN5", Name: "list_cities", Args: fxNone},
	},
	results: func(c []adapters.Call, r []define.Result) (any, error) { return adapters.MistralResults(c, r) },
	replay: func(t *testing.T, data []byte, add func(id, name string, args json.RawMessage, sig string)) {
		var msgs []struct {
			ToolCalls []struct {
				ID       string
				Function struct{ Name, Arguments string }
			} `json:"tool_calls"`
		}
		mustUnmarshal(t, data, &msgs)
		for _, m := range msgs {
			for _, c := range m.ToolCalls {
				add(c.ID, c.Function.Name, json.RawMessage(c.Function.Arguments), "")
			}
		}
	},
	schemas: chatSchemas,
	rules: func(string) schemaRule {
		return func(t *testing.T, path string, node map[string]any, root bool) {
			for _, k := range []string{"$ref", "$defs", "$schema", "$id"} {
				if _, ok := node[k]; ok {
					t.Errorf("Mistral: %s has %s (references are inlined; $schema and $id are refused)", path, k)
				}
			}
		}
	},
	variants: []variant{
		{"mistral_depth1", func(t []define.Tool) (any, error) { return adapters.ToMistral(t, adapters.MaxInlineDepth(1)) }},
	},
	missing:    `no "choices"`,
	like:       "an OpenAI chat completion",
	otherShape: map[string]string{"mcp": "expected an object, got an array"},
})
