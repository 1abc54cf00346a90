package adapters_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// geminiFields renders one tool with ToGemini and says which schema field
// its declaration carries.
func geminiField(t *testing.T, tool define.Tool, opts ...adapters.Option) (string, json.RawMessage, error) {
	t.Helper()
	got, err := adapters.ToGemini([]define.Tool{tool}, opts...)
	if err != nil {
		return "", nil, err
	}
	d := got[0].FunctionDeclarations[0]
	switch {
	case d.Parameters != nil && d.ParametersJSONSchema != nil:
		return "both", nil, nil
	case d.Parameters != nil:
		return "parameters", d.Parameters, nil
	case d.ParametersJSONSchema != nil:
		return "parametersJsonSchema", d.ParametersJSONSchema, nil
	}
	return "none", nil, nil
}

// TestGeminiEmptyObjectNested: an object without properties is refused by
// Gemini "parameters" wherever it appears, so as array items or as a
// union branch it falls back to parametersJsonSchema for that declaration
// (as it does as a property), and GeminiParameters() refuses it (an
// optional property of that kind it leaves out with a note, as before).
func TestGeminiEmptyObjectNested(t *testing.T) {
	cases := map[string]string{
		"property":    `{"type":"object","properties":{"meta":{"type":"object"}}}`,
		"items":       `{"type":"object","properties":{"rows":{"type":"array","items":{"type":"object"}}}}`,
		"anyOf":       `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"object"}]}}}`,
		"nested_item": `{"type":"object","properties":{"rows":{"type":"array","items":{"type":"array","items":{"type":"object","properties":{}}}}}}`,
	}
	for name, js := range cases {
		t.Run(name, func(t *testing.T) {
			tool := rawTool("t_"+name, js)(t)
			field, body, err := geminiField(t, tool)
			if err != nil {
				t.Fatalf("ToGemini: %v", err)
			}
			if field != "parametersJsonSchema" {
				t.Errorf("ToGemini sent %s %s, want parametersJsonSchema", field, body)
			}
			if name == "property" {
				return // an optional one is left out with a note under GeminiParameters()
			}
			if _, _, err := geminiField(t, tool, adapters.GeminiParameters()); !errors.Is(err, adapters.ErrUnsupported) {
				t.Errorf("GeminiParameters(): err = %v, want ErrUnsupported", err)
			}
		})
	}
}

// TestPatternProperties: patternProperties is kept where the dialect is
// plain JSON Schema (OpenAI and Anthropic non-strict, Bedrock, MCP), its
// schemas rendered like any other, and told in the description elsewhere;
// never dropped without a word.
func TestPatternProperties(t *testing.T) {
	// The argument validator does not enforce patternProperties: a tool
	// made without it, as a proxy would make one for such a schema.
	tool, err := define.NewTool("headers", json.RawMessage(`{"type":"object","properties":{"h":{"type":"object","description":"Headers.","patternProperties":{"^X-":{"type":"string","minLength":1}},"additionalProperties":false}}}`),
		dummy, define.WithDescription("Hand-written schema headers."), define.WithoutValidation())
	if err != nil {
		t.Fatal(err)
	}
	tools := []define.Tool{tool}
	const kept = `"patternProperties":{"^X-":{"type":"string","minLength":1}}`
	const told = `patternProperties: {\"^X-\":{\"type\":\"string\",\"minLength\":1}}`
	render := map[string]func() (any, error){
		"openai":    func() (any, error) { return adapters.ToOpenAI(tools) },
		"anthropic": func() (any, error) { return adapters.ToAnthropic(tools) },
		"mcp":       func() (any, error) { return adapters.ToMCP(tools) },
		"bedrock":   func() (any, error) { return adapters.ToBedrock(tools) },
		"gemini":    func() (any, error) { return adapters.ToGemini(tools) },
		"ollama":    func() (any, error) { return adapters.ToOllama(tools) },
	}
	want := map[string]string{"openai": kept, "anthropic": kept, "mcp": kept, "bedrock": kept, "gemini": told, "ollama": told}
	for name, f := range render {
		got, err := f()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		data, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), want[name]) {
			t.Errorf("%s: rendering lacks %s:\n%s", name, want[name], data)
		}
	}
}

