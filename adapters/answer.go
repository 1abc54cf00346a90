package adapters

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/echo"
)

// Typed answers, a core file: the request piece that asks a provider's
// model for a define.Answer (ResponseFormat), and the answer read back from
// its reply (AnswerText, DecodeAnswer), re-asked (RetryAnswer) or watched
// as it streams (AnswerHooks). Each home says how through its spec's
// answers field: the field and JSON of its response format, which
// strictness it has, and which stop reasons cut or refuse an answer.

// answerSpec is how a provider asks for a typed answer and reads it.
type answerSpec struct {
	// strict is the strictness of the provider's response format.
	strict answerStrictness
	// dialect and inline, when set, replace the spec's for the answer's
	// schema (Bedrock's response format takes Anthropic's subset, its
	// tools do not).
	dialect func(cfg config) *dialect
	inline  func(cfg config) bool
	// format renders the request member that asks for the answer d (its
	// name, description and schema) with cfg: its field and its JSON. p
	// is the provider's answer spec (its funcName is "ResponseFormat").
	format func(p *spec, cfg config, d toolData) (field string, value json.RawMessage, err error)
	// stop says what the provider's stop reason means for an answer.
	stop func(stop string) answerStop
	// nullable: the strict dialect makes every optional property
	// required and nullable (OpenAI's), so that null stands for an
	// absent property in a strict answer (DecodeAnswer).
	nullable bool
	// toolOnly: the provider (a server profile) takes no JSON Schema
	// response format, so the answer is always asked for as a forced tool
	// call, as with AnswerTool.
	toolOnly bool
}

// answerStrictness is whether a provider's response format has a strict
// mode, and whether it is chosen.
type answerStrictness uint8

const (
	// strictNone: no strict mode (Gemini, Ollama, a server without
	// "strict"); the format is sent as the dialect has it.
	strictNone answerStrictness = iota
	// strictChosen: a "strict" flag (OpenAI, Responses, Mistral): strict
	// as the answer's pin, else the Provider's strictness option, else
	// strict where the schema fits the strict subset.
	strictChosen
	// strictAlways: the format is always constrained to a subset
	// (Anthropic's output_config, Bedrock's outputConfig): the schema is
	// rendered in it, or the format is an error.
	strictAlways
)

// answerStop is what a reply's stop reason says of its answer.
type answerStop uint8

const (
	stopAnswered answerStop = iota // the model ended its turn (or called tools)
	stopCut                        // the answer was cut by the output limit
	stopRefused                    // the model, or the provider's filter, refused
)

// Errors of [AnswerText] and [DecodeAnswer], for errors.Is on an
// [*AnswerError]; a cut answer is [ErrIncomplete].
var (
	// ErrRefused: the model refused to answer (OpenAI's refusal, a
	// "refusal" stop reason, a content filter's stop); the AnswerError
	// carries its words.
	ErrRefused = errors.New("the model refused to answer")
	// ErrToolCalls: the reply calls tools instead of answering; run them
	// and send their results, and the model answers later.
	ErrToolCalls = errors.New("the reply calls tools instead of answering")
	// ErrNoAnswer: the reply holds no answer: no text, or, when the
	// answer is asked for as a forced tool call, text instead of that call.
	ErrNoAnswer = errors.New("the reply holds no answer")
)

// AnswerError is a reply that holds no answer to decode: a refusal
// ([ErrRefused]), an answer cut off by the output limit ([ErrIncomplete]),
// tool calls instead of an answer ([ErrToolCalls]), or nothing
// ([ErrNoAnswer]).
type AnswerError struct {
	Provider string // the provider's name, as [Provider.Name] returns it
	Answer   string // the answer's name
	Stop     string // the reply's stop reason, as sent; "" when it had none
	// Words is what the model wrote instead of an answer: its refusal,
	// the text cut off, or its text where a tool call was due.
	Words string
	// Calls are the names of the tools the reply calls, in order
	// ([ErrToolCalls]).
	Calls []string
	Err   error // the sentinel
}

// maxEchoedWords is how much of the model's words an AnswerError's
// message quotes; Words keeps them whole.
const maxEchoedWords = 1000

