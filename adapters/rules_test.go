package adapters

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/schema"
)

// obj builds an object schema with the given properties, all required.
func obj(props ...schema.Property) *schema.Schema {
	s := &schema.Schema{Types: []string{"object"}, Properties: props, AdditionalProperties: schema.False()}
	for _, p := range props {
		s.Required = append(s.Required, p.Name)
	}
	return s
}

func prop(name string, s *schema.Schema) schema.Property {
	return schema.Property{Name: name, Schema: s}
}

func str() *schema.Schema { return &schema.Schema{Types: []string{"string"}} }

// buildAny renders one tool for p with opts, bypassing the cache.
func buildAny(p *spec, d toolData, opts ...Option) (any, error) {
	cfg, err := newConfig(p, opts)
	if err != nil {
		return nil, err
	}
	return p.build(p, cfg, d)
}

var allProviders = homes[:]

func TestToolNameRules(t *testing.T) {
	tests := []struct {
		name   string
		reject []*spec // providers whose rule the name breaks
	}{
		{"get_weather", nil},
		{"get-weather", nil},
		{"9lives", []*spec{geminiSpec}},
		{"ns.get", []*spec{openAISpec, responsesSpec, anthropicSpec, bedrockSpec, ollamaSpec, mistralSpec}},
		{"ns:get", []*spec{openAISpec, responsesSpec, anthropicSpec, bedrockSpec, mcpSpec, ollamaSpec, mistralSpec}},
		{"has space", allProviders},
		{"", allProviders},
		{strings.Repeat("a", 65), []*spec{openAISpec, responsesSpec, anthropicSpec, geminiSpec, bedrockSpec, ollamaSpec, mistralSpec}},
		{strings.Repeat("a", 129), allProviders},
	}
	for _, tt := range tests {
		for _, p := range allProviders {
			_, err := buildAny(p, toolData{name: tt.name, in: obj(prop("q", str()))})
			want := false
			for _, r := range tt.reject {
				want = want || r == p
			}
			if got := errors.Is(err, ErrName); got != want {
				t.Errorf("%s(name %q): err = %v, want ErrName: %v", p.funcName, tt.name, err, want)
			}
			if want && err != nil && !strings.Contains(err.Error(), p.toolName.text) {
				t.Errorf("%s(name %q): error %q does not name the rule %s", p.funcName, tt.name, err, p.toolName.text)
			}
		}
	}
}

func TestPropertyKeyRules(t *testing.T) {
	tests := []struct {
		key    string
		reject []*spec
	}{
		{"city", nil},
		{"filter[id]", []*spec{anthropicSpec, bedrockSpec, geminiSpec}},
		{"filter.id", []*spec{geminiSpec}},
		{"my-key", []*spec{geminiSpec}},
		{"with space", []*spec{anthropicSpec, bedrockSpec, geminiSpec}},
		{strings.Repeat("k", 65), []*spec{anthropicSpec, bedrockSpec, geminiSpec}},
	}
	for _, tt := range tests {
		for _, p := range allProviders {
			for _, nested := range []bool{false, true} {
				in := obj(prop(tt.key, str()))
				if nested {
					in = obj(prop("outer", in))
				}
				var opts []Option
				if p == geminiSpec {
					opts = []Option{GeminiParameters()} // the rule is the "parameters" field's
				}
				_, err := buildAny(p, toolData{name: "x", in: in}, opts...)
				want := false
				for _, r := range tt.reject {
					want = want || r == p
				}
				if got := errors.Is(err, ErrPropertyKey); got != want {
					t.Errorf("%s(key %q, nested %v): err = %v, want ErrPropertyKey: %v", p.funcName, tt.key, nested, err, want)
				}
				if p != geminiSpec || !want {
					continue
				}
				// By default the declaration goes as parametersJsonSchema,
				// which takes any key.
				got, err := buildAny(p, toolData{name: "x", in: in})
				if d, ok := got.(GeminiFunctionDeclaration); err != nil || !ok || d.Parameters != nil || d.ParametersJSONSchema == nil {
					t.Errorf("ToGemini(key %q, nested %v) = %+v, %v; want the declaration as parametersJsonSchema", tt.key, nested, got, err)
				}
			}
		}
	}
	// The message follows the documented shape.
	_, err := buildAny(geminiSpec, toolData{name: "x", in: obj(prop("filter[id]", str()))}, GeminiParameters())
	want := `adapters: ToGemini: tool "x": property key "filter[id]" does not match Gemini's ^[A-Za-z0-9_]{1,64}$`
	if err == nil || err.Error() != want {
		t.Errorf("ToGemini error = %v, want %s", err, want)
	}
}

