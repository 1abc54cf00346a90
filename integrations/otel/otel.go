// Package tnotel traces and measures the tool calls of a toolnexus
// [toolnexus.Toolkit] with OpenTelemetry, after the GenAI semantic
// conventions' execute_tool span (OpenTelemetry semantic conventions
// v1.41.0, docs/gen-ai/gen-ai-spans.md, "Execute tool span"; status
// Development) and the gen_ai.execute_tool.duration histogram of the
// GenAI conventions that moved to their own repository
// (semantic-conventions-genai, docs/gen-ai/gen-ai-metrics.md).
//
//	tr := tnotel.New(tnotel.WithTracerProvider(tp), tnotel.WithMeterProvider(mp))
//	tk, err := toolnexus.NewToolkitWith(tools, tr.Options()...)
//
// Each call is one span named "execute_tool {tool name}", of kind
// internal, a child of the span of the context the call was made with
// (Toolkit.Run's ctx, for example), with the attributes
// gen_ai.operation.name = "execute_tool", gen_ai.tool.name,
// gen_ai.tool.call.id, gen_ai.tool.description and gen_ai.tool.type =
// "function", and toolnexus.call.outcome (a [toolnexus.Outcome]). A call
// that failed has error.type set to its outcome (bad_arguments,
// tool_error, panic, timeout, cancelled, unknown_tool, denied, not_run)
// and the span status Error with the outcome in words ("invalid
// arguments", "tool error": [StatusDescription]), never the result's
// text, which may quote the arguments or come from a remote server; a
// pending call (it waits for approval, and did not run) has no
// error.type. The arguments (gen_ai.tool.call.arguments) and the result
// (gen_ai.tool.call.result) are recorded only with [WithArguments] and
// [WithResults]: they may hold personal data. A result's parts (images,
// files, audio) are recorded by kind, MIME type and size
// (toolnexus.result.part.kinds, .mime_types and .sizes), never their
// bytes, with or without WithResults.
//
// A tool name and a call id come from the model, so a span carries at
// most [MaxNameBytes] of a name (in its name and gen_ai.tool.name) and
// [MaxCallIDBytes] of an id, cut at a UTF-8 boundary and ending in "…".
// The duration histogram records a call of a tool the toolkit does not
// have under the one gen_ai.tool.name [OtherToolName], so that invented
// names cannot grow its series.
//
// The span of a call that reaches the handler is opened by a middleware,
// so the handler's context carries it (trace.SpanFromContext) and the
// handler's own spans are its children; it ends when the handler returns
// (for a call Run abandoned at its timeout, when the tool returns: its
// error.type is then timeout). A call that ends before the middleware (an
// unknown tool, bad arguments, an approval gate, a call Run did not
// start) gets its span from an observer, after the fact, with the call's
// start and duration. Give the toolkit both, with [Tracer.Options].
//
// A model call is traced by [Tracer.StartChat] and [Chat.End]: a span
// "chat {model}" of kind client, with the reply's token usage and finish
// reason, the parent of the execute_tool spans of the turn it asked for
// when its context is given to Run, and the gen_ai.client.token.usage
// and gen_ai.client.operation.duration histograms.
//
//	ctx, chat := tr.StartChat(ctx, p, model)
//	turn, err := p.Parse(reply)
//	chat.End(turn, err)
//	results := tk.Run(ctx, turn.Calls)
package tnotel

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/toolnexus/toolnexus/integrations/otel"