// Error names the provider, the answer and what the reply held instead.
func (e *AnswerError) Error() string {
	var b strings.Builder
	what := e.Err.Error()
	if e.Err == ErrIncomplete { // its own text speaks of streams
		what = "the answer was cut off by the output limit"
	}
	fmt.Fprintf(&b, "adapters: %s reply: answer %q: %s", e.Provider, e.Answer, what)
	if e.Stop != "" {
		fmt.Fprintf(&b, " (stop reason %s)", msgQuote(e.Stop))
	}
	if len(e.Calls) > 0 {
		b.WriteString(": ")
		b.WriteString(echo.Cut(strings.Join(e.Calls, ", "), maxEchoedWords))
	}
	if e.Words != "" {
		b.WriteString(": ")
		b.WriteString(strings.TrimSpace(echo.Cut(e.Words, maxEchoedWords)))
	}
	return b.String()
}

// Unwrap returns the sentinel, for errors.Is.
func (e *AnswerError) Unwrap() error { return e.Err }

// AnswerRequest is what a request carries to ask a model for a typed
// answer: what [ResponseFormat] returns.
type AnswerRequest struct {
	// Field is the request's member that carries the format and Value
	// its JSON; with a forced tool call (Tool set), the provider's tool
	// choice field and the choice that forces a call of a tool.
	Field string
	Value json.RawMessage
	// Tool is the answer as a tool (define.AnswerFormat.Tool), set when
	// the answer is asked for as a forced tool call ([AnswerTool], or a
	// server profile without a JSON Schema format): send it with the
	// request's other tools (p.Tools(append(tools, req.Tool))). The zero
	// Tool otherwise.
	Tool define.Tool
}

// answerRendering is a response format kept on the answer's tool.
type answerRendering struct {
	field string
	value json.RawMessage
}

// ResponseFormat renders the request member that asks p's model for the
// typed answer a, and returns the member's name with its JSON:
//
//   - OpenAI Chat Completions, its compatible servers, Mistral:
//     "response_format": {"type":"json_schema","json_schema":{"name",
//     "description","schema","strict"}};
//   - OpenAI Responses: "text": {"format":{"type":"json_schema","name",
//     "description","schema","strict"}};
//   - Anthropic: "output_config": {"format":{"type":"json_schema",
//     "schema"}};
//   - Gemini: "generationConfig": {"responseMimeType":"application/json",
//     "responseSchema" or "responseJsonSchema"}, members to merge into the
//     request's own generationConfig;
//   - Bedrock: "outputConfig": {"textFormat":{"type":"json_schema",
//     "structure":{"jsonSchema":{"schema","name","description"}}}}, the
//     schema as a JSON string;
//   - Ollama: "format": the schema.
//
// The schema is the answer's rendered in the provider's dialect, as a
// tool's input is (docs/providers.md): OpenAI's Structured Outputs subset
// when strict, Gemini's OpenAPI subset or JSON Schema chosen per schema
// (GeminiJSONSchema and GeminiParameters force one), Anthropic's strict
// subset for Anthropic and Bedrock, whose formats are always constrained
// (recursive types inlined to MaxInlineDepth), Ollama's and Mistral's
// dialects with references inlined. Strictness, where the format has a
// flag: the answer's define.WithStrict pin, else p's Strict or
// StrictWherePossible option, else strict where the schema fits. What the
// provider would refuse is an [*Errors] here, before any request.
//
// With [AnswerTool] among p's options (or a [ServerProfile] with
// NoJSONSchema), the answer is asked for as a forced tool call instead:
// the result's Tool is the answer as a tool, to send among the request's
// tools, and Field and Value are p's tool choice that forces a tool call
// ([ToolChoice] with ChoiceRequired). Each rendering is made once per
// answer, provider and options, and kept on the answer. MCP has no model
// answer: ResponseFormat refuses it.
func ResponseFormat(p Provider, a define.AnyAnswer) (AnswerRequest, error) {
	rt, f, err := answerOf("ResponseFormat", p, a)
	if err != nil {
		return AnswerRequest{}, err
	}
	as := rt.spec.answers
	if rt.answersByTool() {
		field, value, err := rt.spec.choice(Choice{Mode: ChoiceRequired})
		if err != nil {
			return AnswerRequest{}, fmt.Errorf("adapters: ResponseFormat: %s: %w", rt.spec.display, err)
		}
		return AnswerRequest{Field: field, Value: value, Tool: f.Tool()}, nil
	}
	ds := answerSpecOf(rt.spec)
	cfg, err := newConfig(ds, rt.opts)
	if err != nil {
		return AnswerRequest{}, joinErrors([]*Error{err.(*Error)})
	}
	tool := f.Tool()
	strict, pinned := tool.StrictPin()
	switch as.strict {
	case strictNone:
		cfg.strict, cfg.strictAuto, pinned = false, false, false
	case strictAlways:
		cfg.strict, cfg.strictAuto, pinned = true, false, false
	case strictChosen:
		switch {
		case pinned:
			cfg.strict, cfg.strictAuto, pinned = strict, false, strict
		case !hasStrictOption(rt.opts):
			cfg.strict, cfg.strictAuto = false, true
		}
	}
	r, err := define.Memo(tool, memoKey{ds, cfg}, func() (answerRendering, error) {
		return buildStrictness(ds, cfg, answerData(f), pinned, func(p *spec, cfg config, d toolData) (answerRendering, error) {
			field, value, err := as.format(p, cfg, d)
			if err != nil {
				return answerRendering{}, err
			}
			return answerRendering{field, frozen(value)}, nil
		})
	})
	if err != nil {
		var l errorList
		l.add(err)
		for i, e := range l.Errs {
			if e.Tool == tool.Name() {
				cp := *e
				cp.answer = true
				l.Errs[i] = &cp
			}
		}
		return AnswerRequest{}, l.err()
	}
	return AnswerRequest{Field: r.field, Value: r.value}, nil
}

