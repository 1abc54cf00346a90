// Command demo drives toolnexus's tool-call round trip end to end, without
// a network or an API key: for every provider (OpenAI Chat, OpenAI
// Responses, Anthropic, Gemini, Bedrock Converse, MCP), a scripted fake
// model, answering in the provider's real response shape, makes two
// tool-calling turns (two parallel calls, then one call) and then answers
// in text. One agent loop (agent.go), written against adapters.Provider,
// runs them all; the demo prints every request (tools and history), every
// reply and every turn's results, as the provider's JSON.
//
// Usage:
//
//	go run ./cmd/demo [-provider name] [-compact]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	only := flag.String("provider", "", "run only this provider (openai, openai-responses, anthropic, gemini, bedrock, mcp)")
	flag.BoolVar(&compactJSON, "compact", false, "print JSON on one line")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *only); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer, only string) error {
	tk, err := demoToolkit()
	if err != nil {
		return err
	}
	found := false
	for _, s := range scripts() {
		name := s.provider.Name()
		if only != "" && only != name {
			continue
		}
		found = true
		fmt.Fprintf(out, "══════════ %s ══════════\n", name)
		fmt.Fprintf(out, "user: %s\n", prompt)
		m := &scriptedModel{script: s, log: out}
		text, err := runAgent(ctx, out, s.provider, tk, m, prompt)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if text == "" {
			text = "(no text: the client ended the session)"
		}
		fmt.Fprintf(out, "\n── final answer ──\n%s\n\n", text)
	}
	if !found {
		return fmt.Errorf("no provider named %q", only)
	}
	return nil
}

// scriptedModel is a fake model: it prints the request it is given, in the
// provider's request shape, and answers with the script's next reply.
type scriptedModel struct {
	script
	log  io.Writer
	turn int
}

func (m *scriptedModel) Generate(_ context.Context, tools any, history []any) ([]byte, error) {
	if m.turn >= len(m.replies) {
		return nil, io.EOF
	}
	m.turn++
	fmt.Fprintf(m.log, "\n── turn %d: request ──\n", m.turn)
	printJSON(m.log, m.request(tools, history))
	reply := []byte(m.replies[m.turn-1])
	fmt.Fprintf(m.log, "\n── turn %d: reply ──\n", m.turn)
	printJSON(m.log, json.RawMessage(reply))
	return reply, nil
}

// compactJSON makes printJSON print one line per value.
var compactJSON bool

func printJSON(w io.Writer, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if !compactJSON {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(w, "(cannot print: %v)\n", err)
		return
	}
	w.Write(b.Bytes())
}
