package schema_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/swaggest/jsonschema-go"

	"github.com/toolnexus/toolnexus/internal/typeinfo"
	"github.com/toolnexus/toolnexus/schema"
)

// Types implementing swaggest's composition exposers, each on the value or
// on the pointer.
type (
	hookOneOf string
	hookAnyOf string
	hookAllOf int
	hookNot   int
	hookIf    string
	hookThen  string
	hookElse  string
	hookCat   struct{ Name string }
)

func (hookOneOf) JSONSchemaOneOf() []any  { return []any{"a", 1} }
func (*hookAnyOf) JSONSchemaAnyOf() []any { return []any{"a", 1} }
func (hookAllOf) JSONSchemaAllOf() []any  { return []any{1} }
func (hookNot) JSONSchemaNot() any        { return 0 }
func (hookIf) JSONSchemaIf() any          { return "" }
func (hookThen) JSONSchemaThen() any      { return "" }
func (*hookElse) JSONSchemaElse() any     { return "" }
func (hookCat) JSONSchemaOneOf() []any    { return []any{hookCat{}, 1} }

// Compile-time proof that the test types implement the interfaces they
// stand for.
var (
	_ jsonschema.OneOfExposer = hookOneOf("")
	_ jsonschema.AnyOfExposer = new(hookAnyOf)
	_ jsonschema.AllOfExposer = hookAllOf(0)
	_ jsonschema.NotExposer   = hookNot(0)
	_ jsonschema.IfExposer    = hookIf("")
	_ jsonschema.ThenExposer  = hookThen("")
	_ jsonschema.ElseExposer  = new(hookElse)
)

// hookCase is a type whose schema swaggest's interfaces make a
// define-time error.
type hookCase struct {
	name  string
	typ   reflect.Type
	err   error // the sentinel
	path  string
	tag   string
	words []string // the message contains them
}

// byPlan names the hookCases where the value of a tag breaks the type's
// declarations, which the decode plan finds when a tool of the type is
// defined (ForType accepts the type).
var byPlan = map[string]bool{"field default below the type's bound": true}

func testHookErrors(t *testing.T, tests []hookCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.ForType(tc.typ)
			if byPlan[tc.name] {
				if err != nil {
					t.Fatalf("ForType(%v) error = %v; want it left to the plan", tc.typ, err)
				}
				_, err = typeinfo.Input(tc.typ)
			}
			var te *schema.TypeError
			if !errors.Is(err, tc.err) || !errors.As(err, &te) {
				t.Fatalf("ForType(%v) error = %v, want a *TypeError wrapping %v", tc.typ, err, tc.err)
			}
			if diff := cmp.Diff([]string{tc.path, tc.tag}, []string{te.Path, te.Tag}); diff != "" {
				t.Errorf("path and tag (-want +got):\n%s", diff)
			}
			for _, w := range tc.words {
				if !strings.Contains(te.Msg, w) {
					t.Errorf("message %q does not contain %q", te.Msg, w)
				}
			}
		})
	}
}

// TestRefusedSwaggestHooks: a type that would add oneOf, anyOf, allOf, not
// or if/then/else to its schema through swaggest's interfaces is a
// define-time error naming the type, the field path and the interface,
// wherever the type is reached, the root included; never a schema the
// decoder ignores.
func TestRefusedSwaggestHooks(t *testing.T) {
	refused := func(name string, typ reflect.Type, path, iface string) hookCase {
		return hookCase{name, typ, schema.ErrUnsupportedType, path, "", []string{"jsonschema." + iface, "consider"}}
	}
	testHookErrors(t, []hookCase{
		refused("OneOfExposer", reflect.TypeFor[struct{ V hookOneOf }](), "V", "OneOfExposer"),
		refused("AnyOfExposer on the pointer", reflect.TypeFor[struct{ V []hookAnyOf }](), "V[]", "AnyOfExposer"),
		refused("AllOfExposer", reflect.TypeFor[struct{ V map[string]hookAllOf }](), "V{}", "AllOfExposer"),
		refused("NotExposer", reflect.TypeFor[struct{ V *hookNot }](), "V", "NotExposer"),
		refused("IfExposer", reflect.TypeFor[struct{ A struct{ V hookIf } }](), "A.V", "IfExposer"),
		refused("ThenExposer", reflect.TypeFor[struct{ V [2]hookThen }](), "V[]", "ThenExposer"),
		refused("ElseExposer on the pointer", reflect.TypeFor[struct{ V hookElse }](), "V", "ElseExposer"),
		refused("struct OneOfExposer", reflect.TypeFor[struct{ C []*hookCat }](), "C[]", "OneOfExposer"),
		refused("root", reflect.TypeFor[hookCat](), "", "OneOfExposer"),
	})
}

