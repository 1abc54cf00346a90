package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/define"
)

// Request is what a provider's whole request body carries besides its
// history: see [NewBody].
type Request struct {
	// Model is the model's name ("gpt-5-mini"). Gemini and Bedrock name
	// the model in the URL (transport.Gemini, transport.Bedrock), not
	// in the body: their bodies do not carry it.
	Model string
	// System is the system prompt; "" for none.
	System string
	// Tools are the tools offered, rendered with the Provider's options
	// (p.Tools). None leaves the tools member out.
	Tools []define.Tool
	// Choice is the tool choice ([ToolChoice]); nil sends none (the
	// provider's default, auto).
	Choice *Choice
	// Answer asks for a typed answer ([ResponseFormat]); nil for none.
	// Asked for as a forced tool call ([AnswerTool]), it adds the
	// answer's tool to Tools and takes the tool choice, so Choice must
	// then be nil.
	Answer define.AnyAnswer
	// MaxTokens bounds the reply's tokens; 0 sends none (Anthropic
	// requires it).
	MaxTokens int
	// Temperature is the sampling temperature; nil sends none.
	Temperature *float64
	// Stream asks for a streamed reply where the body says so (OpenAI,
	// Mistral, Responses, Anthropic, Ollama); Gemini and Bedrock stream
	// by URL, and their bodies carry nothing for it. transport's Stream
	// sets it itself.
	Stream bool
	// ParallelToolCalls, when set, turns parallel tool calls on or off:
	// OpenAI Chat, its servers, Mistral and Responses'
	// "parallel_tool_calls", Anthropic's tool_choice
	// "disable_parallel_tool_use" (with no Choice, in a tool_choice of
	// type auto). Gemini, Bedrock and Ollama have no switch: set, it is
	// an error.
	ParallelToolCalls *bool
	// CacheTools and CacheSystem put a prompt-cache breakpoint after the
	// tools and after the system prompt: Anthropic's cache_control
	// {"type":"ephemeral"} on the last tool and on the system prompt (as
	// a text block), Bedrock's {"cachePoint":{"type":"default"}} after
	// the last tool and after the system prompt. The other providers
	// cache without breakpoints: set, it is an error.
	CacheTools, CacheSystem bool
	// Extra are members of the provider's request that this package does
	// not model ("top_p", "metadata", "thinking", ...), written as they
	// are, in key order. Each key must be valid UTF-8 and each value
	// valid JSON, and none may be a member the body writes itself.
	Extra map[string]json.RawMessage
}

// Body is a provider's whole request body, built once from a [Request]
// and grown step by step with the history: Append encodes only the new
// entries, after the bytes of those before, so that the body of step n
// costs the entries of step n, not the whole history again.
//
// A Body is not safe for concurrent use.
type Body struct {
	rt   roundTrip
	head []byte // `{` and the members, then the history's key and `[`, and its first entry (a system message)
	n    int    // the history's entries, the head's among them
	hist []byte // the history's entries as JSON, each after a comma
}

// bodyParts is a Request rendered for a home's body hook: the tools as
// their JSON array (nil when none), the tool choice and the response
// format as their field and value ("" when none).
type bodyParts struct {
	*Request
	display      string
	tools        []byte
	choice       string
	choiceValue  json.RawMessage
	answer       string
	answerValue  json.RawMessage
	answerByTool bool
}

// bodyWriter writes the members of a JSON object, and keeps their keys
// (for Request.Extra's collisions).
type bodyWriter struct {
	b    []byte
	keys []string
}

func newObject() *bodyWriter { return &bodyWriter{b: []byte{'{'}} }

func (w *bodyWriter) key(k string) {
	if len(w.keys) > 0 {
		w.b = append(w.b, ',')
	}
	w.b = append(appendString(w.b, k), ':')
	w.keys = append(w.keys, k)
}

func (w *bodyWriter) raw(k string, v []byte) { w.key(k); w.b = append(w.b, v...) }
func (w *bodyWriter) str(k, v string)        { w.key(k); w.b = appendString(w.b, v) }
func (w *bodyWriter) int(k string, v int)    { w.key(k); w.b = strconv.AppendInt(w.b, int64(v), 10) }
func (w *bodyWriter) boolean(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}
func (w *bodyWriter) float(k string, v float64) {
	w.key(k)
	w.b = strconv.AppendFloat(w.b, v, 'g', -1, 64)
}
func (w *bodyWriter) has(k string) bool { return slices.Contains(w.keys, k) }
func (w *bodyWriter) empty() bool       { return len(w.keys) == 0 }

