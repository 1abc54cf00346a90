package adapters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/toolnexus/toolnexus/schema"
)

// This file holds the schema transforms into JSON Schema dialects: the
// passthrough (OpenAI non-strict, Anthropic, Bedrock, MCP), OpenAI strict,
// Anthropic strict and Gemini parametersJsonSchema. Each is an allow-list:
// it builds a new tree holding only the keywords the dialect accepts, moves
// constraints it cannot express into the description, and fails with an
// *Error on what it cannot express at all. The canonical tree is shared and
// never modified.

// jsMode is a JSON Schema dialect.
type jsMode uint8

const (
	modePlain           jsMode = iota // JSON Schema 2020-12 as is
	modeOpenAIStrict                  // OpenAI Structured Outputs subset
	modeAnthropicStrict               // Anthropic strict tool use subset
	modeGeminiJSON                    // Gemini parametersJsonSchema
)

// conv converts one schema of one tool for one provider and option set.
type conv struct {
	p     provider
	cfg   config
	mode  jsMode
	tool  string
	extra bool // keep unknown keywords (MCP)

	root  *schema.Schema            // the original root, for "#"
	defs  map[string]*schema.Schema // the original root's $defs
	stack []string                  // definitions being inlined
	errs  errorList                 // problems found so far; the walk goes on to find them all
}

// fail records err, if any, and reports whether there was one. Containers
// (properties, items, branches, $defs) call it on a child's error and go on
// with the next child, so that one call reports every problem.
func (c *conv) fail(err error) bool { return c.errs.add(err) }

// done returns the walk's problems, err included, as one error.
func (c *conv) done(err error) error {
	c.fail(err)
	return c.errs.err()
}

func newConv(p provider, cfg config, tool string, root *schema.Schema) *conv {
	c := &conv{p: p, cfg: cfg, tool: tool, root: root}
	switch {
	case (p == pOpenAI || p == pOpenAIResponses) && cfg.strict:
		c.mode = modeOpenAIStrict
	case p == pAnthropic && cfg.strict:
		c.mode = modeAnthropicStrict
	case p == pGemini:
		c.mode = modeGeminiJSON
	}
	c.extra = p == pMCP
	if root != nil && len(root.Defs) > 0 {
		c.defs = make(map[string]*schema.Schema, len(root.Defs))
		for _, d := range root.Defs {
			c.defs[d.Name] = d.Schema
		}
	}
	return c
}

func (c *conv) errf(path string, sentinel error, format string, args ...any) *Error {
	return &Error{Func: c.p.fn(), Tool: c.tool, Path: path, Err: sentinel, Msg: fmt.Sprintf(format, args...)}
}

// errRequiredCut reports a required property that recursion inlining would
// have to leave out: no call could then supply it, and the decoder would
// reject every call that follows the rendered schema.
func (c *conv) errRequiredCut(path, prop string) *Error {
	return c.errf(path, ErrUnsupported,
		"required property %q recurses beyond the inlining depth limit %d, so no call could supply it (consider making it optional with omitempty or a pointer, raising MaxInlineDepth, or a provider mode that keeps $ref)",
		prop, c.cfg.depth)
}

// inlines reports whether references are inlined rather than kept.
func (c *conv) inlines() bool { return c.p.inlines(c.cfg) }

// resolve finds the definition a $ref names.
func (c *conv) resolve(ref, path string) (string, *schema.Schema, error) {
	if ref == "#" {
		return "#", c.root, nil
	}
	if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
		name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
		if d, ok := c.defs[name]; ok && d != nil {
			return name, d, nil
		}
	}
	return "", nil, c.errf(path, ErrUnsupported, "$ref %q does not resolve to an entry of the root's $defs (only \"#\" and \"#/$defs/...\" are supported)", ref)
}

// enter pushes a definition for inlining; ok is false when the definition
// already appears MaxInlineDepth times on the path (the cycle is cut there).
func (c *conv) enter(name string) bool {
	n := 0
	for _, s := range c.stack {
		if s == name {
			n++
		}
	}
	if n >= c.cfg.depth {
		return false
	}
	c.stack = append(c.stack, name)
	return true
}

func (c *conv) leave() { c.stack = c.stack[:len(c.stack)-1] }

