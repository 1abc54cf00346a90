package adapters

import (
	"fmt"
	"strconv"
)

// Option configures one rendering call (ToOpenAI, ToGemini, ...). Options
// are sealed: only this package implements them. An option that does not
// apply to the provider being rendered is an error (it names the option),
// not silently ignored.
type Option interface {
	apply(*config)
	// kind reports which option field the option sets, to check that the
	// provider accepts it.
	kind() optionKind
	// home is the name of the one home that takes an optMode option; ""
	// for an option several homes take.
	home() string
	fmt.Stringer
}

type optionKind uint8

const (
	optStrict optionKind = 1 << iota
	optMaxInlineDepth
	optDeferred // Deferred, DeferOnly, ToolSearch
	// optMode is the option of one home's own (GeminiJSONSchema,
	// NullAsAnyOf, Namespace...): its owner names the home, and no other
	// home takes it. Those that set config.mode conflict with each other.
	optMode
	// optAnswer is AnswerTool: how a Provider asks for typed answers. It
	// changes no rendering of tools.
	optAnswer
	// optRepair is RepairArguments: it sets nothing of a rendering (so
	// it is no part of the cache key); a Provider's parses read it.
	optRepair
	// optResults is an option of the results functions (MediaAsNote, and
	// with an owner a home's own): every home's ToX accepts and ignores
	// it, so that one option list serves ForX.
	optResults
)

// DefaultMaxInlineDepth is how many times one recursive type appears nested
// on any path of a schema rendered for a provider that does not accept
// references (Gemini parameters, Anthropic strict), unless MaxInlineDepth
// says otherwise.
const DefaultMaxInlineDepth = 3

// maxInlineDepthLimit bounds MaxInlineDepth: inlining is exponential in the
// depth for a type with two recursive fields.
const maxInlineDepthLimit = 8

// config is the option set of one call. It is comparable: it is part of the
// per-tool cache key.
type config struct {
	strict     bool  // strict rendering (per tool, after define.WithStrict)
	strictAuto bool  // StrictWherePossible(): strict when the schema allows
	depth      int   // MaxInlineDepth; 0 means DefaultMaxInlineDepth
	mode       uint8 // a home's own mode, set by its options (Gemini's schema field, MCP's NullAsAnyOf); 0 is its default

	// The results options, which a rendering never reads (newConfig
	// leaves them zero, so that they make no cache key of their own).
	mediaNote bool  // MediaAsNote
	mediaMode uint8 // a home's own results mode (GeminiMediaInUserTurn)
}

type option struct {
	k     optionKind
	f     func(*config)
	text  string
	owner string // for optMode: the name of the home that takes it
}

func (o option) apply(c *config)  { o.f(c) }
func (o option) kind() optionKind { return o.k }
func (o option) String() string   { return o.text }
func (o option) home() string     { return o.owner }

// modeOption is an option of the home named owner that sets config.mode.
func modeOption(owner string, mode uint8, text string) Option {
	return option{k: optMode, f: func(c *config) { c.mode = mode }, text: text, owner: owner}
}

// Strict asks for the provider's strict (grammar-constrained) tool mode on
// every tool of the call:
//
//   - OpenAI Chat Completions and Responses: "strict": true, with the
//     schema in the Structured Outputs subset (every object closed, every
//     property required, optional properties nullable) and within its size
//     limits.
//   - Anthropic: "strict": true, with the schema in Anthropic's strict
//     subset; recursive types are inlined to [MaxInlineDepth].
//
// Strict(true) never weakens a tool: a schema the subset cannot express (an
// open map, an untyped value) is an error. [StrictWherePossible] is the
// option that sends such tools non-strict instead. The default is
// Strict(false): tools are sent non-strict, except those pinned with
// define.WithStrict(true). A pin made at define time always wins over the
// call's option. The Responses API treats an omitted "strict" as true, so
// [ToOpenAIResponses] always sends it.
func Strict(on bool) Option {
	return option{optStrict, func(c *config) { c.strict, c.strictAuto = on, false }, "Strict(" + strconv.FormatBool(on) + ")", ""}
}

// StrictWherePossible renders each tool of the call strict where its schema
// fits the provider's strict subset and limits, and non-strict where it
// does not, so that one call renders a mixed list. Tools pinned with
// define.WithStrict keep their pin: a tool pinned strict that cannot be is
// still an error. Anthropic's per-request budgets (strict tools, optional
// and union-typed parameters across strict schemas) are filled in list
// order; the tools that would exceed them are sent non-strict.
func StrictWherePossible() Option {
	return option{optStrict, func(c *config) { c.strict, c.strictAuto = false, true }, "StrictWherePossible()", ""}
}

// MaxInlineDepth sets how many times one recursive type may appear nested on
// any path when a provider does not accept references and recursive types
// are inlined instead (Gemini "parameters", Anthropic strict). Beyond it, the
// property that recurses is left out and the enclosing object's description
// says so. n must be between 1 and 8; the default is
// [DefaultMaxInlineDepth].
func MaxInlineDepth(n int) Option {
	return option{optMaxInlineDepth, func(c *config) { c.depth = n }, "MaxInlineDepth(" + strconv.Itoa(n) + ")", ""}
}

// newConfig applies opts for the provider p, rejecting options p does not
// take. It normalises the result so that equal renderings share one cache
// key.
func newConfig(p *spec, opts []Option) (config, error) {
	var c config
	var modeOpt [2]Option // the Strict and the home's mode options seen, to catch conflicts
	for _, o := range opts {
		if o == nil {
			continue
		}
		if o.kind() == optResults && (o.home() == "" || o.home() == p.home()) {
			continue // read by the results functions
		}
		if o.kind()&p.options == 0 || o.home() != "" && o.home() != p.home() {
			return config{}, &Error{Func: p.funcName, Err: ErrOption,
				Msg: fmt.Sprintf("option %v does not apply to %s (it takes %s)", o, p.display, p.optionText)}
		}
		before := c
		o.apply(&c)
		slot := -1
		switch o.kind() {
		case optStrict:
			slot = 0
		case optMode:
			slot = 1
		}
		if slot >= 0 {
			if prev := modeOpt[slot]; prev != nil && before != c {
				return config{}, &Error{Func: p.funcName, Err: ErrOption,
					Msg: fmt.Sprintf("option %v conflicts with %v: choose one", o, prev)}
			}
			modeOpt[slot] = o
		}
	}
	if c.depth == 0 {
		c.depth = DefaultMaxInlineDepth
	}
	if c.depth < 1 || c.depth > maxInlineDepthLimit {
		return config{}, &Error{Func: p.funcName, Err: ErrOption,
			Msg: fmt.Sprintf("MaxInlineDepth(%d): the depth must be between 1 and %d", c.depth, maxInlineDepthLimit)}
	}
	if !p.inlines(c) && !p.depthAlways {
		c.depth = DefaultMaxInlineDepth // irrelevant: keep one cache entry
	}
	return c, nil
}

// memoKey is the per-tool cache key of one rendering: the provider and the
// normalised options. Its type is unexported so no other package's Memo key
// can collide with it.
type memoKey struct {
	p   *spec
	cfg config
}
