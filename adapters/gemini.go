package adapters

import (
	"encoding/json"
	"errors"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

// The Gemini (and Vertex AI) generateContent home: this file (tools),
// gemini_schema.go (the OpenAPI subset of "parameters") and
// gemini_reply.go (replies, streams as JSON arrays, and results).

var geminiSpec = &spec{
	name: NameGemini, funcName: "ToGemini", display: "Gemini",
	options: optMode | optMaxInlineDepth | optAnswer, optionText: "GeminiJSONSchema, GeminiParameters, MaxInlineDepth, AnswerTool",
	// A letter or _, then [a-zA-Z0-9_.:-], at most 64 (the observed server
	// limit; the SDK documents 128).
	toolName: nameRule{text: "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$", min: 1, max: 64,
		first: isLetterUnder,
		rest:  func(c byte) bool { return isAlnum(c) || c == '_' || c == '.' || c == ':' || c == '-' }},
	// Property keys under "parameters" (geminiJSONDialect has anyKey): no
	// published source, see docs/providers.md.
	key: &nameRule{text: "^[A-Za-z0-9_]{1,64}$", min: 1, max: 64,
		rest: func(c byte) bool { return isAlnum(c) || c == '_' }},
	maxTools: 512, // function declarations per tool
	dialect: func(cfg config) *dialect {
		switch geminiMode(cfg.mode) {
		case geminiJSON:
			return &geminiJSONDialect
		case geminiParams:
			return &geminiParamsDialect
		}
		return &geminiAutoDialect
	},
	inline: func(cfg config) bool { return geminiMode(cfg.mode) != geminiJSON },
	tools:  func(p *spec, t []define.Tool, o []Option) (any, error) { return toGeminiTools(p, t, o) },
	build:  buildAs(buildGemini),
	parse:  ReplyLimits.ParseGeminiReply,
	stream: geminiStreamSpec,
	results: func(p *spec, c []Call, r []define.Result, o []Option) ([]any, error) {
		cfg, err := resultsConfig(p, "GeminiResults", o, false)
		if err != nil {
			return nil, err
		}
		if !hasParts(r) {
			return geminiTextResults("GeminiResults", c, r)
		}
		m, attach, err := geminiResults(p, "GeminiResults", c, r, cfg)
		if err != nil {
			return nil, err
		}
		if u := geminiMediaContent(attach); u != nil {
			return []any{m, *u}, nil
		}
		return []any{m}, nil
	},
	media: &mediaSpec{place: geminiPlace, options: "MediaAsNote, GeminiMediaInUserTurn"},
	looks: func(member func(string) []byte) string {
		switch {
		case member("candidates") != nil || member("promptFeedback") != nil:
			return "a Gemini response"
		case string(member("role")) == `"model"` || member("parts") != nil:
			return "a Gemini content"
		}
		return ""
	},
	prompt: func(text string) []any {
		return []any{promptGeminiContent{Role: "user", Parts: []promptGeminiPart{{Text: text}}}}
	},
	appendJSON: appendAs(sizeGemini, appendGemini),
	choice:     geminiChoice,
	answers: &answerSpec{strict: strictNone, format: geminiFormat, stop: func(stop string) answerStop {
		switch stop {
		case "MAX_TOKENS":
			return stopCut
		case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY":
			return stopRefused
		}
		return stopAnswered
	}},
	body: geminiBody,
}

var (
	// geminiJSONDialect is Gemini's parametersJsonSchema. Gemini does not
	// document pattern there, so it moves to the description.
	geminiJSONDialect = dialect{
		name: "Gemini parametersJsonSchema", strict: true, scalarEnums: true,
		numbers: numbersInclusive, minItems: -1, maxItems: true, openMaps: true,
		anyKey:  true, // JSON Schema: the key rule is the "parameters" field's (docs/providers.md)
		format:  func(s *schema.Schema) bool { return geminiFormatOK(s.Types, s.Format) },
		pattern: func(string) bool { return false },
	}
	// geminiParamsDialect is Gemini's parameters, the OpenAPI 3.0 subset,
	// as GeminiParameters() renders it: lossy where the subset allows.
	geminiParamsDialect = dialect{
		name: "Gemini parameters", hint: gemHint, nodes: geminiNodes{}, strict: true, typed: true,
		lengths: true, defaults: true, examples: 1,
		numbers: numbersInclusive, minItems: -1, maxItems: true, typedItems: true,
		format:  func(s *schema.Schema) bool { return geminiFormatOK(s.Types, s.Format) },
		pattern: func(string) bool { return true },
	}
	// geminiAutoDialect is geminiParamsDialect as ToGemini renders it by
	// default: what the subset says with a loss is an error, and the
	// declaration goes as parametersJsonSchema instead.
	geminiAutoDialect = func() dialect {
		d := geminiParamsDialect
		d.nodes = geminiNodes{fallback: true}
		return d
	}()
)

// geminiMode is how [ToGemini] chooses between "parameters" and
// "parametersJsonSchema": the mode (config.mode) its options set.
type geminiMode uint8

const (
	geminiAuto   geminiMode = iota // per declaration: parameters when the subset carries it
	geminiJSON                     // GeminiJSONSchema(): parametersJsonSchema everywhere
	geminiParams                   // GeminiParameters(): parameters everywhere, or an error
)

// GeminiMediaInUserTurn makes [GeminiResults] (and the Results of
// [ForGemini] with it) send every part of the results in a user content
// after the function responses, as models before Gemini 3 need (they
// take no functionResponse.parts), instead of the images and PDFs inside
// the function responses. It is a results option: ToGemini ignores it.
func GeminiMediaInUserTurn() Option {
	return option{k: optResults, f: func(c *config) { c.mediaMode = geminiUserTurn }, text: "GeminiMediaInUserTurn()", owner: NameGemini}
}

// geminiUserTurn is the results mode of GeminiMediaInUserTurn.
const geminiUserTurn = 1

// GeminiJSONSchema makes [ToGemini] send every tool's schema as
// "parametersJsonSchema" (JSON Schema, with $ref/$defs, additionalProperties
// and type lists) instead of "parameters" (Gemini's OpenAPI subset). Without
// it, ToGemini already chooses per declaration: "parameters" where the
// subset carries the schema, "parametersJsonSchema" for that declaration
// alone where it does not. It conflicts with [GeminiParameters].
func GeminiJSONSchema() Option {
	return modeOption(NameGemini, uint8(geminiJSON), "GeminiJSONSchema()")
}

// GeminiParameters makes [ToGemini] send every tool's schema as
// "parameters" (Gemini's OpenAPI subset), for callers that must stay on
// it (an older model or gateway without "parametersJsonSchema"). A schema
// the subset cannot express (a map, an untyped value, an array without
// items, an object without properties as array items or a union branch, a
// property key outside ^[A-Za-z0-9_]{1,64}$) is then an [*Error] instead of
// a "parametersJsonSchema" declaration, and the lossy renderings the subset allows (a union next to
// a type, kept as a note; an optional object without properties, left out
// with a note) are used. It conflicts with [GeminiJSONSchema].
func GeminiParameters() Option {
	return modeOption(NameGemini, uint8(geminiParams), "GeminiParameters()")
}

// geminiFormatOK: STRING takes enum and date-time, INTEGER int32 and int64,
// NUMBER float and double.
func geminiFormatOK(types []string, format string) bool {
	for _, t := range types {
		switch {
		case t == "string" && (format == "date-time" || format == "enum"),
			t == "integer" && (format == "int32" || format == "int64"),
			t == "number" && (format == "float" || format == "double"):
			return true
		}
	}
	return false
}

type promptGeminiContent struct {
	Role  string             `json:"role"`
	Parts []promptGeminiPart `json:"parts"`
}

type promptGeminiPart struct {
	Text string `json:"text"`
}

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
// 64; at most 512 tools. Property keys under "parameters" must match
// ^[A-Za-z0-9_]{1,64}$: by default a declaration with another key (as
// "Content-Type") goes as "parametersJsonSchema", which takes any key;
// with [GeminiParameters] it is an [ErrPropertyKey].
func ToGemini(tools []define.Tool, opts ...Option) ([]GeminiTool, error) {
	return toGeminiTools(geminiSpec, tools, opts)
}

func toGeminiTools(p *spec, tools []define.Tool, opts []Option) ([]GeminiTool, error) {
	decls, err := render(p, tools, opts, buildGemini)
	if err != nil {
		return nil, err
	}
	return []GeminiTool{{FunctionDeclarations: decls}}, nil
}

func buildGemini(p *spec, cfg config, d toolData) (GeminiFunctionDeclaration, error) {
	if err := p.checkToolName(d.name); err != nil {
		return GeminiFunctionDeclaration{}, err
	}
	decl := GeminiFunctionDeclaration{Name: d.name, Description: d.description}
	if geminiMode(cfg.mode) != geminiJSON {
		params, err := renderGemini(p, cfg, d.name, d.in)
		switch {
		case err == nil:
			decl.Parameters = params
			return decl, nil
		case geminiMode(cfg.mode) == geminiParams || !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrLimit) && !errors.Is(err, ErrPropertyKey):
			return GeminiFunctionDeclaration{}, err
		}
		// The subset cannot carry this schema, a property key breaks its
		// key rule, or inlining its references would exceed the budget
		// (inline_budget.go): this declaration alone goes as JSON Schema,
		// which takes any key and keeps references (no inlining).
		cfg.mode = uint8(geminiJSON)
		cfg.depth = DefaultMaxInlineDepth
	}
	js, err := renderJS(p, cfg, d.name, d.in, "input")
	if err != nil {
		return GeminiFunctionDeclaration{}, err
	}
	if !emptyObjectSchema(js) {
		decl.ParametersJSONSchema = js
	}
	return decl, nil
}

