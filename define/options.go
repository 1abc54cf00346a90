package define

import (
	"fmt"

	"github.com/toolnexus/toolnexus/internal/reflectx"
	"github.com/toolnexus/toolnexus/schema"
)

// Option configures [DefineTool] and [NewTool].
//
// The set of options is sealed: only this package can implement Option.
type Option interface {
	apply(*config)
	fmt.Stringer
}

type config struct {
	name        string
	nameSet     bool
	description string
	title       string
	limits      reflectx.Limits    // argument bounds; zero fields mean the defaults
	maxOutput   int                // 0: DefaultMaxOutputBytes; < 0: none
	maxPart     int                // 0: DefaultMaxPartBytes; < 0: none
	schemaLim   schema.ParseLimits // NewTool's hand-written schema; zero fields mean the defaults
	strict      strictPin
	examples    []any // WithExamples (examples.go)
	examplesSet bool
	meta        *meta // annotations and icons (annotations.go); nil for none
	// noValidation: NewTool checks only that arguments are one object
	// (WithoutValidation).
	noValidation bool
	sanitizeName bool // WithSanitizedName (names.go)
}

// strictPin is a tool's strictness as pinned by [WithStrict].
type strictPin uint8

const (
	strictUnset strictPin = iota
	strictOff
	strictOn
)

type optionFunc struct {
	f    func(*config)
	text string
}

func (o optionFunc) apply(c *config) { o.f(c) }
func (o optionFunc) String() string  { return o.text }

// WithName sets the tool's name, the one the model calls it by. It must match
// the portable set ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$ that every provider accepts.
// Without it, [DefineTool] derives the name from the Go function's name.
func WithName(name string) Option {
	return optionFunc{func(c *config) { c.name, c.nameSet = name, true }, fmt.Sprintf("WithName(%q)", name)}
}

// WithDescription sets the tool's description: what it does and when the
// model should call it.
func WithDescription(description string) Option {
	return optionFunc{func(c *config) { c.description = description }, fmt.Sprintf("WithDescription(%q)", description)}
}

// WithTitle sets a human-readable title (MCP's tool title; other providers
// ignore it).
func WithTitle(title string) Option {
	return optionFunc{func(c *config) { c.title = title }, fmt.Sprintf("WithTitle(%q)", title)}
}

// Default limits of a tool's calls; see [WithMaxArgBytes],
// [WithMaxPatternBytes] and [WithMaxOutputBytes].
const (
	DefaultMaxArgBytes     = reflectx.DefaultMaxBytes        // 4 MiB
	DefaultMaxPatternBytes = reflectx.DefaultMaxPatternBytes // 16 KiB
	DefaultMaxOutputBytes  = 1 << 20                         // 1 MiB
)

// WithMaxArgBytes bounds the size of one call's arguments: the length of
// the JSON text given to [Tool.ExecuteJSON], or for [Tool.Execute] the
// length the map would have as compact JSON text (strings escaped only
// where JSON requires it, numbers as encoding/json writes them; counted
// while decoding, each appearance of a shared value counting again), so
// that a map of exactly n bytes as text is accepted as that text is. Larger arguments are an
// error result wrapping [ErrTooLarge], found without decoding them. n = 0
// means [DefaultMaxArgBytes]; n < 0 means no bound.
func WithMaxArgBytes(n int) Option {
	return optionFunc{func(c *config) { c.limits.MaxBytes = n }, fmt.Sprintf("WithMaxArgBytes(%d)", n)}
}

// WithMaxPatternBytes bounds the length of an argument string checked
// against a pattern tag that needs Go's general regular-expression
// matcher, whose time grows with the string's length times the pattern's
// size (seconds for a megabyte against "[a-z]{2,64}x"). A longer string
// breaks the constraint ([ErrConstraint]). Patterns of fixed length
// anchored at both ends (`^[A-Z]{3}$`) are matched by a plain loop and not
// bounded. n = 0 means [DefaultMaxPatternBytes]; n < 0 means no bound.
func WithMaxPatternBytes(n int) Option {
	return optionFunc{func(c *config) { c.limits.MaxPatternBytes = n }, fmt.Sprintf("WithMaxPatternBytes(%d)", n)}
}

