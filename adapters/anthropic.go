package adapters

import (
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

// The Anthropic Messages home: this file (tools), anthropic_budget.go (the
// per-request strict budgets) and anthropic_reply.go (replies and results).

var anthropicSpec = &spec{
	name: NameAnthropic, funcName: "ToAnthropic", display: "Anthropic",
	options: optStrict | optMaxInlineDepth | optDeferred | optAnswer | optRepair, optionText: "Strict, StrictWherePossible, MaxInlineDepth, Deferred, DeferOnly, ToolSearch, AnswerTool, RepairArguments",
	toolName: nameRule{text: "^[a-zA-Z0-9_-]{1,64}$", min: 1, max: 64, // 64 is what every client enforces
		rest: func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }},
	key: &dottedKeyRule,
	dialect: func(cfg config) *dialect {
		if cfg.strict {
			return &anthropicStrictDialect
		}
		return &plainDialect
	},
	inline:      func(cfg config) bool { return cfg.strict || cfg.strictAuto },
	depthAlways: true, // a tool pinned strict inlines whatever the call's options
	tools:       func(p *spec, t []define.Tool, o []Option) (any, error) { return toAnthropic(p, t, o) },
	build:       buildAs(buildAnthropic),
	parse:       ReplyLimits.ParseAnthropicReply,
	stream:      anthropicStreamSpec,
	results: func(p *spec, c []Call, r []define.Result, o []Option) ([]any, error) {
		cfg, err := resultsConfig(p, "AnthropicResults", o, false)
		if err != nil {
			return nil, err
		}
		if !hasParts(r) {
			return anthropicTextEntries(c, r)
		}
		m, err := anthropicResults(p, c, r, cfg)
		return asEntries([]AnthropicToolResultMessage{m}, err)
	},
	media: &mediaSpec{place: anthropicPlace, options: "MediaAsNote"},
	looks: func(member func(string) []byte) string {
		switch {
		case string(member("type")) != `"message"`:
		case member("stop_reason") != nil:
			return "an Anthropic message"
		case member("role") != nil:
			return "an Anthropic message or an OpenAI Responses message item"
		}
		return ""
	},
	prompt:     userText,
	appendJSON: appendAs(sizeAnthropic, appendAnthropic),
	choice:     anthropicChoice,
	answer: func(_ *spec, s *Searcher, q []Search, _ []Option) ([]any, error) {
		m, err := AnthropicSearchResults(s, q)
		return asEntries([]AnthropicSearchResultMessage{m}, err)
	},
	clientSearchNamed: true,
	answers: &answerSpec{strict: strictAlways, format: anthropicFormat, stop: func(stop string) answerStop {
		switch stop {
		case "max_tokens", "model_context_window_exceeded":
			return stopCut
		case "refusal":
			return stopRefused
		}
		return stopAnswered
	}},
	body: anthropicBody,
}

