package tnotel_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

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

type lookupIn struct {
	Key string `json:"key" minLength:"1"`
}

// fixture is a toolkit traced into an in-memory exporter and a manual
// metric reader.
type fixture struct {
	tk     *toolnexus.Toolkit
	exp    *tracetest.InMemoryExporter
	tp     *sdktrace.TracerProvider
	reader *sdkmetric.ManualReader

	mu         sync.Mutex
	handlerCtx map[string]trace.SpanContext // the span each handler saw, by key
}

func newFixture(t *testing.T, opts []tnotel.Option, kit ...toolnexus.ToolkitOption) *fixture {
	t.Helper()
	f := &fixture{exp: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader(), handlerCtx: map[string]trace.SpanContext{}}
	f.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(f.exp))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(f.reader))
	lookup := define.MustDefineTool(func(ctx context.Context, in lookupIn) (string, error) {
		f.mu.Lock()
		f.handlerCtx[in.Key] = trace.SpanFromContext(ctx).SpanContext()
		f.mu.Unlock()
		switch in.Key {
		case "fail":
			return "", errors.New("no such key")
		case "panic":
			panic("index corrupt")
		case "slow":
			<-ctx.Done()
			return "", ctx.Err()
		}
		return "value of " + in.Key, nil
	}, define.WithName("lookup"), define.WithDescription("Looks a key up."))
	tr := tnotel.New(append([]tnotel.Option{tnotel.WithTracerProvider(f.tp), tnotel.WithMeterProvider(mp)}, opts...)...)
	tk, err := toolnexus.NewToolkitWith([]define.Tool{lookup}, append(tr.Options(), kit...)...)
	if err != nil {
		t.Fatal(err)
	}
	f.tk = tk
	return f
}

func attrs(s tracetest.SpanStub) map[attribute.Key]string {
	m := map[attribute.Key]string{}
	for _, kv := range s.Attributes {
		m[kv.Key] = kv.Value.String()
	}
	return m
}

func call(id, key string) adapters.Call {
	return adapters.Call{ID: id, Name: "lookup", Args: json.RawMessage(`{"key":"` + key + `"}`)}
}