// The names this package records, after the conventions named in the
// package documentation.
const (
	SpanNamePrefix = "execute_tool "
	OperationName  = "execute_tool"
	DurationMetric = "gen_ai.execute_tool.duration"
	AttrOperation  = attribute.Key("gen_ai.operation.name")
	AttrToolName   = attribute.Key("gen_ai.tool.name")
	AttrToolCallID = attribute.Key("gen_ai.tool.call.id")
	AttrToolDesc   = attribute.Key("gen_ai.tool.description")
	AttrToolType   = attribute.Key("gen_ai.tool.type")
	AttrToolArgs   = attribute.Key("gen_ai.tool.call.arguments")
	AttrToolResult = attribute.Key("gen_ai.tool.call.result")
	AttrErrorType  = attribute.Key("error.type")
	AttrOutcome    = attribute.Key("toolnexus.call.outcome")
	// The parts of a result (define.Result.Parts), one element each, in
	// order: their kinds, MIME types and sizes in bytes, never their
	// content; absent for a result without parts.
	AttrPartKinds     = attribute.Key("toolnexus.result.part.kinds")
	AttrPartMIMETypes = attribute.Key("toolnexus.result.part.mime_types")
	AttrPartSizes     = attribute.Key("toolnexus.result.part.sizes")
	toolTypeFunction  = "function"
)

// Bounds of the text a span takes from the model.
const (
	// MaxNameBytes is the longest tool name a span carries: a tool's name
	// is at most 64 bytes (define.ValidateName), so only a name the
	// toolkit does not have is cut.
	MaxNameBytes = 64
	// MaxCallIDBytes is the longest call id a span carries.
	MaxCallIDBytes = 128
)

// OtherToolName is the gen_ai.tool.name under which the duration
// histogram records the calls of tools the toolkit does not have (after
// the "_OTHER" of the HTTP conventions for a method they do not know).
const OtherToolName = "_OTHER"

// StatusDescription is the description of the Error status of a call's
// span with outcome o: the outcome in words, never the result's text.
func StatusDescription(o toolnexus.Outcome) string {
	switch o {
	case toolnexus.OutcomeToolError:
		return "tool error"
	case toolnexus.OutcomeBadArguments:
		return "invalid arguments"
	case toolnexus.OutcomeUnknownTool:
		return "unknown tool"
	case toolnexus.OutcomePanic:
		return "the tool panicked"
	case toolnexus.OutcomeTimeout:
		return "timed out"
	case toolnexus.OutcomeCancelled:
		return "cancelled"
	case toolnexus.OutcomeNotRun:
		return "not run"
	case toolnexus.OutcomeDenied:
		return "denied"
	case toolnexus.OutcomePending:
		return "awaiting approval"
	case toolnexus.OutcomeOK:
		return ""
	}
	return string(o)
}

// cut returns s cut to at most max bytes at a UTF-8 boundary, ending in
// "…" if it was cut, and with invalid UTF-8 replaced.
func cut(s string, max int) string {
	const marker = "…"
	if len(s) <= max {
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	end := max - len(marker)
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return strings.ToValidUTF8(s[:end], "\uFFFD") + marker
}

// Option configures [New].
type Option func(*config)

type config struct {
	tp      trace.TracerProvider
	mp      metric.MeterProvider
	args    bool
	results bool
}

// WithTracerProvider sets the tracer provider; the default is otel's
// global one.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tp = tp }
}

// WithMeterProvider sets the meter provider; the default is otel's
// global one.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.mp = mp }
}

// WithArguments records each call's arguments, as JSON text, in
// gen_ai.tool.call.arguments. Without it nothing of the arguments reaches
// a span.
func WithArguments() Option { return func(c *config) { c.args = true } }

// WithResults records each call's result text in gen_ai.tool.call.result,
// an error's message included (its Output only: a result's parts are
// never recorded but by kind, MIME type and size). Without it nothing of
// a result's text reaches a span: the status says the outcome
// ([StatusDescription]).
func WithResults() Option { return func(c *config) { c.results = true } }

// Tracer traces and measures a toolkit's calls: its [Tracer.Middleware]
// opens the span of a call that reaches the handler, and its
// [Tracer.Observer] makes the span of one that does not. Safe for
// concurrent use; one Tracer may serve several toolkits.
type Tracer struct {
	cfg      config
	tracer   trace.Tracer
	duration metric.Float64Histogram

	// The model calls' histograms (StartChat).
	opDuration metric.Float64Histogram
	tokenUsage metric.Int64Histogram

	// seen holds the errors of results the middleware has traced that
	// the observer could take for ones that never reached it (bad
	// arguments of a SetArgs, a middleware's denial), until the observer
	// sees them.
	seen sync.Map
}

