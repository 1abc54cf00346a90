package adapters

import (
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus/define"
)

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

// ToOpenAI renders tools as an OpenAI Chat Completions "tools" array.
//
// Without options the schema is the canonical JSON Schema. A strict tool
// ([Strict](true) for every tool, [StrictWherePossible] for each tool that
// fits, or a tool pinned with define.WithStrict(true)) has "strict": true
// and its parameters rewritten into the Structured Outputs subset: every
// object gets "additionalProperties": false, every property is listed in
// "required" (optional ones become nullable), oneOf becomes anyOf, and
// keywords the subset lacks (minLength, default, ...) move into the
// description. What the subset cannot express (an open map, an untyped
// value) is an [*Error] wrapping [ErrUnsupported], and a strict schema over
// the Structured Outputs size limits (5000 properties, 10 levels of
// nesting, 1000 enum values, 15,000 characters for an enum of more than 250
// strings, 120,000 characters of names and values) one wrapping
// [ErrLimit]; under StrictWherePossible such a tool is sent non-strict
// instead. docs/providers.md has the rules and their sources.
//
// Errors are reported before any request: a name outside
// ^[a-zA-Z0-9_-]{1,64}$, a description over 1024 characters, more than 128
// tools, duplicate names. Each tool is rendered once per option set and
// cached on the tool.
func ToOpenAI(tools []define.Tool, opts ...Option) ([]OpenAITool, error) {
	return render(pOpenAI, tools, opts, maxOpenAITools, buildOpenAI)
}

func buildOpenAI(cfg config, d toolData) (OpenAITool, error) {
	params, err := openAIParams(pOpenAI, cfg, d)
	if err != nil {
		return OpenAITool{}, err
	}
	return OpenAITool{Type: "function", Function: OpenAIFunction{
		Name: d.name, Description: d.description, Parameters: params, Strict: cfg.strict,
	}}, nil
}

func openAIParams(p provider, cfg config, d toolData) (json.RawMessage, error) {
	if err := p.checkToolName(d.name); err != nil {
		return nil, err
	}
	if n := len([]rune(d.description)); n > maxOpenAIDescription {
		return nil, &Error{Func: p.fn(), Tool: d.name, Err: ErrLimit,
			Msg: fmt.Sprintf("description is %d characters; OpenAI rejects more than %d (string_above_max_length): move detail into parameter descriptions", n, maxOpenAIDescription)}
	}
	return renderJS(p, cfg, d.name, d.in, "input")
}

// OpenAIResponsesTool is one entry of an OpenAI Responses API "tools" array
// (flat, without the "function" wrapper). Strict is always sent: the
// Responses API treats an omitted "strict" as true.
//
// Parameters is pre-rendered and shared with the per-tool cache: replace it,
// never modify its bytes.
type OpenAIResponsesTool struct {
	Type        string          `json:"type"` // always "function"
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// ToOpenAIResponses renders tools as an OpenAI Responses API "tools" array.
// Schemas, options and errors are as for [ToOpenAI]; the difference is the
// flat entry shape and an explicit "strict" on every entry (false unless
// [Strict](true)), because the Responses API makes an omitted strict mean
// true and would then fill optional arguments with "" or 0.
func ToOpenAIResponses(tools []define.Tool, opts ...Option) ([]OpenAIResponsesTool, error) {
	return render(pOpenAIResponses, tools, opts, maxOpenAITools, buildOpenAIResponses)
}

func buildOpenAIResponses(cfg config, d toolData) (OpenAIResponsesTool, error) {
	params, err := openAIParams(pOpenAIResponses, cfg, d)
	if err != nil {
		return OpenAIResponsesTool{}, err
	}
	return OpenAIResponsesTool{Type: "function", Name: d.name, Description: d.description, Parameters: params, Strict: cfg.strict}, nil
}