func TestSpansOfEveryOutcome(t *testing.T) {
	deny := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			if c.Input().(lookupIn).Key == "secret" {
				return toolnexus.Denied("not that one")
			}
			return next(ctx, c)
		}
	}
	needs := func(ctx context.Context, c *toolnexus.Call) bool { return c.Input().(lookupIn).Key == "ask" }
	f := newFixture(t, nil, toolnexus.WithMiddleware(deny), toolnexus.WithApprovalIf("lookup", needs))
	ctx, parent := f.tp.Tracer("test").Start(context.Background(), "agent turn")
	calls := []adapters.Call{
		call("c_ok", "a"),
		call("c_fail", "fail"),
		call("c_panic", "panic"),
		call("c_slow", "slow"),
		{ID: "c_bad", Name: "lookup", Args: json.RawMessage(`{"key":""}`)},
		{ID: "c_unknown", Name: "lokup", Args: json.RawMessage(`{}`)},
		call("c_denied", "secret"),
		call("c_pending", "ask"),
	}
	f.tk.Run(ctx, calls, toolnexus.WithCallTimeout(100*time.Millisecond))
	parent.End()
	// Run returns when the slow call is abandoned; its span ends when its
	// tool returns, just after.
	spans := f.exp.GetSpans()
	for deadline := time.Now().Add(5 * time.Second); len(spans) < len(calls)+1 && time.Now().Before(deadline); spans = f.exp.GetSpans() {
		time.Sleep(5 * time.Millisecond)
	}
	byID := map[string]tracetest.SpanStub{}
	for _, s := range spans {
		if s.Name == "agent turn" {
			continue
		}
		id := attrs(s)["gen_ai.tool.call.id"]
		if _, dup := byID[id]; dup {
			t.Errorf("two spans for %s", id)
		}
		byID[id] = s
	}
	want := map[string]string{ // call id: error.type ("" for none)
		"c_ok": "", "c_fail": "tool_error", "c_panic": "panic", "c_slow": "timeout",
		"c_bad": "bad_arguments", "c_unknown": "unknown_tool", "c_denied": "denied", "c_pending": "",
	}
	if len(byID) != len(want) {
		t.Fatalf("%d call spans, want %d: %v", len(byID), len(want), byID)
	}
	for id, errType := range want {
		s, ok := byID[id]
		if !ok {
			t.Errorf("no span for %s", id)
			continue
		}
		a := attrs(s)
		name := "lookup"
		if id == "c_unknown" {
			name = "lokup"
		}
		if s.Name != "execute_tool "+name || s.SpanKind != trace.SpanKindInternal {
			t.Errorf("%s: name %q, kind %v", id, s.Name, s.SpanKind)
		}
		if a["gen_ai.operation.name"] != "execute_tool" || a["gen_ai.tool.name"] != name || a["gen_ai.tool.type"] != "function" {
			t.Errorf("%s: attributes %v", id, a)
		}
		if desc := a["gen_ai.tool.description"]; (desc == "Looks a key up.") != (id != "c_unknown") {
			t.Errorf("%s: description %q", id, desc)
		}
		if a["error.type"] != errType {
			t.Errorf("%s: error.type %q, want %q", id, a["error.type"], errType)
		}
		if (s.Status.Code == codes.Error) != (errType != "") {
			t.Errorf("%s: status %v", id, s.Status)
		}
		if s.Parent.SpanID() != parent.SpanContext().SpanID() || s.SpanContext.TraceID() != parent.SpanContext().TraceID() {
			t.Errorf("%s: not a child of the turn's span", id)
		}
		if _, ok := a["gen_ai.tool.call.arguments"]; ok {
			t.Errorf("%s: arguments recorded without WithArguments", id)
		}
		if s.EndTime.Before(s.StartTime) {
			t.Errorf("%s: ends before it starts", id)
		}
	}
	if a := attrs(byID["c_pending"]); a["toolnexus.call.outcome"] != "pending" {
		t.Errorf("pending outcome %v", a)
	}
	// The handler's context carries the call's span.
	f.mu.Lock()
	for key, id := range map[string]string{"a": "c_ok", "fail": "c_fail", "slow": "c_slow"} {
		if sc := f.handlerCtx[key]; sc.SpanID() != byID[id].SpanContext.SpanID() {
			t.Errorf("the handler of %s saw span %v, want %v", id, sc.SpanID(), byID[id].SpanContext.SpanID())
		}
	}
	f.mu.Unlock()
	// The span lasts until the timeout (100ms), less what ran between the
	// start of the call's clock and the span's (the decode, the
	// middleware before it): not the microseconds of a span ended early.
	if d := byID["c_slow"].EndTime.Sub(byID["c_slow"].StartTime); d < 50*time.Millisecond {
		t.Errorf("the timed-out span lasted %v", d)
	}

	// The duration histogram: one point per call, by error.type.
	var rm metricdata.ResourceMetrics
	if err := f.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var total uint64
	errTypes := map[string]uint64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "gen_ai.execute_tool.duration" || m.Unit != "s" {
				continue
			}
			for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
				total += dp.Count
				v, _ := dp.Attributes.Value("error.type")
				errTypes[v.AsString()] += dp.Count
			}
		}
	}
	if total != uint64(len(calls)) || errTypes["timeout"] != 1 || errTypes[""] != 2 {
		t.Errorf("histogram: %d points, by error.type %v", total, errTypes)
	}
}

func TestSpanArgumentsAndResultsOptIn(t *testing.T) {
	f := newFixture(t, []tnotel.Option{tnotel.WithArguments(), tnotel.WithResults()})
	f.tk.ExecuteJSON(context.Background(), "lookup", []byte(`{"key":"a"}`))
	f.tk.Execute(context.Background(), "lookup", map[string]any{"key": ""})
	spans := f.exp.GetSpans()
	if len(spans) != 2 {
		t.Fatalf("%d spans", len(spans))
	}
	a := attrs(spans[0])
	if a["gen_ai.tool.call.arguments"] != `{"key":"a"}` || a["gen_ai.tool.call.result"] != "value of a" {
		t.Errorf("attributes %v", a)
	}
	if _, ok := a["gen_ai.tool.call.id"]; ok {
		t.Errorf("Execute has no call id: %v", a)
	}
	b := attrs(spans[1])
	if b["gen_ai.tool.call.arguments"] != `{"key":""}` || !strings.HasPrefix(b["gen_ai.tool.call.result"], "invalid arguments: /key") || b["error.type"] != "bad_arguments" {
		t.Errorf("bad arguments span %v", b)
	}
}

