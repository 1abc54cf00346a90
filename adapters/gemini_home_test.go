package adapters_test

import (
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

var _ = home("gemini", testHome{
	// A reply in its real shape (the fields a real reply has around the calls).
	benchReply: func(n int, args string) string {
		return repeatN(`{"candidates":[{"content":{"role":"model","parts":[`,
			`{"functionCall":{"id":"fc-%d","name":"get_weather","args":`+args+`},"thoughtSignature":"CiQBVKhc7k1Q"}`,
			`]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":70,"candidatesTokenCount":30,"totalTokenCount":100},"modelVersion":"gemini-3-pro-preview"}`, n)
	},
	calls: []adapters.Call{
		{ID: "fc-a1", Name: "get_weather", Args: fxWeather, ThoughtSignature: "CiQBVKhc7k1Q"},
		{ID: "fc-a2", Name: "get_time", Args: fxTime},
		{Name: "list_cities", Args: fxNone},
	},
	results: func(c []adapters.Call, r []define.Result) (any, error) { return adapters.GeminiResults(c, r) },
	replay: func(t *testing.T, data []byte, add func(id, name string, args json.RawMessage, sig string)) {
		var contents []struct {
			Parts []struct {
				ThoughtSignature string
				FunctionCall     *struct {
					ID, Name string
					Args     json.RawMessage
				}
			}
		}
		mustUnmarshal(t, data, &contents)
		for _, c := range contents {
			for _, p := range c.Parts {
				if p.FunctionCall != nil {
					add(p.FunctionCall.ID, p.FunctionCall.Name, p.FunctionCall.Args, p.ThoughtSignature)
				}
			}
		}
	},
	// A declaration carries its schema in one of two fields, each with
	// its own rules.
	schemas: func(t *testing.T, dir string, entry map[string]any) []ruledSchema {
		var out []ruledSchema
		for _, d := range entry["functionDeclarations"].([]any) {
			dm := d.(map[string]any)
			_, hasParams := dm["parameters"]
			_, hasJS := dm["parametersJsonSchema"]
			if hasParams && hasJS {
				t.Errorf("%s: declaration %v has both parameters and parametersJsonSchema", dir, dm["name"])
			}
			if hasParams {
				out = append(out, ruledSchema{"gemini_parameters", dm["parameters"]})
			}
			if hasJS {
				out = append(out, ruledSchema{"gemini_jsonschema", dm["parametersJsonSchema"]})
			}
		}
		return out
	},
	rules: func(dir string) schemaRule {
		switch dir {
		case "gemini_jsonschema":
			return keys(geminiJSONKeys, "Gemini parametersJsonSchema")
		case "gemini_parameters":
		default:
			return nil
		}
		base := keys(geminiParamsKeys, "Gemini parameters")
		return func(t *testing.T, path string, node map[string]any, root bool) {
			base(t, path, node, root)
			if typ, ok := node["type"]; ok {
				s, isStr := typ.(string)
				if !isStr || s == "null" {
					t.Errorf("Gemini: %s has type %v; want one non-null type name", path, typ)
				}
			} else if _, ok := node["anyOf"]; !ok {
				t.Errorf("Gemini: %s has no type", path)
			}
			if e, ok := node["enum"]; ok {
				for _, v := range e.([]any) {
					if _, ok := v.(string); !ok {
						t.Errorf("Gemini: %s has a non-string enum value %v", path, v)
					}
				}
			}
			if f, ok := node["format"].(string); ok {
				typ, _ := node["type"].(string)
				okf := typ == "string" && (f == "date-time" || f == "enum") || typ == "integer" && (f == "int32" || f == "int64") ||
					typ == "number" && (f == "float" || f == "double")
				if !okf {
					t.Errorf("Gemini: %s has format %q for type %q", path, f, typ)
				}
			}
			if p, ok := node["properties"]; ok && len(p.(map[string]any)) == 0 {
				t.Errorf("Gemini: %s has empty properties", path)
			}
		}
	},
	closedRoot: true,
	variants: []variant{
		{"gemini_depth1", func(t []define.Tool) (any, error) { return adapters.ToGemini(t, adapters.MaxInlineDepth(1)) }},
		{"gemini_jsonschema", func(t []define.Tool) (any, error) { return adapters.ToGemini(t, adapters.GeminiJSONSchema()) }},
		{"gemini_parameters", func(t []define.Tool) (any, error) { return adapters.ToGemini(t, adapters.GeminiParameters()) }},
	},
	missing:    `no "candidates"`,
	like:       "a Gemini response",
	otherShape: map[string]string{"mcp": `no "candidates" and no "parts" in any response of the stream`},
})

var (
	geminiParamsKeys = only("type", "format", "description", "nullable", "enum", "pattern", "minLength", "maxLength",
		"minimum", "maximum", "items", "minItems", "maxItems", "properties", "propertyOrdering", "required",
		"minProperties", "maxProperties", "anyOf", "default", "example")
	geminiJSONKeys = only("$id", "$defs", "$ref", "$anchor", "type", "format", "description", "enum", "items",
		"prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf", "properties",
		"additionalProperties", "required", "propertyOrdering")
)