// object returns the object written, closed.
func (w *bodyWriter) object() []byte { return append(w.b, '}') }

// withMembers returns the JSON object obj (compact, as this package
// renders it) with the members of w added at its end.
func withMembers(obj []byte, w *bodyWriter) []byte {
	if w.empty() {
		return obj
	}
	out := append([]byte(nil), obj[:len(obj)-1]...)
	if len(obj) > 2 {
		out = append(out, ',')
	}
	out = append(out, w.b[1:]...)
	return append(out, '}')
}

// NewBody builds p's request body for r, with no history yet: Append
// adds the history's entries (p.Prompt's, each Turn.Replay, p.Results'),
// and Bytes or AppendTo return the JSON to send. The members:
//
//   - OpenAI Chat and its servers, Mistral, Ollama: "model", the system
//     prompt as the first of "messages" ({"role":"system"}), "tools",
//     "tool_choice", "response_format" (Ollama: "format"), the maximum
//     tokens ("max_completion_tokens"; a server's and Mistral's
//     "max_tokens"; Ollama's "options":{"num_predict"}), "temperature"
//     (Ollama's in "options"), "parallel_tool_calls", "stream" (OpenAI's
//     with "stream_options":{"include_usage":true}; Ollama's always, as
//     it streams unless told not to);
//   - Responses: "model", "instructions", "input", "tools",
//     "tool_choice", "text", "max_output_tokens", "temperature",
//     "parallel_tool_calls", "stream";
//   - Anthropic: "model", "system", "messages", "tools", "tool_choice",
//     "output_config", "max_tokens" (required), "temperature", "stream";
//   - Gemini: "systemInstruction", "contents", "tools", "toolConfig",
//     "generationConfig" (the response format's members with
//     "maxOutputTokens" and "temperature");
//   - Bedrock: "system", "messages", "toolConfig" ("tools" and
//     "toolChoice"), "outputConfig", "inferenceConfig" ("maxTokens",
//     "temperature").
//
// The history is the body's last member. What p cannot say (a Choice it
// has no form for, a switch it lacks, an Extra member it writes itself or
// that is not JSON) is an error naming the field. MCP has no model
// request: NewBody refuses it.
func NewBody(p Provider, r Request) (*Body, error) {
	if p == nil {
		return nil, errors.New("adapters: NewBody: no provider (nil)")
	}
	b := &Body{rt: p.impl()}
	if err := b.SetRequest(r); err != nil {
		return nil, err
	}
	return b, nil
}

// SetRequest replaces the members of b's body with r's, and keeps its
// history: a step that changes the tools offered or the tool choice.
// On an error, b is unchanged.
func (b *Body) SetRequest(r Request) error {
	head, first, err := b.rt.requestHead(&r)
	if err != nil {
		return err
	}
	n := b.n - b.first()
	if first {
		n++
	}
	b.head, b.n = head, n
	return nil
}

// first is 1 when b's head holds the history's first entry.
func (b *Body) first() int {
	if len(b.head) > 0 && b.head[len(b.head)-1] != '[' {
		return 1
	}
	return 0
}

