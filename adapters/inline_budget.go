package adapters

import (
	"errors"
	"fmt"

	"github.com/toolnexus/toolnexus/schema"
)

// This file bounds the work of inlining. Where references are not accepted
// (Gemini parameters, Anthropic strict, Ollama) each $ref is replaced by a
// copy of its definition, so a $defs graph in which each definition refers
// to the next one twice renders 2^n copies from n definitions: 1.9 KB of
// hand-written schema took 33 s and 8.9 GB. MaxInlineDepth bounds only
// recursion, not such sharing, so inlining also has a budget, in schemas
// and in text, proportional to the tool's own schema.

const (
	// InlineNodesBase and InlineNodesPerSchema bound the schemas one
	// inlined rendering may hold: InlineNodesBase plus
	// InlineNodesPerSchema for every schema of the tool's input
	// (every property, item, branch and definition counted once).
	InlineNodesBase      = 4096
	InlineNodesPerSchema = 4
	// InlineTextBase and InlineTextPerByte bound the text the copies
	// carry (descriptions, titles, patterns, property names and string
	// enum and const values), in bytes: InlineTextBase plus
	// InlineTextPerByte for every byte of such text in the tool's input.
	InlineTextBase    = 64 << 10
	InlineTextPerByte = 4
	// MaxInlineNesting bounds how many definitions one inlined path
	// nests (a chain of definitions each referring to the next), as
	// schema.MaxParseDepth bounds the nesting of a schema's text.
	MaxInlineNesting = 512
)

// errSpent is what js returns once the inlining budget is spent: the
// problem is already recorded (one *Error wrapping ErrLimit), and the walk
// unwinds without recording more.
var errSpent = errors.New("adapters: inlining budget spent")

// inlineBudget is the budget of one inlining conv.
type inlineBudget struct {
	nodes, text       int // spent so far
	maxNodes, maxText int
	spent             bool
}

// newInlineBudget measures the tool's schema once (each definition once,
// no reference followed) and sets the budget from it.
func newInlineBudget(root *schema.Schema) inlineBudget {
	nodes, text := 0, 0
	var walk func(s *schema.Schema, depth int)
	walk = func(s *schema.Schema, depth int) {
		if s == nil || depth > schema.MaxParseDepth*2 {
			return
		}
		nodes++
		text += nodeText(s)
		if s.Bool != nil {
			return
		}
		for _, p := range s.Properties {
			walk(p.Schema, depth+1)
		}
		walk(s.Items, depth+1)
		walk(s.AdditionalProperties, depth+1)
		walk(s.PropertyNames, depth+1)
		for _, bs := range [][]*schema.Schema{s.AnyOf, s.OneOf, s.AllOf} {
			for _, b := range bs {
				walk(b, depth+1)
			}
		}
		for _, d := range s.Defs {
			walk(d.Schema, depth+1)
		}
	}
	walk(root, 0)
	return inlineBudget{
		maxNodes: InlineNodesBase + InlineNodesPerSchema*nodes,
		maxText:  InlineTextBase + InlineTextPerByte*text,
	}
}

// nodeText is the text a copy of s carries, as the budget counts it.
func nodeText(s *schema.Schema) int {
	n := len(s.Description) + len(s.Title) + len(s.Pattern)
	for _, p := range s.Properties {
		n += len(p.Name)
	}
	for _, v := range s.Enum {
		if t, ok := v.(string); ok {
			n += len(t)
		}
	}
	if t, ok := s.Const.(string); ok {
		n += len(t)
	}
	return n
}

// spend counts one node the inlining walk is about to render, and reports
// the budget's end: the first time as an *Error wrapping ErrLimit naming
// the tool, afterwards as errSpent.
func (c *conv) spend(s *schema.Schema, path *spath) error {
	b := &c.budget
	if b.spent {
		return errSpent
	}
	b.nodes++
	b.text += nodeText(s)
	if b.nodes <= b.maxNodes && b.text <= b.maxText {
		return nil
	}
	b.spent = true
	what := fmt.Sprintf("more than %d schemas (%d plus %d per schema of the tool's own)", b.maxNodes, InlineNodesBase, InlineNodesPerSchema)
	if b.text > b.maxText {
		what = fmt.Sprintf("more than %d bytes of descriptions, names and patterns (%d plus %d per byte of the tool's own)", b.maxText, InlineTextBase, InlineTextPerByte)
	}
	return c.errf(path, ErrLimit, "inlining the $defs for %s would render %s: the definitions refer to each other too often (consider a provider mode that keeps $ref)", c.dialect(), what)
}

// spendNesting ends the budget when inlining would nest more than
// MaxInlineNesting definitions.
func (c *conv) spendNesting(path *spath) error {
	b := &c.budget
	if b.spent {
		return errSpent
	}
	b.spent = true
	return c.errf(path, ErrLimit, "inlining the $defs for %s would nest more than %d definitions (consider a provider mode that keeps $ref)", c.dialect(), MaxInlineNesting)
}
