package adapters

import (
	"fmt"
	"sync"
)

// The OpenAI home's server profiles: servers that speak OpenAI Chat
// Completions' shape, each a few declared differences from OpenAI's. A
// profile's quirks are read by the family's core (chat_reply.go); a
// deviation a profile does not declare is refused, as from OpenAI.
// docs/providers.md cites what each server is known to send.

// ServerProfile describes a server that speaks OpenAI Chat Completions'
// shape: its name, what its requests take that OpenAI's do not, and the
// deviations from OpenAI's reply shape its replies and streams are known
// to send. [Server] gives it to [ForOpenAI] and [ToOpenAI]. The profiles
// of this package ([Groq], [XAI], [DeepSeek], [OpenRouter], [VLLM],
// [LlamaCpp], [Qwen], [Snowflake], [Azure]) are values of it; declare one
// for a server they do not cover:
//
//	p := adapters.ForOpenAI(adapters.Server(adapters.ServerProfile{
//		Name: "myserver", Display: "My server", NoArguments: true,
//	}))
//
// A reply with a deviation its profile does not declare is an error, as
// from OpenAI: a profile accepts exactly what its server is known to send.
type ServerProfile struct {
	// Name is the provider's name, as [Provider.Name] and
	// [ReplyError.Provider] spell it ("groq"); Display names the server
	// in messages ("Groq"). An empty Name is "openai-compatible", an empty
	// Display the Name.
	Name, Display string

	// NoStrict: the server refuses "strict" on a function (xAI's answers
	// 400), so [Strict] and [StrictWherePossible] do not apply, and a tool
	// pinned strict with define.WithStrict is sent without it.
	NoStrict bool
	// NoJSONSchema: the server takes no JSON Schema response format
	// (DeepSeek's JSON output is {"type":"json_object"} alone, which does
	// not carry the schema), so a typed answer is asked for as a forced
	// tool call, as [AnswerTool] asks ([ResponseFormat]).
	NoJSONSchema bool
	// MaxTools is the most tools a request may carry, and MaxDescription
	// the most characters a tool's description may hold; 0 when the server
	// documents no limit (nothing is checked).
	MaxTools, MaxDescription int

	// MadeIDs: calls come with an empty id, or none; each gets an id made
	// from the reply (call_<index>_<hash>, as OpenAI's home makes them).
	MadeIDs bool
	// ArgumentsObject: a call's arguments come as a JSON object rather
	// than as the text of one.
	ArgumentsObject bool
	// NoArguments: a call without arguments comes without an "arguments"
	// member (or with null); its arguments are {}.
	NoArguments bool
	// EmptyFinishReason: finish_reason "" stands for no reason; Turn.Stop
	// is then "tool_calls" when the message holds calls, else "stop".
	EmptyFinishReason bool
	// Placeholders: response-only members come as empty placeholders
	// (function_call {"name":"","arguments":""}, audio of empty values,
	// refusal "", a call's custom {"name":"","input":""} beside its
	// function): they are not read, and the replay leaves them out.
	Placeholders bool

	// ReasoningApart: the usage's completion_tokens leaves out the
	// reasoning tokens (completion_tokens_details.reasoning_tokens), which
	// only total_tokens counts; [Usage].Output adds them, so that it means
	// what it means for OpenAI.
	ReasoningApart bool
	// ThoughtsInTotal: the usage's completion_tokens may leave out
	// thoughts that only total_tokens counts, without reasoning_tokens to
	// say how many; when total_tokens is more than prompt_tokens +
	// completion_tokens, [Usage].Output is total_tokens - prompt_tokens
	// and Reasoning (unless given) the difference.
	ThoughtsInTotal bool
}

// The servers of this package's profiles, and OpenAI itself. Each declares
// only what its server is known to do differently (docs/providers.md).
var (
	// OpenAI is OpenAI, with the deviations ForOpenAI has always read from
	// the servers closest to it (Gemini's and Ollama's OpenAI-compatible
	// endpoints; Gemini's leaves its thoughts out of completion_tokens):
	// [ForOpenAI] without [Server] is ForOpenAI(Server(OpenAI)).
	OpenAI = openAIProfile
	// Groq's OpenAI-compatible API (api.groq.com/openai/v1).
	Groq = ServerProfile{Name: "groq", Display: "Groq"}
	// XAI is xAI's API (api.x.ai/v1), which refuses "strict" on functions
	// and counts reasoning tokens apart from completion_tokens.
	XAI = ServerProfile{Name: "xai", Display: "xAI", NoStrict: true, ReasoningApart: true}
	// DeepSeek's API (api.deepseek.com; "strict" needs its /beta base
	// URL), whose JSON output takes no schema: typed answers are forced
	// tool calls.
	DeepSeek = ServerProfile{Name: "deepseek", Display: "DeepSeek", NoJSONSchema: true}
	// OpenRouter (openrouter.ai/api/v1), whose routed providers send a
	// call without arguments with no "arguments" member.
	OpenRouter = ServerProfile{Name: "openrouter", Display: "OpenRouter", NoArguments: true}
	// VLLM is vLLM's OpenAI-compatible server, and the hosts built on it.
	VLLM = ServerProfile{Name: "vllm", Display: "vLLM"}
	// LlamaCpp is llama.cpp's llama-server, which may send arguments as an
	// object (its --tool-args-object mode, and its default for a while).
	LlamaCpp = ServerProfile{Name: "llamacpp", Display: "llama.cpp", ArgumentsObject: true}
	// Qwen is Alibaba Cloud's DashScope compatible mode (Qwen models).
	Qwen = ServerProfile{Name: "qwen", Display: "Alibaba Qwen"}
	// Snowflake is Snowflake Cortex's OpenAI-compatible chat completions,
	// whose replies fill response-only members with empty placeholders and
	// send finish_reason "".
	Snowflake = ServerProfile{Name: "snowflake", Display: "Snowflake Cortex", EmptyFinishReason: true, Placeholders: true}
	// Azure is Azure OpenAI's chat completions, with OpenAI's limits (128
	// tools, descriptions of 1024 characters).
	Azure = ServerProfile{Name: "azure", Display: "Azure OpenAI", MaxTools: maxOpenAITools, MaxDescription: maxOpenAIDescription}
)

