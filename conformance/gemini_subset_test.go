package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/genai"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/zoo"
	"github.com/toolnexus/toolnexus/schema"
)

// zooTool makes the tool of a zoo case the way the golden tests do: the
// canonical schema of the type, through define.NewTool.
func zooTool(t testing.TB, c zoo.Case) define.Tool {
	t.Helper()
	s, err := schema.ForType(c.Type)
	if err != nil {
		t.Fatalf("schema.ForType(%v): %v", c.Type, err)
	}
	data, err := s.MarshalJSON()
	if err != nil {
		t.Fatalf("MarshalJSON(%v): %v", c.Type, err)
	}
	tool, err := define.NewTool(c.Name, data, func(context.Context, json.RawMessage) (any, error) { return "ok", nil },
		define.WithDescription("Zoo case "+c.Name+"."))
	if err != nil {
		t.Fatalf("NewTool(%q): %v", c.Name, err)
	}
	return tool
}

// geminiVariants are the Gemini renderings checked against the subset.
var geminiVariants = []struct {
	dir  string // the golden directory of the same rendering
	opts []adapters.Option
}{
	{"gemini", nil},
	{"gemini_depth1", []adapters.Option{adapters.MaxInlineDepth(1)}},
	{"gemini_jsonschema", []adapters.Option{adapters.GeminiJSONSchema()}},
	{"gemini_parameters", []adapters.Option{adapters.GeminiParameters()}},
}

// TestGeminiSubset checks every Gemini rendering of the golden zoo (each zoo
// type rendered now, and every file under testdata/golden/gemini*) against
// what Gemini accepts (docs/providers.md, Gemini):
//
//   - "parameters" decodes into go-genai's Schema with unknown fields
//     disallowed (an unknown keyword is a 400 for the whole request), and
//     writes back to the same JSON; its types, formats, enums, objects and
//     arrays stay within the Gemini API's accepted subset;
//   - "parametersJsonSchema" uses only the keywords Google documents, and
//     its $ref nodes carry no other keyword;
//   - the declaration decodes into genai.FunctionDeclaration strictly too.
//
// A zoo type that "parameters" cannot express must, under
// GeminiParameters(), be an error that says the default falls back to
// parametersJsonSchema, and the default rendering must then succeed.
func TestGeminiSubset(t *testing.T) {
	var decls, nodes, refused int
	for _, c := range zoo.Cases {
		tool := zooTool(t, c)
		for _, v := range geminiVariants {
			t.Run(v.dir+"/"+c.Name, func(t *testing.T) {
				got, err := adapters.ToGemini([]define.Tool{tool}, v.opts...)
				if err != nil {
					refused++
					checkGeminiRefusal(t, tool, err)
					return
				}
				d, n := checkGeminiTools(t, mustJSON(t, got))
				decls, nodes = decls+d, nodes+n
			})
		}
	}
	for _, v := range geminiVariants {
		files, err := filepath.Glob(filepath.Join("..", "testdata", "golden", v.dir, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Errorf("no golden files under testdata/golden/%s", v.dir)
		}
		for _, f := range files {
			t.Run("golden/"+v.dir+"/"+filepath.Base(f), func(t *testing.T) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
					return // {"error": ...}: the rendering refused the case
				}
				d, n := checkGeminiTools(t, data)
				decls, nodes = decls+d, nodes+n
			})
		}
	}
	t.Logf("Gemini subset: %d function declarations, %d schema nodes checked; %d zoo renderings refused with a fallback hint", decls, nodes, refused)
}

// checkGeminiRefusal: a rendering that fails must fail for a reason
// Gemini really has, and the default rendering (parametersJsonSchema for
// that declaration) must be the way out unless the problem is a name.
func checkGeminiRefusal(t *testing.T, tool define.Tool, err error) {
	t.Helper()
	var ae *adapters.Error
	if !errors.As(err, &ae) {
		t.Errorf("ToGemini error %v is not an *adapters.Error", err)
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "property key"):
		// a property name outside Gemini's ^[A-Za-z0-9_]{1,64}$: every
		// rendering refuses it.
	case strings.Contains(msg, "without GeminiParameters()"):
		got, err := adapters.ToGemini([]define.Tool{tool})
		if err != nil {
			t.Errorf("ToGemini suggests dropping GeminiParameters(), but the default fails too: %v", err)
			return
		}
		if d := got[0].FunctionDeclarations[0]; d.Parameters != nil || d.ParametersJSONSchema == nil {
			t.Errorf("ToGemini default for a schema parameters cannot carry: %+v, want parametersJsonSchema only", d)
		}
		checkGeminiTools(t, mustJSON(t, got))
	default:
		t.Errorf("ToGemini refused the tool for a reason that is neither a property key nor a fallback hint: %v", err)
	}
}

