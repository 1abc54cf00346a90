package tnanthropic

import (
	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
)

// NewAgent makes a [toolnexus.Agent] that runs tk's conversations with
// model over client: toolnexus.NewAgent with adapters.ForAnthropic() and
// [NewTransport](client) as its transport, then opts. The Messages API
// requires max_tokens: give it with
// toolnexus.WithRequest(adapters.Request{MaxTokens: n}) (NewAgent fails
// without it). The Agent builds each request body itself and the client
// sends it, with its key, base URL, retries and middleware; the replies
// are read by adapters' parser.
//
// For request options of the client's, or a provider with options
// (adapters.ForAnthropic(adapters.Strict(true))), make the Agent yourself:
// toolnexus.NewAgent(p, tk, model,
// toolnexus.WithTransport(tnanthropic.NewTransport(client, reqOpts...))).
func NewAgent(client anthropic.Client, tk *toolnexus.Toolkit, model string, opts ...toolnexus.AgentOption) (*toolnexus.Agent, error) {
	return toolnexus.NewAgent(adapters.ForAnthropic(), tk, model,
		append([]toolnexus.AgentOption{toolnexus.WithTransport(NewTransport(client))}, opts...)...)
}