// answerOf checks the arguments of the function fn: a Provider that has
// model answers, and an answer that is not the zero one.
func answerOf(fn string, p Provider, a define.AnyAnswer) (roundTrip, define.AnswerFormat, error) {
	if p == nil {
		return roundTrip{}, define.AnswerFormat{}, fmt.Errorf("adapters: %s: no provider (nil)", fn)
	}
	var f define.AnswerFormat
	if a != nil {
		f = a.Format()
	}
	return formatOf(fn, p.impl(), f)
}

// formatOf is answerOf for an answer's format (DecodeAnswer gives its
// Answer[T]'s, which is not boxed as an AnyAnswer: no allocation).
func formatOf(fn string, rt roundTrip, f define.AnswerFormat) (roundTrip, define.AnswerFormat, error) {
	if rt.spec.answers == nil {
		return roundTrip{}, define.AnswerFormat{}, fmt.Errorf("adapters: %s: %s has no model answer to ask for or read (it serves tools to a client)", fn, rt.spec.display)
	}
	if f.IsZero() {
		return roundTrip{}, define.AnswerFormat{}, fmt.Errorf("adapters: %s: %w", fn, define.ErrZeroAnswer)
	}
	if rt.answersByTool() && rt.spec.choice == nil {
		return roundTrip{}, define.AnswerFormat{}, fmt.Errorf("adapters: %s: %s has no tool choice to force the answer's tool", fn, rt.spec.display)
	}
	return rt, f, nil
}

// answersByTool reports whether r asks for answers as a forced tool call.
func (r roundTrip) answersByTool() bool {
	if r.spec.answers != nil && r.spec.answers.toolOnly {
		return true
	}
	for _, o := range r.opts {
		if _, ok := o.(answerToolOption); ok {
			return true
		}
	}
	return false
}

// hasStrictOption reports whether opts set the strictness.
func hasStrictOption(opts []Option) bool {
	for _, o := range opts {
		if o != nil && o.kind() == optStrict {
			return true
		}
	}
	return false
}

// answerData is what a response format reads of an answer: its tool's
// (the tree a copy the rendering owns).
func answerData(f define.AnswerFormat) toolData { return dataOf(f.Tool()) }

// describedRoot is d with the answer's description as its schema's own
// when the schema has none, for the formats that have no description
// member (Anthropic, Gemini, Ollama): the model still reads it.
func describedRoot(d toolData) toolData {
	if d.in != nil && d.in.Description == "" && d.description != "" {
		in := *d.in
		in.Description = d.description
		d.in = &in
	}
	return d
}

