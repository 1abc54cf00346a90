package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/zoo"
	"github.com/toolnexus/toolnexus/schema"
)

// The validator of tools made from a hand-written schema (define.NewTool,
// every remote MCP tool) against the reference validator: the same
// generated arguments as TestDecoderAgreesWithValidator, for the zoo's
// canonical schemas and for generated schemas that use every keyword
// schema.Parse reads.

// schemaToolTally counts one test's verdicts (its subtests run one
// after the other).
type schemaToolTally struct {
	total, valid, agree, documented, disagree, mapVsTxt int
	byRule                                              map[string]int
}

func (s *schemaToolTally) add(o schemaToolTally) {
	s.total += o.total
	s.valid += o.valid
	s.agree += o.agree
	s.documented += o.documented
	s.disagree += o.disagree
	s.mapVsTxt += o.mapVsTxt
	if s.byRule == nil {
		s.byRule = map[string]int{}
	}
	for k, v := range o.byRule {
		s.byRule[k] += v
	}
}

func (s *schemaToolTally) log(t *testing.T, what string) {
	for _, why := range sortedKeys(s.byRule) {
		t.Logf("documented: %5d × %s", s.byRule[why], why)
	}
	t.Logf("SUMMARY %s: %d cases (%d valid per the validator), %d agreements, %d documented differences, %d disagreements (%d between map and text arguments)",
		what, s.total, s.valid, s.agree, s.documented, s.disagree, s.mapVsTxt)
}

// checkSchemaTool generates arguments for the object schema doc (seeded by
// name) and compares, on each, the verdict of a NewTool tool made from
// doc (JSON text and map arguments) with the reference validator's.
func checkSchemaTool(t *testing.T, name string, doc []byte, perSchema int) schemaToolTally {
	t.Helper()
	tally := schemaToolTally{byRule: map[string]int{}}
	sch, err := compileSchema(name, doc)
	if err != nil {
		t.Fatalf("the reference does not compile %s: %v", doc, err)
	}
	tool, err := define.NewTool("t", doc, func(context.Context, json.RawMessage) (any, error) { return "ok", nil })
	if err != nil {
		t.Fatalf("NewTool(%s): %v", doc, err)
	}
	root, err := decodeJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	g := &gen{r: rand.New(rand.NewPCG(h.Sum64(), 2027)), root: root.(map[string]any)}
	type candidate struct {
		kind, site string
		node       map[string]any
		args       []byte
	}
	var cands []candidate
	for i := 0; i < perSchema; i++ {
		g.sites = nil
		v := g.value(g.root, nil, 0)
		sites := g.sites
		cands = append(cands, candidate{kind: "valid", args: mustJSON(t, v)})
		for _, m := range g.mutate(v, sites, mutationsPer) {
			cands = append(cands, candidate{kind: m.kind, site: pointer(m.site.path), node: m.site.node, args: mustJSON(t, m.value)})
		}
	}
	for _, raw := range []string{`{}`, `[]`, `"x"`, `1`, `{"a":1}`, `null`} {
		cands = append(cands, candidate{kind: "whole", args: []byte(raw)})
	}
	ctx := context.Background()
	seen := map[string]bool{}
	var unknown []string
	for _, cd := range cands {
		if seen[string(cd.args)] {
			continue
		}
		seen[string(cd.args)] = true
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(cd.args))
		if err != nil {
			t.Fatalf("generated invalid JSON %s: %v", cd.args, err)
		}
		res := tool.ExecuteJSON(ctx, cd.args)
		ours := verdict{ok: !res.IsError}
		if res.IsError {
			ours.err = short(res.Output, 300)
		}
		c := diffCase{zoo: name, kind: cd.kind, args: cd.args, site: cd.site, node: cd.node,
			validate: toVerdict(sch.Validate(inst)), decJSON: ours}
		if _, ok := inst.(map[string]any); ok {
			// The map as a provider's reply decodes it, numbers exact.
			mv, _ := decodeJSON(cd.args)
			r := tool.Execute(ctx, mv.(map[string]any))
			v := verdict{ok: !r.IsError, err: short(r.Output, 300)}
			c.decMap = &v
		}
		if c.validate.ok != c.decJSON.ok {
			if r, ok := roundedArgs(cd.args, c.site); ok {
				if ri, err := jsonschema.UnmarshalJSON(bytes.NewReader(r)); err == nil {
					c.roundedOK = (sch.Validate(ri) == nil) == c.decJSON.ok
				}
			}
		}
		tally.total++
		if c.validate.ok {
			tally.valid++
		}
		if c.decMap != nil && c.decMap.ok != c.decJSON.ok {
			tally.mapVsTxt++
			t.Errorf("map and text arguments disagree on %s: text %v %s, map %v %s", cd.args, c.decJSON.ok, c.decJSON.err, c.decMap.ok, c.decMap.err)
		}
		if c.decJSON.ok == c.validate.ok {
			tally.agree++
			continue
		}
		// Both verdicts on other arguments, for the rules that need them.
		agreeOn := func(args []byte) bool {
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
			return err == nil && (sch.Validate(inst) == nil) == !tool.ExecuteJSON(ctx, args).IsError
		}
		if why := schemaToolDeliberate(c, bytes.Contains(doc, []byte(`"contentEncoding":"base64"`)), agreeOn); why != "" {
			tally.documented++
			tally.byRule[why]++
			continue
		}
		tally.disagree++
		unknown = append(unknown, fmt.Sprintf("%s %s at %q: %s\n    validator: %v %s\n    schema tool: %v %s", name, c.kind, c.site, c.args,
			c.validate.ok, c.validate.err, c.decJSON.ok, c.decJSON.err))
	}
	sort.Strings(unknown)
	for _, u := range unknown {
		t.Errorf("disagreement: %s", u)
	}
	return tally
}

