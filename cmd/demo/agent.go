package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// Model is what the agent loop needs of a model client: the provider's
// reply JSON to a request made of the tools value and the history. io.EOF
// means the other side has nothing more to send (an MCP client ending its
// session).
type Model interface {
	Generate(ctx context.Context, tools any, history []any) ([]byte, error)
}

// observer sees each turn's tool calls and their results; the demo prints
// them (report.go).
type observer interface {
	calls(turn int, calls []adapters.Call)
	results(turn int, calls []adapters.Call, results []define.Result, next []any)
}

// maxTurns bounds the loop, as any agent loop should be bounded.
const maxTurns = 8

// runAgent is the agent loop, written once against adapters.Provider: it
// works unchanged for every provider. It returns the model's final text.
func runAgent(ctx context.Context, obs observer, p adapters.Provider, tk *toolnexus.Toolkit, m Model, prompt string) (string, error) {
	tools, err := p.Tools(tk.Tools())
	if err != nil {
		return "", err
	}
	history := p.Prompt(prompt)
	for turn := 1; turn <= maxTurns; turn++ {
		reply, err := m.Generate(ctx, tools, history)
		if errors.Is(err, io.EOF) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		t, err := p.Parse(reply)
		if err != nil {
			return "", err
		}
		history = append(history, t.Replay...)
		if len(t.Calls) == 0 {
			return t.Text, nil
		}
		obs.calls(turn, t.Calls)
		results := tk.Run(ctx, t.Calls) // bad arguments come back as error results
		next, err := p.Results(t.Calls, results)
		if err != nil {
			return "", err
		}
		obs.results(turn, t.Calls, results, next)
		history = append(history, next...)
	}
	return "", fmt.Errorf("no final answer after %d turns", maxTurns)
}
