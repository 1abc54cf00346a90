// Package sdktest is what the tests and examples of the integration modules
// (integrations/genai, integrations/openai, integrations/anthropic) share:
// the toolkit their scripted models call, and an HTTP server that plays a
// model for an official SDK's unmodified client.
//
//	m := sdktest.NewModel("/v1/messages", reply1, reply2, reply3)
//	defer m.Close()
//	client := anthropic.NewClient(option.WithBaseURL(m.URL()), ...)
//	... // run the loop
//	golden.JSON(t, "testdata/requests.json", m.Requests())
package sdktest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// WeatherArgs is get_weather's input.
type WeatherArgs struct {
	City string `json:"city" minLength:"1" description:"City name, e.g. Paris"`
	Unit string `json:"unit,omitempty" enum:"C,F" default:"C" description:"Temperature unit"`
}

// Weather is get_weather's output: a struct, so its result is a JSON object.
type Weather struct {
	City        string  `json:"city"`
	Temperature float64 `json:"temperature"`
	Unit        string  `json:"unit"`
	Sky         string  `json:"sky"`
}

// TimeArgs is local_time's input.
type TimeArgs struct {
	City string `json:"city" description:"City name"`
}

// Toolkit returns the toolkit of the scripted conversations: get_weather
// (a struct output; its unit must be "C" or "F") and local_time (a string
// output). Both answer the same for every city, so that requests are
// reproducible.
func Toolkit() *toolnexus.Toolkit {
	weather := define.MustDefineTool(func(ctx context.Context, in WeatherArgs) (Weather, error) {
		w := Weather{City: in.City, Temperature: 12, Unit: "C", Sky: "overcast"}
		if in.Unit == "F" {
			w.Temperature, w.Unit = 53.6, "F"
		}
		return w, nil
	}, define.WithName("get_weather"), define.WithDescription("Current weather for a city"))
	clock := define.MustDefineTool(func(ctx context.Context, in TimeArgs) (string, error) {
		return "09:00 in " + in.City, nil
	}, define.WithName("local_time"), define.WithDescription("Local time in a city"))
	tk, err := toolnexus.NewToolkit(weather, clock)
	if err != nil {
		panic(err) // two fixed, valid tools
	}
	return tk
}

// MediaToolkit returns a toolkit of one tool, screenshot (no
// arguments), whose result is the text "captured" and parts, for the
// tests of parts through the SDKs.
func MediaToolkit(parts ...define.Part) *toolnexus.Toolkit {
	shot := define.MustDefineTool(func(context.Context, struct{}) (define.Result, error) {
		return define.Result{Output: "captured", Parts: parts}, nil
	}, define.WithName("screenshot"), define.WithDescription("Captures the screen"))
	tk, err := toolnexus.NewToolkit(shot)
	if err != nil {
		panic(err) // one fixed, valid tool
	}
	return tk
}

// Model is an HTTP server that plays a model: it answers each POST to its
// path with the next scripted reply (status 200) and records the request
// bodies. A reply that starts with "status:" and a number on its first
// line is sent with that status (an error reply: "status:400\n{...}"),
// the rest of it as the body. A reply that starts with "data:" or "event:" is a streamed one,
// sent as text/event-stream; any other is sent as application/json. A request to another path, or past the last reply, gets
// a 4xx or 5xx answer and is recorded as an error ([Model.Err]).
type Model struct {
	srv     *httptest.Server
	path    string
	mu      sync.Mutex
	replies []string
	bodies  []json.RawMessage
	errs    []error
}

// NewModel starts a Model that serves replies, in order, at path.
func NewModel(path string, replies ...string) *Model {
	m := &Model{path: path, replies: replies}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	return m
}

