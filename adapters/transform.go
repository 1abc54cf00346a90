package adapters

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus/schema"
)

// This file holds the one walk that transforms a canonical schema into a
// provider's dialect: the passthrough (OpenAI non-strict, Anthropic,
// Bedrock, MCP), OpenAI strict, Anthropic strict, Gemini
// parametersJsonSchema and Gemini parameters. What each dialect accepts is
// a row of the capability table in dialect.go; the walk is an allow-list
// that builds a new tree holding only what the row accepts, moves
// constraints it cannot express into the description (notes.go), and
// records an *Error for what it cannot express at all, going on to find
// every problem. References and the root are in transform_refs.go; the
// shape of an OpenAPI-subset node (Gemini parameters) and the final step
// into Gemini's node type are in gemini_schema.go, behind the dialect's
// nodes hook. The canonical tree is
// shared and never modified.

// conv converts one schema of one tool for one provider and option set.
type conv struct {
	p     *spec
	cfg   config
	d     *dialect // the JSON Schema dialect (dialect.go)
	tool  string
	extra bool // keep unknown keywords (MCP)

	root    *schema.Schema            // the original root, for "#"
	defs    map[string]*schema.Schema // the original root's $defs
	stack   []string                  // definitions being inlined
	onStack map[string]int            // how many times each is on stack
	budget  inlineBudget              // of an inlining conv (inline_budget.go)
	errs    errorList                 // problems found so far; the walk goes on to find them all
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

func newConv(p *spec, cfg config, tool string, root *schema.Schema) *conv {
	c := &conv{p: p, cfg: cfg, tool: tool, root: root}
	c.d = p.dialect(cfg)
	c.extra = p.keepExtra
	if c.inlines() {
		c.budget = newInlineBudget(root)
	}
	if root != nil && len(root.Defs) > 0 {
		c.defs = make(map[string]*schema.Schema, len(root.Defs))
		for _, d := range root.Defs {
			c.defs[d.Name] = d.Schema
		}
	}
	return c
}

func (c *conv) errf(path *spath, sentinel error, format string, args ...any) *Error {
	return &Error{Func: c.p.funcName, Tool: c.tool, Path: path.String(), Err: sentinel, Msg: fmt.Sprintf(format, args...)}
}

// errRequiredCut reports a required property that recursion inlining would
// have to leave out: no call could then supply it, and the decoder would
// reject every call that follows the rendered schema.
func (c *conv) errRequiredCut(path *spath, prop string) *Error {
	return c.errf(path, ErrUnsupported,
		"required property %q recurses beyond the inlining depth limit %d, so no call could supply it (consider making it optional with omitempty or a pointer, raising MaxInlineDepth, or a provider mode that keeps $ref)",
		prop, c.cfg.depth)
}

// inlines reports whether references are inlined rather than kept.
func (c *conv) inlines() bool { return c.p.inlines(c.cfg) }

// js converts one node into the conv's dialect. cut reports that the node
// is a recursive reference beyond the inlining depth: the caller leaves out
// the property (or branch) holding it. It reads the node's keywords group
// by group, in the order their notes join the description: values (enum,
// const), strings, numbers, arrays, objects, unions, annotations,
// definitions.
func (c *conv) js(s *schema.Schema, path *spath) (out *schema.Schema, cut bool, err error) {
	if s == nil {
		if c.d.nodes != nil {
			return nil, false, c.untyped(path)
		}
		return nil, false, nil
	}
	if c.inlines() {
		if err := c.spend(s, path); err != nil {
			return nil, false, err
		}
	}
	switch {
	case s.Bool != nil:
		return c.jsBool(s, path)
	case s.Ref != "":
		return c.jsRef(s, path)
	case c.d.strict && (s.OneOf != nil || s.AllOf != nil):
		return c.jsCombine(s, path)
	}
	var notes notes
	if c.d.nodes != nil {
		shaped, final, cut, err := c.d.nodes.shape(c, s, path, &notes)
		if final {
			return shaped, cut, err
		}
		s = shaped
	}
	out = &schema.Schema{Types: copyStrings(s.Types), Description: s.Description}
	if c.d.title {
		out.Title = s.Title
	}
	nullable := c.jsValues(s, out, &notes)
	c.jsStrings(s, out, &notes)
	c.jsNumbers(s, out, &notes)
	if cut, err := c.jsArray(s, out, path, &notes); cut || err != nil {
		return nil, cut, err
	}
	if cut, err := c.jsObject(s, out, path, &notes); cut || err != nil {
		return nil, cut, err
	}
	if c.jsUnions(s, out, path) {
		return nil, true, nil
	}
	c.jsAnnotations(s, out, path, &notes)
	c.jsDefs(s, out, path)
	return c.jsDone(out, path, &notes, nullable)
}

// jsBool converts the true and false schemas.
func (c *conv) jsBool(s *schema.Schema, path *spath) (*schema.Schema, bool, error) {
	if *s.Bool && c.d.typed {
		return nil, false, c.untyped(path)
	}
	if !*s.Bool && c.d.nodes != nil {
		return nil, false, c.errf(path, ErrUnsupported, "the schema false (no value allowed) cannot be expressed in %s", c.d.name)
	}
	b := *s.Bool
	return &schema.Schema{Bool: &b}, false, nil
}

// jsValues converts enum and const into out. It reports whether they
// allow null, which the node's type then does (jsDone).
func (c *conv) jsValues(s, out *schema.Schema, notes *notes) (nullable bool) {
	if s.Enum != nil {
		vals, hadNull := withoutNull(s.Enum)
		nullable = hadNull
		switch {
		case len(vals) == 0:
		case c.d.scalarEnums && !allStringsOrNumbers(vals):
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
		case c.d.scalarEnums:
			if allStringsOrNumbers([]any{s.Const}) {
				out.Enum = []any{s.Const}
			} else {
				notes.add("const", s.Const)
			}
		default:
			out.Const, out.HasConst = s.Const, true
		}
	}
	return nullable
}

// jsStrings converts the string keywords: format, contentEncoding,
// pattern, the lengths.
func (c *conv) jsStrings(s, out *schema.Schema, notes *notes) {
	if s.Format != "" {
		if c.d.format(s) {
			out.Format = s.Format
		} else {
			notes.addText("format", s.Format)
		}
	}
	if s.ContentEncoding != "" {
		if c.d.encoding {
			out.ContentEncoding = s.ContentEncoding
		} else {
			notes.addText("contentEncoding", s.ContentEncoding)
		}
	}
	if s.Pattern != "" {
		if c.d.pattern(s.Pattern) {
			out.Pattern = s.Pattern
		} else {
			notes.addText("pattern", s.Pattern)
		}
	}
	if c.d.lengths {
		out.MinLength, out.MaxLength = copyInt(s.MinLength), copyInt(s.MaxLength)
	} else {
		notes.addInt("minLength", s.MinLength)
		notes.addInt("maxLength", s.MaxLength)
	}
}

// jsNumbers converts the numeric bounds and multipleOf.
func (c *conv) jsNumbers(s, out *schema.Schema, notes *notes) {
	switch c.d.numbers {
	case numbersKept:
		out.Minimum, out.Maximum = s.Minimum, s.Maximum
		out.ExclusiveMinimum, out.ExclusiveMaximum = s.ExclusiveMinimum, s.ExclusiveMaximum
		out.MultipleOf = s.MultipleOf
	case numbersDescribed:
		notes.addNum("minimum", s.Minimum)
		notes.addNum("exclusiveMinimum", s.ExclusiveMinimum)
		notes.addNum("maximum", s.Maximum)
		notes.addNum("exclusiveMaximum", s.ExclusiveMaximum)
		notes.addNum("multipleOf", s.MultipleOf)
	case numbersInclusive:
		out.Minimum, out.Maximum = s.Minimum, s.Maximum
		out.Minimum = exclusiveToInclusive(s, s.ExclusiveMinimum, out.Minimum, +1, notes, "exclusiveMinimum")
		out.Maximum = exclusiveToInclusive(s, s.ExclusiveMaximum, out.Maximum, -1, notes, "exclusiveMaximum")
		notes.addNum("multipleOf", s.MultipleOf)
	}
}

// jsArray converts the array keywords: items, the item counts,
// uniqueItems. cut reports items cut by the inlining depth (the node goes
// with them); err is a problem that makes the whole node unusable.
func (c *conv) jsArray(s, out *schema.Schema, path *spath, notes *notes) (cut bool, err error) {
	if s.Items != nil {
		items, icut, err := c.js(s.Items, path.key("/items"))
		switch {
		case c.fail(err):
		case icut:
			return true, nil
		case c.d.nodes != nil && c.d.nodes.empty(items):
			c.fail(c.errf(path.key("/items"), ErrUnsupported, "array items that are an object without properties cannot be expressed in %s%s", c.d.name, c.d.hint))
		default:
			out.Items = items
		}
	} else if out.HasType("array") {
		if c.d.typedItems {
			return false, c.errf(path, ErrUnsupported, "an array without \"items\" cannot be expressed in %s, which needs typed items%s", c.d.name, c.d.hint)
		}
		out.Items = &schema.Schema{}
	}
	if c.d.minItems < 0 || s.MinItems == nil || *s.MinItems <= c.d.minItems {
		out.MinItems = copyInt(s.MinItems)
	} else {
		notes.addInt("minItems", s.MinItems)
	}
	if c.d.maxItems {
		out.MaxItems = copyInt(s.MaxItems)
	} else {
		notes.addInt("maxItems", s.MaxItems)
	}
	if s.UniqueItems {
		if c.d.annotations {
			out.UniqueItems = true
		} else {
			notes.add("uniqueItems", true)
		}
	}
	return false, nil
}

// jsObject converts the object keywords: properties, additionalProperties,
// propertyNames, the closing of objects, the property counts. cut and err
// are as for jsArray.
func (c *conv) jsObject(s, out *schema.Schema, path *spath, notes *notes) (cut bool, err error) {
	isObject := out.HasType("object") || len(s.Types) == 0 && s.Properties != nil
	if s.Properties != nil {
		c.jsProperties(s, out, path, notes)
	}
	if s.AdditionalProperties != nil {
		ap, acut, err := c.jsAdditional(s, out, path)
		switch {
		case c.fail(err):
		case acut:
			return true, nil
		default:
			out.AdditionalProperties = ap
		}
	}
	if s.PropertyNames != nil {
		// Kept where accepted (OpenAI and Anthropic non-strict, Bedrock,
		// MCP); elsewhere told in the description (docs/providers.md).
		if c.d.annotations {
			pn, _, err := c.js(s.PropertyNames, path.key("/propertyNames"))
			c.fail(err)
			out.PropertyNames = pn
		} else {
			notes.add("propertyNames", s.PropertyNames)
		}
	}
	if c.d.closeObjects == closeAll && isObject {
		if s.AdditionalProperties == nil && s.Properties == nil {
			return false, c.errf(path, ErrUnsupported, "a free-form object (no properties, additionalProperties not false) cannot be expressed in %s, which requires \"additionalProperties\": false on every object%s", c.d.name, c.d.hint)
		}
		out.AdditionalProperties = schema.False()
		if out.Properties == nil {
			out.Properties = []schema.Property{}
		}
	}
	if c.d.closeObjects == closeWithProps && isObject && len(out.Properties) > 0 && out.AdditionalProperties == nil {
		out.AdditionalProperties = schema.False()
	}
	if c.d.lengths {
		out.MinProperties, out.MaxProperties = copyInt(s.MinProperties), copyInt(s.MaxProperties)
	} else {
		notes.addInt("minProperties", s.MinProperties)
		notes.addInt("maxProperties", s.MaxProperties)
	}
	return false, nil
}

// jsUnions converts anyOf, and oneOf and allOf where the dialect keeps
// them (a strict one rewrote them: jsCombine). It reports that every anyOf
// branch was cut, and the node with them.
func (c *conv) jsUnions(s, out *schema.Schema, path *spath) (cut bool) {
	if s.AnyOf != nil {
		bs, bcut := c.jsBranches(s.AnyOf, path.key("/anyOf"))
		if bcut {
			return true
		}
		out.AnyOf = bs
	}
	if !c.d.strict {
		if s.OneOf != nil {
			out.OneOf, _ = c.jsBranches(s.OneOf, path.key("/oneOf"))
		}
		if s.AllOf != nil {
			out.AllOf, _ = c.jsBranches(s.AllOf, path.key("/allOf"))
		}
	}
	return false
}

// jsAnnotations converts default, examples, the flags (deprecated,
// readOnly, writeOnly) and the keywords the tree does not model
// (patternProperties, and a hand-written schema's others where the
// dialect keeps them).
func (c *conv) jsAnnotations(s, out *schema.Schema, path *spath, notes *notes) {
	if s.HasDefault && !hasNull(s.Default) {
		if c.d.defaults {
			out.Default, out.HasDefault = s.Default, true
		} else {
			notes.add("default", s.Default)
		}
	}
	for _, e := range s.Examples {
		if c.d.examples >= 0 && len(out.Examples) >= c.d.examples {
			break
		}
		if !hasNull(e) {
			out.Examples = append(out.Examples, e)
		}
	}
	if c.d.annotations {
		out.Deprecated, out.ReadOnly, out.WriteOnly = s.Deprecated, s.ReadOnly, s.WriteOnly
	}
	for _, k := range s.Extra {
		switch {
		case k.Name == "patternProperties":
			// Not modelled by schema.Schema, so it comes in Extra; it
			// constrains keys, so no dialect drops it silently.
			if !c.d.patternProps {
				notes.addRaw("patternProperties", k.Value)
				continue
			}
			pp, err := c.jsPatternProperties(k.Value, path.key("/patternProperties"))
			if !c.fail(err) {
				out.Extra = append(out.Extra, schema.Keyword{Name: k.Name, Value: pp})
			}
		case c.extra && json.Valid(k.Value) && !rawHasNull(k.Value):
			out.Extra = append(out.Extra, schema.Keyword{Name: k.Name, Value: append(json.RawMessage(nil), k.Value...)})
		}
	}
}

// jsDefs converts $defs, which an inlining conv leaves out (their uses are
// inlined).
func (c *conv) jsDefs(s, out *schema.Schema, path *spath) {
	if len(s.Defs) == 0 || c.inlines() {
		return
	}
	for _, d := range s.Defs {
		ds, _, err := c.js(d.Schema, path.name("/$defs/", d.Name))
		if c.fail(err) {
			continue
		}
		if ds == nil {
			ds = &schema.Schema{}
		}
		out.Defs = append(out.Defs, schema.Def{Name: d.Name, Schema: ds})
	}
}

// jsDone finishes the node: the dialect's type check, the notes in the
// description, null where enum or const allowed it.
func (c *conv) jsDone(out *schema.Schema, path *spath, notes *notes, nullable bool) (*schema.Schema, bool, error) {
	if c.d.typed && !typed(out) {
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
	if c.d.nullAnyOf {
		out = nullBranch(out)
	}
	return out, false, nil
}

// nullBranch writes a node whose type list holds null and another type as
// anyOf [the node without null, {"type":"null"}], title and description
// on the outside.
func nullBranch(s *schema.Schema) *schema.Schema {
	if len(s.Types) < 2 || !s.HasType("null") {
		return s
	}
	inner := *s
	inner.Types = without(s.Types, "null")
	inner.Title, inner.Description = "", ""
	return &schema.Schema{Title: s.Title, Description: s.Description,
		AnyOf: []*schema.Schema{&inner, {Types: []string{"null"}}}}
}

func (c *conv) untyped(path *spath) error {
	return c.errf(path, ErrUnsupported, "an untyped value (any JSON) cannot be expressed in %s, which needs a type on every schema%s", c.d.name, c.d.hint)
}

// typed reports whether s says what type its values have.
func typed(s *schema.Schema) bool {
	return s.IsFalse() || len(s.Types) > 0 || s.Ref != "" || s.AnyOf != nil || s.Enum != nil || s.HasConst
}

// jsCombine handles oneOf and allOf in the strict and Gemini dialects:
// oneOf becomes anyOf; an allOf of one schema is that schema.
func (c *conv) jsCombine(s *schema.Schema, path *spath) (*schema.Schema, bool, error) {
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
	if c.d.name != "" {
		return c.d.name
	}
	return c.p.display
}

// jsBranches converts the branches of a union; a branch that fails is
// recorded (c.fail) and left out. cut reports that every branch was cut.
func (c *conv) jsBranches(bs []*schema.Schema, path *spath) ([]*schema.Schema, bool) {
	out := make([]*schema.Schema, 0, len(bs))
	kept := 0
	for i, b := range bs {
		n, cut, err := c.js(b, path.index(i))
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
func (c *conv) jsProperties(s, out *schema.Schema, path *spath, notes *notes) {
	rule := c.p.key
	if c.d.anyKey {
		rule = nil
	}
	required := make(map[string]bool, len(s.Required))
	for _, r := range s.Required {
		required[r] = true
	}
	out.Properties = make([]schema.Property, 0, len(s.Properties))
	for _, p := range s.Properties {
		if rule != nil && !rule.match(p.Name) {
			c.fail(c.errf(path, ErrPropertyKey, "property key %q does not match %s's %s", p.Name, c.p.display, rule.text))
			continue
		}
		ps, cut, err := c.js(p.Schema, path.name("/properties/", p.Name))
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
		if c.d.nodes != nil && c.d.nodes.empty(ps) {
			c.d.nodes.emptyProperty(c, path, p.Name, required[p.Name], notes)
			continue
		}
		if ps == nil {
			ps = &schema.Schema{}
		}
		if c.d.allRequired && !required[p.Name] {
			ps = makeNullable(ps)
		}
		out.Properties = append(out.Properties, schema.Property{Name: p.Name, Schema: ps})
	}
	if c.d.allRequired {
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

func (c *conv) jsAdditional(s, out *schema.Schema, path *spath) (*schema.Schema, bool, error) {
	ap := s.AdditionalProperties
	if ap.IsFalse() {
		return schema.False(), false, nil
	}
	switch {
	case !c.d.openMaps:
		return nil, false, c.errf(path, ErrUnsupported, "an open map (additionalProperties: %s) cannot be expressed in %s, which requires \"additionalProperties\": false on every object%s", compactJSON(ap), c.d.name, c.d.hint)
	case c.d.closeObjects == closeWithProps && len(out.Properties) > 0:
		return schema.False(), false, nil // strict closes objects with properties
	}
	return c.js(ap, path.key("/additionalProperties"))
}

// jsPatternProperties converts the schemas of a patternProperties value
// (an object of pattern: schema, kept in Extra as written) in the conv's
// dialect, keeping the members' order.
func (c *conv) jsPatternProperties(raw json.RawMessage, path *spath) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, c.errf(path, ErrUnsupported, "patternProperties must be an object of schemas")
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i := 0; dec.More(); i++ {
		tok, err := dec.Token()
		if err != nil {
			return nil, c.errf(path, ErrUnsupported, "patternProperties: %v", err)
		}
		name, _ := tok.(string)
		var member json.RawMessage
		if err := dec.Decode(&member); err != nil {
			return nil, c.errf(path, ErrUnsupported, "patternProperties: %v", err)
		}
		var sub *schema.Schema
		switch string(member) {
		case "true", "false":
			v := string(member) == "true"
			sub = &schema.Schema{Bool: &v}
		default:
			if sub, err = schema.Parse(member); err != nil {
				return nil, c.errf(path.name("/", name), ErrUnsupported, "patternProperties: %v", err)
			}
		}
		conv, _, err := c.js(sub, path.name("/", name))
		if err != nil {
			return nil, err
		}
		if conv == nil {
			conv = &schema.Schema{}
		}
		data, err := conv.MarshalJSON()
		if err != nil {
			return nil, c.errf(path.name("/", name), ErrUnsupported, "patternProperties: %v", err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, name)
		b.WriteByte(':')
		b.Write(data)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
