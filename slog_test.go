package toolnexus_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// slogRecords decodes the JSON lines a slog.JSONHandler wrote.
func slogRecords(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func TestSlogObserver(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var runs atomic.Int32
	deny := func(next toolnexus.Handler) toolnexus.Handler {
		return func(ctx context.Context, c *toolnexus.Call) define.Result {
			if c.ID == "deny" {
				return toolnexus.Denied("not today")
			}
			return next(ctx, c)
		}
	}
	tk := lcToolkit(t, &runs, toolnexus.WithObserver(toolnexus.SlogObserver(logger)),
		toolnexus.WithApproval("echo"), toolnexus.WithToolMiddleware("transfer", deny))
	calls := []adapters.Call{
		{ID: "ok", Name: "transfer", Args: json.RawMessage(`{"to":"ann","amount":5}`)},
		{ID: "bad", Name: "transfer", Args: json.RawMessage(`{"to":"ann"}`)},
		{ID: "fail", Name: "transfer", Args: json.RawMessage(`{"to":"fail","amount":5}`)},
		{ID: "panic", Name: "transfer", Args: json.RawMessage(`{"to":"panic","amount":5}`)},
		{ID: "slow", Name: "transfer", Args: json.RawMessage(`{"to":"slow","amount":5}`)},
		{ID: "deny", Name: "transfer", Args: json.RawMessage(`{"to":"ann","amount":5}`)},
		{ID: "pending", Name: "echo", Args: json.RawMessage(`{"secret":"s3cr3t"}`)},
		{ID: "unknown", Name: "nope", Args: json.RawMessage(`{}`)},
	}
	tk.Run(context.Background(), calls, toolnexus.WithCallTimeout(50*time.Millisecond))
	recs := slogRecords(t, &buf)
	want := []struct{ id, outcome, level string }{
		{"ok", "ok", "INFO"}, {"bad", "bad_arguments", "WARN"}, {"fail", "tool_error", "WARN"},
		{"panic", "panic", "ERROR"}, {"slow", "timeout", "ERROR"}, {"deny", "denied", "INFO"},
		{"pending", "pending", "INFO"}, {"unknown", "unknown_tool", "WARN"},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d:\n%s", len(recs), len(want), buf.String())
	}
	for i, w := range want {
		r := recs[i]
		if r["msg"] != "tool call" || r["call_id"] != w.id || r["outcome"] != w.outcome || r["level"] != w.level || r["tool"] != calls[i].Name {
			t.Errorf("record %d = %v, want %+v", i, r, w)
		}
		if _, ok := r["duration"].(float64); !ok {
			t.Errorf("record %d has no duration: %v", i, r)
		}
		if _, ok := r["error"]; ok != (w.outcome != "ok") {
			t.Errorf("record %d: error %v", i, r["error"])
		}
	}
	if d := recs[4]["duration"].(float64); d < float64(50*time.Millisecond) {
		t.Errorf("the timed-out call logged %v ns", d)
	}
	if strings.Contains(buf.String(), "s3cr3t") || strings.Contains(buf.String(), `"args"`) {
		t.Errorf("arguments logged without SlogArgs:\n%s", buf.String())
	}

	// With SlogArgs, cut at the bound; map arguments as JSON.
	buf.Reset()
	tk = lcToolkit(t, &runs, toolnexus.WithObserver(toolnexus.SlogObserver(logger, toolnexus.SlogArgs(12))))
	tk.ExecuteJSON(context.Background(), "echo", []byte(`{"secret":"s3cr3t-and-more"}`))
	tk.Execute(context.Background(), "echo", map[string]any{"k": "v"})
	recs = slogRecords(t, &buf)
	if a, _ := recs[0]["args"].(string); !strings.HasPrefix(a, `{"secret":"s`) || strings.Contains(a, "more") {
		t.Errorf("cut args = %q", a)
	}
	if a := recs[1]["args"]; a != `{"k":"v"}` {
		t.Errorf("map args = %v", a)
	}
	// A level the handler does not enable costs no record.
	buf.Reset()
	quiet := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelError}))
	tk = lcToolkit(t, &runs, toolnexus.WithObserver(toolnexus.SlogObserver(quiet)))
	tk.ExecuteJSON(context.Background(), "echo", []byte(`{}`))
	if buf.Len() != 0 {
		t.Errorf("logged below the level: %s", buf.String())
	}
}
