package tnotel

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
)

// The names of a model call's span and metrics, after the GenAI semantic
// conventions' inference span ("{gen_ai.operation.name}
// {gen_ai.request.model}", kind client) and client metrics.
const (
	ChatOperationName       = "chat"
	TokenUsageMetric        = "gen_ai.client.token.usage"
	OperationDurationMetric = "gen_ai.client.operation.duration"
	AttrProviderName        = attribute.Key("gen_ai.provider.name")
	AttrRequestModel        = attribute.Key("gen_ai.request.model")
	AttrInputTokens         = attribute.Key("gen_ai.usage.input_tokens")
	AttrOutputTokens        = attribute.Key("gen_ai.usage.output_tokens")
	AttrFinishReasons       = attribute.Key("gen_ai.response.finish_reasons")
	AttrTokenType           = attribute.Key("gen_ai.token.type")
	// The cache and reasoning counts of adapters.Usage, recorded when the
	// reply gave them (the conventions have no attribute of their own
	// for them yet).
	AttrCacheReadTokens  = attribute.Key("toolnexus.usage.cache_read_tokens")
	AttrCacheWriteTokens = attribute.Key("toolnexus.usage.cache_write_tokens")
	AttrReasoningTokens  = attribute.Key("toolnexus.usage.reasoning_tokens")
	// MaxModelBytes is the longest model name a span and the metrics
	// carry.
	MaxModelBytes = 256
)

// providerNames are the conventions' well-known gen_ai.provider.name
// values of the providers whose adapters name differs; any other
// provider is recorded under its adapters name (Provider.Name).
var providerNames = map[string]string{
	"openai-responses": "openai",
	"gemini":           "gcp.gemini",
	"bedrock":          "aws.bedrock",
	"mistral":          "mistral_ai",
	"xai":              "x_ai",
}

// ProviderName is the gen_ai.provider.name of p: the conventions'
// well-known value where there is one ("openai", "anthropic",
// "gcp.gemini", "aws.bedrock", "mistral_ai", "groq", "deepseek",
// "x_ai"), else p.Name(); "" for a nil p.
func ProviderName(p adapters.Provider) string {
	if p == nil {
		return ""
	}
	if n, ok := providerNames[p.Name()]; ok {
		return n
	}
	return p.Name()
}

// Chat is the span of one model call, opened by [Tracer.StartChat] and
// ended by [Chat.End].
type Chat struct {
	t        *Tracer
	ctx      context.Context
	span     trace.Span
	start    time.Time
	provider string
	model    string
}

// StartChat opens the span of one model call to model through p, named
// "chat {model}", of kind client, a child of ctx's span, and returns a
// context that carries it: give that context to the Toolkit's Run (or
// RunStream) of the turn the reply asks for, and the turn's execute_tool
// spans are its children. Call [Chat.End] when the reply has been read.
func (t *Tracer) StartChat(ctx context.Context, p adapters.Provider, model string) (context.Context, *Chat) {
	model = cut(model, MaxModelBytes)
	c := &Chat{t: t, start: time.Now(), provider: ProviderName(p), model: model}
	attrs := []attribute.KeyValue{AttrOperation.String(ChatOperationName), AttrRequestModel.String(model)}
	if c.provider != "" {
		attrs = append(attrs, AttrProviderName.String(c.provider))
	}
	name := ChatOperationName
	if model != "" {
		name += " " + model
	}
	c.ctx, c.span = t.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithTimestamp(c.start), trace.WithAttributes(attrs...))
	return c.ctx, c
}

// End records the reply read from the model call (turn, or err when
// the call or its reading failed) on the span and ends it: the finish
// reason (turn.Stop), the token usage the reply gave (input and output,
// and the cache and reasoning counts), and the gen_ai.client.token.usage
// and gen_ai.client.operation.duration histograms. A failed call has
// error.type set to a class of the error ("cancelled", "timeout",
// "incomplete", "reply_limit", "provider_error", "refused", else
// "_OTHER") and the status Error with that class, never the error's
// text, which may quote the reply. End is safe to
// call once; later calls do nothing.
func (c *Chat) End(turn adapters.Turn, err error) {
	if c == nil || c.span == nil {
		return
	}
	end := time.Now()
	span := c.span
	c.span = nil
	metricAttrs := []attribute.KeyValue{AttrOperation.String(ChatOperationName), AttrRequestModel.String(c.model)}
	if c.provider != "" {
		metricAttrs = append(metricAttrs, AttrProviderName.String(c.provider))
	}
	if turn.Stop != "" {
		span.SetAttributes(AttrFinishReasons.StringSlice([]string{cut(turn.Stop, MaxNameBytes)}))
	}
	u := turn.Usage
	for _, k := range []struct {
		bit adapters.UsageCounts
		key attribute.Key
		n   int64
	}{
		{adapters.UsageInput, AttrInputTokens, u.Input},
		{adapters.UsageOutput, AttrOutputTokens, u.Output},
		{adapters.UsageCacheRead, AttrCacheReadTokens, u.CacheRead},
		{adapters.UsageCacheWrite, AttrCacheWriteTokens, u.CacheWrite},
		{adapters.UsageReasoning, AttrReasoningTokens, u.Reasoning},
	} {
		if u.Known&k.bit != 0 {
			span.SetAttributes(k.key.Int64(k.n))
		}
	}
	if err != nil {
		class := chatErrorClass(err)
		span.SetAttributes(AttrErrorType.String(class))
		span.SetStatus(codes.Error, class)
		metricAttrs = append(metricAttrs, AttrErrorType.String(class))
	}
	span.End(trace.WithTimestamp(end))
	t := c.t
	if t.opDuration != nil {
		t.opDuration.Record(c.ctx, end.Sub(c.start).Seconds(), metric.WithAttributes(metricAttrs...))
	}
	if t.tokenUsage != nil && err == nil {
		if u.Known&adapters.UsageInput != 0 {
			t.tokenUsage.Record(c.ctx, u.Input, metric.WithAttributes(append(metricAttrs, AttrTokenType.String("input"))...))
		}
		if u.Known&adapters.UsageOutput != 0 {
			t.tokenUsage.Record(c.ctx, u.Output, metric.WithAttributes(append(metricAttrs, AttrTokenType.String("output"))...))
		}
	}
}

// chatErrorClass is the error.type of a failed model call: a low
// cardinality class, never the error's text.
func chatErrorClass(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, adapters.ErrIncomplete):
		return "incomplete"
	case errors.Is(err, adapters.ErrReplyLimit):
		return "reply_limit"
	case errors.Is(err, adapters.ErrProviderError):
		return "provider_error"
	case errors.Is(err, adapters.ErrRefused):
		return "refused"
	}
	return "_OTHER"
}

// ModelHook returns the hook that gives each model call of a
// toolnexus.Agent its chat span (StartChat, then Chat.End with the reply
// or the error): pass it with toolnexus.WithModelHook, and give the
// Agent's toolkit t's Options, so that each step's execute_tool spans are
// children of its chat span.
func (t *Tracer) ModelHook() toolnexus.ModelHook {
	return func(ctx context.Context, c toolnexus.ModelCall) (context.Context, func(toolnexus.ModelEvent)) {
		ctx, chat := t.StartChat(ctx, c.Provider, c.Model)
		return ctx, func(e toolnexus.ModelEvent) { chat.End(e.Turn, e.Err) }
	}
}