// Types declaring their schema through swaggest's Preparer and Exposer.
type (
	prepNot      int    // adds "not"
	prepExtra    string // adds an x- extension
	prepUntyped  int    // removes "type"
	prepStrMin   string // adds minimum to a string
	exposeWrong  int    // exposes type string
	exposeFails  string // JSONSchema returns an error
	exposeOneOf  string // exposes oneOf
	prepBounded  int    // minimum 1
	rawBroken    string // JSONSchemaBytes is not JSON
	exposePanics int    // JSONSchema panics
	rawBig       int64  // an exact bound beyond float64's integers
	prepDescribe struct {
		N int `json:"n"`
	}
)

func (prepNot) PrepareJSONSchema(s *jsonschema.Schema) error {
	s.WithNot((&jsonschema.Schema{}).ToSchemaOrBool())
	return nil
}

func (prepExtra) PrepareJSONSchema(s *jsonschema.Schema) error {
	s.WithExtraPropertiesItem("x-kind", "secret")
	return nil
}

func (prepUntyped) PrepareJSONSchema(s *jsonschema.Schema) error {
	s.Type = nil
	return nil
}

func (prepStrMin) PrepareJSONSchema(s *jsonschema.Schema) error {
	s.WithMinimum(3)
	return nil
}

func (exposeWrong) JSONSchema() (jsonschema.Schema, error) {
	var s jsonschema.Schema
	s.AddType(jsonschema.String)
	return s, nil
}

func (exposeFails) JSONSchema() (jsonschema.Schema, error) {
	return jsonschema.Schema{}, errors.New("no schema today")
}

func (exposeOneOf) JSONSchema() (jsonschema.Schema, error) {
	var s jsonschema.Schema
	s.WithOneOf((&jsonschema.Schema{}).ToSchemaOrBool())
	return s, nil
}

func (rawBroken) JSONSchemaBytes() ([]byte, error) { return []byte(`{"type":`), nil }

func (exposePanics) JSONSchema() (jsonschema.Schema, error) { panic("boom") }

func (rawBig) JSONSchemaBytes() ([]byte, error) {
	return []byte(`{"type":"integer","maximum":9007199254740993}`), nil
}

func (prepBounded) PrepareJSONSchema(s *jsonschema.Schema) error {
	s.WithMinimum(1)
	return nil
}

func (*prepDescribe) PrepareJSONSchema(s *jsonschema.Schema) error {
	s.WithDescription("Described by its preparer.")
	return nil
}

