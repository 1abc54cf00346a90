package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// Usage is the token usage a reply reports, read from the provider's usage
// object (usage, usageMetadata, Ollama's counts) and given one meaning for
// every provider; docs/providers.md ("Token usage") maps each provider's
// fields to it.
//
//   - Input is every input token of the request: the prompt, the tokens read
//     from the provider's prompt cache and those written to it included.
//     OpenAI's prompt_tokens, Responses' input_tokens and Gemini's
//     promptTokenCount count them so; Anthropic's input_tokens and Bedrock's
//     inputTokens leave the cache out, so their cache counts are added.
//   - Output is every token the model generated, its reasoning (thinking)
//     included. OpenAI's completion_tokens count it so; Gemini's
//     candidatesTokenCount and xAI's completion_tokens leave the reasoning
//     out, so it is added.
//   - CacheRead and CacheWrite are the part of Input read from the cache and
//     written to it; Reasoning is the part of Output spent reasoning.
//
// A count the reply did not give is unknown: it is 0 and its bit in Known
// is clear, while a count the reply gave as 0 has its bit set. So a reply
// that says nothing of its cache (CacheRead unknown) differs from one that
// says none of its prompt came from it (CacheRead known, 0). A provider
// that omits a count when it is zero (Gemini's and Ollama's JSON do) has
// it known as 0 where its usage object is present.
//
// Counts are JSON integers read exactly (never through a float): one that
// is not a non-negative integer that fits in an int64 (1.5, -1, 1e3,
// "12") makes the reply an error wrapping [ErrReplyShape] at its path, as
// does a sum of counts beyond an int64.
//
// The zero Usage knows nothing: the reply had no usage (MCP replies never
// have one).
type Usage struct {
	Input      int64 // every input token, cached ones included
	Output     int64 // every generated token, reasoning included
	CacheRead  int64 // of Input, the tokens read from the prompt cache
	CacheWrite int64 // of Input, the tokens written to the prompt cache
	Reasoning  int64 // of Output, the reasoning (thinking) tokens

	// Known says which of the counts above the reply gave.
	Known UsageCounts

	// Raw is the provider's usage object as sent, without insignificant
	// space, for what the counts do not carry (Anthropic's cache_creation
	// breakdown and server tool counts, Gemini's per-modality details,
	// Groq's timings, OpenRouter's cost, Ollama's durations, which are
	// gathered into one object of the reply's counts and durations); nil
	// when the reply had none, or when the object is larger than
	// MaxUsageBytes: it comes from the server, and one Turn should not
	// keep a large piece of an untrusted reply for a log line.
	Raw json.RawMessage

	// RawOmitted is the size of a usage object left out of Raw for being
	// larger than MaxUsageBytes (for an Anthropic stream, whose usage is
	// message_start's merged with message_delta's, the larger of theirs,
	// or MaxUsageBytes + 1 when only their merge is too large); 0
	// otherwise.
	RawOmitted int
}

// MaxUsageBytes is the largest usage object [Usage.Raw] keeps, without
// insignificant space: 4 KiB. Providers send a few hundred bytes.
const MaxUsageBytes = 4 << 10

// UsageCounts is a set of the counts of a [Usage].
type UsageCounts uint8

// The counts of a Usage, as bits of [UsageCounts].
const (
	UsageInput UsageCounts = 1 << iota
	UsageOutput
	UsageCacheRead
	UsageCacheWrite
	UsageReasoning
)

// Has reports whether the reply gave every count of c.
func (u Usage) Has(c UsageCounts) bool { return u.Known&c == c }

// usageFields are the counts of a Usage, in the order of their bits, with
// their names in its JSON.
var usageFields = [...]struct {
	name string
	bit  UsageCounts
	get  func(*Usage) *int64
}{
	{"input", UsageInput, func(u *Usage) *int64 { return &u.Input }},
	{"output", UsageOutput, func(u *Usage) *int64 { return &u.Output }},
	{"cache_read", UsageCacheRead, func(u *Usage) *int64 { return &u.CacheRead }},
	{"cache_write", UsageCacheWrite, func(u *Usage) *int64 { return &u.CacheWrite }},
	{"reasoning", UsageReasoning, func(u *Usage) *int64 { return &u.Reasoning }},
}