// New returns a Tracer.
func New(opts ...Option) *Tracer {
	t := &Tracer{}
	for _, o := range opts {
		if o != nil {
			o(&t.cfg)
		}
	}
	if t.cfg.tp == nil {
		t.cfg.tp = otel.GetTracerProvider()
	}
	if t.cfg.mp == nil {
		t.cfg.mp = otel.GetMeterProvider()
	}
	t.tracer = t.cfg.tp.Tracer(ScopeName)
	h, err := t.cfg.mp.Meter(ScopeName).Float64Histogram(DurationMetric,
		metric.WithUnit("s"), metric.WithDescription("Duration of tool execution."))
	if err != nil {
		otel.Handle(err)
	}
	t.duration = h
	meter := t.cfg.mp.Meter(ScopeName)
	if t.opDuration, err = meter.Float64Histogram(OperationDurationMetric,
		metric.WithUnit("s"), metric.WithDescription("GenAI operation duration.")); err != nil {
		otel.Handle(err)
	}
	if t.tokenUsage, err = meter.Int64Histogram(TokenUsageMetric,
		metric.WithUnit("{token}"), metric.WithDescription("Number of input and output tokens used.")); err != nil {
		otel.Handle(err)
	}
	return t
}

// Options returns the toolkit options that trace every call: the
// middleware and the observer. Put them before the toolkit's other
// middleware, so that the span covers it.
func (t *Tracer) Options() []toolnexus.ToolkitOption {
	return []toolnexus.ToolkitOption{toolnexus.WithMiddleware(t.Middleware()), toolnexus.WithObserver(t.Observer())}
}

// Middleware returns the middleware that opens a call's span and passes
// it to the rest of the call in its context.
func (t *Tracer) Middleware() toolnexus.Middleware {
	return func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) (res define.Result) {
			start := time.Now()
			name := cut(c.Name, MaxNameBytes)
			ctx, span := t.tracer.Start(ctx, SpanNamePrefix+name,
				trace.WithSpanKind(trace.SpanKindInternal),
				trace.WithTimestamp(start),
				trace.WithAttributes(t.callAttrs(name, c.ID, c.Tool)...))
			if t.cfg.args {
				span.SetAttributes(AttrToolArgs.String(string(c.Args())))
			}
			returned := false
			defer func() {
				if returned {
					return
				}
				// A panic of a middleware inside, which the toolkit makes
				// the call's result, or a runtime.Goexit (v is nil), which
				// goes on.
				v := recover()
				t.end(ctx, span, metricName(name, c.Tool), define.Result{Output: "the call did not return", IsError: true}, toolnexus.OutcomePanic, start, time.Now())
				if v != nil {
					panic(v)
				}
			}()
			res = next(ctx, c)
			returned = true
			outcome := toolnexus.OutcomeOf(res)
			if errors.Is(ctx.Err(), context.DeadlineExceeded) && outcome != toolnexus.OutcomeOK {
				outcome = toolnexus.OutcomeTimeout
			}
			t.end(ctx, span, metricName(name, c.Tool), res, outcome, start, time.Now())
			if key := seenKey(res); key != nil && ctx.Err() == nil {
				t.seen.Store(key, struct{}{})
			}
			return res
		}
	}
}

// seenKey is what the observer would take for a result that never
// reached the middleware: the error of bad arguments or of a denial.
func seenKey(r define.Result) any {
	var ae *define.ArgErrors
	var de *toolnexus.DeniedError
	switch {
	case !r.IsError:
		return nil
	case errors.As(r.Err, &ae):
		return ae
	case errors.As(r.Err, &de):
		return de
	}
	return nil
}

