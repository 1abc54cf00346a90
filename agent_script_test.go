package toolnexus_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/adapters"
)

// This file builds scripted model replies in every provider's real wire
// format, whole (the JSON body of a non-streamed reply) and streamed (the
// HTTP response body of the provider's streaming API), from one small
// provider-neutral script, so that an agent loop can be tested for every
// provider over a fake transport.

// scriptCall is one tool call of a scripted reply.
type scriptCall struct {
	ID   string // the provider's call id; "" lets the builder make one (Gemini may send none)
	Name string
	Args string // the arguments as a JSON object text, e.g. `{"city":"Paris"}`
}

// scriptTurn is one scripted model reply: calls, or text, or both, and its usage.
type scriptTurn struct {
	Text          string
	Calls         []scriptCall
	Input, Output int64  // usage counts to report (input/prompt tokens, output/completion tokens)
	Stop          string // optional stop/finish reason override ("" = the natural one: tool calls or end of turn)
}

// scriptProviders returns the providers to test, by name.
func scriptProviders() map[string]adapters.Provider {
	return map[string]adapters.Provider{
		"openai":           adapters.ForOpenAI(),
		"groq":             adapters.ForOpenAI(adapters.Server(adapters.Groq)),
		"mistral":          adapters.ForMistral(),
		"openai-responses": adapters.ForOpenAIResponses(),
		"anthropic":        adapters.ForAnthropic(),
		"gemini":           adapters.ForGemini(),
		"bedrock":          adapters.ForBedrock(),
		"ollama":           adapters.ForOllama(),
	}
}

// wholeReply renders st as provider p's whole (non-streamed) reply body.
func wholeReply(t testing.TB, p adapters.Provider, st scriptTurn) []byte {
	t.Helper()
	s := prepScript(t, p.Name(), st)
	var b string
	switch p.Name() {
	case "openai", "groq", "mistral":
		b = chatWhole(p.Name(), s)
	case "openai-responses":
		b = responsesWhole(s)
	case "anthropic":
		b = anthropicWhole(s)
	case "gemini":
		b = geminiWhole(s)
	case "bedrock":
		b = bedrockWhole(s)
	case "ollama":
		b = ollamaWhole(s)
	default:
		t.Fatalf("wholeReply: no script format for provider %q", p.Name())
	}
	return []byte(b)
}

// streamReply renders st as provider p's streamed reply body: Server-Sent
// Events for OpenAI Chat and its servers, Mistral, Responses, Anthropic
// and Gemini (?alt=sse); JSON lines for Ollama; AWS event stream frames
// for Bedrock ConverseStream.
func streamReply(t testing.TB, p adapters.Provider, st scriptTurn) []byte {
	t.Helper()
	s := prepScript(t, p.Name(), st)
	switch p.Name() {
	case "openai", "groq", "mistral":
		return []byte(chatStream(p.Name(), s))
	case "openai-responses":
		return []byte(responsesStream(s))
	case "anthropic":
		return []byte(anthropicStream(s))
	case "gemini":
		return []byte(geminiStream(s))
	case "bedrock":
		return bedrockStream(s)
	case "ollama":
		return []byte(ollamaStream(s))
	}
	t.Fatalf("streamReply: no script format for provider %q", p.Name())
	return nil
}

// scriptPrepared is a script made ready to render: ids made, arguments
// compacted, the stop reason chosen.
type scriptPrepared struct {
	text          string
	calls         []scriptCall
	input, output int64
	stop          string
}

func prepScript(t testing.TB, provider string, st scriptTurn) scriptPrepared {
	t.Helper()
	s := scriptPrepared{text: st.Text, input: st.Input, output: st.Output, stop: st.Stop}
	for i, c := range st.Calls {
		args := strings.TrimSpace(c.Args)
		if args == "" {
			args = "{}"
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(args)); err != nil {
			t.Fatalf("script call %d (%s): arguments are not JSON: %v", i, c.Name, err)
		}
		if buf.Len() == 0 || buf.Bytes()[0] != '{' {
			t.Fatalf("script call %d (%s): arguments are not a JSON object: %s", i, c.Name, args)
		}
		c.Args = buf.String()
		if c.ID == "" {
			c.ID = scriptCallID(provider, i)
		}
		s.calls = append(s.calls, c)
	}
	if s.stop == "" {
		s.stop = naturalStop(provider, len(s.calls) > 0)
	}
	return s
}

