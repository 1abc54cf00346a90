package adapters_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// BenchmarkParseFixture parses each provider's tool-call reply fixture and
// renders results for its calls: the per-turn cost of the round trip.
func BenchmarkParseFixture(b *testing.B) {
	for _, f := range replyFixtures {
		reply := []byte(f.reply)
		b.Run(f.provider, func(b *testing.B) {
			b.SetBytes(int64(len(reply)))
			b.ReportAllocs()
			for b.Loop() {
				turn, err := parsers[f.provider](reply)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := resultRenderers[f.provider](turn.Calls, resultFixtures); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseGeminiStream parses a streamed Gemini turn (text, then a
// call with a thought signature, then usage alone) as
// streamGenerateContent sends it without alt=sse: one indented JSON array.
func BenchmarkParseGeminiStream(b *testing.B) {
	reply, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "calls", "gemini", "replies", "stream_text_then_call.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := adapters.ParseGeminiReply(reply); err != nil {
			b.Fatal(err)
		}
	}
}

// hostileReplies builds replies of about size bytes in the shapes that cost
// a parser the most per byte: many small calls, many unknown keys in one
// object, many small content blocks, one long text, deep nesting.
var hostileReplies = []struct {
	name, provider string
	build          func(size int) string
}{
	{"openai/calls", "openai", func(size int) string {
		return repeatJoin(`{"role":"assistant","tool_calls":[`, `{"id":"c%d","type":"function","function":{"name":"f","arguments":"{}"}}`, `]}`, size)
	}},
	{"openai/keys", "openai", func(size int) string {
		return repeatJoin(`{"role":"assistant","content":"x",`, `"k%d":0`, `}`, size)
	}},
	{"responses/items", "openai-responses", func(size int) string {
		return repeatJoin(`{"status":"completed","output":[`, `{"type":"function_call","call_id":"c%d","name":"f","arguments":""}`, `]}`, size)
	}},
	{"anthropic/blocks", "anthropic", func(size int) string {
		return repeatJoin(`{"role":"assistant","content":[`, `{"type":"text","text":"%d"}`, `]}`, size)
	}},
	{"gemini/parts", "gemini", func(size int) string {
		return repeatJoin(`{"candidates":[{"content":{"role":"model","parts":[`, `{"functionCall":{"name":"f%d"}}`, `]}}]}`, size)
	}},
	{"gemini/stream", "gemini", func(size int) string {
		return repeatJoin(`[`, `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f%d"}}]}}]}`, `]`, size)
	}},
	{"gemini/stream-text", "gemini", func(size int) string {
		return repeatJoin(`[`, `{"candidates":[{"content":{"parts":[{"text":"%d"}]}}]}`, `]`, size)
	}},
	{"gemini/args", "gemini", func(size int) string {
		return repeatJoin(`{"role":"model","parts":[{"functionCall":{"name":"f","args":{"a":[`, `[%d]`, `]}}}]}`, size)
	}},
	{"bedrock/text", "bedrock", func(size int) string {
		return `{"role":"assistant","content":[{"text":"` + strings.Repeat("ab\\n", size/4) + `"}]}`
	}},
	{"mcp/batch", "mcp", func(size int) string {
		return repeatJoin(`[`, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"f"}}`, `]`, size)
	}},
	{"mistral/foreign-ids", "mistral", func(size int) string {
		// Every id is another provider's, so each is mapped to nine characters.
		return repeatJoin(`{"role":"assistant","tool_calls":[`, `{"id":"call_%d","function":{"name":"f","arguments":"{}"}}`, `]}`, size)
	}},
	{"snowflake/placeholders", "snowflake", func(size int) string {
		return repeatJoin(`{"role":"assistant","refusal":"","audio":{"data":"","id":""},"tool_calls":[`,
			`{"id":"c%d","custom":{"input":"","name":""},"function":{"name":"f","arguments":"{}"}}`, `]}`, size)
	}},
	{"anthropic/deep", "anthropic", func(size int) string {
		// 500 levels of nesting, repeated to fill the size.
		one := `{"type":"tool_use","id":"t%d","name":"f","input":{"a":` + strings.Repeat(`[`, 500) + strings.Repeat(`]`, 500) + `}}`
		return repeatJoin(`{"role":"assistant","content":[`, one, `]}`, size)
	}},
}

// repeatJoin returns head, then item (with %d the item's index) repeated
// and comma-joined until about size bytes, then tail.
func repeatJoin(head, item, tail string, size int) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, item, i)
	}
	b.WriteString(tail)
	return b.String()
}

// BenchmarkParseAmplification measures the bytes a parse allocates per byte
// of reply (metric "alloc/B") for hostile shapes at 1 MB and 10 MB: the
// bound is linear memory, at most 10 bytes per input byte.
func BenchmarkParseAmplification(b *testing.B) {
	limits := adapters.ReplyLimits{MaxBytes: 16 << 20}
	parse := map[string]func([]byte) (adapters.Turn, error){
		"openai":           limits.ParseOpenAIReply,
		"openai-responses": limits.ParseOpenAIResponsesReply,
		"anthropic":        limits.ParseAnthropicReply,
		"gemini":           limits.ParseGeminiReply,
		"bedrock":          limits.ParseBedrockReply,
		"mcp":              limits.ParseMCPReply,
		"mistral":          limits.ParseMistralReply,
		"snowflake":        adapters.WithReplyLimits(adapters.ForOpenAI(adapters.Server(adapters.Snowflake)), limits).Parse,
	}
	for _, h := range hostileReplies {
		for _, size := range []int{1 << 20, 10 << 20} {
			reply := []byte(h.build(size))
			b.Run(fmt.Sprintf("%s/%dMB", h.name, size>>20), func(b *testing.B) {
				b.SetBytes(int64(len(reply)))
				b.ReportAllocs()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				n := 0
				for b.Loop() {
					if _, err := parse[h.provider](reply); err != nil {
						b.Fatal(err)
					}
					n++
				}
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n)/float64(len(reply)), "alloc/B")
			})
		}
	}
}

// repeatN returns head, then item (with %d its index) n times,
// comma-joined, then tail, indented as the APIs send replies.
func repeatN(head, item, tail string, n int) string {
	var b strings.Builder
	b.WriteString(head)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, item, i)
	}
	b.WriteString(tail)
	var out bytes.Buffer
	if err := json.Indent(&out, []byte(b.String()), "", "  "); err != nil {
		panic(err)
	}
	return out.String()
}

// plainArgs are ordinary arguments.
const plainArgs = `{"city":"Paris","days":2,"units":"metric"}`

// escapedArgs are arguments heavy in escapes and nesting: source code
// with quotes and escaped newlines, records with quoted text, and a tree
// 16 levels deep. As an OpenAI arguments text they hold about a thousand
// \" and a few hundred \\n.
var escapedArgs = func() string {
	var b strings.Builder
	b.WriteString(`{"code":`)
	code, _ := json.Marshal(strings.Repeat("fmt.Printf(\"say \\\"%s\\\"\\n\", name)\n", 40))
	b.Write(code)
	b.WriteString(`,"records":[`)
	for i := range 40 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"k":"v \"%d\"","n":%d}`, i, i)
	}
	b.WriteString(`],"tree":`)
	for range 16 {
		b.WriteString(`{"a":[1,"x \"y\"",`)
	}
	b.WriteString(`{}`)
	for range 16 {
		b.WriteString(`]}`)
	}
	b.WriteString(`}`)
	return b.String()
}()

// BenchmarkParseVsValid parses a reply of each provider's shape, ordinary
// (three small calls a unit) and heavy in escapes and nesting (one call a
// unit, see escapedArgs), at 1, 10 and 100 units, next to json.Valid on
// the same bytes: the parse should cost at most about twice the
// validation, at every size.
func BenchmarkParseVsValid(b *testing.B) {
	for _, pr := range adapters.Providers() {
		s := struct {
			provider string
			build    func(int, string) string
		}{pr.Name(), testHomes[pr.Name()].benchReply}
		if s.build == nil {
			b.Fatalf("%s: no benchReply in its test home", s.provider)
		}
		for _, kind := range []struct {
			name  string
			calls int
			args  string
		}{{"plain", 3, plainArgs}, {"escaped", 1, escapedArgs}} {
			for _, scale := range []int{1, 10, 100} {
				reply := []byte(s.build(kind.calls*scale, kind.args))
				if _, err := parsers[s.provider](reply); err != nil {
					b.Fatalf("%s/%s: %v", s.provider, kind.name, err)
				}
				name := fmt.Sprintf("%s/%s/%dx", s.provider, kind.name, scale)
				b.Run(name+"/parse", func(b *testing.B) {
					b.SetBytes(int64(len(reply)))
					b.ReportAllocs()
					for b.Loop() {
						if _, err := parsers[s.provider](reply); err != nil {
							b.Fatal(err)
						}
					}
				})
				b.Run(name+"/valid", func(b *testing.B) {
					b.SetBytes(int64(len(reply)))
					for b.Loop() {
						if !json.Valid(reply) {
							b.Fatal("not valid")
						}
					}
				})
			}
		}
	}
}
