package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"google.golang.org/genai"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// BenchmarkReplyRoundTrip compares, on each provider's tool-call reply
// fixture (testdata/golden/calls/<provider>/replies/tool_calls.json), our
// parse, our parse plus rendering the results, and decoding the same bytes
// into the official SDK's reply type with encoding/json (what an SDK user
// pays before reading a single call). Bedrock and MCP have no SDK here:
// only ours runs.
func BenchmarkReplyRoundTrip(b *testing.B) {
	results := []define.Result{
		{Output: `{"city":"Paris","temp_c":21,"sky":"sunny"}`},
		{Output: "14:05 CET"},
		{Output: "city index unavailable", IsError: true},
	}
	cases := []struct {
		provider adapters.Provider
		sdk      func([]byte) error
	}{
		{adapters.ForOpenAI(), func(d []byte) error { var v openai.ChatCompletion; return json.Unmarshal(d, &v) }},
		{adapters.ForOpenAIResponses(), func(d []byte) error { var v responses.Response; return json.Unmarshal(d, &v) }},
		{adapters.ForAnthropic(), func(d []byte) error { var v anthropic.Message; return json.Unmarshal(d, &v) }},
		{adapters.ForGemini(), func(d []byte) error { var v genai.GenerateContentResponse; return json.Unmarshal(d, &v) }},
		{adapters.ForBedrock(), nil},
		{adapters.ForMCP(), nil},
	}
	for _, c := range cases {
		reply, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "calls", c.provider.Name(), "replies", "tool_calls.json"))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.provider.Name()+"/parse", func(b *testing.B) {
			b.SetBytes(int64(len(reply)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.provider.Parse(reply); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.provider.Name()+"/parse+results", func(b *testing.B) {
			b.SetBytes(int64(len(reply)))
			b.ReportAllocs()
			for b.Loop() {
				turn, err := c.provider.Parse(reply)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := c.provider.Results(turn.Calls, results); err != nil {
					b.Fatal(err)
				}
			}
		})
		if c.sdk == nil {
			continue
		}
		b.Run(c.provider.Name()+"/sdk-decode", func(b *testing.B) {
			b.SetBytes(int64(len(reply)))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.sdk(reply); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
