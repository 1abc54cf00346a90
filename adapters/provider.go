package adapters

import (
	"fmt"

	"github.com/toolnexus/toolnexus/define"
)

// Provider is one provider's whole tool-call round trip behind one
// interface, so that an agent loop is written once for all of them:
//
//	tools, err := p.Tools(tk.Tools())
//	history := p.Prompt("What's the weather in Paris?")
//	for {
//		reply := model(tools, history)       // your client: the provider's request and reply JSON
//		turn, err := p.Parse(reply)
//		history = append(history, turn.Replay...)
//		if len(turn.Calls) == 0 {
//			return turn.Text
//		}
//		results := tk.Run(ctx, turn.Calls)
//		next, err := p.Results(turn.Calls, results)
//		history = append(history, next...)
//	}
//
// The history entries are typed values whose json.Marshal is the
// provider's message (or item, or content) exactly; the request body
// around them (model, max_tokens, where tools go) is the client's.
//
// The values returned by [ForOpenAI], [ForOpenAIResponses], [ForAnthropic],
// [ForGemini], [ForBedrock] and [ForMCP] are safe for concurrent use.
type Provider interface {
	// Name is the provider's name: "openai", "openai-responses",
	// "anthropic", "gemini", "bedrock" or "mcp".
	Name() string

	// Tools renders tools as the request's tools value (ToOpenAI,
	// ToGemini, ... with the provider's options).
	Tools(tools []define.Tool) (any, error)

	// Prompt returns the history entries of a user's text message (none
	// for MCP, which has no conversation).
	Prompt(text string) []any

	// Parse parses a model reply: its calls, its text, and its replay.
	Parse(reply []byte) (Turn, error)

	// Calls returns only the tool calls of a model reply.
	Calls(reply []byte) ([]Call, error)

	// Results renders the results of calls, one to one and in call order,
	// as the history entries that answer them.
	Results(calls []Call, results []define.Result) ([]any, error)
}

// ForOpenAI returns the [Provider] for OpenAI Chat Completions (and
// OpenAI-compatible servers). Tools is [ToOpenAI] with opts; Parse is
// [ParseOpenAIReply]; Results is [OpenAIResults], one entry per message;
// Prompt is {"role":"user","content":text}.
func ForOpenAI(opts ...Option) Provider {
	opts = append([]Option(nil), opts...)
	return roundTrip{
		name:  NameOpenAI,
		tools: func(t []define.Tool) (any, error) { return ToOpenAI(t, opts...) },
		parse: ReplyLimits.ParseOpenAIReply,
		results: func(c []Call, r []define.Result) ([]any, error) {
			m, err := OpenAIResults(c, r)
			return asEntries(m, err)
		},
		prompt: func(text string) []any { return []any{promptMessage{Role: "user", Content: text}} },
	}
}

// ForOpenAIResponses returns the [Provider] for the OpenAI Responses API.
// Tools is [ToOpenAIResponses] with opts; Parse is [ParseResponsesReply];
// Results is [ResponsesResults], one entry per item; Prompt is
// {"role":"user","content":text}. The history is the request's input.
func ForOpenAIResponses(opts ...Option) Provider {
	opts = append([]Option(nil), opts...)
	return roundTrip{
		name:  NameOpenAIResponses,
		tools: func(t []define.Tool) (any, error) { return ToOpenAIResponses(t, opts...) },
		parse: ReplyLimits.ParseResponsesReply,
		results: func(c []Call, r []define.Result) ([]any, error) {
			m, err := ResponsesResults(c, r)
			return asEntries(m, err)
		},
		prompt: func(text string) []any { return []any{promptMessage{Role: "user", Content: text}} },
	}
}

// ForAnthropic returns the [Provider] for the Anthropic Messages API. Tools
// is [ToAnthropic] with opts; Parse is [ParseAnthropicReply]; Results is
// [AnthropicResults], one user message; Prompt is
// {"role":"user","content":text}.
func ForAnthropic(opts ...Option) Provider {
	opts = append([]Option(nil), opts...)
	return roundTrip{
		name:  NameAnthropic,
		tools: func(t []define.Tool) (any, error) { return ToAnthropic(t, opts...) },
		parse: ReplyLimits.ParseAnthropicReply,
		results: func(c []Call, r []define.Result) ([]any, error) {
			m, err := AnthropicResults(c, r)
			return asEntries([]AnthropicToolResultMessage{m}, err)
		},
		prompt: func(text string) []any { return []any{promptMessage{Role: "user", Content: text}} },
	}
}

// ForGemini returns the [Provider] for Gemini and Vertex AI
// generateContent. Tools is [ToGemini] with opts; Parse is
// [ParseGeminiReply]; Results is [GeminiResults], one user content;
// Prompt is {"role":"user","parts":[{"text":text}]}. The history is the
// request's contents.
func ForGemini(opts ...Option) Provider {
	opts = append([]Option(nil), opts...)
	return roundTrip{
		name:  NameGemini,
		tools: func(t []define.Tool) (any, error) { return ToGemini(t, opts...) },
		parse: ReplyLimits.ParseGeminiReply,
		results: func(c []Call, r []define.Result) ([]any, error) {
			m, err := GeminiResults(c, r)
			return asEntries([]GeminiFunctionResponses{m}, err)
		},
		prompt: func(text string) []any {
			return []any{promptGeminiContent{Role: "user", Parts: []promptGeminiPart{{Text: text}}}}
		},
	}
}