// TestSpansUnderConcurrentRuns runs batches at once from several
// goroutines: one span per call, each a child of its own turn, for -race.
func TestSpansUnderConcurrentRuns(t *testing.T) {
	f := newFixture(t, nil)
	const turns, perTurn = 4, 16
	var wg sync.WaitGroup
	parents := make([]trace.SpanContext, turns)
	for g := range turns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, span := f.tp.Tracer("test").Start(context.Background(), fmt.Sprintf("turn %d", g))
			parents[g] = span.SpanContext()
			var calls []adapters.Call
			for i := range perTurn {
				calls = append(calls, call(fmt.Sprintf("t%d_c%d", g, i), fmt.Sprintf("k%d", i)))
			}
			for i, r := range f.tk.Run(ctx, calls, toolnexus.WithParallelism(4)) {
				if r.IsError {
					t.Errorf("call %d: %+v", i, r)
				}
			}
			span.End()
		}()
	}
	wg.Wait()
	count := map[trace.SpanID]int{}
	for _, s := range f.exp.GetSpans() {
		if strings.HasPrefix(s.Name, "execute_tool ") {
			id := attrs(s)["gen_ai.tool.call.id"]
			var g int
			fmt.Sscanf(id, "t%d_", &g)
			if s.Parent.SpanID() != parents[g].SpanID() {
				t.Errorf("%s: parent %v, want turn %d's", id, s.Parent.SpanID(), g)
			}
			count[s.Parent.SpanID()]++
		}
	}
	for g, p := range parents {
		if count[p.SpanID()] != perTurn {
			t.Errorf("turn %d has %d call spans, want %d", g, count[p.SpanID()], perTurn)
		}
	}
}

// spanText is every text a span carries: its name, status description,
// attribute values and events (names and attributes).
func spanText(s tracetest.SpanStub) []string {
	out := []string{s.Name, s.Status.Description}
	for _, kv := range s.Attributes {
		out = append(out, kv.Value.String())
	}
	for _, e := range s.Events {
		out = append(out, e.Name)
		for _, kv := range e.Attributes {
			out = append(out, kv.Value.String())
		}
	}
	return out
}

