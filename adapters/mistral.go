package adapters

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// The Mistral home: Mistral's native chat API (POST /v1/chat/completions
// at api.mistral.ai). Its requests and replies have OpenAI Chat
// Completions' shape, read by the family's core (chat_reply.go,
// chat_stream.go) with Mistral's own rules: tool call ids of exactly nine
// characters of [a-zA-Z0-9], its error bodies, tool_choice "any" where
// OpenAI says "required", the tool's name on tool messages, and schemas
// with their references inlined.

var mistralSpec = &spec{
	name: NameMistral, funcName: "ToMistral", display: "Mistral",
	options: optMaxInlineDepth | optAnswer | optRepair, optionText: "MaxInlineDepth, AnswerTool, RepairArguments",
	toolName:   openAIToolName, // Mistral documents OpenAI's rule
	dialect:    func(config) *dialect { return &mistralDialect },
	inline:     func(config) bool { return true },
	rootUnions: true,
	tools:      func(p *spec, t []define.Tool, o []Option) (any, error) { return render(p, t, o, buildFunction) },
	build:      buildAs(buildFunction),
	parse:      ReplyLimits.ParseMistralReply,
	stream:     chatStreams(&mistralServer),
	results: func(p *spec, c []Call, r []define.Result, o []Option) ([]any, error) {
		cfg, err := resultsConfig(p, "MistralResults", o, false)
		if err != nil {
			return nil, err
		}
		msgs, attach, err := mistralResults(p, "MistralResults", c, r, cfg)
		if err != nil {
			return nil, err
		}
		out := make([]any, 0, len(msgs)+2)
		for _, m := range msgs {
			out = append(out, m)
		}
		if m := mistralMedia(attach); m != nil {
			out = append(out, m.Messages()...)
		}
		return out, nil
	},
	media:   &mediaSpec{place: mistralPlace, options: "MediaAsNote", callID: mistralCallID},
	shape:   chatShape, // OpenAI's home names the shape to the other parsers
	prompt:  userText,
	choice:  mistralChoice,
	answers: &answerSpec{strict: strictNone, format: mistralFormat, stop: chatAnswerStop},
	// ToMistral returns []OpenAITool: the OpenAI home appends it.
	body: mistralBody,
}

// NameMistral is Mistral's name, as [Provider.Name] and
// [ReplyError.Provider] spell it.
const NameMistral = "mistral"

// mistralDialect is what Mistral's server takes: JSON Schema, checked
// against its meta-schema, with local references inlined. Its schema
// compiler has failed to resolve "$ref" ("Did not find definition for
// reference", code 3300) and refused "$schema" and "$id" (a grammar that
// fails to compile); neither of those two is ever rendered.
var mistralDialect = func() dialect { d := plainDialect; d.name = "Mistral"; return d }()

// ToMistral renders tools as the "tools" array of a Mistral chat request:
// OpenAI Chat's shape, {"type":"function","function":{"name",
// "description","parameters"}}, never strict.
//
// The schema is the canonical JSON Schema with its references inlined:
// recursive and shared types appear to [MaxInlineDepth] levels, and the
// property that would recurse further is left out (the enclosing object's
// description says so; a required one is an error). Every other keyword
// is kept. Names must match ^[a-zA-Z0-9_-]{1,64}$ and be unique.
func ToMistral(tools []define.Tool, opts ...Option) ([]OpenAITool, error) {
	return render(mistralSpec, tools, opts, buildFunction)
}

// mistralFormat renders an answer's response_format, OpenAI's shape with
// "strict": true, as Mistral's custom structured outputs take it:
// {"type":"json_schema","json_schema":{"name","description","schema","strict":true}}.
func mistralFormat(p *spec, cfg config, d toolData) (string, json.RawMessage, error) {
	if err := p.checkToolName(d.name); err != nil {
		return "", nil, err
	}
	schema, err := renderJS(p, cfg, d.name, d.in, "answer")
	if err != nil {
		return "", nil, err
	}
	b, err := appendSchemaFormat([]byte(`{"type":"json_schema","json_schema":{`), d, schema, true, true)
	return "response_format", append(b, "}}"...), err
}

