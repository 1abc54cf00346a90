package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"

	"github.com/toolnexus/toolnexus/define"
)

// Call is one tool call the model asked for, the same for every provider.
//
// Make calls with the ParseXCalls / ParseXReply functions of this package
// (or a [Provider]'s Parse), run them (toolnexus.Toolkit.Run, or
// [define.Tool.ExecuteJSON] with Args), and render the results with the
// provider's XResults function, passing the same calls in the same order.
type Call struct {
	// ID is the provider's id for the call, which its result must echo:
	// OpenAI Chat tool_calls[].id, OpenAI Responses call_id (not the item's
	// fc_ id), Anthropic tool_use id, Bedrock toolUseId, Gemini
	// functionCall.id ("" when the model sent none: Gemini then pairs
	// results by name and order). For MCP it is the JSON-RPC request id as
	// JSON text (7 or "req-7", quotes included), "" for bare params.
	ID string `json:"id,omitempty"`

	// Name is the tool's name as the model sent it.
	Name string `json:"name"`

	// Args is the call's arguments, always one compact JSON object: OpenAI's
	// arguments text "" (and null) become {}, as does an absent Anthropic
	// input or Gemini args. Numbers are kept as the model wrote them.
	Args json.RawMessage `json:"args"`

	// Input is the call's arguments when they arrived already parsed into a
	// map (an SDK's decoded Gemini FunctionCall.Args, for example). When it
	// is non-nil, toolnexus.Toolkit.Run passes it to
	// [define.Tool.Execute] and does not read Args, so the arguments are not
	// marshalled only to be parsed again. The parsers of this package leave
	// it nil, and it is never rendered.
	Input map[string]any `json:"-"`

	// ThoughtSignature is Gemini's thoughtSignature of the part that held
	// this call ("" elsewhere, and on Gemini's parallel calls after the
	// first). It is here for callers that rebuild history themselves; the
	// replayed model content (Turn.Replay) already carries it in place.
	ThoughtSignature string `json:"thoughtSignature,omitempty"`
}

// Turn is one model reply, parsed: the calls to run, the text, and the
// history entries that replay the model's own turn.
type Turn struct {
	// Calls are the tool calls, in the order the model sent them. Empty
	// when the model ended its turn without calling a tool.
	Calls []Call

	// Text is the reply's visible text, parts joined in order (thinking
	// and reasoning parts excluded).
	Text string

	// Stop is the provider's own stop or finish reason, as sent
	// ("tool_calls", "tool_use", "STOP", ...; "" when the reply had none).
	Stop string

	// Replay holds the entries to append to the conversation history
	// before the results: the model's turn as the provider needs to see it
	// again (each provider's ParseXReply says what type). Replaying them as
	// they are keeps what must survive the round trip: Gemini thought
	// signatures, Anthropic thinking blocks, Responses reasoning items next
	// to their function calls.
	Replay []any
}

// Errors callers can test for with errors.Is on the error of a ParseX or
// XResults function.
var (
	// ErrNotJSON: the reply is not valid JSON.
	ErrNotJSON = errors.New("not valid JSON")
	// ErrReplyShape: the reply is JSON but not the provider's shape: a
	// missing or mistyped field, a call without a name or id, an
	// unsupported kind of call.
	ErrReplyShape = errors.New("not the provider's reply shape")
	// ErrArguments: a call's arguments are not one JSON object (arguments
	// text that is not JSON, or is an array, a string, a number).
	ErrArguments = errors.New("arguments are not a JSON object")
	// ErrResultCount: results and calls are not one to one.
	ErrResultCount = errors.New("results do not match calls one to one")
	// ErrCallID: a call has no id, and its provider pairs results by id.
	ErrCallID = errors.New("call has no id")
)

// ReplyError reports what was wrong with a model reply and where. Err is
// [ErrNotJSON], [ErrReplyShape] or [ErrArguments].
type ReplyError struct {
	Provider string // the provider's name, as [Provider.Name] returns it
	Path     string // where in the reply, e.g. choices[0].message.tool_calls[1].function.arguments; "" for the whole reply
	Problem  string // what was wrong, e.g. "expected a JSON object, got an array"
	Err      error  // the sentinel
}

// Error reports the provider, the path and the problem:
// "adapters: openai reply: tool_calls[0].function.arguments: ...".
func (e *ReplyError) Error() string {
	if e.Path == "" {
		return "adapters: " + e.Provider + " reply: " + e.Problem
	}
	return "adapters: " + e.Provider + " reply: " + e.Path + ": " + e.Problem
}

// Unwrap returns the sentinel, for errors.Is.
func (e *ReplyError) Unwrap() error { return e.Err }

// Provider names, as [Provider.Name] and [ReplyError.Provider] spell them.
const (
	NameOpenAI          = "openai"
	NameOpenAIResponses = "openai-responses"
	NameAnthropic       = "anthropic"
	NameGemini          = "gemini"
	NameBedrock         = "bedrock"
	NameMCP             = "mcp"
)

// replyParser decodes one provider's reply, building ReplyErrors with paths.
type replyParser struct{ provider string }

func (p replyParser) fail(path string, sentinel error, format string, args ...any) error {
	return &ReplyError{Provider: p.provider, Path: path, Problem: fmt.Sprintf(format, args...), Err: sentinel}
}

