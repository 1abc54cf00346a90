package main

import (
	"strings"

	"github.com/toolnexus/toolnexus/adapters"
)

// The scripted conversation, the same for every provider: the user asks
// about Paris; the model calls get_weather and get_time in parallel (turn
// 1), then celsius_to_fahrenheit with the temperature as text, "21 °C"
// (turn 2), which the decoder rejects; it reads the error, sends 21 (turn
// 3), then answers in text.
const prompt = "What's the weather and the local time in Paris? Give the temperature in Fahrenheit too."

const finalText = "In Paris it is 14:05, sunny and 21 °C (69.8 °F)."

// script is one provider's part in the demo: how its client lays out a
// request, and the replies its model sends, in the provider's real
// response shape.
type script struct {
	provider adapters.Provider
	// request builds the request body around the tools value and the
	// history, as the provider's client would send it.
	request func(tools any, history []any) any
	replies []string
}

func scripts() []script {
	return []script{
		{
			provider: adapters.ForOpenAI(),
			request: func(tools any, history []any) any {
				return map[string]any{"model": "gpt-4.1", "messages": history, "tools": tools}
			},
			replies: []string{
				`{"id":"chatcmpl-D1","object":"chat.completion","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,"annotations":[],"tool_calls":[{"id":"call_wX1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},{"id":"call_tZ2","type":"function","function":{"name":"get_time","arguments":"{\"zone\":\"Europe/Paris\"}"}}]},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":120,"completion_tokens":48,"total_tokens":168}}`,
				misread(`{"id":"chatcmpl-D2","object":"chat.completion","created":1767225601,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,"annotations":[],"tool_calls":[{"id":"call_cV3","type":"function","function":{"name":"celsius_to_fahrenheit","arguments":"{\"celsius\":21}"}}]},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":190,"completion_tokens":20,"total_tokens":210}}`),
				`{"id":"chatcmpl-D2","object":"chat.completion","created":1767225601,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,"annotations":[],"tool_calls":[{"id":"call_cV3","type":"function","function":{"name":"celsius_to_fahrenheit","arguments":"{\"celsius\":21}"}}]},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":190,"completion_tokens":20,"total_tokens":210}}`,
				`{"id":"chatcmpl-D3","object":"chat.completion","created":1767225602,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":"` + finalText + `","refusal":null,"annotations":[]},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":230,"completion_tokens":18,"total_tokens":248}}`,
			},
		},
		{
			provider: adapters.ForOpenAIResponses(),
			request: func(tools any, history []any) any {
				return map[string]any{"model": "o4-mini", "input": history, "tools": tools}
			},
			replies: []string{
				`{"id":"resp_D1","object":"response","status":"completed","model":"o4-mini","output":[{"type":"reasoning","id":"rs_D1","summary":[],"encrypted_content":"gAAAAABo1"},{"type":"function_call","id":"fc_D1","call_id":"call_wX1","name":"get_weather","arguments":"{\"city\":\"Paris\"}","status":"completed"},{"type":"function_call","id":"fc_D2","call_id":"call_tZ2","name":"get_time","arguments":"{\"zone\":\"Europe/Paris\"}","status":"completed"}],"usage":{"input_tokens":130,"output_tokens":70,"total_tokens":200}}`,
				misread(`{"id":"resp_D2","object":"response","status":"completed","model":"o4-mini","output":[{"type":"reasoning","id":"rs_D2","summary":[],"encrypted_content":"gAAAAABo2"},{"type":"function_call","id":"fc_D3","call_id":"call_cV3","name":"celsius_to_fahrenheit","arguments":"{\"celsius\":21}","status":"completed"}],"usage":{"input_tokens":210,"output_tokens":40,"total_tokens":250}}`),
				`{"id":"resp_D2","object":"response","status":"completed","model":"o4-mini","output":[{"type":"reasoning","id":"rs_D2","summary":[],"encrypted_content":"gAAAAABo2"},{"type":"function_call","id":"fc_D3","call_id":"call_cV3","name":"celsius_to_fahrenheit","arguments":"{\"celsius\":21}","status":"completed"}],"usage":{"input_tokens":210,"output_tokens":40,"total_tokens":250}}`,
				`{"id":"resp_D3","object":"response","status":"completed","model":"o4-mini","output":[{"type":"message","id":"msg_D3","role":"assistant","status":"completed","content":[{"type":"output_text","text":"` + finalText + `","annotations":[]}]}],"usage":{"input_tokens":260,"output_tokens":20,"total_tokens":280}}`,
			},
		},
		{
			provider: adapters.ForAnthropic(),
			request: func(tools any, history []any) any {
				return map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": history, "tools": tools}
			},
			replies: []string{
				`{"id":"msg_D1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"I'll look up the weather and the time."},{"type":"tool_use","id":"toolu_wX1","name":"get_weather","input":{"city":"Paris"}},{"type":"tool_use","id":"toolu_tZ2","name":"get_time","input":{"zone":"Europe/Paris"}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":520,"output_tokens":96}}`,
				misread(`{"id":"msg_D2","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_cV3","name":"celsius_to_fahrenheit","input":{"celsius":21}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":690,"output_tokens":40}}`),
				`{"id":"msg_D2","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_cV3","name":"celsius_to_fahrenheit","input":{"celsius":21}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":690,"output_tokens":40}}`,
				`{"id":"msg_D3","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"` + finalText + `"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":760,"output_tokens":22}}`,
			},
		},
		{
			provider: adapters.ForGemini(),
			request: func(tools any, history []any) any {
				return map[string]any{"contents": history, "tools": tools}
			},
			replies: []string{
				`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"CiQBVKhc7kD1"},{"functionCall":{"name":"get_time","args":{"zone":"Europe/Paris"}}}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":110,"candidatesTokenCount":30,"totalTokenCount":140},"modelVersion":"gemini-3-pro-preview"}`,
				misread(`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"celsius_to_fahrenheit","args":{"celsius":21}},"thoughtSignature":"CiQBVKhc7kD2"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":180,"candidatesTokenCount":15,"totalTokenCount":195},"modelVersion":"gemini-3-pro-preview"}`),
				`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"celsius_to_fahrenheit","args":{"celsius":21}},"thoughtSignature":"CiQBVKhc7kD2"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":180,"candidatesTokenCount":15,"totalTokenCount":195},"modelVersion":"gemini-3-pro-preview"}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"text":"` + finalText + `"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":220,"candidatesTokenCount":20,"totalTokenCount":240},"modelVersion":"gemini-3-pro-preview"}`,
			},
		},
		{
			provider: adapters.ForBedrock(),
			request: func(tools any, history []any) any {
				return map[string]any{"modelId": "anthropic.claude-sonnet-4-5", "messages": history, "toolConfig": map[string]any{"tools": tools}}
			},
			replies: []string{
				`{"output":{"message":{"role":"assistant","content":[{"text":"Checking the weather and the time."},{"toolUse":{"toolUseId":"tooluse_wX1","name":"get_weather","input":{"city":"Paris"}}},{"toolUse":{"toolUseId":"tooluse_tZ2","name":"get_time","input":{"zone":"Europe/Paris"}}}]}},"stopReason":"tool_use","usage":{"inputTokens":500,"outputTokens":90,"totalTokens":590},"metrics":{"latencyMs":900}}`,
				misread(`{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"tooluse_cV3","name":"celsius_to_fahrenheit","input":{"celsius":21}}}]}},"stopReason":"tool_use","usage":{"inputTokens":650,"outputTokens":35,"totalTokens":685},"metrics":{"latencyMs":600}}`),
				`{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"tooluse_cV3","name":"celsius_to_fahrenheit","input":{"celsius":21}}}]}},"stopReason":"tool_use","usage":{"inputTokens":650,"outputTokens":35,"totalTokens":685},"metrics":{"latencyMs":600}}`,
				`{"output":{"message":{"role":"assistant","content":[{"text":"` + finalText + `"}]}},"stopReason":"end_turn","usage":{"inputTokens":720,"outputTokens":22,"totalTokens":742},"metrics":{"latencyMs":500}}`,
			},
		},
		{
			provider: adapters.ForOllama(),
			request: func(tools any, history []any) any {
				return map[string]any{"model": "qwen3", "stream": false, "messages": history, "tools": tools}
			},
			replies: []string{
				`{"model":"qwen3","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":"","thinking":"Weather and time for Paris.","tool_calls":[{"function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}},{"function":{"index":1,"name":"get_time","arguments":{"zone":"Europe/Paris"}}}]},"done_reason":"stop","done":true,"eval_count":41}`,
				misread(`{"model":"qwen3","created_at":"2026-01-01T00:00:01Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"index":0,"name":"celsius_to_fahrenheit","arguments":{"celsius":21}}}]},"done_reason":"stop","done":true,"eval_count":18}`),
				`{"model":"qwen3","created_at":"2026-01-01T00:00:01Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"index":0,"name":"celsius_to_fahrenheit","arguments":{"celsius":21}}}]},"done_reason":"stop","done":true,"eval_count":18}`,
				`{"model":"qwen3","created_at":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":"` + finalText + `"},"done_reason":"stop","done":true,"eval_count":20}`,
			},
		},
		{
			provider: adapters.ForMistral(),
			request: func(tools any, history []any) any {
				return map[string]any{"model": "mistral-large-latest", "messages": history, "tools": tools}
			},
			replies: []string{
				`{"id":"9f1c2d3e4a5b6c7d8e9f0a1b2c3d4e5f","object":"chat.completion","created":1767225600,"model":"mistral-large-latest","choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"id":"wX1pQ7rS2","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"},"index":0},{"id":"tZ2mN8bV4","function":{"name":"get_time","arguments":"{\"zone\":\"Europe/Paris\"}"},"index":1}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":125,"completion_tokens":44,"total_tokens":169}}`,
				misread(`{"id":"0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d","object":"chat.completion","created":1767225601,"model":"mistral-large-latest","choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"id":"cV3kL9jH6","function":{"name":"celsius_to_fahrenheit","arguments":"{\"celsius\":21}"},"index":0}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":195,"completion_tokens":19,"total_tokens":214}}`),
				`{"id":"0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d","object":"chat.completion","created":1767225601,"model":"mistral-large-latest","choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"id":"cV3kL9jH6","function":{"name":"celsius_to_fahrenheit","arguments":"{\"celsius\":21}"},"index":0}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":195,"completion_tokens":19,"total_tokens":214}}`,
				`{"id":"1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e","object":"chat.completion","created":1767225602,"model":"mistral-large-latest","choices":[{"index":0,"message":{"role":"assistant","content":"` + finalText + `"},"finish_reason":"stop"}],"usage":{"prompt_tokens":235,"completion_tokens":19,"total_tokens":254}}`,
			},
		},
		{
			// MCP: the "model" is an MCP client (a host with its model behind
			// it) sending tools/call requests; it has no final text and ends
			// the session when done.
			provider: adapters.ForMCP(),
			request: func(tools any, history []any) any {
				return map[string]any{"tools/list result": map[string]any{"tools": tools}, "messages so far": history}
			},
			replies: []string{
				`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Paris"}}},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_time","arguments":{"zone":"Europe/Paris"}}}]`,
				`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"celsius_to_fahrenheit","arguments":{"celsius":"21 °C"}}}`,
				`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"celsius_to_fahrenheit","arguments":{"celsius":21}}}`,
			},
		},
	}
}

// misread derives the model's bad turn from its corrected one: the same
// call, with the temperature sent as text and its own call id.
func misread(corrected string) string {
	return strings.NewReplacer(
		`{\"celsius\":21}`, `{\"celsius\":\"21 °C\"}`,
		`{"celsius":21}`, `{"celsius":"21 °C"}`,
		"cV3", "bX3",
	).Replace(corrected)
}