// checkGeminiTools checks one rendered "tools" array and returns how many
// declarations and schema nodes it checked.
func checkGeminiTools(t *testing.T, data []byte) (decls, nodes int) {
	t.Helper()
	var tools []json.RawMessage
	if err := json.Unmarshal(data, &tools); err != nil || len(tools) != 1 {
		t.Fatalf("tools = %s: want exactly one tool object holding every declaration", short(string(data), 300))
	}
	// The whole entry decodes strictly into the SDK's Tool type.
	var gt genai.Tool
	if err := strictDecode(tools[0], &gt); err != nil {
		t.Errorf("tools[0] does not decode into genai.Tool with unknown fields disallowed: %v", err)
	}
	var entry struct {
		FunctionDeclarations []map[string]json.RawMessage `json:"functionDeclarations"`
	}
	if err := json.Unmarshal(tools[0], &entry); err != nil {
		t.Fatalf("tools[0]: %v", err)
	}
	for i, fd := range entry.FunctionDeclarations {
		decls++
		var name string
		_ = json.Unmarshal(fd["name"], &name)
		at := fmt.Sprintf("functionDeclarations[%d] (%s)", i, name)
		if !geminiName.MatchString(name) {
			t.Errorf("%s: name does not match Gemini's %v", at, geminiName)
		}
		var decl genai.FunctionDeclaration
		raw := mustJSON(t, fd)
		if err := strictDecode(raw, &decl); err != nil {
			t.Errorf("%s: does not decode into genai.FunctionDeclaration with unknown fields disallowed: %v", at, err)
			continue
		}
		params, hasParams := fd["parameters"]
		pjs, hasJS := fd["parametersJsonSchema"]
		if hasParams && hasJS {
			t.Errorf("%s: both parameters and parametersJsonSchema (Gemini takes one)", at)
		}
		if hasParams {
			var s genai.Schema
			if err := strictDecode(params, &s); err != nil {
				t.Errorf("%s: parameters do not decode into genai.Schema with unknown fields disallowed: %v", at, err)
				continue
			}
			if d := jsonDiff(params, mustJSON(t, &s), false); d != "" {
				t.Errorf("%s: genai.Schema does not keep our parameters (-ours +genai):\n%s", at, d)
			}
			if !strings.EqualFold(string(s.Type), "object") {
				t.Errorf("%s: parameters root type %q, want object", at, s.Type)
			}
			for _, p := range checkGeminiSchema(&s, "parameters") {
				t.Errorf("%s: %s", at, p)
			}
			nodes += countNodes(&s)
		}
		if hasJS {
			v, err := decodeJSON(pjs)
			if err != nil {
				t.Errorf("%s: parametersJsonSchema: %v", at, err)
				continue
			}
			probs, n := checkGeminiJSONSchema(v)
			for _, p := range probs {
				t.Errorf("%s: %s", at, p)
			}
			nodes += n
		}
	}
	return decls, nodes
}

