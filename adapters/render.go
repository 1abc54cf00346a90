package adapters

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

// toolData is what a rendering reads from a tool.
type toolData struct {
	name, description, title string
	in, out                  *schema.Schema
	tool                     define.Tool // for what only some renderings read (MCP's annotations and icons)
}

// dataOf reads t for a rendering, which runs once per tool, provider and
// option set (define.Memo keeps it): the trees are copies.
func dataOf(t define.Tool) toolData {
	return toolData{t.Name(), t.Description(), t.Title(), t.InputSchemaTree(), t.OutputSchemaTree(), t}
}

// renderJS renders a schema (input or output) into p's JSON Schema dialect
// as compact bytes.
func renderJS(p *spec, cfg config, tool string, s *schema.Schema, what string) (json.RawMessage, error) {
	c := newConv(p, cfg, tool, s)
	root, err := c.rootNode(s, what)
	if err != nil {
		return nil, c.done(err)
	}
	out, _, err := c.js(root, nil)
	if err == nil && p.schemaLimits != nil {
		for _, e := range p.schemaLimits(c, out) {
			c.fail(e)
		}
	}
	if err := c.done(err); err != nil {
		return nil, err
	}
	data, err := out.MarshalJSON()
	if err != nil {
		return nil, c.done(&Error{Func: p.funcName, Tool: tool, Err: ErrUnsupported, Msg: err.Error()})
	}
	return frozen(data), nil
}

// frozen caps a cached slice's capacity, so that a caller's append copies
// instead of writing into the cache.
func frozen(b []byte) json.RawMessage { return json.RawMessage(b[:len(b):len(b)]) }

// render renders every tool for p with cfg through the per-tool cache. A
// failure is an *Errors holding every problem of the call (every tool,
// every schema path), up to MaxErrors.
func render[T any](p *spec, tools []define.Tool, opts []Option,
	build func(p *spec, cfg config, d toolData) (T, error)) ([]T, error) {
	cfg, err := newConfig(p, opts)
	if err != nil {
		return nil, joinErrors([]*Error{err.(*Error)})
	}
	var errs errorList
	if limit := p.maxTools; limit > 0 && len(tools) > limit && !hasDeferral(opts) {
		errs.add(&Error{Func: p.funcName, Err: ErrLimit,
			Msg: fmt.Sprintf("%d tools; %s accepts at most %d per request", len(tools), p.display, limit)})
	}
	out := make([]T, len(tools))
	var key any = memoKey{p, cfg}
	var seen map[string]struct{}
	if len(tools) > 1 {
		seen = make(map[string]struct{}, len(tools))
	}
	for i, t := range tools {
		if t.IsZero() {
			errs.add(&Error{Func: p.funcName, Err: ErrZeroTool, Msg: fmt.Sprintf("tools[%d] is the zero define.Tool (make tools with define.DefineTool or define.NewTool)", i)})
			continue
		}
		if seen != nil {
			name := t.Name()
			if _, dup := seen[name]; dup {
				errs.add(&Error{Func: p.funcName, Tool: name, Err: ErrName,
					Msg: fmt.Sprintf("tool name %q appears twice; %s needs unique names", name, p.display)})
			}
			seen[name] = struct{}{}
		}
		tcfg, pinned := toolConfig(p, cfg, t)
		tkey := key
		if tcfg != cfg {
			tkey = memoKey{p, tcfg}
		}
		v, err := define.Memo(t, tkey, func() (T, error) { return buildStrictness(p, tcfg, dataOf(t), pinned, build) })
		if errs.add(err) {
			continue
		}
		out[i] = v
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// toolConfig applies a tool's define-time strictness pin (define.WithStrict)
// to the call's config: the pin wins over the call's options. pinned
// reports a pin to strict, whose failure is then named in the error.
func toolConfig(p *spec, cfg config, t define.Tool) (config, bool) {
	on, pinned := t.StrictPin()
	if !pinned || p.options&optStrict == 0 {
		return cfg, false
	}
	cfg.strict, cfg.strictAuto = on, false
	return cfg, on
}

// buildStrictness builds one tool: under StrictWherePossible(), strict
// when the strict subset and limits allow and non-strict otherwise; else
// as cfg says. A tool pinned strict that cannot be is an error saying so.
func buildStrictness[T any](p *spec, cfg config, d toolData, pinned bool, build func(*spec, config, toolData) (T, error)) (T, error) {
	if !cfg.strictAuto {
		v, err := build(p, cfg, d)
		if err != nil && pinned {
			var l errorList
			l.add(err)
			for i, e := range l.Errs {
				cp := *e
				cp.Msg += " (the tool is pinned strict with define.WithStrict(true))"
				l.Errs[i] = &cp
			}
			return v, l.err()
		}
		return v, err
	}
	strict := cfg
	strict.strict, strict.strictAuto = true, false
	v, err := build(p, strict, d)
	if err == nil || !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrLimit) {
		return v, err
	}
	loose := cfg
	loose.strict, loose.strictAuto = false, false
	return build(p, loose, d)
}
