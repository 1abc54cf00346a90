// Package fields reads a Go struct type's fields and tags once, for both
// the schema builder (schema/) and the decode-plan builder
// (internal/reflectx), as encoding/json's cached type fields serve both its
// encoder and decoder.
//
// [Describe] walks a struct with encoding/json's selection and dominance
// rules, reads every field's tags into [Rules] (swaggest's; the same after
// items. or values. for the elements, into [Rules.Elem]; the jsonschema
// tags of google/jsonschema-go, invopop/jsonschema and mcp-go, translated
// into swaggest's) and makes every define-time check: the tag fits the field's type, its value is well formed, ranges are
// not empty, defaults, examples and enum members are values of the
// field's type, required and default do not contradict. (Whether those
// values meet the field's other constraints is checked by the decoder,
// internal/reflectx, with the code that checks a call's values.) [KindOf] classifies
// a type and rejects the ones with no JSON form. The result is cached per
// type and shared.
//
//	fs, err := fields.Describe(reflect.TypeFor[Args]())
//	if err != nil {
//		var fe *fields.Error // Path "Filters.When", Tag "minimum", Err ErrInvalidTag
//		errors.As(err, &fe)
//	}
//	for _, f := range fs {
//		_ = f.Name     // the JSON name
//		_ = f.Required // after omitempty, pointers, default and required:"…"
//		_ = f.Rules    // the parsed tags
//	}
//
// A type speaks for itself through swaggest/jsonschema-go's interfaces:
// what it declares through Exposer, RawExposer or Preparer is turned into
// the equivalent tags and read by the same parser ([TypeRules]), below a
// field's own tags ([MergeTypeTags]); the composition exposers are refused
// ([CheckHooks]).
//
// Errors are [*Error]s with a Go field path relative to the type described
// ("Base.ID", "Items[].Name", "Meta{}.Note"); the builders put them under
// their own path with [Under]. schema converts them to schema.TypeError,
// which has the same layout.
package fields