func TestOptionErrors(t *testing.T) {
	tests := []struct {
		p    *spec
		opts []Option
		ok   bool
	}{
		{openAISpec, []Option{Strict(true)}, true},
		{openAISpec, []Option{GeminiJSONSchema()}, false},
		{openAISpec, []Option{MaxInlineDepth(2)}, false},
		{responsesSpec, []Option{Strict(false)}, true},
		{anthropicSpec, []Option{Strict(true), MaxInlineDepth(2)}, true},
		{anthropicSpec, []Option{GeminiJSONSchema()}, false},
		{geminiSpec, []Option{GeminiJSONSchema(), MaxInlineDepth(1)}, true},
		{geminiSpec, []Option{GeminiParameters(), MaxInlineDepth(1)}, true},
		{geminiSpec, []Option{GeminiParameters(), GeminiJSONSchema()}, false},
		{geminiSpec, []Option{GeminiJSONSchema(), GeminiJSONSchema()}, true},
		{geminiSpec, []Option{Strict(true)}, false},
		{geminiSpec, []Option{MaxInlineDepth(0)}, true}, // 0 means the default
		{geminiSpec, []Option{MaxInlineDepth(-1)}, false},
		{geminiSpec, []Option{MaxInlineDepth(9)}, false},
		{mcpSpec, []Option{Strict(true)}, false},
		{bedrockSpec, []Option{Strict(true)}, false},
		{bedrockSpec, []Option{nil}, true},
	}
	for _, tt := range tests {
		_, err := newConfig(tt.p, tt.opts)
		if (err == nil) != tt.ok {
			t.Errorf("newConfig(%s, %v) = %v, want ok %v", tt.p.funcName, tt.opts, err, tt.ok)
		}
		if err != nil {
			if !errors.Is(err, ErrOption) {
				t.Errorf("newConfig(%s, %v) = %v, want ErrOption", tt.p.funcName, tt.opts, err)
			}
			if !strings.Contains(err.Error(), tt.opts[0].String()) {
				t.Errorf("error %q does not name the option %v", err, tt.opts[0])
			}
		}
	}
}

// TestCacheKeys: options irrelevant to a rendering share its cache key;
// relevant ones do not.
func TestCacheKeys(t *testing.T) {
	a, _ := newConfig(geminiSpec, []Option{GeminiJSONSchema(), MaxInlineDepth(1)})
	b, _ := newConfig(geminiSpec, []Option{GeminiJSONSchema()})
	if a != b {
		t.Errorf("parametersJsonSchema keeps refs, so the depth must not split the cache: %+v != %+v", a, b)
	}
	c, _ := newConfig(geminiSpec, []Option{MaxInlineDepth(1)})
	d, _ := newConfig(geminiSpec, nil)
	if c == d {
		t.Errorf("Gemini parameters inline refs: depth 1 and the default must differ")
	}
}

// recursive is {"name":..., "kids":[Node]} with Node in $defs.
// recursive is a tree of Nodes; kids is required when requiredKids is set.
func recursive(requiredKids bool) *schema.Schema {
	node := obj(prop("name", str()), prop("kids", &schema.Schema{Types: []string{"array"}, Items: &schema.Schema{Ref: "#/$defs/Node"}}))
	if !requiredKids {
		node.Required = []string{"name"}
	}
	root := obj(prop("root", &schema.Schema{Ref: "#/$defs/Node"}))
	root.Defs = []schema.Def{{Name: "Node", Schema: node}}
	return root
}

// depthOf counts how many nested "kids" levels a rendering keeps.
func depthOf(t *testing.T, raw json.RawMessage) int {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	n := 0
	cur := v.(map[string]any)["properties"].(map[string]any)["root"]
	for cur != nil {
		n++
		props := cur.(map[string]any)["properties"].(map[string]any)
		kids, ok := props["kids"].(map[string]any)
		if !ok {
			break
		}
		cur = kids["items"]
	}
	return n
}

