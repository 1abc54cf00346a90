package conformance

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"google.golang.org/genai"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

const prompt = "Weather in Paris, 100 EUR in USD, then book a flight for two."

// sdkCall is a tool call as the SDK itself parsed it, to cross-check our
// parser on the same bytes.
type sdkCall struct {
	ID, Name string
	Args     []byte
}

// driver sends one request through a provider's official SDK: the tools
// and the history (our library's JSON, decoded into the SDK's own request
// types), and returns the raw reply bytes with the SDK's view of it.
type driver interface {
	send(ctx context.Context, t *testing.T, history []any) (raw []byte, calls []sdkCall, text string, err error)
}

// sdkParam decodes our JSON value v into the SDK request type *dst and
// checks that the SDK writes it back unchanged (apart from nulls), so that
// nothing we send is silently dropped or reshaped by the SDK.
//
// equiv, when set, rewrites both sides first, for shapes the API documents
// as equivalent (Anthropic's "content": "text" and its one text block).
func sdkParam[T any](t *testing.T, what string, v any, dst *T, equiv ...func(any) any) {
	t.Helper()
	ours := mustJSON(t, v)
	if err := json.Unmarshal(ours, dst); err != nil {
		t.Fatalf("%s: the SDK's %T does not accept our JSON: %v\n%s", what, *dst, err, ours)
	}
	back := mustJSON(t, *dst)
	for _, f := range equiv {
		ours, back = rewriteJSON(t, ours, f), rewriteJSON(t, back, f)
	}
	if d := jsonDiff(ours, back, true); d != "" {
		t.Errorf("%s: the SDK's %T does not keep our JSON (-ours +SDK):\n%s", what, *dst, d)
	}
}

func rewriteJSON(t *testing.T, data []byte, f func(any) any) []byte {
	v, err := decodeJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	return mustJSON(t, f(v))
}

// textAsBlock rewrites every "content": "s" member into the equivalent
// [{"type":"text","text":"s"}] (Anthropic accepts both; its SDK sends the
// second).
func textAsBlock(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "content" {
				x[k] = []any{map[string]any{"type": "text", "text": s}}
				continue
			}
			x[k] = textAsBlock(e)
		}
	case []any:
		for i, e := range x {
			x[i] = textAsBlock(e)
		}
	}
	return v
}

// sdkCase is one provider, one option set.
type sdkCase struct {
	name     string
	provider adapters.Provider
	server   func(t *testing.T, wantTools []byte) *fakeAPI
	driver   func(t *testing.T, baseURL string, tools any, hc *http.Client) driver
}

func sdkCases() []sdkCase {
	return []sdkCase{
		{"openai", adapters.ForOpenAI(), openAIServer, newOpenAIDriver},
		{"openai_strict", adapters.ForOpenAI(adapters.Strict(true)), openAIServer, newOpenAIDriver},
		{"openai_responses", adapters.ForOpenAIResponses(), responsesServer, newResponsesDriver},
		{"openai_responses_strict", adapters.ForOpenAIResponses(adapters.Strict(true)), responsesServer, newResponsesDriver},
		{"anthropic", adapters.ForAnthropic(), anthropicServer, newAnthropicDriver},
		{"anthropic_strict", adapters.ForAnthropic(adapters.Strict(true)), anthropicServer, newAnthropicDriver},
		{"gemini", adapters.ForGemini(), geminiServer, newGeminiDriver},
		{"gemini_jsonschema", adapters.ForGemini(adapters.GeminiJSONSchema()), geminiServer, newGeminiDriver},
		{"gemini_parameters", adapters.ForGemini(adapters.GeminiParameters()), geminiServer, newGeminiDriver},
		{"openai_strict_where_possible", adapters.ForOpenAI(adapters.StrictWherePossible()), openAIServer, newOpenAIDriver},
		{"openai_responses_strict_where_possible", adapters.ForOpenAIResponses(adapters.StrictWherePossible()), responsesServer, newResponsesDriver},
		{"anthropic_strict_where_possible", adapters.ForAnthropic(adapters.StrictWherePossible()), anthropicServer, newAnthropicDriver},
	}
}