// ForMistral returns the [Provider] for Mistral's chat API. Tools is
// [ToMistral] with opts; Parse is [ParseMistralReply]; Results is
// [MistralResults], one entry per message; Prompt is
// {"role":"user","content":text}. The history is the request's messages.
func ForMistral(opts ...Option) Provider { return forSpec(mistralSpec, opts) }

// mistralServer is Mistral as the family's reader sees it.
var mistralServer = chatServer{name: NameMistral, what: "a Mistral chat completion",
	wireID: mistralCallID, errorBody: mistralErrorBody}

// mistralIDLen is the length of Mistral's tool call ids.
const mistralIDLen = 9

// mistralCallID is the id Mistral takes back for a call's id: the id
// itself when it is nine characters of [a-zA-Z0-9], else nine such
// characters drawn from an FNV-1a hash of it, the same for the same id
// (about 53 bits: two ids of one conversation share one with odds of one
// in 10^15 or less).
func mistralCallID(id string) string {
	if mistralIDOK(id) {
		return id
	}
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h = (h ^ uint64(id[i])) * 1099511628211
	}
	const digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	var b [mistralIDLen]byte
	for i := range b {
		b[i] = digits[h%62]
		h /= 62
	}
	return string(b[:])
}

// mistralIDOK reports whether id is one Mistral takes.
func mistralIDOK(id string) bool {
	if len(id) != mistralIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if !isAlnum(id[i]) {
			return false
		}
	}
	return true
}

var (
	mistralErrorKeys  = []string{"object", "message", "detail"}
	mistralDetailKeys = []string{"msg", "loc", "type"}
)

// mistralErrorBody reads Mistral's error bodies: {"object":"error",
// "message","type","param","code"} and the validation error {"detail":
// [{"type","loc","msg","input"}, ...]} (or a detail that is a string),
// whose first problem the error quotes.
func mistralErrorBody(p replyParser, data []byte) error {
	var e [3][]byte
	if err := p.fields(pointer(""), data, mistralErrorKeys, e[:]); err != nil {
		return err
	}
	switch {
	case string(e[0]) == `"error"`:
		return p.errorObject(pointer(""), data, &openAIErrorKeys)
	case e[2] == nil || e[2][0] == 'n' || e[1] != nil:
		return nil
	case e[2][0] == '"':
		msg, _ := jsonwire.Text(e[2])
		return p.providerError(pointer("/detail"), msg, "", "", "")
	case e[2][0] != '[':
		return nil
	}
	first := p.ix.First(e[2])
	if first == nil || first[0] != '{' {
		return p.providerError(pointer("/detail"), string(p.ix.Compact(e[2])), "", "", "")
	}
	var d [3][]byte
	if err := p.fields(pointer("/detail/0"), first, mistralDetailKeys, d[:]); err != nil {
		return err
	}
	// The first problem: its message, its type, and where in the request
	// (loc) as the error's param.
	msg, _ := jsonwire.Text(d[0])
	var where []string
	if d[1] != nil && d[1][0] == '[' {
		_ = p.ix.Elems(d[1], func(_ int, v []byte) error {
			if t, ok := jsonwire.Text(v); ok {
				where = append(where, t)
			} else {
				where = append(where, string(v))
			}
			return nil
		})
	}
	typ, _ := jsonwire.Text(d[2])
	return p.providerError(pointer("/detail"), msg, typ, "", strings.Join(where, "."))
}

// ParseMistralReply parses a Mistral chat reply. It is
// [ReplyLimits.ParseMistralReply] with the default limits.
func ParseMistralReply(reply []byte) (Turn, error) { return ReplyLimits{}.ParseMistralReply(reply) }

// ParseMistralReply parses a Mistral chat reply within l: the whole chat
// completion (its choices[0].message is read) or the assistant message
// alone, as [ReplyLimits.ParseOpenAIReply] reads OpenAI's.
//
// An error body, {"object":"error","message":...} or a validation error's
// {"detail":[...]}, is a [ReplyError] wrapping [ErrProviderError] that
// quotes it. Each call needs an id, its arguments text ("" and "null"
// mean {}), and a name; a call sent without a type is a function call, as
// Mistral sends them. A call id that is not nine characters of
// [a-zA-Z0-9] (a compatible server's, or another provider's) is mapped to
// nine such characters drawn from it, in Turn.Calls and the replay alike,
// so that [MistralResults] and the next request carry ids Mistral takes.
//
// Turn.Replay holds one [OpenAIAssistantMessage]; Turn.Text is the
// message's content; Turn.Stop is the choice's finish_reason.
func (l ReplyLimits) ParseMistralReply(reply []byte) (Turn, error) {
	return l.parseChat(&mistralServer, reply)
}