// TestNothingLeaksWithoutOptIn: without WithArguments and WithResults, no
// span carries anything of a call's arguments, result or error text: the
// status says the outcome. Names and ids from the model are cut, and the
// histogram records unknown tools under one name. On main, a bad call's
// status read "invalid arguments: /extra_secret_key: ...", a tool error's
// status was its text, and a 5,000-byte invented tool name went whole into
// the span name, gen_ai.tool.name and the histogram (a series per name).
func TestNothingLeaksWithoutOptIn(t *testing.T) {
	secretTool := define.MustDefineTool(func(ctx context.Context, in lookupIn) (string, error) {
		switch in.Key {
		case "fail":
			return "", errors.New("db password s3cr3t-error rejected")
		case "panic":
			panic("s3cr3t-panic value")
		}
		return "s3cr3t-result", nil
	}, define.WithName("vault"))
	deny := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			if c.Name == "vault" && c.Input().(lookupIn).Key == "deny" {
				return toolnexus.Denied("s3cr3t-reason")
			}
			return next(ctx, c)
		}
	}
	exp, reader := tracetest.NewInMemoryExporter(), sdkmetric.NewManualReader()
	tr := tnotel.New(tnotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))),
		tnotel.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	tk, err := toolnexus.NewToolkitWith([]define.Tool{secretTool}, append(tr.Options(), toolnexus.WithMiddleware(deny))...)
	if err != nil {
		t.Fatal(err)
	}
	longName := strings.Repeat("ü", 2500) // 5,000 bytes, cut inside a character
	longID := "call_" + strings.Repeat("x", 6000)
	calls := []adapters.Call{
		{ID: "1", Name: "vault", Args: json.RawMessage(`{"key":"ok"}`)},
		{ID: "2", Name: "vault", Args: json.RawMessage(`{"key":"fail"}`)},
		{ID: "3", Name: "vault", Args: json.RawMessage(`{"key":"panic"}`)},
		{ID: "4", Name: "vault", Args: json.RawMessage(`{"key":"deny"}`)},
		{ID: "5", Name: "vault", Args: json.RawMessage(`{"key":"x","extra_s3cr3t_key":"s3cr3t-value"}`)},
		{ID: longID, Name: longName, Args: json.RawMessage(`{"s3cr3t":"s3cr3t-arg"}`)},
	}
	for i := range 50 { // invented names, one series
		calls = append(calls, adapters.Call{ID: fmt.Sprint("u", i), Name: fmt.Sprintf("made_up_%d", i), Args: json.RawMessage(`{}`)})
	}
	tk.Run(context.Background(), calls)
	spans := exp.GetSpans()
	if len(spans) != len(calls) {
		t.Fatalf("%d spans for %d calls", len(spans), len(calls))
	}
	status := map[string]string{}
	for _, s := range spans {
		for _, text := range spanText(s) {
			if strings.Contains(text, "s3cr3t") {
				t.Errorf("span %q carries %.100q", s.Name, text)
			}
			if !utf8.ValidString(text) {
				t.Errorf("span %q carries invalid UTF-8: %.100q", s.Name, text)
			}
		}
		a := attrs(s)
		if n := len(a["gen_ai.tool.name"]); n > tnotel.MaxNameBytes || len(s.Name) > len("execute_tool ")+tnotel.MaxNameBytes {
			t.Errorf("span %.80q: a tool name of %d bytes", s.Name, n)
		}
		if n := len(a["gen_ai.tool.call.id"]); n > tnotel.MaxCallIDBytes {
			t.Errorf("span %.80q: a call id of %d bytes", s.Name, n)
		}
		status[a["gen_ai.tool.call.id"]] = s.Status.Description
	}
	for id, want := range map[string]string{"1": "", "2": "tool error", "3": "the tool panicked", "4": "denied", "5": "invalid arguments", "u0": "unknown tool"} {
		if status[id] != want {
			t.Errorf("call %s: status %q, want %q", id, status[id], want)
		}
	}
	cutName := strings.Repeat("ü", (tnotel.MaxNameBytes-len("…"))/2) + "…"
	if !slices.ContainsFunc(spans.Snapshots(), func(s sdktrace.ReadOnlySpan) bool { return s.Name() == "execute_tool "+cutName }) {
		t.Errorf("no span named for the cut name %q", cutName)
	}

	// The histogram: the known tool, and one series for every unknown one.
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	names := map[string]uint64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != tnotel.DurationMetric {
				continue
			}
			for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
				v, _ := dp.Attributes.Value(tnotel.AttrToolName)
				names[v.AsString()] += dp.Count
			}
		}
	}
	if len(names) != 2 || names["vault"] != 5 || names[tnotel.OtherToolName] != 51 {
		t.Errorf("histogram series by tool name: %v, want vault: 5 and %s: 51", names, tnotel.OtherToolName)
	}
}

// TestSpanParts: a result's parts are on its span by kind, MIME type and
// size, never their bytes, even with WithResults.
func TestSpanParts(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nPIXELSECRET")
	shot := define.MustDefineTool(func(context.Context, struct{}) (define.Result, error) {
		return define.Result{Output: "two pages", Parts: []define.Part{define.ImagePart("", png), define.FilePart("text/plain", "notes.txt", []byte("TEXTSECRET"))}}, nil
	}, define.WithName("shot"))
	exp := tracetest.NewInMemoryExporter()
	tr := tnotel.New(tnotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))), tnotel.WithResults())
	tk, err := toolnexus.NewToolkitWith([]define.Tool{shot}, tr.Options()...)
	if err != nil {
		t.Fatal(err)
	}
	tk.ExecuteJSON(context.Background(), "shot", nil)
	spans := exp.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	got := map[attribute.Key]attribute.Value{}
	for _, kv := range spans[0].Attributes {
		got[kv.Key] = kv.Value
		if strings.Contains(kv.Value.String(), "SECRET") {
			t.Errorf("%s holds the part's bytes: %s", kv.Key, kv.Value.String())
		}
	}
	if k := got[tnotel.AttrPartKinds].AsStringSlice(); !slices.Equal(k, []string{"image", "file"}) {
		t.Errorf("kinds = %v", k)
	}
	if m := got[tnotel.AttrPartMIMETypes].AsStringSlice(); !slices.Equal(m, []string{"image/png", "text/plain"}) {
		t.Errorf("MIME types = %v", m)
	}
	if s := got[tnotel.AttrPartSizes].AsInt64Slice(); !slices.Equal(s, []int64{int64(len(png)), 10}) {
		t.Errorf("sizes = %v", s)
	}
	if got[tnotel.AttrToolResult].AsString() != "two pages" {
		t.Errorf("result = %v", got[tnotel.AttrToolResult])
	}
}
