package adapters

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/toolnexus/toolnexus/define"
)

// The OpenAI Responses home: this file (tools) and responses_reply.go
// (replies and results). Names, limits and schemas are OpenAI Chat's
// (functions.go and strict.go, in the core).

var responsesSpec = &spec{
	name: NameOpenAIResponses, funcName: "ToOpenAIResponses", display: "OpenAI",
	options: optStrict | optDeferred | optMode | optAnswer | optRepair, optionText: "Strict, StrictWherePossible, Deferred, DeferOnly, ToolSearch, Namespace, AnswerTool, RepairArguments",
	toolName: openAIToolName,
	maxTools: maxOpenAITools, maxDescription: maxOpenAIDescription,
	dialect: openAIDialect, schemaLimits: strictLimits, rootUnions: true,
	tools: func(p *spec, t []define.Tool, o []Option) (any, error) { return toResponses(p, t, o) },
	build: buildAs(buildOpenAIResponses),
	parse: ReplyLimits.ParseOpenAIResponsesReply,
	results: func(p *spec, c []Call, r []define.Result, o []Option) ([]any, error) {
		cfg, err := resultsConfig(p, "OpenAIResponsesResults", o, false)
		if err != nil {
			return nil, err
		}
		if !hasParts(r) {
			return responsesTextEntries(c, r)
		}
		return asEntries(responsesResults(p, c, r, cfg))
	},
	media: &mediaSpec{place: responsesPlace, options: "MediaAsNote"},
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
	answers: &answerSpec{strict: strictChosen, nullable: true, format: responsesFormat, stop: func(stop string) answerStop {
		if stop == "incomplete" { // incomplete_details.reason: max_output_tokens or content_filter
			return stopCut
		}
		return stopAnswered
	}},
	answer: func(p *spec, s *Searcher, q []Search, o []Option) ([]any, error) {
		return asEntries(responsesSearchOutputs(p, s, q, o))
	},
	body: responsesBody,
}

// OpenAIResponsesTool is one entry of an OpenAI Responses API "tools" array
// (flat, without the "function" wrapper). Strict is always sent: the
// Responses API treats an omitted "strict" as true.
//
// Parameters is pre-rendered and shared with the per-tool cache: replace it,
// never modify its bytes.
//
// Entries of the types "namespace" and "tool_search" (see [Deferred] and
// [Namespace]) have no strict member, and a name and parameters only when
// set; json.Marshal and [AppendJSON] write every entry alike.
type OpenAIResponsesTool struct {
	Type        string          `json:"type"` // "function"; "namespace" or "tool_search" with deferral
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Execution   string          `json:"execution,omitempty"` // a tool_search's: "client" when the program answers it
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
	// DeferLoading keeps the function's parameters out of the model's
	// context until a tool search loads it (see [Deferred]).
	DeferLoading bool `json:"defer_loading,omitempty"`
	// Tools are a namespace's functions.
	Tools []OpenAIResponsesTool `json:"tools,omitempty"`
}

