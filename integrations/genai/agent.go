package tngenai

import (
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"google.golang.org/genai"
)

// NewAgent makes a [toolnexus.Agent] that runs tk's conversations with
// model over client: toolnexus.NewAgent with adapters.ForGemini() and
// [NewTransport](client, model) as its transport, then opts. The Agent
// builds each request body itself and the client sends it (see
// [Transport] for what the SDK keeps of the replies).
//
// For a provider with options (adapters.ForGemini(adapters.GeminiJSONSchema())),
// make the Agent yourself: toolnexus.NewAgent(p, tk, model,
// toolnexus.WithTransport(tngenai.NewTransport(client, model))).
func NewAgent(client *genai.Client, tk *toolnexus.Toolkit, model string, opts ...toolnexus.AgentOption) (*toolnexus.Agent, error) {
	return toolnexus.NewAgent(adapters.ForGemini(), tk, model,
		append([]toolnexus.AgentOption{toolnexus.WithTransport(NewTransport(client, model))}, opts...)...)
}