// schemaToolDeliberate returns the decisions.md rule that explains a
// disagreement of the schema tool with the reference, or "". They are the
// rules of typed tools that are not about Go types (decisions.md,
// "Deliberate differences between schema and decoder"), under which a
// schema tool checks alike. base64 says whether the schema has
// contentEncoding base64; agreeOn whether the reference and the schema
// tool agree on other arguments.
func schemaToolDeliberate(c diffCase, base64 bool, agreeOn func([]byte) bool) string {
	switch {
	case c.kind == "whole" && string(c.args) == "null" && c.decJSON.ok:
		return "decisions.md: null arguments mean {}"
	case c.kind == "null" && c.site == "" && !c.validate.ok && c.decJSON.ok:
		return "decisions.md: null arguments mean {}"
	// A base64 string with a line break inside an anyOf or oneOf, where
	// the error names the branches rather than base64 (or where the
	// refused string makes a oneOf match once instead of twice): the two
	// agree once the line breaks are gone.
	case base64 && base64Break.Match(c.args) && agreeOn(base64Break.ReplaceAll(c.args, nil)):
		return "decisions.md: base64 with a line break is rejected (RFC 4648)"
	}
	// The rules on values (formats, base64, floats) are those of typed
	// tools.
	return deliberate(c, c.node)
}

// TestSchemaToolAgreesWithValidator: for every zoo type, a NewTool tool
// made from its canonical schema accepts exactly what the reference
// validator accepts, on the generated arguments of
// TestDecoderAgreesWithValidator (and map arguments give the verdict of
// text), except where decisions.md says why.
func TestSchemaToolAgreesWithValidator(t *testing.T) {
	var all schemaToolTally
	for _, zc := range zoo.Cases {
		t.Run(zc.Name, func(t *testing.T) {
			s, err := schema.ForType(zc.Type)
			if err != nil {
				t.Fatal(err)
			}
			all.add(checkSchemaTool(t, "zoo-"+zc.Name, mustJSON(t, s), validPerType*scale()))
		})
	}
	all.log(t, "schema tool vs validator (zoo)")
}

