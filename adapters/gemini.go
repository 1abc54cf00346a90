package adapters

import (
	"encoding/json"
	"errors"

	"github.com/toolnexus/toolnexus/define"
)

// GeminiTool is the one entry of a Gemini generateContent "tools" array
// that holds every function declaration.
type GeminiTool struct {
	FunctionDeclarations []GeminiFunctionDeclaration `json:"functionDeclarations"`
}

// GeminiFunctionDeclaration is one function in [GeminiTool]. At most one of
// Parameters and ParametersJSONSchema is set; neither for a tool without
// arguments (Gemini rejects an object schema with no properties).
//
// The schemas are pre-rendered and shared with the per-tool cache: replace
// them, never modify their bytes.
type GeminiFunctionDeclaration struct {
	Name                 string          `json:"name"`
	Description          string          `json:"description,omitempty"`
	Parameters           json.RawMessage `json:"parameters,omitempty"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema,omitempty"`
}

// ToGemini renders tools as a Gemini (and Vertex AI) generateContent "tools"
// array. It always returns exactly one entry, [{"functionDeclarations":[...]}],
// with one declaration per tool in order; no tools give
// [{"functionDeclarations":[]}].
//
// Each declaration carries its schema in exactly one of two fields. By
// default ToGemini chooses per declaration: "parameters", Gemini's OpenAPI
// subset, when the subset can carry the tool's schema, and
// "parametersJsonSchema" (JSON Schema) for that declaration alone when it
// cannot: a map, an untyped value, an array without items, a union next to
// a type, an object without properties. [GeminiJSONSchema] sends every
// declaration as "parametersJsonSchema"; [GeminiParameters] sends every one
// as "parameters" and makes a schema the subset cannot carry an [*Error].
//
// "parameters" is rendered through an allow-list: lowercase types; null
// becomes "nullable": true and a type list becomes anyOf; enums are strings
// only (other enums and consts move into the description); formats are
// only date-time and enum for strings, int32/int64 for integers (int64 is
// added when absent) and float/double for numbers; exclusive integer bounds
// become inclusive ones; "propertyOrdering" keeps Go field order;
// additionalProperties, $ref/$defs, const, titles and every other keyword
// never appear. Recursive types are inlined to [MaxInlineDepth] levels, and
// the property that would recurse further is left out (the enclosing
// object's description says so); a required one falls back to
// "parametersJsonSchema". "parametersJsonSchema" keeps $ref/$defs,
// additionalProperties and type lists, minus the keywords Gemini does not
// support. docs/providers.md lists the rules.
//
// Tool names must start with a letter or _ and use [a-zA-Z0-9_.:-], at most
// 64; property keys must match ^[A-Za-z0-9_]{1,64}$; at most 512 tools.
func ToGemini(tools []define.Tool, opts ...Option) ([]GeminiTool, error) {
	decls, err := render(pGemini, tools, opts, maxGeminiTools, buildGemini)
	if err != nil {
		return nil, err
	}
	return []GeminiTool{{FunctionDeclarations: decls}}, nil
}

func buildGemini(cfg config, d toolData) (GeminiFunctionDeclaration, error) {
	if err := pGemini.checkToolName(d.name); err != nil {
		return GeminiFunctionDeclaration{}, err
	}
	decl := GeminiFunctionDeclaration{Name: d.name, Description: d.description}
	if cfg.gemini != geminiJSON {
		params, err := renderGemini(cfg, d.name, d.in)
		switch {
		case err == nil:
			decl.Parameters = params
			return decl, nil
		case cfg.gemini == geminiParams || !errors.Is(err, ErrUnsupported):
			return GeminiFunctionDeclaration{}, err
		}
		// The subset cannot carry this schema: this declaration alone goes
		// as JSON Schema, which keeps references (no inlining).
		cfg.gemini = geminiJSON
		cfg.depth = DefaultMaxInlineDepth
	}
	js, err := renderJS(pGemini, cfg, d.name, d.in, "input")
	if err != nil {
		return GeminiFunctionDeclaration{}, err
	}
	if !emptyObjectSchema(js) {
		decl.ParametersJSONSchema = js
	}
	return decl, nil
}

// emptyObjectSchema reports whether a rendered object schema has no
// properties and accepts nothing else (a tool without arguments).
func emptyObjectSchema(js json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(js, &m) != nil {
		return false
	}
	if p, ok := m["properties"]; ok && string(p) != "{}" {
		return false
	}
	_, ap := m["additionalProperties"]
	return !ap || string(m["additionalProperties"]) == "false"
}
