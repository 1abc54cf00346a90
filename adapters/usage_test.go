package adapters_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
)

// The usage fixtures (testdata/usage/<provider>/) are replies and streams
// written by hand in each provider's shape, with the usage objects each
// provider sends (cached, reasoning and thinking counts included). Each
// case says what Turn.Usage must hold; the streamed ones are also read in
// pieces, which must give the same usage.

const (
	allCounts = adapters.UsageInput | adapters.UsageOutput | adapters.UsageCacheRead | adapters.UsageCacheWrite | adapters.UsageReasoning
	inOut     = adapters.UsageInput | adapters.UsageOutput
)

// usageCase is one fixture and the usage it holds.
type usageCase struct {
	p    adapters.Provider
	file string // under testdata/usage
	want adapters.Usage
	// total is the member of the fixture's last usage object that holds
	// the provider's own total ("" when it sends none): Input + Output
	// must equal it, the provider's arithmetic checking ours.
	total string
}

func usageCases() []usageCase {
	openAI := adapters.Usage{Input: 2048, Output: 150, CacheRead: 1920, CacheWrite: 0, Reasoning: 128, Known: allCounts,
		Raw: raw(`{"prompt_tokens":2048,"completion_tokens":150,"total_tokens":2198,"prompt_tokens_details":{"cached_tokens":1920,"audio_tokens":0,"cache_write_tokens":0},"completion_tokens_details":{"reasoning_tokens":128,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}`)}
	groq := adapters.Usage{Input: 700, Output: 30, Known: inOut,
		Raw: raw(`{"queue_time":0.051,"prompt_tokens":700,"prompt_time":0.021,"completion_tokens":30,"completion_time":0.072,"total_tokens":730,"total_time":0.093}`)}
	xai := adapters.Usage{Input: 400, Output: 200, CacheRead: 256, Reasoning: 180, Known: inOut | adapters.UsageCacheRead | adapters.UsageReasoning,
		Raw: raw(`{"prompt_tokens":400,"completion_tokens":20,"total_tokens":600,"prompt_tokens_details":{"text_tokens":400,"audio_tokens":0,"image_tokens":0,"cached_tokens":256},"completion_tokens_details":{"reasoning_tokens":180,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0},"num_sources_used":0}`)}
	mistral := adapters.Usage{Input: 1536, Output: 41, CacheRead: 1472, Known: inOut | adapters.UsageCacheRead,
		Raw: raw(`{"prompt_tokens":1536,"total_tokens":1577,"completion_tokens":41,"prompt_tokens_details":{"cached_tokens":1472}}`)}
	responses := adapters.Usage{Input: 4096, Output: 320, CacheRead: 3968, CacheWrite: 0, Reasoning: 256, Known: allCounts,
		Raw: raw(`{"input_tokens":4096,"input_tokens_details":{"cached_tokens":3968,"cache_write_tokens":0},"output_tokens":320,"output_tokens_details":{"reasoning_tokens":256},"total_tokens":4416}`)}
	anthropic := adapters.Usage{Input: 12 + 300 + 5000, Output: 245, CacheRead: 5000, CacheWrite: 300, Known: allCounts &^ adapters.UsageReasoning,
		Raw: raw(`{"input_tokens":12,"cache_creation_input_tokens":300,"cache_read_input_tokens":5000,"cache_creation":{"ephemeral_5m_input_tokens":300,"ephemeral_1h_input_tokens":0},"output_tokens":245,"service_tier":"standard"}`)}
	gemini := adapters.Usage{Input: 2816, Output: 18 + 62, CacheRead: 2048, Reasoning: 62, Known: allCounts &^ adapters.UsageCacheWrite,
		Raw: raw(`{"promptTokenCount":2816,"candidatesTokenCount":18,"totalTokenCount":2896,"cachedContentTokenCount":2048,"promptTokensDetails":[{"modality":"TEXT","tokenCount":2816}],"cacheTokensDetails":[{"modality":"TEXT","tokenCount":2048}],"thoughtsTokenCount":62}`)}
	geminiArray := gemini
	geminiArray.Raw = raw(`{"promptTokenCount":2816,"candidatesTokenCount":18,"totalTokenCount":2896,"cachedContentTokenCount":2048,"thoughtsTokenCount":62}`)
	bedrock := adapters.Usage{Input: 22 + 2048 + 0, Output: 41, CacheRead: 2048, CacheWrite: 0, Known: allCounts &^ adapters.UsageReasoning,
		Raw: raw(`{"cacheReadInputTokenCount":2048,"cacheReadInputTokens":2048,"cacheWriteInputTokenCount":0,"cacheWriteInputTokens":0,"inputTokens":22,"outputTokens":41,"serverToolUsage":{},"totalTokens":2111}`)}
	ollama := adapters.Usage{Input: 212, Output: 23, Known: inOut,
		Raw: raw(`{"prompt_eval_count":212,"eval_count":23,"total_duration":95120400,"load_duration":20110300,"prompt_eval_duration":13500200,"eval_duration":61230500}`)}
	return []usageCase{
		{adapters.ForOpenAI(), "openai/reply.json", openAI, "total_tokens"},
		{adapters.ForOpenAI(), "openai/stream.sse", openAI, "total_tokens"},
		{adapters.ForOpenAI(), "openai/stream_no_usage.sse", adapters.Usage{}, ""},
		{adapters.ForOpenAI(adapters.Server(adapters.Groq)), "groq/reply.json", groq, "total_tokens"},
		{adapters.ForOpenAI(adapters.Server(adapters.Groq)), "groq/stream.sse", groq, "total_tokens"},
		{adapters.ForOpenAI(adapters.Server(adapters.DeepSeek)), "deepseek/reply.json", adapters.Usage{Input: 1200, Output: 300, CacheRead: 1024, Reasoning: 250,
			Known: inOut | adapters.UsageCacheRead | adapters.UsageReasoning,
			Raw:   raw(`{"prompt_tokens":1200,"completion_tokens":300,"total_tokens":1500,"prompt_cache_hit_tokens":1024,"prompt_cache_miss_tokens":176,"completion_tokens_details":{"reasoning_tokens":250}}`)}, "total_tokens"},
		{adapters.ForOpenAI(adapters.Server(adapters.XAI)), "xai/reply.json", xai, "total_tokens"},
		{adapters.ForOpenAI(adapters.Server(adapters.XAI)), "xai/stream.sse", xai, "total_tokens"},
		{adapters.ForMistral(), "mistral/reply.json", mistral, "total_tokens"},
		{adapters.ForMistral(), "mistral/stream.sse", mistral, "total_tokens"},
		{adapters.ForMistral(), "mistral/reply_num_cached.json", adapters.Usage{Input: 90, Output: 15, CacheRead: 80, Known: inOut | adapters.UsageCacheRead,
			Raw: raw(`{"prompt_tokens":90,"completion_tokens":15,"total_tokens":105,"num_cached_tokens":80}`)}, "total_tokens"},
		{adapters.ForOpenAIResponses(), "openai-responses/reply.json", responses, "total_tokens"},
		{adapters.ForOpenAIResponses(), "openai-responses/stream.sse", responses, "total_tokens"},
		{adapters.ForAnthropic(), "anthropic/reply.json", anthropic, ""},
		{adapters.ForAnthropic(), "anthropic/stream.sse", anthropic, ""},
		{adapters.ForAnthropic(), "anthropic/stream_thinking.sse", adapters.Usage{Input: 530, Output: 88, CacheRead: 0, CacheWrite: 0, Reasoning: 61, Known: allCounts,
			Raw: raw(`{"input_tokens":530,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":88,"output_tokens_details":{"thinking_tokens":61}}`)}, ""},
		{adapters.ForGemini(), "gemini/reply.json", gemini, "totalTokenCount"},
		{adapters.ForGemini(), "gemini/stream.sse", gemini, "totalTokenCount"},
		{adapters.ForGemini(), "gemini/stream_array.json", geminiArray, "totalTokenCount"},
		{adapters.ForGemini(), "gemini/reply_tool_use_prompt.json", adapters.Usage{Input: 640 + 210, Output: 75 + 33, CacheRead: 0, Reasoning: 33,
			Known: allCounts &^ adapters.UsageCacheWrite,
			Raw:   raw(`{"promptTokenCount":640,"candidatesTokenCount":75,"toolUsePromptTokenCount":210,"thoughtsTokenCount":33,"totalTokenCount":958}`)}, "totalTokenCount"},
		{adapters.ForBedrock(), "bedrock/reply.json", bedrock, "totalTokens"},
		{adapters.ForBedrock(), "bedrock/stream.bin", bedrock, "totalTokens"},
		{adapters.ForBedrock(), "bedrock/reply_write.json", adapters.Usage{Input: 7 + 1536, Output: 4, CacheWrite: 1536,
			Known: inOut | adapters.UsageCacheWrite, Raw: raw(`{"inputTokens":7,"outputTokens":4,"totalTokens":1547,"cacheWriteInputTokenCount":1536}`)}, "totalTokens"},
		{adapters.ForOllama(), "ollama/reply.json", ollama, ""},
		{adapters.ForOllama(), "ollama/stream.ndjson", ollama, ""},
		{adapters.ForOllama(), "ollama/reply_cached_prompt.json", adapters.Usage{Input: 0, Output: 4, Known: inOut,
			Raw: raw(`{"eval_count":4,"total_duration":90000000,"load_duration":1000000,"eval_duration":80000000}`)}, ""},
		{adapters.ForMCP(), "mcp/reply.json", adapters.Usage{}, ""},
	}
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// isStream reports whether a fixture is a streamed body.
func isStream(file string) bool {
	return strings.Contains(filepath.Base(file), "stream")
}

func usageDir() string { return filepath.Join("..", "testdata", "usage") }

// TestUsageFixtures reads every fixture, whole and (for streams) in
// pieces, and checks its usage.
func TestUsageFixtures(t *testing.T) {
	for _, c := range usageCases() {
		t.Run(c.file, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join(usageDir(), c.file))
			if err != nil {
				t.Fatal(err)
			}
			var turn adapters.Turn
			if isStream(c.file) {
				turn, err = c.p.ParseStream(bytes.NewReader(body))
			} else {
				turn, err = c.p.Parse(body)
			}
			if err != nil {
				t.Fatal(err)
			}
			checkUsage(t, "whole", turn.Usage, c.want)
			if c.total != "" {
				total := providerTotal(t, c.want.Raw, c.total)
				if got := turn.Usage.Input + turn.Usage.Output; got != total {
					t.Errorf("Input + Output = %d, the provider's %s is %d", got, c.total, total)
				}
			}
			if !isStream(c.file) || c.p.Name() == adapters.NameGemini && strings.HasSuffix(c.file, ".json") {
				return
			}
			for _, cuts := range usageCuts(len(body)) {
				got, err := streamIn(c.p, body, cuts)
				if err != nil {
					t.Fatalf("cuts %v: %v", cuts, err)
				}
				checkUsage(t, fmt.Sprintf("cuts %v", cuts), got.Usage, c.want)
			}
		})
	}
}