// scriptCallID makes the id of a script call sent without one, in the
// provider's own style; Gemini's API sends none.
func scriptCallID(provider string, i int) string {
	n := strconv.Itoa(i + 1)
	switch provider {
	case "mistral": // nine characters of [a-zA-Z0-9]
		return "scr" + strings.Repeat("0", 6-len(n)) + n
	case "anthropic":
		return "toolu_script" + n
	case "bedrock":
		return "tooluse_script" + n
	case "gemini":
		return ""
	}
	return "call_script" + n
}

func naturalStop(provider string, calls bool) string {
	switch provider {
	case "openai", "groq", "mistral":
		if calls {
			return "tool_calls"
		}
		return "stop"
	case "openai-responses":
		return "completed"
	case "anthropic", "bedrock":
		if calls {
			return "tool_use"
		}
		return "end_turn"
	case "gemini":
		return "STOP"
	}
	return "stop" // ollama
}

// scriptRaw is JSON text that scriptObj writes as it is.
type scriptRaw string

// scriptObj writes a JSON object of the members kv (key, value, key, value,
// ...) in order: a scriptRaw value as it is, any other as json.Marshal writes
// it (without HTML escaping).
func scriptObj(kv ...any) scriptRaw {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(string(scriptVal(kv[i].(string))))
		b.WriteByte(':')
		b.WriteString(string(scriptVal(kv[i+1])))
	}
	b.WriteByte('}')
	return scriptRaw(b.String())
}

// scriptArr writes a JSON array of the scriptRaw values vs.
func scriptArr(vs []scriptRaw) scriptRaw {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = string(v)
	}
	return scriptRaw("[" + strings.Join(parts, ",") + "]")
}

func scriptVal(v any) scriptRaw {
	if r, ok := v.(scriptRaw); ok {
		return r
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only the script's own values are encoded
	}
	return scriptRaw(strings.TrimSuffix(buf.String(), "\n"))
}