// TestDeclaredSchemaErrors: a keyword a type declares through swaggest's
// Preparer or Exposer that the decoder would not enforce is a define-time
// error naming it.
func TestDeclaredSchemaErrors(t *testing.T) {
	testHookErrors(t, []hookCase{
		{"preparer adds not", reflect.TypeFor[struct{ V prepNot }](), schema.ErrUnsupportedType, "V", "", []string{`"not"`}},
		{"preparer adds an extension", reflect.TypeFor[struct{ V []prepExtra }](), schema.ErrUnsupportedType, "V[]", "", []string{`"x-kind"`}},
		{"preparer removes type", reflect.TypeFor[struct{ V prepUntyped }](), schema.ErrUnsupportedType, "V", "", []string{`removes "type"`}},
		{"preparer's bound misfits", reflect.TypeFor[struct{ V prepStrMin }](), schema.ErrInvalidTag, "V", "", []string{"keyword minimum"}},
		{"exposer's type is another", reflect.TypeFor[struct{ V exposeWrong }](), schema.ErrUnsupportedType, "V", "", []string{`"type": "string"`}},
		{"exposer fails", reflect.TypeFor[struct{ V map[string]exposeFails }](), schema.ErrReflector, "V{}", "", []string{"no schema today"}},
		{"raw exposer's JSON broken", reflect.TypeFor[struct{ V rawBroken }](), schema.ErrReflector, "V", "", []string{"JSONSchemaBytes"}},
		{"exposer panics", reflect.TypeFor[struct{ V *exposePanics }](), schema.ErrReflector, "V", "", []string{"boom"}},
		{"exposer's oneOf", reflect.TypeFor[struct{ V exposeOneOf }](), schema.ErrUnsupportedType, "V", "", []string{`"oneOf"`}},
		{"field bound again", reflect.TypeFor[struct {
			V prepBounded `minimum:"2"`
		}](), schema.ErrInvalidTag, "V", "minimum", []string{"consider"}},
		{"field default below the type's bound", reflect.TypeFor[struct {
			V prepBounded `default:"0"`
		}](), schema.ErrInvalidTag, "V", "default", []string{"the default 0", ">= 1"}},
	})
}

// TestDeclaredSchemaStruct: a struct's preparer may describe it; its
// properties stay those of its fields.
func TestDeclaredSchemaStruct(t *testing.T) {
	s, err := schema.ForType(reflect.TypeFor[prepDescribe]())
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"type":"object","description":"Described by its preparer.","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
}

// TestDeclaredSchemaExactBound: a raw exposer's numbers are read as
// written, not through float64.
func TestDeclaredSchemaExactBound(t *testing.T) {
	s, err := schema.ForType(reflect.TypeFor[struct {
		V rawBig `json:"v"`
	}]())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(json.Number("9007199254740993"), s.Properties[0].Schema.Maximum); diff != "" {
		t.Errorf("maximum (-want +got):\n%s", diff)
	}
}

// Types with swaggest's layout markers.
type (
	markIgnore struct {
		N int `json:"n" minimum:"1"`
	}
	markInline struct {
		N int `json:"n" minimum:"1"`
	}
	// MarkRefer is exported: swaggest's reflector panics on an embedded
	// EmbedReferencer of an unexported type (reported as ErrReflector).
	MarkRefer struct {
		N int `json:"n" minimum:"1"`
	}
	markPlain struct {
		N int `json:"n" minimum:"1"`
	}
)

func (markIgnore) IgnoreTypeName()   {}
func (markInline) InlineJSONSchema() {}
func (MarkRefer) ReferEmbedded()     {}

// TestLayoutMarkers: IgnoreTypeName, SchemaInliner and EmbedReferencer
// only place definitions, which this module does itself: the schema is
// that of the same type without them.
func TestLayoutMarkers(t *testing.T) {
	want, err := schema.ForType(reflect.TypeFor[struct{ V markPlain }]())
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := want.MarshalJSON()
	for _, typ := range []reflect.Type{
		reflect.TypeFor[struct{ V markIgnore }](),
		reflect.TypeFor[struct{ V markInline }](),
		reflect.TypeFor[struct{ V MarkRefer }](),
		reflect.TypeFor[struct{ MarkRefer }](),
	} {
		got, err := schema.ForType(typ)
		if err != nil {
			t.Errorf("ForType(%v): %v", typ, err)
			continue
		}
		gotJSON, _ := got.MarshalJSON()
		if typ.Field(0).Anonymous {
			// Embedded: its fields are flattened, as encoding/json does.
			wantJSON = []byte(`{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"],"additionalProperties":false}`)
		}
		if diff := cmp.Diff(string(wantJSON), string(gotJSON)); diff != "" {
			t.Errorf("ForType(%v) (-want +got):\n%s", typ, diff)
		}
	}
}
