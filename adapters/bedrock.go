package adapters

import (
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus/define"
)

// The Bedrock Converse home: this file (tools) and bedrock_reply.go
// (replies and results).

var bedrockSpec = &spec{
	name: NameBedrock, funcName: "ToBedrock", display: "Bedrock",
	options: optAnswer | optRepair, optionText: "AnswerTool, RepairArguments",
	toolName: nameRule{text: "^[a-zA-Z0-9_-]{1,64}$", min: 1, max: 64,
		rest: func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }},
	key:     &dottedKeyRule, // Claude serves most Converse tool calls
	dialect: plainDialectFor,
	tools:   func(p *spec, t []define.Tool, o []Option) (any, error) { return render(p, t, o, buildBedrock) },
	build:   buildAs(buildBedrock),
	parse:   ReplyLimits.ParseBedrockReply,
	results: func(p *spec, c []Call, r []define.Result, o []Option) ([]any, error) {
		cfg, err := resultsConfig(p, "BedrockResults", o, false)
		if err != nil {
			return nil, err
		}
		if !hasParts(r) {
			return bedrockTextEntries(c, r)
		}
		m, err := bedrockResults(p, c, r, cfg)
		return asEntries([]BedrockToolResultMessage{m}, err)
	},
	media: &mediaSpec{place: bedrockPlace, options: "MediaAsNote", after: "after the tool results"},
	looks: func(member func(string) []byte) string {
		if member("output") != nil && member("stopReason") != nil {
			return "a Bedrock Converse response"
		}
		return ""
	},
	prompt: func(text string) []any {
		return []any{promptBedrockMessage{Role: "user", Content: []promptBedrockBlock{{Text: text}}}}
	},
	appendJSON: appendAs(sizeBedrock, appendBedrock),
	choice:     bedrockChoice,
	stream:     bedrockStreamSpec,
	answers: &answerSpec{strict: strictAlways, format: bedrockFormat,
		dialect: func(config) *dialect { return &bedrockAnswerDialect },
		inline:  func(config) bool { return true },
		stop: func(stop string) answerStop {
			switch stop {
			case "max_tokens", "model_context_window_exceeded":
				return stopCut
			case "guardrail_intervened", "content_filtered":
				return stopRefused
			}
			return stopAnswered
		}},
	body: bedrockBody,
}

// bedrockAnswerDialect is what Bedrock's structured outputs take:
// Anthropic's strict subset (Bedrock refuses multipleOf, maxItems,
// minItems above 1, recursive schemas), references inlined.
var bedrockAnswerDialect = func() dialect {
	d := anthropicStrictDialect
	d.name = "Bedrock structured outputs"
	return d
}()

// bedrockFormat renders an answer's outputConfig:
// {"textFormat":{"type":"json_schema","structure":{"jsonSchema":{"schema",
// "name","description"}}}}, the schema as a JSON string.
func bedrockFormat(p *spec, cfg config, d toolData) (string, json.RawMessage, error) {
	if err := p.checkToolName(d.name); err != nil {
		return "", nil, err
	}
	js, err := renderJS(p, cfg, d.name, d.in, "answer")
	if err != nil {
		return "", nil, err
	}
	b := appendString([]byte(`{"textFormat":{"type":"json_schema","structure":{"jsonSchema":{"schema":`), string(js))
	b = appendString(append(b, `,"name":`...), d.name)
	if d.description != "" {
		b = appendString(append(b, `,"description":`...), d.description)
	}
	return "outputConfig", append(b, "}}}}"...), nil
}

type promptBedrockMessage struct {
	Role    string               `json:"role"`
	Content []promptBedrockBlock `json:"content"`
}

type promptBedrockBlock struct {
	Text string `json:"text"`
}

// BedrockTool is one entry of a Bedrock Converse toolConfig "tools" array:
// a tool specification or a cache point.
type BedrockTool struct {
	ToolSpec   *BedrockToolSpec   `json:"toolSpec,omitempty"`
	CachePoint *BedrockCachePoint `json:"cachePoint,omitempty"`
}

// BedrockToolSpec is a Converse toolSpec.
type BedrockToolSpec struct {
	Name        string             `json:"name"`
	Description string             `json:"description,omitempty"` // Bedrock rejects ""
	InputSchema BedrockInputSchema `json:"inputSchema"`
}