// answerSpecs are the answer specs made so far, one per provider spec.
var answerSpecs sync.Map // *spec -> *spec

// answerSpecOf is the spec that renders p's response formats: p's, named
// ResponseFormat in errors, with the answer's dialect where it differs.
// One per p, so that a rendering's cache key is stable.
func answerSpecOf(p *spec) *spec {
	if s, ok := answerSpecs.Load(p); ok {
		return s.(*spec)
	}
	s := *p
	s.funcName = "ResponseFormat"
	if as := p.answers; as.dialect != nil {
		s.dialect, s.inline = as.dialect, as.inline
	}
	got, _ := answerSpecs.LoadOrStore(p, &s)
	return got.(*spec)
}

// AnswerTool makes a Provider ask for typed answers as a forced tool
// call rather than through its response format: [ResponseFormat] returns
// the answer as a tool, to send among the request's tools, and the tool
// choice that forces a tool call; [AnswerText] reads the answer from that
// call's arguments. It is the way to the models without a JSON Schema
// response format (Anthropic's before Claude Sonnet 4.5, servers with
// json_object only), and to an answer in the same turns as tool calls
// where a format and tools do not mix. It applies to the providers with a
// tool choice (not Ollama, not MCP); their Tools ignore it.
func AnswerTool() Option { return answerToolOption{} }

// answerToolOption is AnswerTool, read from the option list
// (answersByTool); it changes no rendering of tools.
type answerToolOption struct{}

func (answerToolOption) apply(*config)    {}
func (answerToolOption) kind() optionKind { return optAnswer }
func (answerToolOption) home() string     { return "" }
func (answerToolOption) String() string   { return "AnswerTool()" }

// AnswerText returns the text of the typed answer a in turn, a reply of
// p's provider parsed by p (Parse, ParseStream, or a [Stream]): the JSON
// that [define.Answer.Decode] reads. It is the reply's text, or, with
// [AnswerTool], the arguments of the call of the answer's tool (other
// calls of the same turn are the caller's to see in turn.Calls: the
// answer ends the turn). A reply without an answer is an [*AnswerError]:
//
//   - [ErrRefused], with the model's words: Turn.Refusal (OpenAI), or a
//     stop reason that refuses (Anthropic "refusal", Gemini "SAFETY" and
//     the other blocks, Bedrock "guardrail_intervened" and
//     "content_filtered", OpenAI "content_filter");
//   - [ErrIncomplete]: the answer was cut by the output limit (OpenAI and
//     Ollama "length", Responses "incomplete", Anthropic and Bedrock
//     "max_tokens", Gemini "MAX_TOKENS"), with the text cut;
//   - [ErrToolCalls]: the reply calls tools (other than the answer's)
//     instead: run them, send their results, and read the next reply;
//   - [ErrNoAnswer]: no text, or text where the answer's tool call was
//     due.
func AnswerText(p Provider, a define.AnyAnswer, turn Turn) ([]byte, error) {
	rt, f, err := answerOf("AnswerText", p, a)
	if err != nil {
		return nil, err
	}
	return rt.answerText(f, turn)
}

func (rt roundTrip) answerText(f define.AnswerFormat, turn Turn) ([]byte, error) {
	name := f.Name()
	fail := func(sentinel error, words string) error {
		e := &AnswerError{Provider: rt.spec.name, Answer: name, Stop: turn.Stop, Words: words, Err: sentinel}
		if sentinel == ErrToolCalls {
			e.Calls = make([]string, len(turn.Calls))
			for i, c := range turn.Calls {
				e.Calls[i] = c.Name
			}
		}
		return e
	}
	byTool := rt.answersByTool()
	if byTool {
		for _, c := range turn.Calls {
			if c.Name == name {
				return append([]byte(nil), c.Args...), nil
			}
		}
	}
	stop := rt.spec.answers.stop(turn.Stop)
	switch {
	case turn.Refusal != "":
		return nil, fail(ErrRefused, turn.Refusal)
	case stop == stopRefused:
		return nil, fail(ErrRefused, turn.Text)
	case stop == stopCut:
		return nil, fail(ErrIncomplete, turn.Text)
	case len(turn.Calls) > 0:
		return nil, fail(ErrToolCalls, "")
	case byTool:
		return nil, fail(ErrNoAnswer, turn.Text)
	case strings.TrimLeft(turn.Text, " \t\r\n") == "":
		return nil, fail(ErrNoAnswer, "")
	}
	return []byte(turn.Text), nil
}

