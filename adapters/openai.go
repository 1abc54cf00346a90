package adapters

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus/define"
)

// The OpenAI Chat Completions home: this file (tools, replies, streams and
// results, read by the family's core in chat_reply.go and chat_stream.go)
// and openai_servers.go (the OpenAI-compatible servers it speaks to, each a
// ServerProfile: Groq, xAI, DeepSeek, OpenRouter, vLLM, ...).

var openAISpec = &spec{
	name: NameOpenAI, funcName: "ToOpenAI", display: "OpenAI",
	options: optStrict | optMode | optAnswer | optRepair, optionText: "Strict, StrictWherePossible, Server, AnswerTool, RepairArguments",
	toolName: openAIToolName,
	maxTools: maxOpenAITools, maxDescription: maxOpenAIDescription,
	dialect: openAIDialect, schemaLimits: strictLimits, rootUnions: true,
	tools: func(p *spec, t []define.Tool, o []Option) (any, error) {
		if _, err := serverOf(o); err != nil {
			return nil, joinErrors([]*Error{err.(*Error)})
		}
		return render(p, t, o, buildOpenAI)
	},
	build:  buildAs(buildOpenAI),
	parse:  ReplyLimits.ParseOpenAIReply,
	stream: chatStreams(&openAIServer),
	results: func(p *spec, c []Call, r []define.Result, o []Option) ([]any, error) {
		cfg, err := resultsConfig(p, "OpenAIResults", o, false)
		if err != nil {
			return nil, err
		}
		msgs, attach, err := openAIResults(p, "OpenAIResults", c, r, cfg)
		return chatEntries(msgs, chatMediaMessage(attach), err)
	},
	media: &mediaSpec{place: openAIPlace, options: "MediaAsNote"},
	looks: func(member func(string) []byte) string {
		if member("choices") != nil {
			return "an OpenAI chat completion"
		}
		return ""
	},
	shape:      chatShape,
	prompt:     userText,
	appendJSON: appendAs(sizeOpenAI, appendOpenAI),
	choice:     openAIChoice,
	answers:    &openAIAnswers,
	body:       openAIBody,
}

// openAIAnswers: response_format json_schema, with a strict flag; the
// compatible servers' profiles may take no strict or no JSON Schema
// (serverSpec).
var openAIAnswers = answerSpec{strict: strictChosen, nullable: true, format: openAIFormat, stop: chatAnswerStop}

// openAIFormat renders an answer's response_format:
// {"type":"json_schema","json_schema":{"name","description","schema","strict"}}.
func openAIFormat(p *spec, cfg config, d toolData) (string, json.RawMessage, error) {
	if err := p.checkToolName(d.name); err != nil {
		return "", nil, err
	}
	schema, err := renderJS(p, cfg, d.name, d.in, "answer")
	if err != nil {
		return "", nil, err
	}
	b, err := appendSchemaFormat([]byte(`{"type":"json_schema","json_schema":{`), d, schema,
		p.answers.strict == strictChosen, cfg.strict)
	return "response_format", append(b, "}}"...), err
}

// ToOpenAI renders tools as an OpenAI Chat Completions "tools" array.
//
// Without options the schema is the canonical JSON Schema. A strict tool
// ([Strict](true) for every tool, [StrictWherePossible] for each tool that
// fits, or a tool pinned with define.WithStrict(true)) has "strict": true
// and its parameters rewritten into the Structured Outputs subset: every
// object gets "additionalProperties": false, every property is listed in
// "required" (optional ones become nullable), oneOf becomes anyOf, and
// keywords the subset lacks (minLength, default, ...) move into the
// description. What the subset cannot express (an open map, an untyped
// value) is an [*Error] wrapping [ErrUnsupported], and a strict schema over
// the Structured Outputs size limits (5000 properties, 10 levels of
// nesting, 1000 enum values, 15,000 characters for an enum of more than 250
// strings, 120,000 characters of names and values) one wrapping
// [ErrLimit]; under StrictWherePossible such a tool is sent non-strict
// instead. docs/providers.md has the rules and their sources.
//
// Errors are reported before any request: a name outside
// ^[a-zA-Z0-9_-]{1,64}$, a description over 1024 characters, more than 128
// tools, duplicate names. Each tool is rendered once per option set and
// cached on the tool.
func ToOpenAI(tools []define.Tool, opts ...Option) ([]OpenAITool, error) {
	srv, err := serverOf(opts)
	if err != nil {
		return nil, joinErrors([]*Error{err.(*Error)})
	}
	return render(serverSpec(srv), tools, opts, buildOpenAI)
}

func buildOpenAI(p *spec, cfg config, d toolData) (OpenAITool, error) {
	params, err := openAIParams(p, cfg, d)
	if err != nil {
		return OpenAITool{}, err
	}
	return OpenAITool{Type: "function", Function: OpenAIFunction{
		Name: d.name, Description: d.description, Parameters: params, Strict: cfg.strict,
	}}, nil
}

