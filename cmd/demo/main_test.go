package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
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

const theAnswer = `main.Report{City:"Paris", TempF:69.8, LocalTime:"14:05", Booked:true}`

// stateSize matches the state's size, which varies by a few bytes from
// run to run: the pending call's issue time is written to the millisecond,
// without trailing zeros.
var stateSize = regexp.MustCompile(`state:? \d+ bytes`)

func runDemo(t *testing.T, only string, full bool) string {
	t.Helper()
	var out bytes.Buffer
	if err := run(context.Background(), &out, only, full); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	return out.String()
}

// usage sums the scripted replies' usage: over the steps before the
// pause, and over all of them.
func usage() (before, all [2]int64) {
	for i, s := range story {
		if i < len(story)-1 {
			before[0] += s.in
			before[1] += s.out
		}
		all[0] += s.in
		all[1] += s.out
	}
	return before, all
}

// inOrder reports the first of want that got lacks after the ones before it.
func inOrder(t *testing.T, got string, want []string) {
	t.Helper()
	at := 0
	for _, s := range want {
		i := strings.Index(got[at:], s)
		if i < 0 {
			t.Fatalf("after byte %d the output lacks %q:\n%s", at, s, got)
		}
		at += i + len(s)
	}
}

func TestDemoDefaultTellsTheStory(t *testing.T) {
	got := runDemo(t, "", false)
	if n := strings.Count(got, "\n"); n > 80 {
		t.Errorf("the default output has %d lines, want at most 80", n)
	}
	before, all := usage()
	// The story, in order: two calls at once, the bad call, the error it
	// gets back, the corrected call, the call that needs approval, the
	// pause with its usage so far, the pending call, the state, the
	// approval, the resume on a new Agent, the approved call's result, the
	// typed answer and the usage over the whole run.
	inOrder(t, got, []string{
		"══════════ openai (gpt-4.1) ══════════",
		"step 1  model → get_weather {\"city\":\"Paris\"}\n        model → get_time {\"city\":\"Paris\"}\n",
		"tools → get_weather: sunny, 21 °C\n        tools → get_time: 14:05\n",
		"step 2  model → " + badCall,
		"tools → celsius_to_fahrenheit: ERROR " + strings.ReplaceAll(theError, `\"`, `"`),
		`the model receives: [{"role":"tool","tool_call_id":"call_bX3","content":"error: ` + theError + `"}]`,
		`step 3  model → celsius_to_fahrenheit {"celsius":21}`,
		`tools → celsius_to_fahrenheit: 69.8`,
		`step 4  model → book_table {"city":"Paris","time":"19:30","people":2}`,
		`tools → book_table: PENDING: waits for a person's approval`,
		fmt.Sprintf("── paused (pending) after 4 model calls: %d input + %d output tokens so far ──", before[0], before[1]),
		`waiting for approval: book_table {"city":"Paris","time":"19:30","people":2} (call call_bK5)`,
		"bytes of JSON, stored until a person decides",
		`a person approves book_table {"city":"Paris","time":"19:30","people":2}`,
		"── resumed from the JSON state, on a new Agent ──",
		"step 4  tools → book_table: booked, ref T-1930",
		"step 5  model → " + finalAnswer,
		"answer: " + theAnswer,
		fmt.Sprintf("usage: %d input + %d output tokens over 5 model calls (%d input + %d output tokens before the pause)", all[0], all[1], before[0], before[1]),
	})
	if m := stateSize.FindString(got); m == "" || m == "state: 0 bytes" {
		t.Errorf("no state size in the story (%q)", m)
	}
	// Three lines per provider, each with its error result in its own
	// format, its pause, its resume, its typed answer and its usage.
	for _, s := range []string{`"is_error":true`, `"isError":true`, `"status":"error"`, `"response":{"error":"invalid arguments`, `"output":"error: invalid arguments`, `"tool_name":"celsius_to_fahrenheit"`, `"tool_call_id":"bX3pQ7rS2"`} {
		if n := strings.Count(got, s); n != 1 {
			t.Errorf("the error result %s appears %d times, want once", s, n)
		}
	}
	for _, sc := range scripts() {
		name := sc.provider.Name()
		want := fmt.Sprintf("  %-17s 5 model calls, 1 error result, corrected; paused for approval (state N bytes), resumed → main.Report{Paris 69.8 14:05 true}\n"+
			"  %17s usage: %d input + %d output tokens, of which %d + %d before the pause\n", name, "", all[0], all[1], before[0], before[1])
		if !strings.Contains(stateSize.ReplaceAllString(got, "state N bytes"), want) {
			t.Errorf("no summary for %s, want\n%s\nin:\n%s", name, want, got)
		}
	}
	if !strings.Contains(got, "  mcp               3 tool turns, 1 error result, corrected; the client ended the session") {
		t.Errorf("no summary line for MCP:\n%s", got)
	}
	if strings.Contains(got, "── step 1: request ──") {
		t.Error("the default output dumps requests, want them only with -v")
	}
}

// The output is the same from run to run (the state's size aside): the
// pending call's random nonce and its issue time are not printed.
func TestDemoDeterministic(t *testing.T) {
	for _, full := range []bool{false, true} {
		a, b := runDemo(t, "", full), runDemo(t, "", full)
		if full {
			// -v prints the states themselves: drop them.
			a, b = dropStates(a), dropStates(b)
		}
		a, b = stateSize.ReplaceAllString(a, "state N bytes"), stateSize.ReplaceAllString(b, "state N bytes")
		if a != b {
			t.Errorf("full=%v: two runs printed different outputs", full)
		}
		if strings.Contains(a, `"nonce"`) || strings.Contains(a, `"issued"`) || strings.Contains(a, "sha256:") {
			t.Errorf("full=%v: the output shows a pending call's nonce, time or digest outside the state", full)
		}
	}
}