// checkUsage compares a usage with the one wanted, Raw as JSON text.
func checkUsage(t *testing.T, how string, got, want adapters.Usage) {
	t.Helper()
	if d := cmp.Diff(string(want.Raw), string(got.Raw)); d != "" {
		t.Errorf("%s: Raw (-want +got):\n%s", how, d)
	}
	got.Raw, want.Raw = nil, nil
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s: usage (-want +got):\n%s", how, d)
	}
}

// providerTotal reads the member key of the usage object raw with
// encoding/json, a reader independent of the parsers.
func providerTotal(t *testing.T, raw json.RawMessage, key string) int64 {
	t.Helper()
	var m map[string]json.Number
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var all map[string]any
	if err := d.Decode(&all); err != nil {
		t.Fatal(err)
	}
	m = map[string]json.Number{}
	for k, v := range all {
		if n, ok := v.(json.Number); ok {
			m[k] = n
		}
	}
	n, err := m[key].Int64()
	if err != nil {
		t.Fatalf("the usage has no integer %s: %v", key, err)
	}
	return n
}

// usageCuts are the ways a stream is cut into pieces: at every offset
// (a sample beyond 2,000 bytes), one byte at a time, and at random.
func usageCuts(n int) [][]int {
	var out [][]int
	step := n/2000 + 1
	for i := 1; i < n; i += step {
		out = append(out, []int{i})
	}
	ones := make([]int, 0, n)
	for i := 1; i < n; i++ {
		ones = append(ones, i)
	}
	out = append(out, ones)
	r := rand.New(rand.NewPCG(uint64(n), 36))
	for range 10 {
		var cuts []int
		for i := r.IntN(50) + 1; i < n; i += r.IntN(50) + 1 {
			cuts = append(cuts, i)
		}
		out = append(out, cuts)
	}
	return out
}