// ParseMistralStream reads a Mistral chat stream (a request with "stream":
// true) from body, the HTTP response body as sent: Server-Sent Events of
// OpenAI's chunk shape, to "data: [DONE]". The Turn is what
// [ParseMistralReply] gives for the same reply unstreamed; a stream is read
// as [ParseOpenAIStream] reads OpenAI's (see [Stream] to read calls as they
// complete), each call handed out with the id of its replay.
func ParseMistralStream(body io.Reader) (Turn, error) {
	return ReplyLimits{}.parseStream(mistralSpec, body)
}

// MistralToolMessage is the Mistral chat message that carries one call's
// result: {"role":"tool","tool_call_id":...,"name":...,"content":...}.
type MistralToolMessage struct {
	Role       string `json:"role"` // "tool"
	ToolCallID string `json:"tool_call_id"`
	Name       string `json:"name"` // the tool's name
	Content    string `json:"content"`
}

// size and appendJSON make the message a jsonAppender (Body.Append,
// AppendJSON), as json.Marshal writes it.
func (m MistralToolMessage) size() int {
	return 48 + len(m.Role) + len(m.ToolCallID) + len(m.Name) + len(m.Content)
}

func (m MistralToolMessage) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "role", m.Role)
	b = appendStringMember(b, "tool_call_id", m.ToolCallID)
	b = appendStringMember(b, "name", m.Name)
	b = appendStringMember(b, "content", m.Content)
	return append(b, '}')
}

// MistralResults renders the results of calls as Mistral "tool" messages,
// one per call in call order, each with its call's id as tool_call_id and
// its tool's name. Send them right after the assistant message that made
// the calls.
//
// A call id Mistral would refuse (not nine characters of [a-zA-Z0-9]: one
// made by another provider, or by this package for a call sent without
// one) is sent as nine such characters drawn from it, the same that
// [ParseMistralReply] puts in a replay for that id, so the results of any
// calls answer consistently. Mistral has no error flag, so an error
// result's content is its Output prefixed with "error: ". A tool message
// carries text only: text parts and text files follow the Output; images
// (and PDF files by URL, as document_url) go in a user message after the
// tool messages and an assistant message, so results with them are an
// error wrapping
// [ErrMediaMessage]: use [MistralResultsAndMedia] or [Provider.Results],
// or [MediaAsNote]. Mistral's chat takes no other file (its data, not a
// URL) and no audio: such a part is an error wrapping [ErrMedia] unless
// MediaAsNote is given. Results and calls must be one to one
// ([ErrResultCount]), and every call needs an id ([ErrCallID]).
func MistralResults(calls []Call, results []define.Result, opts ...Option) ([]MistralToolMessage, error) {
	cfg, err := resultsConfig(mistralSpec, "MistralResults", opts, true)
	if err != nil {
		return nil, err
	}
	msgs, attach, err := mistralResults(mistralSpec, "MistralResults", calls, results, cfg)
	if err == nil {
		err = followsError("MistralResults", "MistralResultsAndMedia", attach)
	}
	if err != nil {
		return nil, err
	}
	return msgs, nil
}

// MistralResultsAndMedia is [MistralResults] with the media of the
// results: the tool messages, then, when results carry images or PDF
// files by URL, the two messages to send right after them
// ([MistralMedia]). media is nil when no result has any.
func MistralResultsAndMedia(calls []Call, results []define.Result, opts ...Option) (msgs []MistralToolMessage, media *MistralMedia, err error) {
	cfg, err := resultsConfig(mistralSpec, "MistralResultsAndMedia", opts, true)
	if err != nil {
		return nil, nil, err
	}
	msgs, attach, err := mistralResults(mistralSpec, "MistralResultsAndMedia", calls, results, cfg)
	if err != nil {
		return nil, nil, err
	}
	return msgs, mistralMedia(attach), nil
}