// DecodeAnswer reads the typed answer a from turn, a reply of p's
// provider parsed by p: [AnswerText], then [define.Answer.Decode], or,
// where the answer's format (or its tool, with [AnswerTool]) may have
// been rendered in OpenAI's strict subset, which makes every optional
// property nullable, [define.Answer.DecodeStrictNulls], which reads such
// a null as the property's absence. A reply without an answer is
// AnswerText's [*AnswerError]; an answer that is not a T (not JSON, a
// missing field, a broken constraint) is the decode's *define.ArgErrors,
// naming every problem with its JSON Pointer, which [RetryAnswer] turns
// into the message that asks the model again.
func DecodeAnswer[T any](p Provider, a define.Answer[T], turn Turn) (T, error) {
	var zero T
	if p == nil {
		return zero, errors.New("adapters: DecodeAnswer: no provider (nil)")
	}
	rt, f, err := formatOf("DecodeAnswer", p.impl(), a.Format())
	if err != nil {
		return zero, err
	}
	text, err := rt.answerText(f, turn)
	if err != nil {
		return zero, err
	}
	var v T
	if rt.strictNulls(f) {
		v, err = a.DecodeStrictNulls(text)
	} else {
		v, err = a.Decode(text)
	}
	if err != nil {
		return zero, fmt.Errorf("adapters: %s reply: answer %q: %w", rt.spec.name, f.Name(), err)
	}
	return v, nil
}

// strictNulls reports whether the answer f, as r asks for it, may have
// been rendered strict in a dialect that makes optional properties
// nullable: its pin, else r's strictness option, else the default
// (strict where possible for a response format, non-strict for a tool).
func (r roundTrip) strictNulls(f define.AnswerFormat) bool {
	as := r.spec.answers
	if !as.nullable || as.strict != strictChosen {
		return false
	}
	if strict, pinned := f.StrictPin(); pinned {
		return strict
	}
	var set, on bool
	for _, o := range r.opts {
		if o != nil && o.kind() == optStrict {
			var c config
			o.apply(&c)
			set, on = true, c.strict || c.strictAuto
		}
	}
	if r.answersByTool() {
		return set && on
	}
	return !set || on
}