// TestSDKRoundTrip runs, for each provider, the official Go SDK against a
// local fake of the provider's API: the SDK sends our tools; the server
// checks them against our adapter's output and answers with two parallel
// tool calls in the provider's real shape; our Provider parses the reply,
// the Toolkit runs the calls, our results go back through the SDK; the
// server checks the pairing and answers with two more calls (one with a bad
// argument), then with a final text.
func TestSDKRoundTrip(t *testing.T) {
	for _, c := range sdkCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tk := sdkToolkit(t)
			tools, err := c.provider.Tools(tk.Tools())
			if err != nil {
				t.Fatalf("%s Tools: %v", c.provider.Name(), err)
			}
			fake := c.server(t, mustJSON(t, tools))
			srv := httptest.NewServer(fake)
			defer srv.Close()
			cap := &capture{}
			hc := &http.Client{Transport: cap, Timeout: 30 * time.Second}
			d := c.driver(t, srv.URL, tools, hc)
			runConversation(t, c.provider, tk, d)
			fake.mu.Lock()
			n := fake.requests
			fake.mu.Unlock()
			if n != len(conversation)+1 {
				t.Errorf("the server saw %d requests, want %d", n, len(conversation)+1)
			}
		})
	}
}

func runConversation(t *testing.T, p adapters.Provider, tk *toolnexus.Toolkit, d driver) {
	ctx := context.Background()
	history := p.Prompt(prompt)
	for turn := 0; ; turn++ {
		if turn > len(conversation) {
			t.Fatalf("the conversation did not end after %d turns", turn)
		}
		raw, sdkCalls, sdkText, err := d.send(ctx, t, history)
		if err != nil {
			t.Fatalf("turn %d: SDK request failed: %v", turn, err)
		}
		parsed, err := p.Parse(raw)
		if err != nil {
			t.Fatalf("turn %d: %s Parse: %v\nreply: %s", turn, p.Name(), err, raw)
		}
		checkAgainstSDK(t, turn, parsed, sdkCalls, sdkText)
		history = append(history, parsed.Replay...)
		if len(parsed.Calls) == 0 {
			if turn != len(conversation) {
				t.Fatalf("turn %d: no calls parsed, want %d", turn, len(conversation[turn]))
			}
			if parsed.Text != finalText {
				t.Errorf("final Text = %q, want %q", parsed.Text, finalText)
			}
			return
		}
		results := runCalls(ctx, tk, parsed.Calls)
		next, err := p.Results(parsed.Calls, results)
		if err != nil {
			t.Fatalf("turn %d: %s Results: %v", turn, p.Name(), err)
		}
		history = append(history, next...)
	}
}

// runCalls runs a batch of calls through the Toolkit.
func runCalls(ctx context.Context, tk *toolnexus.Toolkit, calls []adapters.Call) []define.Result {
	return tk.Run(ctx, calls)
}

// checkAgainstSDK compares our parse of a reply with the SDK's parse of the
// same bytes, and with the plan.
func checkAgainstSDK(t *testing.T, turn int, parsed adapters.Turn, sdkCalls []sdkCall, sdkText string) {
	t.Helper()
	if len(parsed.Calls) != len(sdkCalls) {
		t.Fatalf("turn %d: we parsed %d calls, the SDK %d", turn, len(parsed.Calls), len(sdkCalls))
	}
	for i, c := range parsed.Calls {
		s := sdkCalls[i]
		if c.ID != s.ID || c.Name != s.Name {
			t.Errorf("turn %d call %d: we parsed id %q name %q, the SDK id %q name %q", turn, i, c.ID, c.Name, s.ID, s.Name)
		}
		if d := jsonDiff(s.Args, c.Args, false); d != "" {
			t.Errorf("turn %d call %d: arguments differ (-SDK +ours):\n%s", turn, i, d)
		}
		if turn < len(conversation) {
			pc := conversation[turn][i]
			if c.Name != pc.Name {
				t.Errorf("turn %d call %d: name %q, want %q", turn, i, c.Name, pc.Name)
			}
			if d := jsonDiff([]byte(pc.Args), c.Args, false); d != "" {
				t.Errorf("turn %d call %d: arguments differ from the server's (-server +parsed):\n%s", turn, i, d)
			}
		}
	}
	if turn < len(conversation) && len(parsed.Calls) != len(conversation[turn]) {
		t.Fatalf("turn %d: parsed %d calls, the server sent %d", turn, len(parsed.Calls), len(conversation[turn]))
	}
	if sdkText != parsed.Text {
		t.Errorf("turn %d: Text = %q, the SDK says %q", turn, parsed.Text, sdkText)
	}
}

