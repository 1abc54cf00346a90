package tnopenai

import (
	"github.com/openai/openai-go/v3"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
)

// NewAgent makes a [toolnexus.Agent] that runs tk's conversations with
// model over client, through Chat Completions: toolnexus.NewAgent with
// adapters.ForOpenAI() and [NewTransport](client) as its transport, then
// opts (WithSystem, WithMaxSteps, WithAnswer, ...). The Agent builds each
// request body itself and the client sends it, with its key, base URL,
// retries and middleware; the replies are read by adapters' parser.
//
// For request options of the client's (option.WithHeader, ...) or strict
// tools, make the Agent yourself: toolnexus.NewAgent(
// adapters.ForOpenAI(adapters.Strict(true)), tk, model,
// toolnexus.WithTransport(tnopenai.NewTransport(client, reqOpts...))). For
// a compatible server, set the Transport's Provider to the server's and
// give NewAgent the same provider.
func NewAgent(client openai.Client, tk *toolnexus.Toolkit, model string, opts ...toolnexus.AgentOption) (*toolnexus.Agent, error) {
	return toolnexus.NewAgent(adapters.ForOpenAI(), tk, model, withTransport(NewTransport(client), opts)...)
}

// NewResponsesAgent is [NewAgent] through the Responses API:
// adapters.ForOpenAIResponses() and [NewResponsesTransport](client).
func NewResponsesAgent(client openai.Client, tk *toolnexus.Toolkit, model string, opts ...toolnexus.AgentOption) (*toolnexus.Agent, error) {
	return toolnexus.NewAgent(adapters.ForOpenAIResponses(), tk, model, withTransport(NewResponsesTransport(client), opts)...)
}

// withTransport is opts after the option of t, which a WithTransport in
// opts replaces.
func withTransport(t *Transport, opts []toolnexus.AgentOption) []toolnexus.AgentOption {
	return append([]toolnexus.AgentOption{toolnexus.WithTransport(t)}, opts...)
}
