package schema_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/schema"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *schema.Schema
		out  string // MarshalJSON of the result; "" means in
	}{
		{
			name: "order kept",
			in:   `{"type":"object","properties":{"z":{"type":"string"},"a":{"type":["integer","null"]}},"required":["z"],"additionalProperties":false}`,
			want: &schema.Schema{
				Types: []string{"object"},
				Properties: []schema.Property{
					{Name: "z", Schema: &schema.Schema{Types: []string{"string"}}},
					{Name: "a", Schema: &schema.Schema{Types: []string{"integer", "null"}}},
				},
				Required:             []string{"z"},
				AdditionalProperties: schema.False(),
			},
		},
		{
			name: "unknown keywords in order",
			in:   `{"type":"string","x-b":1,"x-a":{"k":[1,2]},"not":{"type":"null"}}`,
			want: &schema.Schema{
				Types: []string{"string"},
				Extra: []schema.Keyword{
					{Name: "x-b", Value: json.RawMessage(`1`)},
					{Name: "x-a", Value: json.RawMessage(`{"k":[1,2]}`)},
					{Name: "not", Value: json.RawMessage(`{"type":"null"}`)},
				},
			},
		},
		{
			name: "boolean subschemas",
			in:   `{"type":"array","items":true,"additionalProperties":false}`,
			want: &schema.Schema{Types: []string{"array"}, Items: schema.True(), AdditionalProperties: schema.False()},
		},
		{
			name: "exact numbers and values",
			in:   `{"type":"integer","enum":[9007199254740993,1.50,null,"x",{"b":1,"a":2}],"const":true,"minimum":-1e2,"multipleOf":0.1,"default":[3,1]}`,
			want: &schema.Schema{
				Types:      []string{"integer"},
				Enum:       []any{json.Number("9007199254740993"), json.Number("1.50"), nil, "x", json.RawMessage(`{"b":1,"a":2}`)},
				Const:      true,
				HasConst:   true,
				Minimum:    "-1e2",
				MultipleOf: "0.1",
				Default:    json.RawMessage(`[3,1]`),
				HasDefault: true,
			},
		},
		{
			name: "defs sorted, refs kept",
			in:   `{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"$defs":{"N":{"type":"string"},"A":{"type":"integer"}}}`,
			want: &schema.Schema{
				Types:      []string{"object"},
				Properties: []schema.Property{{Name: "n", Schema: &schema.Schema{Ref: "#/$defs/N"}}},
				Defs: []schema.Def{
					{Name: "A", Schema: &schema.Schema{Types: []string{"integer"}}},
					{Name: "N", Schema: &schema.Schema{Types: []string{"string"}}},
				},
			},
			out: `{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"$defs":{"A":{"type":"integer"},"N":{"type":"string"}}}`,
		},
		{
			name: "shapes not modelled go to Extra",
			in:   `{"type":"array","items":[{"type":"string"}],"exclusiveMinimum":"0","minLength":1.5}`,
			want: &schema.Schema{
				Types: []string{"array"},
				Extra: []schema.Keyword{
					{Name: "items", Value: json.RawMessage(`[{"type":"string"}]`)},
					{Name: "exclusiveMinimum", Value: json.RawMessage(`"0"`)},
					{Name: "minLength", Value: json.RawMessage(`1.5`)},
				},
			},
		},
		{
			name: "draft 4 boolean exclusive bounds become 2020-12 numbers",
			in:   `{"type":"number","minimum":0,"exclusiveMinimum":true,"exclusiveMaximum":false,"maximum":10}`,
			want: &schema.Schema{Types: []string{"number"}, ExclusiveMinimum: "0", Maximum: "10"},
			out:  `{"type":"number","exclusiveMinimum":0,"maximum":10}`,
		},
		{
			name: "draft 4 exclusiveMaximum before its maximum",
			in:   `{"type":"integer","exclusiveMaximum":true,"maximum":5,"x-other":true}`,
			want: &schema.Schema{Types: []string{"integer"}, ExclusiveMaximum: "5", Extra: []schema.Keyword{{Name: "x-other", Value: json.RawMessage(`true`)}}},
			out:  `{"type":"integer","exclusiveMaximum":5,"x-other":true}`,
		},
		{
			name: "draft 4 exclusive bound without its bound means nothing",
			in:   `{"type":"number","exclusiveMinimum":true}`,
			want: &schema.Schema{Types: []string{"number"}},
			out:  `{"type":"number"}`,
		},
		{
			name: "empty properties of an object",
			in:   `{"type":"object","properties":{}}`,
			want: &schema.Schema{Types: []string{"object"}},
		},
		{
			name: "propertyNames after additionalProperties",
			in:   `{"type":"object","properties":{},"additionalProperties":{"type":"integer"},"propertyNames":{"pattern":"^(0|-?[1-9][0-9]*)$"},"minProperties":1}`,
			want: &schema.Schema{
				Types:                []string{"object"},
				AdditionalProperties: &schema.Schema{Types: []string{"integer"}},
				PropertyNames:        &schema.Schema{Pattern: "^(0|-?[1-9][0-9]*)$"},
				MinProperties:        ptr[int64](1),
			},
		},
		{
			name: "all counted keywords",
			in:   `{"minProperties":1,"maxProperties":2,"anyOf":[{"type":"string","format":"email","pattern":"^a","minLength":1,"maxLength":2},{"type":"array","minItems":0,"maxItems":3,"uniqueItems":true}],"examples":["a"],"deprecated":true,"readOnly":true,"writeOnly":true}`,
			want: &schema.Schema{
				AnyOf: []*schema.Schema{
					{Types: []string{"string"}, MinLength: ptr[int64](1), MaxLength: ptr[int64](2), Pattern: "^a", Format: "email"},
					{Types: []string{"array"}, MinItems: ptr[int64](0), MaxItems: ptr[int64](3), UniqueItems: true},
				},
				MinProperties: ptr[int64](1),
				MaxProperties: ptr[int64](2),
				Deprecated:    true,
				ReadOnly:      true,
				WriteOnly:     true,
				Examples:      []any{"a"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := schema.Parse([]byte(tt.in))
			if err != nil {
				t.Fatalf("Parse(%s) error: %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse(%s) mismatch (-want +got):\n%s", tt.in, diff)
			}
			out := tt.out
			if out == "" {
				out = tt.in
			}
			data, err := got.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != out {
				t.Errorf("MarshalJSON(Parse(in)) = %s, want %s", data, out)
			}
			again, err := schema.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, again); diff != "" {
				t.Errorf("Parse(MarshalJSON(s)) differs from s (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{
		``,
		`{`,
		`[]`,
		`true`,
		`"object"`,
		`{"a":1,"a":2}`,
		`{"properties":{"x":1}}`,
		`{"items":{"items":"no"}}`,
		`{"anyOf":[{"type":"string"},3]}`,
		`{"properties":{"a":{"b":1,"b":2}}}`,
		`{} {}`,
	} {
		t.Run(in, func(t *testing.T) {
			s, err := schema.Parse([]byte(in))
			if !errors.Is(err, schema.ErrParse) {
				t.Errorf("Parse(%q) = %v, %v; want an error wrapping ErrParse", in, s, err)
			}
		})
	}
}

func TestClone(t *testing.T) {
	in := `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","enum":["x",{"k":1}]}}},"required":["a"],"propertyNames":{"pattern":"^a"},"anyOf":[{"const":[1]}],"default":{"a":["x"]},"x-ext":[1],"$defs":{"D":{"type":"integer","minimum":1}}}`
	s, err := schema.Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	c := s.Clone()
	if diff := cmp.Diff(s, c); diff != "" {
		t.Fatalf("Clone differs (-want +got):\n%s", diff)
	}
	// Change every part of the clone; the original must not move.
	c.Types[0] = "array"
	c.Properties[0].Schema.Items.Enum[1].(json.RawMessage)[0] = '['
	c.Properties[0].Schema.Items.Types[0] = "integer"
	c.Required[0] = "b"
	c.PropertyNames.Pattern = "^b"
	c.AnyOf[0].Const.(json.RawMessage)[0] = '{'
	c.Default.(json.RawMessage)[0] = '['
	c.Extra[0].Value[0] = '{'
	*c.Defs[0].Schema = schema.Schema{}
	data, _ := s.MarshalJSON()
	if string(data) != in {
		t.Errorf("changing a clone changed the original:\ngot  %s\nwant %s", data, in)
	}
	if (*schema.Schema)(nil).Clone() != nil {
		t.Error("nil.Clone() != nil")
	}
}

func ptr[T any](v T) *T { return &v }

// TestParseInvalidText: invalid UTF-8 and lone surrogates in strings read
// as U+FFFD, as encoding/json reads them; keys equal once so read are
// duplicates.
func TestParseInvalidText(t *testing.T) {
	s, err := schema.Parse([]byte("{\"title\":\"a\xffb\",\"description\":\"\\ud800\",\"properties\":{\"k\xfe\":{}}}"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Title != "a\uFFFDb" || s.Description != "\uFFFD" || s.Properties[0].Name != "k\uFFFD" {
		t.Errorf("Parse = %q, %q, %q; want U+FFFD in each", s.Title, s.Description, s.Properties[0].Name)
	}
	for _, in := range []string{"{\"properties\":{\"\xff\":{},\"\xfe\":{}}}", `{"properties":{"\ud800":{},"\udbff":{}}}`} {
		if _, err := schema.Parse([]byte(in)); !errors.Is(err, schema.ErrParse) || !strings.Contains(err.Error(), "duplicate key") {
			t.Errorf("Parse(%q) = %v, want a duplicate key", in, err)
		}
	}
}
