package schema_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/swaggest/jsonschema-go"

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

// TestRefusedSwaggestHooks: a type that would add oneOf, anyOf, allOf, not
// or if/then/else to its schema through swaggest's interfaces is a
// define-time error naming the type, the field path and the interface,
// wherever the type is reached; never a schema the decoder ignores.
func TestRefusedSwaggestHooks(t *testing.T) {
	tests := []struct {
		name  string
		typ   reflect.Type
		path  string
		iface string
	}{
		{"OneOfExposer", reflect.TypeFor[struct{ V hookOneOf }](), "V", "OneOfExposer"},
		{"AnyOfExposer on the pointer", reflect.TypeFor[struct{ V []hookAnyOf }](), "V[]", "AnyOfExposer"},
		{"AllOfExposer", reflect.TypeFor[struct{ V map[string]hookAllOf }](), "V{}", "AllOfExposer"},
		{"NotExposer", reflect.TypeFor[struct{ V *hookNot }](), "V", "NotExposer"},
		{"IfExposer", reflect.TypeFor[struct{ A struct{ V hookIf } }](), "A.V", "IfExposer"},
		{"ThenExposer", reflect.TypeFor[struct{ V [2]hookThen }](), "V[]", "ThenExposer"},
		{"ElseExposer on the pointer", reflect.TypeFor[struct{ V hookElse }](), "V", "ElseExposer"},
		{"struct OneOfExposer", reflect.TypeFor[struct{ C []*hookCat }](), "C[]", "OneOfExposer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.ForType(tc.typ)
			if !errors.Is(err, schema.ErrUnsupportedType) {
				t.Fatalf("ForType(%v) error = %v, want ErrUnsupportedType", tc.typ, err)
			}
			var te *schema.TypeError
			if !errors.As(err, &te) {
				t.Fatalf("ForType(%v) error %T is not a *schema.TypeError", tc.typ, err)
			}
			if diff := cmp.Diff(tc.path, te.Path); diff != "" {
				t.Errorf("path (-want +got):\n%s", diff)
			}
			for _, part := range []string{"jsonschema." + tc.iface, "consider"} {
				if !strings.Contains(te.Msg, part) {
					t.Errorf("message %q does not name %q", te.Msg, part)
				}
			}
		})
	}
}

// TestRefusedSwaggestHooksRoot: the root type itself is checked too.
func TestRefusedSwaggestHooksRoot(t *testing.T) {
	_, err := schema.ForType(reflect.TypeFor[hookCat]())
	if !errors.Is(err, schema.ErrUnsupportedType) {
		t.Fatalf("ForType(hookCat) error = %v, want ErrUnsupportedType", err)
	}
}
