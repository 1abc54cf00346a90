package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolnexus/toolnexus/adapters"
)

// The scripted conversation, the same for every provider. The model calls
// get_weather and get_time at once (step 1); then celsius_to_fahrenheit
// with the temperature as text, "21 °C" (step 2), which the decoder
// rejects; it reads the error and sends 21 (step 3); it calls book_table
// (step 4), which waits for a person's approval: the run pauses, and
// resumes once it is approved; then it answers with the typed Report as
// JSON (step 5), in the response format the request asked for.
var story = []step{
	{calls: []call{{"wX1", "get_weather", `{"city":"Paris"}`}, {"tZ2", "get_time", `{"city":"Paris"}`}}, in: 310, out: 52},
	{after: "sunny", calls: []call{{"bX3", "celsius_to_fahrenheit", `{"celsius":"21 °C"}`}}, in: 402, out: 31},
	{after: "expected number", calls: []call{{"cV4", "celsius_to_fahrenheit", `{"celsius":21}`}}, in: 468, out: 30},
	{after: "69.8", calls: []call{{"bK5", "book_table", `{"city":"Paris","time":"19:30","people":2}`}}, in: 521, out: 44},
	{after: "T-1930", text: finalAnswer, in: 598, out: 38},
}

// finalAnswer is the model's last reply: the Report, as JSON.
const finalAnswer = `{"city":"Paris","temp_f":69.8,"local_time":"14:05","booked":true}`

// step is one reply of the scripted model: its tool calls, or its text,
// and the usage it reports. The model sends it when the request holds
// after (the result it reads) and no later step's.
type step struct {
	after   string
	calls   []call
	text    string
	in, out int64
}

// call is one tool call of a step: its id (each provider dresses it in its
// own style), the tool's name, its arguments as JSON.
type call struct{ id, name, args string }

// script is one provider's part in the demo: the model's name, and the
// provider's real reply shape for a step.
type script struct {
	provider adapters.Provider
	model    string
	reply    func(n int, s step) string // the whole reply body to the n-th step (from 1)
}

// scriptedModel is the demo's model: a transport.Transport that answers
// each request body with its script's reply, parsed by the provider's
// parser. It keeps no state: like a model, it reads where the conversation
// is from the request (the results it holds), so an Agent that resumes a
// paused run in another process gets the right reply from a new one.
type scriptedModel struct {
	script
	show func(step int, reply []byte) // sees each reply (-v); may be nil
}

// Send answers body with the reply to the latest step whose results it holds.
func (m *scriptedModel) Send(_ context.Context, body []byte) (adapters.Turn, error) {
	n := 0
	for i := len(story) - 1; i > 0; i-- {
		if bytes.Contains(body, []byte(story[i].after)) {
			n = i
			break
		}
	}
	reply := []byte(m.reply(n+1, story[n]))
	if m.show != nil {
		m.show(n+1, reply)
	}
	return m.provider.Parse(reply)
}

// Stream is not scripted: the demo's runs read whole replies.
func (m *scriptedModel) Stream(context.Context, []byte, adapters.StreamHooks) (adapters.Turn, error) {
	return adapters.Turn{}, errors.New("demo: the scripted model sends whole replies only")
}

func scripts() []script {
	return []script{
		{adapters.ForOpenAI(), "gpt-4.1", openAIReply},
		{adapters.ForOpenAIResponses(), "o4-mini", responsesReply},
		{adapters.ForAnthropic(), "claude-sonnet-4-5", anthropicReply},
		{adapters.ForGemini(), "gemini-3-pro-preview", geminiReply},
		{adapters.ForBedrock(), "us.anthropic.claude-sonnet-4-5-20250929-v1:0", bedrockReply},
		{adapters.ForOllama(), "qwen3", ollamaReply},
		{adapters.ForMistral(), "mistral-large-latest", mistralReply},
	}
}

// q is s as a JSON string.
func q(s string) string {
	b, _ := json.Marshal(s) // a string always encodes
	return string(b)
}

// each joins f of every call of s with commas.
func each(s step, f func(i int, c call) string) string {
	parts := make([]string, len(s.calls))
	for i, c := range s.calls {
		parts[i] = f(i, c)
	}
	return strings.Join(parts, ",")
}

// pick is calls when the step calls tools, else text.
func pick(s step, calls, text string) string {
	if len(s.calls) > 0 {
		return calls
	}
	return text
}

func openAIReply(n int, s step) string {
	msg := `"content":null,"refusal":null,"annotations":[],"tool_calls":[` + each(s, func(_ int, c call) string {
		return fmt.Sprintf(`{"id":"call_%s","type":"function","function":{"name":%q,"arguments":%s}}`, c.id, c.name, q(c.args))
	}) + `]`
	msg = pick(s, msg, `"content":`+q(s.text)+`,"refusal":null,"annotations":[]`)
	return fmt.Sprintf(`{"id":"chatcmpl-D%d","object":"chat.completion","created":%d,"model":"gpt-4.1-2025-04-14","choices":[{"index":0,"message":{"role":"assistant",%s},"logprobs":null,"finish_reason":%q}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":0}},"service_tier":"default","system_fingerprint":"fp_demo"}`,
		n, 1767225600+n, msg, pick(s, "tool_calls", "stop"), s.in, s.out, s.in+s.out)
}

