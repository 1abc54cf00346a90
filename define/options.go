package define

import "fmt"

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
	strict      strictPin
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