// streamIn writes body to a new Stream of p in the pieces cuts gives.
func streamIn(p adapters.Provider, body []byte, cuts []int) (adapters.Turn, error) {
	s, err := adapters.NewStream(p, adapters.StreamHooks{})
	if err != nil {
		return adapters.Turn{}, err
	}
	prev := 0
	for _, c := range append(cuts, len(body)) {
		if _, err := s.Write(body[prev:c]); err != nil {
			return adapters.Turn{}, err
		}
		prev = c
	}
	return s.Close()
}

// TestUsageWholeEqualsStreamed: a provider's whole reply and its stream
// of the same reply give the same Turn, usage included.
func TestUsageWholeEqualsStreamed(t *testing.T) {
	pairs := []struct {
		p             adapters.Provider
		whole, stream string
	}{
		{adapters.ForOpenAI(), "openai/reply.json", "openai/stream.sse"},
		{adapters.ForOpenAI(adapters.Server(adapters.Groq)), "groq/reply.json", "groq/stream.sse"},
		{adapters.ForOpenAI(adapters.Server(adapters.XAI)), "xai/reply.json", "xai/stream.sse"},
		{adapters.ForMistral(), "mistral/reply.json", "mistral/stream.sse"},
		{adapters.ForOpenAIResponses(), "openai-responses/reply.json", "openai-responses/stream.sse"},
		{adapters.ForAnthropic(), "anthropic/reply.json", "anthropic/stream.sse"},
		{adapters.ForGemini(), "gemini/reply.json", "gemini/stream.sse"},
		{adapters.ForBedrock(), "bedrock/reply.json", "bedrock/stream.bin"},
		{adapters.ForOllama(), "ollama/reply.json", "ollama/stream.ndjson"},
	}
	for _, pair := range pairs {
		whole, err := os.ReadFile(filepath.Join(usageDir(), pair.whole))
		if err != nil {
			t.Fatal(err)
		}
		stream, err := os.ReadFile(filepath.Join(usageDir(), pair.stream))
		if err != nil {
			t.Fatal(err)
		}
		a, err := pair.p.Parse(whole)
		if err != nil {
			t.Fatal(pair.whole, err)
		}
		b, err := pair.p.ParseStream(bytes.NewReader(stream))
		if err != nil {
			t.Fatal(pair.stream, err)
		}
		if d := cmp.Diff(a.Calls, b.Calls); d != "" {
			t.Errorf("%s: calls (-whole +stream):\n%s", pair.stream, d)
		}
		checkUsage(t, pair.stream, b.Usage, a.Usage)
	}
}