// ForOpenAI returns the [Provider] for OpenAI Chat Completions, or, with a
// [Server] option, for the OpenAI-compatible server its [ServerProfile]
// describes (its name, its requests, its replies' deviations). Tools is
// [ToOpenAI] with opts; Parse is [ParseOpenAIReply] (with the profile's
// deviations); Results is [OpenAIResults], one entry per message; Prompt
// is {"role":"user","content":text}.
func ForOpenAI(opts ...Option) Provider {
	srv, _ := serverOf(opts) // two Server options: the first; Tools reports the conflict
	return forSpec(serverSpec(srv), opts)
}

// NameOpenAI is OpenAI Chat's name, as [Provider.Name] and
// [ReplyError.Provider] spell it.
const NameOpenAI = "openai"

// openAIChoice renders a Choice for ToolChoice.
func openAIChoice(c Choice) (string, json.RawMessage, error) {
	switch {
	case len(c.Allowed) == 0:
		return "tool_choice", json.RawMessage(`"` + [...]string{"auto", "required", "none"}[c.Mode] + `"`), nil
	case c.Mode == ChoiceRequired && len(c.Allowed) == 1:
		b := appendString([]byte(`{"type":"function","function":{"name":`), c.Allowed[0])
		return "tool_choice", append(b, "}}"...), nil
	}
	b := []byte(`{"type":"allowed_tools","allowed_tools":{"mode":"` + [...]string{"auto", "required"}[c.Mode] + `","tools":`)
	b = choiceNames(b, c.Allowed, `{"type":"function","function":{"name":`, `}}`)
	return "tool_choice", append(b, "}}"...), nil
}

// ParseOpenAIReply parses an OpenAI Chat Completions reply: the whole chat
// completion (its choices[0].message is read) or the assistant message
// alone. It is [ReplyLimits.ParseOpenAIReply] with the default limits; a
// compatible server's replies are read by ForOpenAI([Server](profile)).Parse,
// with the deviations its profile declares.
func ParseOpenAIReply(reply []byte) (Turn, error) { return ReplyLimits{}.ParseOpenAIReply(reply) }

// ParseOpenAIReply parses an OpenAI Chat Completions reply within l.
//
// An error body ({"error":{"message","type","param","code"}}) is a
// [ReplyError] wrapping [ErrProviderError] that quotes it.
//
// Each call's arguments text is parsed into [Call.Args]: "" and "null" mean
// {} (strict no-argument tools send ""), an object in place of the text is
// accepted, and a text that is not one JSON object makes the call
// malformed ([Call].Malformed, its Args the text as sent: its tool answers
// it with an error), not the reply; with the provider's
// [RepairArguments], a text its repairs make one object is read as that
// object. A text cut off inside its object when finish_reason is "length"
// is an error wrapping [ErrIncomplete]. A tool call whose type is not "function" is an
// error wrapping [ErrReplyShape], since its result could not be rendered.
// A call sent with an empty or no id (some OpenAI-compatible servers, and
// Ollama, do) gets one made from its index, name and arguments
// ("call_0_1a2b3c4d"), used by the replay and by the results alike. These
// deviations (an id made, arguments as an object, no arguments member)
// are those of the [OpenAI] profile; others are errors.
//
// Turn.Replay holds one [OpenAIAssistantMessage]; Turn.Text is the
// message's content; Turn.Refusal its refusal; Turn.Stop is the choice's
// finish_reason.
func (l ReplyLimits) ParseOpenAIReply(reply []byte) (Turn, error) {
	return l.parseChat(&openAIServer, reply)
}

// madeCallID is OpenAI's id for call i of a reply, sent with an empty one
// or none: its index and an FNV-1a hash of its name and arguments, so that
// the same reply always gets the same ids, and a "_" for each try whose id
// another call of the reply had.
func madeCallID(i int, name string, args []byte, try int) string {
	h := uint32(2166136261)
	for _, s := range [...][]byte{[]byte(name), {0}, args} {
		for _, b := range s {
			h = (h ^ uint32(b)) * 16777619
		}
	}
	return "call_" + strconv.Itoa(i) + "_" + strconv.FormatUint(uint64(h), 16) + strings.Repeat("_", try)
}

// openAIServer is OpenAI as its reader sees it: with the deviations of the
// servers that follow it most closely (Gemini's and Ollama's compatible
// endpoints), which ForOpenAI has always accepted; Gemini's leaves its
// thoughts out of completion_tokens (quirkThoughtsInTotal).
var openAIServer = chatServer{name: NameOpenAI, what: "an OpenAI chat completion",
	quirks: quirkMadeIDs | quirkArgumentsObject | quirkNoArguments | quirkThoughtsInTotal, madeID: madeCallID}