func TestRecursionInlining(t *testing.T) {
	d := toolData{name: "tree", in: recursive(false)}
	for _, depth := range []int{1, 2, 3, 5} {
		v, err := buildAny(geminiSpec, d, MaxInlineDepth(depth))
		if err != nil {
			t.Fatal(err)
		}
		decl := v.(GeminiFunctionDeclaration)
		if got := depthOf(t, decl.Parameters); got != depth {
			t.Errorf("Gemini MaxInlineDepth(%d): %d levels of Node, want %d\n%s", depth, got, depth, decl.Parameters)
		}
		if strings.Contains(string(decl.Parameters), "$ref") {
			t.Errorf("Gemini parameters kept a $ref: %s", decl.Parameters)
		}
		if !strings.Contains(string(decl.Parameters), `\"kids\" omitted`) {
			t.Errorf("the cut is not described: %s", decl.Parameters)
		}
		v, err = buildAny(anthropicSpec, d, Strict(true), MaxInlineDepth(depth))
		if err != nil {
			t.Fatal(err)
		}
		if got := depthOf(t, v.(AnthropicTool).InputSchema); got != depth {
			t.Errorf("Anthropic strict MaxInlineDepth(%d): %d levels, want %d", depth, got, depth)
		}
	}
	// Providers that accept references keep them, required or not.
	d = toolData{name: "tree", in: recursive(true)}
	for _, p := range []*spec{openAISpec, anthropicSpec, mcpSpec, bedrockSpec} {
		v, err := buildAny(p, d)
		if err != nil {
			t.Fatal(err)
		}
		if data, _ := json.Marshal(v); !strings.Contains(string(data), `"$ref":"#/$defs/Node"`) {
			t.Errorf("%s: reference not kept: %s", p.funcName, data)
		}
	}
	// OpenAI strict keeps the reference too, with the definition strict.
	v, err := buildAny(openAISpec, d, Strict(true))
	if err != nil {
		t.Fatal(err)
	}
	got := string(v.(OpenAITool).Function.Parameters)
	want := `{"type":"object","properties":{"root":{"$ref":"#/$defs/Node"}},"required":["root"],"additionalProperties":false,"$defs":{"Node":{"type":"object","properties":{"name":{"type":"string"},"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["name","kids"],"additionalProperties":false}}}`
	if got != want {
		t.Errorf("OpenAI strict:\n got %s\nwant %s", got, want)
	}
}

// A required property cut at the inlining limit could never be supplied, and
// the decoder would reject every call: it is an error, not a silent cut.
func TestRequiredRecursionCutIsAnError(t *testing.T) {
	d := toolData{name: "tree", in: recursive(true)}
	for _, tc := range []struct {
		p    *spec
		opts []Option
	}{
		{geminiSpec, []Option{GeminiParameters()}},
		{anthropicSpec, []Option{Strict(true)}},
	} {
		_, err := buildAny(tc.p, d, tc.opts...)
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), `required property "kids"`) {
			t.Errorf("%s: err = %v, want ErrUnsupported naming the required property", tc.p.funcName, err)
		}
	}
	// GeminiJSONSchema keeps references, so nothing is cut; by default this
	// declaration alone falls back to it.
	for _, opts := range [][]Option{{GeminiJSONSchema()}, nil} {
		got, err := buildAny(geminiSpec, d, opts...)
		if err != nil {
			t.Errorf("ToGemini(%v): %v", opts, err)
			continue
		}
		if decl := got.(GeminiFunctionDeclaration); decl.Parameters != nil || decl.ParametersJSONSchema == nil {
			t.Errorf("ToGemini(%v) = %+v, want parametersJsonSchema only", opts, decl)
		}
	}
	// Gemini parameters cannot express an object without properties: with
	// GeminiParameters() a required one is an error and an optional one is
	// left out; by default the declaration falls back to
	// parametersJsonSchema in both cases.
	required := toolData{name: "x", in: obj(prop("q", str()), prop("opts", obj()))}
	_, err := buildAny(geminiSpec, required, GeminiParameters())
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), `required property "opts"`) {
		t.Errorf("Gemini, required empty object: err = %v, want ErrUnsupported naming it", err)
	}
	optional := obj(prop("q", str()), prop("opts", obj()))
	optional.Required = []string{"q"}
	got, err := buildAny(geminiSpec, toolData{name: "x", in: optional}, GeminiParameters())
	if err != nil {
		t.Errorf("Gemini, optional empty object: %v", err)
	} else if p := string(got.(GeminiFunctionDeclaration).Parameters); !strings.Contains(p, `\"opts\" omitted`) {
		t.Errorf("Gemini, optional empty object: parameters %s do not say opts is omitted", p)
	}
	for _, in := range []toolData{required, {name: "x", in: optional}} {
		got, err := buildAny(geminiSpec, in)
		if err != nil {
			t.Errorf("Gemini default, empty object: %v", err)
		} else if decl := got.(GeminiFunctionDeclaration); decl.Parameters != nil || !strings.Contains(string(decl.ParametersJSONSchema), `"opts"`) {
			t.Errorf("Gemini default, empty object: %+v, want parametersJsonSchema with opts", decl)
		}
	}
}

