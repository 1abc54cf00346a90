package adapters

import (
	"fmt"
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
// around them (model, max_tokens, where tools go) is the client's.
//
// The values returned by [ForOpenAI], [ForOpenAIResponses], [ForAnthropic],
// [ForGemini], [ForBedrock], [ForMCP] and [ForOllama] are safe for
// concurrent use.
type Provider interface {
	// Name is the provider's name: "openai", "openai-responses",
	// "anthropic", "gemini", "bedrock", "mcp" or "ollama".
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
	// as the history entries that answer them.
	Results(calls []Call, results []define.Result) ([]any, error)
}

// forSpec returns the Provider of the home p, with opts for its Tools.
func forSpec(p *spec, opts []Option) Provider {
	return roundTrip{spec: p, opts: append([]Option(nil), opts...)}
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

// roundTrip implements Provider from one home's spec.
type roundTrip struct {
	spec   *spec
	opts   []Option
	limits ReplyLimits
}

func (r roundTrip) Name() string { return r.spec.name }
func (r roundTrip) Tools(tools []define.Tool) (any, error) {
	return r.spec.tools(r.spec, tools, r.opts)
}
func (r roundTrip) Prompt(text string) []any         { return r.spec.prompt(text) }
func (r roundTrip) Parse(reply []byte) (Turn, error) { return r.spec.parse(r.limits, reply) }

func (r roundTrip) ParseStream(body io.Reader) (Turn, error) {
	if r.spec.stream == nil {
		return Turn{}, &ReplyError{Provider: r.spec.name, Problem: r.spec.display + " replies are not streamed", Err: ErrReplyShape, stream: true}
	}
	return r.limits.parseStream(r.spec, body)
}

func (r roundTrip) Calls(reply []byte) ([]Call, error) {
	t, err := r.spec.parse(r.limits, reply)
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

// ParseStream reads at most the limit's bytes of body before p's own
// ParseStream sees them.
func (l limitedProvider) ParseStream(body io.Reader) (Turn, error) {
	if body == nil {
		return l.Provider.ParseStream(body)
	}
	lr := &limitReader{r: body, n: int64(l.p.maxBytes), name: l.Name()}
	return l.Provider.ParseStream(lr)
}

// limitReader fails a read past n bytes.
type limitReader struct {
	r    io.Reader
	n    int64
	name string
}

func (r *limitReader) Read(b []byte) (int, error) {
	if r.n < 0 {
		return 0, &ReplyError{Provider: r.name, Problem: "more than the limit of bytes", Err: ErrReplyLimit, stream: true}
	}
	if int64(len(b)) > r.n+1 {
		b = b[:r.n+1]
	}
	k, err := r.r.Read(b)
	r.n -= int64(k)
	if r.n < 0 {
		return 0, &ReplyError{Provider: r.name, Problem: "more than the limit of bytes", Err: ErrReplyLimit, stream: true}
	}
	return k, err
}

func (l limitedProvider) Calls(reply []byte) ([]Call, error) {
	if err := l.size(reply); err != nil {
		return nil, err
	}
	return l.Provider.Calls(reply)
}

func (r roundTrip) Results(calls []Call, results []define.Result) ([]any, error) {
	return r.spec.results(calls, results)
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
// {"role":"user","content":text} (OpenAI Chat, Responses, Anthropic, Ollama).
func userText(text string) []any { return []any{promptMessage{Role: "user", Content: text}} }

// promptMessage is a {"role":...,"content":"text"} message.
type promptMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}
