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
	if tk.pinned == nil && tk.near == nil && c.Rendering.IsZero() && r.IsZero() {
		return c
	}
	i, ok := tk.byName[c.Name]
	if !ok {
		if i, ok = tk.nearMiss(c.Name); !ok {
			return c
		}
		e := *c
		e.Name, e.SentName = tk.names[i], c.Name
		c = &e
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

// WithNearMissNames makes the toolkit read a call of a name it does not
// have as a call of the one tool whose name it matches once case and the
// separators '_' and '-' are ignored ("Get_Weather", "getWeather" and
// "GET-WEATHER" for get_weather), when exactly one tool matches; two tools
// that match alike (get_weather and getWeather) leave the name unknown.
// The call the toolkit runs, and its middleware, approvers and observers
// see ([Event].Call), has the tool's Name and the name as sent in
// SentName; the caller's calls, their replay and their results keep the
// name as sent. Off by default: an unknown name is the unknown-tool error.
func WithNearMissNames() ToolkitOption {
	return toolkitOption(func(c *toolkitConfig) { c.nearMiss = true })
}

// nearMissKeys returns each name's near-miss key to its index, -1 for a
// key two names share.
func nearMissKeys(names []string) map[string]int {
	keys := make(map[string]int, len(names))
	var buf [64]byte
	for i, name := range names {
		k := string(nearKey(buf[:0], name))
		if _, dup := keys[k]; dup {
			keys[k] = -1
		} else {
			keys[k] = i
		}
	}
	return keys
}

// nearMiss returns the index of the one tool name is a near miss of
// (WithNearMissNames), in time linear in len(name).
func (tk *Toolkit) nearMiss(name string) (int, bool) {
	if tk.near == nil {
		return 0, false
	}
	var buf [64]byte
	i, ok := tk.near[string(nearKey(buf[:0], name))]
	return i, ok && i >= 0
}

// toolIndex returns the index of the tool a call of name runs: its own,
// or the one it is a near miss of.
func (tk *Toolkit) toolIndex(name string) (int, bool) {
	if i, ok := tk.byName[name]; ok {
		return i, true
	}
	return tk.nearMiss(name)
}

// nearKey appends name to dst with ASCII letters lowered and '_' and '-'
// left out.
func nearKey(dst []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		switch b := name[i]; {
		case b == '_' || b == '-':
		case 'A' <= b && b <= 'Z':
			dst = append(dst, b+'a'-'A')
		default:
			dst = append(dst, b)
		}
	}
	return dst
}