func TestAnthropicRootComposition(t *testing.T) {
	root := &schema.Schema{Types: []string{"object"}, Properties: []schema.Property{}, AnyOf: []*schema.Schema{obj(prop("a", str())), obj(prop("b", str()))}}
	for _, p := range []*spec{anthropicSpec, bedrockSpec, geminiSpec} {
		_, err := buildAny(p, toolData{name: "x", in: root})
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "at the root") {
			t.Errorf("%s: err = %v, want a root anyOf error", p.funcName, err)
		}
	}
	if _, err := buildAny(mcpSpec, toolData{name: "x", in: root}); err != nil {
		t.Errorf("MCP accepts root anyOf: %v", err)
	}
}

func TestLimits(t *testing.T) {
	long := strings.Repeat("d", maxOpenAIDescription+1)
	for _, p := range []*spec{openAISpec, responsesSpec} {
		_, err := buildAny(p, toolData{name: "x", description: long, in: obj()})
		if !errors.Is(err, ErrLimit) {
			t.Errorf("%s: %d-character description: err = %v, want ErrLimit", p.funcName, len(long), err)
		}
	}
	if _, err := buildAny(anthropicSpec, toolData{name: "x", description: long, in: obj()}); err != nil {
		t.Errorf("Anthropic has no description limit: %v", err)
	}
}

// TestNoNullValues: null enum members, defaults and examples never reach
// the wire; a nullable enum becomes anyOf (JSON Schema) or nullable (Gemini).
func TestNoNullValues(t *testing.T) {
	s := obj(
		prop("unit", &schema.Schema{Types: []string{"string", "null"}, Enum: []any{"C", "F", nil}}),
		prop("d", &schema.Schema{Types: []string{"string"}, Default: nil, HasDefault: true, Examples: []any{nil, "x"}}),
		prop("c", &schema.Schema{Types: []string{"integer", "null"}, Enum: []any{json.Number("1"), nil}}),
	)
	for _, p := range allProviders {
		for _, opts := range [][]Option{nil, {Strict(true)}, {GeminiJSONSchema()}} {
			v, err := buildAny(p, toolData{name: "x", in: s}, opts...)
			if errors.Is(err, ErrOption) {
				continue
			}
			if err != nil {
				t.Errorf("%s%v: %v", p.funcName, opts, err)
				continue
			}
			data, _ := json.Marshal(v)
			if rawHasNull(data) {
				t.Errorf("%s%v: null in %s", p.funcName, opts, data)
			}
		}
	}
	v, _ := buildAny(mcpSpec, toolData{name: "x", in: s})
	if got := string(v.(MCPTool).InputSchema); !strings.Contains(got, `"unit":{"anyOf":[{"type":"string","enum":["C","F"]},{"type":"null"}]}`) {
		t.Errorf("MCP nullable enum: %s", got)
	}
}

func TestErrorShape(t *testing.T) {
	e := &Error{Func: "ToOpenAI", Tool: "t", Path: "/properties/m", Msg: "bad", Err: ErrUnsupported}
	if got, want := e.Error(), `adapters: ToOpenAI: tool "t": at /properties/m: bad`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(e, ErrUnsupported) {
		t.Error("errors.Is(e, ErrUnsupported) = false")
	}
}

