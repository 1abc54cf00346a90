package tngenai

import (
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"google.golang.org/genai"
)

// NewAgent makes a [toolnexus.Agent] that runs tk's conversations with
// model over client: toolnexus.NewAgent with adapters.ForGemini() and
// [NewTransport](client, model) as its transport, then opts. The Agent
// builds each request body itself and the client's configuration sends
// it; adapters' parser reads the raw replies (see [Transport]).
//
// For a provider with options
// (adapters.ForGemini(adapters.GeminiJSONSchema())), make the Agent
// yourself: toolnexus.NewAgent(p, tk, model, toolnexus.WithTransport(t)),
// t from [NewTransport](client, model).
func NewAgent(client *genai.Client, tk *toolnexus.Toolkit, model string, opts ...toolnexus.AgentOption) (*toolnexus.Agent, error) {
	t, err := NewTransport(client, model)
	if err != nil {
		return nil, err
	}
	return toolnexus.NewAgent(adapters.ForGemini(), tk, model,
		append([]toolnexus.AgentOption{toolnexus.WithTransport(t)}, opts...)...)
}
