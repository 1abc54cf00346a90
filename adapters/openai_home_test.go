package adapters_test

import (
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

var _ = home("openai", testHome{
	// A reply in its real shape (the fields a real reply has around the calls).
	benchReply: func(n int, args string) string {
		q, _ := json.Marshal(args) // the arguments are JSON text in a string
		return repeatN(`{"id":"chatcmpl-1","object":"chat.completion","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,"annotations":[],"tool_calls":[`,
			`{"id":"call_%d","type":"function","function":{"name":"get_weather","arguments":`+string(q)+`}}`,
			`]},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":90,"completion_tokens":60,"total_tokens":150}}`, n)
	},
	calls: []adapters.Call{
		{ID: "call_w1", Name: "get_weather", Args: fxWeather},
		{ID: "call_t2", Name: "get_time", Args: fxTime},
		{ID: "call_l3", Name: "list_cities", Args: fxNone},
	},
	results: func(c []adapters.Call, r []define.Result) (any, error) { return adapters.OpenAIResults(c, r) },
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
	rules:   openAIRules,
	variants: []variant{
		{"openai_strict", func(t []define.Tool) (any, error) { return adapters.ToOpenAI(t, adapters.Strict(true)) }},
	},
	missing:    `no "choices"`,
	like:       "an OpenAI chat completion",
	otherShape: map[string]string{"mcp": "expected an object, got an array"},
})

// chatSchemas: the schema of an OpenAI Chat tools entry (Ollama's too).
func chatSchemas(t *testing.T, dir string, entry map[string]any) []ruledSchema {
	return []ruledSchema{{dir, entry["function"].(map[string]any)["parameters"]}}
}

var openAIStrictKeys = only("$ref", "$defs", "type", "anyOf", "description", "title", "enum", "const", "properties",
	"additionalProperties", "required", "items", "minItems", "maxItems", "format", "pattern", "minimum", "maximum",
	"exclusiveMinimum", "exclusiveMaximum", "multipleOf")

// openAIRules are Structured Outputs' rules, for the strict variants of
// OpenAI Chat and Responses.
func openAIRules(dir string) schemaRule {
	if dir != "openai_strict" && dir != "openai_responses_strict" {
		return nil
	}
	base := keys(openAIStrictKeys, "OpenAI strict")
	return func(t *testing.T, path string, node map[string]any, root bool) {
		base(t, path, node, root)
		if _, ok := node["$ref"]; ok && len(node) > 1 {
			t.Errorf("OpenAI strict: %s has a $ref with siblings", path)
		}
		if isType(node, "object") {
			if node["additionalProperties"] != false {
				t.Errorf("OpenAI strict: %s: additionalProperties is %v, want false", path, node["additionalProperties"])
			}
			props, _ := node["properties"].(map[string]any)
			req, _ := node["required"].([]any)
			if len(req) != len(props) {
				t.Errorf("OpenAI strict: %s: required %v does not list every property of %d", path, req, len(props))
			}
		}
		if typ, ok := node["type"]; !ok && node["$ref"] == nil && node["anyOf"] == nil && node["enum"] == nil && node["const"] == nil {
			t.Errorf("OpenAI strict: %s has no type (%v)", path, typ)
		}
	}
}