// TestPropertyNames checks docs/providers.md for propertyNames (the keys of
// maps with integer keys): kept where accepted, else told in the
// description, never sent where it is a 400.
func TestPropertyNames(t *testing.T) {
	pattern := "^(0|-?[1-9][0-9]*)$"
	byID := &schema.Schema{Types: []string{"object"}, AdditionalProperties: &schema.Schema{Types: []string{"integer"}},
		PropertyNames: &schema.Schema{Pattern: pattern}}
	// A closed object with propertyNames, for the dialects without maps.
	closed := obj(prop("1", str()))
	closed.PropertyNames = &schema.Schema{Pattern: pattern}
	tests := []struct {
		p    *spec
		opts []Option
		in   *schema.Schema
		keep bool // propertyNames is in the output; else in a description
	}{
		{p: openAISpec, in: obj(prop("by_id", byID)), keep: true},
		{p: responsesSpec, in: obj(prop("by_id", byID)), keep: true},
		{p: anthropicSpec, in: obj(prop("by_id", byID)), keep: true},
		{p: bedrockSpec, in: obj(prop("by_id", byID)), keep: true},
		{p: mcpSpec, in: obj(prop("by_id", byID)), keep: true},
		{p: openAISpec, opts: []Option{Strict(true)}, in: obj(prop("m", closed))},
		{p: anthropicSpec, opts: []Option{Strict(true)}, in: obj(prop("by_id", byID))},
		{p: geminiSpec, opts: []Option{GeminiJSONSchema()}, in: obj(prop("by_id", byID))},
		{p: geminiSpec, in: obj(prop("m", closed))},
	}
	for _, tt := range tests {
		got, err := buildAny(tt.p, toolData{name: "x", in: tt.in}, tt.opts...)
		if err != nil {
			t.Errorf("%s%v: %v", tt.p.funcName, tt.opts, err)
			continue
		}
		data, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		hasKey := strings.Contains(text, `"propertyNames":`)
		described := strings.Contains(text, `propertyNames: {\"pattern\":`)
		if hasKey != tt.keep || described == tt.keep {
			t.Errorf("%s%v: propertyNames kept %v, described %v; want kept %v:\n%s", tt.p.funcName, tt.opts, hasKey, described, tt.keep, text)
		}
	}
}

// TestGeminiFallbackPerCase: each schema the "parameters" subset cannot
// carry sends its declaration as parametersJsonSchema by default, and is an
// ErrUnsupported under GeminiParameters(); a schema the subset carries stays
// in parameters.
func TestGeminiFallbackPerCase(t *testing.T) {
	open := &schema.Schema{Types: []string{"object"}, AdditionalProperties: str()}
	union := &schema.Schema{Types: []string{"string"}, AnyOf: []*schema.Schema{{MinLength: copyInt(new(int64))}, str()}}
	tests := []struct {
		name     string
		in       *schema.Schema
		fallback bool
	}{
		{"plain", obj(prop("q", str())), false},
		{"map", obj(prop("m", open)), true},
		{"untyped", obj(prop("a", &schema.Schema{})), true},
		{"array without items", obj(prop("l", &schema.Schema{Types: []string{"array"}})), true},
		{"union next to a type", obj(prop("u", union)), true},
		{"required recursion cut", recursive(true), true},
		{"optional recursion cut", recursive(false), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := buildAny(geminiSpec, toolData{name: "x", in: tt.in})
			if err != nil {
				t.Fatalf("default: %v", err)
			}
			d := got.(GeminiFunctionDeclaration)
			if gotJS := d.ParametersJSONSchema != nil; gotJS != tt.fallback || (d.Parameters != nil) == tt.fallback {
				t.Errorf("default: parameters %s, parametersJsonSchema %s; want fallback %v", d.Parameters, d.ParametersJSONSchema, tt.fallback)
			}
			_, err = buildAny(geminiSpec, toolData{name: "x", in: tt.in}, GeminiParameters())
			if tt.fallback != errors.Is(err, ErrUnsupported) {
				t.Errorf("GeminiParameters(): err = %v, want ErrUnsupported %v", err, tt.fallback)
			}
		})
	}
}
