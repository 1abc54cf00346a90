package adapters_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/golden"
	"github.com/toolnexus/toolnexus/internal/zoo"
	"github.com/toolnexus/toolnexus/schema"
)

// variant is one provider with one option set: one directory of goldens.
type variant struct {
	dir    string
	render func([]define.Tool) (any, error)
}

// variants are every provider's default rendering (its directory is its
// name, with _ for -), then the renderings with options.
// allVariants are every provider's default rendering (its directory is
// its name, with _ for -), then each provider's renderings with options
// (testHome.variants).
func allVariants() []variant {
	var out []variant
	for _, p := range adapters.Providers() {
		out = append(out, variant{strings.ReplaceAll(p.Name(), "-", "_"), p.Tools})
	}
	for _, p := range adapters.Providers() {
		out = append(out, testHomes[p.Name()].variants...)
	}
	return out
}

func dummy(context.Context, json.RawMessage) (any, error) { return "ok", nil }

// goldenCase is one tool whose rendering is kept under testdata/golden.
type goldenCase struct {
	name string
	tool func(t *testing.T) define.Tool
}

// rawTool makes a tool from a hand-written schema.
func rawTool(name, schemaJSON string) func(t *testing.T) define.Tool {
	return func(t *testing.T) define.Tool {
		t.Helper()
		tool, err := define.NewTool(name, json.RawMessage(schemaJSON), dummy, define.WithDescription("Hand-written schema "+name+"."))
		if err != nil {
			t.Fatalf("NewTool(%q): %v", name, err)
		}
		return tool
	}
}

// Weather is a small tool with an optional enum and a typed output.
type Weather struct {
	City string   `json:"city" description:"City name"`
	Unit *string  `json:"unit,omitempty" enum:"C,F"`
	Days int      `json:"days"`
	Tags []string `json:"tags,omitempty"`
}

// Forecast is a typed output (MCP outputSchema).
type Forecast struct {
	TempC float64 `json:"temp_c"`
	Sky   string  `json:"sky"`
}

// Limits carries the constraint tags without a map, so that Gemini
// "parameters" (which cannot express maps) renders every constraint.
type Limits struct {
	Query   string    `json:"query" title:"Query" description:"Search text." minLength:"1" maxLength:"200" pattern:"^[a-z ]*$" example:"pizza"`
	Email   string    `json:"email,omitempty" format:"email"`
	Stars   int       `json:"stars" enum:"1,2,3"`
	Version int       `json:"version" const:"2"`
	Kind    string    `json:"kind" const:"search"`
	Score   float64   `json:"score" minimum:"0" maximum:"1" multipleOf:"0.01"`
	Big     int64     `json:"big" exclusiveMinimum:"0" exclusiveMaximum:"100"`
	Ratio   float32   `json:"ratio" exclusiveMinimum:"0.5"`
	Flag    *bool     `json:"flag,omitempty" default:"true"`
	Tags    []string  `json:"tags" minItems:"2" maxItems:"5" uniqueItems:"true"`
	At      string    `json:"at" format:"date-time"`
	Color   *string   `json:"color" enum:"red,green"`
	Level   *int      `json:"level" enum:"1,2"`
	Where   *Forecast `json:"where,omitempty" description:"Last known forecast."`
}

func limitsTool(t testing.TB) define.Tool {
	t.Helper()
	tool, err := define.DefineTool(func(ctx context.Context, in Limits) (string, error) { return "ok", nil },
		define.WithName("limits"), define.WithDescription("Every constraint keyword."))
	if err != nil {
		t.Fatalf("DefineTool: %v", err)
	}
	return tool
}

func weatherTool(t testing.TB) define.Tool {
	t.Helper()
	tool, err := define.DefineTool(func(ctx context.Context, in Weather) (Forecast, error) {
		return Forecast{TempC: 21, Sky: "sunny"}, nil
	}, define.WithName("get_weather"), define.WithDescription("Current weather for a city"), define.WithTitle("Get weather"))
	if err != nil {
		t.Fatalf("DefineTool: %v", err)
	}
	return tool
}

