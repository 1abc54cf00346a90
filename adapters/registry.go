package adapters

import (
	"encoding/json"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

// A provider home is the file set of one provider (openai.go and
// openai_reply.go, gemini*.go, ...): its wire types, its public functions
// (ToX, ParseXReply, XResults, ForX) and one spec value that tells the
// core of this package (every other file) everything it needs to know
// about the provider. The core reaches a home only through its spec, and
// no home uses another's names (CONTRIBUTING.md, "The boundary";
// boundary_test.go holds it), so a new provider is a new home plus one
// line in homes below; the conformance test (conformance_test.go) runs
// every registered home alike.

// spec describes one provider to the shared core.
type spec struct {
	name     string // Provider.Name and ReplyError.Provider: "openai"
	funcName string // its tools function, in render errors: "ToOpenAI"
	display  string // the provider in messages: "OpenAI"
	// base is the registered spec of the home that made this one for a
	// server it speaks to (the OpenAI home's server profiles); nil for a
	// spec listed in homes.
	base *spec

	options    optionKind // the options its tools function accepts
	optionText string     // their names, for the error on another option
	toolName   nameRule   // the rule tool names follow
	key        *nameRule  // the rule property keys follow; nil when none is documented
	maxTools   int        // tools per request; 0 when no limit is documented
	// maxDescription is the most characters a tool's description may
	// hold (OpenAI's 1024); 0 when no limit is known.
	maxDescription int

	// dialect is the JSON Schema dialect a rendering with cfg uses.
	dialect func(cfg config) *dialect
	// inline reports whether a rendering with cfg inlines references
	// rather than keeping $ref/$defs; nil means it never does.
	inline func(cfg config) bool
	// depthAlways keeps MaxInlineDepth in the cache key even when the
	// call's options do not inline (a tool pinned strict may).
	depthAlways bool
	// schemaLimits checks a rendered schema against the provider's limits
	// on one schema (OpenAI strict's size limits) and returns every limit
	// it exceeds; nil when the provider has none.
	schemaLimits func(c *conv, rendered *schema.Schema) []*Error
	// rootUnions: the non-strict dialect accepts anyOf, oneOf and allOf
	// at the root of an input schema.
	rootUnions bool
	// keepExtra: unknown keywords of hand-written schemas are kept.
	keepExtra bool

	// The round trip, as Provider exposes it. Each function is given the
	// spec it belongs to, so that a home's functions never refer back to
	// its own spec variable.
	tools func(p *spec, tools []define.Tool, opts []Option) (any, error)
	// build renders one tool with cfg, uncached: its tools function's
	// entry (a declaration, for Gemini). The tests render through it.
	build func(p *spec, cfg config, d toolData) (any, error)
	parse func(l ReplyLimits, reply []byte) (Turn, error)
	// results renders results as history entries with the options of
	// ForX (the results options among them; the others are ignored).
	results func(p *spec, calls []Call, results []define.Result, opts []Option) ([]any, error)
	// media tells where the parts of results go.
	media  *mediaSpec
	prompt func(text string) []any

	// stream reads the provider's streamed replies; nil when it has none
	// (MCP).
	stream *streamSpec

	// choice renders a Choice for the request (see ToolChoice): the
	// field's name and value; nil when the provider has none.
	choice func(c Choice) (field string, value json.RawMessage, err error)

	// shape names the reply shape the provider shares with other homes
	// (chatShape: OpenAI Chat Completions'), whose parsers then read each
	// other's replies; "" for a shape of its own.
	shape string

	// looks names the provider's reply shape that a JSON object is, from
	// its top-level members (member returns one, nil when absent), for
	// the errors of the other providers' parsers: "an Ollama /api/chat
	// reply"; "" when the object is none of the provider's shapes. Each
	// home claims only what no home before it in homes claims, so a home
	// that shares a shape leaves it to the first home of that shape.
	looks func(member func(key string) []byte) string

	// appendJSON is AppendJSON for the tools value of this home's type:
	// ok is false for a value of another type. Nil when the home's tools
	// value has the type of another home's (Ollama's is OpenAI's).
	appendJSON func(dst []byte, tools any) (out []byte, ok bool, err error)

	// answer renders a Searcher's answers to client-side searches (see
	// Searcher.Answer); nil when the provider has no deferred loading.
	answer func(p *spec, s *Searcher, searches []Search, opts []Option) ([]any, error)
	// clientSearchNamed: the client-side search tool is a tool named
	// SearchToolName, so no tool of the request may have that name.
	clientSearchNamed bool

	// answers asks for typed answers and reads them (ResponseFormat,
	// AnswerText); nil when the provider has no model answer (MCP).
	answers *answerSpec

	// body writes the members of a request body (NewBody) but the
	// history, into w, and returns the history's key and its first entry
	// (a system message; nil for none); nil when the provider has no
	// model request (MCP).
	body func(p *spec, w *bodyWriter, r *bodyParts) (history string, first []byte, err error)
}

// homes is every provider of this package, one line each.
var homes = [...]*spec{
	openAISpec,
	responsesSpec,
	anthropicSpec,
	geminiSpec,
	mcpSpec,
	bedrockSpec,
	ollamaSpec,
	mistralSpec,
}

// shapeHomes is homes for looksLike, which the parsers in homes call: it
// is set in init because a variable would make an initialization cycle
// (homes -> a spec -> its parser -> looksLike -> homes).
var shapeHomes []*spec

func init() { shapeHomes = homes[:] }

// home is the name of p's home: the registered spec's name, whose own
// options (optMode) p takes.
func (p *spec) home() string {
	if p.base != nil {
		return p.base.name
	}
	return p.name
}

// inlines reports whether p with c inlines references.
func (p *spec) inlines(c config) bool { return p.inline != nil && p.inline(c) }

// plainDialectFor is the dialect function of a provider whose schemas are
// JSON Schema as is, whatever the options.
func plainDialectFor(config) *dialect { return &plainDialect }

// buildAs is a spec's build for a home's typed build function.
func buildAs[T any](build func(*spec, config, toolData) (T, error)) func(*spec, config, toolData) (any, error) {
	return func(p *spec, cfg config, d toolData) (any, error) { return build(p, cfg, d) }
}

// appendAs is a spec's appendJSON for tools values of type []T.
func appendAs[T any](size func(*T) int, one func([]byte, *T) ([]byte, error)) func([]byte, any) ([]byte, bool, error) {
	return func(dst []byte, tools any) ([]byte, bool, error) {
		ts, ok := tools.([]T)
		if !ok {
			return dst, false, nil
		}
		out, err := appendList(dst, ts, size, one)
		return out, true, err
	}
}

// Providers returns the [Provider] of every provider this package speaks,
// with default options, in the order of its docs: OpenAI Chat
// Completions, OpenAI Responses, Anthropic, Gemini, MCP, Bedrock, Ollama,
// Mistral.
// It serves code that chooses a provider by [Provider.Name] at run time,
// and tests that hold every provider to the same checks.
func Providers() []Provider {
	out := make([]Provider, len(homes))
	for i, h := range homes {
		out[i] = forSpec(h, nil)
	}
	return out
}
