package adapters

import (
	"io"

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
// around them (model, max_tokens, where tools go) is the client's, or
// [NewBody]'s.
//
// The values returned by [ForOpenAI], [ForOpenAIResponses], [ForAnthropic],
// [ForGemini], [ForBedrock], [ForMCP], [ForOllama] and [ForMistral] are
// safe for concurrent use.
//
// Provider is sealed: only this package implements it (an unexported
// method keeps other implementations out), so that every Provider also
// streams ([NewStream], and toolnexus.Toolkit.RunStream), answers tool
// searches ([Searcher.Answer]) and renders tool choices ([ToolChoice])
// the same way. A type that embeds a Provider is that Provider to those
// functions: its own methods are not called by them. A server that speaks
// OpenAI Chat Completions' shape, listed or not, is reached through
// [ForOpenAI] with a [Server] profile: that is the way to a provider this
// package does not name.
type Provider interface {
	// Name is the provider's name: "openai", "openai-responses",
	// "anthropic", "gemini", "bedrock", "mcp", "ollama" or "mistral"; for
	// ForOpenAI with a [Server], its profile's ("groq").
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

	// ParseStream reads a streamed reply from body, the HTTP response
	// body as the provider sends it, to its end: the same Turn as Parse
	// of the whole reply (see [Stream] to read calls as they complete).
	// MCP has no streamed replies: its ParseStream returns an error.
	ParseStream(body io.Reader) (Turn, error)

	// Results renders the results of calls, one to one and in call order,
	// as the history entries that answer them, with the results options
	// among the Provider's ([MediaAsNote], ...). A result's parts
	// ([define.Result.Parts]) go in the provider's own form: inside the
	// tool results where the provider takes them there, else in a message
	// after them (a user message of OpenAI Chat and the servers of its
	// shape, Mistral and Ollama; a user content of Gemini), one more
	// entry at the end, so that appending every entry to the history is
	// still the whole answer. docs/providers.md has the table.
	Results(calls []Call, results []define.Result) ([]any, error)

	// impl returns the package's implementation: the provider's home and
	// its options and limits.
	impl() roundTrip
}

// forSpec returns the Provider of the home p, with opts for its Tools.
func forSpec(p *spec, opts []Option) Provider {
	return roundTrip{spec: p, opts: append([]Option(nil), opts...)}
}

// WithReplyLimits returns p with its Parse, Calls and ParseStream (and
// the [Stream] of [NewStream]) reading replies within l (see
// [ReplyLimits]; the providers of this package use the defaults).
func WithReplyLimits(p Provider, l ReplyLimits) Provider {
	rt := p.impl()
	rt.limits = l
	return rt
}

// roundTrip implements Provider from one home's spec.
type roundTrip struct {
	spec   *spec
	opts   []Option
	limits ReplyLimits
}

func (r roundTrip) impl() roundTrip { return r }
func (r roundTrip) Name() string    { return r.spec.name }
func (r roundTrip) Tools(tools []define.Tool) (any, error) {
	return r.spec.tools(r.spec, tools, r.opts)
}
func (r roundTrip) Prompt(text string) []any { return r.spec.prompt(text) }
func (r roundTrip) Parse(reply []byte) (Turn, error) {
	l := r.reading()
	turn, err := r.spec.parse(l, reply)
	markRendering(turn.Calls, l.rendering)
	return turn, err
}

func (r roundTrip) ParseStream(body io.Reader) (Turn, error) {
	if r.spec.stream == nil {
		return Turn{}, &ReplyError{Provider: r.spec.name, Problem: r.spec.display + " replies are not streamed", Err: ErrReplyShape, stream: true}
	}
	return r.reading().parseStream(r.spec, body)
}

func (r roundTrip) Calls(reply []byte) ([]Call, error) {
	t, err := r.Parse(reply)
	return t.Calls, err
}

// reading is how r reads replies: its limits, and what its options ask of
// the parse (RepairArguments) and of its calls (their Rendering).
func (r roundTrip) reading() ReplyLimits {
	l := r.limits
	l.repair = hasRepair(r.opts)
	l.rendering = r.rendering()
	return l
}

func (r roundTrip) Results(calls []Call, results []define.Result) ([]any, error) {
	return r.spec.results(r.spec, calls, results, r.opts)
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

// userText is the prompt of the providers whose user message is
// {"role":"user","content":text} (OpenAI Chat, Responses, Anthropic, Ollama,
// Mistral).
func userText(text string) []any { return []any{promptMessage{Role: "user", Content: text}} }

// promptMessage is a {"role":...,"content":"text"} message.
type promptMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// size and appendJSON make the message a jsonAppender (Body.Append,
// AppendJSON), as json.Marshal writes it.
func (m promptMessage) size() int { return 24 + len(m.Role) + len(m.Content) }

func (m promptMessage) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "role", m.Role)
	b = appendStringMember(b, "content", m.Content)
	return append(b, '}')
}
