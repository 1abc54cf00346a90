package adapters_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// entriesSeeds are raw values and texts at the edges of the entry
// writers' plain paths: strings with every kind of escape, space around
// and inside values, HTML bytes, invalid UTF-8, duplicate keys, invalid
// JSON and the empty value.
var entriesSeeds = []struct {
	raw  string
	text string
}{
	{`null`, "call_1"},
	{`"Let me check.\n\"ok\" \\ \/ \b\f\r\t \u00e9 \uD83D\uDE00"`, "get_weather"},
	{` "spaced" `, "<b>&"},
	{`{"city": "Paris", "n": [1, 2e300, -0.5, true, false, null]}`, "\u2028\u2029"},
	{`{"a":1,"a":2}`, "\x00\x1f"},
	{`"<script>"`, "\xff\xfe"},
	{`"\u2028"`, ""},
	{"\"\xff\"", "é"},
	{`"\ud800"`, "a\"b"},
	{`"\x"`, "\\"},
	{`"\u12"`, "x"},
	{`"a`, "y"},
	{`""`, "z"},
	{`{}`, "{}"},
	{`[]`, "[]"},
	{``, "e"},
	{`{"a":1} {"b":2}`, "f"},
	{`"a" "b"`, "g"},
	{`1e`, "h"},
	{"\"a\x01\"", "i"},
	{"\"a\x1f\"", "j"},
}

// historyEntries are entries of the Chat Completions homes, a replay (a
// json.RawMessage) and Anthropic's replayed message, built from
// raw (a content, arguments, Extra members) and text (ids, names, texts),
// both with and without Extra members.
func historyEntries(raw []byte, text string) []any {
	var content json.RawMessage
	if raw != nil {
		content = append(json.RawMessage{}, raw...)
	}
	call := adapters.OpenAIToolCall{ID: text, Type: "function", Function: adapters.OpenAIFunctionCall{Name: text, Arguments: string(raw)}}
	extra := json.RawMessage(raw)
	out := []any{
		adapters.OpenAIAssistantMessage{Role: "assistant", Content: content, ToolCalls: []adapters.OpenAIToolCall{call, call}},
		adapters.OpenAIAssistantMessage{Role: "assistant", Content: content},
		adapters.OpenAIAssistantMessage{Role: "assistant", Content: content, ToolCalls: []adapters.OpenAIToolCall{}},
		adapters.OpenAIAssistantMessage{Role: "assistant", Content: json.RawMessage(`null`), Extra: extra},
		adapters.OpenAIAssistantMessage{Role: "assistant", Content: json.RawMessage(`null`), ToolCalls: []adapters.OpenAIToolCall{{ID: text, Extra: extra}}},
		adapters.OpenAIAssistantMessage{Role: "assistant", Content: json.RawMessage(`null`), ToolCalls: []adapters.OpenAIToolCall{{Function: adapters.OpenAIFunctionCall{Extra: extra}}}},
		adapters.OpenAIToolMessage{Role: "tool", ToolCallID: text, Content: string(raw)},
		adapters.MistralToolMessage{Role: "tool", ToolCallID: text, Name: text, Content: string(raw)},
		adapters.MistralAssistantMessage{Role: "assistant", Content: text},
		adapters.OllamaMessage{Role: "assistant", Content: text, ToolCalls: []adapters.OllamaToolCall{
			{ID: text, Function: adapters.OllamaFunctionCall{Name: text, Arguments: content}},
			{Function: adapters.OllamaFunctionCall{Name: text, Arguments: content}},
		}},
		adapters.OllamaMessage{Role: "assistant", Content: text},
		adapters.OllamaMessage{Role: "assistant", Content: text, Extra: extra},
		adapters.OllamaMessage{Role: "assistant", ToolCalls: []adapters.OllamaToolCall{{Function: adapters.OllamaFunctionCall{Name: "f", Arguments: json.RawMessage(`{}`)}, Extra: extra}}},
		adapters.OllamaMessage{Role: "assistant", ToolCalls: []adapters.OllamaToolCall{{Function: adapters.OllamaFunctionCall{Name: "f", Arguments: json.RawMessage(`{}`), Extra: extra}}}},
		adapters.OllamaToolMessage{Role: "tool", ToolName: text, ToolCallID: text, Content: string(raw)},
		adapters.OllamaToolMessage{Role: "tool", ToolName: text, Content: string(raw)},
	}
	out = append(out, content, adapters.AnthropicMessage{Role: "assistant", Content: content})
	return append(out, adapters.ForOpenAI().Prompt(text)...)
}

// checkEntries holds AppendJSON of each entry, and of all of them, to
// json.Marshal: the same bytes, or an error from both.
func checkEntries(t *testing.T, entries []any) {
	t.Helper()
	for i := range len(entries) + 1 {
		list := entries
		if i < len(entries) {
			list = entries[i : i+1]
		}
		want, werr := json.Marshal(list)
		got, gerr := adapters.AppendJSON([]byte("prefix"), list)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("entry %d (%#v): json.Marshal's error %v, AppendJSON's %v", i, list, werr, gerr)
		}
		if werr == nil && !bytes.Equal(got, append([]byte("prefix"), want...)) {
			t.Fatalf("entry %d (%#v):\nAppendJSON   %s\njson.Marshal prefix%s", i, list, got, want)
		}
	}
}

// TestEntryWriters: the Chat Completions homes' entries, written by hand
// (or handed to json.Marshal when they hold Extra members or values that
// are not plain), are byte for byte json.Marshal's, on the seeds.
func TestEntryWriters(t *testing.T) {
	for _, s := range entriesSeeds {
		checkEntries(t, historyEntries([]byte(s.raw), s.text))
	}
	checkEntries(t, historyEntries(nil, "nil content"))
}

// FuzzEntryWriters is TestEntryWriters on any raw value and text.
func FuzzEntryWriters(f *testing.F) {
	for _, s := range entriesSeeds {
		f.Add([]byte(s.raw), s.text)
	}
	f.Fuzz(func(t *testing.T, raw []byte, text string) {
		checkEntries(t, historyEntries(raw, text))
	})
}
