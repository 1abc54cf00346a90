package adapters

import (
	"encoding/json"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// AnthropicMessage is an Anthropic message to replay: the model's content
// blocks exactly as it sent them (thinking blocks and their signatures must
// come back unmodified).
type AnthropicMessage struct {
	Role    string          `json:"role"` // "assistant"
	Content json.RawMessage `json:"content"`
}

// AnthropicToolResultMessage is the user message that answers a turn's
// tool_use blocks: one tool_result block per call, in call order.
type AnthropicToolResultMessage struct {
	Role    string                `json:"role"` // "user"
	Content []AnthropicToolResult `json:"content"`
}

// AnthropicToolResult is a tool_result content block.
type AnthropicToolResult struct {
	Type      string `json:"type"` // "tool_result"
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content,omitempty"` // omitted when the output is empty (an empty text is rejected)
	IsError   bool   `json:"is_error"`
}

var (
	anthropicKeys      = []string{"type", "role", "content", "stop_reason", "error", "usage"}
	anthropicBlockKeys = []string{"type", "id", "name", "input", "text"}
	anthropicErrorKeys = [4]string{"message", "type", "code", "param"}
)

// ParseAnthropicReply parses an Anthropic Messages API reply (the message
// object the API returns). It is [ReplyLimits.ParseAnthropicReply] with
// the default limits.
func ParseAnthropicReply(reply []byte) (Turn, error) {
	return ReplyLimits{}.ParseAnthropicReply(reply)
}

// ParseAnthropicReply parses an Anthropic Messages API reply within l.
//
// An error body ({"type":"error","error":{"type","message"}}) is a
// [ReplyError] wrapping [ErrProviderError] that quotes it.
//
// Every tool_use block becomes a [Call]; its input object is the arguments
// (absent or null input means {}; any other non-object is an error
// wrapping [ErrArguments]). Blocks of tools the server runs itself
// (server_tool_use, web search results) make no calls.
//
// Turn.Replay holds one [AnthropicMessage] with the content as sent;
// Turn.Text joins the text blocks; Turn.Stop is stop_reason.
func (l ReplyLimits) ParseAnthropicReply(reply []byte) (Turn, error) {
	p := l.parser(NameAnthropic)
	data, err := p.whole(reply)
	defer p.release()
	if err != nil {
		return Turn{}, err
	}
	var m [6][]byte
	if err := p.fields(pointer(""), data, anthropicKeys, m[:]); err != nil {
		return Turn{}, err
	}
	typ, err := p.text(pointer("/type"), m[0])
	if err != nil {
		return Turn{}, err
	}
	if m[4] != nil && m[4][0] == '{' && (typ == "error" || m[2] == nil) {
		return Turn{}, p.errorObject(pointer("/error"), m[4], &anthropicErrorKeys)
	}
	if typ == "error" {
		return Turn{}, p.providerError(pointer(""), "", "error", "", "")
	}
	if m[2] == nil {
		return Turn{}, p.notShape(pointer("/content"), data, `missing "content": not an Anthropic message`)
	}
	if m[2][0] != '[' {
		return Turn{}, p.fail(pointer("/content"), ErrReplyShape, "expected an array, got %s", jsonwire.Kind(m[2]))
	}
	role, err := p.text(pointer("/role"), m[1])
	if err != nil {
		return Turn{}, err
	}
	if role != "" && role != "assistant" {
		return Turn{}, p.fail(pointer("/role"), ErrReplyShape, "role is %s, not assistant", msgQuote(role))
	}
	turn := Turn{}
	if turn.Stop, err = p.text(pointer("/stop_reason"), m[3]); err != nil {
		return Turn{}, err
	}
	if turn.Usage, err = p.anthropicUsage(m[5]); err != nil {
		return Turn{}, err
	}
	var text textJoin
	n := p.ix.Count(m[2], "type", "tool_use")
	turn.Calls = sized[Call](n)
	ids := callIDs{hint: n}
	err = p.ix.Elems(m[2], func(i int, raw []byte) error {
		at := pointer("/content").index(i)
		var b [5][]byte
		if err := p.fields(at, raw, anthropicBlockKeys, b[:]); err != nil {
			return err
		}
		typ, err := p.text(at.key("/type"), b[0])
		if err != nil {
			return err
		}
		switch typ {
		case "text":
			s, err := p.text(at.key("/text"), b[4])
			text.WriteString(s)
			return err
		case "tool_use":
			c, err := p.namedCall(at, b[1], b[2], &ids)
			if err != nil {
				return err
			}
			if c.Args, err = p.argsObject(at.key("/input"), b[3]); err != nil {
				return err
			}
			turn.Calls = append(turn.Calls, c)
		case "":
			return p.fail(at.key("/type"), ErrReplyShape, "missing type")
		}
		return nil
	})
	if err != nil {
		return Turn{}, err
	}
	turn.Text = text.String()
	turn.Replay = []any{AnthropicMessage{Role: "assistant", Content: p.ix.CompactIn(p.blocks, m[2])}}
	return turn.noEmptyCalls(), nil
}

// AnthropicResults renders the results of calls as the one user message
// that must follow the assistant turn: a tool_result block per call, in
// call order, each with its call's tool_use_id and is_error set for error
// results. The tool_result blocks are the whole content, so they come
// first as the API requires; to add user text, send it as a following user
// message (the API joins consecutive user turns) or append blocks after
// these.
//
// Results and calls must be one to one ([ErrResultCount]), and every call
// needs an id ([ErrCallID]).
func AnthropicResults(calls []Call, results []define.Result) (AnthropicToolResultMessage, error) {
	if err := checkResultPairs("AnthropicResults", calls, results, true); err != nil {
		return AnthropicToolResultMessage{}, err
	}
	msg := AnthropicToolResultMessage{Role: "user", Content: make([]AnthropicToolResult, len(calls))}
	for i, c := range calls {
		r := results[i]
		out := r.Output
		if r.IsError {
			out = resultErrorText(r)
		}
		msg.Content[i] = AnthropicToolResult{Type: "tool_result", ToolUseID: c.ID, Content: out, IsError: r.IsError}
	}
	return msg, nil
}

var (
	anthropicUsageKeys  = []string{"input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens", "output_tokens_details"}
	anthropicUsagePaths = [...]string{"/input_tokens", "/output_tokens", "/cache_read_input_tokens", "/cache_creation_input_tokens",
		"/output_tokens_details/thinking_tokens"}
	anthropicOutputDetailKeys = []string{"thinking_tokens"}
)

// anthropicUsage reads a message's usage object raw: input_tokens leaves
// out the cache, so Input is input_tokens + cache_read_input_tokens +
// cache_creation_input_tokens; output_tokens counts the thinking, which
// Reasoning is when output_tokens_details.thinking_tokens gives it (a
// stream's message_delta may; Reasoning is unknown otherwise).
func (p replyParser) anthropicUsage(raw []byte) (Usage, error) {
	var u Usage
	at := pointer("/usage")
	var f [5][]byte
	if ok, err := p.usageObject(at, raw, anthropicUsageKeys, f[:]); !ok || err != nil {
		return u, err
	}
	var details [1][]byte
	if _, err := p.usageObject(at.key("/output_tokens_details"), f[4], anthropicOutputDetailKeys, details[:]); err != nil {
		return u, err
	}
	f[4] = details[0]
	var c [5]tokens
	for i, path := range anthropicUsagePaths {
		var err error
		if c[i], err = p.tokenCount(at.key(path), f[i]); err != nil {
			return u, err
		}
	}
	in, err := p.plus(at.key("/input_tokens"), c[0], c[2], c[3])
	if err != nil {
		return u, err
	}
	u.set(UsageInput, in)
	u.set(UsageOutput, c[1])
	u.set(UsageCacheRead, c[2])
	u.set(UsageCacheWrite, c[3])
	u.set(UsageReasoning, c[4])
	p.keepRaw(&u, raw)
	return u, nil
}