// TestUsageProfileArithmetic: xAI's completion_tokens leaves the
// reasoning out; read by a profile that does not say so, Output would be
// 20; with its profile it is 200, and Input + Output is xAI's
// total_tokens. Gemini's OpenAI-compatible endpoint leaves its thoughts
// out of completion_tokens without a reasoning count: ForOpenAI takes
// them from total_tokens.
func TestUsageProfileArithmetic(t *testing.T) {
	body, err := os.ReadFile(filepath.Join(usageDir(), "xai/reply.json"))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := adapters.ForOpenAI(adapters.Server(adapters.ServerProfile{Name: "plain"})).Parse(body)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Usage.Output != 20 || plain.Usage.Reasoning != 180 {
		t.Errorf("as a plain server: Output %d, Reasoning %d; want 20, 180", plain.Usage.Output, plain.Usage.Reasoning)
	}
	for _, p := range []adapters.Provider{adapters.ForOpenAI(adapters.Server(adapters.XAI)), adapters.ForOpenAI()} {
		got, err := p.Parse(body)
		if err != nil {
			t.Fatal(err)
		}
		if got.Usage.Output != 200 || got.Usage.Reasoning != 180 || got.Usage.Input+got.Usage.Output != 600 {
			t.Errorf("as %s: Output %d, Reasoning %d, Input + Output %d; want 200, 180, 600", p.Name(), got.Usage.Output, got.Usage.Reasoning, got.Usage.Input+got.Usage.Output)
		}
	}

	gemini := []byte(`{"choices":[{"finish_reason":"stop","index":0,"message":{"content":"It is noon.","role":"assistant"}}],"object":"chat.completion","usage":{"prompt_tokens":40,"completion_tokens":9,"total_tokens":121}}`)
	got, err := adapters.ParseOpenAIReply(gemini)
	if err != nil {
		t.Fatal(err)
	}
	want := adapters.Usage{Input: 40, Output: 81, Reasoning: 72, Known: inOut | adapters.UsageReasoning, Raw: raw(`{"prompt_tokens":40,"completion_tokens":9,"total_tokens":121}`)}
	checkUsage(t, "Gemini's OpenAI endpoint", got.Usage, want)
	got, err = adapters.ForOpenAI(adapters.Server(adapters.Groq)).Parse(gemini)
	if err != nil {
		t.Fatal(err)
	}
	if got.Usage.Output != 9 || got.Usage.Has(adapters.UsageReasoning) {
		t.Errorf("a profile without ThoughtsInTotal takes completion_tokens as they are: %+v", got.Usage)
	}
}

