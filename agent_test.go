package toolnexus_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/transport"
)

// The agent's tests run every provider through its no-SDK transport
// (transport.Endpoint) against a test server that plays a script of
// replies, whole or streamed, in the provider's wire format
// (agent_script_test.go), and records each request body.

type agentCity struct {
	City string `json:"city" required:"true"`
}

type agentZone struct {
	Zone string `json:"zone" required:"true"`
}

type agentCelsius struct {
	Celsius float64 `json:"celsius" required:"true"`
}

type agentOrder struct {
	Order string `json:"order" required:"true"`
}

// agentTools are the tools of the agent's tests; ran counts each tool's
// runs.
type agentTools struct {
	ran   sync.Map // tool name -> *atomic.Int32
	tools []define.Tool
}

func (a *agentTools) count(name string) int {
	if v, ok := a.ran.Load(name); ok {
		return int(v.(*atomic.Int32).Load())
	}
	return 0
}

func (a *agentTools) mark(name string) {
	v, _ := a.ran.LoadOrStore(name, new(atomic.Int32))
	v.(*atomic.Int32).Add(1)
}

func newAgentTools(t testing.TB) *agentTools {
	a := &agentTools{}
	a.tools = []define.Tool{
		define.MustDefineTool(func(_ context.Context, in agentCity) (string, error) {
			a.mark("get_weather")
			return "sunny, 21 °C in " + in.City, nil
		}, define.WithName("get_weather"), define.WithDescription("The weather in a city.")),
		define.MustDefineTool(func(_ context.Context, in agentZone) (string, error) {
			a.mark("get_time")
			return "14:05 in " + in.Zone, nil
		}, define.WithName("get_time"), define.WithDescription("The time in a zone.")),
		define.MustDefineTool(func(_ context.Context, in agentCelsius) (float64, error) {
			a.mark("celsius_to_fahrenheit")
			return in.Celsius*9/5 + 32, nil
		}, define.WithName("celsius_to_fahrenheit"), define.WithDescription("Converts to Fahrenheit.")),
		define.MustDefineTool(func(_ context.Context, in agentOrder) (string, error) {
			a.mark("refund")
			return "refunded " + in.Order, nil
		}, define.WithName("refund"), define.WithDescription("Refunds an order.")),
		define.MustDefineTool(func(_ context.Context, in agentOrder) (string, error) {
			a.mark("broken")
			return "", errors.New("the order service is down")
		}, define.WithName("broken"), define.WithDescription("Always fails.")),
	}
	return a
}

// agentServer plays a script of replies, one per request, whole or
// streamed, and keeps the request bodies.
type agentServer struct {
	t      testing.TB
	p      adapters.Provider
	stream bool
	mu     sync.Mutex
	script []scriptTurn
	bodies [][]byte
	srv    *httptest.Server
}

func newAgentServer(t testing.TB, p adapters.Provider, stream bool, script ...scriptTurn) *agentServer {
	s := &agentServer{t: t, p: p, stream: stream, script: script}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.bodies = append(s.bodies, body)
		if len(s.script) == 0 {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":{"message":"the script has no more replies"}}`)
			return
		}
		next := s.script[0]
		s.script = s.script[1:]
		if s.stream {
			w.Write(streamReply(t, p, next))
		} else {
			w.Write(wholeReply(t, p, next))
		}
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *agentServer) requests() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.bodies)
}

// agentEndpoint returns the transport of the provider named, on srv.
func agentEndpoint(t testing.TB, name string, p adapters.Provider, base string) *transport.Endpoint {
	var ep *transport.Endpoint
	switch name {
	case "openai":
		ep = transport.OpenAI("k")
	case "groq":
		ep = transport.OpenAICompatible(p, "https://api.groq.com/openai/v1", "k")
	case "mistral":
		ep = transport.Mistral("k")
	case "openai-responses":
		ep = transport.OpenAIResponses("k")
	case "anthropic":
		ep = transport.Anthropic("k")
	case "gemini":
		ep = transport.Gemini("k", "model-x")
	case "bedrock":
		ep = transport.Bedrock("us-east-1", "model-x", nil)
	case "ollama":
		ep = transport.Ollama("")
	default:
		t.Fatalf("no endpoint for %q", name)
	}
	ep.Provider = p
	ep.Retry = transport.Retry{Attempts: 1}
	return ep.Rebase(base)
}

// eachProvider runs f for every provider, whole and streamed.
func eachProvider(t *testing.T, f func(t *testing.T, name string, p adapters.Provider, stream bool)) {
	for name, p := range scriptProviders() {
		for _, stream := range []bool{false, true} {
			how := "whole"
			if stream {
				how = "stream"
			}
			t.Run(name+"/"+how, func(t *testing.T) { f(t, name, p, stream) })
		}
	}
}