// TestDraft4ExclusiveBound: a draft 4 "exclusiveMinimum": true beside
// "minimum": 0 means > 0 for every provider: the 2020-12 number where the
// dialect keeps bounds (MCP included, no boolean passed through), the
// inclusive integer bound or a description elsewhere, never ">= 0".
func TestDraft4ExclusiveBound(t *testing.T) {
	tool := rawTool("count", `{"type":"object","properties":{"n":{"type":"integer","minimum":0,"exclusiveMinimum":true},"x":{"type":"number","maximum":1,"exclusiveMaximum":true}}}`)(t)
	tools := []define.Tool{tool}
	render := map[string]func() (any, error){
		"openai":        func() (any, error) { return adapters.ToOpenAI(tools) },
		"openai_strict": func() (any, error) { return adapters.ToOpenAI(tools, adapters.Strict(true)) },
		"anthropic":     func() (any, error) { return adapters.ToAnthropic(tools) },
		"mcp":           func() (any, error) { return adapters.ToMCP(tools) },
		"bedrock":       func() (any, error) { return adapters.ToBedrock(tools) },
		"gemini":        func() (any, error) { return adapters.ToGemini(tools) },
		"ollama":        func() (any, error) { return adapters.ToOllama(tools) },
	}
	want := map[string][]string{
		"openai":        {`"exclusiveMinimum":0`, `"exclusiveMaximum":1`},
		"openai_strict": {`"exclusiveMinimum":0`, `"exclusiveMaximum":1`},
		"anthropic":     {`"exclusiveMinimum":0`, `"exclusiveMaximum":1`},
		"mcp":           {`"exclusiveMinimum":0`, `"exclusiveMaximum":1`},
		"bedrock":       {`"exclusiveMinimum":0`, `"exclusiveMaximum":1`},
		"gemini":        {`"minimum":1`, `exclusiveMaximum: 1`},
		"ollama":        {`exclusiveMinimum: 0`, `exclusiveMaximum: 1`},
	}
	for name, f := range render {
		got, err := f()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		data, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want[name] {
			if !strings.Contains(string(data), w) {
				t.Errorf("%s: rendering lacks %s:\n%s", name, w, data)
			}
		}
		for _, bad := range []string{`"minimum":0`, `"exclusiveMinimum":true`, `"maximum":1,`, `"exclusiveMaximum":true`, `minimum: 0`} {
			if strings.Contains(string(data), bad) {
				t.Errorf("%s: rendering holds %s:\n%s", name, bad, data)
			}
		}
	}
	if got := string(tool.InputSchema()); strings.Contains(got, "true") || !strings.Contains(got, `"exclusiveMinimum":0`) {
		t.Errorf("canonical input schema = %s, want the 2020-12 numeric bounds", got)
	}
}

// TestGeminiPropertyKeyFallback: a key "parameters" refuses, as an HTTP
// header name, sends that declaration alone as parametersJsonSchema by
// default; GeminiParameters() keeps refusing it.
func TestGeminiPropertyKeyFallback(t *testing.T) {
	headers := rawTool("send", `{"type":"object","properties":{"headers":{"type":"object","properties":{"Content-Type":{"type":"string"}}}},"required":["headers"]}`)(t)
	plain := rawTool("plain", `{"type":"object","properties":{"q":{"type":"string"}}}`)(t)
	got, err := adapters.ToGemini([]define.Tool{plain, headers})
	if err != nil {
		t.Fatalf("ToGemini: %v", err)
	}
	ds := got[0].FunctionDeclarations
	if ds[0].Parameters == nil || ds[0].ParametersJSONSchema != nil {
		t.Errorf("plain: want parameters, got %+v", ds[0])
	}
	if ds[1].Parameters != nil || !strings.Contains(string(ds[1].ParametersJSONSchema), `"Content-Type"`) {
		t.Errorf("send: want parametersJsonSchema with Content-Type, got %+v", ds[1])
	}
	if _, err := adapters.ToGemini([]define.Tool{plain, headers}, adapters.GeminiParameters()); !errors.Is(err, adapters.ErrPropertyKey) {
		t.Errorf("GeminiParameters(): err = %v, want ErrPropertyKey", err)
	}
}
