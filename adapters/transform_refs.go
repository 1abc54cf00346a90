package adapters

import (
	"bytes"
	"strings"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
	"github.com/toolnexus/toolnexus/schema"
)

// This file holds the reference handling of the JSON Schema walk: $ref
// resolution, bounded inlining of recursive types, and the root of a tool's
// schema.

// resolve finds the definition a $ref names.
func (c *conv) resolve(ref string, path *spath) (string, *schema.Schema, error) {
	if ref == "#" {
		return "#", c.root, nil
	}
	if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
		name = jsonwire.UnescapeToken(name)
		if d, ok := c.defs[name]; ok && d != nil {
			return name, d, nil
		}
	}
	return "", nil, c.errf(path, ErrUnsupported, "$ref %q does not resolve to an entry of the root's $defs (only \"#\" and \"#/$defs/...\" are supported)", ref)
}

// enter pushes a definition for inlining; ok is false when the definition
// already appears MaxInlineDepth times on the path (the cycle is cut there).
// The count of each name on the stack is kept in onStack, so that entering
// costs the same however deep the stack is.
func (c *conv) enter(name string) bool {
	if c.onStack[name] >= c.cfg.depth {
		return false
	}
	c.push(name)
	return true
}

func (c *conv) push(name string) {
	if c.onStack == nil {
		c.onStack = make(map[string]int)
	}
	c.onStack[name]++
	c.stack = append(c.stack, name)
}

func (c *conv) leave() {
	name := c.stack[len(c.stack)-1]
	c.onStack[name]--
	c.stack = c.stack[:len(c.stack)-1]
}

// rootNode returns the node to render as the root of an input or output
// schema: a root $ref is resolved, and a nullable root (from a pointer input
// type) loses its null, since arguments are always an object. The result is
// a shallow copy: its sub-schemas are still shared and must not be modified.
func (c *conv) rootNode(s *schema.Schema, what string) (*schema.Schema, error) {
	if s == nil || s.Bool != nil {
		return nil, c.errf(nil, ErrUnsupported, "the %s schema must be an object schema, got %s", what, boolText(s))
	}
	r := *s
	for i := 0; i < 8; i++ {
		switch {
		case r.Ref != "":
			name, d, err := c.resolve(r.Ref, nil)
			if err != nil {
				return nil, err
			}
			if d == s || d == c.root {
				// "$ref": "#" at the root: the root and itself, which is
				// the root without the reference.
				r.Ref = ""
				continue
			}
			if c.inlines() {
				c.push(name) // the root is the first level
			}
			desc, title := r.Description, r.Title
			r = *d
			if desc != "" {
				r.Description = desc
			}
			if title != "" {
				r.Title = title
			}
			r.Defs = s.Defs
			continue
		case len(r.AnyOf) == 2 && r.Ref == "" && len(r.Types) == 0:
			if other := nonNullBranch(r.AnyOf); other != nil {
				desc := r.Description
				defs := r.Defs
				r = *other
				if desc != "" {
					r.Description = desc
				}
				r.Defs = defs
				continue
			}
		}
		break
	}
	if c.inlines() && r.Ref == "" && len(c.stack) == 0 {
		c.pushRootDef(&r)
	}
	if r.HasType("null") {
		r.Types = without(r.Types, "null")
		if r.Enum != nil {
			r.Enum, _ = withoutNull(r.Enum)
		}
	}
	if len(r.Types) == 0 && r.Properties != nil {
		r.Types = []string{"object"}
	}
	if len(r.Types) != 1 || r.Types[0] != "object" {
		return nil, c.errf(nil, ErrUnsupported, "the %s schema's root must have \"type\": \"object\" (every provider requires it), got type %v", what, r.Types)
	}
	if !c.p.rootUnions || c.d.strict {
		if r.AnyOf != nil || r.OneOf != nil || r.AllOf != nil {
			return nil, c.errf(nil, ErrUnsupported, "%s does not accept anyOf, oneOf or allOf at the root of a tool's schema (consider moving the alternatives into a property)", c.p.display)
		}
	}
	return &r, nil
}

// pushRootDef counts the root as the first level of the recursive type it
// is, when the root's body is also one of its $defs (a recursive input
// type), so that MaxInlineDepth counts levels from the root.
func (c *conv) pushRootDef(r *schema.Schema) {
	body := *r
	body.Defs = nil
	want, err := body.MarshalJSON()
	if err != nil {
		return
	}
	for _, d := range r.Defs {
		if got, err := d.Schema.MarshalJSON(); err == nil && bytes.Equal(got, want) {
			c.push(d.Name)
			return
		}
	}
}

// nonNullBranch returns the branch of a two-branch anyOf that is not
// {"type":"null"}, or nil.
func nonNullBranch(bs []*schema.Schema) *schema.Schema {
	if len(bs) != 2 {
		return nil
	}
	switch {
	case isNullSchema(bs[1]) && bs[0] != nil:
		return bs[0]
	case isNullSchema(bs[0]) && bs[1] != nil:
		return bs[1]
	}
	return nil
}

func isNullSchema(s *schema.Schema) bool {
	return s != nil && s.Bool == nil && len(s.Types) == 1 && s.Types[0] == "null" && s.Ref == "" &&
		s.AnyOf == nil && s.Enum == nil && !s.HasConst
}

func boolText(s *schema.Schema) string {
	if s == nil {
		return "no schema"
	}
	if s.IsFalse() {
		return "false"
	}
	return "true"
}

// jsRef converts a $ref node: inlined (bounded) where references are not
// accepted, else kept, with its sibling keywords moved onto an anyOf wrapper
// where the dialect forbids siblings.
func (c *conv) jsRef(s *schema.Schema, path *spath) (*schema.Schema, bool, error) {
	name, def, err := c.resolve(s.Ref, path)
	if err != nil && (c.inlines() || c.d.strict) {
		return nil, false, err
	}
	if c.inlines() {
		if len(c.stack) >= MaxInlineNesting {
			return nil, false, c.spendNesting(path)
		}
		if !c.enter(name) {
			return nil, true, nil
		}
		defer c.leave()
		node := def
		if s.Description != "" || s.Title != "" {
			cp := *def
			if s.Description != "" {
				cp.Description = s.Description
			}
			if s.Title != "" {
				cp.Title = s.Title
			}
			node = &cp
		}
		return c.js(node, path)
	}
	if !c.d.strict {
		out := &schema.Schema{Ref: s.Ref, Title: s.Title, Description: s.Description}
		return out, false, nil
	}
	ref := &schema.Schema{Ref: s.Ref}
	if s.Description == "" && (s.Title == "" || !c.d.title) {
		return ref, false, nil
	}
	out := &schema.Schema{AnyOf: []*schema.Schema{ref}, Description: s.Description}
	if c.d.title {
		out.Title = s.Title
	}
	return out, false, nil
}
