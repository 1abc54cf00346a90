package toolnexus

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/echo"
)

// SlogOption configures [SlogObserver]. The set is sealed: make options
// with [SlogArgs].
type SlogOption interface {
	applySlog(*slogConfig)
}

type slogConfig struct {
	args int // bytes of arguments to log; 0: none
}

type slogOption func(*slogConfig)

func (o slogOption) applySlog(c *slogConfig) { o(c) }

// SlogArgs makes [SlogObserver] log each call's arguments, as JSON text
// cut at max bytes (at a UTF-8 boundary, its length given); max < 1 means
// 1024. Arguments may hold personal data: they are logged only when asked.
func SlogArgs(max int) SlogOption {
	if max < 1 {
		max = 1024
	}
	return slogOption(func(c *slogConfig) { c.args = max })
}

// SlogObserver returns an [Observer] that logs one record per call to
// logger (nil: slog.Default()), with the message "tool call" and the
// attributes tool, call_id, outcome ([Outcome]) and duration, and error,
// the result's Output, when the call failed; parts, for a result with
// parts, their kinds, MIME types and sizes as define.Summary gives them
// (never their bytes); args with [SlogArgs]. A call
// that went well, is pending or was denied logs at Info; a tool's error,
// bad arguments and an unknown tool at Warn; a panic, a timeout, a
// cancellation and a call not run at Error.
//
//	tk, err := toolnexus.NewToolkitWith(tools, toolnexus.WithObserver(toolnexus.SlogObserver(logger)))
func SlogObserver(logger *slog.Logger, opts ...SlogOption) Observer {
	var cfg slogConfig
	for _, o := range opts {
		if o != nil {
			o.applySlog(&cfg)
		}
	}
	return func(ctx context.Context, e Event) {
		l := logger
		if l == nil {
			l = slog.Default()
		}
		level := slogLevel(e.Outcome)
		if !l.Enabled(ctx, level) {
			return
		}
		attrs := make([]slog.Attr, 0, 7)
		attrs = append(attrs,
			slog.String("tool", e.Call.Name),
			slog.String("call_id", e.Call.ID),
			slog.String("outcome", string(e.Outcome)),
			slog.Duration("duration", e.Duration))
		if e.Result.IsError {
			attrs = append(attrs, slog.String("error", e.Result.Output))
		}
		if len(e.Result.Parts) > 0 {
			attrs = append(attrs, slog.String("parts", define.Summary(e.Result.Parts)))
		}
		if cfg.args > 0 {
			attrs = append(attrs, slog.String("args", echo.Cut(eventArgs(e), cfg.args)))
		}
		l.LogAttrs(ctx, level, "tool call", attrs...)
	}
}

// eventArgs returns the call's arguments as JSON text.
func eventArgs(e Event) []byte {
	if e.Call.Input == nil {
		return e.Call.Args
	}
	data, err := json.Marshal(e.Call.Input)
	if err != nil {
		return []byte("(arguments not JSON: " + err.Error() + ")")
	}
	return data
}

func slogLevel(o Outcome) slog.Level {
	switch o {
	case OutcomeOK, OutcomePending, OutcomeDenied:
		return slog.LevelInfo
	case OutcomeToolError, OutcomeBadArguments, OutcomeUnknownTool:
		return slog.LevelWarn
	}
	return slog.LevelError
}