func mistralReply(n int, s step) string {
	msg := `"content":"","tool_calls":[` + each(s, func(i int, c call) string {
		return fmt.Sprintf(`{"id":"%spQ7rS2","function":{"name":%q,"arguments":%s},"index":%d}`, c.id, c.name, q(c.args), i)
	}) + `]`
	msg = pick(s, msg, `"content":`+q(s.text)+`,"tool_calls":null`)
	return fmt.Sprintf(`{"id":"9f1c2d3e4a5b6c7d8e9f0a1b2c3d4e%02d","object":"chat.completion","created":%d,"model":"mistral-large-latest","choices":[{"index":0,"message":{"role":"assistant",%s},"finish_reason":%q}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`,
		n, 1767225600+n, msg, pick(s, "tool_calls", "stop"), s.in, s.out, s.in+s.out)
}

func responsesReply(n int, s step) string {
	out := fmt.Sprintf(`{"type":"reasoning","id":"rs_D%d","summary":[],"encrypted_content":"gAAAAABo%d"},`, n, n) + each(s, func(_ int, c call) string {
		return fmt.Sprintf(`{"type":"function_call","id":"fc_%s","call_id":"call_%s","name":%q,"arguments":%s,"status":"completed"}`, c.id, c.id, c.name, q(c.args))
	})
	out = pick(s, out, fmt.Sprintf(`{"type":"message","id":"msg_D%d","role":"assistant","status":"completed","content":[{"type":"output_text","text":%s,"annotations":[]}]}`, n, q(s.text)))
	return fmt.Sprintf(`{"id":"resp_D%d","object":"response","created_at":%d,"status":"completed","model":"o4-mini-2025-04-16","output":[%s],"usage":{"input_tokens":%d,"input_tokens_details":{"cached_tokens":0},"output_tokens":%d,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":%d}}`,
		n, 1767225600+n, out, s.in, s.out, s.in+s.out)
}

func anthropicReply(n int, s step) string {
	content := each(s, func(_ int, c call) string {
		return fmt.Sprintf(`{"type":"tool_use","id":"toolu_%s","name":%q,"input":%s}`, c.id, c.name, c.args)
	})
	content = pick(s, content, `{"type":"text","text":`+q(s.text)+`}`)
	return fmt.Sprintf(`{"id":"msg_D%d","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[%s],"stop_reason":%q,"stop_sequence":null,"usage":{"input_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":%d,"service_tier":"standard"}}`,
		n, content, pick(s, "tool_use", "end_turn"), s.in, s.out)
}

func geminiReply(n int, s step) string {
	parts := each(s, func(i int, c call) string {
		if i == 0 { // Gemini 3 signs the first call of a turn
			return fmt.Sprintf(`{"functionCall":{"name":%q,"args":%s},"thoughtSignature":"CiQBVKhc7kD%d"}`, c.name, c.args, n)
		}
		return fmt.Sprintf(`{"functionCall":{"name":%q,"args":%s}}`, c.name, c.args)
	})
	parts = pick(s, parts, `{"text":`+q(s.text)+`}`)
	return fmt.Sprintf(`{"candidates":[{"content":{"role":"model","parts":[%s]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":%d,"candidatesTokenCount":%d,"totalTokenCount":%d},"modelVersion":"gemini-3-pro-preview","responseId":"rD%d"}`,
		parts, s.in, s.out, s.in+s.out, n)
}

func bedrockReply(n int, s step) string {
	content := each(s, func(_ int, c call) string {
		return fmt.Sprintf(`{"toolUse":{"toolUseId":"tooluse_%s","name":%q,"input":%s}}`, c.id, c.name, c.args)
	})
	content = pick(s, content, `{"text":`+q(s.text)+`}`)
	return fmt.Sprintf(`{"output":{"message":{"role":"assistant","content":[%s]}},"stopReason":%q,"usage":{"inputTokens":%d,"outputTokens":%d,"totalTokens":%d},"metrics":{"latencyMs":%d}}`,
		content, pick(s, "tool_use", "end_turn"), s.in, s.out, s.in+s.out, 400+100*n)
}

func ollamaReply(n int, s step) string {
	msg := `"content":"","tool_calls":[` + each(s, func(i int, c call) string {
		return fmt.Sprintf(`{"function":{"index":%d,"name":%q,"arguments":%s}}`, i, c.name, c.args)
	}) + `]`
	msg = pick(s, msg, `"content":`+q(s.text))
	return fmt.Sprintf(`{"model":"qwen3","created_at":"2026-01-01T00:00:0%dZ","message":{"role":"assistant",%s},"done_reason":"stop","done":true,"prompt_eval_count":%d,"eval_count":%d}`,
		n, msg, s.in, s.out)
}
