package toolnexus_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// TestAgentSession drives, for every provider, a Session by hand (the
// model's replies parsed by the provider, the calls run by Toolkit.Run
// with Refuse's results for the calls not offered) and checks that it
// sends the same bodies and ends the same as Agent.Run on the same
// script: one loop, two drivers.
func TestAgentSession(t *testing.T) {
	for name, p := range scriptProviders() {
		t.Run(name, func(t *testing.T) {
			script := []scriptTurn{
				{Calls: []scriptCall{{ID: "call1", Name: "refund", Args: `{"order":"A"}`}, {ID: "call2", Name: "get_weather", Args: `{"city":"Paris"}`}}, Input: 10, Output: 1},
				{Calls: []scriptCall{{ID: "call3", Name: "celsius_to_fahrenheit", Args: `{"celsius":"21 °C"}`}}, Input: 20, Output: 2},
				{Calls: []scriptCall{{ID: "call4", Name: "celsius_to_fahrenheit", Args: `{"celsius":21}`}}, Input: 30, Output: 3},
				{Text: `{"city":"Paris","temp_f":69.8}`, Input: 40, Output: 4},
			}
			onlyWeather := toolnexus.WithPrepareStep(func(_ context.Context, plan *toolnexus.StepPlan) error {
				if plan.Step == 0 {
					plan.Tools = slices.DeleteFunc(plan.Tools, func(t define.Tool) bool { return t.Name() == "refund" })
				}
				return nil
			})
			report := define.MustDefineAnswer[agentReport]()
			tools := newAgentTools(t)
			tk, err := toolnexus.NewToolkit(tools.tools...)
			if err != nil {
				t.Fatal(err)
			}
			srv := newAgentServer(t, p, false, script...)
			want, err := newTestAgent(t, name, p, tk, srv, onlyWeather, toolnexus.WithAnswer(report)).Run(context.Background(), "go")
			if err != nil {
				t.Fatal(err)
			}
			wantBodies := srv.requests()

			ag := newTestAgent(t, name, p, tk, srv, onlyWeather, toolnexus.WithAnswer(report))
			s := ag.NewSession("go")
			var bodies [][]byte
			ctx := context.Background()
			for i := 0; !s.Done(); i++ {
				if i > 10 {
					t.Fatal("the session does not end")
				}
				body, err := s.Request(ctx)
				if err != nil {
					t.Fatal(err)
				}
				bodies = append(bodies, body)
				turn, err := p.Parse(wholeReply(t, p, script[i]))
				if err != nil {
					t.Fatal(err)
				}
				calls, err := s.Reply(turn, 0)
				if err != nil {
					t.Fatal(err)
				}
				if len(calls) == 0 {
					continue
				}
				if _, err := s.Request(ctx); !errors.Is(err, toolnexus.ErrSessionOrder) {
					t.Errorf("Request before Results: %v, want ErrSessionOrder", err)
				}
				results := make([]define.Result, len(calls))
				var run []adapters.Call
				var at []int
				for j, c := range calls {
					if r, ok := s.Refuse(c); ok {
						results[j] = r
					} else {
						run = append(run, c)
						at = append(at, j)
					}
				}
				for k, r := range tk.Run(ctx, run, toolnexus.WithProvider(p)) {
					results[at[k]] = r
				}
				if err := s.Results(ctx, results); err != nil {
					t.Fatal(err)
				}
			}
			got := s.Run()
			if len(bodies) != len(wantBodies) {
				t.Fatalf("%d bodies, Run sent %d", len(bodies), len(wantBodies))
			}
			for i := range bodies {
				if !bytes.Equal(bodies[i], wantBodies[i]) {
					t.Errorf("body %d differs from Run's:\n%s\n%s", i, bodies[i], wantBodies[i])
				}
			}
			if got.Stop != want.Stop || got.Answer != want.Answer || got.Usage.Input != want.Usage.Input || len(got.Steps) != len(want.Steps) {
				t.Errorf("session: stop %q, answer %v, usage %d, %d steps; Run: %q, %v, %d, %d",
					got.Stop, got.Answer, got.Usage.Input, len(got.Steps), want.Stop, want.Answer, want.Usage.Input, len(want.Steps))
			}
			if o := outcomes(got.Steps[0].Results); !slices.Equal(o, []toolnexus.Outcome{"unknown_tool", "ok"}) {
				t.Errorf("step 0 outcomes %v: refund was not offered", o)
			}
			if _, err := s.Request(ctx); !errors.Is(err, toolnexus.ErrSessionOrder) {
				t.Errorf("Request after the end: %v, want ErrSessionOrder", err)
			}
			if tools.count("refund") != 0 {
				t.Errorf("refund ran")
			}
		})
	}
}
