package adapters

import (
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

// The OpenAI Chat Completions home: this file (tools), openai_reply.go
// (replies and results). OpenAI-compatible servers (Mistral, Groq, xAI,
// DeepSeek, vLLM, ...) use it too.

var openAISpec = &spec{
	name: NameOpenAI, funcName: "ToOpenAI", display: "OpenAI",
	options: optStrict, optionText: "Strict, StrictWherePossible",
	toolName: openAIToolName,
	maxTools: maxOpenAITools,
	dialect:  openAIDialect, rootUnions: true,
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

// openAIToolName is OpenAI's rule for tool names, Chat and Responses.
var openAIToolName = nameRule{text: "^[a-zA-Z0-9_-]{1,64}$", min: 1, max: 64,
	rest: func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }}

// maxOpenAIDescription is the description length OpenAI rejects above
// (string_above_max_length; observed, not documented: docs/providers.md).
const maxOpenAIDescription = 1024

// maxOpenAITools is OpenAI's limit on tools per request (array_above_max_length).
const maxOpenAITools = 128

// openAIDialect is the dialect of OpenAI Chat and Responses: Structured
// Outputs' subset when strict, JSON Schema as is otherwise.
func openAIDialect(cfg config) *dialect {
	if cfg.strict {
		return &openAIStrictDialect
	}
	return &plainDialect
}

// openAIStrictDialect is OpenAI's Structured Outputs subset.
var openAIStrictDialect = dialect{
	name: "OpenAI strict mode", hint: strictHint, strict: true, typed: true, title: true,
	numbers: numbersKept, minItems: -1, maxItems: true,
	typedItems: true, closeObjects: closeAll, allRequired: true,
	format: func(s *schema.Schema) bool {
		switch s.Format {
		case "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid":
			return true
		}
		return false
	},
	pattern: func(p string) bool { return !hasLookaround(p) },
}

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
	return render(openAISpec, tools, opts, buildOpenAI)
}

func buildOpenAI(p provider, cfg config, d toolData) (OpenAITool, error) {
	params, err := openAIParams(p, cfg, d)
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

// ForOpenAI returns the [Provider] for OpenAI Chat Completions (and
// OpenAI-compatible servers). Tools is [ToOpenAI] with opts; Parse is
// [ParseOpenAIReply]; Results is [OpenAIResults], one entry per message;
// Prompt is {"role":"user","content":text}.
func ForOpenAI(opts ...Option) Provider { return forSpec(openAISpec, opts) }

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
