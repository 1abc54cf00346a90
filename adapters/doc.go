// Package adapters renders tools into each LLM provider's wire format, and
// (in the calls files) parses the provider's tool calls and renders results
// back.
//
// # Tools arrays
//
// [ToOpenAI], [ToOpenAIResponses], [ToAnthropic], [ToGemini], [ToMCP] and
// [ToBedrock] take []define.Tool and return typed values whose json.Marshal
// is exactly the provider's "tools" value:
//
//	tools, err := adapters.ToGemini(tk.Tools())
//	body := map[string]any{"contents": contents, "tools": tools}
//
// Each renders the tool's canonical JSON Schema through an allow-list
// transform for the provider, following the provider reference
// (PROVIDERS.md): keywords the provider accepts are kept, constraints it
// cannot check are appended to the description (so the model still learns
// them), and what it cannot express at all is an [*Error] naming the tool,
// the schema path and the provider's rule, instead of a 400 at request
// time. The rendered JSON never holds null where a list or an object
// belongs, nor a null value anywhere.
//
// # Options
//
// [Strict] asks OpenAI (Chat and Responses) and Anthropic for strict tool
// use; [GeminiJSONSchema] makes Gemini use "parametersJsonSchema";
// [MaxInlineDepth] bounds how deep recursive types are inlined where
// references are not accepted (Gemini "parameters", Anthropic strict). An
// option the provider does not take is an error that names it.
//
// # Recursive types
//
// Recursive Go types reach the adapters as $defs/$ref. OpenAI (strict or
// not), Anthropic, Bedrock, MCP and Gemini parametersJsonSchema keep the
// references. Gemini "parameters" and Anthropic strict inline them: a
// recursive type appears at most MaxInlineDepth times on any path, and the
// property that would recurse further is left out, with a note in the
// enclosing object's description.
//
// # Caching
//
// A tool is rendered once per provider and option set and cached on the
// tool (through internal/toolhook); later calls only assemble the cached entries,
// whose schemas are pre-rendered [encoding/json.RawMessage] values that
// json.Marshal copies (after its usual validation pass). The cache lives as
// long as the tool and holds at most one entry per provider and option set.
// Those byte slices are shared: replace them in a returned value, never
// modify them in place.
package adapters