// openAIProfile is OpenAI's profile, which ForOpenAI uses without Server
// (whatever a program does to the variable OpenAI).
var openAIProfile = ServerProfile{Name: NameOpenAI, Display: "OpenAI", MaxTools: maxOpenAITools,
	MaxDescription: maxOpenAIDescription, MadeIDs: true, ArgumentsObject: true, NoArguments: true, ThoughtsInTotal: true}

// Server makes [ForOpenAI] and [ToOpenAI] speak to the server p
// describes: the Provider's name and its errors are p's, its requests take
// what p's server takes, and its replies and streams are read with p's
// deviations. It applies to ForOpenAI and ToOpenAI only; two Server
// options in one call are an error.
func Server(p ServerProfile) Option { return serverOption{p} }

// serverOption is Server, an option of the OpenAI home alone; the home
// reads it from the option list (serverOf).
type serverOption struct{ p ServerProfile }

func (serverOption) apply(*config)    {}
func (serverOption) kind() optionKind { return optMode }
func (serverOption) home() string     { return NameOpenAI }
func (o serverOption) String() string { return "Server(" + o.p.label() + ")" }

func (p ServerProfile) name() string {
	if p.Name == "" {
		return "openai-compatible"
	}
	return p.Name
}

func (p ServerProfile) label() string {
	if p.Display == "" {
		return p.name()
	}
	return p.Display
}

// serverOf returns the profile of opts' Server option (OpenAI's without
// one), and an error, with the first, for two that differ.
func serverOf(opts []Option) (ServerProfile, error) {
	var found *serverOption
	for _, o := range opts {
		s, ok := o.(serverOption)
		if !ok {
			continue
		}
		if found != nil && found.p != s.p {
			return found.p, &Error{Func: "ToOpenAI", Err: ErrOption, Msg: fmt.Sprintf("option %v conflicts with %v: choose one", s, *found)}
		}
		found = &s
	}
	if found == nil {
		return openAIProfile, nil
	}
	return found.p, nil
}

// serverSpecs are the specs of the profiles used so far, one per profile,
// so that a profile's renderings share one cache entry per tool. A program
// uses a few profiles: the map stays that small.
var serverSpecs sync.Map // ServerProfile -> *spec

// serverSpec returns the spec of the OpenAI home speaking to the server p
// describes: OpenAI's, with p's name, request rules and reading.
func serverSpec(p ServerProfile) *spec {
	if p == openAIProfile {
		return openAISpec
	}
	if s, ok := serverSpecs.Load(p); ok {
		return s.(*spec)
	}
	srv := &chatServer{name: p.name(), what: "a " + p.label() + " chat completion", madeID: madeCallID}
	for _, q := range [...]struct {
		on bool
		q  chatQuirk
	}{{p.MadeIDs, quirkMadeIDs}, {p.ArgumentsObject, quirkArgumentsObject}, {p.NoArguments, quirkNoArguments},
		{p.EmptyFinishReason, quirkEmptyFinish}, {p.Placeholders, quirkPlaceholders}, {p.ReasoningApart, quirkReasoningApart},
		{p.ThoughtsInTotal, quirkThoughtsInTotal}} {
		if q.on {
			srv.quirks |= q.q
		}
	}
	s := *openAISpec
	s.base = openAISpec
	s.name, s.display = srv.name, p.label()
	if p.NoStrict {
		s.options, s.optionText = s.options&^optStrict, "Server, AnswerTool, RepairArguments"
	}
	s.maxTools, s.maxDescription = max(p.MaxTools, 0), max(p.MaxDescription, 0)
	if p.NoStrict || p.NoJSONSchema {
		as := *s.answers
		if p.NoStrict {
			as.strict = strictNone
		}
		as.toolOnly = p.NoJSONSchema
		s.answers = &as
	}
	s.parse = func(l ReplyLimits, reply []byte) (Turn, error) { return l.parseChat(srv, reply) }
	s.stream = chatStreams(srv)
	got, _ := serverSpecs.LoadOrStore(p, &s)
	return got.(*spec)
}