// MarshalJSON writes the known counts only, so that unknown and zero stay
// apart in JSON too, then raw and raw_omitted when set:
// {"input":1200,"output":80,"cache_read":1024,"raw":{...}}.
func (u Usage) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for _, f := range usageFields {
		if u.Known&f.bit == 0 {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(append(appendString(b, f.name), ':'), *f.get(&u), 10)
	}
	if u.Raw != nil {
		if !json.Valid(u.Raw) {
			return nil, errors.New("adapters: Usage.Raw is not valid JSON")
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = jsonwire.AppendCompact(append(b, `"raw":`...), u.Raw)
	}
	if u.RawOmitted != 0 {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(append(b, `"raw_omitted":`...), int64(u.RawOmitted), 10)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads what MarshalJSON writes: a count present is known
// (it must be a non-negative integer), one absent is not. A member it does
// not know is an error; null leaves u as it is.
func (u *Usage) UnmarshalJSON(data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("adapters: Usage: %w", err)
	}
	if m == nil {
		return nil
	}
	var v Usage
	for _, f := range usageFields {
		raw, ok := m[f.name]
		if !ok {
			continue
		}
		delete(m, f.name)
		n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("adapters: Usage: %s: expected a non-negative integer, got %s", f.name, msgQuote(string(raw)))
		}
		*f.get(&v) = n
		v.Known |= f.bit
	}
	if raw, ok := m["raw"]; ok {
		delete(m, "raw")
		if t := bytes.TrimSpace(raw); string(t) != "null" {
			v.Raw = jsonwire.AppendCompact(nil, t)
		}
	}
	if raw, ok := m["raw_omitted"]; ok {
		delete(m, "raw_omitted")
		n, err := strconv.Atoi(string(bytes.TrimSpace(raw)))
		if err != nil || n < 0 {
			return fmt.Errorf("adapters: Usage: raw_omitted: expected a non-negative integer, got %s", msgQuote(string(raw)))
		}
		v.RawOmitted = n
	}
	for k := range m {
		return fmt.Errorf("adapters: Usage: unknown member %s", msgQuote(k))
	}
	*u = v
	return nil
}

// tokens is one count of a usage object as read: known or not.
type tokens struct {
	n  int64
	ok bool
}

// tokenCount reads the count raw at at: unknown when absent or null.
func (p replyParser) tokenCount(at loc, raw []byte) (tokens, error) {
	if raw == nil || raw[0] == 'n' {
		return tokens{}, nil
	}
	if len(raw) < 19 && raw[0] >= '0' && raw[0] <= '9' { // the usual count: digits that fit
		var n int64
		for _, c := range raw {
			if c < '0' || c > '9' {
				return p.badCount(at, raw)
			}
			n = n*10 + int64(c-'0')
		}
		return tokens{n, true}, nil
	}
	return p.badCount(at, raw)
}

// badCount reads a count that is not a short run of digits: a long one
// (exact, up to the largest int64), or an error.
func (p replyParser) badCount(at loc, raw []byte) (tokens, error) {
	if raw[0] < '0' || raw[0] > '9' || jsonwire.Digits(raw, 0) != len(raw) {
		what := jsonwire.Kind(raw)
		if raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9' {
			what = msgQuote(string(raw))
		}
		return tokens{}, p.fail(at, ErrReplyShape, "expected a token count (a non-negative integer), got %s", what)
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return tokens{}, p.fail(at, ErrReplyShape, "token count %s is beyond the largest int64", msgQuote(string(raw)))
	}
	return tokens{n, true}, nil
}

// tokenCount0 is tokenCount for a provider whose usage leaves out the
// counts that are zero: absent is 0, known.
func (p replyParser) tokenCount0(at loc, raw []byte) (tokens, error) {
	if raw == nil {
		return tokens{0, true}, nil
	}
	return p.tokenCount(at, raw)
}

// plus returns t with the known counts of parts added: known when t is,
// unknown parts adding nothing. A sum beyond an int64 is an error at at.
func (p replyParser) plus(at loc, t tokens, parts ...tokens) (tokens, error) {
	if !t.ok {
		return t, nil
	}
	for _, x := range parts {
		if !x.ok {
			continue
		}
		if x.n > math.MaxInt64-t.n {
			return tokens{}, p.fail(at, ErrReplyShape, "token counts add up to more than the largest int64")
		}
		t.n += x.n
	}
	return t, nil
}

// set records the count t as c's, when known.
func (u *Usage) set(c UsageCounts, t tokens) {
	if !t.ok {
		return
	}
	switch c { // not usageFields' functions: u would escape
	case UsageInput:
		u.Input = t.n
	case UsageOutput:
		u.Output = t.n
	case UsageCacheRead:
		u.CacheRead = t.n
	case UsageCacheWrite:
		u.CacheWrite = t.n
	case UsageReasoning:
		u.Reasoning = t.n
	}
	u.Known |= c
}

// usageObject reads the members keys of the usage object (or a part of
// one) raw at at into vals: false for an absent or null one, an error for
// one that is not an object.
func (p replyParser) usageObject(at loc, raw []byte, keys []string, vals [][]byte) (bool, error) {
	if raw == nil || raw[0] == 'n' {
		return false, nil
	}
	if raw[0] != '{' {
		return false, p.fail(at, ErrReplyShape, "expected an object, got %s", jsonwire.Kind(raw))
	}
	x := p.ix
	if !x.Recorded(raw) {
		x = nil // a small object: scanning it costs less than looking its values up
	}
	if key, _ := x.FieldsCount(raw, keys, vals); key != nil {
		return false, p.fail(at, ErrReplyShape, "key %s differs from an expected key only in case", msgQuote(string(key)))
	}
	return true, nil
}