// ---------------------------------------------------------------------------
// OpenAI Chat Completions

func openAIServer(t *testing.T, wantTools []byte) *fakeAPI {
	return &fakeAPI{
		t: t, name: "openai", path: "/v1/chat/completions", authKeys: []string{"Authorization"}, wantTools: wantTools,
		toolsOf: func(body map[string]any) any { return body["tools"] },
		history: openAIHistory,
		reply:   openAIReply,
		errShape: func(msg string) string {
			return string(mustJSON(t, map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}}))
		},
	}
}

func openAIHistory(body map[string]any, turn int) error {
	msgs, err := arr(body["messages"], "messages")
	if err != nil {
		return err
	}
	want := 1
	for j := 0; j < turn; j++ {
		want += 1 + len(conversation[j])
	}
	if len(msgs) != want {
		return fmt.Errorf("%d messages, want %d", len(msgs), want)
	}
	m, err := obj(msgs[0], "messages[0]")
	if err != nil {
		return err
	}
	if txt, err := textOf(m["content"], "messages[0].content"); err != nil || m["role"] != "user" || txt != prompt {
		return fmt.Errorf("messages[0] is not the user's prompt: %v", m)
	}
	idx := 1
	for j := 0; j < turn; j++ {
		at := fmt.Sprintf("messages[%d]", idx)
		m, err := obj(msgs[idx], at)
		if err != nil {
			return err
		}
		if m["role"] != "assistant" {
			return fmt.Errorf("%s.role = %v, want assistant (the model's turn %d replayed)", at, m["role"], j)
		}
		tcs, err := arr(m["tool_calls"], at+".tool_calls")
		if err != nil {
			return err
		}
		if len(tcs) != len(conversation[j]) {
			return fmt.Errorf("%s has %d tool_calls, want %d", at, len(tcs), len(conversation[j]))
		}
		for i, tc := range tcs {
			w := fmt.Sprintf("%s.tool_calls[%d]", at, i)
			tcm, err := obj(tc, w)
			if err != nil {
				return err
			}
			fn, err := obj(tcm["function"], w+".function")
			if err != nil {
				return err
			}
			if tcm["id"] != callID("call_", j, i) || tcm["type"] != "function" || fn["name"] != conversation[j][i].Name {
				return fmt.Errorf("%s = %v, want id %s, type function, name %s", w, tcm, callID("call_", j, i), conversation[j][i].Name)
			}
			if _, ok := fn["arguments"].(string); !ok {
				return fmt.Errorf("%s.function.arguments is not a string", w)
			}
			if err := sameArgs(fn["arguments"], conversation[j][i].Args, w); err != nil {
				return err
			}
		}
		idx++
		for i, pc := range conversation[j] {
			at := fmt.Sprintf("messages[%d]", idx)
			m, err := obj(msgs[idx], at)
			if err != nil {
				return err
			}
			if m["role"] != "tool" || m["tool_call_id"] != callID("call_", j, i) {
				return fmt.Errorf("%s: role %v tool_call_id %v, want a tool message for %s (results in call order)", at, m["role"], m["tool_call_id"], callID("call_", j, i))
			}
			content, err := textOf(m["content"], at+".content")
			if err != nil {
				return err
			}
			rest, isErr := strings.CutPrefix(content, "error: ")
			if err := checkOutput(pc, rest, isErr); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			idx++
		}
	}
	return nil
}

func openAIReply(turn int) string {
	msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil}
	finish := "tool_calls"
	if turn == len(conversation) {
		msg["content"] = finalText
		finish = "stop"
	} else {
		var tcs []any
		for i, pc := range conversation[turn] {
			tcs = append(tcs, map[string]any{"id": callID("call_", turn, i), "type": "function",
				"function": map[string]any{"name": pc.Name, "arguments": pc.Args}})
		}
		msg["tool_calls"] = tcs
	}
	data, _ := json.Marshal(map[string]any{
		"id": fmt.Sprintf("chatcmpl-%d", turn), "object": "chat.completion", "created": 1767225600, "model": "gpt-test",
		"choices": []any{map[string]any{"index": 0, "message": msg, "logprobs": nil, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70},
	})
	return string(data)
}