// newTestAgent makes an Agent on a script server.
func newTestAgent(t testing.TB, name string, p adapters.Provider, tk *toolnexus.Toolkit, srv *agentServer, opts ...toolnexus.AgentOption) *toolnexus.Agent {
	ep := agentEndpoint(t, name, p, srv.srv.URL)
	opts = append([]toolnexus.AgentOption{toolnexus.WithTransport(ep), toolnexus.WithSystem("Be brief."),
		toolnexus.WithRequest(adapters.Request{MaxTokens: 512})}, opts...)
	ag, err := toolnexus.NewAgent(p, tk, "model-x", opts...)
	if err != nil {
		t.Fatal(err)
	}
	return ag
}

// run runs ag on prompt, whole or streamed; text gets the streamed text.
func run(ctx context.Context, ag *toolnexus.Agent, prompt string, stream bool, text *strings.Builder) (*toolnexus.AgentRun, error) {
	if !stream {
		return ag.Run(ctx, prompt)
	}
	return ag.RunStream(ctx, prompt, adapters.StreamHooks{Text: func(d string) { text.WriteString(d) }})
}

func resume(ctx context.Context, ag *toolnexus.Agent, state []byte, ds []toolnexus.Decision, stream bool) (*toolnexus.AgentRun, error) {
	if !stream {
		return ag.Resume(ctx, state, ds)
	}
	return ag.ResumeStream(ctx, state, ds, adapters.StreamHooks{})
}

func outcomes(rs []define.Result) []toolnexus.Outcome {
	var out []toolnexus.Outcome
	for _, r := range rs {
		out = append(out, toolnexus.OutcomeOf(r))
	}
	return out
}

// TestAgentRun runs, for every provider, whole and streamed, a run that
// calls two tools at once, sends one bad call, reads the error, corrects
// it, and answers: four steps, each request the history grown by the
// step before, the usage summed.
func TestAgentRun(t *testing.T) {
	eachProvider(t, func(t *testing.T, name string, p adapters.Provider, stream bool) {
		tools := newAgentTools(t)
		tk, err := toolnexus.NewToolkit(tools.tools...)
		if err != nil {
			t.Fatal(err)
		}
		srv := newAgentServer(t, p, stream,
			scriptTurn{Calls: []scriptCall{{ID: "call1", Name: "get_weather", Args: `{"city":"Paris"}`}, {ID: "call2", Name: "get_time", Args: `{"zone":"Europe/Paris"}`}}, Input: 100, Output: 10},
			scriptTurn{Calls: []scriptCall{{ID: "call3", Name: "celsius_to_fahrenheit", Args: `{"celsius":"21 °C"}`}}, Input: 150, Output: 11},
			scriptTurn{Calls: []scriptCall{{ID: "call4", Name: "celsius_to_fahrenheit", Args: `{"celsius":21}`}}, Input: 200, Output: 12},
			scriptTurn{Text: "Sunny, 21 °C (69.8 °F), 14:05.", Input: 250, Output: 13},
		)
		var events []toolnexus.ModelEvent
		ag := newTestAgent(t, name, p, tk, srv, toolnexus.WithModelObserver(func(_ context.Context, e toolnexus.ModelEvent) {
			events = append(events, e)
		}))
		var text strings.Builder
		r, err := run(context.Background(), ag, "Weather and time in Paris, in Fahrenheit?", stream, &text)
		if err != nil {
			t.Fatal(err)
		}
		if r.Stop != toolnexus.StopDone || r.Text != "Sunny, 21 °C (69.8 °F), 14:05." {
			t.Errorf("stop %q, text %q", r.Stop, r.Text)
		}
		if stream && text.String() != r.Text {
			t.Errorf("streamed text %q, want %q", text.String(), r.Text)
		}
		if len(r.Steps) != 4 {
			t.Fatalf("%d steps, want 4", len(r.Steps))
		}
		want := [][]toolnexus.Outcome{{"ok", "ok"}, {"bad_arguments"}, {"ok"}, nil}
		for i, s := range r.Steps {
			if s.Index != i || !slices.Equal(outcomes(s.Results), want[i]) {
				t.Errorf("step %d: index %d, outcomes %v, want %v", i, s.Index, outcomes(s.Results), want[i])
			}
		}
		if got := r.Steps[2].Results[0].Value; got != nil && fmt.Sprint(got) != "69.8" {
			t.Errorf("converted %v, want 69.8", got)
		}
		if r.Usage.Input != 700 || r.Usage.Output != 46 || !r.Usage.Has(adapters.UsageInput|adapters.UsageOutput) {
			t.Errorf("usage %+v, want input 700, output 46, both known", r.Usage)
		}
		if len(events) != 4 || events[3].Turn.Usage.Input != 250 || events[1].Err != nil {
			t.Errorf("model events: %d, want 4 with the replies' usage", len(events))
		}
		bodies := srv.requests()
		if len(bodies) != 4 {
			t.Fatalf("%d requests, want 4", len(bodies))
		}
		for i, b := range bodies {
			if !json.Valid(b) {
				t.Fatalf("request %d is not JSON: %s", i, b)
			}
			if i > 0 && len(b) <= len(bodies[i-1]) {
				t.Errorf("request %d (%d bytes) does not grow request %d (%d bytes)", i, len(b), i-1, len(bodies[i-1]))
			}
		}
		if !bytes.Contains(bodies[2], []byte(`/celsius`)) {
			t.Errorf("request 2 does not carry the bad call's error:\n%s", bodies[2])
		}
		if !bytes.Contains(bodies[0], []byte(`Be brief.`)) || !bytes.Contains(bodies[0], []byte(`"get_weather"`)) {
			t.Errorf("request 0 carries no system prompt or no tools:\n%s", bodies[0])
		}
		if tools.count("celsius_to_fahrenheit") != 1 || tools.count("get_weather") != 1 {
			t.Errorf("tools ran %d and %d times, want 1 and 1", tools.count("celsius_to_fahrenheit"), tools.count("get_weather"))
		}
		// History: the prompt (and a system message), then per step the
		// replay and the results.
		if len(r.History) < 1+4+3 {
			t.Errorf("%d history entries, want at least 8", len(r.History))
		}
	})
}

