// Package reflectx decodes the arguments a model sends for a tool into the
// tool's Go input type, validating them on the way.
//
// [PlanFor] builds an immutable [Plan] (internal/typeinfo keeps one per
// type) from the fields and
// tags that internal/fields has read and checked (the description schema/
// uses too): the fields in Go order with their JSON names (encoding/json's
// rules, embedding included),
// an exact-name lookup, the required set, compiled constraint tags and a
// decoder per field. [Plan.DecodeMap] decodes arguments already parsed into
// a map[string]any; [Plan.DecodeJSON] decodes JSON text with a single-pass
// scanner of its own. Both write straight into the destination through
// unsafe pointers and have the same semantics:
//
//   - keys match exactly (case-sensitive); unknown keys, missing required
//     keys and (in JSON text) duplicate keys are errors; a map with integer
//     keys takes them in canonical decimal form only (7, -12; not 07, +7);
//   - an integer field takes a number only when it is integral and in
//     range; JSON numbers are never rounded through float64;
//   - null is accepted only for pointers, slices, maps, any and
//     json.RawMessage; null, empty or blank arguments mean {};
//   - constraint tags (enum, const, minimum, pattern, format, minItems, ...)
//     are enforced, formats with the checks of internal/formats, and
//     default tags fill absent keys (a default or example that does not
//     decode is a define-time error).
//
// Every problem becomes an [*ArgError] with a JSON Pointer path; all of them
// (up to [MaxErrors]) are returned together as an [*ArgErrors].
//
// [CompileSchema] compiles a hand-written JSON Schema (schema's tree, for
// define.NewTool) into a [SchemaPlan], whose [SchemaPlan.ValidateJSON]
// checks arguments with the same scanner, check functions, errors and
// [Limits], without decoding them: every keyword schema.Parse reads is
// enforced, and a keyword it cannot enforce is a define-time
// [*schema.KeywordError].
//
// Usage (define/ holds a zero value of the input type and its plan):
//
//	plan, err := reflectx.PlanFor(reflect.TypeFor[Args]())
//	if err != nil {
//		return err // a define-time *fields.Error: unsupported type, bad tag
//	}
//	var in Args
//	if err := plan.DecodeJSON(unsafe.Pointer(&in), args); err != nil {
//		var errs *reflectx.ArgErrors
//		errors.As(err, &errs) // each errs.Errs[i] has Path, Want, Got, Err
//	}
//
// # Trade-offs
//
// Plans are kept per type by internal/typeinfo (never evicted: a program
// has finitely many types); PlanFor itself builds afresh. Decoder state is pooled, so a warm decode allocates only
// what the decoded value needs (strings from JSON text, slices, pointers,
// maps). [Plan.DecodeJSONNew] and [Plan.DecodeMapNew], which define's calls
// use, allocate the value itself together with its strings, string slices
// and scalar pointees: one allocation (a frame) sized by the plan's last
// call, so that arguments alike from call to call take one allocation in
// all. Whatever is handed out keeps its frame alive and is never reused.
//
// JSON text must be valid UTF-8: invalid bytes are an [ErrSyntax] error,
// and so is an escaped lone surrogate (\ud800 without the \udc00-\udfff
// escape that would make it a pair), which encoding/json would read as
// U+FFFD, and which the reply reader (internal/jsonwire) refuses too; its
// error names the value's path and the escape's offset. Strings and keys
// from map input must be valid UTF-8 too (a Go string can carry a lone
// surrogate only as bytes that are not).
//
// # Hostile input
//
// Arguments are untrusted, so every decode costs time and memory linear in
// their size: [Limits] bounds the size ([ErrTooLarge]) and the strings the
// general regexp matcher is run on; map input is checked for depth, cycles
// and size in the values it keeps as given; uniqueItems uses one canonical
// key per item; and past maxItems, maxProperties, maxLength or the error cap
// the decoders skip without allocating.
package reflectx