// goldenCases: every zoo type, the §12 worked example, and hand-written
// schemas that exercise what Go types never produce.
func goldenCases() []goldenCase {
	var cs []goldenCase
	for _, c := range zoo.Cases {
		cs = append(cs, goldenCase{c.Name, func(t *testing.T) define.Tool {
			t.Helper()
			s, err := schema.ForType(c.Type)
			if err != nil {
				t.Fatalf("schema.ForType(%v): %v", c.Type, err)
			}
			data, err := s.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			tool, err := define.NewTool(c.Name, data, dummy, define.WithDescription("Zoo case "+c.Name+"."))
			if err != nil {
				t.Fatalf("NewTool(%q): %v", c.Name, err)
			}
			return tool
		}})
	}
	cs = append(cs,
		goldenCase{"weather", func(t *testing.T) define.Tool { return weatherTool(t) }},
		goldenCase{"limits", func(t *testing.T) define.Tool { return limitsTool(t) }},
		goldenCase{"hand_union", rawTool("hand_union", `{"type":"object","$schema":"https://json-schema.org/draft/2020-12/schema",
			"properties":{"target":{"oneOf":[{"type":"string","format":"email"},{"type":"integer","exclusiveMinimum":0}],"description":"Who"},
			"mode":{"type":["string","integer"]},"note":{"allOf":[{"type":"string","maxLength":10}]},"x_extra":{"type":"boolean"}},
			"required":["target"]}`)},
		goldenCase{"hand_open", rawTool("hand_open", `{"type":"object","properties":{"q":{"type":"string","default":"all"},"opts":{"type":"object","properties":{"a":{"type":"number","exclusiveMaximum":1.5}}}}}`)},
		goldenCase{"hand_root_ref", rawTool("hand_root_ref", `{"type":"object","$ref":"#/$defs/Q","$defs":{"Q":{"type":"object","properties":{"text":{"type":"string"},"sub":{"$ref":"#/$defs/Q"}},"required":["text"]}}}`)},
	)
	return cs
}

// TestGolden renders every golden case for every variant, twice, and
// compares with testdata/golden/<variant>/<case>.json. A case a variant
// cannot express is kept as {"error": "..."}. Run with -update (or
// make golden) to rewrite.
func TestGolden(t *testing.T) {
	for _, gc := range goldenCases() {
		t.Run(gc.name, func(t *testing.T) {
			for _, v := range allVariants() {
				got, err := v.render([]define.Tool{gc.tool(t)})
				var value any = got
				if err != nil {
					value = map[string]string{"error": err.Error()}
				}
				golden.JSON(t, filepath.Join("..", "testdata", "golden", v.dir, gc.name+".json"), value)
			}
		})
	}
}

// TestStable renders each case twice through the cache and once from a
// fresh tool: the bytes must not change.
func TestStable(t *testing.T) {
	for _, gc := range goldenCases() {
		for _, v := range allVariants() {
			tool := gc.tool(t)
			first, err1 := v.render([]define.Tool{tool})
			second, err2 := v.render([]define.Tool{tool})
			fresh, err3 := v.render([]define.Tool{gc.tool(t)})
			if (err1 == nil) != (err2 == nil) || (err1 == nil) != (err3 == nil) {
				t.Fatalf("%s/%s: errors differ between renders: %v, %v, %v", v.dir, gc.name, err1, err2, err3)
			}
			if err1 != nil {
				if err1.Error() != err3.Error() {
					t.Errorf("%s/%s: error text differs: %v vs %v", v.dir, gc.name, err1, err3)
				}
				continue
			}
			a, b, c := mustMarshal(t, first), mustMarshal(t, second), mustMarshal(t, fresh)
			if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
				t.Errorf("%s/%s: renders differ:\n%s\n%s\n%s", v.dir, gc.name, a, b, c)
			}
		}
	}
}

func mustMarshal(t testing.TB, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	return data
}

// schemaRule checks one rendered schema; path locates the node.
type schemaRule func(t *testing.T, path string, node map[string]any, root bool)