// TestAgentPause pauses, for every provider, whole and streamed, a run at
// a call that needs approval, carries its state as JSON to another Agent
// (another toolkit of the same tools and key, sharing the approval
// store: another process), resumes it there with the approval, and
// checks that the approved call ran once, that the call of the same step
// which needed none ran once and its result was kept, and that resuming
// the same state again runs nothing.
func TestAgentPause(t *testing.T) {
	eachProvider(t, func(t *testing.T, name string, p adapters.Provider, stream bool) {
		tools := newAgentTools(t)
		store := toolnexus.NewApprovalMemory(0)
		key := []byte("agent-test-key")
		mk := func() *toolnexus.Toolkit {
			tk, err := toolnexus.NewToolkitWith(tools.tools, toolnexus.WithApproval("refund"),
				toolnexus.WithApprovalKey(key), toolnexus.WithApprovalStore(store))
			if err != nil {
				t.Fatal(err)
			}
			return tk
		}
		srv := newAgentServer(t, p, stream,
			scriptTurn{Calls: []scriptCall{{ID: "call1", Name: "get_weather", Args: `{"city":"Oslo"}`}, {ID: "call2", Name: "refund", Args: `{"order":"A-1"}`}}, Input: 10, Output: 5},
			scriptTurn{Text: "Refunded A-1; it is sunny in Oslo.", Input: 20, Output: 6},
		)
		r, err := run(context.Background(), newTestAgent(t, name, p, mk(), srv), "Refund A-1, and the weather in Oslo?", stream, new(strings.Builder))
		if err != nil {
			t.Fatal(err)
		}
		if r.Stop != toolnexus.StopPending || len(r.Pending) != 1 || r.Pending[0].Tool != "refund" || r.Pending[0].Index != 1 {
			t.Fatalf("stop %q, pending %+v", r.Stop, r.Pending)
		}
		if tools.count("refund") != 0 || tools.count("get_weather") != 1 {
			t.Fatalf("before the decision: refund ran %d times, get_weather %d", tools.count("refund"), tools.count("get_weather"))
		}
		var st map[string]json.RawMessage
		if err := json.Unmarshal(r.State, &st); err != nil || string(st["toolnexus_agent_state"]) != "1" || string(st["provider"]) != `"`+p.Name()+`"` {
			t.Fatalf("state is not a JSON object of version 1 naming its provider (%v): %s", err, r.State)
		}
		// Another process: the state and the pending call went through JSON.
		var pending []toolnexus.PendingCall
		if b, err := json.Marshal(r.Pending); err != nil || json.Unmarshal(b, &pending) != nil {
			t.Fatal("pending calls do not round-trip as JSON")
		}
		ag2 := newTestAgent(t, name, p, mk(), srv)
		decisions := []toolnexus.Decision{toolnexus.Approve(pending[0])}
		r2, err := resume(context.Background(), ag2, r.State, decisions, stream)
		if err != nil {
			t.Fatal(err)
		}
		if r2.Stop != toolnexus.StopDone || r2.Text != "Refunded A-1; it is sunny in Oslo." {
			t.Errorf("resumed: stop %q, text %q", r2.Stop, r2.Text)
		}
		if len(r2.Steps) != 2 || !slices.Equal(outcomes(r2.Steps[0].Results), []toolnexus.Outcome{"ok", "ok"}) || r2.Steps[0].Index != 0 || r2.Steps[1].Index != 1 {
			t.Errorf("resumed steps: %d, first outcomes %v", len(r2.Steps), outcomes(r2.Steps[0].Results))
		}
		if r2.Usage.Input != 30 || r2.Usage.Output != 11 {
			t.Errorf("usage over the pause %+v, want input 30, output 11", r2.Usage)
		}
		if tools.count("refund") != 1 || tools.count("get_weather") != 1 {
			t.Errorf("after the decision: refund ran %d times, get_weather %d, want 1 and 1", tools.count("refund"), tools.count("get_weather"))
		}
		bodies := srv.requests()
		last := bodies[len(bodies)-1]
		if !bytes.Contains(last, []byte("refunded A-1")) || !bytes.Contains(last, []byte("sunny, 21 °C in Oslo")) {
			t.Errorf("the resumed request lacks a result:\n%s", last)
		}
		// The same state and decision again: refused, nothing runs.
		if _, err := resume(context.Background(), ag2, r.State, decisions, stream); !errors.Is(err, toolnexus.ErrDecided) {
			t.Errorf("second resume: %v, want ErrDecided", err)
		}
		if tools.count("refund") != 1 || len(srv.requests()) != len(bodies) {
			t.Errorf("the second resume ran something: refund %d times, %d requests", tools.count("refund"), len(srv.requests()))
		}
	})
}