// BedrockInputSchema wraps the JSON Schema: {"json":{...}}. JSON is
// pre-rendered and shared with the per-tool cache: replace it, never modify
// its bytes.
type BedrockInputSchema struct {
	JSON json.RawMessage `json:"json"`
}

// BedrockCachePoint is a prompt-cache breakpoint entry:
// {"cachePoint":{"type":"default"}}.
type BedrockCachePoint struct {
	Type string `json:"type"`
}

// ToBedrock renders tools as a Bedrock Converse toolConfig "tools" array of
// toolSpec entries. The schema is the canonical JSON Schema with
// Anthropic's root rule (no anyOf, oneOf or allOf at the root, since Claude
// serves most Converse tool calls); names must match ^[a-zA-Z0-9_-]{1,64}$
// and property keys ^[a-zA-Z0-9_.-]{1,64}$; an empty description is
// omitted (Bedrock rejects "").
func ToBedrock(tools []define.Tool, opts ...Option) ([]BedrockTool, error) {
	return render(bedrockSpec, tools, opts, buildBedrock)
}

func buildBedrock(p *spec, cfg config, d toolData) (BedrockTool, error) {
	if err := p.checkToolName(d.name); err != nil {
		return BedrockTool{}, err
	}
	in, err := renderJS(p, cfg, d.name, d.in, "input")
	if err != nil {
		return BedrockTool{}, err
	}
	return BedrockTool{ToolSpec: &BedrockToolSpec{Name: d.name, Description: d.description, InputSchema: BedrockInputSchema{JSON: in}}}, nil
}

// ForBedrock returns the [Provider] for Bedrock Converse. Tools is
// [ToBedrock] with opts (the request's toolConfig.tools, which Converse
// needs on every request whose history holds tool use); Parse is
// [ParseBedrockReply]; Results is [BedrockResults], one user message (a
// [BedrockToolResultTextMessage], the same JSON, when no result has
// parts); Prompt is {"role":"user","content":[{"text":text}]}.
func ForBedrock(opts ...Option) Provider { return forSpec(bedrockSpec, opts) }

func appendBedrock(dst []byte, t *BedrockTool) ([]byte, error) {
	dst = append(dst, '{')
	var err error
	if s := t.ToolSpec; s != nil {
		dst = append(dst, `"toolSpec":{"name":`...)
		dst = appendString(dst, s.Name)
		if s.Description != "" {
			dst = append(dst, `,"description":`...)
			dst = appendString(dst, s.Description)
		}
		dst = append(dst, `,"inputSchema":{"json":`...)
		dst, err = appendRaw(dst, s.InputSchema.JSON)
		dst = append(dst, "}}"...)
	}
	if t.CachePoint != nil {
		if t.ToolSpec != nil {
			dst = append(dst, ',')
		}
		dst = append(dst, `"cachePoint":{"type":`...)
		dst = appendString(dst, t.CachePoint.Type)
		dst = append(dst, '}')
	}
	return append(dst, '}'), err
}

func sizeBedrock(t *BedrockTool) int {
	n := entryKeys
	if s := t.ToolSpec; s != nil {
		n += len(s.Name) + len(s.Description) + len(s.InputSchema.JSON)
	}
	return n
}

// NameBedrock is Bedrock's name, as [Provider.Name] and
// [ReplyError.Provider] spell it.
const NameBedrock = "bedrock"

// bedrockChoice renders a Choice for ToolChoice.
func bedrockChoice(c Choice) (string, json.RawMessage, error) {
	switch {
	case c.Mode == ChoiceNone:
		return "", nil, fmt.Errorf("no tool choice none: leave the request's toolConfig out")
	case len(c.Allowed) == 0:
		return "toolChoice", json.RawMessage(`{"` + [...]string{"auto", "any"}[c.Mode] + `":{}}`), nil
	case c.Mode == ChoiceRequired && len(c.Allowed) == 1:
		b := appendString([]byte(`{"tool":{"name":`), c.Allowed[0])
		return "toolChoice", append(b, "}}"...), nil
	}
	return "", nil, errNoSubset(c)
}