// chatUsageReply is an OpenAI chat completion with the usage object u.
func chatUsageReply(u string) string {
	return `{"choices":[{"index":0,"message":{"role":"assistant","content":"Hi."},"finish_reason":"stop"}],"usage":` + u + `}`
}

// TestUsageBadCounts: a count that is not a non-negative integer in an
// int64 is an error at its path, never a rounded or dropped value.
func TestUsageBadCounts(t *testing.T) {
	cases := []struct {
		name, reply, path, problem string
		p                          adapters.Provider
	}{
		{"fraction", chatUsageReply(`{"prompt_tokens":1.5,"completion_tokens":2}`), "/usage/prompt_tokens", `got "1.5"`, nil},
		{"exponent", chatUsageReply(`{"prompt_tokens":1e3,"completion_tokens":2}`), "/usage/prompt_tokens", `got "1e3"`, nil},
		{"negative", chatUsageReply(`{"prompt_tokens":10,"completion_tokens":-2}`), "/usage/completion_tokens", `got "-2"`, nil},
		{"string", chatUsageReply(`{"prompt_tokens":"10"}`), "/usage/prompt_tokens", "got a string", nil},
		{"beyond int64", chatUsageReply(`{"prompt_tokens":9223372036854775808}`), "/usage/prompt_tokens", "beyond the largest int64", nil},
		{"not an object", chatUsageReply(`[1,2]`), "/usage", "expected an object, got an array", nil},
		{"details not an object", chatUsageReply(`{"prompt_tokens":1,"prompt_tokens_details":7}`), "/usage/prompt_tokens_details", "expected an object, got a number", nil},
		{"nested", chatUsageReply(`{"prompt_tokens":1,"completion_tokens_details":{"reasoning_tokens":true}}`), "/usage/completion_tokens_details/reasoning_tokens", "got a boolean", nil},
		{"anthropic sum", `{"type":"message","role":"assistant","content":[{"type":"text","text":"Hi."}],"stop_reason":"end_turn","usage":{"input_tokens":9223372036854775807,"cache_read_input_tokens":1,"output_tokens":1}}`,
			"/usage/input_tokens", "add up to more than the largest int64", adapters.ForAnthropic()},
		{"gemini", `{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi."}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":3.0}}`,
			"/usageMetadata/promptTokenCount", `got "3.0"`, adapters.ForGemini()},
		{"bedrock", `{"output":{"message":{"role":"assistant","content":[{"text":"Hi."}]}},"stopReason":"end_turn","usage":{"inputTokens":1,"outputTokens":null,"cacheReadInputTokens":"x"}}`,
			"/usage/cacheReadInputTokens", "got a string", adapters.ForBedrock()},
		{"ollama", `{"message":{"role":"assistant","content":"Hi."},"done":true,"prompt_eval_count":-1}`,
			"/prompt_eval_count", `got "-1"`, adapters.ForOllama()},
		{"anthropic thinking", `{"type":"message","role":"assistant","content":[{"type":"text","text":"Hi."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":5,"output_tokens_details":{"thinking_tokens":2.5}}}`,
			"/usage/output_tokens_details/thinking_tokens", `got "2.5"`, adapters.ForAnthropic()},
		{"responses", `{"status":"completed","output":[],"usage":{"input_tokens":1,"output_tokens_details":{"reasoning_tokens":[]}}}`,
			"/usage/output_tokens_details/reasoning_tokens", "got an array", adapters.ForOpenAIResponses()},
	}
	for _, c := range cases {
		p := c.p
		if p == nil {
			p = adapters.ForOpenAI()
		}
		_, err := p.Parse([]byte(c.reply))
		var re *adapters.ReplyError
		if !errors.As(err, &re) || !errors.Is(err, adapters.ErrReplyShape) {
			t.Errorf("%s: err = %v, want a ReplyError wrapping ErrReplyShape", c.name, err)
			continue
		}
		if re.Path != c.path || !strings.Contains(re.Problem, c.problem) {
			t.Errorf("%s: path %q, problem %q; want %q and %q", c.name, re.Path, re.Problem, c.path, c.problem)
		}
	}
}