// walkSchemas calls rule on every schema node under s (properties,
// $defs, items, additionalProperties, anyOf/oneOf/allOf branches).
func walkSchemas(t *testing.T, path string, s any, root bool, rule schemaRule) {
	t.Helper()
	node, ok := s.(map[string]any)
	if !ok {
		return // a boolean schema
	}
	rule(t, path, node, root)
	for k, v := range node {
		switch k {
		case "properties", "$defs":
			m, ok := v.(map[string]any)
			if !ok {
				t.Errorf("%s/%s is %T, want an object", path, k, v)
				continue
			}
			for name, sub := range m {
				walkSchemas(t, path+"/"+k+"/"+name, sub, false, rule)
			}
		case "items", "additionalProperties":
			walkSchemas(t, path+"/"+k, v, false, rule)
		case "anyOf", "oneOf", "allOf":
			list, ok := v.([]any)
			if !ok {
				t.Errorf("%s/%s is %T, want an array", path, k, v)
				continue
			}
			for i, sub := range list {
				walkSchemas(t, path+"/"+k+"/"+string(rune('0'+i)), sub, false, rule)
			}
		}
	}
}

func only(allowed ...string) func(string) bool {
	set := map[string]bool{}
	for _, a := range allowed {
		set[a] = true
	}
	return func(k string) bool { return set[k] }
}

// ruledSchema is one tool schema of a rendering and the variant whose rules
// it follows (a Gemini declaration may use either schema field).
type ruledSchema struct {
	dir    string
	schema any
}

// schemasOf returns the tool schemas in a rendered tools array, by variant.
func schemasOf(t *testing.T, dir string, tools any) []ruledSchema {
	t.Helper()
	h := homeOf(t, dir)
	var out []ruledSchema
	if list, ok := tools.([]any); ok {
		for _, e := range list {
			out = append(out, h.schemas(t, dir, e.(map[string]any))...)
		}
	}
	return out
}

// keys is the rule that a schema node has only the keywords allowed.
func keys(allowed func(string) bool, who string) schemaRule {
	return func(t *testing.T, path string, node map[string]any, root bool) {
		for k := range node {
			if !allowed(k) {
				t.Errorf("%s: %s has keyword %q, which %s does not accept", who, path, k, who)
			}
		}
	}
}

// rulesFor returns the invariants a variant's schemas must keep.
func rulesFor(t testing.TB, dir string) schemaRule {
	common := func(t *testing.T, path string, node map[string]any, root bool) {
		if root {
			if node["type"] != "object" {
				t.Errorf("%s: root type is %v, want \"object\"", dir, node["type"])
			}
		}
		if isType(node, "array") {
			if _, ok := node["items"]; !ok {
				t.Errorf("%s: %s is an array without items", dir, path)
			}
		}
	}
	var extra schemaRule
	h := homeOf(t, dir)
	if h.rules != nil {
		extra = h.rules(dir)
	}
	if h.closedRoot || strings.HasSuffix(dir, "strict") {
		inner := extra
		extra = func(t *testing.T, path string, node map[string]any, root bool) {
			if inner != nil {
				inner(t, path, node, root)
			}
			if root {
				for _, k := range []string{"anyOf", "oneOf", "allOf"} {
					if _, ok := node[k]; ok {
						t.Errorf("%s: root has %s", dir, k)
					}
				}
			}
		}
	}
	return func(t *testing.T, path string, node map[string]any, root bool) {
		common(t, path, node, root)
		if extra != nil {
			extra(t, path, node, root)
		}
	}
}

func isType(node map[string]any, name string) bool {
	switch typ := node["type"].(type) {
	case string:
		return typ == name
	case []any:
		for _, x := range typ {
			if x == name {
				return true
			}
		}
	}
	return false
}

// findNull reports the path of the first JSON null in v, or "".
func findNull(path string, v any) string {
	switch x := v.(type) {
	case nil:
		return path
	case map[string]any:
		for k, e := range x {
			if p := findNull(path+"/"+k, e); p != "" {
				return p
			}
		}
	case []any:
		for i, e := range x {
			if p := findNull(path+"/"+string(rune('0'+i%10)), e); p != "" {
				return p
			}
		}
	}
	return ""
}