type agentReport struct {
	City  string  `json:"city" required:"true"`
	TempF float64 `json:"temp_f" required:"true"`
}

// TestAgentAnswer ends, for every provider, whole and streamed, a run in
// a typed answer: a tool call, then an answer that is not a report (a
// field missing), asked for again with the problem, then a report.
// Providers that take the answer as a forced tool call get it so.
func TestAgentAnswer(t *testing.T) {
	eachProvider(t, func(t *testing.T, name string, p adapters.Provider, stream bool) {
		testAgentAnswer(t, name, p, stream)
	})
	t.Run("anthropic-answer-tool", func(t *testing.T) {
		testAgentAnswer(t, "anthropic", adapters.ForAnthropic(adapters.AnswerTool()), false)
	})
	t.Run("anthropic-answer-tool/stream", func(t *testing.T) {
		testAgentAnswer(t, "anthropic", adapters.ForAnthropic(adapters.AnswerTool()), true)
	})
}

func testAgentAnswer(t *testing.T, name string, p adapters.Provider, stream bool) {
	tools := newAgentTools(t)
	tk, err := toolnexus.NewToolkit(tools.tools...)
	if err != nil {
		t.Fatal(err)
	}
	report := define.MustDefineAnswer[agentReport](define.WithName("report"))
	ar, err := adapters.ResponseFormat(p, report)
	if err != nil {
		t.Fatal(err)
	}
	byTool := ar.Tool.Name() != ""
	answer := func(id, text string) scriptTurn {
		if byTool {
			return scriptTurn{Calls: []scriptCall{{ID: id, Name: ar.Tool.Name(), Args: text}}, Input: 1, Output: 1}
		}
		return scriptTurn{Text: text, Input: 1, Output: 1}
	}
	srv := newAgentServer(t, p, stream,
		scriptTurn{Calls: []scriptCall{{ID: "call1", Name: "get_weather", Args: `{"city":"Rome"}`}}, Input: 1, Output: 1},
		answer("call2", `{"city":"Rome"}`),
		answer("call3", `{"city":"Rome","temp_f":69.8}`),
	)
	ag := newTestAgent(t, name, p, tk, srv, toolnexus.WithAnswer(report))
	r, err := run(context.Background(), ag, "Report Rome's temperature.", stream, new(strings.Builder))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := r.Answer.(agentReport)
	if !ok || got != (agentReport{City: "Rome", TempF: 69.8}) || r.Stop != toolnexus.StopDone {
		t.Fatalf("answer %#v (%T), stop %q", r.Answer, r.Answer, r.Stop)
	}
	bodies := srv.requests()
	if len(bodies) != 3 || len(r.Steps) != 3 {
		t.Fatalf("%d requests, %d steps, want 3", len(bodies), len(r.Steps))
	}
	if !bytes.Contains(bodies[2], []byte("/temp_f")) {
		t.Errorf("the retry does not name the missing field:\n%s", bodies[2])
	}
	for i, b := range bodies {
		if byTool {
			if !bytes.Contains(b, []byte(`"`+ar.Tool.Name()+`"`)) {
				t.Errorf("request %d does not offer the answer's tool", i)
			}
		} else if !bytes.Contains(b, []byte(`"`+ar.Field+`"`)) {
			t.Errorf("request %d has no %q member:\n%s", i, ar.Field, b)
		}
	}
	if tools.count("get_weather") != 1 {
		t.Errorf("get_weather ran %d times", tools.count("get_weather"))
	}
}

// refusalStops is each provider's stop reason of a refusal, where it has
// one in a whole reply's stop.
var refusalStops = map[string]string{"openai": "content_filter", "groq": "content_filter", "mistral": "content_filter",
	"anthropic": "refusal", "gemini": "SAFETY", "bedrock": "content_filtered"}

// TestAgentStops checks the stops and limits of a run for every
// provider, whole and streamed.
func TestAgentStops(t *testing.T) {
	eachProvider(t, testAgentStops)
}

