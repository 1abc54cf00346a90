package adapters

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// TestReadersLinear parses replies whose calls' arguments nest deep, at
// sizes 1x to 64x, and counts the bytes the readers scan to skip values
// (the index makes most skips lookups): about the reply's size, at every
// depth and size, where re-skipping at every level was several times it.
func TestReadersLinear(t *testing.T) {
	var last *jsonwire.Index
	indexHook = func(x *jsonwire.Index) { last = x }
	defer func() { indexHook = nil }()
	parsers := map[string]func([]byte) (Turn, error){
		"openai":    ParseOpenAIReply,
		"responses": ParseOpenAIResponsesReply,
		"anthropic": ParseAnthropicReply,
		"gemini":    ParseGeminiReply,
		"bedrock":   ParseBedrockReply,
		"mcp":       ParseMCPReply,
	}
	for _, depth := range []int{1, 8, 64, 200} {
		args := strings.Repeat(`{"a": [1, "x \"y\"", `, depth) + `{}` + strings.Repeat(`]}`, depth)
		quoted, _ := json.Marshal(args)
		calls := map[string]string{
			"openai":    `{"id": "c%d", "type": "function", "function": {"name": "f", "arguments": ` + string(quoted) + `}}`,
			"responses": `{"type": "function_call", "call_id": "c%d", "name": "f", "arguments": ` + string(quoted) + `}`,
			"anthropic": `{"type": "tool_use", "id": "c%d", "name": "f", "input": ` + args + `}`,
			"gemini":    `{"functionCall": {"id": "c%d", "name": "f", "args": ` + args + `}}`,
			"bedrock":   `{"toolUse": {"toolUseId": "c%d", "name": "f", "input": ` + args + `}}`,
			"mcp":       `{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "f", "arguments": ` + args + `}}`,
		}
		wrap := map[string][2]string{
			"openai":    {`{"choices": [{"message": {"role": "assistant", "tool_calls": [`, `]}, "finish_reason": "tool_calls"}]}`},
			"responses": {`{"status": "completed", "output": [`, `]}`},
			"anthropic": {`{"type": "message", "role": "assistant", "content": [`, `]}`},
			"gemini":    {`[{"candidates": [{"content": {"role": "model", "parts": [`, `]}}]}]`},
			"bedrock":   {`{"output": {"message": {"role": "assistant", "content": [`, `]}}}`},
			"mcp":       {`[`, `]`},
		}
		for name, parse := range parsers {
			for _, n := range []int{1, 8, 64} {
				var b strings.Builder
				b.WriteString(wrap[name][0])
				for i := range n {
					if i > 0 {
						b.WriteString(", ")
					}
					fmt.Fprintf(&b, calls[name], i)
				}
				b.WriteString(wrap[name][1])
				reply := []byte(b.String())
				if _, err := parse(reply); err != nil {
					t.Fatalf("%s depth %d: %v", name, depth, err)
				}
				scanned := last.Scanned()
				if per := float64(scanned) / float64(len(reply)); per > 5 {
					t.Errorf("%s, arguments %d deep, %d calls: the readers scanned %d bytes to skip values in %d (%.2f a byte)", name, depth, n, scanned, len(reply), per)
				}
			}
		}
	}
}