type openAIDriver struct {
	client openai.Client
	tools  []openai.ChatCompletionToolUnionParam
	cap    *capture
}

func newOpenAIDriver(t *testing.T, baseURL string, tools any, hc *http.Client) driver {
	d := &openAIDriver{cap: hc.Transport.(*capture)}
	sdkParam(t, "tools", tools, &d.tools)
	d.client = openai.NewClient(option.WithBaseURL(baseURL+"/v1/"), option.WithAPIKey(fakeKey),
		option.WithHTTPClient(hc), option.WithMaxRetries(0))
	return d
}

func (d *openAIDriver) send(ctx context.Context, t *testing.T, history []any) ([]byte, []sdkCall, string, error) {
	msgs := make([]openai.ChatCompletionMessageParamUnion, len(history))
	for i, h := range history {
		sdkParam(t, fmt.Sprintf("history[%d]", i), h, &msgs[i])
	}
	resp, err := d.client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "gpt-test", Messages: msgs, Tools: d.tools})
	if err != nil {
		return nil, nil, "", err
	}
	if len(resp.Choices) != 1 {
		return nil, nil, "", fmt.Errorf("the SDK parsed %d choices", len(resp.Choices))
	}
	var calls []sdkCall
	for _, tc := range resp.Choices[0].Message.ToolCalls {
		calls = append(calls, sdkCall{tc.ID, tc.Function.Name, []byte(tc.Function.Arguments)})
	}
	return d.cap.Last(), calls, resp.Choices[0].Message.Content, nil
}

// ---------------------------------------------------------------------------
// OpenAI Responses

func responsesServer(t *testing.T, wantTools []byte) *fakeAPI {
	return &fakeAPI{
		t: t, name: "openai-responses", path: "/v1/responses", authKeys: []string{"Authorization"}, wantTools: wantTools,
		toolsOf: func(body map[string]any) any { return body["tools"] },
		history: responsesHistory,
		reply:   responsesReply,
		errShape: func(msg string) string {
			return string(mustJSON(t, map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}}))
		},
	}
}

func responsesHistory(body map[string]any, turn int) error {
	items, err := arr(body["input"], "input")
	if err != nil {
		return err
	}
	want := 1
	for j := 0; j < turn; j++ {
		want += 1 + 2*len(conversation[j]) // a reasoning item, the calls, the outputs
	}
	if len(items) != want {
		return fmt.Errorf("%d input items, want %d", len(items), want)
	}
	m, err := obj(items[0], "input[0]")
	if err != nil {
		return err
	}
	if txt, err := textOf(m["content"], "input[0].content"); err != nil || m["role"] != "user" || txt != prompt {
		return fmt.Errorf("input[0] is not the user's prompt: %v", m)
	}
	idx := 1
	for j := 0; j < turn; j++ {
		at := fmt.Sprintf("input[%d]", idx)
		m, err := obj(items[idx], at)
		if err != nil {
			return err
		}
		if m["type"] != "reasoning" || m["id"] != fmt.Sprintf("rs_%d", j+1) {
			return fmt.Errorf("%s = %v, want the reasoning item rs_%d replayed next to its calls", at, m, j+1)
		}
		idx++
		for i, pc := range conversation[j] {
			at := fmt.Sprintf("input[%d]", idx)
			m, err := obj(items[idx], at)
			if err != nil {
				return err
			}
			if m["type"] != "function_call" || m["call_id"] != callID("call_", j, i) || m["name"] != pc.Name {
				return fmt.Errorf("%s = %v, want function_call %s %s replayed", at, m, callID("call_", j, i), pc.Name)
			}
			if err := sameArgs(m["arguments"], pc.Args, at); err != nil {
				return err
			}
			idx++
		}
		for i, pc := range conversation[j] {
			at := fmt.Sprintf("input[%d]", idx)
			m, err := obj(items[idx], at)
			if err != nil {
				return err
			}
			if m["type"] != "function_call_output" || m["call_id"] != callID("call_", j, i) {
				return fmt.Errorf("%s = type %v call_id %v, want function_call_output for %s (in call order)", at, m["type"], m["call_id"], callID("call_", j, i))
			}
			out, err := textOf(m["output"], at+".output")
			if err != nil {
				return err
			}
			rest, isErr := strings.CutPrefix(out, "error: ")
			if err := checkOutput(pc, rest, isErr); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			idx++
		}
	}
	return nil
}