// geminiFormat renders an answer's generationConfig members:
// {"responseMimeType":"application/json","responseSchema":...} (the
// OpenAPI subset) where the subset carries the schema, else
// "responseJsonSchema" (JSON Schema), chosen as for a tool's declaration
// and forced the same way by GeminiJSONSchema() and GeminiParameters().
// The answer's description becomes the schema's when it has none.
func geminiFormat(p *spec, cfg config, d toolData) (string, json.RawMessage, error) {
	d = describedRoot(d)
	b := []byte(`{"responseMimeType":"application/json",`)
	if geminiMode(cfg.mode) != geminiJSON {
		params, err := renderGemini(p, cfg, d.name, d.in)
		switch {
		case err == nil && params != nil:
			b, err = appendRaw(append(b, `"responseSchema":`...), params)
			return "generationConfig", append(b, '}'), err
		case err == nil: // an object without properties, which the subset refuses
		case geminiMode(cfg.mode) == geminiParams || !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrLimit) && !errors.Is(err, ErrPropertyKey):
			return "", nil, err
		}
		cfg.mode = uint8(geminiJSON)
		cfg.depth = DefaultMaxInlineDepth
	}
	js, err := renderJS(p, cfg, d.name, d.in, "answer")
	if err != nil {
		return "", nil, err
	}
	b, err = appendRaw(append(b, `"responseJsonSchema":`...), js)
	return "generationConfig", append(b, '}'), err
}

