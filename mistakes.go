package toolnexus

import (
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// How a toolkit reads a call the model may have got slightly wrong, before
// the call runs (docs/mistakes.md): a strict rendering's nulls, which mean
// "left out".

// WithProvider says which Provider rendered the tools the model was shown,
// for calls that do not say it themselves: calls made from an SDK's types
// (tnopenai.Run, say), or parsed by a package function
// (adapters.ParseOpenAIReply) from a reply to tools rendered with options.
// A call whose Rendering is zero is then read as p's Parse would mark it
// ([adapters.RenderingOf]): under p's strict rendering, a null for an
// optional property means the property was left out. Calls parsed by a
// Provider's Parse or stream carry their rendering already, which wins.
func WithProvider(p adapters.Provider) RunOption {
	r := adapters.RenderingOf(p)
	return runOption(func(c *runConfig) { c.rendering = r })
}

// effective returns call c as its tool reads it under the rendering r of
// the batch (used when c carries none): c itself, or, when a strict
// rendering's nulls are to be read as absent, a copy with its arguments
// so read. It costs a few comparisons for a call that needs none of it.
func (tk *Toolkit) effective(c *adapters.Call, r adapters.Rendering) *adapters.Call {
	if tk.pinned == nil && c.Rendering.IsZero() && r.IsZero() {
		return c
	}
	i, ok := tk.byName[c.Name]
	if !ok {
		return c
	}
	if !c.Rendering.IsZero() {
		r = c.Rendering
	}
	t := tk.tools[i]
	if !(tk.pinned != nil && tk.pinned[i]) && !r.NullMeansAbsent(t) {
		return c
	}
	return nullsAbsent(c, t)
}

// nullsAbsent returns a copy of c whose arguments read a strict
// rendering's nulls as absent; c itself when they hold none.
func nullsAbsent(c *adapters.Call, t define.Tool) *adapters.Call {
	e := *c
	if e.Input != nil {
		e.Input = t.NullsAsAbsent(e.Input)
	} else {
		e.Args = t.NullsAsAbsentJSON(e.Args)
		if len(e.Args) == len(c.Args) {
			return c // nothing was removed
		}
	}
	return &e
}

// strictPins returns, per tool, whether it is pinned strict
// (define.WithStrict(true)); nil when none is.
func strictPins(tools []define.Tool) []bool {
	var pins []bool
	for i, t := range tools {
		if on, pinned := t.StrictPin(); on && pinned {
			if pins == nil {
				pins = make([]bool, len(tools))
			}
			pins[i] = true
		}
	}
	return pins
}