func responsesReply(turn int) string {
	var output []any
	status := "completed"
	if turn == len(conversation) {
		output = append(output, map[string]any{"type": "message", "id": "msg_final", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": finalText, "annotations": []any{}}}})
	} else {
		output = append(output, map[string]any{"type": "reasoning", "id": fmt.Sprintf("rs_%d", turn+1), "summary": []any{}})
		for i, pc := range conversation[turn] {
			output = append(output, map[string]any{"type": "function_call", "id": callID("fc_", turn, i), "call_id": callID("call_", turn, i),
				"name": pc.Name, "arguments": pc.Args, "status": "completed"})
		}
	}
	data, _ := json.Marshal(map[string]any{
		"id": fmt.Sprintf("resp_%d", turn), "object": "response", "created_at": 1767225600, "status": status, "model": "gpt-test",
		"output": output, "parallel_tool_calls": true, "tool_choice": "auto", "tools": []any{}, "temperature": 1, "top_p": 1,
		"error": nil, "incomplete_details": nil, "instructions": nil, "metadata": map[string]any{},
		"usage": map[string]any{"input_tokens": 50, "output_tokens": 20, "total_tokens": 70,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}},
	})
	return string(data)
}

// withMessageType adds "type": "message" to an input item that has a role
// and no type. The Responses API accepts such an item (EasyInputMessage's
// type is optional), but openai-go's input-item union cannot decode it: it
// picks the variant by "type". Our Prompt entry is such an item.
func withMessageType(t *testing.T, h any) any {
	v, err := decodeJSON(mustJSON(t, h))
	if err != nil {
		t.Fatal(err)
	}
	m, ok := v.(map[string]any)
	if !ok || m["type"] != nil || m["role"] == nil {
		return h
	}
	m["type"] = "message"
	return m
}

type responsesDriver struct {
	client openai.Client
	tools  []responses.ToolUnionParam
	cap    *capture
}

func newResponsesDriver(t *testing.T, baseURL string, tools any, hc *http.Client) driver {
	d := &responsesDriver{cap: hc.Transport.(*capture)}
	sdkParam(t, "tools", tools, &d.tools)
	d.client = openai.NewClient(option.WithBaseURL(baseURL+"/v1/"), option.WithAPIKey(fakeKey),
		option.WithHTTPClient(hc), option.WithMaxRetries(0))
	return d
}

func (d *responsesDriver) send(ctx context.Context, t *testing.T, history []any) ([]byte, []sdkCall, string, error) {
	items := make(responses.ResponseInputParam, len(history))
	for i, h := range history {
		sdkParam(t, fmt.Sprintf("input[%d]", i), withMessageType(t, h), &items[i])
	}
	resp, err := d.client.Responses.New(ctx, responses.ResponseNewParams{
		Model: "gpt-test", Input: responses.ResponseNewParamsInputUnion{OfInputItemList: items}, Tools: d.tools})
	if err != nil {
		return nil, nil, "", err
	}
	var calls []sdkCall
	for _, it := range resp.Output {
		if it.Type == "function_call" {
			calls = append(calls, sdkCall{it.CallID, it.Name, []byte(it.Arguments.OfString)})
		}
	}
	return d.cap.Last(), calls, resp.OutputText(), nil
}

// ---------------------------------------------------------------------------
// Anthropic Messages

func anthropicServer(t *testing.T, wantTools []byte) *fakeAPI {
	return &fakeAPI{
		t: t, name: "anthropic", path: "/v1/messages", authKeys: []string{"X-Api-Key", "Authorization"}, wantTools: wantTools,
		toolsOf: func(body map[string]any) any { return body["tools"] },
		history: anthropicHistory,
		reply:   anthropicReply,
		errShape: func(msg string) string {
			return string(mustJSON(t, map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": msg}}))
		},
	}
}

func anthropicHistory(body map[string]any, turn int) error {
	msgs, err := arr(body["messages"], "messages")
	if err != nil {
		return err
	}
	if len(msgs) != 1+2*turn {
		return fmt.Errorf("%d messages, want %d", len(msgs), 1+2*turn)
	}
	m, err := obj(msgs[0], "messages[0]")
	if err != nil {
		return err
	}
	if txt, err := textOf(m["content"], "messages[0].content"); err != nil || m["role"] != "user" || txt != prompt {
		return fmt.Errorf("messages[0] is not the user's prompt: %v", m)
	}
	for j := 0; j < turn; j++ {
		at := fmt.Sprintf("messages[%d]", 1+2*j)
		m, err := obj(msgs[1+2*j], at)
		if err != nil {
			return err
		}
		blocks, err := arr(m["content"], at+".content")
		if err != nil {
			return err
		}
		if m["role"] != "assistant" || len(blocks) != 1+len(conversation[j]) {
			return fmt.Errorf("%s: role %v with %d blocks, want the assistant turn %d replayed (text + %d tool_use)", at, m["role"], len(blocks), j, len(conversation[j]))
		}
		if b, _ := blocks[0].(map[string]any); b == nil || b["type"] != "text" || b["text"] != "Checking." {
			return fmt.Errorf("%s.content[0] = %v, want the text block", at, blocks[0])
		}
		for i, pc := range conversation[j] {
			w := fmt.Sprintf("%s.content[%d]", at, i+1)
			b, err := obj(blocks[i+1], w)
			if err != nil {
				return err
			}
			if b["type"] != "tool_use" || b["id"] != callID("toolu_", j, i) || b["name"] != pc.Name {
				return fmt.Errorf("%s = %v, want tool_use %s %s", w, b, callID("toolu_", j, i), pc.Name)
			}
			if _, ok := b["input"].(map[string]any); !ok {
				return fmt.Errorf("%s.input is not an object (replay input as a JSON object, never a string)", w)
			}
			if err := sameArgs(b["input"], pc.Args, w); err != nil {
				return err
			}
		}
		at = fmt.Sprintf("messages[%d]", 2+2*j)
		m, err = obj(msgs[2+2*j], at)
		if err != nil {
			return err
		}
		blocks, err = arr(m["content"], at+".content")
		if err != nil {
			return err
		}
		if m["role"] != "user" || len(blocks) < len(conversation[j]) {
			return fmt.Errorf("%s: role %v with %d blocks, want a user message starting with %d tool_result blocks", at, m["role"], len(blocks), len(conversation[j]))
		}
		for i, pc := range conversation[j] {
			w := fmt.Sprintf("%s.content[%d]", at, i)
			b, err := obj(blocks[i], w)
			if err != nil {
				return err
			}
			if b["type"] != "tool_result" || b["tool_use_id"] != callID("toolu_", j, i) {
				return fmt.Errorf("%s = type %v tool_use_id %v, want tool_result for %s (results first, in call order)", w, b["type"], b["tool_use_id"], callID("toolu_", j, i))
			}
			content, err := textOf(b["content"], w+".content")
			if err != nil {
				return err
			}
			isErr, _ := b["is_error"].(bool)
			if err := checkOutput(pc, content, isErr); err != nil {
				return fmt.Errorf("%s: %w", w, err)
			}
		}
	}
	return nil
}

func anthropicReply(turn int) string {
	var content []any
	stop := "tool_use"
	if turn == len(conversation) {
		content = []any{map[string]any{"type": "text", "text": finalText}}
		stop = "end_turn"
	} else {
		content = append(content, map[string]any{"type": "text", "text": "Checking."})
		for i, pc := range conversation[turn] {
			content = append(content, map[string]any{"type": "tool_use", "id": callID("toolu_", turn, i), "name": pc.Name,
				"input": json.RawMessage(pc.Args)})
		}
	}
	data, _ := json.Marshal(map[string]any{
		"id": fmt.Sprintf("msg_%d", turn), "type": "message", "role": "assistant", "model": "claude-test",
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 50, "output_tokens": 20},
	})
	return string(data)
}

type anthropicDriver struct {
	client anthropic.Client
	tools  []anthropic.ToolUnionParam
	cap    *capture
}

func newAnthropicDriver(t *testing.T, baseURL string, tools any, hc *http.Client) driver {
	d := &anthropicDriver{cap: hc.Transport.(*capture)}
	sdkParam(t, "tools", tools, &d.tools)
	d.client = anthropic.NewClient(anthropicoption.WithBaseURL(baseURL), anthropicoption.WithAPIKey(fakeKey),
		anthropicoption.WithHTTPClient(hc), anthropicoption.WithMaxRetries(0))
	return d
}

func (d *anthropicDriver) send(ctx context.Context, t *testing.T, history []any) ([]byte, []sdkCall, string, error) {
	msgs := make([]anthropic.MessageParam, len(history))
	for i, h := range history {
		sdkParam(t, fmt.Sprintf("messages[%d]", i), h, &msgs[i], textAsBlock)
	}
	resp, err := d.client.Messages.New(ctx, anthropic.MessageNewParams{Model: "claude-test", MaxTokens: 1024, Messages: msgs, Tools: d.tools})
	if err != nil {
		return nil, nil, "", err
	}
	var calls []sdkCall
	var text strings.Builder
	for _, b := range resp.Content {
		switch b.Type {
		case "tool_use":
			calls = append(calls, sdkCall{b.ID, b.Name, []byte(b.Input)})
		case "text":
			text.WriteString(b.Text)
		}
	}
	return d.cap.Last(), calls, text.String(), nil
}

// ---------------------------------------------------------------------------
// Gemini generateContent

// geminiSignature is the thought signature of the first call of each turn,
// which must come back unchanged in the replayed model content.
var geminiSignature = base64.StdEncoding.EncodeToString([]byte("opaque-signature"))

func geminiServer(t *testing.T, wantTools []byte) *fakeAPI {
	return &fakeAPI{
		t: t, name: "gemini", path: "/v1beta/models/gemini-test:generateContent", authKeys: []string{"X-Goog-Api-Key"}, wantTools: wantTools,
		toolsOf: func(body map[string]any) any { return body["tools"] },
		history: geminiHistory,
		reply:   geminiReply,
		errShape: func(msg string) string {
			return string(mustJSON(t, map[string]any{"error": map[string]any{"code": 400, "message": msg, "status": "INVALID_ARGUMENT"}}))
		},
	}
}

// geminiID is the id of call i of turn j: the first turn has ids, the
// second has none (Gemini then pairs results by name and order).
func geminiID(j, i int) string {
	if j == 0 {
		return callID("g", j, i)
	}
	return ""
}

func geminiHistory(body map[string]any, turn int) error {
	contents, err := arr(body["contents"], "contents")
	if err != nil {
		return err
	}
	if len(contents) != 1+2*turn {
		return fmt.Errorf("%d contents, want %d", len(contents), 1+2*turn)
	}
	first, err := obj(contents[0], "contents[0]")
	if err != nil {
		return err
	}
	if first["role"] != "user" || mustText(first["parts"]) != prompt {
		return fmt.Errorf("contents[0] is not the user's prompt: %v", first)
	}
	for j := 0; j < turn; j++ {
		at := fmt.Sprintf("contents[%d]", 1+2*j)
		m, err := obj(contents[1+2*j], at)
		if err != nil {
			return err
		}
		parts, err := arr(m["parts"], at+".parts")
		if err != nil {
			return err
		}
		if m["role"] != "model" || len(parts) != len(conversation[j]) {
			return fmt.Errorf("%s: role %v with %d parts, want the model turn %d replayed with %d functionCall parts", at, m["role"], len(parts), j, len(conversation[j]))
		}
		for i, pc := range conversation[j] {
			w := fmt.Sprintf("%s.parts[%d]", at, i)
			p, err := obj(parts[i], w)
			if err != nil {
				return err
			}
			fc, err := obj(p["functionCall"], w+".functionCall")
			if err != nil {
				return err
			}
			id, _ := fc["id"].(string)
			if fc["name"] != pc.Name || id != geminiID(j, i) {
				return fmt.Errorf("%s.functionCall = %v, want name %s id %q", w, fc, pc.Name, geminiID(j, i))
			}
			if err := sameArgs(fc["args"], pc.Args, w+".functionCall.args"); err != nil {
				return err
			}
			sig, _ := p["thoughtSignature"].(string)
			if wantSig := map[bool]string{true: geminiSignature}[i == 0]; sig != wantSig {
				return fmt.Errorf("%s.thoughtSignature = %q, want %q (echo it verbatim)", w, sig, wantSig)
			}
		}
		at = fmt.Sprintf("contents[%d]", 2+2*j)
		m, err = obj(contents[2+2*j], at)
		if err != nil {
			return err
		}
		parts, err = arr(m["parts"], at+".parts")
		if err != nil {
			return err
		}
		if m["role"] != "user" || len(parts) != len(conversation[j]) {
			return fmt.Errorf("%s: role %v with %d parts, want exactly %d functionResponse parts", at, m["role"], len(parts), len(conversation[j]))
		}
		for i, pc := range conversation[j] {
			w := fmt.Sprintf("%s.parts[%d].functionResponse", at, i)
			p, err := obj(parts[i], w)
			if err != nil {
				return err
			}
			fr, err := obj(p["functionResponse"], w)
			if err != nil {
				return err
			}
			id, _ := fr["id"].(string)
			if fr["name"] != pc.Name || id != geminiID(j, i) {
				return fmt.Errorf("%s: name %v id %q, want %s %q (in call order)", w, fr["name"], id, pc.Name, geminiID(j, i))
			}
			resp, err := obj(fr["response"], w+".response")
			if err != nil {
				return err
			}
			if len(resp) != 1 {
				return fmt.Errorf("%s.response has keys %v, want exactly one of output, error", w, sortedKeys(resp))
			}
			if e, ok := resp["error"]; ok {
				s, err := str(e, w+".response.error")
				if err != nil {
					return err
				}
				if err := checkOutput(pc, s, true); err != nil {
					return fmt.Errorf("%s: %w", w, err)
				}
				continue
			}
			out, ok := resp["output"]
			if !ok {
				return fmt.Errorf("%s.response has neither output nor error", w)
			}
			got, isStr := out.(string)
			if !isStr {
				got = string(mustJSONNoT(out))
			}
			if err := checkOutput(pc, got, false); err != nil {
				return fmt.Errorf("%s: %w", w, err)
			}
		}
	}
	return nil
}

func mustText(parts any) string {
	ps, _ := parts.([]any)
	var b strings.Builder
	for _, p := range ps {
		m, _ := p.(map[string]any)
		s, _ := m["text"].(string)
		b.WriteString(s)
	}
	return b.String()
}

func mustJSONNoT(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

func geminiReply(turn int) string {
	var parts []any
	if turn == len(conversation) {
		parts = []any{map[string]any{"text": finalText}}
	} else {
		for i, pc := range conversation[turn] {
			fc := map[string]any{"name": pc.Name, "args": json.RawMessage(pc.Args)}
			if id := geminiID(turn, i); id != "" {
				fc["id"] = id
			}
			part := map[string]any{"functionCall": fc}
			if i == 0 {
				part["thoughtSignature"] = geminiSignature
			}
			parts = append(parts, part)
		}
	}
	data, _ := json.Marshal(map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 50, "candidatesTokenCount": 20, "totalTokenCount": 70},
		"modelVersion":  "gemini-test", "responseId": fmt.Sprintf("resp-%d", turn),
	})
	return string(data)
}

type geminiDriver struct {
	client *genai.Client
	tools  []*genai.Tool
	cap    *capture
}

func newGeminiDriver(t *testing.T, baseURL string, tools any, hc *http.Client) driver {
	d := &geminiDriver{cap: hc.Transport.(*capture)}
	sdkParam(t, "tools", tools, &d.tools)
	var err error
	d.client, err = genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey: fakeKey, Backend: genai.BackendGeminiAPI, HTTPClient: hc,
		HTTPOptions: genai.HTTPOptions{BaseURL: baseURL, APIVersion: "v1beta"},
	})
	if err != nil {
		t.Fatalf("genai.NewClient: %v", err)
	}
	return d
}

func (d *geminiDriver) send(ctx context.Context, t *testing.T, history []any) ([]byte, []sdkCall, string, error) {
	contents := make([]*genai.Content, len(history))
	for i, h := range history {
		sdkParam(t, fmt.Sprintf("contents[%d]", i), h, &contents[i])
	}
	resp, err := d.client.Models.GenerateContent(ctx, "gemini-test", contents, &genai.GenerateContentConfig{Tools: d.tools})
	if err != nil {
		return nil, nil, "", err
	}
	var calls []sdkCall
	for _, fc := range resp.FunctionCalls() {
		args, err := json.Marshal(fc.Args)
		if err != nil {
			return nil, nil, "", err
		}
		calls = append(calls, sdkCall{fc.ID, fc.Name, args})
	}
	text := ""
	if len(calls) == 0 {
		text = resp.Text()
	}
	return d.cap.Last(), calls, text, nil
}
