// Command demo shows toolnexus's point in a minute, without a network or an
// API key: toolnexus.Agent runs a whole conversation with a scripted model
// that asks for tools written as typed Go functions, two at once; sends bad
// arguments once ("21 °C" where a number is due), reads the decoder's error
// and corrects its call; calls book_table, which waits for a person's
// approval, so the run pauses: its state is plain JSON, a person approves,
// and a new Agent (as another process would make) resumes it from that
// state; the run ends in a typed answer, a Go value, with its token usage
// summed over the steps before and after the pause.
//
// user.go is all the user's code: the tools, the agent, the run, the pause,
// the resume and the answer. It runs unchanged for every provider that has
// a model (OpenAI Chat, OpenAI Responses, Anthropic, Gemini, Bedrock
// Converse, Ollama, Mistral), each scripted model (script.go) answering in
// its provider's real reply shape, read by the provider's parser. MCP has
// no model request: its part (mcp.go) is a server answering a scripted
// client's tools/call requests with the same tools.
//
// By default the demo tells the story for one provider and then sums up
// every provider in a few lines; -v prints every request body the Agent
// sent and every reply, as the provider's JSON.
//
// Usage:
//
//	go run ./cmd/demo [-provider name] [-v [-compact]]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

func main() {
	only := flag.String("provider", "", "run only this provider (openai, openai-responses, anthropic, gemini, bedrock, ollama, mistral, mcp)")
	full := flag.Bool("v", false, "print every request body and reply as the provider's JSON")
	flag.BoolVar(&compactJSON, "compact", false, "with -v, print JSON on one line")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *only, *full); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// storyProvider is the provider whose run is told in full by default.
const storyProvider = "openai"

// run runs the demo for every provider, or for only; full selects the
// whole request/reply dump.
func run(ctx context.Context, out io.Writer, only string, full bool) error {
	var selected []script
	for _, s := range scripts() {
		if only == "" || only == s.provider.Name() {
			selected = append(selected, s)
		}
	}
	withMCP := only == "" || only == "mcp"
	if len(selected) == 0 && !withMCP {
		return fmt.Errorf("no provider named %q", only)
	}

	if !full {
		fmt.Fprintln(out, "toolnexus demo: typed Go functions as LLM tools; toolnexus.Agent runs the whole conversation.")
		fmt.Fprintln(out, "The model is scripted (no network, no API key); -v prints every request and reply as JSON.")
		fmt.Fprintln(out, "\nTools, from Go functions (book_table waits for a person's approval):")
		for _, t := range tools {
			fmt.Fprintf(out, "  %-52s %s\n", signature(t), t.Description())
		}
		fmt.Fprintf(out, "The answer, a Go value: %s\n", goType(reflect.TypeFor[Report]()))
	}

	var summaries []string
	for _, s := range selected {
		name := s.provider.Name()
		story := full || name == storyProvider || only != ""
		w := io.Discard
		if story {
			w = out
			fmt.Fprintf(out, "\n══════════ %s (%s) ══════════\n", name, s.model)
		}
		summary, err := play(ctx, w, s, full)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		summaries = append(summaries, summary)
	}
	if withMCP {
		w := io.Discard
		if full || only == "mcp" {
			w = out
			fmt.Fprintln(out, "\n══════════ mcp (no model request: a server answers a client's tools/call) ══════════")
		}
		r, err := runMCP(ctx, w, full)
		if err != nil {
			return fmt.Errorf("mcp: %w", err)
		}
		summaries = append(summaries, fmt.Sprintf("  %-17s %s\n  %17s error result sent as: %s", "mcp", r.summary(), "", r.sentError))
	}
	if !full && len(summaries) > 1 {
		fmt.Fprintln(out, "\nThe same user code, unchanged, for every provider, each in its own wire format:")
		fmt.Fprintln(out, strings.Join(summaries, "\n"))
	}
	return nil
}

// play runs the user's code (planEvening) for one provider against its
// scripted model, prints the run to w, and returns its summary lines.
func play(ctx context.Context, w io.Writer, s script, full bool) (string, error) {
	rec := newRecorder()
	model := &scriptedModel{script: s, show: rec.reply}
	var opts []toolnexus.AgentOption
	if full {
		opts = append(opts, toolnexus.WithModelHook(rec.hook))
	}
	var approved []toolnexus.PendingCall
	person := func(call toolnexus.PendingCall) bool {
		approved = append(approved, call)
		return true
	}
	fmt.Fprintf(w, "user: %s\n", prompt)
	paused, done, err := planEvening(ctx, s.provider, s.model, model, person, opts...)
	r := &report{w: w, full: full, p: s.provider, rec: rec, failed: map[string]bool{}}
	if paused != nil {
		r.steps(paused.Steps, false)
	}
	if err != nil {
		return "", err
	}
	if done == nil {
		return "", fmt.Errorf("the run did not pause: it stopped (%s)", paused.Stop)
	}

	fmt.Fprintf(w, "── paused (%s) after %s: %s so far ──\n", paused.Stop, plural(r.calls, "model call"), tokens(paused.Usage))
	for _, c := range paused.Pending { // its nonce, issue time and digest are random: not shown
		fmt.Fprintf(w, "waiting for approval: %s %s (call %s)\n", c.Tool, c.Args, c.ID)
	}
	fmt.Fprintf(w, "state: %d bytes of JSON, stored until a person decides\n", len(paused.State))
	if full {
		printJSON(w, json.RawMessage(paused.State))
	}
	for _, c := range approved {
		fmt.Fprintf(w, "a person approves %s %s\n", c.Tool, c.Args)
	}
	fmt.Fprintln(w, "── resumed from the JSON state, on a new Agent ──")
	r.steps(done.Steps, true)
	report, ok := done.Answer.(Report)
	if done.Stop != toolnexus.StopDone || !ok {
		return "", fmt.Errorf("the resumed run stopped (%s) without a Report (%T)", done.Stop, done.Answer)
	}
	fmt.Fprintf(w, "answer: %#v\n", report)
	fmt.Fprintf(w, "usage: %s over %s (%s before the pause)\n", tokens(done.Usage), plural(r.calls, "model call"), tokens(paused.Usage))

	line := fmt.Sprintf("%s, %s", plural(r.calls, "model call"), plural(r.errors, "error result"))
	if r.corrected {
		line += ", corrected"
	}
	line += fmt.Sprintf("; paused for approval (state %d bytes), resumed → %T%v", len(paused.State), report, report)
	return fmt.Sprintf("  %-17s %s\n  %17s usage: %s, of which %d + %d before the pause\n  %17s error result sent as: %s",
		s.provider.Name(), line, "", tokens(done.Usage), paused.Usage.Input, paused.Usage.Output, "", r.sentError), nil
}

// signature renders a tool as name(param type, ...) from its input schema.
func signature(t define.Tool) string {
	var params []string
	if s, err := schema.Parse(t.InputSchema()); err == nil {
		for _, p := range s.Properties {
			params = append(params, p.Name+" "+strings.Join(p.Schema.Types, "|"))
		}
	}
	return t.Name() + "(" + strings.Join(params, ", ") + ")"
}

// goType renders a struct type with its fields' types:
// Report{City string, ...}.
func goType(t reflect.Type) string {
	var fields []string
	for i := range t.NumField() {
		fields = append(fields, t.Field(i).Name+" "+t.Field(i).Type.String())
	}
	return t.Name() + "{" + strings.Join(fields, ", ") + "}"
}