// ForBedrock returns the [Provider] for Bedrock Converse. Tools is
// [ToBedrock] with opts (the request's toolConfig.tools, which Converse
// needs on every request whose history holds tool use); Parse is
// [ParseBedrockReply]; Results is [BedrockResults], one user message;
// Prompt is {"role":"user","content":[{"text":text}]}.
func ForBedrock(opts ...Option) Provider {
	opts = append([]Option(nil), opts...)
	return roundTrip{
		name:  NameBedrock,
		tools: func(t []define.Tool) (any, error) { return ToBedrock(t, opts...) },
		parse: ReplyLimits.ParseBedrockReply,
		results: func(c []Call, r []define.Result) ([]any, error) {
			m, err := BedrockResults(c, r)
			return asEntries([]BedrockToolResultMessage{m}, err)
		},
		prompt: func(text string) []any {
			return []any{promptBedrockMessage{Role: "user", Content: []promptBedrockBlock{{Text: text}}}}
		},
	}
}

// ForMCP returns the [Provider] for the server side of MCP tools. Tools is
// [ToMCP] with opts (a tools/list result's tools); Parse is
// [ParseMCPReply] (tools/call requests, one or a batch); Results is
// [MCPResponses], one JSON-RPC response per call; Prompt returns nothing.
func ForMCP(opts ...Option) Provider {
	opts = append([]Option(nil), opts...)
	return roundTrip{
		name:  NameMCP,
		tools: func(t []define.Tool) (any, error) { return ToMCP(t, opts...) },
		parse: ReplyLimits.ParseMCPReply,
		results: func(c []Call, r []define.Result) ([]any, error) {
			m, err := MCPResponses(c, r)
			return asEntries(m, err)
		},
		prompt: func(string) []any { return []any{} },
	}
}

// WithReplyLimits returns p with its Parse and Calls reading replies
// within l (see [ReplyLimits]; the providers of this package use the
// defaults). For a Provider from elsewhere, the returned Provider checks
// l.MaxBytes before calling p's own Parse and Calls.
func WithReplyLimits(p Provider, l ReplyLimits) Provider {
	if rt, ok := p.(roundTrip); ok {
		rt.limits = l
		return rt
	}
	return limitedProvider{p, l.parser("")}
}

// roundTrip implements Provider from one provider's functions.
type roundTrip struct {
	name    string
	tools   func([]define.Tool) (any, error)
	parse   func(ReplyLimits, []byte) (Turn, error)
	results func([]Call, []define.Result) ([]any, error)
	prompt  func(string) []any
	limits  ReplyLimits
}

func (r roundTrip) Name() string                           { return r.name }
func (r roundTrip) Tools(tools []define.Tool) (any, error) { return r.tools(tools) }
func (r roundTrip) Prompt(text string) []any               { return r.prompt(text) }
func (r roundTrip) Parse(reply []byte) (Turn, error)       { return r.parse(r.limits, reply) }

func (r roundTrip) Calls(reply []byte) ([]Call, error) {
	t, err := r.parse(r.limits, reply)
	return t.Calls, err
}

// limitedProvider checks the size of replies for a Provider from elsewhere.
type limitedProvider struct {
	Provider
	p replyParser
}

func (l limitedProvider) size(reply []byte) error {
	if len(reply) > l.p.maxBytes {
		return &ReplyError{Provider: l.Name(), Problem: fmt.Sprintf("%d bytes, more than the limit of %d", len(reply), l.p.maxBytes), Err: ErrReplyLimit}
	}
	return nil
}

func (l limitedProvider) Parse(reply []byte) (Turn, error) {
	if err := l.size(reply); err != nil {
		return Turn{}, err
	}
	return l.Provider.Parse(reply)
}

func (l limitedProvider) Calls(reply []byte) ([]Call, error) {
	if err := l.size(reply); err != nil {
		return nil, err
	}
	return l.Provider.Calls(reply)
}

func (r roundTrip) Results(calls []Call, results []define.Result) ([]any, error) {
	return r.results(calls, results)
}

// asEntries turns a typed slice into history entries.
func asEntries[T any](items []T, err error) ([]any, error) {
	if err != nil {
		return nil, err
	}
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it
	}
	return out, nil
}

// promptMessage is a {"role":...,"content":"text"} message (OpenAI Chat,
// Responses, Anthropic).
type promptMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type promptGeminiContent struct {
	Role  string             `json:"role"`
	Parts []promptGeminiPart `json:"parts"`
}

type promptGeminiPart struct {
	Text string `json:"text"`
}

type promptBedrockMessage struct {
	Role    string               `json:"role"`
	Content []promptBedrockBlock `json:"content"`
}

type promptBedrockBlock struct {
	Text string `json:"text"`
}
