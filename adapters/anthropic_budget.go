package adapters

import (
	"fmt"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

// This file, of the Anthropic home, checks the per-request budgets of
// Anthropic's strict tool use before the request. docs/providers.md says
// where each number comes from.

// Anthropic strict tool use limits, per request (across the strict tools).
const (
	anthropicMaxStrictTools = 20 // tools with "strict": true
	anthropicMaxOptional    = 24 // optional parameters across strict schemas
	anthropicMaxUnions      = 16 // parameters with union types across strict schemas
)

// strictCost is what one strict Anthropic schema takes from the request's
// budgets.
type strictCost struct {
	optional int // properties not listed in their object's required
	unions   int // properties whose schema is a union (anyOf, or a type list)
}

// anthropicCostOf counts a rendered strict input schema's optional and
// union-typed parameters, at every level.
func anthropicCostOf(s *schema.Schema) strictCost {
	var cost strictCost
	walkSchema(s, nil, 0, func(n *schema.Schema, _ *spath, _ int) {
		for _, p := range n.Properties {
			if !contains(n.Required, p.Name) {
				cost.optional++
			}
			if ps := p.Schema; ps != nil && ps.Bool == nil && (len(ps.AnyOf) > 0 || len(ps.OneOf) > 0 || len(ps.Types) > 1) {
				cost.unions++
			}
		}
	})
	return cost
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// costKey caches a tool's strictCost for one Anthropic configuration.
type costKey struct{ cfg config }

// anthropicBudget enforces Anthropic's per-request strict budgets on a
// rendered list. Tools that must be strict (pinned with define.WithStrict,
// or under Strict(true)) are counted first, in list order, and exceeding a
// budget with them is an error naming the limit and the tool; under
// StrictWherePossible() the other strict tools are then admitted in list
// order while the budgets allow, and the rest are rendered non-strict.
func anthropicBudget(p *spec, cfg config, tools []define.Tool, out []AnthropicTool) ([]AnthropicTool, error) {
	type entry struct {
		i    int
		cost strictCost
	}
	var must, may []entry
	var callKey any = costKey{cfg} // boxed once: most tools share the call's config
	for i, t := range tools {
		if !out[i].Strict {
			continue
		}
		tcfg, pinned := toolConfig(p, cfg, t)
		key := callKey
		if tcfg != cfg {
			key = costKey{tcfg}
		}
		cost, err := define.Memo(t, key, func() (strictCost, error) {
			// our own rendering: already bounded where it came in, so no parse limit
			s, err := schema.ParseLimited(out[i].InputSchema, schema.ParseLimits{MaxBytes: -1, MaxNodes: -1})
			if err != nil {
				return strictCost{}, joinErrors([]*Error{{Func: p.funcName, Tool: t.Name(), Err: ErrUnsupported, Msg: err.Error()}})
			}
			return anthropicCostOf(s), nil
		})
		if err != nil {
			return nil, err
		}
		e := entry{i, cost}
		if pinned || !cfg.strictAuto {
			must = append(must, e)
		} else {
			may = append(may, e)
		}
	}
	var used strictCost
	n := 0
	var errs []*Error
	for _, e := range must {
		n++
		used.optional += e.cost.optional
		used.unions += e.cost.unions
		name := tools[e.i].Name()
		if n == anthropicMaxStrictTools+1 {
			errs = append(errs, &Error{Func: p.funcName, Tool: name, Err: ErrLimit,
				Msg: fmt.Sprintf("more than %d strict tools; Anthropic accepts at most %d per request (consider StrictWherePossible() or define.WithStrict(false) on some tools)", anthropicMaxStrictTools, anthropicMaxStrictTools)})
		}
		if e.cost.optional > 0 && used.optional > anthropicMaxOptional && used.optional-e.cost.optional <= anthropicMaxOptional {
			errs = append(errs, &Error{Func: p.funcName, Tool: name, Err: ErrLimit,
				Msg: fmt.Sprintf("strict schemas reach %d optional parameters with this tool; Anthropic accepts at most %d per request across strict tools", used.optional, anthropicMaxOptional)})
		}
		if e.cost.unions > 0 && used.unions > anthropicMaxUnions && used.unions-e.cost.unions <= anthropicMaxUnions {
			errs = append(errs, &Error{Func: p.funcName, Tool: name, Err: ErrLimit,
				Msg: fmt.Sprintf("strict schemas reach %d parameters with union types with this tool; Anthropic accepts at most %d per request across strict tools", used.unions, anthropicMaxUnions)})
		}
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	var demote []int
	for _, e := range may {
		if n+1 > anthropicMaxStrictTools || used.optional+e.cost.optional > anthropicMaxOptional || used.unions+e.cost.unions > anthropicMaxUnions {
			demote = append(demote, e.i)
			continue
		}
		n++
		used.optional += e.cost.optional
		used.unions += e.cost.unions
	}
	if len(demote) == 0 {
		return out, nil
	}
	loose := cfg
	loose.strict, loose.strictAuto = false, false
	var looseKey any = memoKey{p, loose}
	out = append([]AnthropicTool(nil), out...)
	for _, i := range demote {
		v, err := define.Memo(tools[i], looseKey, func() (AnthropicTool, error) { return buildAnthropic(p, loose, dataOf(tools[i])) })
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
