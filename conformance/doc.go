// Package conformance checks toolnexus against code that no one on the
// project wrote: the official provider SDKs (google.golang.org/genai,
// github.com/openai/openai-go/v3, github.com/anthropics/anthropic-sdk-go/v2)
// talking to local fake servers, go-genai's Schema type for Gemini's
// accepted subset, and github.com/santhosh-tekuri/jsonschema/v6 as a
// reference JSON Schema 2020-12 validator for the argument decoder.
//
// It is a separate module (with a replace of the library to ../) so that
// none of these dependencies reach the library's users. Everything is in
// tests; `make test` runs them with the rest of the repository.
package conformance