var geminiName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$`)
var geminiParamName = regexp.MustCompile(`^[A-Za-z0-9_]{1,64}$`)

func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}

func countNodes(s *genai.Schema) int {
	if s == nil {
		return 0
	}
	n := 1 + countNodes(s.Items)
	for _, p := range s.Properties {
		n += countNodes(p)
	}
	for _, a := range s.AnyOf {
		n += countNodes(a)
	}
	return n
}

// geminiFormats are the formats the Gemini API enforces per type
// (docs/providers.md, Gemini): enum and date-time for STRING, int32/int64
// for INTEGER, float/double for NUMBER.
var geminiFormats = map[string][]string{
	"STRING":  {"enum", "date-time"},
	"INTEGER": {"int32", "int64"},
	"NUMBER":  {"float", "double"},
}

// checkGeminiSchema returns every way s leaves the Gemini API's accepted
// subset.
func checkGeminiSchema(s *genai.Schema, path string) []string {
	var probs []string
	bad := func(format string, args ...any) { probs = append(probs, path+": "+fmt.Sprintf(format, args...)) }
	typ := strings.ToUpper(string(s.Type))
	switch typ {
	case "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT":
	case "":
		if len(s.AnyOf) == 0 {
			bad("no type (TYPE_UNSPECIFIED, which Gemini 3 rejects)")
		}
	default:
		bad("type %q is outside STRING|NUMBER|INTEGER|BOOLEAN|ARRAY|OBJECT (NULL: use nullable)", s.Type)
	}
	if s.Type != "" && string(s.Type) != strings.ToLower(string(s.Type)) && string(s.Type) != typ {
		bad("type %q is neither upper nor lower case", s.Type)
	}
	if s.Format != "" && !slices.Contains(geminiFormats[typ], s.Format) {
		bad("format %q on %s: Gemini accepts only %v", s.Format, typOr(typ), geminiFormats[typ])
	}
	if len(s.Enum) > 0 && typ != "STRING" {
		bad("enum on %s: enum is only allowed for STRING", typOr(typ))
	}
	if s.Format == "enum" && len(s.Enum) == 0 {
		bad(`format "enum" with no enum values`)
	}
	if s.Enum != nil && len(s.Enum) == 0 {
		bad("empty enum")
	}
	if typ == "ARRAY" && s.Items == nil {
		bad("array without items")
	}
	if typ != "ARRAY" && (s.Items != nil || s.MinItems != nil || s.MaxItems != nil) {
		bad("items/minItems/maxItems on %s", typOr(typ))
	}
	if typ == "OBJECT" {
		if len(s.Properties) == 0 {
			bad("object without properties (Gemini: should be non-empty for OBJECT type)")
		}
		for _, r := range s.Required {
			if _, ok := s.Properties[r]; !ok {
				bad("required %q is not a property", r)
			}
		}
		if s.PropertyOrdering != nil {
			got := slices.Sorted(slices.Values(s.PropertyOrdering))
			if !slices.Equal(got, sortedKeys(s.Properties)) {
				bad("propertyOrdering %v is not a permutation of the properties %v", s.PropertyOrdering, sortedKeys(s.Properties))
			}
		}
	} else if len(s.Properties) > 0 || len(s.Required) > 0 || s.PropertyOrdering != nil || s.MinProperties != nil || s.MaxProperties != nil {
		bad("object keywords on %s", typOr(typ))
	}
	if typ != "STRING" && (s.MinLength != nil || s.MaxLength != nil || s.Pattern != "") {
		bad("string keywords on %s", typOr(typ))
	}
	if typ != "NUMBER" && typ != "INTEGER" && (s.Minimum != nil || s.Maximum != nil) {
		bad("minimum/maximum on %s", typOr(typ))
	}
	if s.Minimum != nil && s.Maximum != nil && *s.Minimum > *s.Maximum {
		bad("minimum %v > maximum %v", *s.Minimum, *s.Maximum)
	}
	if s.MinLength != nil && s.MaxLength != nil && *s.MinLength > *s.MaxLength {
		bad("minLength > maxLength")
	}
	if s.MinItems != nil && s.MaxItems != nil && *s.MinItems > *s.MaxItems {
		bad("minItems > maxItems")
	}
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err != nil {
			bad("pattern %q does not compile: %v", s.Pattern, err)
		}
	}
	for _, name := range sortedKeys(s.Properties) {
		if !geminiParamName.MatchString(name) {
			bad("property name %q outside %v", name, geminiParamName)
		}
		probs = append(probs, checkGeminiSchema(s.Properties[name], path+"/properties/"+name)...)
	}
	if s.Items != nil {
		probs = append(probs, checkGeminiSchema(s.Items, path+"/items")...)
	}
	for i, a := range s.AnyOf {
		probs = append(probs, checkGeminiSchema(a, fmt.Sprintf("%s/anyOf/%d", path, i))...)
	}
	return probs
}

func typOr(t string) string {
	if t == "" {
		return "an untyped node"
	}
	return t
}

// geminiJSONKeywords are the keywords Google documents for
// parametersJsonSchema (docs/providers.md, Gemini), plus the annotations every JSON
// Schema consumer ignores: nothing else may appear.
var geminiJSONKeywords = []string{"$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum",
	"items", "prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf", "properties",
	"additionalProperties", "required", "propertyOrdering"}

// checkGeminiJSONSchema walks a parametersJsonSchema and returns every
// keyword outside the documented list, every $ref with siblings, and a
// root that is not an object.
func checkGeminiJSONSchema(root any) (probs []string, nodes int) {
	m, ok := root.(map[string]any)
	if !ok || m["type"] != "object" {
		probs = append(probs, "parametersJsonSchema: root is not {\"type\":\"object\",...}")
	}
	walkSchema(root, "parametersJsonSchema", func(node map[string]any, path string) {
		nodes++
		for _, k := range sortedKeys(node) {
			if !slices.Contains(geminiJSONKeywords, k) {
				probs = append(probs, fmt.Sprintf("%s: keyword %q is not in Gemini's documented parametersJsonSchema list", path, k))
			}
			if _, isRef := node["$ref"]; isRef && !strings.HasPrefix(k, "$") {
				probs = append(probs, fmt.Sprintf("%s: $ref with sibling %q (a $ref node may carry only $-keywords)", path, k))
			}
		}
		if f, ok := node["format"].(string); ok && node["type"] == "string" && f != "date-time" && f != "enum" {
			probs = append(probs, fmt.Sprintf("%s: string format %q outside date-time/enum", path, f))
		}
	})
	return probs, nodes
}

// walkSchema calls fn on every schema object under v (JSON Schema 2020-12
// applicators), with its JSON Pointer.
func walkSchema(v any, path string, fn func(node map[string]any, path string)) {
	node, ok := v.(map[string]any)
	if !ok {
		return
	}
	fn(node, path)
	for _, k := range []string{"items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties"} {
		if sub, ok := node[k]; ok {
			walkSchema(sub, path+"/"+k, fn)
		}
	}
	for _, k := range []string{"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"} {
		if subs, ok := node[k].(map[string]any); ok {
			for _, name := range sortedKeys(subs) {
				walkSchema(subs[name], path+"/"+k+"/"+name, fn)
			}
		}
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if subs, ok := node[k].([]any); ok {
			for i, sub := range subs {
				walkSchema(sub, fmt.Sprintf("%s/%s/%d", path, k, i), fn)
			}
		}
	}
}

type recursiveArgs struct {
	Root zoo.MixedNode `json:"root"`
	At   time.Time     `json:"at"`
	Blob []byte        `json:"blob"`
}

// TestGeminiDefaultMixedList: ToGemini without options renders a list
// mixing tools the OpenAPI subset carries and tools it cannot: every
// declaration decodes into genai's types with unknown fields disallowed,
// the subset holds wherever "parameters" is used, and each declaration
// uses exactly one schema field.
func TestGeminiDefaultMixedList(t *testing.T) {
	handler := func(context.Context, zoo.Mixed) (string, error) { return "ok", nil }
	mixed, err := define.DefineTool(handler, define.WithName("tag_resource"), define.WithDescription("Tag a resource."))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := define.DefineTool(func(context.Context, recursiveArgs) (string, error) { return "ok", nil },
		define.WithName("walk_tree"), define.WithDescription("Walk a tree."))
	if err != nil {
		t.Fatal(err)
	}
	tools := []define.Tool{rec, mixed}
	for _, c := range zoo.Cases {
		if c.Name != "optional" { // its "-" key is outside Gemini's key rule
			tools = append(tools, zooTool(t, c))
		}
	}
	got, err := adapters.ToGemini(tools)
	if err != nil {
		t.Fatalf("ToGemini without options: %v", err)
	}
	var params, js int
	for _, d := range got[0].FunctionDeclarations {
		switch {
		case d.Parameters != nil && d.ParametersJSONSchema != nil:
			t.Errorf("%s: both schema fields", d.Name)
		case d.Parameters != nil:
			params++
		case d.ParametersJSONSchema != nil:
			js++
		}
	}
	if want := []string{"parameters", "parametersJsonSchema"}; !slices.Equal(want, []string{
		fieldOf(got[0].FunctionDeclarations[0]), fieldOf(got[0].FunctionDeclarations[1])}) {
		t.Errorf("walk_tree, tag_resource use %s, %s; want %v", fieldOf(got[0].FunctionDeclarations[0]), fieldOf(got[0].FunctionDeclarations[1]), want)
	}
	decls, nodes := checkGeminiTools(t, mustJSON(t, got))
	if decls != len(tools) {
		t.Errorf("checked %d declarations, want %d", decls, len(tools))
	}
	t.Logf("mixed list: %d declarations (%d parameters, %d parametersJsonSchema), %d schema nodes checked", decls, params, js, nodes)
}

func fieldOf(d adapters.GeminiFunctionDeclaration) string {
	switch {
	case d.Parameters != nil:
		return "parameters"
	case d.ParametersJSONSchema != nil:
		return "parametersJsonSchema"
	}
	return "none"
}
