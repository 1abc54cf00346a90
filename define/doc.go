// Package define turns typed Go functions into tools a language model can
// call.
//
// [DefineTool] takes a function whose input is a struct and returns a
// [Tool]: a name, a description, a JSON Schema inferred from the struct, and
// a call path that decodes the model's arguments into the struct, validates
// them against everything the schema says, calls the function and renders its
// output as a [Result].
//
//	type WeatherArgs struct {
//		City string `json:"city" description:"City name"`
//		Unit string `json:"unit,omitempty" enum:"C,F" default:"C"`
//	}
//
//	func getWeather(ctx context.Context, in WeatherArgs) (string, error) { ... }
//
//	weather, err := define.DefineTool(getWeather,
//		define.WithDescription("Current weather for a city"))
//	res := weather.ExecuteJSON(ctx, []byte(`{"city":"Paris"}`))
//
// # Arguments
//
// [Tool.Execute] takes arguments already parsed into a map (Gemini, Anthropic,
// Bedrock); [Tool.ExecuteJSON] takes JSON text (OpenAI). Both apply the same
// rules: keys match exactly, unknown keys and missing required keys are
// errors, integers are never rounded, and every tag constraint is checked.
// Every problem is reported at once, each with the JSON Pointer of the value
// at fault, in one error [Result] the model can act on:
//
//	invalid arguments: /passengers: expected integer, got 2.5
//
// Arguments are untrusted, so their cost is bounded by their size:
// [WithMaxArgBytes] (default 4 MiB) bounds the arguments, text or map; map
// arguments are checked for depth, cycles and UTF-8 as text is, so both
// ways give the same verdict; [WithMaxPatternBytes] bounds the strings
// handed to Go's general regexp matcher; [WithMaxOutputBytes] bounds the
// rendered output.
//
// # Errors
//
// A call never panics and never returns a Go error. Bad arguments, an error
// from the handler, a cancelled context and a panic in the handler all become
// a Result with IsError set; [Result.Err] keeps the Go error ([*ArgErrors],
// the handler's error, [*PanicError], or the context's error) for the program.
//
// Mistakes in the input type itself (an unsupported field type, a malformed
// tag, a name no provider accepts) are errors from DefineTool, naming the type,
// the field and the problem.
//
// # Typed answers
//
// [DefineAnswer] defines a model's final answer as a Go type: its schema by
// the rules of a tool's input, and [Answer.Decode], which reads the model's
// JSON into the type with the checks, errors and limits of a tool's
// arguments. A type whose JSON is not an object is carried as
// {"value": ...}. adapters.ResponseFormat asks a provider for it, and
// adapters.DecodeAnswer reads it back from a reply (docs/answers.md).
//
// # Tools from a JSON Schema
//
// [NewTool] makes a tool from a hand-written schema and an untyped handler
// (a proxy's, a remote MCP server's). Its calls are validated against the
// schema with the same errors, limits and checks as a typed tool's, every
// keyword enforced, before the handler gets the arguments as JSON text; a
// keyword the validator cannot enforce is an error from NewTool, unless
// [WithoutValidation]. [WithSanitizedName] makes a name no provider accepts
// valid instead of refusing it.
//
// The rules for schemas and decoding are listed in docs/decisions.md of the
// repository.
package define