// Observer returns the observer that makes the spans of the calls the
// middleware did not see.
func (t *Tracer) Observer() toolnexus.Observer {
	return func(ctx context.Context, e toolnexus.Event) {
		switch e.Outcome {
		case toolnexus.OutcomeUnknownTool, toolnexus.OutcomePending, toolnexus.OutcomeNotRun:
		case toolnexus.OutcomeBadArguments, toolnexus.OutcomeDenied:
			if key := seenKey(e.Result); key != nil {
				if _, traced := t.seen.LoadAndDelete(key); traced {
					return
				}
			}
		case toolnexus.OutcomeTimeout, toolnexus.OutcomeCancelled:
			if !e.Start.IsZero() {
				return // it started: the middleware's span has it
			}
		default:
			return // it reached the handler: the middleware's span has it
		}
		start := e.Start
		if start.IsZero() {
			start = time.Now()
		}
		end := start.Add(e.Duration)
		name := cut(e.Call.Name, MaxNameBytes)
		ctx, span := t.tracer.Start(ctx, SpanNamePrefix+name,
			trace.WithSpanKind(trace.SpanKindInternal),
			trace.WithTimestamp(start),
			trace.WithAttributes(t.callAttrs(name, e.Call.ID, e.Tool)...))
		if t.cfg.args {
			span.SetAttributes(AttrToolArgs.String(string(eventArgs(e.Call))))
		}
		t.end(ctx, span, metricName(name, e.Tool), e.Result, e.Outcome, start, end)
	}
}

// eventArgs returns a call's arguments as JSON text.
func eventArgs(c adapters.Call) []byte {
	if c.Input == nil {
		return c.Args
	}
	data, err := json.Marshal(c.Input)
	if err != nil {
		return nil
	}
	return data
}

// metricName is the gen_ai.tool.name of a call of tool, named name, in
// the duration histogram: OtherToolName for a tool the toolkit does not
// have.
func metricName(name string, tool define.Tool) string {
	if tool.IsZero() {
		return OtherToolName
	}
	return name
}

// callAttrs are the attributes a span has from its start; name is
// already cut.
func (t *Tracer) callAttrs(name, id string, tool define.Tool) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 5)
	attrs = append(attrs, AttrOperation.String(OperationName), AttrToolName.String(name), AttrToolType.String(toolTypeFunction))
	if id != "" {
		attrs = append(attrs, AttrToolCallID.String(cut(id, MaxCallIDBytes)))
	}
	if d := tool.Description(); d != "" {
		attrs = append(attrs, AttrToolDesc.String(d))
	}
	return attrs
}

// end records the result of a call on its span, ends it at end, and
// records the duration under the tool name metricName.
func (t *Tracer) end(ctx context.Context, span trace.Span, metricName string, r define.Result, outcome toolnexus.Outcome, start, end time.Time) {
	span.SetAttributes(AttrOutcome.String(string(outcome)))
	if t.cfg.results {
		span.SetAttributes(AttrToolResult.String(r.Output))
	}
	if n := len(r.Parts); n > 0 {
		kinds, types, sizes := make([]string, n), make([]string, n), make([]int64, n)
		for i, p := range r.Parts {
			kinds[i], types[i], sizes[i] = string(p.Kind), p.MIMEType, int64(p.Size())
		}
		span.SetAttributes(AttrPartKinds.StringSlice(kinds), AttrPartMIMETypes.StringSlice(types), AttrPartSizes.Int64Slice(sizes))
	}
	metricAttrs := []attribute.KeyValue{AttrOperation.String(OperationName), AttrToolName.String(metricName), AttrToolType.String(toolTypeFunction)}
	if r.IsError && outcome != toolnexus.OutcomePending {
		span.SetAttributes(AttrErrorType.String(string(outcome)))
		span.SetStatus(codes.Error, StatusDescription(outcome))
		metricAttrs = append(metricAttrs, AttrErrorType.String(string(outcome)))
	}
	span.End(trace.WithTimestamp(end))
	if t.duration != nil {
		t.duration.Record(ctx, end.Sub(start).Seconds(), metric.WithAttributes(metricAttrs...))
	}
}