// WithMaxOutputBytes bounds the length of a call's rendered output
// ([Result].Output), what the model would be sent, and of a returned
// Result's Value as JSON (a structured output): a longer one becomes an
// error result wrapping [ErrOutputTooLarge]. A value's encoding stops as
// soon as it passes the bound, so refusing a huge output costs about n
// bytes. n = 0 means [DefaultMaxOutputBytes]; n < 0 means no bound.
//
// A result with parts ([Result.Parts]) is bounded as a whole too: its
// Output and every part's [Part.EncodedSize] (data counted as base64,
// what the provider's JSON carries) together at most n bytes, or
// [DefaultMaxResultBytes] (32 MiB) when n = 0, so that the default
// keeps text outputs at 1 MiB and lets images through.
func WithMaxOutputBytes(n int) Option {
	return optionFunc{func(c *config) { c.maxOutput = n }, fmt.Sprintf("WithMaxOutputBytes(%d)", n)}
}

// WithMaxPartBytes bounds each part of a call's result ([Result.Parts])
// by its [Part.EncodedSize]: its data's base64 length (4 bytes for every
// 3), its text, or its URL. A larger part makes the call an error result
// naming the tool and the part ([PartError], wrapping
// [ErrOutputTooLarge]). n = 0 means [DefaultMaxPartBytes] (20 MiB, about
// 15 MB of data); n < 0 means no bound. Providers bound parts too
// (Anthropic an image at 5 MB, Bedrock at 3.75 MB): docs/limits.md.
func WithMaxPartBytes(n int) Option {
	return optionFunc{func(c *config) { c.maxPart = n }, fmt.Sprintf("WithMaxPartBytes(%d)", n)}
}

// MaxOutputBytes is the output limit that opts give a tool, resolved as
// the tool resolves it: the n of the last [WithMaxOutputBytes](n) among
// them, [DefaultMaxOutputBytes] for none or 0, and a negative number for
// no bound. A proxy that joins a remote result itself (the MCP client)
// reads its limit here, so that it cuts where the tool would.
func MaxOutputBytes(opts ...Option) int { return newConfig(opts).outputLimit() }

// WithMaxSchemaBytes bounds the length of the hand-written schema given
// to [NewTool] (a proxy's schema comes from another server): a longer one
// is an error wrapping [schema.ErrTooLarge]. n = 0 means
// [schema.DefaultMaxParseBytes] (1 MiB); n < 0 means no bound. DefineTool
// ignores it.
func WithMaxSchemaBytes(n int) Option {
	return optionFunc{func(c *config) { c.schemaLim.MaxBytes = n }, fmt.Sprintf("WithMaxSchemaBytes(%d)", n)}
}

// WithMaxSchemaNodes bounds the number of schemas (each property, item and
// boolean schema counting one) in the hand-written schema given to
// [NewTool]: each takes over 500 bytes in memory however short its text,
// so this bounds the memory its parsing takes. More is an error wrapping
// [schema.ErrTooLarge]. n = 0 means [schema.DefaultMaxParseNodes]
// (32,768); n < 0 means no bound. DefineTool ignores it.
func WithMaxSchemaNodes(n int) Option {
	return optionFunc{func(c *config) { c.schemaLim.MaxNodes = n }, fmt.Sprintf("WithMaxSchemaNodes(%d)", n)}
}

// WithStrict pins the tool's strict (grammar-constrained) mode for the
// providers that have one (OpenAI Chat and Responses, Anthropic), whatever
// the rendering call's options say: WithStrict(true) makes the tool strict
// in every rendering, and a schema the provider's strict subset cannot
// express is then a rendering error, never a silent fallback;
// WithStrict(false) keeps the tool non-strict even under
// adapters.Strict(true). Providers without a strict mode ignore it.
func WithStrict(on bool) Option {
	pin := strictOff
	if on {
		pin = strictOn
	}
	return optionFunc{func(c *config) { c.strict = pin }, fmt.Sprintf("WithStrict(%t)", on)}
}

// WithoutValidation makes [NewTool] check only that a call's arguments are
// one JSON object (within [WithMaxArgBytes] and the nesting depth), not
// validate them against the schema: for a schema with a keyword the
// validator cannot enforce, whose handler (or remote server) checks the
// arguments itself. The schema is still parsed and rendered as given.
// DefineTool ignores it: decoding into the input type is its validation.
func WithoutValidation() Option {
	return optionFunc{func(c *config) { c.noValidation = true }, "WithoutValidation()"}
}