// MistralMedia is what carries the media of results after Mistral's tool
// messages: an assistant message, since Mistral refuses a user message
// right after a tool message ("Unexpected role 'user' after role
// 'tool'"), then the user message with the media, in OpenAI Chat's
// shape, which Mistral shares (a text part naming each part's call, then
// an image_url part with the image's address or data: URL, or a
// document_url part).
type MistralMedia struct {
	Assistant MistralAssistantMessage
	User      OpenAIMediaMessage
}

// Messages returns the two messages, in order, as history entries.
func (m *MistralMedia) Messages() []any { return []any{m.Assistant, m.User} }

// MistralAssistantMessage is an assistant message of text.
type MistralAssistantMessage struct {
	Role    string `json:"role"` // "assistant"
	Content string `json:"content"`
}

// size and appendJSON make the message a jsonAppender (Body.Append,
// AppendJSON), as json.Marshal writes it.
func (m MistralAssistantMessage) size() int { return 24 + len(m.Role) + len(m.Content) }

func (m MistralAssistantMessage) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendStringMember(b, "role", m.Role)
	b = appendStringMember(b, "content", m.Content)
	return append(b, '}')
}

// MistralMediaBridge is the text of the assistant message between
// Mistral's tool messages and the user message that carries their media.
const MistralMediaBridge = "The tool results have attachments; I will read them in the next message."

// mistralMedia is the messages carrying attach, nil for none.
func mistralMedia(attach []attachment) *MistralMedia {
	u := chatMediaMessage(attach)
	if u == nil {
		return nil
	}
	return &MistralMedia{Assistant: MistralAssistantMessage{Role: "assistant", Content: MistralMediaBridge}, User: *u}
}

func mistralResults(p *spec, fn string, calls []Call, results []define.Result, cfg config) ([]MistralToolMessage, []attachment, error) {
	if err := checkResultPairs(fn, calls, results, true); err != nil {
		return nil, nil, err
	}
	msgs := make([]MistralToolMessage, len(calls))
	if !hasParts(results) {
		for i, c := range calls {
			msgs[i] = MistralToolMessage{Role: "tool", ToolCallID: mistralCallID(c.ID), Name: c.Name, Content: resultText(results[i])}
		}
		return msgs, nil, nil
	}
	attach, err := chatResults(p, fn, calls, results, cfg, func(i int, text string) {
		c := calls[i]
		msgs[i] = MistralToolMessage{Role: "tool", ToolCallID: mistralCallID(c.ID), Name: c.Name, Content: text}
	})
	if err != nil {
		return nil, nil, err
	}
	return msgs, attach, nil
}

// mistralPlace is where Mistral's chat API takes a part: text and text
// files in the tool message; images, and PDF files by URL (document_url),
// in the user message after the tool messages.
func mistralPlace(p *define.Part, _ config) (place, string) {
	switch {
	case p.Kind == define.PartText, isText(p):
		return asText, ""
	case p.Kind == define.PartImage:
		return afterResults, ""
	case p.Kind == define.PartFile && p.Data == nil && (p.MIMEType == "application/pdf" || p.MIMEType == ""):
		return afterResults, ""
	case p.Kind == define.PartFile:
		return nowhere, "takes a document in a chat message only by URL (document_url), as a PDF"
	}
	return nowhere, "takes no audio in a chat message"
}

// mistralChoice renders a Choice for ToolChoice: "auto", "any" or "none",
// or one function by name; Mistral has no subset of several tools.
func mistralChoice(c Choice) (string, json.RawMessage, error) {
	switch {
	case len(c.Allowed) == 0:
		return "tool_choice", json.RawMessage(`"` + [...]string{"auto", "any", "none"}[c.Mode] + `"`), nil
	case c.Mode == ChoiceRequired && len(c.Allowed) == 1:
		b := appendString([]byte(`{"type":"function","function":{"name":`), c.Allowed[0])
		return "tool_choice", append(b, "}}"...), nil
	}
	return "", nil, errNoSubset(c)
}
