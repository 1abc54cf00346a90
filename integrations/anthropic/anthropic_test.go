package tnanthropic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/golden"
	"github.com/toolnexus/toolnexus/integrations/anthropic"
	"github.com/toolnexus/toolnexus/internal/sdktest"
)

// TestTwoTurns: the official client, unmodified, talks to a server playing
// Anthropic Messages; the thinking block is replayed with its signature,
// the bad unit comes back as an is_error tool_result, the corrected call
// succeeds, and every request body is the golden one.
func TestTwoTurns(t *testing.T) {
	m := sdktest.NewModel(modelPath, script...)
	defer m.Close()
	ctx := context.Background()
	client := newClient(m)
	tk := sdktest.Toolkit()
	tools, err := tnanthropic.Tools(tk)
	if err != nil {
		t.Fatal(err)
	}
	params := anthropic.MessageNewParams{Model: "claude-test", MaxTokens: 1024, Tools: tools,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather and time in Oslo?"))}}
	var text string
	for turn := 1; text == ""; turn++ {
		if turn > len(script) {
			t.Fatalf("the loop did not end after %d turns", len(script))
		}
		msg, err := client.Messages.New(ctx, params)
		if err != nil {
			t.Fatalf("turn %d: %v (model: %v)", turn, err, m.Err())
		}
		next, done, err := tnanthropic.Run(ctx, tk, msg)
		if err != nil {
			t.Fatalf("turn %d: Run: %v", turn, err)
		}
		params.Messages = append(params.Messages, next...)
		if done {
			for _, block := range msg.Content {
				if block.Type == "text" {
					text += block.Text
				}
			}
		}
	}
	reqs := m.Finished(t, text, 3)
	rendered, err := tk.ToAnthropic()
	if err != nil {
		t.Fatal(err)
	}
	sent, err := sdktest.Member(reqs[0], "tools")
	if err != nil {
		t.Fatal(err)
	}
	if err := sdktest.SameTools(sent, rendered); err != nil {
		t.Error(err)
	}

	var last struct {
		Messages []map[string]any `json:"messages"`
	}
	if err := json.Unmarshal(reqs[2], &last); err != nil {
		t.Fatal(err)
	}
	result := func(id, text string, isError bool) map[string]any {
		return map[string]any{"type": "tool_result", "tool_use_id": id, "is_error": isError,
			"content": []any{map[string]any{"type": "text", "text": text}}}
	}
	use := func(id, name string, input map[string]any) map[string]any {
		return map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}
	}
	wantMsgs := []map[string]any{
		{"role": "user", "content": []any{map[string]any{"type": "text", "text": "Weather and time in Oslo?"}}},
		{"role": "assistant", "content": []any{
			map[string]any{"type": "thinking", "thinking": "Weather and time, in parallel.", "signature": "c2lnLW9uZQ=="},
			use("toolu_1", "get_weather", map[string]any{"city": "Oslo", "unit": "K"}),
			use("toolu_2", "local_time", map[string]any{"city": "Oslo"}),
		}},
		{"role": "user", "content": []any{
			result("toolu_1", `invalid arguments: /unit: expected one of "C", "F", got "K"`, true),
			result("toolu_2", "09:00 in Oslo", false),
		}},
		{"role": "assistant", "content": []any{
			map[string]any{"type": "text", "text": "Retrying in Celsius."},
			use("toolu_3", "get_weather", map[string]any{"city": "Oslo", "unit": "C"}),
		}},
		{"role": "user", "content": []any{result("toolu_3", `{"city":"Oslo","temperature":12,"unit":"C","sky":"overcast"}`, false)}},
	}
	if diff := cmp.Diff(wantMsgs, last.Messages); diff != "" {
		t.Errorf("last request's messages (-want +got):\n%s", diff)
	}
	golden.JSON(t, "testdata/requests.json", reqs)
}

// TestToolsStrict: options reach the rendering, and the params marshal to
// the rendered bytes.
func TestToolsStrict(t *testing.T) {
	tk := sdktest.Toolkit()
	tools, err := tnanthropic.Tools(tk, adapters.Strict(true))
	if err != nil {
		t.Fatal(err)
	}
	sent, err := json.Marshal(tools)
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := tk.ToAnthropic(adapters.Strict(true))
	if err != nil {
		t.Fatal(err)
	}
	if err := sdktest.SameTools(sent, rendered); err != nil {
		t.Error(err)
	}
	if !bytes.Contains(sent, []byte(`"strict":true`)) {
		t.Errorf("tools marshal to %s, without strict:true", sent)
	}
	if _, err := tnanthropic.Tools(tk, adapters.GeminiJSONSchema()); err == nil {
		t.Error("Tools(GeminiJSONSchema()) succeeded, want an error naming the option")
	}
}

func TestRunUnusableMessage(t *testing.T) {
	tk := sdktest.Toolkit()
	msg := func(raw string) *anthropic.Message {
		var m anthropic.Message
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			t.Fatal(err)
		}
		return &m
	}
	for name, m := range map[string]*anthropic.Message{
		"nil":     nil,
		"no id":   msg(`{"role":"assistant","content":[{"type":"tool_use","name":"local_time","input":{}}]}`),
		"no name": msg(`{"role":"assistant","content":[{"type":"tool_use","id":"t","input":{}}]}`),
	} {
		if _, _, err := tnanthropic.Run(context.Background(), tk, m); !errors.Is(err, tnanthropic.ErrReply) {
			t.Errorf("Run(%s) error = %v, want ErrReply", name, err)
		}
	}
}

// TestRunMissingInput: a tool_use without input runs with {} (here: a
// missing required property, reported to the model).
func TestRunMissingInput(t *testing.T) {
	var m anthropic.Message
	if err := json.Unmarshal([]byte(`{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"local_time"}]}`), &m); err != nil {
		t.Fatal(err)
	}
	next, done, err := tnanthropic.Run(context.Background(), sdktest.Toolkit(), &m)
	if err != nil || done || len(next) != 2 {
		t.Fatalf("Run = %d messages, done %v, err %v; want 2, false, nil", len(next), done, err)
	}
	r := next[1].OfUser.Content[0].OfToolResult
	if !r.IsError.Value || !strings.HasPrefix(r.Content[0].OfText.Text, "invalid arguments: /city: ") {
		t.Errorf("tool_result = is_error %v, %q; want the missing /city error", r.IsError.Value, r.Content[0].OfText.Text)
	}
}

// TestRunPauseTurn: a paused turn of server tools is not the answer; the
// assistant message goes back alone so that the model continues.
func TestRunPauseTurn(t *testing.T) {
	for _, tc := range []struct {
		stop string
		done bool
	}{{"pause_turn", false}, {"end_turn", true}} {
		var m anthropic.Message
		raw := `{"role":"assistant","stop_reason":"` + tc.stop + `","content":[` +
			`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"weather Paris"}},` +
			`{"type":"text","text":"Searching."}]}`
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			t.Fatal(err)
		}
		next, done, err := tnanthropic.Run(context.Background(), sdktest.Toolkit(), &m)
		if err != nil || done != tc.done || len(next) != 1 {
			t.Errorf("stop_reason %s: Run = %d messages, done %v, err %v; want 1, %v, nil", tc.stop, len(next), done, err, tc.done)
		}
	}
}
