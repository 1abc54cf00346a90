package tnotel_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tnotel "github.com/toolnexus/toolnexus/integrations/otel"
)

// An Anthropic reply asking for one call, with its usage.
const chatReply = `{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[
{"type":"tool_use","id":"toolu_1","name":"lookup","input":{"key":"a"}}],
"stop_reason":"tool_use","usage":{"input_tokens":100,"output_tokens":20,"cache_read_input_tokens":300,"cache_creation_input_tokens":0}}`

// TestChatSpan: a model call's span carries the request and the reply's
// usage and finish reason, is the parent of the turn's execute_tool
// spans, and feeds the token and duration histograms; a failed call has
// an error class, never the error's text.
func TestChatSpan(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	reader := sdkmetric.NewManualReader()
	tr := tnotel.New(tnotel.WithTracerProvider(tp), tnotel.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	lookup := define.MustDefineTool(func(ctx context.Context, in lookupIn) (string, error) { return "v", nil },
		define.WithName("lookup"))
	tk, err := toolnexus.NewToolkitWith([]define.Tool{lookup}, tr.Options()...)
	if err != nil {
		t.Fatal(err)
	}
	p := adapters.ForAnthropic()

	ctx, chat := tr.StartChat(context.Background(), p, "claude-x")
	turn, err := p.Parse([]byte(chatReply))
	chat.End(turn, err)
	chat.End(turn, errors.New("twice")) // does nothing
	if err != nil {
		t.Fatal(err)
	}
	tk.Run(ctx, turn.Calls)

	_, failed := tr.StartChat(context.Background(), adapters.ForGemini(), "gemini-y")
	failed.End(adapters.Turn{}, fmt.Errorf("reading: %w: secret text of the reply", adapters.ErrIncomplete))

	spans := exp.GetSpans()
	byName := map[string]tracetest.SpanStub{}
	for _, s := range spans {
		byName[s.Name] = s
	}
	c, ok := byName["chat claude-x"]
	if !ok {
		t.Fatalf("no chat span among %d spans", len(spans))
	}
	if c.SpanKind != trace.SpanKindClient {
		t.Errorf("chat span kind %v, want client", c.SpanKind)
	}
	want := map[string]string{
		"gen_ai.operation.name": "chat", "gen_ai.request.model": "claude-x", "gen_ai.provider.name": "anthropic",
		"gen_ai.usage.input_tokens": "400", "gen_ai.usage.output_tokens": "20",
		"toolnexus.usage.cache_read_tokens": "300", "toolnexus.usage.cache_write_tokens": "0",
		"gen_ai.response.finish_reasons": `["tool_use"]`,
	}
	got := attrs(c)
	for k, v := range want {
		if got[attribute.Key(k)] != v {
			t.Errorf("chat span %s = %q, want %q", k, got[attribute.Key(k)], v)
		}
	}
	if _, ok := got["toolnexus.usage.reasoning_tokens"]; ok {
		t.Error("reasoning tokens recorded, but the reply gave none")
	}
	tool, ok := byName["execute_tool lookup"]
	if !ok {
		t.Fatal("no execute_tool span")
	}
	if tool.Parent.SpanID() != c.SpanContext.SpanID() {
		t.Errorf("execute_tool's parent %v, want the chat span %v", tool.Parent.SpanID(), c.SpanContext.SpanID())
	}
	f, ok := byName["chat gemini-y"]
	if !ok {
		t.Fatal("no span of the failed call")
	}
	if f.Status.Code != codes.Error || f.Status.Description != "incomplete" || attrs(f)["error.type"] != "incomplete" ||
		attrs(f)["gen_ai.provider.name"] != "gcp.gemini" {
		t.Errorf("failed call: status %+v, attributes %v", f.Status, attrs(f))
	}
	for _, s := range spans {
		for _, kv := range s.Attributes {
			if strings.Contains(kv.Value.String(), "secret") {
				t.Errorf("span %s carries the error's text in %s", s.Name, kv.Key)
			}
		}
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	tokens := map[string]int64{} // token type: sum
	durations := 0
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch m.Name {
			case "gen_ai.client.token.usage":
				for _, dp := range m.Data.(metricdata.Histogram[int64]).DataPoints {
					typ, _ := dp.Attributes.Value("gen_ai.token.type")
					tokens[typ.AsString()] += dp.Sum
				}
			case "gen_ai.client.operation.duration":
				for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
					durations += int(dp.Count)
				}
			}
		}
	}
	if tokens["input"] != 400 || tokens["output"] != 20 || len(tokens) != 2 {
		t.Errorf("token usage %v, want input 400 and output 20", tokens)
	}
	if durations != 2 {
		t.Errorf("%d operation durations, want 2 (one a model call)", durations)
	}
}