// TestProviderRules renders every case for every variant and checks the
// provider's rules on the marshalled JSON: no null anywhere, only the
// keywords the provider accepts, and the structural rules of each mode.
func TestProviderRules(t *testing.T) {
	for _, v := range allVariants() {
		t.Run(v.dir, func(t *testing.T) {
			rendered := 0
			for _, gc := range goldenCases() {
				out, err := v.render([]define.Tool{gc.tool(t)})
				if err != nil {
					var ae *adapters.Error
					if !errors.As(err, &ae) {
						t.Errorf("%s: error %v is not an *adapters.Error", gc.name, err)
					}
					continue
				}
				rendered++
				var generic any
				if err := json.Unmarshal(mustMarshal(t, out), &generic); err != nil {
					t.Fatal(err)
				}
				if p := findNull("", generic); p != "" {
					t.Errorf("%s: JSON null at %s", gc.name, p)
				}
				for _, s := range schemasOf(t, v.dir, generic) {
					walkSchemas(t, gc.name, s.schema, true, rulesFor(t, s.dir))
				}
			}
			if rendered < len(goldenCases())/2 {
				t.Errorf("only %d of %d cases rendered", rendered, len(goldenCases()))
			}
		})
	}
}

// TestAppendJSON: AppendJSON writes exactly json.Marshal's bytes for every
// rendered case, and for values with hand-set fields.
func TestAppendJSON(t *testing.T) {
	var tools []define.Tool
	for _, gc := range goldenCases() {
		tools = append(tools, gc.tool(t))
	}
	for _, v := range allVariants() {
		// Every tool the variant renders, as long as the list stays within
		// the per-request budgets (Anthropic strict).
		var ok []define.Tool
		for _, tool := range tools {
			if _, err := v.render(append(ok[:len(ok):len(ok)], tool)); err == nil {
				ok = append(ok, tool)
			}
		}
		out, err := v.render(ok)
		if err != nil {
			t.Fatalf("%s: %v", v.dir, err)
		}
		want := mustMarshal(t, out)
		got, err := adapters.AppendJSON([]byte("prefix"), out)
		if err != nil {
			t.Fatalf("%s: AppendJSON: %v", v.dir, err)
		}
		if !bytes.Equal(got, append([]byte("prefix"), want...)) {
			t.Errorf("%s: AppendJSON differs from json.Marshal:\n got %s\nwant %s", v.dir, got, want)
		}
	}
	hand := []any{
		[]adapters.AnthropicTool{{Name: "a<b", Description: "x & \"y\"\n", InputSchema: json.RawMessage(`{"type":"object","pattern":"<"}`),
			CacheControl: &adapters.AnthropicCacheControl{Type: "ephemeral"}}},
		[]adapters.BedrockTool{{CachePoint: &adapters.BedrockCachePoint{Type: "default"}}},
		[]adapters.GeminiTool{{FunctionDeclarations: []adapters.GeminiFunctionDeclaration{}}},
		[]adapters.OpenAITool(nil),
		[]adapters.MCPTool{{Name: "m", InputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations: &adapters.MCPAnnotations{DestructiveHint: boolPtr(false), OpenWorldHint: boolPtr(true)},
			Icons:       []adapters.MCPIcon{{Src: "data:image/svg+xml,<svg/>&", Sizes: []string{"any", "48x48"}, Theme: "dark"}, {Src: "https://x.example/i.png", MIMEType: "image/png"}}},
			{Name: "n", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &adapters.MCPAnnotations{}},
			{Name: "o", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &adapters.MCPAnnotations{ReadOnlyHint: boolPtr(true), IdempotentHint: boolPtr(false)}}},
	}
	for _, h := range hand {
		want := mustMarshal(t, h)
		got, err := adapters.AppendJSON(nil, h)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("AppendJSON(%T) = %s, %v; want %s", h, got, err, want)
		}
	}
	if _, err := adapters.AppendJSON(nil, 42); err == nil {
		t.Error("AppendJSON(42): no error")
	}
}

// raceEnabled is set by race_test.go under -race.
var raceEnabled bool