// TestSchemaToolKeywords: generated schemas using every keyword
// schema.Parse reads (types and type lists, enum and const of every JSON
// type, the string, number, array and object keywords, formats known and
// unknown, contentEncoding, additionalProperties and propertyNames,
// anyOf, oneOf, allOf, $ref, boolean schemas), each under a root
// property, checked as TestSchemaToolAgreesWithValidator checks the zoo.
func TestSchemaToolKeywords(t *testing.T) {
	var all schemaToolTally
	const schemas = 150
	for i := 0; i < schemas*scale(); i++ {
		sg := &schemaGen{r: rand.New(rand.NewPCG(uint64(i), 7))}
		doc := sg.document()
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			tally := checkSchemaTool(t, fmt.Sprintf("gen-%d", i), doc, 12)
			if t.Failed() {
				t.Logf("schema: %s", doc)
			}
			all.add(tally)
		})
	}
	all.log(t, "schema tool vs validator (generated schemas)")
	used := map[string]bool{}
	for i := 0; i < schemas*scale(); i++ {
		sg := &schemaGen{r: rand.New(rand.NewPCG(uint64(i), 7))}
		sg.document()
		for k := range sg.used {
			used[k] = true
		}
	}
	for _, k := range []string{"type", "type list", "enum", "const", "minLength", "maxLength", "pattern", "format", "unknown format",
		"contentEncoding", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "bound beyond int64",
		"items", "minItems", "maxItems", "uniqueItems", "properties", "required", "required undeclared",
		"additionalProperties false", "additionalProperties schema", "propertyNames", "minProperties", "maxProperties",
		"anyOf", "oneOf", "allOf", "$ref", "true", "false", "untyped constraints", "annotations"} {
		if !used[k] {
			t.Errorf("the generated schemas never use %s", k)
		}
	}
}

// schemaGen makes random schemas; used records what they use.
type schemaGen struct {
	r    *rand.Rand
	defs map[string]any
	used map[string]bool
}

func (g *schemaGen) use(k string) {
	if g.used == nil {
		g.used = map[string]bool{}
	}
	g.used[k] = true
}

// document returns an object schema whose property "v" (required) is a
// random schema, with $defs the random schemas may refer to.
func (g *schemaGen) document() []byte {
	g.defs = map[string]any{}
	for i := 0; i < 2; i++ {
		g.defs[fmt.Sprintf("d%d", i)] = g.schema(2)
	}
	doc := map[string]any{
		"type":       "object",
		"properties": map[string]any{"v": g.schema(0), "w": g.schema(1)},
		"required":   []any{"v"},
		"$defs":      g.defs,
	}
	data, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return data
}

func (g *schemaGen) pick(n int) int { return g.r.IntN(n) }

var (
	genPatterns = []string{"^[a-z]+$", "^[A-Z]{3}$", "a", "^.{0,3}$", "^[0-9]{2,4}-[a-z]$", "x|y", "^(ab)*$", "é"}
	genFormats  = []string{"date-time", "date", "time", "email", "uuid", "ipv4", "ipv6", "uri", "hostname"}
	genNumbers  = []string{"0", "1", "-3", "2.5", "0.1", "100", "1e3", "9007199254740993", "1e20", "-1e20", "18446744073709551615"}
	genValues   = []any{json.Number("1"), json.Number("2.5"), "a", "b", true, false, nil, []any{json.Number("1"), "x"},
		map[string]any{"k": true}, json.Number("9007199254740993"), json.Number("-0")}
)

// schema returns a random schema; depth bounds the nesting.
func (g *schemaGen) schema(depth int) any {
	if depth > 3 {
		g.use("type")
		return map[string]any{"type": []string{"string", "integer", "boolean", "null"}[g.pick(4)]}
	}
	switch g.pick(16) {
	case 0:
		g.use("true")
		return true
	case 1:
		if g.pick(3) == 0 {
			g.use("false")
			return false
		}
		fallthrough
	case 2, 3:
		return g.stringSchema()
	case 4, 5:
		return g.numberSchema()
	case 6:
		g.use("enum")
		n := 1 + g.pick(4)
		var members []any
		for i := 0; i < n; i++ {
			members = append(members, genValues[g.pick(len(genValues))])
		}
		return map[string]any{"enum": members}
	case 7:
		g.use("const")
		return map[string]any{"const": genValues[g.pick(len(genValues))]}
	case 8, 9:
		return g.arraySchema(depth)
	case 10, 11:
		return g.objectSchema(depth)
	case 12:
		k := []string{"anyOf", "oneOf", "allOf"}[g.pick(3)]
		g.use(k)
		n := 2 + g.pick(2)
		var subs []any
		for i := 0; i < n; i++ {
			subs = append(subs, g.schema(depth+1))
		}
		return map[string]any{k: subs}
	case 13:
		if len(g.defs) > 0 {
			g.use("$ref")
			return map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", g.pick(len(g.defs)))}
		}
		return g.stringSchema()
	case 14:
		g.use("type list")
		return map[string]any{"type": []string{"string", "null"}, "maxLength": 3}
	default:
		g.use("untyped constraints")
		g.use("annotations")
		return map[string]any{"minLength": 2, "maximum": 5, "minItems": 1, "maxProperties": 1, "title": "t", "description": "d",
			"examples": []any{1}, "default": "x", "deprecated": true, "$comment": "c", "x-extension": 1}
	}
}