func testAgentStops(t *testing.T, name string, p adapters.Provider, stream bool) {
	weather := func(id string) scriptTurn {
		return scriptTurn{Calls: []scriptCall{{ID: id, Name: "get_weather", Args: `{"city":"Oslo"}`}}, Input: 1, Output: 1}
	}
	newTK := func(t *testing.T) (*agentTools, *toolnexus.Toolkit) {
		tools := newAgentTools(t)
		tk, err := toolnexus.NewToolkit(tools.tools...)
		if err != nil {
			t.Fatal(err)
		}
		return tools, tk
	}

	t.Run("max-steps", func(t *testing.T) {
		_, tk := newTK(t)
		srv := newAgentServer(t, p, stream, weather("a"), weather("b"), weather("c"), weather("d"))
		r, err := run(context.Background(), newTestAgent(t, name, p, tk, srv, toolnexus.WithMaxSteps(3)), "go", stream, new(strings.Builder))
		if !errors.Is(err, toolnexus.ErrMaxSteps) || len(r.Steps) != 3 || len(srv.requests()) != 3 {
			t.Errorf("err %v, %d steps, %d requests; want ErrMaxSteps after 3", err, len(r.Steps), len(srv.requests()))
		}
	})

	t.Run("tool-retries", func(t *testing.T) {
		tools, tk := newTK(t)
		broken := func(id string) scriptTurn {
			return scriptTurn{Calls: []scriptCall{{ID: id, Name: "broken", Args: `{"order":"A"}`}}, Input: 1, Output: 1}
		}
		srv := newAgentServer(t, p, stream, broken("a"), weather("w"), broken("b"), broken("c"), broken("d"))
		r, err := run(context.Background(), newTestAgent(t, name, p, tk, srv, toolnexus.WithToolRetries(1, "broken")), "go", stream, new(strings.Builder))
		var tre *toolnexus.ToolRetryError
		if !errors.As(err, &tre) || tre.Tool != "broken" || tre.Failures != 2 || !strings.Contains(err.Error(), "the order service is down") {
			t.Fatalf("err %v, want a ToolRetryError for broken after 2 failures in a row", err)
		}
		// a, then w (another tool: broken's count goes on), b: 2 in a row.
		if len(r.Steps) != 3 || tools.count("broken") != 2 {
			t.Errorf("%d steps, broken ran %d times; want 3 and 2", len(r.Steps), tools.count("broken"))
		}
	})

	t.Run("unknown-tool-retries", func(t *testing.T) {
		_, tk := newTK(t)
		ghost := func(id string) scriptTurn {
			return scriptTurn{Calls: []scriptCall{{ID: id, Name: "ghost", Args: `{}`}}, Input: 1, Output: 1}
		}
		srv := newAgentServer(t, p, stream, ghost("a"), ghost("b"), ghost("c"), ghost("d"), ghost("e"))
		_, err := run(context.Background(), newTestAgent(t, name, p, tk, srv), "go", stream, new(strings.Builder))
		var tre *toolnexus.ToolRetryError
		if !errors.As(err, &tre) || tre.Tool != "ghost" || tre.Failures != toolnexus.DefaultToolRetries+1 || !errors.Is(err, toolnexus.ErrUnknownTool) {
			t.Errorf("err %v, want a ToolRetryError for ghost wrapping ErrUnknownTool", err)
		}
	})

	t.Run("stop-at-tool", func(t *testing.T) {
		tools, tk := newTK(t)
		srv := newAgentServer(t, p, stream, weather("a"),
			scriptTurn{Calls: []scriptCall{{ID: "r", Name: "refund", Args: `{"order":"B"}`}}, Input: 1, Output: 1}, weather("c"))
		r, err := run(context.Background(), newTestAgent(t, name, p, tk, srv, toolnexus.WithStopAtTool("refund")), "go", stream, new(strings.Builder))
		if err != nil || r.Stop != toolnexus.StopTool || len(r.Steps) != 2 || tools.count("refund") != 1 {
			t.Errorf("err %v, stop %q, %d steps, refund ran %d times", err, r.Stop, len(r.Steps), tools.count("refund"))
		}
	})

	t.Run("stop-when", func(t *testing.T) {
		_, tk := newTK(t)
		srv := newAgentServer(t, p, stream, weather("a"), weather("b"), weather("c"))
		r, err := run(context.Background(), newTestAgent(t, name, p, tk, srv, toolnexus.WithStopWhen(func(s *toolnexus.Step) bool { return s.Index == 1 })), "go", stream, new(strings.Builder))
		if err != nil || r.Stop != toolnexus.StopWhen || len(r.Steps) != 2 {
			t.Errorf("err %v, stop %q, %d steps; want StopWhen after 2", err, r.Stop, len(r.Steps))
		}
	})

	t.Run("prepare-step", func(t *testing.T) {
		tools, tk := newTK(t)
		srv := newAgentServer(t, p, stream,
			// step 0 offers get_weather alone; the model calls refund anyway
			scriptTurn{Calls: []scriptCall{{ID: "a", Name: "refund", Args: `{"order":"C"}`}, {ID: "b", Name: "get_weather", Args: `{"city":"Oslo"}`}}, Input: 1, Output: 1},
			// step 1 offers every tool but lets the model call get_time alone
			scriptTurn{Calls: []scriptCall{{ID: "c", Name: "get_weather", Args: `{"city":"Oslo"}`}, {ID: "d", Name: "get_time", Args: `{"zone":"UTC"}`}}, Input: 1, Output: 1},
			scriptTurn{Text: "done", Input: 1, Output: 1})
		var plans []string
		ag := newTestAgent(t, name, p, tk, srv, toolnexus.WithPrepareStep(func(_ context.Context, plan *toolnexus.StepPlan) error {
			plans = append(plans, fmt.Sprintf("%d:%s:%d", plan.Step, plan.Prompt, len(plan.Tools)))
			switch plan.Step {
			case 0:
				w, _ := tk.Get("get_weather")
				plan.Tools = []define.Tool{w}
			case 1:
				plan.Choice = &adapters.Choice{Mode: adapters.ChoiceRequired, Allowed: []string{"get_time"}}
			}
			return nil
		}))
		r, err := run(context.Background(), ag, "weather", stream, new(strings.Builder))
		if name == "ollama" { // no tool choice: refused before the request
			if err == nil || !strings.Contains(err.Error(), "Ollama has no tool choice") || len(srv.requests()) != 1 {
				t.Errorf("err %v, want Ollama's refusal of a tool choice before step 1's request", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"0:weather:5", "1:weather:5", "2:weather:5"}; !slices.Equal(plans, want) {
			t.Errorf("plans %v, want %v", plans, want)
		}
		if got := outcomes(r.Steps[0].Results); !slices.Equal(got, []toolnexus.Outcome{"unknown_tool", "ok"}) {
			t.Errorf("step 0 outcomes %v: refund was not offered", got)
		}
		if got := outcomes(r.Steps[1].Results); !slices.Equal(got, []toolnexus.Outcome{"unknown_tool", "ok"}) {
			t.Errorf("step 1 outcomes %v: only get_time was allowed", got)
		}
		if tools.count("refund") != 0 || tools.count("get_weather") != 1 {
			t.Errorf("refund ran %d times, get_weather %d", tools.count("refund"), tools.count("get_weather"))
		}
		bodies := srv.requests()
		if bytes.Contains(bodies[0], []byte(`"refund"`)) || !bytes.Contains(bodies[1], []byte(`"refund"`)) {
			t.Errorf("step 0 must offer get_weather alone, step 1 every tool")
		}
		member := map[string]string{"gemini": `"toolConfig"`, "bedrock": `"toolChoice"`}[name]
		if member == "" {
			member = `"tool_choice"`
		}
		if !bytes.Contains(bodies[1], []byte(member)) || bytes.Contains(bodies[2], []byte(member)) {
			t.Errorf("the tool choice must be step 1's alone")
		}
		if msg := r.Steps[0].Results[0].Output; !strings.Contains(msg, "get_weather") || strings.Contains(msg, "refund (") {
			t.Errorf("the refusal %q should name the tools offered", msg)
		}
	})

	t.Run("transport-error", func(t *testing.T) {
		_, tk := newTK(t)
		srv := newAgentServer(t, p, stream, weather("a")) // then 400
		r, err := run(context.Background(), newTestAgent(t, name, p, tk, srv), "go", stream, new(strings.Builder))
		if !errors.Is(err, adapters.ErrProviderError) || len(r.Steps) != 1 || !strings.Contains(err.Error(), "no more replies") {
			t.Errorf("err %v, %d steps", err, len(r.Steps))
		}
	})

	t.Run("answer-retries", func(t *testing.T) {
		_, tk := newTK(t)
		report := define.MustDefineAnswer[agentReport]()
		bad := scriptTurn{Text: `{"city":"Rome"}`, Input: 1, Output: 1}
		srv := newAgentServer(t, p, stream, bad, bad, bad)
		r, err := run(context.Background(), newTestAgent(t, name, p, tk, srv, toolnexus.WithAnswer(report), toolnexus.WithAnswerRetries(1)), "go", stream, new(strings.Builder))
		var ae *define.ArgErrors
		if !errors.As(err, &ae) || len(srv.requests()) != 2 || r.Answer != nil {
			t.Errorf("err %v, %d requests; want the decode error after 1 retry", err, len(srv.requests()))
		}
	})

	t.Run("refusal", func(t *testing.T) {
		stop, ok := refusalStops[name]
		if !ok {
			t.Skipf("%s says a refusal otherwise than by its stop reason", name)
		}
		_, tk := newTK(t)
		report := define.MustDefineAnswer[agentReport]()
		srv := newAgentServer(t, p, stream, scriptTurn{Text: "no", Stop: stop, Input: 1, Output: 1})
		_, err := run(context.Background(), newTestAgent(t, name, p, tk, srv, toolnexus.WithAnswer(report)), "go", stream, new(strings.Builder))
		if !errors.Is(err, adapters.ErrRefused) || len(srv.requests()) != 1 {
			t.Errorf("err %v, want ErrRefused without a retry", err)
		}
	})
}

// TestNewAgentErrors checks what NewAgent refuses.
func TestNewAgentErrors(t *testing.T) {
	tools := newAgentTools(t)
	tk, err := toolnexus.NewToolkit(tools.tools...)
	if err != nil {
		t.Fatal(err)
	}
	ep := transport.OpenAI("k")
	cases := map[string]struct {
		p    adapters.Provider
		tk   *toolnexus.Toolkit
		opts []toolnexus.AgentOption
		want string
	}{
		"no transport":  {adapters.ForOpenAI(), tk, nil, "no transport"},
		"no provider":   {nil, tk, []toolnexus.AgentOption{toolnexus.WithTransport(ep)}, "no provider"},
		"no toolkit":    {adapters.ForOpenAI(), nil, []toolnexus.AgentOption{toolnexus.WithTransport(ep)}, "no toolkit"},
		"request model": {adapters.ForOpenAI(), tk, []toolnexus.AgentOption{toolnexus.WithTransport(ep), toolnexus.WithRequest(adapters.Request{Model: "x"})}, "Request.Model"},
		"stop at ghost": {adapters.ForOpenAI(), tk, []toolnexus.AgentOption{toolnexus.WithTransport(ep), toolnexus.WithStopAtTool("ghost")}, `"ghost"`},
		"mcp":           {adapters.ForMCP(), tk, []toolnexus.AgentOption{toolnexus.WithTransport(ep)}, "no model request"},
		"gemini switch": {adapters.ForGemini(), tk, []toolnexus.AgentOption{toolnexus.WithTransport(ep), toolnexus.WithRequest(adapters.Request{ParallelToolCalls: new(bool)})}, "ParallelToolCalls"},
	}
	for name, c := range cases {
		if _, err := toolnexus.NewAgent(c.p, c.tk, "m", c.opts...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one saying %q", name, err, c.want)
		}
	}
}

// TestAgentResumeBadState checks that Resume refuses a state that is not
// a paused run of this agent, and runs nothing.
func TestAgentResumeBadState(t *testing.T) {
	const name = "anthropic"
	p := scriptProviders()[name]
	tools := newAgentTools(t)
	tk, err := toolnexus.NewToolkitWith(tools.tools, toolnexus.WithApproval("refund"))
	if err != nil {
		t.Fatal(err)
	}
	srv := newAgentServer(t, p, false,
		scriptTurn{Calls: []scriptCall{{ID: "toolu_1", Name: "refund", Args: `{"order":"A"}`}}, Input: 1, Output: 1},
		scriptTurn{Text: "ok", Input: 1, Output: 1})
	ag := newTestAgent(t, name, p, tk, srv, toolnexus.WithMaxStateBytes(1<<16))
	r, err := ag.Run(context.Background(), "refund A")
	if err != nil || r.Stop != toolnexus.StopPending {
		t.Fatalf("err %v, stop %q", err, r.Stop)
	}
	approve := []toolnexus.Decision{toolnexus.Approve(r.Pending[0])}
	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(r.State, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	other := newTestAgent(t, "openai", scriptProviders()["openai"], tk, srv)
	cases := map[string]struct {
		ag    *toolnexus.Agent
		state []byte
		want  string
	}{
		"empty":    {ag, nil, "state"},
		"garbage":  {ag, []byte(`{"toolnexus_agent_state":1,`), "state"},
		"two":      {ag, append(slices.Clone(r.State), r.State...), "more than one"},
		"version":  {ag, edit(func(m map[string]any) { m["toolnexus_agent_state"] = 2 }), "version 2"},
		"provider": {other, r.State, `provider "anthropic"`},
		"model":    {ag, edit(func(m map[string]any) { m["model"] = "other" }), `model "other"`},
		"unknown":  {ag, edit(func(m map[string]any) { m["extra"] = 1 }), "unknown field"},
		"index":    {ag, edit(func(m map[string]any) { m["pending"].([]any)[0].(map[string]any)["index"] = 5 }), "index 5"},
		"large":    {ag, append(slices.Clone(r.State), bytes.Repeat([]byte(" "), 1<<16)...), "too large"},
		"no steps": {ag, edit(func(m map[string]any) { m["steps"] = 0 }), "steps"},
		"results":  {ag, edit(func(m map[string]any) { m["results"] = []any{} }), "1 calls and 0 results"},
	}
	for name, c := range cases {
		if _, err := c.ag.Resume(context.Background(), c.state, approve); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one saying %q", name, err, c.want)
		}
	}
	// A state whose pending call was edited to other arguments: its digest refuses it.
	forged := edit(func(m map[string]any) {
		m["pending"].([]any)[0].(map[string]any)["args"] = map[string]any{"order": "Z"}
	})
	if _, err := ag.Resume(context.Background(), forged, approve); !errors.Is(err, toolnexus.ErrDigestMismatch) {
		t.Errorf("forged pending call: %v, want ErrDigestMismatch", err)
	}
	if tools.count("refund") != 0 || len(srv.requests()) != 1 {
		t.Errorf("a refused resume ran something: refund %d times, %d requests", tools.count("refund"), len(srv.requests()))
	}
	// Deny: the model reads the reason, and the run goes on.
	r2, err := ag.Resume(context.Background(), r.State, []toolnexus.Decision{toolnexus.Deny(r.Pending[0], "not today")})
	if err != nil || r2.Text != "ok" || toolnexus.OutcomeOf(r2.Steps[0].Results[0]) != toolnexus.OutcomeDenied || tools.count("refund") != 0 {
		t.Errorf("deny: err %v, text %q", err, r2.Text)
	}
	if last := srv.requests()[1]; !bytes.Contains(last, []byte("not today")) {
		t.Errorf("the denial's reason is not in the next request:\n%s", last)
	}
}

// FuzzAgentResume gives Resume states mutated from a real one: an error
// or a run, never a panic, and never a tool run without a valid approval.
func FuzzAgentResume(f *testing.F) {
	const name = "openai"
	p := scriptProviders()[name]
	tools := newAgentTools(f)
	tk, err := toolnexus.NewToolkitWith(tools.tools, toolnexus.WithApproval("refund"))
	if err != nil {
		f.Fatal(err)
	}
	srv := newAgentServer(f, p, false,
		scriptTurn{Calls: []scriptCall{{ID: "call_1", Name: "get_weather", Args: `{"city":"Oslo"}`}, {ID: "call_2", Name: "refund", Args: `{"order":"A"}`}}, Input: 1, Output: 1})
	ag := newTestAgent(f, name, p, tk, srv, toolnexus.WithMaxStateBytes(1<<20), toolnexus.WithMaxSteps(1))
	r, err := ag.Run(context.Background(), "go")
	if err != nil || r.Stop != toolnexus.StopPending {
		f.Fatalf("err %v, stop %q", err, r.Stop)
	}
	f.Add(r.State, []byte(`[]`))
	f.Add(r.State, []byte(`[{"index":1,"id":"call_2","digest":"x","verdict":"approve"}]`))
	f.Add([]byte(`{"toolnexus_agent_state":1,"provider":"openai","model":"model-x","steps":1,"calls":[{"name":"refund","args":"\"x"}],"results":[{}],"pending":[{"index":0}]}`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, state, decisions []byte) {
		var ds []toolnexus.Decision
		_ = json.Unmarshal(decisions, &ds)
		before := tools.count("refund")
		_, _ = ag.Resume(context.Background(), state, ds)
		if tools.count("refund") != before {
			t.Fatal("refund ran from a fuzzed state")
		}
	})
}

// TestAgentPrepareStep narrows, for every provider, whole and streamed,
// the first step's tools to one: the request carries it alone, and a
// call of another tool is answered as unknown without running; the next
// step offers every tool again.
func TestAgentPrepareStep(t *testing.T) {
	eachProvider(t, func(t *testing.T, name string, p adapters.Provider, stream bool) {
		tools := newAgentTools(t)
		tk, err := toolnexus.NewToolkit(tools.tools...)
		if err != nil {
			t.Fatal(err)
		}
		srv := newAgentServer(t, p, stream,
			scriptTurn{Calls: []scriptCall{{ID: "call1", Name: "refund", Args: `{"order":"C"}`}, {ID: "call2", Name: "get_weather", Args: `{"city":"Oslo"}`}}, Input: 1, Output: 1},
			scriptTurn{Text: "done", Input: 1, Output: 1})
		ag := newTestAgent(t, name, p, tk, srv, toolnexus.WithPrepareStep(func(_ context.Context, plan *toolnexus.StepPlan) error {
			if plan.Step == 0 {
				w, _ := tk.Get("get_weather")
				plan.Tools = []define.Tool{w}
			}
			return nil
		}))
		r, err := run(context.Background(), ag, "weather", stream, new(strings.Builder))
		if err != nil {
			t.Fatal(err)
		}
		if got := outcomes(r.Steps[0].Results); !slices.Equal(got, []toolnexus.Outcome{"unknown_tool", "ok"}) || tools.count("refund") != 0 {
			t.Errorf("step 0 outcomes %v, refund ran %d times: refund was not offered", got, tools.count("refund"))
		}
		bodies := srv.requests()
		if len(bodies) != 2 || bytes.Contains(bodies[0], []byte(`"refund"`)) || !bytes.Contains(bodies[1], []byte(`"refund"`)) {
			t.Errorf("step 0 must offer get_weather alone, step 1 every tool")
		}
	})
}
