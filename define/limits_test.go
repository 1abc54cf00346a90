package define_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

type patternArgs struct {
	Word string `json:"word" pattern:"[a-z]{2,64}x"`
}

func TestMaxArgBytes(t *testing.T) {
	echo := func(ctx context.Context, in map[string]any) (string, error) { return "ok", nil }
	big := strings.Repeat("x", 1000)
	for _, tool := range []define.Tool{
		define.MustDefineTool(echo, define.WithName("typed"), define.WithMaxArgBytes(500)),
		mustNewTool(t, "raw", define.WithMaxArgBytes(500)),
	} {
		ctx := context.Background()
		if r := tool.ExecuteJSON(ctx, []byte(`{"a":"`+big+`"}`)); !errors.Is(r.Err, define.ErrTooLarge) {
			t.Errorf("%s: ExecuteJSON: %+v, want ErrTooLarge", tool.Name(), r)
		}
		if r := tool.Execute(ctx, map[string]any{"a": big}); !errors.Is(r.Err, define.ErrTooLarge) {
			t.Errorf("%s: Execute: %+v, want ErrTooLarge", tool.Name(), r)
		}
		if r := tool.Execute(ctx, map[string]any{"a": "small"}); r.IsError {
			t.Errorf("%s: small: %+v", tool.Name(), r)
		}
	}
}

