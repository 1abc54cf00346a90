// Command demo shows toolnexus's point in a minute, without a network or an
// API key: a scripted model asks for three tools written as typed Go
// functions, sends bad arguments once ("21 °C" where a number is due),
// receives the decoder's error message as a tool result, corrects its call
// and answers. One agent loop (agent.go), written against
// adapters.Provider, runs the same conversation for every provider (OpenAI
// Chat, OpenAI Responses, Anthropic, Gemini, Bedrock Converse, Ollama,
// Mistral, MCP), each fake model answering in its provider's real response
// shape.
//
// By default the demo tells the story for one provider and then one line
// per provider; -v prints every request (tools and history), every reply
// and every results message as the provider's JSON.
//
// Usage:
//
//	go run ./cmd/demo [-provider name] [-v [-compact]]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

func main() {
	only := flag.String("provider", "", "run only this provider (openai, openai-responses, anthropic, gemini, bedrock, mcp)")
	full := flag.Bool("v", false, "print every request, reply and results message as the provider's JSON")
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
	tk, err := demoToolkit()
	if err != nil {
		return err
	}
	var selected []script
	for _, s := range scripts() {
		if only == "" || only == s.provider.Name() {
			selected = append(selected, s)
		}
	}
	if len(selected) == 0 {
		return fmt.Errorf("no provider named %q", only)
	}

	if !full {
		fmt.Fprintln(out, "toolnexus demo: typed Go functions as LLM tools, one agent loop for every provider.")
		fmt.Fprintln(out, "The model is scripted (no network, no API key); -v prints every request and reply as JSON.")
		fmt.Fprintln(out, "\nTools, from Go functions:")
		for _, t := range tk.Tools() {
			fmt.Fprintf(out, "  %-40s %s\n", signature(t), t.Description())
		}
	}

	var summaries []string
	for _, s := range selected {
		name := s.provider.Name()
		story := full || name == storyProvider || only != ""
		w := io.Discard
		if story {
			w = out
			fmt.Fprintf(out, "\n══════════ %s ══════════\n", name)
			fmt.Fprintf(out, "user: %s\n", prompt)
		}
		r := newReport(w, full)
		m := &scriptedModel{script: s, report: r}
		text, err := runAgent(ctx, r, s.provider, tk, m, prompt)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if story {
			if text == "" {
				fmt.Fprintln(out, "answer: (none: an MCP client ends its session; its host's model answers the user)")
			} else {
				fmt.Fprintf(out, "answer: %s\n", text)
			}
		}
		summaries = append(summaries, fmt.Sprintf("  %-17s %s\n  %17s error result sent as: %s", name, r.summary(text), "", r.sentError))
	}
	if !full && len(selected) > 1 {
		fmt.Fprintln(out, "\nThe same loop, unchanged, for every provider, each in its own wire format:")
		fmt.Fprintln(out, strings.Join(summaries, "\n"))
	}
	return nil
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

// scriptedModel is a fake model: it answers with the script's next reply,
// showing the request it was given and its reply when the report is full.
type scriptedModel struct {
	script
	report *report
	turn   int
}

func (m *scriptedModel) Generate(_ context.Context, tools any, history []any) ([]byte, error) {
	if m.turn >= len(m.replies) {
		return nil, io.EOF
	}
	m.turn++
	m.report.request(m.turn, m.request(tools, history))
	reply := []byte(m.replies[m.turn-1])
	m.report.reply(m.turn, reply)
	return reply, nil
}