// renderGemini renders an input schema as Gemini "parameters"; nil means the
// tool takes no arguments and the declaration has no parameters.
func renderGemini(p *spec, cfg config, tool string, s *schema.Schema) (json.RawMessage, error) {
	c := newConv(p, cfg, tool, s)
	root, err := c.rootNode(s, "input")
	if err != nil {
		return nil, c.done(err)
	}
	out, _, err := c.js(root, nil)
	if err := c.done(err); err != nil {
		return nil, err
	}
	if len(out.Properties) == 0 {
		return nil, nil
	}
	data, err := toGemini(out).appendJSON(nil)
	if err != nil {
		return nil, c.done(&Error{Func: p.funcName, Tool: tool, Err: ErrUnsupported, Msg: err.Error()})
	}
	return frozen(data), nil
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

// ForGemini returns the [Provider] for Gemini and Vertex AI
// generateContent. Tools is [ToGemini] with opts; Parse is
// [ParseGeminiReply]; Results is [GeminiResults], one user content (a
// [GeminiFunctionTextResponses], the same JSON, when no result has parts);
// Prompt is {"role":"user","parts":[{"text":text}]}. The history is the
// request's contents.
func ForGemini(opts ...Option) Provider { return forSpec(geminiSpec, opts) }

func appendGemini(dst []byte, t *GeminiTool) ([]byte, error) {
	dst = append(dst, `{"functionDeclarations":`...)
	dst, err := appendList(dst, t.FunctionDeclarations, nil, func(dst []byte, d *GeminiFunctionDeclaration) ([]byte, error) {
		dst = append(dst, `{"name":`...)
		dst = appendString(dst, d.Name)
		if d.Description != "" {
			dst = append(dst, `,"description":`...)
			dst = appendString(dst, d.Description)
		}
		var err error
		if len(d.Parameters) > 0 {
			dst = append(dst, `,"parameters":`...)
			if dst, err = appendRaw(dst, d.Parameters); err != nil {
				return dst, err
			}
		}
		if len(d.ParametersJSONSchema) > 0 {
			dst = append(dst, `,"parametersJsonSchema":`...)
			if dst, err = appendRaw(dst, d.ParametersJSONSchema); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	})
	return append(dst, '}'), err
}

func sizeGemini(t *GeminiTool) int {
	n := entryKeys
	for i := range t.FunctionDeclarations {
		d := &t.FunctionDeclarations[i]
		n += entryKeys + len(d.Name) + len(d.Description) + len(d.Parameters) + len(d.ParametersJSONSchema)
	}
	return n
}

// NameGemini is Gemini's name, as [Provider.Name] and [ReplyError.Provider]
// spell it.
const NameGemini = "gemini"

// geminiChoice renders a Choice for ToolChoice.
func geminiChoice(c Choice) (string, json.RawMessage, error) {
	mode := [...]string{"AUTO", "ANY", "NONE"}[c.Mode]
	if len(c.Allowed) == 0 {
		return "toolConfig", json.RawMessage(`{"functionCallingConfig":{"mode":"` + mode + `"}}`), nil
	}
	if c.Mode == ChoiceAuto {
		mode = "VALIDATED" // AUTO takes no allowedFunctionNames
	}
	b := []byte(`{"functionCallingConfig":{"mode":"` + mode + `","allowedFunctionNames":`)
	b = choiceNames(b, c.Allowed, "", "")
	return "toolConfig", append(b, "}}"...), nil
}
