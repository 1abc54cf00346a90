// Package adapters renders tools into each LLM provider's wire format, and
// (in the calls files) parses the provider's tool calls and renders results
// back.
//
// # Tools arrays
//
// [ToOpenAI], [ToOpenAIResponses], [ToAnthropic], [ToGemini], [ToMCP],
// [ToBedrock], [ToOllama] and [ToMistral] take []define.Tool and return
// typed values whose json.Marshal is exactly the provider's "tools" value:
//
//	tools, err := adapters.ToGemini(tk.Tools())
//	body := map[string]any{"contents": contents, "tools": tools}
//
// Each renders the tool's canonical JSON Schema through an allow-list
// transform for the provider, following the rules docs/providers.md lists
// per provider (with links to each provider's documentation): keywords the
// provider accepts are kept, constraints it cannot check are appended to the
// description (so the model still learns them), and what it cannot express
// at all is an [*Error] naming the tool, the schema path and the provider's
// rule, instead of a 400 at request time. A failed call returns an [*Errors]
// with every problem it found (every tool, every schema path), up to
// [MaxErrors]. The rendered JSON never holds null where a list or an object
// belongs, nor a null value anywhere.
//
// # Options
//
// Without options every tool renders for every provider whose rules it can
// meet: [ToGemini] sends each declaration as "parameters" where Gemini's
// OpenAPI subset carries it and as "parametersJsonSchema" where it does not.
//
// [Strict] asks OpenAI (Chat and Responses) and Anthropic for strict tool
// use on every tool, [StrictWherePossible] on each tool whose schema allows
// it, and define.WithStrict pins one tool's strictness whatever the call
// says; strict size limits are checked before the request. [GeminiJSONSchema]
// and [GeminiParameters] force one Gemini schema field for every
// declaration; [MaxInlineDepth] bounds how deep recursive types are inlined
// where references are not accepted (Gemini "parameters", Anthropic strict).
// [RepairArguments] changes no rendering: a [Provider] made with it reads
// arguments texts that are not one JSON object through a fixed list of
// repairs ([Repairs]). An option the provider does not take is an error
// that names it.
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
// # Typed answers
//
// [ResponseFormat] renders a define.Answer as the provider's response format
// (OpenAI's json_schema, Anthropic's output_config, Gemini's response
// schema, Bedrock's outputConfig, Ollama's format), or, with [AnswerTool],
// as a forced tool call; [DecodeAnswer] reads the answer back from a Turn,
// a refusal, a cut answer and tool calls being typed errors
// ([ErrRefused], [ErrIncomplete], [ErrToolCalls]); [RetryAnswer] renders
// the message that asks again; [AnswerHooks] passes a stream's partial
// answer. docs/answers.md has the rules per provider.
//
// # Replies
//
// [ParseOpenAIReply], [ParseOpenAIResponsesReply], [ParseAnthropicReply],
// [ParseGeminiReply], [ParseBedrockReply], [ParseMCPReply],
// [ParseOllamaReply] and [ParseMistralReply] (or a [Provider]'s Parse)
// turn a reply into a [Turn]: the calls, the text, and
// the entries that replay the model's turn. A call whose arguments text is
// not one JSON object is the model's mistake, not the reply's: the call is
// marked malformed ([Call].Malformed) and its tool answers it with an
// error. A reply is read strictly, once:
// keys match exactly, a key given twice, a key that differs from an
// expected one only in case, and two calls with one id are errors, so the
// calls and the replay never disagree with each other or with another
// reader of the same bytes. The provider's error bodies become a
// [*ReplyError] wrapping [ErrProviderError] that quotes the provider's
// message, type and code:
//
//	turn, err := adapters.ParseOpenAIReply(body)
//	var re *adapters.ReplyError
//	if errors.As(err, &re) && errors.Is(err, adapters.ErrProviderError) {
//		log.Printf("openai said %s (%s, %s)", re.Message, re.Type, re.Code)
//	}
//
// Turn.Usage is the reply's token usage in one meaning for every provider
// ([Usage]: input with its cached tokens, output with its reasoning, the
// cache and reasoning counts, and the provider's own usage object), read
// from whole replies and from streams; docs/providers.md maps each
// provider's counts to it.
//
// Error paths are JSON Pointers into the reply ("/choices/0/message"). A
// reply larger than 32 MiB or nested deeper than 512 levels is an error
// wrapping [ErrReplyLimit]; [ReplyLimits] and [WithReplyLimits] change the
// limits.
//
// # Providers
//
// Each provider lives in a home of its own, a file set named after it
// (openai.go, gemini*.go, ollama.go, ...), that holds its wire types, its
// functions and one spec value listed in registry.go; the rest of the
// package (rendering, options, name rules, the schema walk, the reply
// reader, and the shapes several providers share) reaches a provider only
// through its spec (the boundary is in CONTRIBUTING.md). [Providers]
// returns every provider's [Provider], for code that picks one by name.
//
// A server that speaks OpenAI Chat Completions' shape is the OpenAI
// provider speaking to it: ForOpenAI([Server]([Groq])), with the deviations
// its [ServerProfile] declares; declare a profile for a server this
// package does not list.
//
// # Caching
//
// A tool is rendered once per provider and option set and cached on the
// tool (with define.Memo); later calls only assemble the cached entries,
// whose schemas are pre-rendered [encoding/json.RawMessage] values that
// json.Marshal copies (after its usual validation pass). The cache lives as
// long as the tool and holds at most one entry per provider and option set.
// Those byte slices are shared: replace them in a returned value, never
// modify them in place.
package adapters