func (m *Model) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case err != nil:
		m.errs = append(m.errs, fmt.Errorf("sdktest: reading the request body: %w", err))
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	case r.Method != http.MethodPost || r.URL.Path != m.path:
		m.errs = append(m.errs, fmt.Errorf("sdktest: %s %s, want POST %s", r.Method, r.URL.Path, m.path))
		http.Error(w, "no such endpoint", http.StatusNotFound)
		return
	case !json.Valid(body):
		m.errs = append(m.errs, fmt.Errorf("sdktest: request %d: the body is not valid JSON", len(m.bodies)+1))
		http.Error(w, "invalid JSON", http.StatusBadRequest)
		return
	case len(m.bodies) >= len(m.replies):
		m.errs = append(m.errs, fmt.Errorf("sdktest: request %d, but the script has %d replies", len(m.bodies)+1, len(m.replies)))
		http.Error(w, "script exhausted", http.StatusInternalServerError)
		return
	}
	reply := m.replies[len(m.bodies)]
	m.bodies = append(m.bodies, json.RawMessage(body))
	status := http.StatusOK
	if rest, ok := strings.CutPrefix(reply, "status:"); ok {
		if code, body, ok := strings.Cut(rest, "\n"); ok {
			if n, err := strconv.Atoi(code); err == nil {
				status, reply = n, body
			}
		}
	}
	if strings.HasPrefix(reply, "data:") || strings.HasPrefix(reply, "event:") {
		w.Header().Set("Content-Type", "text/event-stream")
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, reply)
}

// URL is the server's base URL, without a trailing slash.
func (m *Model) URL() string { return m.srv.URL }

// Close shuts the server down.
func (m *Model) Close() { m.srv.Close() }

// Requests returns the request bodies received so far, in order.
func (m *Model) Requests() []json.RawMessage {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]json.RawMessage(nil), m.bodies...)
}

// FinalText is the text of the scripted model's last reply in the
// integration tests.
const FinalText = "12 °C and overcast in Oslo, where it is 09:00."

// Finished checks how a scripted conversation ended: the server saw no bad
// request, the loop's final text is FinalText, and the model got n
// requests, which it returns.
func (m *Model) Finished(t testing.TB, text string, n int) []json.RawMessage {
	t.Helper()
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	if text != FinalText {
		t.Errorf("final text = %q, want %q", text, FinalText)
	}
	reqs := m.Requests()
	if len(reqs) != n {
		t.Fatalf("%d requests, want %d", len(reqs), n)
	}
	return reqs
}

// Err returns the problems seen so far (an unexpected path or method, a
// body that is not JSON, a request past the script), or nil.
func (m *Model) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return errors.Join(m.errs...)
}

// SameTools returns nil when sent, a "tools" value as an SDK sent it, is
// the rendered tools' JSON ([adapters.AppendJSON]) byte for byte, space
// between tokens aside; otherwise an error showing both.
func SameTools(sent json.RawMessage, rendered any) error {
	want, err := adapters.AppendJSON(nil, rendered)
	if err != nil {
		return err
	}
	var got bytes.Buffer
	if err := json.Compact(&got, sent); err != nil {
		return fmt.Errorf("sdktest: tools sent: %w", err)
	}
	if got.String() != string(want) {
		return fmt.Errorf("sdktest: tools sent:\n%s\nwant the rendered bytes:\n%s", got.String(), want)
	}
	return nil
}

// Member returns the member key of a JSON object as it was sent, or nil.
func Member(body json.RawMessage, key string) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("sdktest: request body: %w", err)
	}
	return m[key], nil
}

// Forecast is the typed answer (define.DefineAnswer) of the scripted
// conversations that end with one: the model's last reply is its JSON.
// Note is optional: a strict OpenAI answer sends it as null
// (ForecastStrictText).
type Forecast struct {
	City  string `json:"city" minLength:"1"`
	TempC int    `json:"temp_c" minimum:"-90" maximum:"60"`
	Sky   string `json:"sky" enum:"sunny,overcast,rain,snow"`
	Note  string `json:"note,omitempty"`
}

// ForecastText is the answer's text in the scripted replies, and
// ForecastStrictText the same answer from a model given OpenAI's strict
// rendering, in which the optional note is required and nullable.
const (
	ForecastText       = `{"city":"Oslo","temp_c":12,"sky":"overcast"}`
	ForecastStrictText = `{"city":"Oslo","temp_c":12,"sky":"overcast","note":null}`
)

// ForecastValue is what ForecastText and ForecastStrictText decode into.
var ForecastValue = Forecast{City: "Oslo", TempC: 12, Sky: "overcast"}

