package adapters

import (
	"encoding/json"
	"strconv"

	"github.com/toolnexus/toolnexus/define"
)

// The OpenAI Responses home: this file (tools) and responses_reply.go
// (replies and results). Names, limits and schemas are OpenAI Chat's
// (openai.go).

var responsesSpec = &spec{
	name: NameOpenAIResponses, funcName: "ToOpenAIResponses", display: "OpenAI",
	options: optStrict, optionText: "Strict, StrictWherePossible",
	toolName: openAIToolName,
	maxTools: maxOpenAITools,
	dialect:  openAIDialect, rootUnions: true,
	tools: func(p *spec, t []define.Tool, o []Option) (any, error) { return render(p, t, o, buildOpenAIResponses) },
	build: buildAs(buildOpenAIResponses),
	parse: ReplyLimits.ParseResponsesReply,
	results: func(c []Call, r []define.Result) ([]any, error) {
		return asEntries(ResponsesResults(c, r))
	},
	looks: func(member func(string) []byte) string {
		switch {
		case member("output") != nil && member("stopReason") == nil, string(member("object")) == `"response"`:
			return "an OpenAI Responses response"
		case member("type") != nil && member("role") == nil:
			return "an OpenAI Responses output item"
		}
		return ""
	},
	prompt:     userText,
	stream:     responsesStreamSpec,
	appendJSON: appendAs(sizeResponses, appendResponses),
	choice:     responsesChoice,
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
	return render(responsesSpec, tools, opts, buildOpenAIResponses)
}

func buildOpenAIResponses(p provider, cfg config, d toolData) (OpenAIResponsesTool, error) {
	params, err := openAIParams(p, cfg, d)
	if err != nil {
		return OpenAIResponsesTool{}, err
	}
	return OpenAIResponsesTool{Type: "function", Name: d.name, Description: d.description, Parameters: params, Strict: cfg.strict}, nil
}

// ForOpenAIResponses returns the [Provider] for the OpenAI Responses API.
// Tools is [ToOpenAIResponses] with opts; Parse is [ParseResponsesReply];
// Results is [ResponsesResults], one entry per item; Prompt is
// {"role":"user","content":text}. The history is the request's input.
func ForOpenAIResponses(opts ...Option) Provider { return forSpec(responsesSpec, opts) }

func appendResponses(dst []byte, t *OpenAIResponsesTool) ([]byte, error) {
	dst = append(dst, `{"type":`...)
	dst = appendString(dst, t.Type)
	dst = append(dst, `,"name":`...)
	dst = appendString(dst, t.Name)
	if t.Description != "" {
		dst = append(dst, `,"description":`...)
		dst = appendString(dst, t.Description)
	}
	dst = append(dst, `,"parameters":`...)
	dst, err := appendRaw(dst, t.Parameters)
	dst = append(dst, `,"strict":`...)
	dst = strconv.AppendBool(dst, t.Strict)
	return append(dst, '}'), err
}

func sizeResponses(t *OpenAIResponsesTool) int {
	return entryKeys + len(t.Type) + len(t.Name) + len(t.Description) + len(t.Parameters)
}

// NameOpenAIResponses is the Responses API's name, as [Provider.Name] and
// [ReplyError.Provider] spell it.
const NameOpenAIResponses = "openai-responses"

// responsesChoice renders a Choice for ToolChoice.
func responsesChoice(c Choice) (string, json.RawMessage, error) {
	switch {
	case len(c.Allowed) == 0:
		return "tool_choice", json.RawMessage(`"` + [...]string{"auto", "required", "none"}[c.Mode] + `"`), nil
	case c.Mode == ChoiceRequired && len(c.Allowed) == 1:
		b := appendString([]byte(`{"type":"function","name":`), c.Allowed[0])
		return "tool_choice", append(b, '}'), nil
	}
	b := []byte(`{"type":"allowed_tools","mode":"` + [...]string{"auto", "required"}[c.Mode] + `","tools":`)
	b = choiceNames(b, c.Allowed, `{"type":"function","name":`, `}`)
	return "tool_choice", append(b, '}'), nil
}