// TestUsageExactAndUnknown: counts beyond 2^53 stay exact, null and absent
// counts are unknown (and differ from 0), and a usage object larger than
// MaxUsageBytes is read but not kept.
func TestUsageExactAndUnknown(t *testing.T) {
	turn, err := adapters.ParseOpenAIReply([]byte(chatUsageReply(`{"prompt_tokens":9007199254740993,"completion_tokens":null,"prompt_tokens_details":{"cached_tokens":0}}`)))
	if err != nil {
		t.Fatal(err)
	}
	u := turn.Usage
	if u.Input != 9007199254740993 || !u.Has(adapters.UsageInput) {
		t.Errorf("Input = %d (known %v), want 9007199254740993", u.Input, u.Has(adapters.UsageInput))
	}
	if u.Has(adapters.UsageOutput) || u.Has(adapters.UsageReasoning) || u.Has(adapters.UsageCacheWrite) {
		t.Errorf("Known = %b: output (null), reasoning and cache write (absent) must be unknown", u.Known)
	}
	if !u.Has(adapters.UsageCacheRead) || u.CacheRead != 0 {
		t.Errorf("a cached_tokens of 0 is a known 0: %+v", u)
	}
	if u.Has(adapters.UsageInput | adapters.UsageOutput) {
		t.Error("Has of two counts, one unknown, must be false")
	}

	pad := strings.Repeat("x", adapters.MaxUsageBytes)
	big := `{"prompt_tokens":5,  "completion_tokens":6,"note":"` + pad + `"}`
	turn, err = adapters.ParseOpenAIReply([]byte(chatUsageReply(big)))
	if err != nil {
		t.Fatal(err)
	}
	if turn.Usage.Raw != nil || turn.Usage.RawOmitted != len(big)-2 || turn.Usage.Input != 5 || turn.Usage.Output != 6 {
		t.Errorf("a large usage object: Raw %d bytes, RawOmitted %d (want %d), Input %d, Output %d",
			len(turn.Usage.Raw), turn.Usage.RawOmitted, len(big)-2, turn.Usage.Input, turn.Usage.Output)
	}
	// At the limit it is kept.
	fit := `{"prompt_tokens":5,"note":"` + strings.Repeat("y", adapters.MaxUsageBytes-len(`{"prompt_tokens":5,"note":""}`)) + `"}`
	turn, err = adapters.ParseOpenAIReply([]byte(chatUsageReply(fit)))
	if err != nil || string(turn.Usage.Raw) != fit || turn.Usage.RawOmitted != 0 {
		t.Errorf("a usage object of MaxUsageBytes: %v, Raw %d bytes, RawOmitted %d", err, len(turn.Usage.Raw), turn.Usage.RawOmitted)
	}
}

