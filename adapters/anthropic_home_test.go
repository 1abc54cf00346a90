package adapters_test

import (
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

var _ = home("anthropic", testHome{
	// A reply in its real shape (the fields a real reply has around the calls).
	benchReply: func(n int, args string) string {
		return repeatN(`{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"thinking","thinking":"Weather first.","signature":"EqQBCgIYAhIM"},{"type":"text","text":"Let me check."},`,
			`{"type":"tool_use","id":"toolu_%d","name":"get_weather","input":`+args+`}`,
			`],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":400,"output_tokens":120}}`, n)
	},
	calls: []adapters.Call{
		{ID: "toolu_01A", Name: "get_weather", Args: fxWeather},
		{ID: "toolu_01B", Name: "get_time", Args: fxTime},
		{ID: "toolu_01C", Name: "list_cities", Args: fxNone},
	},
	results: func(c []adapters.Call, r []define.Result) (any, error) { return adapters.AnthropicResults(c, r) },
	replay: func(t *testing.T, data []byte, add func(id, name string, args json.RawMessage, sig string)) {
		var msgs []struct{ Content []json.RawMessage }
		mustUnmarshal(t, data, &msgs)
		for _, m := range msgs {
			for _, raw := range m.Content {
				// Blocks of other types are replayed as they came, with
				// fields of any shape: only a tool_use block is read.
				if blockType(t, raw) != "tool_use" {
					continue
				}
				var b struct {
					ID, Name string
					Input    json.RawMessage
				}
				mustUnmarshal(t, raw, &b)
				add(b.ID, b.Name, b.Input, "")
			}
		}
	},
	schemas: func(t *testing.T, dir string, entry map[string]any) []ruledSchema {
		return []ruledSchema{{dir, entry["input_schema"]}}
	},
	rules: func(dir string) schemaRule {
		if dir != "anthropic_strict" {
			return nil
		}
		base := keys(anthropicStrictKeys, "Anthropic strict")
		return func(t *testing.T, path string, node map[string]any, root bool) {
			base(t, path, node, root)
			if _, ok := node["$ref"]; ok {
				t.Errorf("Anthropic strict: %s has a $ref (recursive schemas are rejected; refs are inlined)", path)
			}
			if n, ok := node["minItems"].(float64); ok && n > 1 {
				t.Errorf("Anthropic strict: %s has minItems %v (only 0 or 1)", path, n)
			}
		}
	},
	closedRoot: true,
	variants: []variant{
		{"anthropic_strict", func(t []define.Tool) (any, error) { return adapters.ToAnthropic(t, adapters.Strict(true)) }},
	},
	missing:    `missing "content"`,
	like:       "an Anthropic message",
	otherShape: map[string]string{"mcp": "expected an object, got an array"},
})

var anthropicStrictKeys = only("$ref", "$defs", "type", "anyOf", "allOf", "description", "title", "enum", "const",
	"properties", "additionalProperties", "required", "items", "minItems", "format", "pattern")
