package adapters

// OpenAI's function tools, a core file: the function definition that OpenAI
// Chat Completions and Responses share (its name rule, its limits, its
// parameters rendered in the OpenAI dialects of strict.go), and the Chat
// Completions tools entry, whose shape Ollama's tools also have. The homes
// that use them (openai.go, responses.go, ollama.go) name only these.

import (
	"encoding/json"
	"fmt"
)

// openAIToolName is OpenAI's rule for tool names, Chat and Responses
// (and Ollama's, which checks none: the same tools then suit its
// OpenAI-compatible endpoint).
var openAIToolName = nameRule{text: "^[a-zA-Z0-9_-]{1,64}$", min: 1, max: 64,
	rest: func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }}

// maxOpenAIDescription is the description length OpenAI rejects above
// (string_above_max_length; observed, not documented: docs/providers.md).
const maxOpenAIDescription = 1024

// maxOpenAITools is OpenAI's limit on tools per request (array_above_max_length).
const maxOpenAITools = 128

// OpenAITool is one entry of an OpenAI Chat Completions "tools" array:
//
//	{"type":"function","function":{"name":...,"description":...,"parameters":{...},"strict":true}}
type OpenAITool struct {
	Type     string         `json:"type"` // always "function"
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is the "function" member of an [OpenAITool].
//
// Parameters is pre-rendered and shared with the per-tool cache: replace it,
// never modify its bytes.
type OpenAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict,omitempty"`
}

// openAIParams renders the parameters of an OpenAI function, Chat or
// Responses: the name and description checks, then the input schema in
// p's dialect.
func openAIParams(p *spec, cfg config, d toolData) (json.RawMessage, error) {
	if err := p.checkToolName(d.name); err != nil {
		return nil, err
	}
	if n := len([]rune(d.description)); p.maxDescription > 0 && n > p.maxDescription {
		return nil, &Error{Func: p.funcName, Tool: d.name, Err: ErrLimit,
			Msg: fmt.Sprintf("description is %d characters; %s rejects more than %d (string_above_max_length): move detail into parameter descriptions", n, p.display, p.maxDescription)}
	}
	return renderJS(p, cfg, d.name, d.in, "input")
}

// appendOpenAI and sizeOpenAI are AppendJSON for []OpenAITool (OpenAI's
// and Ollama's tools values).
func appendOpenAI(dst []byte, t *OpenAITool) ([]byte, error) {
	dst = append(dst, `{"type":`...)
	dst = appendString(dst, t.Type)
	dst = append(dst, `,"function":{"name":`...)
	dst = appendString(dst, t.Function.Name)
	if t.Function.Description != "" {
		dst = append(dst, `,"description":`...)
		dst = appendString(dst, t.Function.Description)
	}
	dst = append(dst, `,"parameters":`...)
	dst, err := appendRaw(dst, t.Function.Parameters)
	if t.Function.Strict {
		dst = append(dst, `,"strict":true`...)
	}
	return append(dst, "}}"...), err
}

func sizeOpenAI(t *OpenAITool) int {
	return entryKeys + len(t.Type) + len(t.Function.Name) + len(t.Function.Description) + len(t.Function.Parameters)
}

// buildFunction renders one tool as an OpenAI-shaped function with the
// home's JSON Schema dialect and nothing else (no strict flag): the
// entry of the homes that share OpenAI's tools shape without its strict
// mode (Mistral, Ollama).
func buildFunction(p *spec, cfg config, d toolData) (OpenAITool, error) {
	if err := p.checkToolName(d.name); err != nil {
		return OpenAITool{}, err
	}
	params, err := renderJS(p, cfg, d.name, d.in, "input")
	if err != nil {
		return OpenAITool{}, err
	}
	return OpenAITool{Type: "function", Function: OpenAIFunction{Name: d.name, Description: d.description, Parameters: params}}, nil
}