func TestProviderName(t *testing.T) {
	for _, c := range []struct {
		p    adapters.Provider
		want string
	}{
		{adapters.ForOpenAI(), "openai"}, {adapters.ForOpenAIResponses(), "openai"}, {adapters.ForAnthropic(), "anthropic"},
		{adapters.ForGemini(), "gcp.gemini"}, {adapters.ForBedrock(), "aws.bedrock"}, {adapters.ForMistral(), "mistral_ai"},
		{adapters.ForOllama(), "ollama"}, {adapters.ForOpenAI(adapters.Server(adapters.Groq)), "groq"},
		{adapters.ForOpenAI(adapters.Server(adapters.XAI)), "x_ai"}, {nil, ""},
	} {
		if got := tnotel.ProviderName(c.p); got != c.want {
			t.Errorf("ProviderName(%v) = %q, want %q", c.p, got, c.want)
		}
	}
}

// replies is a transport.Transport that answers with whole replies in
// order, parsed by p.
type replies struct {
	p    adapters.Provider
	next []string
}

func (r *replies) Send(_ context.Context, _ []byte) (adapters.Turn, error) {
	if len(r.next) == 0 {
		return adapters.Turn{}, errors.New("no more replies")
	}
	reply := r.next[0]
	r.next = r.next[1:]
	return r.p.Parse([]byte(reply))
}

func (r *replies) Stream(ctx context.Context, body []byte, _ adapters.StreamHooks) (adapters.Turn, error) {
	return r.Send(ctx, body)
}

// TestModelHook runs an Agent with the Tracer's ModelHook: one chat span
// per model call, each the parent of its step's execute_tool spans.
func TestModelHook(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tr := tnotel.New(tnotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))))
	lookup := define.MustDefineTool(func(ctx context.Context, in lookupIn) (string, error) { return "v", nil },
		define.WithName("lookup"))
	tk, err := toolnexus.NewToolkitWith([]define.Tool{lookup}, tr.Options()...)
	if err != nil {
		t.Fatal(err)
	}
	p := adapters.ForAnthropic()
	final := `{"type":"message","role":"assistant","content":[{"type":"text","text":"done"}],"stop_reason":"end_turn","usage":{"input_tokens":7,"output_tokens":2}}`
	ag, err := toolnexus.NewAgent(p, tk, "claude-x", toolnexus.WithTransport(&replies{p: p, next: []string{chatReply, final}}),
		toolnexus.WithRequest(adapters.Request{MaxTokens: 100}), toolnexus.WithModelHook(tr.ModelHook()))
	if err != nil {
		t.Fatal(err)
	}
	run, err := ag.Run(context.Background(), "look it up")
	if err != nil {
		t.Fatal(err)
	}
	if run.Text != "done" || len(run.Steps) != 2 {
		t.Fatalf("run: text %q, %d steps", run.Text, len(run.Steps))
	}
	var chats []tracetest.SpanStub
	var tool tracetest.SpanStub
	for _, s := range exp.GetSpans() {
		switch s.Name {
		case "chat claude-x":
			chats = append(chats, s)
		case "execute_tool lookup":
			tool = s
		}
	}
	if len(chats) != 2 {
		t.Fatalf("%d chat spans, want 2 (one per model call)", len(chats))
	}
	// The spans end in order: the first model call's is the first.
	if tool.Parent.SpanID() != chats[0].SpanContext.SpanID() {
		t.Errorf("execute_tool's parent %v, want the first chat span %v", tool.Parent.SpanID(), chats[0].SpanContext.SpanID())
	}
	if got := attrs(chats[1])["gen_ai.usage.input_tokens"]; got != "7" {
		t.Errorf("second chat span's input tokens %q, want 7", got)
	}
}