// whole checks that the reply is one JSON value and returns it trimmed.
func (p replyParser) whole(reply []byte) ([]byte, error) {
	data := bytes.TrimSpace(reply)
	if len(data) == 0 {
		return nil, p.fail("", ErrNotJSON, "empty reply")
	}
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		return nil, p.fail("", ErrNotJSON, "not valid JSON: %v", err)
	}
	return data, nil
}

// decode unmarshals raw (valid JSON) into v, a pointer to a struct or a
// slice, turning a type mismatch into a ReplyError at path.
func (p replyParser) decode(path string, raw json.RawMessage, v any) error {
	err := json.Unmarshal(raw, v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		at := rtJoin(path, te.Field)
		return p.fail(at, ErrReplyShape, "expected %s, got %s", rtKindOfType(te.Type), rtArticle(te.Value))
	}
	return p.fail(path, ErrReplyShape, "%v", err)
}

// object checks that raw is a JSON object.
func (p replyParser) object(path string, raw json.RawMessage) error {
	if k := rtKindOf(raw); k != "an object" {
		return p.fail(path, ErrReplyShape, "expected an object, got %s", k)
	}
	return nil
}

// argsObject normalises arguments sent as a JSON object (Anthropic input,
// Gemini args, Bedrock input, MCP arguments): absent or null mean {}.
func (p replyParser) argsObject(path string, raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}"), nil
	}
	if k := rtKindOf(raw); k != "an object" {
		return nil, p.fail(path, ErrArguments, "expected a JSON object, got %s", k)
	}
	return rtCompact(raw), nil
}

// argsText normalises arguments sent as JSON text in a string (OpenAI Chat
// and Responses): "" and "null" mean {}. An object sent in place of the
// string (Ollama's native API, some compatible servers) is accepted too.
func (p replyParser) argsText(path string, raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return p.argsObject(path, raw)
	}
	var text string
	if err := json.Unmarshal(raw, &text); err != nil {
		return nil, p.fail(path, ErrReplyShape, "%v", err)
	}
	inner := bytes.TrimSpace([]byte(text))
	if len(inner) == 0 || string(inner) == "null" {
		return json.RawMessage("{}"), nil
	}
	if !json.Valid(inner) {
		return nil, p.fail(path, ErrArguments, "arguments text is not valid JSON: %s", rtQuote(text))
	}
	if k := rtKindOf(inner); k != "an object" {
		return nil, p.fail(path, ErrArguments, "arguments text is %s, not a JSON object", k)
	}
	return rtCompact(inner), nil
}

// checkResultPairs checks what every XResults function needs: one result per
// call and, where the provider pairs by id, an id on every call.
func checkResultPairs(fn string, calls []Call, results []define.Result, needID bool) error {
	if len(calls) != len(results) {
		return fmt.Errorf("adapters: %s: %d calls and %d results: %w", fn, len(calls), len(results), ErrResultCount)
	}
	if needID {
		for i, c := range calls {
			if c.ID == "" {
				return fmt.Errorf("adapters: %s: calls[%d] (%s): %w", fn, i, c.Name, ErrCallID)
			}
		}
	}
	return nil
}

// resultErrorText is the text of an error result: define guarantees a message;
// this guards hand-made results.
func resultErrorText(r define.Result) string {
	if r.Output == "" {
		return "the tool failed without a message"
	}
	return r.Output
}

// resultJSON returns r.Output as JSON when it is a JSON object (kinds
// "object") or a JSON object or array (kinds "object", "array").
func resultJSON(r define.Result, arrays bool) (json.RawMessage, bool) {
	out := bytes.TrimSpace([]byte(r.Output))
	if len(out) == 0 || (out[0] != '{' && !(arrays && out[0] == '[')) {
		return nil, false
	}
	if !json.Valid(out) {
		return nil, false
	}
	return rtCompact(out), true
}

// compact returns valid JSON without insignificant space, reusing data when
// there is none.
func rtCompact(data []byte) json.RawMessage {
	if !rtHasSpace(data) {
		return json.RawMessage(data)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		return json.RawMessage(data)
	}
	return json.RawMessage(b.Bytes())
}

func rtHasSpace(data []byte) bool {
	for _, c := range data {
		if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
			return true
		}
	}
	return false
}

// rtRawText returns raw as a Go string when it is a JSON string.
func rtRawText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func rtKindOf(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

func rtKindOfType(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		if t == reflect.TypeOf(json.RawMessage(nil)) {
			return "a JSON value"
		}
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	default:
		return "a number"
	}
}

// article turns encoding/json's value words ("array", "string", "number 5")
// into the phrasing of our messages.
func rtArticle(v string) string {
	switch v {
	case "array", "object":
		return "an " + v
	case "bool":
		return "a boolean"
	case "null", "":
		return "null"
	}
	if len(v) > 6 && v[:6] == "number" {
		return "a number"
	}
	return "a " + v
}

func rtJoin(base, field string) string {
	switch {
	case field == "":
		return base
	case base == "":
		return field
	}
	return base + "." + field
}

func rtIndex(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// rtQuote quotes s for an error message, cut to 60 bytes.
func rtQuote(s string) string {
	if len(s) > 60 {
		return strconv.Quote(s[:60]) + "..."
	}
	return strconv.Quote(s)
}
