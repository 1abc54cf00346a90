package toolnexus_test

import (
	"context"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
)

// parsed is a transport that answers with the same replies, in order,
// parsed by its provider: the model's cost is the parse alone.
type parsed struct {
	p       adapters.Provider
	replies [][]byte
	next    int
}

func (m *parsed) Send(_ context.Context, _ []byte) (adapters.Turn, error) {
	r := m.replies[m.next%len(m.replies)]
	m.next++
	return m.p.Parse(r)
}

func (m *parsed) Stream(ctx context.Context, body []byte, _ adapters.StreamHooks) (adapters.Turn, error) {
	return m.Send(ctx, body)
}

// agentBenchRun is a four-step run: two calls, one bad call, its
// correction, the answer.
func agentBenchRun(b *testing.B, p adapters.Provider) [][]byte {
	return [][]byte{
		wholeReply(b, p, scriptTurn{Calls: []scriptCall{{ID: "call1", Name: "get_weather", Args: `{"city":"Paris"}`}, {ID: "call2", Name: "get_time", Args: `{"zone":"Europe/Paris"}`}}, Input: 100, Output: 10}),
		wholeReply(b, p, scriptTurn{Calls: []scriptCall{{ID: "call3", Name: "celsius_to_fahrenheit", Args: `{"celsius":"21 °C"}`}}, Input: 150, Output: 11}),
		wholeReply(b, p, scriptTurn{Calls: []scriptCall{{ID: "call4", Name: "celsius_to_fahrenheit", Args: `{"celsius":21}`}}, Input: 200, Output: 12}),
		wholeReply(b, p, scriptTurn{Text: "Sunny, 21 °C (69.8 °F), 14:05.", Input: 250, Output: 13}),
	}
}

// BenchmarkAgentRun measures a four-step run through Agent.Run against
// the same run written by hand over the same parts (NewBody, Parse, Run,
// Results, Append): the Agent's own cost per run is the difference.
func BenchmarkAgentRun(b *testing.B) {
	for _, name := range []string{"openai", "anthropic", "gemini"} {
		p := scriptProviders()[name]
		tools := newAgentTools(b)
		tk, err := toolnexus.NewToolkit(tools.tools...)
		if err != nil {
			b.Fatal(err)
		}
		replies := agentBenchRun(b, p)
		req := adapters.Request{Model: "model-x", System: "Be brief.", Tools: tk.Tools(), MaxTokens: 512}
		b.Run(name+"/agent", func(b *testing.B) {
			m := &parsed{p: p, replies: replies}
			ag, err := toolnexus.NewAgent(p, tk, "model-x", toolnexus.WithTransport(m), toolnexus.WithSystem("Be brief."),
				toolnexus.WithRequest(adapters.Request{MaxTokens: 512}))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				r, err := ag.Run(context.Background(), "Weather and time in Paris?")
				if err != nil || len(r.Steps) != 4 {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/by-hand", func(b *testing.B) {
			m := &parsed{p: p, replies: replies}
			b.ReportAllocs()
			for b.Loop() {
				ctx := context.Background()
				body, err := adapters.NewBody(p, req)
				if err != nil {
					b.Fatal(err)
				}
				if err := body.Append(p.Prompt("Weather and time in Paris?")...); err != nil {
					b.Fatal(err)
				}
				steps := 0
				for {
					turn, err := m.Send(ctx, body.Bytes())
					if err != nil {
						b.Fatal(err)
					}
					steps++
					if err := body.Append(turn.Replay...); err != nil {
						b.Fatal(err)
					}
					if len(turn.Calls) == 0 {
						break
					}
					results := tk.Run(ctx, turn.Calls, toolnexus.WithProvider(p))
					next, err := p.Results(turn.Calls, results)
					if err != nil {
						b.Fatal(err)
					}
					if err := body.Append(next...); err != nil {
						b.Fatal(err)
					}
				}
				if steps != 4 {
					b.Fatal(steps)
				}
			}
		})
	}
}
