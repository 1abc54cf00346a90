package adapters_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

func choiceTools(t *testing.T) []define.Tool {
	t.Helper()
	var out []define.Tool
	for _, n := range []string{"get_weather", "get_time", "list_cities"} {
		tl, err := define.NewTool(n, json.RawMessage(`{"type":"object"}`), func(context.Context, json.RawMessage) (any, error) { return nil, nil })
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tl)
	}
	return out
}

// TestToolChoice renders every choice for every provider that has one:
// the field and its JSON, or the error of what the provider cannot say.
func TestToolChoice(t *testing.T) {
	auto := adapters.Choice{}
	req := adapters.Choice{Mode: adapters.ChoiceRequired}
	none := adapters.Choice{Mode: adapters.ChoiceNone}
	one := adapters.Choice{Mode: adapters.ChoiceRequired, Allowed: []string{"get_time"}}
	autoSub := adapters.Choice{Allowed: []string{"get_time", "get_weather"}}
	reqSub := adapters.Choice{Mode: adapters.ChoiceRequired, Allowed: []string{"get_time", "get_weather"}}
	cases := []struct {
		p      adapters.Provider
		c      adapters.Choice
		field  string
		want   string // JSON, or the error's text after "adapters: ToolChoice: "
		failed bool
	}{
		{adapters.ForOpenAI(), auto, "tool_choice", `"auto"`, false},
		{adapters.ForOpenAI(), req, "tool_choice", `"required"`, false},
		{adapters.ForOpenAI(), none, "tool_choice", `"none"`, false},
		{adapters.ForOpenAI(), one, "tool_choice", `{"type":"function","function":{"name":"get_time"}}`, false},
		{adapters.ForOpenAI(), autoSub, "tool_choice", `{"type":"allowed_tools","allowed_tools":{"mode":"auto","tools":[{"type":"function","function":{"name":"get_time"}},{"type":"function","function":{"name":"get_weather"}}]}}`, false},
		{adapters.ForOpenAI(), reqSub, "tool_choice", `{"type":"allowed_tools","allowed_tools":{"mode":"required","tools":[{"type":"function","function":{"name":"get_time"}},{"type":"function","function":{"name":"get_weather"}}]}}`, false},
		{adapters.ForOpenAIResponses(), auto, "tool_choice", `"auto"`, false},
		{adapters.ForOpenAIResponses(), one, "tool_choice", `{"type":"function","name":"get_time"}`, false},
		{adapters.ForOpenAIResponses(), reqSub, "tool_choice", `{"type":"allowed_tools","mode":"required","tools":[{"type":"function","name":"get_time"},{"type":"function","name":"get_weather"}]}`, false},
		{adapters.ForAnthropic(), auto, "tool_choice", `{"type":"auto"}`, false},
		{adapters.ForAnthropic(), req, "tool_choice", `{"type":"any"}`, false},
		{adapters.ForAnthropic(), none, "tool_choice", `{"type":"none"}`, false},
		{adapters.ForAnthropic(), one, "tool_choice", `{"type":"tool","name":"get_time"}`, false},
		{adapters.ForAnthropic(), autoSub, "", "Anthropic: no way to allow only 2 of the request's tools (get_time, get_weather): send only those tools", true},
		{adapters.ForGemini(), auto, "toolConfig", `{"functionCallingConfig":{"mode":"AUTO"}}`, false},
		{adapters.ForGemini(), none, "toolConfig", `{"functionCallingConfig":{"mode":"NONE"}}`, false},
		{adapters.ForGemini(), reqSub, "toolConfig", `{"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["get_time","get_weather"]}}`, false},
		{adapters.ForGemini(), autoSub, "toolConfig", `{"functionCallingConfig":{"mode":"VALIDATED","allowedFunctionNames":["get_time","get_weather"]}}`, false},
		{adapters.ForBedrock(), auto, "toolChoice", `{"auto":{}}`, false},
		{adapters.ForBedrock(), req, "toolChoice", `{"any":{}}`, false},
		{adapters.ForBedrock(), one, "toolChoice", `{"tool":{"name":"get_time"}}`, false},
		{adapters.ForBedrock(), none, "", "Bedrock: no tool choice none: leave the request's toolConfig out", true},
		{adapters.ForBedrock(), reqSub, "", "Bedrock: no way to allow only 2 of the request's tools (get_time, get_weather): send only those tools", true},
		{adapters.ForMCP(), auto, "", "MCP has no tool choice", true},
		{adapters.ForOllama(), auto, "", "Ollama has no tool choice", true},
		{adapters.ForOpenAI(), adapters.Choice{Allowed: []string{"get_tme"}}, "", `allowed tool "get_tme" is not one of the request's 3 tools`, true},
		{adapters.ForOpenAI(), adapters.Choice{Allowed: []string{"get_time", "get_time"}}, "", `allowed tool "get_time" is named twice`, true},
		{adapters.ForOpenAI(), adapters.Choice{Mode: adapters.ChoiceNone, Allowed: []string{"get_time"}}, "", `ChoiceNone with allowed tools ["get_time"]: no tool may be called`, true},
		{adapters.ForOpenAI(), adapters.Choice{Mode: 9}, "", `unknown mode ChoiceMode(9)`, true},
	}
	tools := choiceTools(t)
	for _, c := range cases {
		field, got, err := adapters.ToolChoice(c.p, tools, c.c)
		name := c.p.Name() + " " + c.c.Mode.String() + " " + strings.Join(c.c.Allowed, ",")
		if c.failed {
			if err == nil || err.Error() != "adapters: ToolChoice: "+c.want {
				t.Errorf("%s: error %v, want %q", name, err, c.want)
			}
			continue
		}
		if err != nil || field != c.field || string(got) != c.want || !json.Valid(got) {
			t.Errorf("%s: %s %s %v, want %s %s", name, field, got, err, c.field, c.want)
		}
	}
	if _, _, err := adapters.ToolChoice(adapters.ForOpenAI(), nil, req); err == nil {
		t.Error("ChoiceRequired with no tools: no error")
	}
}