// TestAppendJSONGrowsOnce: AppendJSON of 128 tools whose strings need no
// escaping allocates once, for every provider: it sizes the buffer before
// it appends; rendering the tools again allocates nothing per tool.
func TestAppendJSONGrowsOnce(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	var tools []define.Tool
	for i := range 128 {
		tool, err := define.DefineTool(func(context.Context, cityArgs) (string, error) { return "", nil },
			define.WithName(fmt.Sprintf("city_%03d", i)), define.WithDescription("Look a city up by its name."))
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool)
	}
	for _, v := range allVariants() {
		out, err := v.render(tools)
		if err != nil {
			continue // past a provider's per-request budget (Anthropic strict)
		}
		allocs := testing.AllocsPerRun(20, func() {
			if _, err := adapters.AppendJSON(nil, out); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 1 {
			t.Errorf("%s: AppendJSON of 128 tools allocated %v times, want 1", v.dir, allocs)
		}
		// Rendering again takes every tool's cached rendering: a few
		// allocations for the list, none per tool.
		allocs = testing.AllocsPerRun(20, func() {
			if _, err := v.render(tools); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > 16 {
			t.Errorf("%s: rendering 128 cached tools allocated %v times, want at most 16 (none per tool)", v.dir, allocs)
		}
	}
}

// TestCached: a second rendering reuses the first one's bytes (the
// per-tool cache), a different option set does not, and concurrent first
// renderings agree.
func TestCached(t *testing.T) {
	tool := weatherTool(t)
	a, err := adapters.ToOpenAI([]define.Tool{tool})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := adapters.ToOpenAI([]define.Tool{tool})
	s, _ := adapters.ToOpenAI([]define.Tool{tool}, adapters.Strict(true))
	if &a[0].Function.Parameters[0] != &b[0].Function.Parameters[0] {
		t.Error("second ToOpenAI did not reuse the cached rendering")
	}
	if &a[0].Function.Parameters[0] == &s[0].Function.Parameters[0] {
		t.Error("Strict(true) shared the non-strict rendering")
	}
	if cap(a[0].Function.Parameters) != len(a[0].Function.Parameters) {
		t.Error("cached bytes have spare capacity: an append would write into the cache")
	}

	fresh := weatherTool(t)
	done := make(chan []byte)
	for range 8 {
		go func() {
			out, err := adapters.ToGemini([]define.Tool{fresh})
			if err != nil {
				t.Error(err)
			}
			done <- mustMarshal(t, out)
		}()
	}
	first := <-done
	for range 7 {
		if got := <-done; !bytes.Equal(got, first) {
			t.Errorf("concurrent renderings differ:\n%s\n%s", got, first)
		}
	}
}

func TestToolSetErrors(t *testing.T) {
	tool := weatherTool(t)
	if _, err := adapters.ToAnthropic([]define.Tool{tool, tool}); !errors.Is(err, adapters.ErrName) {
		t.Errorf("duplicate names: err = %v, want ErrName", err)
	}
	if _, err := adapters.ToGemini([]define.Tool{{}}); !errors.Is(err, adapters.ErrZeroTool) {
		t.Errorf("zero tool: err = %v, want ErrZeroTool", err)
	}
	many := make([]define.Tool, 129)
	for i := range many {
		many[i] = tool
	}
	if _, err := adapters.ToOpenAI(many); !errors.Is(err, adapters.ErrLimit) {
		t.Errorf("129 tools: err = %v, want ErrLimit", err)
	}
	if _, err := adapters.ToMCP([]define.Tool{tool}, adapters.Strict(true)); !errors.Is(err, adapters.ErrOption) {
		t.Errorf("ToMCP(Strict(true)): err = %v, want ErrOption", err)
	}
	out, err := adapters.ToOpenAI(nil)
	if err != nil || string(mustMarshal(t, out)) != "[]" {
		t.Errorf("ToOpenAI(nil) = %s, %v; want []", mustMarshal(t, out), err)
	}
}

func mixedTool(t testing.TB) define.Tool {
	t.Helper()
	tool, err := define.DefineTool(func(ctx context.Context, in zoo.Mixed) (string, error) { return "ok", nil },
		define.WithName("tag_resource"), define.WithDescription("Tag a resource."))
	if err != nil {
		t.Fatalf("DefineTool: %v", err)
	}
	return tool
}

// TestGeminiMixedList: without options, ToGemini picks the schema field per
// declaration: "parameters" for the tools the OpenAPI subset carries,
// "parametersJsonSchema" for the others, never both; GeminiParameters()
// refuses the list with the subset's error, GeminiJSONSchema() moves every
// declaration.
func TestGeminiMixedList(t *testing.T) {
	tools := []define.Tool{weatherTool(t), mixedTool(t), limitsTool(t)}
	got, err := adapters.ToGemini(tools)
	if err != nil {
		t.Fatalf("ToGemini: %v", err)
	}
	golden.JSON(t, filepath.Join("..", "testdata", "golden", "gemini", "mixed_list.json"), got)
	var fields []string
	for _, d := range got[0].FunctionDeclarations {
		switch {
		case d.Parameters != nil && d.ParametersJSONSchema != nil:
			fields = append(fields, "both")
		case d.Parameters != nil:
			fields = append(fields, "parameters")
		case d.ParametersJSONSchema != nil:
			fields = append(fields, "parametersJsonSchema")
		default:
			fields = append(fields, "none")
		}
	}
	if diff := cmp.Diff([]string{"parameters", "parametersJsonSchema", "parameters"}, fields); diff != "" {
		t.Errorf("schema field per declaration (-want +got):\n%s", diff)
	}

	if _, err := adapters.ToGemini(tools, adapters.GeminiParameters()); !errors.Is(err, adapters.ErrUnsupported) {
		t.Errorf("GeminiParameters(): err = %v, want ErrUnsupported", err)
	}
	all, err := adapters.ToGemini(tools, adapters.GeminiJSONSchema())
	if err != nil {
		t.Fatalf("GeminiJSONSchema(): %v", err)
	}
	for _, d := range all[0].FunctionDeclarations {
		if d.Parameters != nil || d.ParametersJSONSchema == nil {
			t.Errorf("GeminiJSONSchema(): %s: parameters %s, parametersJsonSchema %s; want only parametersJsonSchema", d.Name, d.Parameters, d.ParametersJSONSchema)
		}
	}
	if _, err := adapters.ToGemini(tools, adapters.GeminiJSONSchema(), adapters.GeminiParameters()); !errors.Is(err, adapters.ErrOption) {
		t.Errorf("GeminiJSONSchema() with GeminiParameters(): err = %v, want ErrOption", err)
	}
}

// TestStrictPerTool: StrictWherePossible renders a mixed list in one call,
// each tool strict where its schema allows; a define-time pin wins over the
// call's option; a tool pinned strict that cannot be is an error under
// every option; Strict(true) never weakens a tool.
func TestStrictPerTool(t *testing.T) {
	noop := func(context.Context, zoo.Mixed) (string, error) { return "", nil }
	pinnedOn := define.MustDefineTool(func(context.Context, Weather) (string, error) { return "", nil },
		define.WithName("pinned_on"), define.WithStrict(true))
	pinnedOff := define.MustDefineTool(func(context.Context, Weather) (string, error) { return "", nil },
		define.WithName("pinned_off"), define.WithStrict(false))
	openPinned := define.MustDefineTool(noop, define.WithName("open_pinned"), define.WithStrict(true))
	list := []define.Tool{weatherTool(t), mixedTool(t), pinnedOff, pinnedOn}

	type strictness struct {
		name   string
		strict bool
		params json.RawMessage
	}
	render := func(dir string, tools []define.Tool, opts ...adapters.Option) ([]strictness, error) {
		var out []strictness
		switch dir {
		case "openai":
			got, err := adapters.ToOpenAI(tools, opts...)
			for _, x := range got {
				out = append(out, strictness{x.Function.Name, x.Function.Strict, x.Function.Parameters})
			}
			return out, err
		case "openai_responses":
			got, err := adapters.ToOpenAIResponses(tools, opts...)
			for _, x := range got {
				out = append(out, strictness{x.Name, x.Strict, x.Parameters})
			}
			return out, err
		default:
			got, err := adapters.ToAnthropic(tools, opts...)
			for _, x := range got {
				out = append(out, strictness{x.Name, x.Strict, x.InputSchema})
			}
			return out, err
		}
	}
	flags := func(ss []strictness) map[string]bool {
		m := map[string]bool{}
		for _, s := range ss {
			m[s.name] = s.strict
		}
		return m
	}
	for _, dir := range []string{"openai", "openai_responses", "anthropic"} {
		t.Run(dir, func(t *testing.T) {
			mixedStrict := dir == "anthropic" // Anthropic strict takes open maps
			got, err := render(dir, list, adapters.StrictWherePossible())
			if err != nil {
				t.Fatalf("StrictWherePossible(): %v", err)
			}
			want := map[string]bool{"get_weather": true, "tag_resource": mixedStrict, "pinned_off": false, "pinned_on": true}
			if diff := cmp.Diff(want, flags(got)); diff != "" {
				t.Errorf("StrictWherePossible() strict flags (-want +got):\n%s", diff)
			}
			// Each entry is byte for byte what its own mode renders alone.
			for i, tool := range list {
				alone, err := render(dir, []define.Tool{tool}, adapters.Strict(got[i].strict))
				if err != nil {
					t.Fatalf("%s alone: %v", tool.Name(), err)
				}
				if diff := cmp.Diff(string(alone[0].params), string(got[i].params)); diff != "" {
					t.Errorf("%s: schema differs from its Strict(%v) rendering (-want +got):\n%s", tool.Name(), got[i].strict, diff)
				}
			}

			// Default: only the tool pinned strict is strict.
			got, err = render(dir, list)
			if err != nil {
				t.Fatalf("default: %v", err)
			}
			want = map[string]bool{"get_weather": false, "tag_resource": false, "pinned_off": false, "pinned_on": true}
			if diff := cmp.Diff(want, flags(got)); diff != "" {
				t.Errorf("default strict flags (-want +got):\n%s", diff)
			}

			// Strict(true): every tool strict or an error; the pin to
			// false still wins.
			_, err = render(dir, list, adapters.Strict(true))
			if mixedStrict {
				if err != nil {
					t.Errorf("Strict(true): %v", err)
				}
			} else if !errors.Is(err, adapters.ErrUnsupported) {
				t.Errorf("Strict(true) with an open map: err = %v, want ErrUnsupported", err)
			}
			got, err = render(dir, []define.Tool{weatherTool(t), pinnedOff}, adapters.Strict(true))
			if err != nil {
				t.Fatalf("Strict(true): %v", err)
			}
			if diff := cmp.Diff(map[string]bool{"get_weather": true, "pinned_off": false}, flags(got)); diff != "" {
				t.Errorf("Strict(true) strict flags (-want +got):\n%s", diff)
			}

			// A tool pinned strict that cannot be is an error under every
			// option, naming the pin.
			if !mixedStrict {
				for _, opts := range [][]adapters.Option{nil, {adapters.StrictWherePossible()}, {adapters.Strict(false)}} {
					_, err := render(dir, []define.Tool{openPinned}, opts...)
					if !errors.Is(err, adapters.ErrUnsupported) || !strings.Contains(err.Error(), "define.WithStrict(true)") {
						t.Errorf("pinned strict open map with %v: err = %v, want ErrUnsupported naming the pin", opts, err)
					}
				}
			}
			if _, err := render(dir, list, adapters.Strict(true), adapters.StrictWherePossible()); !errors.Is(err, adapters.ErrOption) {
				t.Errorf("Strict(true) with StrictWherePossible(): err = %v, want ErrOption", err)
			}
		})
	}
	// Providers without a strict mode ignore the pin.
	if _, err := adapters.ToGemini([]define.Tool{openPinned}); err != nil {
		t.Errorf("ToGemini of a tool pinned strict: %v", err)
	}
	if on, pinned := pinnedOn.StrictPin(); !on || !pinned {
		t.Errorf("pinned_on.StrictPin() = %v, %v; want true, true", on, pinned)
	}
	if on, pinned := weatherTool(t).StrictPin(); on || pinned {
		t.Errorf("get_weather.StrictPin() = %v, %v; want false, false", on, pinned)
	}

	out, err := adapters.ToOpenAIResponses(list, adapters.StrictWherePossible())
	if err != nil {
		t.Fatal(err)
	}
	golden.JSON(t, filepath.Join("..", "testdata", "golden", "openai_responses_strict", "mixed_list.json"), out)
}

func boolPtr(b bool) *bool { return &b }