// MarshalJSON writes t as [AppendJSON] does, so that the entries without
// a strict member stay without one. It leaves HTML characters unescaped:
// the encoder that calls it escapes them, or not, as it was told.
func (t OpenAIResponsesTool) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	var err error
	if responsesFunctionLike(&t) {
		err = enc.Encode(responsesFunctionJSON(t))
	} else {
		err = enc.Encode(responsesOtherJSON(t))
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

// responsesFunctionJSON and responsesOtherJSON are OpenAIResponsesTool
// without its MarshalJSON, with the members of each kind of entry.
type responsesFunctionJSON struct {
	Type         string                `json:"type"`
	Name         string                `json:"name"`
	Description  string                `json:"description,omitempty"`
	Execution    string                `json:"execution,omitempty"`
	Parameters   json.RawMessage       `json:"parameters"`
	Strict       bool                  `json:"strict"`
	DeferLoading bool                  `json:"defer_loading,omitempty"`
	Tools        []OpenAIResponsesTool `json:"tools,omitempty"`
}

type responsesOtherJSON struct {
	Type         string                `json:"type"`
	Name         string                `json:"name,omitempty"`
	Description  string                `json:"description,omitempty"`
	Execution    string                `json:"execution,omitempty"`
	Parameters   json.RawMessage       `json:"parameters,omitempty"`
	Strict       bool                  `json:"-"`
	DeferLoading bool                  `json:"defer_loading,omitempty"`
	Tools        []OpenAIResponsesTool `json:"tools,omitempty"`
}

// responsesFunctionLike reports whether t is written as a function, with
// its name, parameters and strict always present.
func responsesFunctionLike(t *OpenAIResponsesTool) bool {
	return t.Type != "namespace" && t.Type != "tool_search"
}

// ToOpenAIResponses renders tools as an OpenAI Responses API "tools" array.
// Schemas, options and errors are as for [ToOpenAI]; the difference is the
// flat entry shape and an explicit "strict" on every entry (false unless
// [Strict](true)), because the Responses API makes an omitted strict mean
// true and would then fill optional arguments with "" or 0.
//
// [Deferred], [DeferOnly] and [ToolSearch] defer tools and add the
// tool_search tool; [Namespace] groups tools into a namespace entry.
func ToOpenAIResponses(tools []define.Tool, opts ...Option) ([]OpenAIResponsesTool, error) {
	return toResponses(responsesSpec, tools, opts)
}

func buildOpenAIResponses(p *spec, cfg config, d toolData) (OpenAIResponsesTool, error) {
	params, err := openAIParams(p, cfg, d)
	if err != nil {
		return OpenAIResponsesTool{}, err
	}
	return OpenAIResponsesTool{Type: "function", Name: d.name, Description: d.description, Parameters: params, Strict: cfg.strict}, nil
}

// responsesFormat renders an answer's text member:
// {"format":{"type":"json_schema","name","description","schema","strict"}}.
func responsesFormat(p *spec, cfg config, d toolData) (string, json.RawMessage, error) {
	if err := p.checkToolName(d.name); err != nil {
		return "", nil, err
	}
	schema, err := renderJS(p, cfg, d.name, d.in, "answer")
	if err != nil {
		return "", nil, err
	}
	b, err := appendSchemaFormat([]byte(`{"format":{"type":"json_schema",`), d, schema, true, cfg.strict)
	return "text", append(b, "}}"...), err
}

// ForOpenAIResponses returns the [Provider] for the OpenAI Responses API.
// Tools is [ToOpenAIResponses] with opts; Parse is [ParseOpenAIResponsesReply];
// Results is [OpenAIResponsesResults], one entry per item (an item without
// parts as an [OpenAIResponsesFunctionCallText], the same JSON); Prompt is
// {"role":"user","content":text}. The history is the request's input.
func ForOpenAIResponses(opts ...Option) Provider { return forSpec(responsesSpec, opts) }

func appendResponses(dst []byte, t *OpenAIResponsesTool) ([]byte, error) {
	fn := responsesFunctionLike(t)
	dst = append(dst, `{"type":`...)
	dst = appendString(dst, t.Type)
	if fn || t.Name != "" {
		dst = append(dst, `,"name":`...)
		dst = appendString(dst, t.Name)
	}
	if t.Description != "" {
		dst = append(dst, `,"description":`...)
		dst = appendString(dst, t.Description)
	}
	if t.Execution != "" {
		dst = append(dst, `,"execution":`...)
		dst = appendString(dst, t.Execution)
	}
	var err error
	if fn || len(t.Parameters) > 0 {
		dst = append(dst, `,"parameters":`...)
		if dst, err = appendRaw(dst, t.Parameters); err != nil {
			return dst, err
		}
	}
	if fn {
		dst = append(dst, `,"strict":`...)
		dst = strconv.AppendBool(dst, t.Strict)
	}
	if t.DeferLoading {
		dst = append(dst, `,"defer_loading":true`...)
	}
	if len(t.Tools) > 0 {
		dst = append(dst, `,"tools":[`...)
		for i := range t.Tools {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendResponses(dst, &t.Tools[i]); err != nil {
				return dst, err
			}
		}
		dst = append(dst, ']')
	}
	return append(dst, '}'), nil
}

func sizeResponses(t *OpenAIResponsesTool) int {
	n := entryKeys + len(t.Type) + len(t.Name) + len(t.Description) + len(t.Execution) + len(t.Parameters)
	for i := range t.Tools {
		n += sizeResponses(&t.Tools[i])
	}
	return n
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