func (g *schemaGen) stringSchema() map[string]any {
	g.use("type")
	s := map[string]any{"type": "string"}
	if g.pick(2) == 0 {
		g.use("minLength")
		s["minLength"] = g.pick(3)
	}
	if g.pick(2) == 0 {
		g.use("maxLength")
		s["maxLength"] = 2 + g.pick(6)
	}
	switch g.pick(5) {
	case 0:
		g.use("pattern")
		s["pattern"] = genPatterns[g.pick(len(genPatterns))]
	case 1:
		g.use("format")
		s["format"] = genFormats[g.pick(len(genFormats))]
		delete(s, "maxLength")
		delete(s, "minLength")
	case 2:
		g.use("unknown format")
		s["format"] = "int32"
	case 3:
		g.use("contentEncoding")
		s["contentEncoding"] = "base64"
		delete(s, "maxLength")
		delete(s, "minLength")
	}
	if g.pick(6) == 0 {
		g.use("enum")
		s["enum"] = []any{"a", "bb", "ccc", "x"}
	}
	return s
}

func (g *schemaGen) numberSchema() map[string]any {
	g.use("type")
	s := map[string]any{"type": []string{"integer", "number"}[g.pick(2)]}
	num := func() json.Number { return json.Number(genNumbers[g.pick(len(genNumbers))]) }
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		if g.pick(3) == 0 {
			g.use(k)
			n := num()
			s[k] = n
			if strings.Contains(string(n), "e20") || strings.HasPrefix(string(n), "1844") {
				g.use("bound beyond int64")
			}
		}
	}
	if g.pick(3) == 0 {
		g.use("multipleOf")
		s["multipleOf"] = json.Number([]string{"2", "3", "0.5", "0.25", "7"}[g.pick(5)])
	}
	return s
}

func (g *schemaGen) arraySchema(depth int) map[string]any {
	g.use("type")
	s := map[string]any{"type": "array"}
	if g.pick(3) != 0 {
		g.use("items")
		s["items"] = g.schema(depth + 1)
	}
	minItems := 0
	if g.pick(2) == 0 {
		g.use("minItems")
		minItems = g.pick(3)
		s["minItems"] = minItems
	}
	if g.pick(2) == 0 {
		g.use("maxItems")
		s["maxItems"] = minItems + g.pick(3) // the argument generator wants min <= max
	}
	if g.pick(3) == 0 {
		g.use("uniqueItems")
		s["uniqueItems"] = true
	}
	return s
}

func (g *schemaGen) objectSchema(depth int) map[string]any {
	g.use("type")
	g.use("properties")
	props := map[string]any{}
	n := g.pick(4)
	for i := 0; i < n; i++ {
		props[[]string{"a", "b", "c/d", "é"}[i]] = g.schema(depth + 1)
	}
	s := map[string]any{"type": "object", "properties": props}
	var req []any
	for k := range props {
		if g.pick(2) == 0 {
			req = append(req, k)
		}
	}
	if g.pick(4) == 0 {
		g.use("required undeclared")
		req = append(req, "z")
	}
	if len(req) > 0 {
		g.use("required")
		sort.Slice(req, func(i, j int) bool { return req[i].(string) < req[j].(string) })
		s["required"] = req
	}
	switch g.pick(4) {
	case 0:
		g.use("additionalProperties false")
		s["additionalProperties"] = false
	case 1:
		g.use("additionalProperties schema")
		s["additionalProperties"] = g.schema(depth + 1)
	}
	if g.pick(4) == 0 {
		g.use("propertyNames")
		s["propertyNames"] = map[string]any{"pattern": "^[a-z]+$", "maxLength": 5}
	}
	if g.pick(3) == 0 {
		g.use("minProperties")
		s["minProperties"] = g.pick(2)
	}
	if g.pick(3) == 0 {
		g.use("maxProperties")
		s["maxProperties"] = 1 + g.pick(3)
	}
	return s
}
