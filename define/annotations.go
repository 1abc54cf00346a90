package define

import (
	"fmt"
	"slices"
)

// Hint is one of a tool's behaviour hints ([Annotations]): unset (the
// zero value, the protocol's default applies), true or false.
type Hint int8

const (
	// HintUnset leaves the hint out: the client assumes the protocol's
	// default.
	HintUnset Hint = iota
	// HintTrue says the hint holds.
	HintTrue
	// HintFalse says it does not.
	HintFalse
)

// Set reports whether h is set, and its value.
func (h Hint) Set() (value, ok bool) { return h == HintTrue, h != HintUnset }

// Annotations are hints about what a tool does, for the client that
// decides whether to call it or to ask its user first (MCP's tool
// annotations; other providers ignore them). They are hints from the
// tool's author, not guarantees: a client should not trust them from a
// server it does not trust.
type Annotations struct {
	// ReadOnly: the tool does not change its environment (MCP's
	// readOnlyHint; default false).
	ReadOnly Hint
	// Destructive: the tool may change or delete what exists, rather than
	// only add (destructiveHint; default true; meaningful when not
	// read-only).
	Destructive Hint
	// Idempotent: calling it again with the same arguments has no further
	// effect (idempotentHint; default false; meaningful when not
	// read-only).
	Idempotent Hint
	// OpenWorld: the tool reaches an open world of external entities, as
	// a web search does, rather than a closed domain (openWorldHint;
	// default true).
	OpenWorld Hint
}

// IsZero reports whether no hint is set.
func (a Annotations) IsZero() bool { return a == Annotations{} }

// Icon is an icon a client may show for a tool (MCP's Icon).
type Icon struct {
	// Src is the icon's URI: an https URL or a data: URI. Required.
	Src string
	// MIMEType is the image's type ("image/png"), when Src does not say.
	MIMEType string
	// Sizes are the sizes it is for ("48x48", "any" for a scalable one).
	Sizes []string
	// Theme is "light" or "dark" for an icon meant for that background,
	// "" for any.
	Theme string
}

// meta is what a tool declares for the clients that show it: annotations
// and icons.
type meta struct {
	annotations Annotations
	icons       []Icon
}

func (c *config) metaOf() *meta {
	if c.meta == nil {
		c.meta = &meta{}
	}
	return c.meta
}

// WithAnnotations sets the tool's behaviour hints (MCP's readOnlyHint,
// destructiveHint, idempotentHint and openWorldHint); see [Annotations].
// A later WithAnnotations replaces an earlier one.
func WithAnnotations(a Annotations) Option {
	return optionFunc{func(c *config) { c.metaOf().annotations = a }, fmt.Sprintf("WithAnnotations(%+v)", a)}
}

// WithIcons sets the tool's icons (MCP's icons; other providers ignore
// them). An icon without a Src makes the option an error.
func WithIcons(icons ...Icon) Option {
	icons = slices.Clone(icons)
	for i := range icons {
		icons[i].Sizes = slices.Clone(icons[i].Sizes)
	}
	return optionFunc{func(c *config) { c.metaOf().icons = icons }, fmt.Sprintf("WithIcons(%+v)", icons)}
}

// checkMeta reports an error for a bad icon.
func (c *config) checkMeta() error {
	if c.meta == nil {
		return nil
	}
	for i, ic := range c.meta.icons {
		if ic.Src == "" {
			return fmt.Errorf("icon %d: no Src", i)
		}
		if ic.Theme != "" && ic.Theme != "light" && ic.Theme != "dark" {
			return fmt.Errorf("icon %d: theme %q: want \"light\", \"dark\" or none", i, ic.Theme)
		}
	}
	return nil
}

// Annotations returns the hints set with [WithAnnotations], or the zero
// Annotations.
func (t Tool) Annotations() Annotations {
	if t.s == nil || t.s.meta == nil {
		return Annotations{}
	}
	return t.s.meta.annotations
}

// Icons returns the icons set with [WithIcons], or nil. The caller owns
// the returned slice.
func (t Tool) Icons() []Icon {
	if t.s == nil || t.s.meta == nil || len(t.s.meta.icons) == 0 {
		return nil
	}
	out := slices.Clone(t.s.meta.icons)
	for i := range out {
		out[i].Sizes = slices.Clone(out[i].Sizes)
	}
	return out
}