// dropStates removes the JSON state printed after each "state:" line.
func dropStates(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	skip := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "state: "):
			skip = true
			out = append(out, l)
		case skip && strings.HasPrefix(l, "a person approves"):
			skip = false
			out = append(out, l)
		case !skip:
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestDemoFullDump(t *testing.T) {
	got := runDemo(t, "", true)
	for what, want := range map[string]int{
		"── step 1: request ──":                             7,
		"── step 4: reply ──":                               7,
		"── step 5: request ──":                             7, // after the resume
		"── resumed from the JSON state, on a new Agent ──": 7,
		`"toolnexus_agent_state": 1`:                        7, // the states
		"answer: " + theAnswer:                              7,
		"── request 3 (from the client) ──":                 1, // mcp
		`"isError": true`:                                   1, // mcp
		"expected number, got \\\"21 °C\\\"":                7, // every provider's request after the error
	} {
		if n := strings.Count(got, what); n < want {
			t.Errorf("%q appears %d times, want at least %d", what, n, want)
		}
	}
	// Each provider's request after the resume, made by a new Agent from
	// the state, carries the whole conversation: the error sent before the
	// pause, the approved call's result, and the answer's format.
	sections := strings.Split(got, "══════════ ")[1:]
	if len(sections) != len(scripts())+1 {
		t.Fatalf("%d sections, want one per provider and MCP's", len(sections))
	}
	for _, sec := range sections[:len(scripts())] {
		name, _, _ := strings.Cut(sec, " ")
		_, after, ok := strings.Cut(sec, "── step 5: request ──")
		body, _, ok2 := strings.Cut(after, "── step 5: reply ──")
		if !ok || !ok2 {
			t.Errorf("%s: no request for step 5", name)
			continue
		}
		for _, want := range []string{"expected number", "T-1930", "local_time"} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the request after the resume lacks %q", name, want)
			}
		}
	}
}

// Every provider of the adapters package has its part in the demo: a
// script for each one with a model request, mcp.go for MCP.
func TestDemoCoversEveryProvider(t *testing.T) {
	have := map[string]bool{"mcp": true}
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
	if !strings.Contains(got, "══════════ anthropic") || strings.Contains(got, "openai") || strings.Contains(got, "mcp") {
		t.Errorf("-provider anthropic did not tell anthropic's story alone:\n%s", got)
	}
	for _, want := range []string{`"is_error":true`, "(call toolu_bK5)", "answer: " + theAnswer} {
		if !strings.Contains(got, want) {
			t.Errorf("anthropic's story lacks %q:\n%s", want, got)
		}
	}
	got = runDemo(t, "mcp", false)
	inOrder(t, got, []string{
		"══════════ mcp",
		"call 1  client → get_weather {\"city\":\"Paris\"}\n        client → get_time {\"city\":\"Paris\"}",
		"call 2  client → " + badCall,
		`the client receives: [{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"` + theError + `"}],"isError":true}}]`,
		"tools → celsius_to_fahrenheit: 69.8",
	})
}

func TestDemoUnknownProvider(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, "cohere", false); err == nil {
		t.Errorf("run(cohere) succeeded, want an error")
	}
}

// The scripted model reads where the conversation is from the request,
// as a model would: a new one answers a resumed run's request.
func TestScriptedModelReadsTheRequest(t *testing.T) {
	for _, sc := range scripts() {
		m := &scriptedModel{script: sc}
		for i, body := range []string{`{"prompt":"hi"}`, `{"sunny"}`, `{"sunny expected number"}`, `{"sunny expected number 69.8"}`, `{"sunny 69.8 T-1930"}`} {
			turn, err := m.Send(context.Background(), []byte(body))
			if err != nil {
				t.Fatalf("%s: step %d: %v", sc.provider.Name(), i+1, err)
			}
			want := story[i]
			if len(turn.Calls) != len(want.calls) || turn.Usage.Input != want.in || turn.Usage.Output != want.out {
				t.Errorf("%s: step %d: %d calls, usage %d/%d; want %d calls, usage %d/%d", sc.provider.Name(), i+1,
					len(turn.Calls), turn.Usage.Input, turn.Usage.Output, len(want.calls), want.in, want.out)
			}
			for k, c := range turn.Calls {
				if c.Name != want.calls[k].name || string(c.Args) != want.calls[k].args {
					t.Errorf("%s: step %d: call %d is %s %s, want %s %s", sc.provider.Name(), i+1, k, c.Name, c.Args, want.calls[k].name, want.calls[k].args)
				}
			}
			if want.text != "" && turn.Text != want.text {
				t.Errorf("%s: step %d: text %q, want %q", sc.provider.Name(), i+1, turn.Text, want.text)
			}
		}
	}
}

// The user's code (user.go: tools, toolkit, agent, run, pause, resume,
// answer) stays under 80 lines.
func TestUserCodeIsShort(t *testing.T) {
	b, err := os.ReadFile("user.go")
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n >= 80 {
		t.Errorf("user.go has %d lines, want fewer than 80", n)
	}
}