// TestUsageStreamErrors: a streamed usage that is not an object is an
// error naming its event.
func TestUsageStreamErrors(t *testing.T) {
	cases := []struct {
		p    adapters.Provider
		body string
		path string
	}{
		{adapters.ForOpenAI(), "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: {\"choices\":[],\"usage\":5}\n\ndata: [DONE]\n\n", "/usage"},
		{adapters.ForOpenAI(adapters.Server(adapters.Groq)), "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}],\"x_groq\":{\"usage\":\"x\"}}\n\ndata: [DONE]\n\n", "/x_groq/usage"},
		{adapters.ForGemini(), "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Hi\"}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":[]}\n\n", "/usageMetadata"},
	}
	for _, c := range cases {
		_, err := c.p.ParseStream(strings.NewReader(c.body))
		var re *adapters.ReplyError
		if !errors.As(err, &re) || re.Path != c.path || re.Event == 0 || !errors.Is(err, adapters.ErrReplyShape) {
			t.Errorf("%s: err = %v, want ErrReplyShape at %s with its event", c.p.Name(), err, c.path)
		}
	}
	// A bad count in the usage a stream carried is found when the
	// assembled reply is read.
	body := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: {\"choices\":[],\"usage\":{\"prompt_tokens\":-1}}\n\ndata: [DONE]\n\n"
	if _, err := adapters.ParseOpenAIStream(strings.NewReader(body)); !errors.Is(err, adapters.ErrReplyShape) || !strings.Contains(err.Error(), "/usage/prompt_tokens") {
		t.Errorf("a negative streamed count: %v", err)
	}
}

// TestUsageJSON: a Usage marshals its known counts only, and reads back.
func TestUsageJSON(t *testing.T) {
	u := adapters.Usage{Input: 9007199254740993, Output: 0, CacheRead: 7, Known: adapters.UsageInput | adapters.UsageOutput | adapters.UsageCacheRead,
		Raw: raw(`{"a": 1}`), RawOmitted: 0}
	b, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"input":9007199254740993,"output":0,"cache_read":7,"raw":{"a":1}}`; string(b) != want {
		t.Errorf("Marshal = %s, want %s", b, want)
	}
	var back adapters.Usage
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	u.Raw = raw(`{"a":1}`)
	if d := cmp.Diff(u, back); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
	if b, _ := json.Marshal(adapters.Usage{}); string(b) != `{}` {
		t.Errorf("the zero Usage = %s, want {}", b)
	}
	omitted := adapters.Usage{Output: 3, Known: adapters.UsageOutput, RawOmitted: 5000}
	b, _ = json.Marshal(omitted)
	if err := json.Unmarshal(b, &back); err != nil || back.RawOmitted != 5000 || back.Output != 3 || back.Known != adapters.UsageOutput {
		t.Errorf("RawOmitted round trip: %s, %+v, %v", b, back, err)
	}
	for _, bad := range []string{`{"input":-1}`, `{"input":1.5}`, `{"inputs":1}`, `{"raw_omitted":"x"}`, `[]`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("Unmarshal(%s): no error", bad)
		}
	}
}

// bedrockUsageStream is testdata/usage/bedrock/stream.bin: the stream of
// bedrock/reply.json, its usage in the metadata event.
func bedrockUsageStream() []byte {
	return cat(bStart(), bText(0, `"Let me check."`), bStop(0),
		bUse(1, "tooluse_u1", "get_weather"), bInput(1, `"{\"city\": "`), bInput(1, `"\"Oslo\"}"`), bStop(1),
		bMsgStop("tool_use"),
		esEvent("metadata", `{"metrics":{"latencyMs":812},"p":"abcdefghijklmn","usage":{"cacheReadInputTokenCount":2048,"cacheReadInputTokens":2048,"cacheWriteInputTokenCount":0,"cacheWriteInputTokens":0,"inputTokens":22,"outputTokens":41,"serverToolUsage":{},"totalTokens":2111}}`))
}

// TestUsageBedrockStreamFile: stream.bin is what bedrockUsageStream
// encodes (TOOLNEXUS_UPDATE_GOLDEN=1 writes it).
func TestUsageBedrockStreamFile(t *testing.T) {
	path := filepath.Join(usageDir(), "bedrock", "stream.bin")
	want := bedrockUsageStream()
	if os.Getenv("TOOLNEXUS_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with TOOLNEXUS_UPDATE_GOLDEN=1 to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Error("stream.bin is not what bedrockUsageStream encodes to: run with TOOLNEXUS_UPDATE_GOLDEN=1")
	}
}

// TestUsageAnthropicStreamLarge: an Anthropic stream whose message_delta
// usage is too large to keep keeps its counts, and leaves Raw out with its
// size; a small one is merged member by member into message_start's.
func TestUsageAnthropicStreamLarge(t *testing.T) {
	start := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":70,\"cache_read_input_tokens\":30,\"output_tokens\":1}}}\n\n"
	end := "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	var pad strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&pad, `,"k%d":1`, i)
	}
	big := `{"output_tokens":9007199254740993` + pad.String() + `,"output_tokens_details":{"thinking_tokens":5}}`
	body := start + "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":" + big + "}\n\n" + end
	turn, err := adapters.ParseAnthropicStream(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	want := adapters.Usage{Input: 100, Output: 9007199254740993, CacheRead: 30, Reasoning: 5,
		Known: allCounts &^ adapters.UsageCacheWrite, RawOmitted: len(big)}
	checkUsage(t, "large", turn.Usage, want)
	if want.RawOmitted != turn.Usage.RawOmitted {
		t.Errorf("RawOmitted = %d, want %d", turn.Usage.RawOmitted, want.RawOmitted)
	}

	small := start + "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":12,\"server_tool_use\":{\"web_search_requests\":1}}}\n\n" + end
	turn, err = adapters.ParseAnthropicStream(strings.NewReader(small))
	if err != nil {
		t.Fatal(err)
	}
	checkUsage(t, "small", turn.Usage, adapters.Usage{Input: 100, Output: 12, CacheRead: 30, Known: inOut | adapters.UsageCacheRead,
		Raw: raw(`{"input_tokens":70,"cache_read_input_tokens":30,"output_tokens":12,"server_tool_use":{"web_search_requests":1}}`)})
}
