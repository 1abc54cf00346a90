package fields

import (
	"reflect"

	"github.com/swaggest/jsonschema-go"
)

// A refusedHook is an interface of swaggest/jsonschema-go through which a
// type would put keywords in its schema that the decoder cannot enforce.
type refusedHook struct {
	t      reflect.Type
	name   string // "OneOfExposer"
	method string // "JSONSchemaOneOf"
	word   string // the keyword it adds, "oneOf"
}

// refusedHooks are swaggest's composition exposers. A type that implements
// one is a define-time error: its schema would advertise what no call is
// checked against.
var refusedHooks = []refusedHook{
	{reflect.TypeFor[jsonschema.OneOfExposer](), "OneOfExposer", "JSONSchemaOneOf", "oneOf"},
	{reflect.TypeFor[jsonschema.AnyOfExposer](), "AnyOfExposer", "JSONSchemaAnyOf", "anyOf"},
	{reflect.TypeFor[jsonschema.AllOfExposer](), "AllOfExposer", "JSONSchemaAllOf", "allOf"},
	{reflect.TypeFor[jsonschema.NotExposer](), "NotExposer", "JSONSchemaNot", "not"},
	{reflect.TypeFor[jsonschema.IfExposer](), "IfExposer", "JSONSchemaIf", "if"},
	{reflect.TypeFor[jsonschema.ThenExposer](), "ThenExposer", "JSONSchemaThen", "then"},
	{reflect.TypeFor[jsonschema.ElseExposer](), "ElseExposer", "JSONSchemaElse", "else"},
}

// CheckHooks returns an [ErrUnsupportedType] error (with an empty path)
// when t (pointers removed), or its pointer, implements one of the
// interfaces of swaggest/jsonschema-go that this module refuses: the
// one-of, any-of, all-of, not and if/then/else exposers.
func CheckHooks(t reflect.Type) error {
	pt := reflect.PointerTo(t)
	for _, h := range refusedHooks {
		if t.Implements(h.t) || pt.Implements(h.t) {
			return errorf("", "", ErrUnsupportedType,
				"%s implements swaggest's jsonschema.%s (%s), whose %q the argument decoder cannot enforce "+
					"(consider removing the method and expressing the rule with enum, const, minimum/maximum, "+
					"pattern or format tags, or one struct with optional pointer fields, and checking the rest in the tool function)",
				t, h.name, h.method, h.word)
		}
	}
	return nil
}