func mustNewTool(t *testing.T, name string, opts ...define.Option) define.Tool {
	t.Helper()
	tool, err := define.NewTool(name, json.RawMessage(`{"type":"object"}`), func(ctx context.Context, args json.RawMessage) (any, error) {
		return string(args), nil
	}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// TestNewToolDeepAndCyclicMaps: NewTool marshals map arguments; a cyclic
// or very deep map is an error result, not a stack overflow, with the
// verdict the same nesting gets as text.
func TestNewToolDeepAndCyclicMaps(t *testing.T) {
	tool := mustNewTool(t, "raw", define.WithMaxArgBytes(-1))
	cyc := map[string]any{}
	cyc["a"] = cyc
	deep := map[string]any{}
	for i := 0; i < 100_000; i++ {
		deep = map[string]any{"a": deep}
	}
	ctx := context.Background()
	for name, m := range map[string]map[string]any{"cyclic": cyc, "deep": deep} {
		if r := tool.Execute(ctx, m); !errors.Is(r.Err, define.ErrTooDeep) {
			t.Errorf("%s: %+v, want ErrTooDeep", name, r)
		}
	}
	text := strings.Repeat(`{"a":`, 1000) + "1" + strings.Repeat("}", 1000)
	if r := tool.ExecuteJSON(ctx, []byte(text)); !errors.Is(r.Err, define.ErrTooDeep) {
		t.Errorf("deep text: %+v, want ErrTooDeep", r)
	}
	if r := tool.Execute(ctx, map[string]any{"s": "a\xffb"}); !errors.Is(r.Err, define.ErrSyntax) {
		t.Errorf("invalid UTF-8 map: %+v, want ErrSyntax", r)
	}
	if r := tool.ExecuteJSON(ctx, []byte("{\"s\":\"a\xffb\"}")); !errors.Is(r.Err, define.ErrSyntax) {
		t.Errorf("invalid UTF-8 text: %+v, want ErrSyntax", r)
	}
}

func TestMaxPatternBytes(t *testing.T) {
	check := func(ctx context.Context, in patternArgs) (string, error) { return "ok", nil }
	ctx := context.Background()
	def := define.MustDefineTool(check, define.WithName("def"))
	if r := def.Execute(ctx, map[string]any{"word": strings.Repeat("a", 20_000) + "x"}); !errors.Is(r.Err, define.ErrConstraint) {
		t.Errorf("default bound: %+v, want ErrConstraint", r)
	}
	long := strings.Repeat("a", 2000) + "x"
	low := define.MustDefineTool(check, define.WithName("low"), define.WithMaxPatternBytes(1000))
	if r := low.ExecuteJSON(ctx, []byte(`{"word":"`+long+`"}`)); !errors.Is(r.Err, define.ErrConstraint) {
		t.Errorf("low bound: %+v, want ErrConstraint", r)
	}
	raised := define.MustDefineTool(check, define.WithName("raised"), define.WithMaxPatternBytes(3000))
	if r := raised.ExecuteJSON(ctx, []byte(`{"word":"`+long+`"}`)); r.IsError {
		t.Errorf("raised bound: %+v", r)
	}
	if r := def.ExecuteJSON(ctx, []byte(`{"word":"abx"}`)); r.IsError {
		t.Errorf("short string: %+v", r)
	}
}

func TestMaxOutputBytes(t *testing.T) {
	big := func(ctx context.Context, in struct{}) (map[string]string, error) {
		return map[string]string{"x": strings.Repeat("y", 2000)}, nil
	}
	tool := define.MustDefineTool(big, define.WithName("big"), define.WithMaxOutputBytes(1000))
	r := tool.ExecuteJSON(context.Background(), nil)
	if !r.IsError || !errors.Is(r.Err, define.ErrOutputTooLarge) || len(r.Output) > 200 {
		t.Errorf("%.200v, want an ErrOutputTooLarge result", r)
	}
	tool = define.MustDefineTool(big, define.WithName("big"))
	if r := tool.ExecuteJSON(context.Background(), nil); r.IsError {
		t.Errorf("default bound: %.200v", r)
	}
	raw, err := define.NewTool("raw", json.RawMessage(`{"type":"object"}`), func(ctx context.Context, args json.RawMessage) (any, error) {
		return strings.Repeat("z", 5000), nil
	}, define.WithMaxOutputBytes(100))
	if err != nil {
		t.Fatal(err)
	}
	if r := raw.ExecuteJSON(context.Background(), nil); !errors.Is(r.Err, define.ErrOutputTooLarge) {
		t.Errorf("NewTool: %.200v, want ErrOutputTooLarge", r)
	}
}

// TestNewToolDeepSchema: a hand-written schema nested 4,990 levels (an MCP
// proxy passes other servers' schemas on) is refused, not parsed in
// quadratic time.
func TestNewToolDeepSchema(t *testing.T) {
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 4990) + `{"type":"string"}` + strings.Repeat(`}}`, 4990)
	_, err := define.NewTool("deep", json.RawMessage(deep), func(ctx context.Context, args json.RawMessage) (any, error) { return "", nil })
	if err == nil || !strings.Contains(err.Error(), "deep") {
		t.Errorf("err = %v, want a nesting error", err)
	}
}

// TestNewToolSchemaLimits: a hand-written schema over the default number
// of schemas is refused (each would cost a node of over 500 bytes), and
// the options move both bounds.
func TestNewToolSchemaLimits(t *testing.T) {
	handler := func(ctx context.Context, args json.RawMessage) (any, error) { return "", nil }
	props := func(n int) json.RawMessage {
		var b strings.Builder
		b.WriteString(`{"type":"object","properties":{`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"p%d":{}`, i)
		}
		b.WriteString(`}}`)
		return json.RawMessage(b.String())
	}
	for _, tc := range []struct {
		name   string
		schema json.RawMessage
		opts   []define.Option
		tooBig bool
	}{
		{"default nodes, at", props(schema.DefaultMaxParseNodes - 1), nil, false},
		{"default nodes, over", props(schema.DefaultMaxParseNodes), nil, true},
		{"nodes raised", props(schema.DefaultMaxParseNodes), []define.Option{define.WithMaxSchemaNodes(schema.DefaultMaxParseNodes + 1)}, false},
		{"nodes unbounded", props(schema.DefaultMaxParseNodes), []define.Option{define.WithMaxSchemaNodes(-1)}, false},
		{"nodes lowered", props(3), []define.Option{define.WithMaxSchemaNodes(3)}, true},
		{"bytes lowered", props(3), []define.Option{define.WithMaxSchemaBytes(40)}, true},
		{"bytes at", props(3), []define.Option{define.WithMaxSchemaBytes(len(props(3)))}, false},
		{"bytes unbounded", props(3), []define.Option{define.WithMaxSchemaBytes(-1)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := define.NewTool("proxy", tc.schema, handler, tc.opts...)
			if got := errors.Is(err, schema.ErrTooLarge); got != tc.tooBig {
				t.Errorf("err = %.200v, want ErrTooLarge %v", err, tc.tooBig)
			}
			if !tc.tooBig && err != nil {
				t.Errorf("err = %.200v", err)
			}
		})
	}
}