// AnthropicTool is one entry of an Anthropic Messages "tools" array.
//
// InputSchema is pre-rendered and shared with the per-tool cache: replace
// it, never modify its bytes.
type AnthropicTool struct {
	// Type is empty for the program's own tools, and the tool's type for
	// the tools Anthropic defines (the tool-search tools that [Deferred]
	// adds: "tool_search_tool_regex_20251119", ...).
	Type        string `json:"type,omitempty"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// InputSchema is empty only for the tools Anthropic defines.
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
	Strict      bool            `json:"strict,omitempty"`
	// DeferLoading keeps the tool out of the model's context until a tool
	// search loads it (see [Deferred]).
	DeferLoading bool `json:"defer_loading,omitempty"`
	// InputExamples are example inputs, from the "examples" of the input
	// schema's root (see define.WithExamples), each a JSON object.
	InputExamples []json.RawMessage `json:"input_examples,omitempty"`
	// CacheControl marks a prompt-cache breakpoint; set it on the last tool
	// to cache all tools. ToAnthropic leaves it nil.
	CacheControl *AnthropicCacheControl `json:"cache_control,omitempty"`
}

// AnthropicCacheControl is a prompt-cache breakpoint: {"type":"ephemeral"}.
type AnthropicCacheControl struct {
	Type string `json:"type"`
	TTL  string `json:"ttl,omitempty"`
}

// ToAnthropic renders tools as an Anthropic Messages "tools" array.
//
// The input schema is the canonical JSON Schema, whose root must be an
// object without anyOf, oneOf or allOf (Anthropic rejects those at the top
// level). Tool names must match ^[a-zA-Z0-9_-]{1,64}$ and property keys, at
// every level, ^[a-zA-Z0-9_.-]{1,64}$.
//
// With [Strict](true) each tool has "strict": true and its schema is
// rewritten into Anthropic's strict subset: objects with properties are
// closed, oneOf becomes anyOf, numeric bounds, lengths, maxItems and
// unsupported formats move into the description, and recursive types are
// inlined to [MaxInlineDepth] levels (strict mode rejects recursion).
// [StrictWherePossible] makes each tool strict where it can be, and
// define.WithStrict pins one tool either way.
//
// Anthropic's per-request strict budgets are checked before the request:
// at most 20 strict tools, 24 optional parameters and 16 parameters with
// union types (anyOf or a type list) across the strict schemas, counted at
// every level. Tools that must be strict and exceed them are an [*Error]
// wrapping [ErrLimit] naming the tool; under StrictWherePossible the tools
// that would exceed them are sent non-strict, in list order.
func ToAnthropic(tools []define.Tool, opts ...Option) ([]AnthropicTool, error) {
	return toAnthropic(anthropicSpec, tools, opts)
}

func toAnthropic(p *spec, tools []define.Tool, opts []Option) ([]AnthropicTool, error) {
	out, err := render(p, tools, opts, buildAnthropic)
	if err != nil {
		return nil, err
	}
	cfg, _ := newConfig(p, opts) // render checked opts
	if out, err = anthropicBudget(p, cfg, tools, out); err != nil {
		return nil, err
	}
	return anthropicDefer(p, tools, opts, out)
}

func buildAnthropic(p *spec, cfg config, d toolData) (AnthropicTool, error) {
	if err := p.checkToolName(d.name); err != nil {
		return AnthropicTool{}, err
	}
	in, err := renderJS(p, cfg, d.name, d.in, "input")
	if err != nil {
		return AnthropicTool{}, err
	}
	examples, err := anthropicExamples(p, d)
	if err != nil {
		return AnthropicTool{}, err
	}
	return AnthropicTool{Name: d.name, Description: d.description, InputSchema: in, Strict: cfg.strict, InputExamples: examples}, nil
}

// anthropicFormat renders an answer's output_config:
// {"format":{"type":"json_schema","schema":...}}, the schema in the strict
// subset (structured outputs constrain it as strict tools), within the
// per-request budgets on its own (strict tools in the same request share
// them). The answer's description, which the format has no member for,
// becomes the schema's when it has none.
func anthropicFormat(p *spec, cfg config, d toolData) (string, json.RawMessage, error) {
	d = describedRoot(d)
	js, err := renderJS(p, cfg, d.name, d.in, "answer")
	if err != nil {
		return "", nil, err
	}
	// our own rendering: already bounded where it came in, so no parse limit
	s, err := schema.ParseLimited(js, schema.ParseLimits{MaxBytes: -1, MaxNodes: -1})
	if err != nil {
		return "", nil, joinErrors([]*Error{{Func: p.funcName, Tool: d.name, Err: ErrUnsupported, Msg: err.Error()}})
	}
	var errs []*Error
	if cost := anthropicCostOf(s); cost.optional > anthropicMaxOptional {
		errs = append(errs, &Error{Func: p.funcName, Tool: d.name, Err: ErrLimit,
			Msg: fmt.Sprintf("the answer's schema has %d optional parameters; Anthropic accepts at most %d per request across strict schemas (consider AnswerTool())", cost.optional, anthropicMaxOptional)})
	}
	if cost := anthropicCostOf(s); cost.unions > anthropicMaxUnions {
		errs = append(errs, &Error{Func: p.funcName, Tool: d.name, Err: ErrLimit,
			Msg: fmt.Sprintf("the answer's schema has %d parameters with union types; Anthropic accepts at most %d per request across strict schemas (consider AnswerTool())", cost.unions, anthropicMaxUnions)})
	}
	if len(errs) > 0 {
		return "", nil, joinErrors(errs)
	}
	b, err := appendRaw([]byte(`{"format":{"type":"json_schema","schema":`), js)
	return "output_config", append(b, "}}"...), err
}

// ForAnthropic returns the [Provider] for the Anthropic Messages API. Tools
// is [ToAnthropic] with opts; Parse is [ParseAnthropicReply]; ParseStream
// is [ParseAnthropicStream]; Results is [AnthropicResults], one user
// message (an [AnthropicToolResultTextMessage], the same JSON, when no
// result has parts); Prompt is {"role":"user","content":text}.
func ForAnthropic(opts ...Option) Provider { return forSpec(anthropicSpec, opts) }

func appendAnthropic(dst []byte, t *AnthropicTool) ([]byte, error) {
	if t.Type != "" {
		dst = append(dst, `{"type":`...)
		dst = appendString(dst, t.Type)
		dst = append(dst, `,"name":`...)
	} else {
		dst = append(dst, `{"name":`...)
	}
	dst = appendString(dst, t.Name)
	if t.Description != "" {
		dst = append(dst, `,"description":`...)
		dst = appendString(dst, t.Description)
	}
	var err error
	if len(t.InputSchema) > 0 {
		dst = append(dst, `,"input_schema":`...)
		if dst, err = appendRaw(dst, t.InputSchema); err != nil {
			return dst, err
		}
	}
	if t.Strict {
		dst = append(dst, `,"strict":true`...)
	}
	if t.DeferLoading {
		dst = append(dst, `,"defer_loading":true`...)
	}
	if len(t.InputExamples) > 0 {
		dst = append(dst, `,"input_examples":[`...)
		for i, e := range t.InputExamples {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendRaw(dst, e); err != nil {
				return dst, err
			}
		}
		dst = append(dst, ']')
	}
	if t.CacheControl != nil {
		data, err := json.Marshal(t.CacheControl)
		if err != nil {
			return dst, err
		}
		dst = append(append(dst, `,"cache_control":`...), data...)
	}
	return append(dst, '}'), nil
}

func sizeAnthropic(t *AnthropicTool) int {
	n := entryKeys + len(t.Type) + len(t.Name) + len(t.Description) + len(t.InputSchema)
	for _, e := range t.InputExamples {
		n += len(e) + 1
	}
	return n
}

// NameAnthropic is Anthropic's name, as [Provider.Name] and
// [ReplyError.Provider] spell it.
const NameAnthropic = "anthropic"

// anthropicChoice renders a Choice for ToolChoice.
func anthropicChoice(c Choice) (string, json.RawMessage, error) {
	switch {
	case len(c.Allowed) == 0:
		return "tool_choice", json.RawMessage(`{"type":"` + [...]string{"auto", "any", "none"}[c.Mode] + `"}`), nil
	case c.Mode == ChoiceRequired && len(c.Allowed) == 1:
		b := appendString([]byte(`{"type":"tool","name":`), c.Allowed[0])
		return "tool_choice", append(b, '}'), nil
	}
	return "", nil, errNoSubset(c)
}
