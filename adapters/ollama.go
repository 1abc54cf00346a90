package adapters

import (
	"encoding/json"
	"strings"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

// The Ollama home: Ollama's native chat API (POST /api/chat with
// "stream": false). Its tools array has OpenAI Chat's shape; its replies
// carry arguments as a JSON object and call ids only where the server
// sends them; results go back as "tool" messages naming the tool. Ollama's
// OpenAI-compatible endpoint (/v1/chat/completions) is the OpenAI home's.

var ollamaSpec = &spec{
	name: NameOllama, funcName: "ToOllama", display: "Ollama",
	options: optMaxInlineDepth, optionText: "MaxInlineDepth",
	// Ollama checks no rule; this is OpenAI's, so that the same tools
	// also render for Ollama's OpenAI-compatible endpoint.
	toolName: openAIToolName,
	dialect:  func(config) *dialect { return &ollamaDialect },
	inline:   func(config) bool { return true },
	tools:    func(p *spec, t []define.Tool, o []Option) (any, error) { return render(p, t, o, buildFunction) },
	build:    buildAs(buildFunction),
	parse:    ReplyLimits.ParseOllamaReply,
	results: func(p *spec, c []Call, r []define.Result, o []Option) ([]any, error) {
		cfg, err := resultsConfig(p, "OllamaResults", o, false)
		if err != nil {
			return nil, err
		}
		msgs, attach, err := ollamaResults(p, "OllamaResults", c, r, cfg)
		if err != nil {
			return nil, err
		}
		out := make([]any, 0, len(msgs)+1)
		for _, m := range msgs {
			out = append(out, m)
		}
		if m := ollamaMediaMessage(attach); m != nil {
			out = append(out, *m)
		}
		return out, nil
	},
	media: &mediaSpec{place: ollamaPlace, options: "MediaAsNote"},
	looks: func(member func(string) []byte) string {
		if member("message") != nil && member("done") != nil {
			return "an Ollama /api/chat reply"
		}
		return ""
	},
	prompt: userText,
	stream: ollamaStreamSpec,
	answers: &answerSpec{strict: strictNone, format: ollamaFormat, stop: func(stop string) answerStop {
		if stop == "length" {
			return stopCut
		}
		return stopAnswered
	}},
	// ToOllama returns []OpenAITool: the OpenAI home appends it.
	body: ollamaBody,
}

// NameOllama is the Ollama provider's name, as [Provider.Name] and
// [ReplyError.Provider] spell it.
const NameOllama = "ollama"

// ollamaDialect is what Ollama's server keeps of a tool schema as it
// decodes the request into its own types: type (a string or a list),
// description, enum, properties, items and anyOf at every level, and
// required and $defs at the root; every other keyword is dropped without
// an error. So the constraints move into the description, where the model
// still reads them; references are inlined (a property that is only a
// $ref would arrive empty), and oneOf and allOf are rewritten as Ollama
// keeps only anyOf. The decoder checks every constraint at call time all
// the same.
var ollamaDialect = dialect{
	name: "Ollama", strict: true,
	numbers: numbersDescribed, minItems: 0, openMaps: true,
	format:  func(*schema.Schema) bool { return false },
	pattern: func(string) bool { return false },
}

// ollamaFormat renders an answer's format member: the schema itself, in
// the form Ollama keeps (constraints in descriptions, references
// inlined); the answer's description becomes the schema's when it has
// none.
func ollamaFormat(p *spec, cfg config, d toolData) (string, json.RawMessage, error) {
	d = describedRoot(d)
	js, err := renderJS(p, cfg, d.name, d.in, "answer")
	return "format", js, err
}

// ToOllama renders tools as the "tools" array of an Ollama /api/chat
// request: OpenAI Chat's shape, {"type":"function","function":{"name",
// "description","parameters"}}, never strict.
//
// The schema is the canonical JSON Schema in the form Ollama's server
// keeps (see the Ollama section of docs/providers.md): numeric bounds,
// lengths, formats, patterns, defaults and item counts are appended to the
// description; recursive and shared types are inlined to [MaxInlineDepth]
// levels; the root must be an object without anyOf, oneOf or allOf.
// Names must match ^[a-zA-Z0-9_-]{1,64}$ (Ollama checks none; this is
// OpenAI's rule, so the tools also suit Ollama's OpenAI-compatible
// endpoint), and must be unique.
func ToOllama(tools []define.Tool, opts ...Option) ([]OpenAITool, error) {
	return render(ollamaSpec, tools, opts, buildFunction)
}

// ForOllama returns the [Provider] for Ollama's native chat API. Tools is
// [ToOllama] with opts; Parse is [ParseOllamaReply]; Results is
// [OllamaResults], one entry per message; Prompt is
// {"role":"user","content":text}. The history is the request's messages.
func ForOllama(opts ...Option) Provider { return forSpec(ollamaSpec, opts) }

// OllamaMessage is the assistant message of an Ollama chat reply, to
// replay in the next request's messages: its content, its tool calls with
// their arguments as sent, and its other members (thinking, images, a
// server's own fields) byte for byte in Extra.
type OllamaMessage struct {
	Role      string           `json:"role"` // "assistant"
	Content   string           `json:"content"`
	ToolCalls []OllamaToolCall `json:"tool_calls,omitempty"` // omitted when there are none

	// Extra is a JSON object of the message's other members as sent
	// ("thinking", ...), in order, written after the members above. Nil
	// when there are none; it must not repeat role, content or
	// tool_calls.
	Extra json.RawMessage `json:"-"`
}

// MarshalJSON writes role, content and tool_calls, then Extra's members.
func (m OllamaMessage) MarshalJSON() ([]byte, error) {
	type plain OllamaMessage
	return marshalWithExtra(plain(m), m.Extra)
}

// size and appendEntry make the message an entryWriter (Body.Append,
// AppendJSON): written by hand, byte for byte as json.Marshal writes it,
// unless it or a call has Extra members or arguments that are not plain.
func (m OllamaMessage) size() int {
	n := 40 + len(m.Role) + len(m.Content)
	for i := range m.ToolCalls {
		c := &m.ToolCalls[i]
		n += 48 + len(c.ID) + len(c.Function.Name) + len(c.Function.Arguments)
	}
	return n
}

func (m OllamaMessage) appendEntry(b []byte) ([]byte, bool) {
	if len(m.Extra) > 0 {
		return b, false
	}
	start := len(b)
	b = append(b, '{')
	b = appendStringMember(b, "role", m.Role)
	b = appendStringMember(b, "content", m.Content)
	if len(m.ToolCalls) > 0 {
		b = append(appendMember(b, "tool_calls"), '[')
		for i := range m.ToolCalls {
			c := &m.ToolCalls[i]
			if len(c.Extra) > 0 || len(c.Function.Extra) > 0 {
				return b[:start], false
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			if c.ID != "" {
				b = appendStringMember(b, "id", c.ID)
			}
			b = append(appendMember(b, "function"), '{')
			b = appendStringMember(b, "name", c.Function.Name)
			var ok bool
			if b, ok = appendPlainRaw(appendMember(b, "arguments"), c.Function.Arguments); !ok {
				return b[:start], false
			}
			b = append(b, '}', '}')
		}
		b = append(b, ']')
	}
	return append(b, '}'), true
}

// OllamaToolCall is one entry of an Ollama message's tool_calls.
type OllamaToolCall struct {
	ID       string             `json:"id,omitempty"` // as sent; "" where the server sent none (older servers send none)
	Function OllamaFunctionCall `json:"function"`

	// Extra is a JSON object of the call's other members as sent ("type",
	// ...), written after the members above. Nil when there are none; it
	// must not repeat id or function.
	Extra json.RawMessage `json:"-"`
}

// MarshalJSON writes id and function, then Extra's members.
func (c OllamaToolCall) MarshalJSON() ([]byte, error) {
	type plain OllamaToolCall
	return marshalWithExtra(plain(c), c.Extra)
}

// OllamaFunctionCall is the function of an [OllamaToolCall].
type OllamaFunctionCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"` // a JSON object, as sent ({} when the model sent none)

	// Extra is a JSON object of the function's other members as sent
	// ("index", ...), written after the members above. Nil when there are
	// none; it must not repeat name or arguments.
	Extra json.RawMessage `json:"-"`
}

// MarshalJSON writes name and arguments, then Extra's members.
func (f OllamaFunctionCall) MarshalJSON() ([]byte, error) {
	type plain OllamaFunctionCall
	return marshalWithExtra(plain(f), f.Extra)
}

// OllamaToolMessage is the Ollama chat message that carries one call's
// result: {"role":"tool","tool_name":...,"content":...}, with the call's
// id as tool_call_id when the server sent one.
type OllamaToolMessage struct {
	Role       string `json:"role"` // "tool"
	ToolName   string `json:"tool_name"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	Content    string `json:"content"`
}

// size and appendJSON make the message a jsonAppender (Body.Append,
// AppendJSON), as json.Marshal writes it.
func (m OllamaToolMessage) size() int {
	return 48 + len(m.Role) + len(m.ToolName) + len(m.ToolCallID) + len(m.Content)
}

func (m OllamaToolMessage) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "role", m.Role)
	b = appendStringMember(b, "tool_name", m.ToolName)
	if m.ToolCallID != "" {
		b = appendStringMember(b, "tool_call_id", m.ToolCallID)
	}
	b = appendStringMember(b, "content", m.Content)
	return append(b, '}')
}

var (
	ollamaReplyKeys    = []string{"message", "done", "done_reason", "error"}
	ollamaMessageKeys  = []string{"role", "content", "tool_calls"}
	ollamaToolCallKeys = []string{"id", "function"}
)

// ParseOllamaReply parses the reply of an Ollama /api/chat request sent
// with "stream": false. It is [ReplyLimits.ParseOllamaReply] with the
// default limits.
func ParseOllamaReply(reply []byte) (Turn, error) { return ReplyLimits{}.ParseOllamaReply(reply) }

// ParseOllamaReply parses an Ollama /api/chat reply within l.
//
// An error body ({"error":"model \"x\" not found"}) is a [ReplyError]
// wrapping [ErrProviderError] that quotes it. A reply without "message" is
// not Ollama's shape, and one with "done": false is one chunk of a stream,
// not a whole reply; both are errors wrapping [ErrReplyShape].
//
// Each tool call becomes a [Call]: its arguments are the JSON object the
// model sent (absent or null mean {}; anything else is an error wrapping
// [ErrArguments]); its ID is the call's id where the server sent one and
// "" where it did not (results are then paired by name and order).
//
// Turn.Replay holds one [OllamaMessage]; Turn.Text is the message's
// content; Turn.Stop is done_reason.
func (l ReplyLimits) ParseOllamaReply(reply []byte) (Turn, error) {
	p := l.parser(NameOllama)
	p.lazyCompact = true // see replyParser
	data, err := p.whole(reply)
	defer p.release()
	if err != nil {
		return Turn{}, err
	}
	var top [4 + 6][]byte // ollamaReplyKeys, then ollamaUsageKeys
	if err := p.fields(pointer(""), data, ollamaReplyUsageKeys, top[:]); err != nil {
		return Turn{}, err
	}
	if e := top[3]; e != nil && e[0] != 'n' {
		msg, err := p.text(pointer("/error"), e)
		if err != nil {
			return Turn{}, err
		}
		return Turn{}, p.providerError(pointer("/error"), msg, "", "", "")
	}
	if top[0] == nil {
		return Turn{}, p.notShape(pointer(""), data, `no "message" and no "error": not an Ollama /api/chat reply`)
	}
	if d := top[1]; d != nil && d[0] == 'f' {
		return Turn{}, p.fail(pointer("/done"), ErrReplyShape, "done is false: this is one chunk of a streamed reply (send \"stream\": false for a whole reply)")
	}
	var turn Turn
	if turn.Stop, err = p.text(pointer("/done_reason"), top[2]); err != nil {
		return Turn{}, err
	}
	if turn.Usage, err = p.ollamaUsage((*[6][]byte)(top[4:]), top[1]); err != nil {
		return Turn{}, err
	}
	path := pointer("/message")
	var m [3][]byte
	if err := p.fields(path, top[0], ollamaMessageKeys, m[:]); err != nil {
		return Turn{}, err
	}
	role, err := p.text(path.key("/role"), m[0])
	if err != nil {
		return Turn{}, err
	}
	if role != "assistant" {
		return Turn{}, p.fail(path.key("/role"), ErrReplyShape, "role is %s, not assistant", msgQuote(role))
	}
	if turn.Text, err = p.text(path.key("/content"), m[1]); err != nil {
		return Turn{}, err
	}
	if err := p.array(path.key("/tool_calls"), m[2]); err != nil {
		return Turn{}, err
	}
	replay := OllamaMessage{Role: "assistant", Content: turn.Text, Extra: p.ix.ExtraIn(p.blocks, top[0], ollamaMessageKeys, nil, nil)}
	if m[2] != nil && m[2][0] == '[' {
		if err := p.ollamaToolCalls(pointer("/message/tool_calls"), m[2], &turn, &replay); err != nil {
			return Turn{}, err
		}
	}
	turn.Replay = []any{replay}
	return turn.noEmptyCalls(), nil
}

func (p replyParser) ollamaToolCalls(path loc, list []byte, turn *Turn, replay *OllamaMessage) error {
	n := p.ix.Count(list, "", "")
	turn.Calls, replay.ToolCalls = sized[Call](n), sized[OllamaToolCall](n)
	var ids callIDs
	return p.ix.Elems(list, func(i int, raw []byte) error {
		at := path.index(i)
		var tc [2][]byte
		callOthers, err := p.fieldsOthers(at, raw, ollamaToolCallKeys, tc[:])
		if err != nil {
			return err
		}
		id, err := p.text(at.key("/id"), tc[0])
		if err != nil {
			return err
		}
		if err := p.uniqueID(&ids, at.key("/id"), id); err != nil {
			return err
		}
		name, rawArgs, fnOthers, err := p.function(at, tc[1])
		if err != nil {
			return err
		}
		args, err := p.argsObject(at.key("/function/arguments"), rawArgs)
		if err != nil {
			return err
		}
		turn.Calls = append(turn.Calls, Call{ID: id, Name: name, Args: args})
		call := OllamaToolCall{ID: id, Function: OllamaFunctionCall{Name: name, Arguments: args}}
		if fnOthers > 0 {
			call.Function.Extra = p.ix.ExtraIn(p.blocks, tc[1], functionKeys, nil, nil)
		}
		if callOthers > 0 {
			call.Extra = p.ix.ExtraIn(p.blocks, raw, ollamaToolCallKeys, nil, nil)
		}
		replay.ToolCalls = append(replay.ToolCalls, call)
		return nil
	})
}

// OllamaResults renders the results of calls as Ollama "tool" messages,
// one per call in call order, each naming its tool (tool_name) and, when
// the server sent call ids, echoing the call's (tool_call_id). Send them
// right after the assistant message that made the calls.
//
// Ollama has no error flag, so an error result's content is its Output
// prefixed with "error: ". Text parts and text files follow the Output;
// images go in a user message after the tool messages (see
// [OllamaResultsAndMedia]: the server takes images on any message, but
// some models' prompt renderers drop those of a tool message), so results
// with images are an error wrapping [ErrMediaMessage] here unless
// [MediaAsNote] is given. Ollama takes images as data only, and no other
// file and no audio: such a part is an error wrapping [ErrMedia] unless
// MediaAsNote is given. Results and calls must be one to one
// ([ErrResultCount]); a call may have no id, since Ollama pairs results
// with calls by name and order.
func OllamaResults(calls []Call, results []define.Result, opts ...Option) ([]OllamaToolMessage, error) {
	cfg, err := resultsConfig(ollamaSpec, "OllamaResults", opts, true)
	if err != nil {
		return nil, err
	}
	msgs, attach, err := ollamaResults(ollamaSpec, "OllamaResults", calls, results, cfg)
	if err == nil {
		err = followsError("OllamaResults", "OllamaResultsAndMedia", attach)
	}
	if err != nil {
		return nil, err
	}
	return msgs, nil
}

var (
	ollamaUsageKeys = []string{"prompt_eval_count", "eval_count",
		"total_duration", "load_duration", "prompt_eval_duration", "eval_duration"}
	ollamaUsagePaths = [...]string{"/prompt_eval_count", "/eval_count"}
	// ollamaUsageMembers are the keys of ollamaUsageKeys, quoted, with
	// their colon.
	ollamaUsageMembers = [...]string{`"prompt_eval_count":`, `"eval_count":`,
		`"total_duration":`, `"load_duration":`, `"prompt_eval_duration":`, `"eval_duration":`}
	// ollamaReplyUsageKeys are the members of a reply ParseOllamaReply
	// reads: ollamaReplyKeys, then ollamaUsageKeys.
	ollamaReplyUsageKeys = append(append([]string(nil), ollamaReplyKeys...), ollamaUsageKeys...)
)

// ollamaUsage reads the counts and durations of a reply f (the values of
// ollamaUsageKeys, nil when absent), whose done member is done: Input is
// prompt_eval_count, the prompt tokens the model evaluated (Ollama does
// not count those it reused from its cache, nor say how many: CacheRead
// is unknown), Output is eval_count. Ollama's JSON leaves out a count
// that is zero, so in a reply with "done": true an absent count is 0. Raw
// is an object of the counts and durations (nanoseconds) the reply has,
// in the order of ollamaUsageKeys.
func (p replyParser) ollamaUsage(f *[6][]byte, done []byte) (Usage, error) {
	var u Usage
	for i, bit := range [...]UsageCounts{UsageInput, UsageOutput} {
		t, err := p.tokenCount(pointer(ollamaUsagePaths[i]), f[i])
		if err != nil {
			return u, err
		}
		if f[i] == nil && string(done) == "true" {
			t.ok = true // a zero count, left out
		}
		u.set(bit, t)
	}
	n := 1 // the object's size: its braces, each member and a comma but the last
	for i, v := range f {
		if v != nil {
			n += len(ollamaUsageMembers[i]) + 1 + len(v)
			if !scalar(v) {
				n -= p.ix.Spaces(v)
			}
		}
	}
	switch {
	case n == 1:
	case n > MaxUsageBytes:
		u.RawOmitted = n
	default:
		b := append(p.blocks.Room(n), '{')
		for i, v := range f {
			if v == nil {
				continue
			}
			if len(b) > 1 {
				b = append(b, ',')
			}
			b = append(b, ollamaUsageMembers[i]...)
			if scalar(v) {
				b = append(b, v...)
			} else {
				b = p.ix.AppendCompact(b, v)
			}
		}
		u.Raw = p.blocks.Take(append(b, '}'))
	}
	return u, nil
}

// scalar reports whether the checked JSON value v is a number, true,
// false or null: a value without space.
func scalar(v []byte) bool { return v[0] != '"' && v[0] != '{' && v[0] != '[' }

// OllamaMediaMessage is the user message that carries, after the tool
// messages, the images of their results: its content names each image's
// call, one a line, in the order of images (base64 in JSON).
type OllamaMediaMessage struct {
	Role    string   `json:"role"` // "user"
	Content string   `json:"content"`
	Images  [][]byte `json:"images"`
}

// size and appendJSON make the message a jsonAppender (AppendJSON).
func (m OllamaMediaMessage) size() int {
	n := 48 + len(m.Role) + len(m.Content)
	for _, im := range m.Images {
		n += 1 + base64Size(len(im))
	}
	return n
}

func (m OllamaMediaMessage) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "role", m.Role)
	b = appendStringMember(b, "content", m.Content)
	b = appendArray(appendMember(b, "images"), m.Images, func(b []byte, im *[]byte) []byte { return appendBytes(b, *im) })
	return append(b, '}')
}

// OllamaResultsAndMedia is [OllamaResults] with the images of the
// results: the tool messages, then, when results carry images, the user
// message to send right after them. media is nil when no result has any.
func OllamaResultsAndMedia(calls []Call, results []define.Result, opts ...Option) (msgs []OllamaToolMessage, media *OllamaMediaMessage, err error) {
	cfg, err := resultsConfig(ollamaSpec, "OllamaResultsAndMedia", opts, true)
	if err != nil {
		return nil, nil, err
	}
	msgs, attach, err := ollamaResults(ollamaSpec, "OllamaResultsAndMedia", calls, results, cfg)
	if err != nil {
		return nil, nil, err
	}
	return msgs, ollamaMediaMessage(attach), nil
}

func ollamaResults(p *spec, fn string, calls []Call, results []define.Result, cfg config) ([]OllamaToolMessage, []attachment, error) {
	if err := checkResultPairs(fn, calls, results, false); err != nil {
		return nil, nil, err
	}
	msgs := make([]OllamaToolMessage, len(calls))
	if !hasParts(results) {
		for i, c := range calls {
			msgs[i] = OllamaToolMessage{Role: "tool", ToolName: c.Name, ToolCallID: c.ID, Content: resultText(results[i])}
		}
		return msgs, nil, nil
	}
	m := newMedia(p, fn, cfg)
	for i, c := range calls {
		pieces, err := m.pieces(i, &calls[i], &results[i])
		if err != nil {
			return nil, nil, err
		}
		msgs[i] = OllamaToolMessage{Role: "tool", ToolName: c.Name, ToolCallID: c.ID, Content: joinText(resultText(results[i]), pieces)}
	}
	return msgs, m.attach, nil
}

// ollamaMediaMessage is the user message carrying attach, nil for none.
func ollamaMediaMessage(attach []attachment) *OllamaMediaMessage {
	if len(attach) == 0 {
		return nil
	}
	msg := &OllamaMediaMessage{Role: "user", Images: make([][]byte, len(attach))}
	labels := make([]string, len(attach))
	for i, a := range attach {
		labels[i] = a.label
		msg.Images[i] = a.part.Data
	}
	msg.Content = strings.Join(labels, "\n")
	return msg
}

// ollamaPlace is where Ollama takes a part: text and text files in the
// tool message, images (their data) in the user message after the tool
// messages.
func ollamaPlace(p *define.Part, _ config) (place, string) {
	switch {
	case p.Kind == define.PartText, isText(p):
		return asText, ""
	case p.Kind == define.PartImage && p.Data != nil:
		return afterResults, ""
	case p.Kind == define.PartImage:
		return nowhere, "takes images as data only (base64 in images), not by URL"
	case p.Kind == define.PartFile:
		return nowhere, "takes no files but text files"
	}
	return nowhere, "takes no audio"
}