// scriptPieces cuts s into up to three pieces at rune boundaries, as a stream
// sends text and arguments text; "" is no pieces.
func scriptPieces(s string) []string {
	var out []string
	for len(s) > 0 {
		n := len(s) / 3
		if len(out) == 2 || n < 4 {
			n = len(s)
		}
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// scriptSSE is one Server-Sent Event of data d, with an event line when
// event is not "".
func scriptSSE(event string, d scriptRaw) string {
	if event != "" {
		return "event: " + event + "\ndata: " + string(d) + "\n\n"
	}
	return "data: " + string(d) + "\n\n"
}

const scriptCreated = 1767225600

// --- OpenAI Chat Completions, its servers (Groq), Mistral ---

func chatModel(provider string) string {
	switch provider {
	case "groq":
		return "llama-3.3-70b-versatile"
	case "mistral":
		return "mistral-large-latest"
	}
	return "gpt-4.1"
}

// chatReplyID is the completion's id: Mistral's are 32 hex digits.
func chatReplyID(provider string) string {
	if provider == "mistral" {
		return "5c1f0a9e0b7d1e3a5c9f4e2a8b6d4f2a"
	}
	return "chatcmpl-script"
}

func chatUsage(s scriptPrepared) scriptRaw {
	return scriptObj("prompt_tokens", s.input, "completion_tokens", s.output, "total_tokens", s.input+s.output)
}

func chatWhole(provider string, s scriptPrepared) string {
	var content any // OpenAI sends null content with calls, Mistral ""
	if s.text != "" || provider == "mistral" {
		content = s.text
	}
	msg := []any{"role", "assistant", "content", content}
	if provider != "mistral" {
		msg = append(msg, "refusal", nil)
	}
	if len(s.calls) > 0 {
		calls := make([]scriptRaw, len(s.calls))
		for i, c := range s.calls {
			fn := scriptObj("name", c.Name, "arguments", c.Args)
			if provider == "mistral" {
				calls[i] = scriptObj("id", c.ID, "function", fn, "index", i)
			} else {
				calls[i] = scriptObj("id", c.ID, "type", "function", "function", fn)
			}
		}
		msg = append(msg, "tool_calls", scriptArr(calls))
	}
	choice := []any{"index", 0, "message", scriptObj(msg...)}
	if provider != "mistral" {
		choice = append(choice, "logprobs", nil)
	}
	choice = append(choice, "finish_reason", s.stop)
	top := []any{"id", chatReplyID(provider), "object", "chat.completion", "created", scriptCreated, "model", chatModel(provider),
		"choices", scriptArr([]scriptRaw{scriptObj(choice...)}), "usage", chatUsage(s)}
	if provider == "groq" {
		top = append(top, "x_groq", scriptObj("id", "req_script"))
	}
	return string(scriptObj(top...))
}

func chatStream(provider string, s scriptPrepared) string {
	var b strings.Builder
	chunk := func(delta scriptRaw, finish any, extra ...any) {
		choice := []any{"index", 0, "delta", delta}
		if provider != "mistral" {
			choice = append(choice, "logprobs", nil)
		}
		choice = append(choice, "finish_reason", finish)
		top := []any{"id", chatReplyID(provider), "object", "chat.completion.chunk", "created", scriptCreated, "model", chatModel(provider),
			"choices", scriptArr([]scriptRaw{scriptObj(choice...)})}
		b.WriteString(scriptSSE("", scriptObj(append(top, extra...)...)))
	}
	if provider == "mistral" {
		chunk(scriptObj("role", "assistant", "content", ""), nil)
	} else {
		chunk(scriptObj("role", "assistant", "content", "", "refusal", nil), nil)
	}
	for _, piece := range scriptPieces(s.text) {
		chunk(scriptObj("content", piece), nil)
	}
	for i, c := range s.calls {
		if provider == "mistral" { // Mistral sends each call whole, in one chunk
			call := scriptObj("id", c.ID, "function", scriptObj("name", c.Name, "arguments", c.Args), "index", i)
			chunk(scriptObj("tool_calls", scriptArr([]scriptRaw{call})), nil)
			continue
		}
		start := scriptObj("index", i, "id", c.ID, "type", "function", "function", scriptObj("name", c.Name, "arguments", ""))
		chunk(scriptObj("tool_calls", scriptArr([]scriptRaw{start})), nil)
		for _, piece := range scriptPieces(c.Args) {
			chunk(scriptObj("tool_calls", scriptArr([]scriptRaw{scriptObj("index", i, "function", scriptObj("arguments", piece))})), nil)
		}
	}
	switch provider {
	case "mistral": // the usage comes with the finish_reason
		chunk(scriptObj("content", ""), s.stop, "usage", chatUsage(s))
	case "groq": // Groq's usage is x_groq.usage, with the finish_reason
		chunk(scriptObj(), s.stop, "x_groq", scriptObj("id", "req_script", "usage", chatUsage(s)))
	default: // stream_options.include_usage: a last chunk of no choices
		chunk(scriptObj(), s.stop)
		b.WriteString(scriptSSE("", scriptObj("id", chatReplyID(provider), "object", "chat.completion.chunk", "created", scriptCreated,
			"model", chatModel(provider), "choices", scriptRaw("[]"), "usage", chatUsage(s))))
	}
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}

// --- OpenAI Responses ---

// responsesItems are the output items of the reply: a message item for
// the text, then one function_call item per call.
func responsesItems(s scriptPrepared) []scriptRaw {
	var items []scriptRaw
	if s.text != "" {
		items = append(items, responsesMessage(s.text, "completed"))
	}
	for i, c := range s.calls {
		items = append(items, responsesCall(i, c, c.Args, "completed"))
	}
	return items
}

func responsesMessage(text, status string) scriptRaw {
	var content scriptRaw = "[]"
	if status == "completed" {
		content = scriptArr([]scriptRaw{responsesText(text)})
	}
	return scriptObj("id", "msg_script", "type", "message", "status", status, "content", content, "role", "assistant")
}

func responsesText(text string) scriptRaw {
	return scriptObj("type", "output_text", "annotations", scriptRaw("[]"), "logprobs", scriptRaw("[]"), "text", text)
}

func responsesCall(i int, c scriptCall, args, status string) scriptRaw {
	return scriptObj("id", "fc_script"+strconv.Itoa(i+1), "type", "function_call", "status", status,
		"arguments", args, "call_id", c.ID, "name", c.Name)
}

func responsesObject(s scriptPrepared, status string, output []scriptRaw, usage bool) scriptRaw {
	var u any
	if usage {
		u = scriptObj("input_tokens", s.input, "input_tokens_details", scriptObj("cached_tokens", 0),
			"output_tokens", s.output, "output_tokens_details", scriptObj("reasoning_tokens", 0),
			"total_tokens", s.input+s.output)
	}
	var incomplete any
	if status == "incomplete" {
		incomplete = scriptObj("reason", "max_output_tokens")
	}
	return scriptObj("id", "resp_script", "object", "response", "created_at", scriptCreated, "status", status,
		"error", nil, "incomplete_details", incomplete, "model", "gpt-5", "output", scriptArr(output), "usage", u)
}

func responsesWhole(s scriptPrepared) string {
	return string(responsesObject(s, s.stop, responsesItems(s), true))
}

func responsesStream(s scriptPrepared) string {
	var b strings.Builder
	seq := 0
	event := func(typ string, kv ...any) {
		m := append([]any{"type", typ}, kv...)
		b.WriteString(scriptSSE(typ, scriptObj(append(m, "sequence_number", seq)...)))
		seq++
	}
	event("response.created", "response", responsesObject(s, "in_progress", nil, false))
	event("response.in_progress", "response", responsesObject(s, "in_progress", nil, false))
	out := 0
	if s.text != "" {
		event("response.output_item.added", "output_index", out, "item", responsesMessage("", "in_progress"))
		event("response.content_part.added", "item_id", "msg_script", "output_index", out, "content_index", 0, "part", responsesText(""))
		for _, piece := range scriptPieces(s.text) {
			event("response.output_text.delta", "item_id", "msg_script", "output_index", out, "content_index", 0, "delta", piece, "logprobs", scriptRaw("[]"))
		}
		event("response.output_text.done", "item_id", "msg_script", "output_index", out, "content_index", 0, "text", s.text, "logprobs", scriptRaw("[]"))
		event("response.content_part.done", "item_id", "msg_script", "output_index", out, "content_index", 0, "part", responsesText(s.text))
		event("response.output_item.done", "output_index", out, "item", responsesMessage(s.text, "completed"))
		out++
	}
	for i, c := range s.calls {
		id := "fc_script" + strconv.Itoa(i+1)
		event("response.output_item.added", "output_index", out, "item", responsesCall(i, c, "", "in_progress"))
		for _, piece := range scriptPieces(c.Args) {
			event("response.function_call_arguments.delta", "item_id", id, "output_index", out, "delta", piece)
		}
		event("response.function_call_arguments.done", "item_id", id, "output_index", out, "arguments", c.Args)
		event("response.output_item.done", "output_index", out, "item", responsesCall(i, c, c.Args, "completed"))
		out++
	}
	last := "response.completed"
	if s.stop == "incomplete" {
		last = "response.incomplete"
	}
	event(last, "response", responsesObject(s, s.stop, responsesItems(s), true))
	return b.String()
}

// --- Anthropic Messages ---

func anthropicWhole(s scriptPrepared) string {
	var content []scriptRaw
	if s.text != "" {
		content = append(content, scriptObj("type", "text", "text", s.text))
	}
	for _, c := range s.calls {
		content = append(content, scriptObj("type", "tool_use", "id", c.ID, "name", c.Name, "input", scriptRaw(c.Args)))
	}
	return string(scriptObj("id", "msg_script", "type", "message", "role", "assistant", "model", "claude-sonnet-4-5",
		"content", scriptArr(content), "stop_reason", s.stop, "stop_sequence", nil,
		"usage", scriptObj("input_tokens", s.input, "output_tokens", s.output)))
}

func anthropicStream(s scriptPrepared) string {
	var b strings.Builder
	event := func(typ string, kv ...any) {
		b.WriteString(scriptSSE(typ, scriptObj(append([]any{"type", typ}, kv...)...)))
	}
	event("message_start", "message", scriptObj("id", "msg_script", "type", "message", "role", "assistant", "model", "claude-sonnet-4-5",
		"content", scriptRaw("[]"), "stop_reason", nil, "stop_sequence", nil, "usage", scriptObj("input_tokens", s.input, "output_tokens", 1)))
	index := 0
	if s.text != "" {
		event("content_block_start", "index", index, "content_block", scriptObj("type", "text", "text", ""))
		event("ping")
		for _, piece := range scriptPieces(s.text) {
			event("content_block_delta", "index", index, "delta", scriptObj("type", "text_delta", "text", piece))
		}
		event("content_block_stop", "index", index)
		index++
	}
	for _, c := range s.calls {
		event("content_block_start", "index", index, "content_block", scriptObj("type", "tool_use", "id", c.ID, "name", c.Name, "input", scriptRaw("{}")))
		event("content_block_delta", "index", index, "delta", scriptObj("type", "input_json_delta", "partial_json", ""))
		for _, piece := range scriptPieces(c.Args) {
			event("content_block_delta", "index", index, "delta", scriptObj("type", "input_json_delta", "partial_json", piece))
		}
		event("content_block_stop", "index", index)
		index++
	}
	event("message_delta", "delta", scriptObj("stop_reason", s.stop, "stop_sequence", nil), "usage", scriptObj("output_tokens", s.output))
	event("message_stop")
	return b.String()
}

// --- Gemini generateContent / streamGenerateContent?alt=sse ---

func geminiCallPart(c scriptCall) scriptRaw {
	if c.ID == "" {
		return scriptObj("functionCall", scriptObj("name", c.Name, "args", scriptRaw(c.Args)))
	}
	return scriptObj("functionCall", scriptObj("id", c.ID, "name", c.Name, "args", scriptRaw(c.Args)))
}

func geminiUsage(s scriptPrepared) scriptRaw {
	return scriptObj("promptTokenCount", s.input, "candidatesTokenCount", s.output, "totalTokenCount", s.input+s.output)
}

func geminiChunk(parts []scriptRaw, finish string, usage scriptRaw) scriptRaw {
	cand := []any{"content", scriptObj("role", "model", "parts", scriptArr(parts))}
	if finish != "" {
		cand = append(cand, "finishReason", finish)
	}
	cand = append(cand, "index", 0)
	top := []any{"candidates", scriptArr([]scriptRaw{scriptObj(cand...)})}
	if usage != "" {
		top = append(top, "usageMetadata", usage)
	}
	return scriptObj(append(top, "modelVersion", "gemini-2.5-flash", "responseId", "script")...)
}

func geminiWhole(s scriptPrepared) string {
	var parts []scriptRaw
	if s.text != "" {
		parts = append(parts, scriptObj("text", s.text))
	}
	for _, c := range s.calls {
		parts = append(parts, geminiCallPart(c))
	}
	if len(parts) == 0 {
		parts = append(parts, scriptObj("text", ""))
	}
	return string(geminiChunk(parts, s.stop, geminiUsage(s)))
}

func geminiStream(s scriptPrepared) string {
	// The text comes in pieces, the calls whole, together in the last
	// chunk, which carries the finishReason and the usage.
	var chunks [][]scriptRaw
	for _, piece := range scriptPieces(s.text) {
		chunks = append(chunks, []scriptRaw{scriptObj("text", piece)})
	}
	if len(s.calls) > 0 {
		var parts []scriptRaw
		for _, c := range s.calls {
			parts = append(parts, geminiCallPart(c))
		}
		chunks = append(chunks, parts)
	}
	if len(chunks) == 0 {
		chunks = append(chunks, []scriptRaw{scriptObj("text", "")})
	}
	var b strings.Builder
	for i, parts := range chunks {
		if i == len(chunks)-1 {
			b.WriteString(scriptSSE("", geminiChunk(parts, s.stop, geminiUsage(s))))
		} else {
			b.WriteString(scriptSSE("", geminiChunk(parts, "", "")))
		}
	}
	return b.String()
}

// --- Bedrock Converse / ConverseStream ---

func bedrockUsage(s scriptPrepared) scriptRaw {
	return scriptObj("inputTokens", s.input, "outputTokens", s.output, "totalTokens", s.input+s.output)
}

func bedrockWhole(s scriptPrepared) string {
	var content []scriptRaw
	if s.text != "" {
		content = append(content, scriptObj("text", s.text))
	}
	for _, c := range s.calls {
		content = append(content, scriptObj("toolUse", scriptObj("toolUseId", c.ID, "name", c.Name, "input", scriptRaw(c.Args))))
	}
	return string(scriptObj("output", scriptObj("message", scriptObj("role", "assistant", "content", scriptArr(content))),
		"stopReason", s.stop, "usage", bedrockUsage(s), "metrics", scriptObj("latencyMs", 500)))
}

func bedrockStream(s scriptPrepared) []byte {
	var b []byte
	event := func(typ string, payload scriptRaw) {
		b = append(b, scriptEventFrame(typ, payload)...)
	}
	event("messageStart", scriptObj("p", "abcdefghij", "role", "assistant"))
	index := 0
	if s.text != "" {
		for _, piece := range scriptPieces(s.text) {
			event("contentBlockDelta", scriptObj("contentBlockIndex", index, "delta", scriptObj("text", piece), "p", "abcdef"))
		}
		event("contentBlockStop", scriptObj("contentBlockIndex", index, "p", "abcdefghijklmn"))
		index++
	}
	for _, c := range s.calls {
		event("contentBlockStart", scriptObj("contentBlockIndex", index, "p", "abcdefgh",
			"start", scriptObj("toolUse", scriptObj("name", c.Name, "toolUseId", c.ID))))
		for _, piece := range scriptPieces(c.Args) {
			event("contentBlockDelta", scriptObj("contentBlockIndex", index, "delta", scriptObj("toolUse", scriptObj("input", piece)), "p", "abcd"))
		}
		event("contentBlockStop", scriptObj("contentBlockIndex", index, "p", "abcdefghijklmn"))
		index++
	}
	event("messageStop", scriptObj("p", "abcdefghi", "stopReason", s.stop))
	event("metadata", scriptObj("metrics", scriptObj("latencyMs", 500), "p", "abcdefghijklmnop", "usage", bedrockUsage(s)))
	return b
}

// scriptEventFrame encodes one AWS event stream event frame, with the
// headers Bedrock sends (string values, type 7) and both CRCs: the total
// length, the headers' length and the prelude's CRC32, the headers, the
// payload, the CRC32 of all that.
func scriptEventFrame(eventType string, payload scriptRaw) []byte {
	var h []byte
	for _, kv := range [][2]string{{":event-type", eventType}, {":content-type", "application/json"}, {":message-type", "event"}} {
		h = append(h, byte(len(kv[0])))
		h = append(h, kv[0]...)
		h = append(h, 7)
		h = binary.BigEndian.AppendUint16(h, uint16(len(kv[1])))
		h = append(h, kv[1]...)
	}
	total := 12 + len(h) + len(payload) + 4
	b := binary.BigEndian.AppendUint32(nil, uint32(total))
	b = binary.BigEndian.AppendUint32(b, uint32(len(h)))
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = append(append(b, h...), payload...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// --- Ollama /api/chat ---

func ollamaCalls(s scriptPrepared) scriptRaw {
	calls := make([]scriptRaw, len(s.calls))
	for i, c := range s.calls {
		calls[i] = scriptObj("id", c.ID, "function", scriptObj("index", i, "name", c.Name, "arguments", scriptRaw(c.Args)))
	}
	return scriptArr(calls)
}

func ollamaDone(s scriptPrepared, msg scriptRaw) scriptRaw {
	return scriptObj("model", "qwen3", "created_at", "2026-01-01T00:00:01Z", "message", msg,
		"done_reason", s.stop, "done", true, "total_duration", 1200000000, "load_duration", 1000000,
		"prompt_eval_count", s.input, "prompt_eval_duration", 200000000,
		"eval_count", s.output, "eval_duration", 900000000)
}

func ollamaWhole(s scriptPrepared) string {
	msg := []any{"role", "assistant", "content", s.text}
	if len(s.calls) > 0 {
		msg = append(msg, "tool_calls", ollamaCalls(s))
	}
	return string(ollamaDone(s, scriptObj(msg...)))
}

func ollamaStream(s scriptPrepared) string {
	var b strings.Builder
	line := func(msg scriptRaw) {
		b.WriteString(string(scriptObj("model", "qwen3", "created_at", "2026-01-01T00:00:00Z", "message", msg, "done", false)))
		b.WriteByte('\n')
	}
	for _, piece := range scriptPieces(s.text) {
		line(scriptObj("role", "assistant", "content", piece))
	}
	if len(s.calls) > 0 {
		line(scriptObj("role", "assistant", "content", "", "tool_calls", ollamaCalls(s)))
	}
	b.WriteString(string(ollamaDone(s, scriptObj("role", "assistant", "content", ""))))
	b.WriteByte('\n')
	return b.String()
}

// --- the test of the builders ---

// scriptSeen is what TestScriptReplies compares of a call.
type scriptSeen struct {
	ID, Name, Args string
}

func scriptSeenCalls(calls []adapters.Call) []scriptSeen {
	var out []scriptSeen
	for _, c := range calls {
		out = append(out, scriptSeen{c.ID, c.Name, string(c.Args)})
	}
	return out
}

// TestScriptReplies checks that, for every provider, the whole and the
// streamed replies built from a script parse to the script: its calls in
// order with their ids and arguments, its text, its usage, and the same
// Turn both ways.
func TestScriptReplies(t *testing.T) {
	scripts := map[string]scriptTurn{
		"two calls": {Calls: []scriptCall{
			{ID: "wX1pQ7rS2", Name: "get_weather", Args: `{"city": "Zürich", "days": [1, 2], "note": "say \"hi\" 🌤"}`},
			{ID: "tZ2mN8bV4", Name: "get_time", Args: `{"zone":"Europe/Paris"}`},
		}, Input: 120, Output: 48},
		"text only": {Text: "In Paris it is 14:05, sunny and 21 °C (69.8 °F). <ok> & done", Input: 230, Output: 18},
		"call and text": {Text: "Let me check.", Calls: []scriptCall{
			{Name: "celsius_to_fahrenheit", Args: `{"celsius":21}`},
		}, Input: 190, Output: 20},
		"no arguments": {Calls: []scriptCall{{Name: "list_cities"}}, Input: 5, Output: 3},
	}
	for name, p := range scriptProviders() {
		if p.Name() != name {
			t.Errorf("provider %q is named %q", name, p.Name())
		}
		for sname, st := range scripts {
			t.Run(name+"/"+sname, func(t *testing.T) {
				whole := wholeReply(t, p, st)
				tw, err := p.Parse(whole)
				if err != nil {
					t.Fatalf("Parse: %v\n%s", err, whole)
				}
				stream := streamReply(t, p, st)
				ts, err := p.ParseStream(bytes.NewReader(stream))
				if err != nil {
					t.Fatalf("ParseStream: %v\n%s", err, stream)
				}
				for _, got := range []struct {
					how  string
					turn adapters.Turn
				}{{"whole", tw}, {"streamed", ts}} {
					turn := got.turn
					if len(turn.Calls) != len(st.Calls) {
						t.Fatalf("%s: %d calls, want %d: %+v", got.how, len(turn.Calls), len(st.Calls), scriptSeenCalls(turn.Calls))
					}
					for i, c := range st.Calls {
						gc := turn.Calls[i]
						args := c.Args
						if args == "" {
							args = "{}"
						}
						var want bytes.Buffer
						if err := json.Compact(&want, []byte(args)); err != nil {
							t.Fatal(err)
						}
						if gc.Name != c.Name || !bytes.Equal(gc.Args, want.Bytes()) || gc.Malformed != "" {
							t.Errorf("%s: call %d is %s(%s), want %s(%s)", got.how, i, gc.Name, gc.Args, c.Name, want.Bytes())
						}
						if c.ID != "" && gc.ID != c.ID {
							t.Errorf("%s: call %d id %q, want %q", got.how, i, gc.ID, c.ID)
						}
						if c.ID == "" && (gc.ID == "") != (name == "gemini") {
							t.Errorf("%s: call %d made id %q", got.how, i, gc.ID)
						}
						if name == "mistral" && !isMistralID(gc.ID) {
							t.Errorf("%s: call %d id %q is not a Mistral id", got.how, i, gc.ID)
						}
					}
					if turn.Text != st.Text {
						t.Errorf("%s: text %q, want %q", got.how, turn.Text, st.Text)
					}
					if turn.Usage.Input != st.Input || turn.Usage.Output != st.Output {
						t.Errorf("%s: usage %d in, %d out, want %d, %d", got.how, turn.Usage.Input, turn.Usage.Output, st.Input, st.Output)
					}
					if want := naturalStop(name, len(st.Calls) > 0); turn.Stop != want {
						t.Errorf("%s: stop %q, want %q", got.how, turn.Stop, want)
					}
				}
				if d := cmp.Diff(scriptSeenCalls(tw.Calls), scriptSeenCalls(ts.Calls)); d != "" {
					t.Errorf("whole and streamed calls differ (-whole +streamed):\n%s", d)
				}
				if tw.Text != ts.Text || tw.Stop != ts.Stop || tw.Usage.Input != ts.Usage.Input || tw.Usage.Output != ts.Usage.Output {
					t.Errorf("whole and streamed turns differ: text %q/%q, stop %q/%q, usage %+v/%+v",
						tw.Text, ts.Text, tw.Stop, ts.Stop, tw.Usage, ts.Usage)
				}
			})
		}
	}
}

func isMistralID(id string) bool {
	if len(id) != 9 {
		return false
	}
	for _, r := range id {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// TestScriptStopOverride checks that a script's Stop is the Turn's Stop,
// whole and streamed, where the provider sends it as it is.
func TestScriptStopOverride(t *testing.T) {
	stops := map[string]string{
		"openai": "length", "groq": "length", "mistral": "length", "anthropic": "max_tokens",
		"gemini": "MAX_TOKENS", "bedrock": "max_tokens", "ollama": "length",
	}
	providers := scriptProviders()
	for name, stop := range stops {
		p := providers[name]
		st := scriptTurn{Text: "Cut", Input: 3, Output: 1, Stop: stop}
		tw, err := p.Parse(wholeReply(t, p, st))
		if err != nil {
			t.Fatalf("%s: Parse: %v", name, err)
		}
		ts, err := p.ParseStream(bytes.NewReader(streamReply(t, p, st)))
		if err != nil {
			t.Fatalf("%s: ParseStream: %v", name, err)
		}
		if tw.Stop != stop || ts.Stop != stop {
			t.Errorf("%s: stop %q whole, %q streamed, want %q", name, tw.Stop, ts.Stop, stop)
		}
	}
}