// BatchToolkit returns the toolkit of the results renderers' tests:
// get_weather and local_time as [Toolkit]'s, refund (a call of it waits
// for approval: toolnexus.WithApproval) and screenshot (a result of the
// text "captured" and parts).
func BatchToolkit(parts ...define.Part) *toolnexus.Toolkit {
	base := Toolkit()
	weather, _ := base.Get("get_weather")
	clock, _ := base.Get("local_time")
	refund := define.MustDefineTool(func(ctx context.Context, in RefundArgs) (string, error) {
		return fmt.Sprintf("refunded %d on %s", in.Amount, in.Order), nil
	}, define.WithName("refund"), define.WithDescription("Refunds an order"))
	shot := define.MustDefineTool(func(context.Context, struct{}) (define.Result, error) {
		return define.Result{Output: "captured", Parts: parts}, nil
	}, define.WithName("screenshot"), define.WithDescription("Captures the screen"))
	tk, err := toolnexus.NewToolkitWith([]define.Tool{weather, clock, refund, shot}, toolnexus.WithApproval("refund"))
	if err != nil {
		panic(err) // four fixed, valid tools
	}
	return tk
}

// RefundArgs is refund's input.
type RefundArgs struct {
	Order  string `json:"order" minLength:"1"`
	Amount int    `json:"amount" minimum:"1"`
}

// BatchCalls is one model turn for [BatchToolkit]: a result that is a
// JSON object (get_weather), a call waiting for approval (refund) in the
// middle, a bad argument's error result (get_weather with unit "K"), a
// result of parts (screenshot) and a text result (local_time).
func BatchCalls() []adapters.Call {
	return []adapters.Call{
		{ID: "call_1", Name: "get_weather", Args: json.RawMessage(`{"city":"Oslo"}`)},
		{ID: "call_2", Name: "refund", Args: json.RawMessage(`{"order":"B-7","amount":45}`)},
		{ID: "call_3", Name: "get_weather", Args: json.RawMessage(`{"city":"Oslo","unit":"K"}`)},
		{ID: "call_4", Name: "screenshot", Args: json.RawMessage(`{}`)},
		{ID: "call_5", Name: "local_time", Args: json.RawMessage(`{"city":"Oslo"}`)},
	}
}

// AgentAnswerAndChoice is the test of an Agent over an SDK client with a
// per-step tool choice and a typed answer, the same for every SDK module:
// m plays a call of get_weather, an answer that breaks the Forecast schema
// (its sky "hail"), then ForecastText; newAgent makes the Agent over the
// module's client, of Toolkit()'s tools, with the options given. The first
// step offers get_weather alone and requires a call of it (its request
// carries the member choice, the next ones do not); the second asks for
// the answer's format (the member format); the third names the problem's
// path; the run's Answer is ForecastValue.
func AgentAnswerAndChoice(t *testing.T, m *Model, tk *toolnexus.Toolkit, newAgent func(opts ...toolnexus.AgentOption) (*toolnexus.Agent, error), choice, format string) {
	t.Helper()
	forecast := define.MustDefineAnswer[Forecast]()
	agent, err := newAgent(toolnexus.WithAnswer(forecast),
		toolnexus.WithPrepareStep(func(_ context.Context, plan *toolnexus.StepPlan) error {
			if plan.Step == 0 {
				w, _ := tk.Get("get_weather")
				plan.Tools = []define.Tool{w}
				plan.Choice = &adapters.Choice{Mode: adapters.ChoiceRequired, Allowed: []string{"get_weather"}}
			}
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	run, err := agent.Run(context.Background(), "Forecast for Oslo?")
	if err != nil {
		t.Fatalf("%v (model: %v)", err, m.Err())
	}
	if got, ok := run.Answer.(Forecast); !ok || got != ForecastValue || len(run.Steps) != 3 {
		t.Fatalf("answer %#v, %d steps", run.Answer, len(run.Steps))
	}
	reqs := m.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if strings.Contains(string(reqs[0]), `"local_time"`) || !strings.Contains(string(reqs[1]), `"local_time"`) {
		t.Errorf("step 0 must offer get_weather alone, step 1 both tools")
	}
	if !strings.Contains(string(reqs[0]), choice) || strings.Contains(string(reqs[1]), choice) {
		t.Errorf("the tool choice (%s) must be step 0's alone", choice)
	}
	if !strings.Contains(string(reqs[1]), format) {
		t.Errorf("step 1 does not ask for the answer's format (%s):\n%s", format, reqs[1])
	}
	if !strings.Contains(string(reqs[2]), "/sky") {
		t.Errorf("the answer asked again does not name /sky:\n%s", reqs[2])
	}
}
