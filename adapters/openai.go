package adapters

import (
	"encoding/json"

	"github.com/toolnexus/toolnexus/define"
)

// The OpenAI Chat Completions home: this file (tools), openai_reply.go
// (replies and results). OpenAI-compatible servers (Mistral, Groq, xAI,
// DeepSeek, vLLM, ...) use it too.

var openAISpec = &spec{
	name: NameOpenAI, funcName: "ToOpenAI", display: "OpenAI",
	options: optStrict, optionText: "Strict, StrictWherePossible",
	toolName: openAIToolName,
	maxTools: maxOpenAITools,
	dialect:  openAIDialect, schemaLimits: strictLimits, rootUnions: true,
	tools:  func(p *spec, t []define.Tool, o []Option) (any, error) { return render(p, t, o, buildOpenAI) },
	build:  buildAs(buildOpenAI),
	parse:  ReplyLimits.ParseOpenAIReply,
	stream: openAIStreamSpec,
	results: func(c []Call, r []define.Result) ([]any, error) {
		return asEntries(OpenAIResults(c, r))
	},
	looks: func(member func(string) []byte) string {
		if member("choices") != nil {
			return "an OpenAI chat completion"
		}
		return ""
	},
	prompt:     userText,
	appendJSON: appendAs(sizeOpenAI, appendOpenAI),
	choice:     openAIChoice,
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
	return render(openAISpec, tools, opts, buildOpenAI)
}

func buildOpenAI(p *spec, cfg config, d toolData) (OpenAITool, error) {
	params, err := openAIParams(p, cfg, d)
	if err != nil {
		return OpenAITool{}, err
	}
	return OpenAITool{Type: "function", Function: OpenAIFunction{
		Name: d.name, Description: d.description, Parameters: params, Strict: cfg.strict,
	}}, nil
}

// ForOpenAI returns the [Provider] for OpenAI Chat Completions (and
// OpenAI-compatible servers). Tools is [ToOpenAI] with opts; Parse is
// [ParseOpenAIReply]; Results is [OpenAIResults], one entry per message;
// Prompt is {"role":"user","content":text}.
func ForOpenAI(opts ...Option) Provider { return forSpec(openAISpec, opts) }

// NameOpenAI is OpenAI Chat's name, as [Provider.Name] and
// [ReplyError.Provider] spell it.
const NameOpenAI = "openai"

// openAIChoice renders a Choice for ToolChoice.
func openAIChoice(c Choice) (string, json.RawMessage, error) {
	switch {
	case len(c.Allowed) == 0:
		return "tool_choice", json.RawMessage(`"` + [...]string{"auto", "required", "none"}[c.Mode] + `"`), nil
	case c.Mode == ChoiceRequired && len(c.Allowed) == 1:
		b := appendString([]byte(`{"type":"function","function":{"name":`), c.Allowed[0])
		return "tool_choice", append(b, "}}"...), nil
	}
	b := []byte(`{"type":"allowed_tools","allowed_tools":{"mode":"` + [...]string{"auto", "required"}[c.Mode] + `","tools":`)
	b = choiceNames(b, c.Allowed, `{"type":"function","function":{"name":`, `}}`)
	return "tool_choice", append(b, "}}"...), nil
}