// OpenAIResults renders the results of calls as OpenAI Chat tool messages,
// one per call in call order, each with its call's tool_call_id. Send them
// right after the assistant message that made the calls; OpenAI rejects a
// request in which any tool_call_id goes unanswered.
//
// Chat has no error flag, so an error result's content is its Output
// prefixed with "error: ". A tool message carries text only: a result's
// text parts and text files follow its Output, one a line; its images,
// PDF files and WAV or MP3 audio go in a user message after the tool
// messages, which this function's return type cannot hold, so such
// results are an error wrapping [ErrMediaMessage]: render them with
// [OpenAIResultsAndMedia] or [Provider.Results], or with [MediaAsNote]
// (a note naming each part in its tool message). A part Chat takes in no
// form (a file that is not a PDF, audio of another format) is an error
// wrapping [ErrMedia] unless MediaAsNote is given. Results and calls must
// be one to one ([ErrResultCount]), and every call needs an id
// ([ErrCallID]).
func OpenAIResults(calls []Call, results []define.Result, opts ...Option) ([]OpenAIToolMessage, error) {
	cfg, err := resultsConfig(openAISpec, "OpenAIResults", opts, true)
	if err != nil {
		return nil, err
	}
	msgs, attach, err := openAIResults(openAISpec, "OpenAIResults", calls, results, cfg)
	if err == nil {
		err = followsError("OpenAIResults", "OpenAIResultsAndMedia", attach)
	}
	if err != nil {
		return nil, err
	}
	return msgs, nil
}

// OpenAIResultsAndMedia is [OpenAIResults] with the media of the
// results: the tool messages, then, when results carry images, PDF files
// or audio, the user message to send right after them ([OpenAIMediaMessage]:
// for each part, a text part naming its call, then an image_url part
// with its address or a data: URL, a file part with a data: URL and its
// name, or an input_audio part). The tool message of such a result says
// where each part is ("[image: image/png, 4033 bytes; attachment 1, in
// the next message]"). media is nil when no result has any.
func OpenAIResultsAndMedia(calls []Call, results []define.Result, opts ...Option) (msgs []OpenAIToolMessage, media *OpenAIMediaMessage, err error) {
	cfg, err := resultsConfig(openAISpec, "OpenAIResultsAndMedia", opts, true)
	if err != nil {
		return nil, nil, err
	}
	msgs, attach, err := openAIResults(openAISpec, "OpenAIResultsAndMedia", calls, results, cfg)
	if err != nil {
		return nil, nil, err
	}
	return msgs, chatMediaMessage(attach), nil
}

func openAIResults(p *spec, fn string, calls []Call, results []define.Result, cfg config) ([]OpenAIToolMessage, []attachment, error) {
	if err := checkResultPairs(fn, calls, results, true); err != nil {
		return nil, nil, err
	}
	msgs := make([]OpenAIToolMessage, len(calls))
	if !hasParts(results) {
		for i, c := range calls {
			msgs[i] = OpenAIToolMessage{Role: "tool", ToolCallID: c.ID, Content: resultText(results[i])}
		}
		return msgs, nil, nil
	}
	attach, err := chatResults(p, fn, calls, results, cfg, func(i int, text string) {
		msgs[i] = OpenAIToolMessage{Role: "tool", ToolCallID: calls[i].ID, Content: text}
	})
	if err != nil {
		return nil, nil, err
	}
	return msgs, attach, nil
}

// openAIPlace is where OpenAI Chat (and the servers of its shape) sends a
// part: text and text files in the tool message, images, PDF files and
// WAV or MP3 audio in the user message after the tool messages.
func openAIPlace(p *define.Part, _ config) (place, string) {
	switch {
	case p.Kind == define.PartText, isText(p):
		return asText, ""
	case p.Kind == define.PartImage:
		return afterResults, ""
	case p.Kind == define.PartFile && p.Data == nil:
		return nowhere, "takes no file by URL (only its data, as a PDF)"
	case p.Kind == define.PartFile && p.MIMEType != "application/pdf":
		return nowhere, "takes files as PDF only"
	case p.Kind == define.PartAudio && audioFormat(p.MIMEType) == "":
		return nowhere, "takes audio as WAV or MP3 only"
	}
	return afterResults, ""
}

// ParseOpenAIStream reads an OpenAI Chat Completions stream (a request
// with "stream": true) from body, the HTTP response body as sent: its
// Server-Sent Events to "data: [DONE]". The Turn is what
// [ParseOpenAIReply] gives for the same reply unstreamed: calls in order
// with their ids and compact arguments, the content as Text, the last
// finish_reason as Stop, and one [OpenAIAssistantMessage] as Replay.
//
// Pieces are joined as the reply's pieces are meant to be, whatever the
// server: see [Stream] for reading calls as they complete. A stream that
// ends before [DONE] and before any finish_reason, a call whose arguments
// are cut off inside their object (finish_reason "length"), or an error
// event are errors: a [*ReplyError] wrapping [ErrIncomplete] or
// [ErrProviderError]. Arguments that are not one JSON object otherwise
// make a malformed call, as in [ParseOpenAIReply].
func ParseOpenAIStream(body io.Reader) (Turn, error) {
	return ReplyLimits{}.parseStream(openAISpec, body)
}
