package adapters_test

import (
	"github.com/toolnexus/toolnexus/define"
)

// A reply fixture per provider, in the provider's real response shape: the
// model calls get_weather, get_time and list_cities (the last with no
// arguments, sent the way the provider sends none) in one turn.
var replyFixtures = []struct {
	provider string
	reply    string
}{
	{"openai", `{
  "id": "chatcmpl-AB12", "object": "chat.completion", "created": 1767225600, "model": "gpt-4.1",
  "choices": [{
    "index": 0,
    "message": {
      "role": "assistant", "content": null, "refusal": null, "annotations": [],
      "tool_calls": [
        {"id": "call_w1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\", \"days\": 2}"}},
        {"id": "call_t2", "type": "function", "function": {"name": "get_time", "arguments": "{\"zone\":\"Europe/Paris\"}"}},
        {"id": "call_l3", "type": "function", "function": {"name": "list_cities", "arguments": ""}}
      ]
    },
    "logprobs": null,
    "finish_reason": "tool_calls"
  }],
  "usage": {"prompt_tokens": 81, "completion_tokens": 52, "total_tokens": 133}
}`},
	{"openai-responses", `{
  "id": "resp_67ab", "object": "response", "status": "completed", "model": "o4-mini",
  "output": [
    {"type": "reasoning", "id": "rs_01", "summary": [], "encrypted_content": "gAAAAB..."},
    {"type": "function_call", "id": "fc_01", "call_id": "call_w1", "name": "get_weather", "arguments": "{\"city\":\"Paris\",\"days\":2}", "status": "completed"},
    {"type": "function_call", "id": "fc_02", "call_id": "call_t2", "name": "get_time", "arguments": "{\"zone\":\"Europe/Paris\"}", "status": "completed"},
    {"type": "function_call", "id": "fc_03", "call_id": "call_l3", "name": "list_cities", "arguments": "", "status": "completed"}
  ],
  "usage": {"input_tokens": 90, "output_tokens": 60, "total_tokens": 150}
}`},
	{"anthropic", `{
  "id": "msg_01XF", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
  "content": [
    {"type": "thinking", "thinking": "Weather, time, then cities.", "signature": "EqQBCgIYAhIM"},
    {"type": "text", "text": "Let me check."},
    {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {"city": "Paris", "days": 2}},
    {"type": "tool_use", "id": "toolu_01B", "name": "get_time", "input": {"zone": "Europe/Paris"}},
    {"type": "tool_use", "id": "toolu_01C", "name": "list_cities", "input": {}}
  ],
  "stop_reason": "tool_use", "stop_sequence": null,
  "usage": {"input_tokens": 400, "output_tokens": 120}
}`},
	{"gemini", `{
  "candidates": [{
    "content": {"role": "model", "parts": [
      {"functionCall": {"id": "fc-a1", "name": "get_weather", "args": {"city": "Paris", "days": 2}}, "thoughtSignature": "CiQBVKhc7k1Q"},
      {"functionCall": {"id": "fc-a2", "name": "get_time", "args": {"zone": "Europe/Paris"}}},
      {"functionCall": {"name": "list_cities"}}
    ]},
    "finishReason": "STOP", "index": 0
  }],
  "usageMetadata": {"promptTokenCount": 70, "candidatesTokenCount": 30, "totalTokenCount": 100},
  "modelVersion": "gemini-3-pro-preview"
}`},
	{"bedrock", `{
  "output": {"message": {"role": "assistant", "content": [
    {"text": "I'll look these up."},
    {"toolUse": {"toolUseId": "tooluse_w1", "name": "get_weather", "input": {"city": "Paris", "days": 2}}},
    {"toolUse": {"toolUseId": "tooluse_t2", "name": "get_time", "input": {"zone": "Europe/Paris"}}},
    {"toolUse": {"toolUseId": "tooluse_l3", "name": "list_cities", "input": {}}}
  ]}},
  "stopReason": "tool_use",
  "usage": {"inputTokens": 300, "outputTokens": 90, "totalTokens": 390},
  "metrics": {"latencyMs": 812}
}`},
	{"mcp", `[
  {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}},
  {"jsonrpc": "2.0", "id": "req-8", "method": "tools/call", "params": {"name": "get_time", "arguments": {"zone": "Europe/Paris"}}},
  {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "list_cities", "_meta": {"progressToken": 1}}}
]`},
}

// fixtureWeather is a typed output, as define renders it: Output is its JSON and
// Value the Go value.
type fixtureWeather struct {
	City  string `json:"city"`
	TempC int    `json:"temp_c"`
	Sky   string `json:"sky"`
}

// resultFixtures answer the three calls of every reply fixture: a typed
// output, a plain text output, and an error.
var resultFixtures = []define.Result{
	{Output: `{"city":"Paris","temp_c":21,"sky":"sunny"}`, Value: fixtureWeather{City: "Paris", TempC: 21, Sky: "sunny"}},
	{Output: "14:05 CET"},
	{Output: "city index unavailable: upstream timed out", IsError: true},
}