// rootNode returns the node to render as the root of an input or output
// schema: a root $ref is resolved, and a nullable root (from a pointer input
// type) loses its null, since arguments are always an object. The result is
// a shallow copy: its sub-schemas are still shared and must not be modified.
func (c *conv) rootNode(s *schema.Schema, what string) (*schema.Schema, error) {
	if s == nil || s.Bool != nil {
		return nil, c.errf("", ErrUnsupported, "the %s schema must be an object schema, got %s", what, boolText(s))
	}
	r := *s
	for i := 0; i < 8; i++ {
		switch {
		case r.Ref != "":
			name, d, err := c.resolve(r.Ref, "")
			if err != nil {
				return nil, err
			}
			if c.inlines() {
				c.stack = append(c.stack, name) // the root is the first level
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
		return nil, c.errf("", ErrUnsupported, "the %s schema's root must have \"type\": \"object\" (every provider requires it), got type %v", what, r.Types)
	}
	if c.p != pMCP && !(c.p == pOpenAI || c.p == pOpenAIResponses) || c.mode == modeOpenAIStrict {
		if r.AnyOf != nil || r.OneOf != nil || r.AllOf != nil {
			return nil, c.errf("", ErrUnsupported, "%s does not accept anyOf, oneOf or allOf at the root of a tool's schema (consider moving the alternatives into a property)", c.p.label())
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
			c.stack = append(c.stack, d.Name)
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

// js converts one node into the conv's JSON Schema dialect. cut reports that
// the node is a recursive reference beyond the inlining depth: the caller
// leaves out the property (or branch) holding it.
func (c *conv) js(s *schema.Schema, path string) (out *schema.Schema, cut bool, err error) {
	if s == nil {
		return nil, false, nil
	}
	if s.Bool != nil {
		if *s.Bool && c.mode == modeOpenAIStrict {
			return nil, false, c.untyped(path)
		}
		b := *s.Bool
		return &schema.Schema{Bool: &b}, false, nil
	}
	if s.Ref != "" {
		return c.jsRef(s, path)
	}
	out = &schema.Schema{Types: copyStrings(s.Types), Description: s.Description}
	var notes notes
	if c.mode != modeGeminiJSON {
		out.Title = s.Title
	}
	if c.mode != modePlain {
		if s.OneOf != nil || s.AllOf != nil {
			return c.jsCombine(s, path)
		}
	}

	// enum and const; null members become a nullable type.
	nullable := false
	if s.Enum != nil {
		vals, hadNull := withoutNull(s.Enum)
		nullable = hadNull
		switch {
		case len(vals) == 0:
		case c.mode == modeGeminiJSON && !allStringsOrNumbers(vals):
			notes.add("enum", vals)
		default:
			out.Enum = vals
		}
	}
	if s.HasConst {
		switch {
		case s.Const == nil:
			out.Types = []string{"null"}
		case hasNull(s.Const):
			notes.add("const", s.Const)
		case c.mode == modeGeminiJSON:
			if allStringsOrNumbers([]any{s.Const}) {
				out.Enum = []any{s.Const}
			} else {
				notes.add("const", s.Const)
			}
		default:
			out.Const, out.HasConst = s.Const, true
		}
	}

	// strings
	if s.Format != "" {
		if c.formatOK(s) {
			out.Format = s.Format
		} else {
			notes.addText("format", s.Format)
		}
	}
	if s.ContentEncoding != "" {
		if c.mode == modePlain {
			out.ContentEncoding = s.ContentEncoding
		} else {
			notes.addText("contentEncoding", s.ContentEncoding)
		}
	}
	if s.Pattern != "" {
		if c.patternOK(s.Pattern) {
			out.Pattern = s.Pattern
		} else {
			notes.addText("pattern", s.Pattern)
		}
	}
	if c.mode == modePlain {
		out.MinLength, out.MaxLength = copyInt(s.MinLength), copyInt(s.MaxLength)
	} else {
		notes.addInt("minLength", s.MinLength)
		notes.addInt("maxLength", s.MaxLength)
	}

	// numbers
	switch c.mode {
	case modePlain, modeOpenAIStrict:
		out.Minimum, out.Maximum = s.Minimum, s.Maximum
		out.ExclusiveMinimum, out.ExclusiveMaximum = s.ExclusiveMinimum, s.ExclusiveMaximum
		out.MultipleOf = s.MultipleOf
	case modeAnthropicStrict:
		notes.addNum("minimum", s.Minimum)
		notes.addNum("exclusiveMinimum", s.ExclusiveMinimum)
		notes.addNum("maximum", s.Maximum)
		notes.addNum("exclusiveMaximum", s.ExclusiveMaximum)
		notes.addNum("multipleOf", s.MultipleOf)
	case modeGeminiJSON:
		out.Minimum, out.Maximum = s.Minimum, s.Maximum
		out.Minimum = exclusiveToInclusive(s, s.ExclusiveMinimum, out.Minimum, +1, &notes, "exclusiveMinimum")
		out.Maximum = exclusiveToInclusive(s, s.ExclusiveMaximum, out.Maximum, -1, &notes, "exclusiveMaximum")
		notes.addNum("multipleOf", s.MultipleOf)
	}

	// arrays
	if s.Items != nil {
		items, icut, err := c.js(s.Items, path+"/items")
		switch {
		case c.fail(err):
		case icut:
			return nil, true, nil
		default:
			out.Items = items
		}
	} else if out.HasType("array") {
		if c.mode == modeOpenAIStrict {
			return nil, false, c.errf(path, ErrUnsupported, "an array without \"items\" cannot be expressed in OpenAI strict mode, which needs typed items%s", strictHint)
		}
		out.Items = &schema.Schema{}
	}
	switch {
	case c.mode != modeAnthropicStrict:
		out.MinItems, out.MaxItems = copyInt(s.MinItems), copyInt(s.MaxItems)
	default:
		if s.MinItems != nil && *s.MinItems <= 1 {
			out.MinItems = copyInt(s.MinItems)
		} else {
			notes.addInt("minItems", s.MinItems)
		}
		notes.addInt("maxItems", s.MaxItems)
	}
	if s.UniqueItems {
		if c.mode == modePlain {
			out.UniqueItems = true
		} else {
			notes.add("uniqueItems", true)
		}
	}

	// objects
	isObject := out.HasType("object") || len(s.Types) == 0 && s.Properties != nil
	if s.Properties != nil {
		c.jsProperties(s, out, path, &notes)
	}
	if s.AdditionalProperties != nil {
		ap, acut, err := c.jsAdditional(s, out, path)
		switch {
		case c.fail(err):
		case acut:
			return nil, true, nil
		default:
			out.AdditionalProperties = ap
		}
	}
	if s.PropertyNames != nil {
		// Kept where accepted (OpenAI and Anthropic non-strict, Bedrock,
		// MCP); elsewhere told in the description (docs/providers.md).
		if c.mode == modePlain {
			pn, _, err := c.js(s.PropertyNames, path+"/propertyNames")
			c.fail(err)
			out.PropertyNames = pn
		} else {
			notes.add("propertyNames", s.PropertyNames)
		}
	}
	if c.mode == modeOpenAIStrict && isObject {
		if s.AdditionalProperties == nil && s.Properties == nil {
			return nil, false, c.errf(path, ErrUnsupported, "a free-form object (no properties, additionalProperties not false) cannot be expressed in OpenAI strict mode, which requires \"additionalProperties\": false on every object%s", strictHint)
		}
		out.AdditionalProperties = schema.False()
		if out.Properties == nil {
			out.Properties = []schema.Property{}
		}
	}
	if c.mode == modeAnthropicStrict && isObject && len(out.Properties) > 0 && out.AdditionalProperties == nil {
		out.AdditionalProperties = schema.False()
	}
	if c.mode == modePlain {
		out.MinProperties, out.MaxProperties = copyInt(s.MinProperties), copyInt(s.MaxProperties)
	} else {
		notes.addInt("minProperties", s.MinProperties)
		notes.addInt("maxProperties", s.MaxProperties)
	}

	// composition
	if s.AnyOf != nil {
		bs, bcut := c.jsBranches(s.AnyOf, path+"/anyOf")
		if bcut {
			return nil, true, nil
		}
		out.AnyOf = bs
	}
	if c.mode == modePlain {
		if s.OneOf != nil {
			out.OneOf, _ = c.jsBranches(s.OneOf, path+"/oneOf")
		}
		if s.AllOf != nil {
			out.AllOf, _ = c.jsBranches(s.AllOf, path+"/allOf")
		}
	}

	// annotations
	if s.HasDefault && !hasNull(s.Default) {
		if c.mode == modePlain {
			out.Default, out.HasDefault = s.Default, true
		} else {
			notes.add("default", s.Default)
		}
	}
	if c.mode == modePlain {
		for _, e := range s.Examples {
			if !hasNull(e) {
				out.Examples = append(out.Examples, e)
			}
		}
		out.Deprecated, out.ReadOnly, out.WriteOnly = s.Deprecated, s.ReadOnly, s.WriteOnly
	}
	if c.extra {
		for _, k := range s.Extra {
			if json.Valid(k.Value) && !rawHasNull(k.Value) {
				out.Extra = append(out.Extra, schema.Keyword{Name: k.Name, Value: append(json.RawMessage(nil), k.Value...)})
			}
		}
	}
	if len(s.Defs) > 0 && !c.inlines() {
		for _, d := range s.Defs {
			ds, _, err := c.js(d.Schema, path+"/$defs/"+pointerEscape(d.Name))
			if c.fail(err) {
				continue
			}
			if ds == nil {
				ds = &schema.Schema{}
			}
			out.Defs = append(out.Defs, schema.Def{Name: d.Name, Schema: ds})
		}
	}

	if c.mode == modeOpenAIStrict && !typed(out) {
		return nil, false, c.untyped(path)
	}
	out.Description = notes.appendTo(out.Description)
	if nullable {
		if out.Enum != nil {
			// {"type":["string","null"],"enum":["a"]} rejects null: say
			// anyOf:[{"type":"string","enum":["a"]},{"type":"null"}].
			out.Types = without(out.Types, "null")
			if len(out.Types) == 0 {
				out.Types = nil
			}
		}
		out = makeNullable(out)
	}
	return out, false, nil
}

// strictHint is the way out of a schema OpenAI's strict subset cannot
// express.
const strictHint = " (consider StrictWherePossible(), which sends this tool non-strict, or a concrete Go type)"

func (c *conv) untyped(path string) error {
	return c.errf(path, ErrUnsupported, "an untyped value (any JSON) cannot be expressed in OpenAI strict mode, which needs a type on every schema%s", strictHint)
}

// typed reports whether s says what type its values have.
func typed(s *schema.Schema) bool {
	return s.IsFalse() || len(s.Types) > 0 || s.Ref != "" || s.AnyOf != nil || s.Enum != nil || s.HasConst
}

// jsRef converts a $ref node: inlined (bounded) where references are not
// accepted, else kept, with its sibling keywords moved onto an anyOf wrapper
// where the dialect forbids siblings.
func (c *conv) jsRef(s *schema.Schema, path string) (*schema.Schema, bool, error) {
	name, def, err := c.resolve(s.Ref, path)
	if err != nil && (c.inlines() || c.mode != modePlain) {
		return nil, false, err
	}
	if c.inlines() {
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
	if c.mode == modePlain {
		out := &schema.Schema{Ref: s.Ref, Title: s.Title, Description: s.Description}
		return out, false, nil
	}
	ref := &schema.Schema{Ref: s.Ref}
	if s.Description == "" && (s.Title == "" || c.mode == modeGeminiJSON) {
		return ref, false, nil
	}
	out := &schema.Schema{AnyOf: []*schema.Schema{ref}, Description: s.Description}
	if c.mode != modeGeminiJSON {
		out.Title = s.Title
	}
	return out, false, nil
}

// jsCombine handles oneOf and allOf in the strict and Gemini dialects:
// oneOf becomes anyOf; an allOf of one schema is that schema.
func (c *conv) jsCombine(s *schema.Schema, path string) (*schema.Schema, bool, error) {
	cp := *s
	if s.AllOf != nil {
		if len(s.AllOf) != 1 || s.AllOf[0] == nil || s.AllOf[0].Bool != nil {
			return nil, false, c.errf(path, ErrUnsupported, "allOf with %d schemas cannot be expressed for %s (consider merging them into one object schema)", len(s.AllOf), c.dialect())
		}
		inner := *s.AllOf[0]
		if inner.Ref != "" && c.inlines() {
			return c.jsRef(&schema.Schema{Ref: inner.Ref, Description: firstNonEmpty(s.Description, inner.Description)}, path)
		}
		cp.AllOf = nil
		merged, ok := mergeInto(&cp, &inner)
		if !ok {
			return nil, false, c.errf(path, ErrUnsupported, "allOf whose schema conflicts with its siblings cannot be expressed for %s", c.dialect())
		}
		return c.js(merged, path)
	}
	if s.OneOf != nil {
		cp.AnyOf = append(append([]*schema.Schema(nil), s.AnyOf...), s.OneOf...)
		cp.OneOf = nil
	}
	return c.js(&cp, path)
}

// mergeInto folds b into a copy of a when they do not both set the
// structural keywords.
func mergeInto(a, b *schema.Schema) (*schema.Schema, bool) {
	if b.Ref != "" && (len(a.Types) > 0 || a.Properties != nil) {
		return nil, false
	}
	out := *b
	if len(a.Types) > 0 {
		if len(b.Types) > 0 {
			return nil, false
		}
		out.Types = a.Types
	}
	if a.Properties != nil {
		if b.Properties != nil {
			return nil, false
		}
		out.Properties, out.Required = a.Properties, a.Required
	}
	if a.Description != "" {
		out.Description = a.Description
	}
	if a.Title != "" {
		out.Title = a.Title
	}
	if a.AnyOf != nil {
		if b.AnyOf != nil {
			return nil, false
		}
		out.AnyOf = a.AnyOf
	}
	if a.AdditionalProperties != nil {
		out.AdditionalProperties = a.AdditionalProperties
	}
	out.Defs = a.Defs
	return &out, true
}

func (c *conv) dialect() string {
	switch c.mode {
	case modeOpenAIStrict:
		return "OpenAI strict mode"
	case modeAnthropicStrict:
		return "Anthropic strict mode"
	case modeGeminiJSON:
		return "Gemini parametersJsonSchema"
	}
	return c.p.label()
}

// jsBranches converts the branches of a union; a branch that fails is
// recorded (c.fail) and left out. cut reports that every branch was cut.
func (c *conv) jsBranches(bs []*schema.Schema, path string) ([]*schema.Schema, bool) {
	out := make([]*schema.Schema, 0, len(bs))
	kept := 0
	for i, b := range bs {
		n, cut, err := c.js(b, fmt.Sprintf("%s/%d", path, i))
		if c.fail(err) {
			kept++ // not a cut: the problem is reported
			continue
		}
		if cut {
			continue
		}
		if n == nil {
			n = &schema.Schema{}
		}
		if !isNullSchema(n) {
			kept++
		}
		out = append(out, n)
	}
	if kept == 0 && len(bs) > 0 {
		return nil, true
	}
	return out, false
}

// jsProperties converts s's properties into out, checking keys, dropping
// cut properties, and (OpenAI strict) making every property required and the
// optional ones nullable. Problems are recorded (c.fail), so that every
// property is checked.
func (c *conv) jsProperties(s, out *schema.Schema, path string, notes *notes) {
	rule := c.p.keyRule()
	if c.mode == modeGeminiJSON {
		rule = &geminiKey
	}
	required := make(map[string]bool, len(s.Required))
	for _, r := range s.Required {
		required[r] = true
	}
	out.Properties = make([]schema.Property, 0, len(s.Properties))
	for _, p := range s.Properties {
		if rule != nil && !rule.match(p.Name) {
			c.fail(c.errf(path, ErrPropertyKey, "property key %q does not match %s's %s", p.Name, c.p.label(), rule.text))
			continue
		}
		ps, cut, err := c.js(p.Schema, path+"/properties/"+pointerEscape(p.Name))
		if c.fail(err) {
			continue
		}
		if cut {
			if required[p.Name] {
				c.fail(c.errRequiredCut(path, p.Name))
				continue
			}
			notes.cut(p.Name, c.cfg.depth)
			continue
		}
		if ps == nil {
			ps = &schema.Schema{}
		}
		if c.mode == modeOpenAIStrict && !required[p.Name] {
			ps = makeNullable(ps)
		}
		out.Properties = append(out.Properties, schema.Property{Name: p.Name, Schema: ps})
	}
	if c.mode == modeOpenAIStrict {
		out.Required = make([]string, len(out.Properties))
		for i, p := range out.Properties {
			out.Required[i] = p.Name
		}
		return
	}
	for _, r := range s.Required {
		if required[r] {
			out.Required = append(out.Required, r)
		}
	}
}

func (c *conv) jsAdditional(s, out *schema.Schema, path string) (*schema.Schema, bool, error) {
	ap := s.AdditionalProperties
	if ap.IsFalse() {
		return schema.False(), false, nil
	}
	switch c.mode {
	case modeOpenAIStrict:
		return nil, false, c.errf(path, ErrUnsupported, "an open map (additionalProperties: %s) cannot be expressed in OpenAI strict mode, which requires \"additionalProperties\": false on every object%s", compactJSON(ap), strictHint)
	case modeAnthropicStrict:
		if len(out.Properties) > 0 {
			return schema.False(), false, nil // strict closes objects with properties
		}
	}
	return c.js(ap, path+"/additionalProperties")
}

// formatOK reports whether the dialect accepts s's format.
func (c *conv) formatOK(s *schema.Schema) bool {
	switch c.mode {
	case modeOpenAIStrict:
		switch s.Format {
		case "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid":
			return true
		}
		return false
	case modeAnthropicStrict:
		switch s.Format {
		case "date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid":
			return true
		}
		return false
	case modeGeminiJSON:
		return geminiFormatOK(s.Types, s.Format)
	}
	return true
}

// geminiFormatOK: STRING takes enum and date-time, INTEGER int32 and int64,
// NUMBER float and double.
func geminiFormatOK(types []string, format string) bool {
	for _, t := range types {
		switch {
		case t == "string" && (format == "date-time" || format == "enum"),
			t == "integer" && (format == "int32" || format == "int64"),
			t == "number" && (format == "float" || format == "double"):
			return true
		}
	}
	return false
}

// patternOK reports whether the dialect accepts the pattern: strict modes
// reject lookaround (and Anthropic backreferences); Gemini's JSON Schema
// path does not document pattern, so it moves to the description.
func (c *conv) patternOK(p string) bool {
	switch c.mode {
	case modeOpenAIStrict:
		return !hasLookaround(p)
	case modeAnthropicStrict:
		return !hasLookaround(p) && !hasBackref(p)
	case modeGeminiJSON:
		return false
	}
	return true
}

func hasLookaround(p string) bool {
	return strings.Contains(p, "(?=") || strings.Contains(p, "(?!") || strings.Contains(p, "(?<=") || strings.Contains(p, "(?<!")
}

func hasBackref(p string) bool {
	for i := 0; i+1 < len(p); i++ {
		if p[i] == '\\' {
			if n := p[i+1]; '1' <= n && n <= '9' || n == 'k' {
				return true
			}
			i++
		}
	}
	return false
}

// makeNullable lets s also accept null: "null" is added to its type, or,
// for a reference, an enum, a const or a union, a {"type":"null"} branch
// (an enum or const would still reject null otherwise).
func makeNullable(s *schema.Schema) *schema.Schema {
	if s.Bool != nil || s.HasType("null") || isNullable(s) {
		return s
	}
	switch {
	case s.AnyOf != nil && s.Ref == "" && len(s.Types) == 0:
		cp := *s
		cp.AnyOf = append(append([]*schema.Schema(nil), s.AnyOf...), &schema.Schema{Types: []string{"null"}})
		return &cp
	case s.Ref != "" || s.Enum != nil || s.HasConst || s.AnyOf != nil || len(s.Types) == 0:
		inner := *s
		outer := &schema.Schema{Title: s.Title, Description: s.Description}
		inner.Title, inner.Description = "", ""
		outer.AnyOf = []*schema.Schema{&inner, {Types: []string{"null"}}}
		return outer
	}
	cp := *s
	cp.Types = append(copyStrings(s.Types), "null")
	return &cp
}

func isNullable(s *schema.Schema) bool {
	for _, b := range s.AnyOf {
		if isNullSchema(b) {
			return true
		}
	}
	return false
}

// exclusiveToInclusive turns an exclusive integer bound into the inclusive
// one (x > 0 is x >= 1), which Gemini accepts; other exclusive bounds go to
// the description.
func exclusiveToInclusive(s *schema.Schema, excl, incl json.Number, delta int64, n *notes, kw string) json.Number {
	if excl == "" {
		return incl
	}
	if s.HasType("integer") && !s.HasType("number") {
		if v, ok := new(big.Rat).SetString(string(excl)); ok {
			// The first integer strictly beyond v.
			f := new(big.Int).Quo(v.Num(), v.Denom()) // truncates towards zero
			fr := new(big.Rat).SetInt(f)
			if delta > 0 && fr.Cmp(v) <= 0 {
				f.Add(f, big.NewInt(1))
			} else if delta < 0 && fr.Cmp(v) >= 0 {
				f.Sub(f, big.NewInt(1))
			}
			bound := json.Number(f.String())
			if incl == "" {
				return bound
			}
			if cur, ok := new(big.Rat).SetString(string(incl)); ok {
				if delta > 0 && new(big.Rat).SetInt(f).Cmp(cur) > 0 || delta < 0 && new(big.Rat).SetInt(f).Cmp(cur) < 0 {
					return bound
				}
				return incl
			}
		}
	}
	n.addNum(kw, excl)
	return incl
}

// notes collects what a dialect cannot express, for the description.
type notes struct{ parts []string }

func (n *notes) add(kw string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		data = []byte(fmt.Sprint(v))
	}
	n.parts = append(n.parts, kw+": "+string(data))
}

func (n *notes) addText(kw, v string) { n.parts = append(n.parts, kw+": "+v) }

func (n *notes) addInt(kw string, v *int64) {
	if v != nil {
		n.parts = append(n.parts, fmt.Sprintf("%s: %d", kw, *v))
	}
}

func (n *notes) addNum(kw string, v json.Number) {
	if v != "" {
		n.parts = append(n.parts, kw+": "+string(v))
	}
}

func (n *notes) cut(prop string, depth int) {
	n.parts = append(n.parts, fmt.Sprintf("%q omitted: recursion depth limit %d", prop, depth))
}

// appendTo appends the notes to a description: "desc (k: v; k: v)".
func (n *notes) appendTo(desc string) string {
	if len(n.parts) == 0 {
		return desc
	}
	joined := strings.Join(n.parts, "; ")
	if desc == "" {
		return joined
	}
	return desc + " (" + joined + ")"
}

func withoutNull(vs []any) ([]any, bool) {
	out := make([]any, 0, len(vs))
	had := false
	for _, v := range vs {
		if v == nil {
			had = true
			continue
		}
		if hasNull(v) {
			continue
		}
		out = append(out, v)
	}
	return out, had
}

func allStringsOrNumbers(vs []any) bool {
	for _, v := range vs {
		switch v.(type) {
		case string, json.Number, float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		default:
			return false
		}
	}
	return true
}

func allStrings(vs []any) bool {
	for _, v := range vs {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}

// hasNull reports whether the JSON encoding of v contains null.
func hasNull(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string, bool, json.Number, float64, int, int64:
		return false
	case []any:
		for _, e := range x {
			if hasNull(e) {
				return true
			}
		}
		return false
	case map[string]any:
		for _, e := range x {
			if hasNull(e) {
				return true
			}
		}
		return false
	}
	data, err := json.Marshal(v)
	return err != nil || rawHasNull(data)
}

// rawHasNull reports whether JSON text contains a null value.
func rawHasNull(data []byte) bool {
	if !bytes.Contains(data, []byte("null")) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if tok == nil {
			return true
		}
	}
}

func without(ss []string, drop string) []string {
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}

func copyStrings(ss []string) []string {
	if ss == nil {
		return nil
	}
	return append([]string(nil), ss...)
}

func copyInt(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func pointerEscape(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func compactJSON(s *schema.Schema) string {
	data, err := s.MarshalJSON()
	if err != nil {
		return "?"
	}
	if len(data) > 80 {
		return string(data[:77]) + "..."
	}
	return string(data)
}
