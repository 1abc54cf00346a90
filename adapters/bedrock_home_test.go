package adapters_test

import (
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

var _ = home("bedrock", testHome{
	// A reply in its real shape (the fields a real reply has around the calls).
	benchReply: func(n int, args string) string {
		return repeatN(`{"output":{"message":{"role":"assistant","content":[{"text":"I'll look these up."},`,
			`{"toolUse":{"toolUseId":"tooluse_%d","name":"get_weather","input":`+args+`}}`,
			`]}},"stopReason":"tool_use","usage":{"inputTokens":300,"outputTokens":90,"totalTokens":390},"metrics":{"latencyMs":812}}`, n)
	},
	calls: []adapters.Call{
		{ID: "tooluse_w1", Name: "get_weather", Args: fxWeather},
		{ID: "tooluse_t2", Name: "get_time", Args: fxTime},
		{ID: "tooluse_l3", Name: "list_cities", Args: fxNone},
	},
	results: func(c []adapters.Call, r []define.Result) (any, error) { return adapters.BedrockResults(c, r) },
	replay: func(t *testing.T, data []byte, add func(id, name string, args json.RawMessage, sig string)) {
		var msgs []struct {
			Content []struct {
				ToolUse *struct {
					ToolUseID, Name, Type string
					Input                 json.RawMessage
				}
			}
		}
		mustUnmarshal(t, data, &msgs)
		for _, m := range msgs {
			for _, b := range m.Content {
				if b.ToolUse != nil && b.ToolUse.Type != "server_tool_use" {
					add(b.ToolUse.ToolUseID, b.ToolUse.Name, b.ToolUse.Input, "")
				}
			}
		}
	},
	schemas: func(t *testing.T, dir string, entry map[string]any) []ruledSchema {
		return []ruledSchema{{dir, entry["toolSpec"].(map[string]any)["inputSchema"].(map[string]any)["json"]}}
	},
	closedRoot: true,
	missing:    `no "output"`,
	like:       "a Bedrock Converse response",
	otherShape: map[string]string{"openai-responses": "expected an object, got an array", "mcp": "expected an object, got an array"},
})
