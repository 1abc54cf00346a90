// Package schema turns the Go input type of a tool into its canonical JSON
// Schema, the one form from which the adapters derive each provider's
// rendering (OpenAI, Anthropic, Gemini, MCP, Bedrock).
//
//	type WeatherArgs struct {
//		City  string `json:"city" description:"City name" minLength:"1"`
//		Days  int    `json:"days,omitempty" minimum:"1" maximum:"14" default:"3"`
//		Units *string `json:"units" enum:"metric,imperial"`
//	}
//
//	s, err := schema.For[WeatherArgs]()
//	data, err := json.Marshal(s)
//
// # Rules
//
// [ForType] documents the mapping from Go types and struct tags to JSON
// Schema. The fields of a struct and their tags are read and checked once,
// by internal/fields, for this package and for the argument decoder
// (internal/reflectx) alike, so that the decoder accepts exactly what the
// schema advertises. ForType checks every tag and that the values tags
// give (defaults, examples, enum members) are values of the field's type;
// whether they meet the field's other constraints is checked by the
// decoder, with the code that checks a call's values, when the define
// package defines a tool of the type. ForType builds a fresh tree on each
// call; define keeps one per type. The repository's docs/decisions.md
// is the contract both follow. Every define-time problem is a [*TypeError]. Properties keep Go field
// order, objects are closed, only pointers are nullable, and types in a cycle
// are the only ones written under $defs.
//
// # The Schema tree
//
// [Schema] is our own tree, not a third-party type: properties in order,
// numeric bounds as exact [encoding/json.Number], and a deterministic
// [Schema.MarshalJSON]. [Parse] reads hand-written schemas into the same
// tree, and [Schema.Clone] deep-copies one.
//
// # Reflection
//
// github.com/swaggest/jsonschema-go reflects the type to collect what a
// type declares through swaggest's interfaces (Titled, Described, Enum,
// NamedEnum). The structure, property names and order, the required set
// and every field tag are computed from the reflect.Type and the raw tag
// text (internal/fields), because swaggest's own choices differ from the
// decoder's rules (sorted properties, nothing required, float64 bounds,
// string-typed numeric enums, nullable slices). swaggest's Exposer,
// RawExposer, Preparer and OneOf/AnyOf/AllOf exposers are not honoured:
// the decoder could not enforce an arbitrary schema.
//
// # Trade-offs
//
// Results are cached per reflect.Type in a process-wide map that is never
// evicted; a program has finitely many types, so the cache is bounded by the
// program. Every call returns a fresh clone, which costs an allocation per
// node: callers that render often should keep the result.
package schema