// requestHead renders r's members and the history's opening.
func (rt roundTrip) requestHead(r *Request) (head []byte, first bool, err error) {
	p := rt.spec
	if p.body == nil {
		return nil, false, fmt.Errorf("adapters: NewBody: %s has no model request", p.display)
	}
	if r.MaxTokens < 0 {
		return nil, false, fmt.Errorf("adapters: NewBody: Request.MaxTokens: %d is negative", r.MaxTokens)
	}
	if t := r.Temperature; t != nil && (math.IsNaN(*t) || math.IsInf(*t, 0) || *t < 0) {
		return nil, false, fmt.Errorf("adapters: NewBody: Request.Temperature: %v is not a non-negative number", *t)
	}
	parts := bodyParts{Request: r, display: p.display}
	tools := r.Tools
	if r.Answer != nil {
		ar, err := ResponseFormat(rt, r.Answer)
		if err != nil {
			return nil, false, fmt.Errorf("adapters: NewBody: Request.Answer: %w", err)
		}
		if ar.Tool.Name() != "" {
			if r.Choice != nil {
				return nil, false, fmt.Errorf("adapters: NewBody: Request.Choice: the answer %q is asked for as a forced tool call, which takes the tool choice", ar.Tool.Name())
			}
			tools = append(slices.Clip(tools), ar.Tool)
			parts.choice, parts.choiceValue, parts.answerByTool = ar.Field, ar.Value, true
		} else {
			parts.answer, parts.answerValue = ar.Field, ar.Value
		}
	}
	if r.Choice != nil {
		parts.choice, parts.choiceValue, err = ToolChoice(rt, tools, *r.Choice)
		if err != nil {
			return nil, false, fmt.Errorf("adapters: NewBody: Request.Choice: %w", err)
		}
	}
	if len(tools) > 0 {
		v, err := rt.Tools(tools)
		if err != nil {
			return nil, false, fmt.Errorf("adapters: NewBody: Request.Tools: %w", err)
		}
		if parts.tools, err = AppendJSON(nil, v); err != nil {
			return nil, false, fmt.Errorf("adapters: NewBody: Request.Tools: %w", err)
		}
	} else if r.CacheTools {
		return nil, false, errors.New("adapters: NewBody: Request.CacheTools: no tools to put a cache breakpoint after")
	}
	if r.CacheSystem && r.System == "" {
		return nil, false, errors.New("adapters: NewBody: Request.CacheSystem: no system prompt to put a cache breakpoint after")
	}
	w := newObject()
	history, entry, err := p.body(p, w, &parts)
	if err != nil {
		return nil, false, fmt.Errorf("adapters: NewBody: %s: %w", p.display, err)
	}
	keys := make([]string, 0, len(r.Extra))
	for k := range r.Extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := r.Extra[k]
		switch {
		case !utf8.ValidString(k):
			return nil, false, fmt.Errorf("adapters: NewBody: Request.Extra[%q]: the key is not valid UTF-8", k)
		case k == history || w.has(k):
			return nil, false, fmt.Errorf("adapters: NewBody: Request.Extra[%q]: the body writes %q itself: set it through Request", k, k)
		case !json.Valid(v):
			return nil, false, fmt.Errorf("adapters: NewBody: Request.Extra[%q]: not valid JSON", k)
		}
		w.key(k)
		w.b = appendCompact(w.b, v)
	}
	w.key(history)
	w.b = append(w.b, '[')
	w.b = append(w.b, entry...)
	return w.b, entry != nil, nil
}

// appendCompact appends the valid JSON v without its insignificant
// spaces.
func appendCompact(dst []byte, v []byte) []byte {
	buf := bytes.NewBuffer(dst)
	_ = json.Compact(buf, v) // v is valid
	return buf.Bytes()
}

// Append encodes entries, history entries of b's Provider, after those
// b has: the cost is the new entries', whatever the history's length.
// On an error, b is unchanged.
func (b *Body) Append(entries ...any) error {
	if len(entries) == 0 {
		return nil
	}
	start := len(b.hist)
	hist, err := appendEntries(b.hist, entries)
	if err != nil {
		b.hist = hist[:start]
		return fmt.Errorf("adapters: Body.Append: %w", err)
	}
	// appendEntries wrote "[e1,...,en]": its "[" becomes the comma
	// before e1 (AppendTo leaves out the history's first comma), its "]"
	// goes.
	hist[start] = ','
	b.hist = hist[:len(hist)-1]
	b.n += len(entries)
	return nil
}

// Len returns the number of the history's entries in b (a system
// message among them, for the providers that send it as one).
func (b *Body) Len() int { return b.n }

// AppendTo appends b's whole body, its JSON, to dst.
func (b *Body) AppendTo(dst []byte) []byte {
	dst = slices.Grow(dst, len(b.head)+len(b.hist)+2)
	dst = append(dst, b.head...)
	hist := b.hist
	if b.first() == 0 && len(hist) > 0 {
		hist = hist[1:] // the array's first entry has no comma before it
	}
	dst = append(dst, hist...)
	return append(dst, ']', '}')
}

// Bytes returns b's whole body, its JSON, in a new slice.
func (b *Body) Bytes() []byte { return b.AppendTo(nil) }

// errNoCacheBreakpoints is a body hook's error for Request.CacheTools or
// CacheSystem where the provider has no breakpoints.
var errNoCacheBreakpoints = errors.New("Request.CacheTools, CacheSystem: no prompt-cache breakpoints (the provider caches a request's prefix by itself)")

// errNoParallelSwitch is a body hook's error for
// Request.ParallelToolCalls where the provider has no such switch.
var errNoParallelSwitch = errors.New("Request.ParallelToolCalls: no switch for parallel tool calls")

// systemMessage is the system prompt as the first message of the Chat
// Completions shape (OpenAI's, its servers', Mistral's, Ollama's); nil
// for none.
func systemMessage(text string) []byte {
	if text == "" {
		return nil
	}
	b := append([]byte(`{"role":"system","content":`), nil...)
	b = appendString(b, text)
	return append(b, '}')
}