// RetryAnswer returns the history entries that ask p's model again for
// the answer a, after turn (replayed as it came: append turn.Replay, then
// these) held one that err, from [DecodeAnswer] or [AnswerText], refused:
//
//   - an answer that is not a T (*define.ArgErrors): with a JSON Schema
//     format, a user message quoting every problem with its path and
//     asking for the corrected JSON alone (p.Prompt's shape); with a
//     forced tool call ([AnswerTool]), the results of the turn's calls
//     (p.Results): the answer's call an error result quoting the
//     problems, as a tool's bad arguments are (Anthropic's tool_result
//     with is_error, Gemini's functionResponse error, ...), and any other
//     call of the turn an error result saying it was not run;
//   - no answer ([ErrNoAnswer]): a user message asking for the answer
//     (its JSON, or a call of its tool).
//
// A refusal, a cut answer and tool calls are not the model's mistakes to
// correct, and are an error here: a refusal is the model's decision, a
// cut answer needs a larger output limit, and tool calls need their
// results. How many times to ask again is the caller's choice.
func RetryAnswer(p Provider, a define.AnyAnswer, turn Turn, err error) ([]any, error) {
	rt, f, aerr := answerOf("RetryAnswer", p, a)
	if aerr != nil {
		return nil, aerr
	}
	name := f.Name()
	var args *define.ArgErrors
	switch {
	case err == nil:
		return nil, fmt.Errorf("adapters: RetryAnswer: no error: the answer was read")
	case errors.As(err, &args):
	case errors.Is(err, ErrNoAnswer):
		if rt.answersByTool() {
			return rt.spec.prompt("Call the tool " + name + " with your final answer as its arguments, matching its input schema."), nil
		}
		return rt.spec.prompt("Reply with your final answer " + name + " as JSON only, matching the JSON Schema of the response format."), nil
	case errors.Is(err, ErrRefused), errors.Is(err, ErrIncomplete), errors.Is(err, ErrToolCalls):
		return nil, fmt.Errorf("adapters: RetryAnswer: %w (not a mistake to correct: %s)", err, retryHint(err))
	default:
		return nil, fmt.Errorf("adapters: RetryAnswer: not an error of the answer: %w", err)
	}
	problems := "invalid arguments: " + oneLine(args.Error())
	if !rt.answersByTool() {
		return rt.spec.prompt("Your answer does not match the JSON Schema of the response format (" + name + "): " +
			strings.TrimPrefix(problems, "invalid arguments: ") + ". Reply again with the corrected answer as JSON only."), nil
	}
	results := make([]define.Result, len(turn.Calls))
	found := false
	for i, c := range turn.Calls {
		if c.Name == name && !found {
			found = true
			results[i] = define.Result{Output: problems + " (call " + name + " again with the corrected answer)", IsError: true, Err: args}
			continue
		}
		results[i] = define.Result{Output: "not run: this turn's call of " + name + " ended it; call " + c.Name + " again if you still need it", IsError: true}
	}
	if !found {
		return nil, fmt.Errorf("adapters: RetryAnswer: the turn has no call of the answer's tool %q to answer", name)
	}
	return rt.Results(turn.Calls, results)
}

// retryHint is what to do about an answer error that is no mistake.
func retryHint(err error) string {
	switch {
	case errors.Is(err, ErrRefused):
		return "the model refused; ask again in your own words if you want to"
	case errors.Is(err, ErrIncomplete):
		return "raise the output limit (max_tokens) and ask again"
	}
	return "run the calls (Toolkit.Run) and send their results"
}

// oneLine replaces line breaks, so that a message stays one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// AnswerHooks returns hooks that pass partial, as a streamed reply of p's
// provider arrives, the answer a's JSON text so far: after each piece of
// the reply's text with a JSON Schema format, or the arguments of the
// answer's tool call once complete with [AnswerTool] (the providers hand
// out a call when its arguments are whole). The slice is valid only
// during the call: copy it to keep it. It is for showing progress (a UI
// that parses partial JSON); the answer itself is decoded once, at the
// end, from the Turn ([DecodeAnswer]). hooks' own functions are called
// as before.
func AnswerHooks(p Provider, a define.AnyAnswer, partial func(text []byte), hooks StreamHooks) (StreamHooks, error) {
	rt, f, err := answerOf("AnswerHooks", p, a)
	if err != nil {
		return StreamHooks{}, err
	}
	if partial == nil {
		return hooks, nil
	}
	if rt.answersByTool() {
		name, next := f.Name(), hooks.Call
		hooks.Call = func(c Call) {
			if c.Name == name {
				partial(c.Args)
			}
			if next != nil {
				next(c)
			}
		}
		return hooks, nil
	}
	var buf []byte
	next := hooks.Text
	hooks.Text = func(d string) {
		buf = append(buf, d...)
		partial(buf)
		if next != nil {
			next(d)
		}
	}
	return hooks, nil
}

// appendSchemaFormat appends the members of a JSON Schema response format
// that OpenAI's shapes share (Chat's json_schema object, Responses'
// text.format, Mistral's): "name", "description" when there is one,
// "schema", and "strict" when withStrict.
func appendSchemaFormat(dst []byte, d toolData, schema json.RawMessage, withStrict, strict bool) ([]byte, error) {
	dst = appendString(append(dst, `"name":`...), d.name)
	if d.description != "" {
		dst = appendString(append(dst, `,"description":`...), d.description)
	}
	dst, err := appendRaw(append(dst, `,"schema":`...), schema)
	if withStrict {
		if strict {
			dst = append(dst, `,"strict":true`...)
		} else {
			dst = append(dst, `,"strict":false`...)
		}
	}
	return dst, err
}
