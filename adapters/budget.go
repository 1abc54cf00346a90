package adapters

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/toolhook"
	"github.com/toolnexus/toolnexus/schema"
)

// This file checks the size limits of the providers' strict modes before
// the request, so that a schema over a limit is an error naming the limit
// and the tool instead of a 400. docs/providers.md says where each number
// comes from.

// OpenAI Structured Outputs limits, per schema (one tool's parameters).
const (
	openAIMaxProperties    = 5000    // object properties in total
	openAIMaxNesting       = 10      // levels of object nesting
	openAIMaxEnumValues    = 1000    // enum values across the schema
	openAILargeEnum        = 250     // an enum of more string values than this...
	openAIMaxLargeEnumText = 15000   // ...may hold at most this many characters in total
	openAIMaxSchemaText    = 120_000 // characters of property names, definition names, enum and const values
)

// Anthropic strict tool use limits, per request (across the strict tools).
const (
	anthropicMaxStrictTools = 20 // tools with "strict": true
	anthropicMaxOptional    = 24 // optional parameters across strict schemas
	anthropicMaxUnions      = 16 // parameters with union types across strict schemas
)

// walkSchema calls fn on every schema node under s with its JSON Pointer
// and its object nesting level (the root object is level 1).
func walkSchema(s *schema.Schema, path string, level int, fn func(n *schema.Schema, path string, level int)) {
	if s == nil || s.Bool != nil {
		return
	}
	if len(s.Properties) > 0 || s.HasType("object") {
		level++
	}
	fn(s, path, level)
	for _, p := range s.Properties {
		walkSchema(p.Schema, path+"/properties/"+pointerEscape(p.Name), level, fn)
	}
	walkSchema(s.Items, path+"/items", level, fn)
	walkSchema(s.AdditionalProperties, path+"/additionalProperties", level, fn)
	walkSchema(s.PropertyNames, path+"/propertyNames", level, fn)
	for _, list := range []struct {
		kw string
		bs []*schema.Schema
	}{{"anyOf", s.AnyOf}, {"oneOf", s.OneOf}, {"allOf", s.AllOf}} {
		for i, b := range list.bs {
			walkSchema(b, path+"/"+list.kw+"/"+strconv.Itoa(i), level, fn)
		}
	}
	for _, d := range s.Defs {
		walkSchema(d.Schema, path+"/$defs/"+pointerEscape(d.Name), 0, fn)
	}
}

// valueText is the length in characters of an enum or const value as
// OpenAI counts it: a string's characters, another value's JSON text.
func valueText(v any) int {
	if s, ok := v.(string); ok {
		return utf8.RuneCountInString(s)
	}
	data, err := marshalNoEscape(v)
	if err != nil {
		return 0
	}
	return utf8.RuneCount(data)
}

// openAIBudget checks one strict schema against OpenAI's Structured Outputs
// limits and returns every limit it exceeds.
func (c *conv) openAIBudget(root *schema.Schema) []*Error {
	var errs []*Error
	props, enums, text := 0, 0, 0
	deepest, deepPath := 0, ""
	walkSchema(root, "", 0, func(n *schema.Schema, path string, level int) {
		props += len(n.Properties)
		for _, p := range n.Properties {
			text += utf8.RuneCountInString(p.Name)
		}
		for _, d := range n.Defs {
			text += utf8.RuneCountInString(d.Name)
		}
		if level > deepest {
			deepest, deepPath = level, path
		}
		enums += len(n.Enum)
		enumText := 0
		for _, v := range n.Enum {
			enumText += valueText(v)
		}
		text += enumText
		if n.HasConst {
			text += valueText(n.Const)
		}
		if len(n.Enum) > openAILargeEnum && allStrings(n.Enum) && enumText > openAIMaxLargeEnumText {
			errs = append(errs, c.errf(path, ErrLimit,
				"an enum of %d string values totals %d characters; OpenAI strict mode accepts at most %d characters for an enum of more than %d string values",
				len(n.Enum), enumText, openAIMaxLargeEnumText, openAILargeEnum))
		}
	})
	if props > openAIMaxProperties {
		errs = append(errs, c.errf("", ErrLimit, "the schema has %d object properties in total; OpenAI strict mode accepts at most %d", props, openAIMaxProperties))
	}
	if deepest > openAIMaxNesting {
		errs = append(errs, c.errf(deepPath, ErrLimit, "objects are nested %d levels deep; OpenAI strict mode accepts at most %d", deepest, openAIMaxNesting))
	}
	if enums > openAIMaxEnumValues {
		errs = append(errs, c.errf("", ErrLimit, "the schema has %d enum values in total; OpenAI strict mode accepts at most %d", enums, openAIMaxEnumValues))
	}
	if text > openAIMaxSchemaText {
		errs = append(errs, c.errf("", ErrLimit,
			"property names, definition names and enum and const values total %d characters; OpenAI strict mode accepts at most %d", text, openAIMaxSchemaText))
	}
	return errs
}

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
	walkSchema(s, "", 0, func(n *schema.Schema, _ string, _ int) {
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
func anthropicBudget(p provider, cfg config, tools []define.Tool, out []AnthropicTool) ([]AnthropicTool, error) {
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
		v, err := toolhook.Memo(t, key, func() (any, error) {
			// our own rendering: already bounded where it came in, so no parse limit
			s, err := schema.ParseLimited(out[i].InputSchema, schema.ParseLimits{MaxBytes: -1, MaxNodes: -1})
			if err != nil {
				return nil, joinErrors([]*Error{{Func: p.fn(), Tool: t.Name(), Err: ErrUnsupported, Msg: err.Error()}})
			}
			return anthropicCostOf(s), nil
		})
		if err != nil {
			return nil, err
		}
		e := entry{i, v.(strictCost)}
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
			errs = append(errs, &Error{Func: p.fn(), Tool: name, Err: ErrLimit,
				Msg: fmt.Sprintf("more than %d strict tools; Anthropic accepts at most %d per request (consider StrictWherePossible() or define.WithStrict(false) on some tools)", anthropicMaxStrictTools, anthropicMaxStrictTools)})
		}
		if e.cost.optional > 0 && used.optional > anthropicMaxOptional && used.optional-e.cost.optional <= anthropicMaxOptional {
			errs = append(errs, &Error{Func: p.fn(), Tool: name, Err: ErrLimit,
				Msg: fmt.Sprintf("strict schemas reach %d optional parameters with this tool; Anthropic accepts at most %d per request across strict tools", used.optional, anthropicMaxOptional)})
		}
		if e.cost.unions > 0 && used.unions > anthropicMaxUnions && used.unions-e.cost.unions <= anthropicMaxUnions {
			errs = append(errs, &Error{Func: p.fn(), Tool: name, Err: ErrLimit,
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
		v, err := toolhook.Memo(tools[i], looseKey, func() (any, error) { return buildAnthropic(p, loose, dataOf(tools[i])) })
		if err != nil {
			return nil, err
		}
		out[i] = v.(AnthropicTool)
	}
	return out, nil
}
