package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// badCall and theError are the model's bad call and the message it gets
// back from the decoder.
const (
	badCall  = `celsius_to_fahrenheit {"celsius":"21 °C"}`
	theError = `invalid arguments: /celsius: expected number, got \"21 °C\"`
)

func runDemo(t *testing.T, only string, full bool) string {
	t.Helper()
	var out bytes.Buffer
	if err := run(context.Background(), &out, only, full); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	return out.String()
}

func TestDemoDefaultTellsTheStory(t *testing.T) {
	got := runDemo(t, "", false)
	if n := strings.Count(got, "\n"); n > 80 {
		t.Errorf("the default output has %d lines, want at most 80", n)
	}
	// The story, in order: the bad call, the error it gets back, the
	// corrected call, the final answer.
	story := []string{
		"turn 1  model → get_weather {\"city\":\"Paris\"}",
		"turn 2  model → " + badCall,
		"tools → celsius_to_fahrenheit: ERROR " + strings.ReplaceAll(theError, `\"`, `"`),
		`the model receives: [{"role":"tool","tool_call_id":"call_bX3","content":"error: ` + theError + `"}]`,
		`turn 3  model → celsius_to_fahrenheit {"celsius":21}`,
		`tools → celsius_to_fahrenheit: {"fahrenheit":69.8}`,
		"answer: " + finalText,
	}
	at := 0
	for _, s := range story {
		i := strings.Index(got[at:], s)
		if i < 0 {
			t.Fatalf("after byte %d the output lacks %q:\n%s", at, s, got)
		}
		at += i + len(s)
	}
	// One line per provider, each with the error in its own format.
	for _, s := range []string{`"is_error":true`, `"isError":true`, `"status":"error"`, `"response":{"error":"invalid arguments`, `"output":"error: invalid arguments`} {
		if n := strings.Count(got, s); n != 1 {
			t.Errorf("the error result %s appears %d times, want once", s, n)
		}
	}
	if n := strings.Count(got, "3 tool turns, 1 error result, corrected; final answer given"); n != len(adapters.Providers())-1 {
		t.Errorf("%d providers were corrected and answered, want %d (every provider but MCP)", n, len(adapters.Providers())-1)
	}
	if !strings.Contains(got, "mcp               3 tool turns, 1 error result, corrected; the client ended the session") {
		t.Errorf("no summary line for MCP:\n%s", got)
	}
	if strings.Contains(got, "── turn 1: request ──") {
		t.Error("the default output dumps requests, want them only with -v")
	}
}

func TestDemoFullDump(t *testing.T) {
	got := runDemo(t, "", true)
	for what, want := range map[string]int{
		"── turn 1: request ──":              7,
		"── turn 4: request ──":              6, // the MCP client ends after 3
		"── turn 2: results of 1 call ──":    7,
		"── turn 1: results of 2 calls ──":   7,
		"answer: " + finalText:               6,
		`"is_error": true`:                   1, // anthropic's results, then its history
		`"isError": true`:                    1, // mcp
		`"status": "error"`:                  1, // bedrock
		"expected number, got \\\"21 °C\\\"": 7, // every provider's results dump
	} {
		if n := strings.Count(got, what); n < want {
			t.Errorf("%q appears %d times, want at least %d", what, n, want)
		}
	}
}

// Every provider of the adapters package has its part in the demo.
func TestDemoCoversEveryProvider(t *testing.T) {
	have := map[string]bool{}
	for _, s := range scripts() {
		have[s.provider.Name()] = true
	}
	for _, p := range adapters.Providers() {
		if !have[p.Name()] {
			t.Errorf("no demo script for %s", p.Name())
		}
	}
}

func TestDemoOneProvider(t *testing.T) {
	got := runDemo(t, "anthropic", false)
	if !strings.Contains(got, "══════════ anthropic ══════════") || strings.Contains(got, "openai") {
		t.Errorf("-provider anthropic did not tell anthropic's story alone:\n%s", got)
	}
	if !strings.Contains(got, `"is_error":true`) || !strings.Contains(got, "answer: "+finalText) {
		t.Errorf("anthropic's story lacks the error result or the answer:\n%s", got)
	}
}

func TestDemoUnknownProvider(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, "cohere", false); err == nil {
		t.Errorf("run(cohere) succeeded, want an error")
	}
}
