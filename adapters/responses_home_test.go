package adapters_test

import (
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

var _ = home("openai-responses", testHome{
	// A reply in its real shape (the fields a real reply has around the calls).
	benchReply: func(n int, args string) string {
		q, _ := json.Marshal(args)
		return repeatN(`{"id":"resp_1","object":"response","status":"completed","model":"o4-mini","output":[{"type":"reasoning","id":"rs_01","summary":[],"encrypted_content":"gAAAAB"},`,
			`{"type":"function_call","id":"fc_%d","call_id":"call_%[1]d","name":"get_weather","arguments":`+string(q)+`,"status":"completed"}`,
			`],"usage":{"input_tokens":90,"output_tokens":60,"total_tokens":150}}`, n)
	},
	calls: []adapters.Call{
		{ID: "call_w1", Name: "get_weather", Args: fxWeather},
		{ID: "call_t2", Name: "get_time", Args: fxTime},
		{ID: "call_l3", Name: "list_cities", Args: fxNone},
	},
	results: func(c []adapters.Call, r []define.Result) (any, error) { return adapters.OpenAIResponsesResults(c, r) },
	replay: func(t *testing.T, data []byte, add func(id, name string, args json.RawMessage, sig string)) {
		var items []json.RawMessage
		mustUnmarshal(t, data, &items)
		for _, raw := range items {
			// Items of other types are replayed as they came, with
			// fields of any shape: only a function call is read.
			if blockType(t, raw) != "function_call" {
				continue
			}
			var it struct {
				Name, Arguments string
				CallID          string `json:"call_id"`
			}
			mustUnmarshal(t, raw, &it)
			add(it.CallID, it.Name, json.RawMessage(it.Arguments), "")
		}
	},
	schemas: func(t *testing.T, dir string, entry map[string]any) []ruledSchema {
		return []ruledSchema{{dir, entry["parameters"]}}
	},
	rules: openAIRules,
	variants: []variant{
		{"openai_responses_strict", func(t []define.Tool) (any, error) { return adapters.ToOpenAIResponses(t, adapters.Strict(true)) }},
	},
	missing:    `no "output"`,
	like:       "an OpenAI Responses response",
	otherShape: map[string]string{"bedrock": "expected an array, got an object", "mcp": `missing type`},
})
