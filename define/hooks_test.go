package define_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/swaggest/jsonschema-go"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

// shape would add anyOf to its schema through swaggest's AnyOfExposer.
type shape struct{ Kind string }

func (shape) JSONSchemaAnyOf() []any { return []any{struct{ R float64 }{}, struct{ W, H float64 }{}} }

// TestDefineToolRefusesComposition: a swaggest composition exposer in the
// input or the output type is a define-time error, not a schema the
// decoder would not enforce.
func TestDefineToolRefusesComposition(t *testing.T) {
	type in struct {
		Shapes []shape `json:"shapes"`
	}
	type out struct {
		Shape shape `json:"shape"`
	}
	_, err := define.DefineTool(func(context.Context, in) (string, error) { return "", nil }, define.WithName("draw"))
	var te *schema.TypeError
	if !errors.Is(err, schema.ErrUnsupportedType) || !errors.As(err, &te) || te.Path != "Shapes[]" {
		t.Errorf("DefineTool(input with AnyOfExposer) error = %v, want ErrUnsupportedType at Shapes[]", err)
	}
	type plain struct {
		N int `json:"n"`
	}
	_, err = define.DefineTool(func(context.Context, plain) (out, error) { return out{}, nil }, define.WithName("draw"))
	if !errors.Is(err, schema.ErrUnsupportedType) || !errors.As(err, &te) || te.Path != "Shape" {
		t.Errorf("DefineTool(output with AnyOfExposer) error = %v, want ErrUnsupportedType at Shape", err)
	}
}

// level declares its bounds and description through swaggest's Preparer.
type level int

func (level) PrepareJSONSchema(s *jsonschema.Schema) error {
	s.WithMinimum(1).WithMaximum(5).WithDescription("A level from 1 to 5.")
	return nil
}

// color declares its whole schema through swaggest's Exposer.
type color string

func (color) JSONSchema() (jsonschema.Schema, error) {
	var s jsonschema.Schema
	s.AddType(jsonschema.String)
	s.WithEnum("red", "green").WithTitle("Color")
	return s, nil
}

// code declares its schema as JSON through swaggest's RawExposer, on the
// pointer.
type code string

func (*code) JSONSchemaBytes() ([]byte, error) {
	return []byte(`{"type":"string","pattern":"^[A-Z]{3}$","examples":["ABC"]}`), nil
}

// TestDefineToolHonoursDeclaredSchemas: what a type declares through
// swaggest's Preparer, Exposer or RawExposer is in the input schema, on a
// field and on slice elements alike, and the decoder enforces it.
func TestDefineToolHonoursDeclaredSchemas(t *testing.T) {
	type in struct {
		Level  level   `json:"level"`
		Levels []level `json:"levels"`
		Color  color   `json:"color"`
		Code   *code   `json:"code,omitempty"`
	}
	tool, err := define.DefineTool(func(_ context.Context, a in) (string, error) { return string(a.Color), nil },
		define.WithName("paint"))
	if err != nil {
		t.Fatal(err)
	}
	props := properties(t, tool)
	want := map[string]string{
		"level":  `{"type":"integer","description":"A level from 1 to 5.","minimum":1,"maximum":5}`,
		"levels": `{"type":"array","items":{"type":"integer","description":"A level from 1 to 5.","minimum":1,"maximum":5}}`,
		"color":  `{"type":"string","title":"Color","enum":["red","green"]}`,
		"code":   `{"type":["string","null"],"pattern":"^[A-Z]{3}$","examples":["ABC"]}`,
	}
	for name, w := range want {
		if diff := cmp.Diff(compactJSON(t, w), compactJSON(t, string(props[name]))); diff != "" {
			t.Errorf("property %s (-want +got):\n%s", name, diff)
		}
	}

	for _, tc := range []struct {
		args string
		path string // the rejected argument, "" when the call succeeds
	}{
		{`{"level":3,"levels":[1,5],"color":"red","code":"ABC"}`, ""},
		{`{"level":0,"levels":[],"color":"red"}`, "/level"},
		{`{"level":3,"levels":[1,6],"color":"red"}`, "/levels/1"},
		{`{"level":3,"levels":[],"color":"blue"}`, "/color"},
		{`{"level":3,"levels":[],"color":"green","code":"abc"}`, "/code"},
	} {
		res := tool.ExecuteJSON(context.Background(), []byte(tc.args))
		var ae *define.ArgError
		switch {
		case tc.path == "" && res.IsError:
			t.Errorf("ExecuteJSON(%s) = %v, want success", tc.args, res.Err)
		case tc.path != "" && (!errors.Is(res.Err, define.ErrConstraint) || !errors.As(res.Err, &ae) || ae.Path != tc.path):
			t.Errorf("ExecuteJSON(%s) error = %v, want ErrConstraint at %s", tc.args, res.Err, tc.path)
		}
	}
}

// properties returns the property schemas of tool's input schema.
func properties(t *testing.T, tool define.Tool) map[string]json.RawMessage {
	t.Helper()
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(tool.InputSchema(), &s); err != nil {
		t.Fatal(err)
	}
	return s.Properties
}

func compactJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// TestDeclaredSchemaFieldTagsReplace: a field's own tags replace what its
// type declares, in the schema and in the decoder alike.
func TestDeclaredSchemaFieldTagsReplace(t *testing.T) {
	type in struct {
		Color color `json:"color" enum:"blue" description:"Only blue today."`
	}
	tool, err := define.DefineTool(func(_ context.Context, a in) (string, error) { return string(a.Color), nil },
		define.WithName("paint"))
	if err != nil {
		t.Fatal(err)
	}
	props := properties(t, tool)
	want := `{"type":"string","title":"Color","description":"Only blue today.","enum":["blue"]}`
	if diff := cmp.Diff(compactJSON(t, want), compactJSON(t, string(props["color"]))); diff != "" {
		t.Errorf("property color (-want +got):\n%s", diff)
	}
	if res := tool.ExecuteJSON(context.Background(), []byte(`{"color":"blue"}`)); res.IsError {
		t.Errorf("color blue: %v", res.Err)
	}
	if res := tool.ExecuteJSON(context.Background(), []byte(`{"color":"red"}`)); !errors.Is(res.Err, define.ErrConstraint) {
		t.Errorf("color red: error = %v, want ErrConstraint", res.Err)
	}
}

// size declares a default through swaggest's Preparer.
type size int

func (size) PrepareJSONSchema(s *jsonschema.Schema) error {
	s.WithDefault(3).WithMinimum(1)
	return nil
}

// TestDeclaredDefault: a default a type declares works as a default tag on
// the field: the property is optional and a call without it gets it.
func TestDeclaredDefault(t *testing.T) {
	type in struct {
		Size size `json:"size"`
	}
	tool, err := define.DefineTool(func(_ context.Context, a in) (int, error) { return int(a.Size), nil },
		define.WithName("cut"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(tool.InputSchema(), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string(nil), got.Required); diff != "" {
		t.Errorf("required (-want +got):\n%s", diff)
	}
	want := `{"type":"integer","default":3,"minimum":1}`
	if diff := cmp.Diff(compactJSON(t, want), compactJSON(t, string(properties(t, tool)["size"]))); diff != "" {
		t.Errorf("property size (-want +got):\n%s", diff)
	}
	res := tool.ExecuteJSON(context.Background(), []byte(`{}`))
	if diff := cmp.Diff("3", res.Output); diff != "" || res.IsError {
		t.Errorf("ExecuteJSON({}) output (-want +got):\n%s (error %v)", diff, res.Err)
	}
}