// keepRaw keeps the usage object raw in u.Raw, compact, within
// MaxUsageBytes.
func (p replyParser) keepRaw(u *Usage, raw []byte) {
	if len(raw) > MaxUsageBytes { // as sent: its space is counted only then
		if n := len(raw) - p.ix.Spaces(raw); n > MaxUsageBytes {
			u.RawOmitted = n
			return
		}
	}
	if p.blocks == nil || !p.lazyCompact && p.ix.Recorded(raw) {
		u.Raw = p.ix.CompactIn(p.blocks, raw) // a slice of the reply compacted by its check
		return
	}
	// Compacted by a scan, which for a few kilobytes costs less than
	// looking its strings up in the index.
	u.Raw = p.blocks.Take(jsonwire.AppendCompact(p.blocks.Room(len(raw)), raw))
}

// The family of OpenAI Chat Completions (chat_reply.go) reads one usage
// object for OpenAI and every server it speaks to: each spelling of a
// count that a server of the family is known to send is read.
var (
	chatUsageKeys = []string{
		"prompt_tokens", "completion_tokens", "total_tokens", "prompt_tokens_details", "completion_tokens_details",
		"prompt_cache_hit_tokens", "num_cached_tokens", "prompt_token_details",
	}
	chatPromptDetailKeys     = []string{"cached_tokens", "cache_write_tokens"}
	chatCompletionDetailKeys = []string{"reasoning_tokens"}
	// chatUsagePaths are where the counts chatUsage reads are, in its order.
	chatUsagePaths = [...]string{"/prompt_tokens", "/completion_tokens", "/total_tokens",
		"/prompt_tokens_details/cached_tokens", "/prompt_tokens_details/cache_write_tokens",
		"/completion_tokens_details/reasoning_tokens",
		"/prompt_cache_hit_tokens", "/prompt_token_details/cached_tokens", "/num_cached_tokens"}
)

// chatUsage reads the usage object raw of a chat completion of srv:
//   - Input is prompt_tokens, which counts the cached tokens;
//   - CacheRead is prompt_tokens_details.cached_tokens (OpenAI, Groq,
//     vLLM, Mistral, ...), else DeepSeek's prompt_cache_hit_tokens, else
//     Mistral's prompt_token_details.cached_tokens or num_cached_tokens;
//   - CacheWrite is prompt_tokens_details.cache_write_tokens;
//   - Output is completion_tokens; Reasoning is
//     completion_tokens_details.reasoning_tokens.
//
// A server whose completion_tokens leaves out the reasoning tokens
// (quirkReasoningApart: xAI) has Output = completion_tokens +
// reasoning_tokens. One whose completion_tokens leaves out thoughts that
// only its total_tokens counts (quirkThoughtsInTotal: Gemini's
// OpenAI-compatible endpoint, which ForOpenAI reads) has Output =
// total_tokens - prompt_tokens when total_tokens says more than
// prompt_tokens + completion_tokens, and, when reasoning_tokens is not
// given, Reasoning is the difference. (OpenAI's total is prompt +
// completion: the rule never applies to OpenAI's own replies.)
func (p replyParser) chatUsage(srv *chatServer, raw []byte) (Usage, error) {
	var u Usage
	at := pointer("/usage")
	var f [8][]byte
	if ok, err := p.usageObject(at, raw, chatUsageKeys, f[:]); !ok || err != nil {
		return u, err
	}
	var prompt, completion, legacy [2][]byte
	if _, err := p.usageObject(at.key("/prompt_tokens_details"), f[3], chatPromptDetailKeys, prompt[:]); err != nil {
		return u, err
	}
	if _, err := p.usageObject(at.key("/completion_tokens_details"), f[4], chatCompletionDetailKeys, completion[:1]); err != nil {
		return u, err
	}
	if _, err := p.usageObject(at.key("/prompt_token_details"), f[7], chatPromptDetailKeys, legacy[:]); err != nil {
		return u, err
	}
	var c [9]tokens
	for i, v := range [...][]byte{f[0], f[1], f[2], prompt[0], prompt[1], completion[0], f[5], legacy[0], f[6]} {
		if v == nil {
			continue
		}
		var err error
		if c[i], err = p.tokenCount(at.key(chatUsagePaths[i]), v); err != nil {
			return u, err
		}
	}
	in, out, total, reasoning := c[0], c[1], c[2], c[5]
	cached := c[3]
	for _, alt := range c[6:] {
		if !cached.ok {
			cached = alt
		}
	}
	switch {
	case srv.has(quirkReasoningApart):
		var err error
		if out, err = p.plus(at.key("/completion_tokens"), out, reasoning); err != nil {
			return u, err
		}
	case srv.has(quirkThoughtsInTotal) && total.ok && in.ok && out.ok:
		sum, err := p.plus(at.key("/total_tokens"), in, out)
		if err != nil {
			return u, err
		}
		if total.n > sum.n {
			if !reasoning.ok {
				reasoning = tokens{total.n - sum.n, true}
			}
			out.n = total.n - in.n
		}
	}
	u.set(UsageInput, in)
	u.set(UsageOutput, out)
	u.set(UsageCacheRead, cached)
	u.set(UsageCacheWrite, c[4])
	u.set(UsageReasoning, reasoning)
	p.keepRaw(&u, raw)
	return u, nil
}
