package toolnexus_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

type pingArgs struct{}

type searchArgs struct {
	Query string            `json:"query"`
	Limit *int              `json:"limit,omitempty" minimum:"1"`
	Tags  map[string]string `json:"tags,omitempty"`
}

func testTools(t *testing.T) []define.Tool {
	t.Helper()
	ping := define.MustDefineTool(func(ctx context.Context, _ pingArgs) (string, error) { return "pong", nil },
		define.WithName("ping"), define.WithDescription("Health check"))
	search := define.MustDefineTool(func(ctx context.Context, in searchArgs) (string, error) { return "results for " + in.Query, nil },
		define.WithName("search"), define.WithDescription("Search the docs"))
	weather := define.MustDefineTool(getWeather, define.WithName("get_weather"))
	return []define.Tool{ping, search, weather}
}

func TestNewToolkit(t *testing.T) {
	tools := testTools(t)
	tk, err := toolnexus.NewToolkit(tools...)
	if err != nil {
		t.Fatal(err)
	}
	if tk.Len() != 3 {
		t.Errorf("Len() = %d, want 3", tk.Len())
	}
	got := tk.Tools()
	for i := range tools {
		if got[i] != tools[i] {
			t.Errorf("Tools()[%d] = %v, want %v", i, got[i], tools[i])
		}
	}
	got[0] = tools[1] // a copy: the toolkit must not change
	if tk.Tools()[0] != tools[0] {
		t.Error("Tools() returned the toolkit's own slice")
	}
	tools[0] = tools[2] // nor through the caller's slice
	if tk.Tools()[0].Name() != "ping" {
		t.Error("NewToolkit kept the caller's slice")
	}
	if tool, ok := tk.Get("search"); !ok || tool.Name() != "search" {
		t.Errorf("Get(search) = %v, %v", tool, ok)
	}
	if _, ok := tk.Get("nope"); ok {
		t.Error("Get(nope) found a tool")
	}
}

func TestNewToolkitErrors(t *testing.T) {
	tools := testTools(t)
	tests := []struct {
		name  string
		tools []define.Tool
	}{
		{"duplicate", []define.Tool{tools[0], tools[1], tools[0]}},
		{"zero tool", []define.Tool{tools[0], {}}},
	}
	for _, tt := range tests {
		if tk, err := toolnexus.NewToolkit(tt.tools...); err == nil {
			t.Errorf("%s: NewToolkit = %v, want an error", tt.name, tk)
		}
	}
	if _, err := toolnexus.NewToolkit(tools[0], define.Tool{}); !errors.Is(err, define.ErrZeroTool) {
		t.Errorf("NewToolkit with a zero tool: err = %v, want define.ErrZeroTool", err)
	}
	if _, err := toolnexus.NewToolkit(); err != nil {
		t.Errorf("an empty toolkit is valid: %v", err)
	}
}

func TestExecute(t *testing.T) {
	tk, err := toolnexus.NewToolkit(testTools(t)...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if r := tk.Execute(ctx, "search", map[string]any{"query": "go"}); r.IsError || r.Output != "results for go" {
		t.Errorf("Execute(search) = %+v", r)
	}
	if r := tk.ExecuteJSON(ctx, "search", []byte(`{"query":"go"}`)); r.IsError || r.Output != "results for go" {
		t.Errorf("ExecuteJSON(search) = %+v", r)
	}
	if r := tk.ExecuteJSON(ctx, "search", []byte(`{}`)); !r.IsError {
		t.Errorf("ExecuteJSON(search, {}) = %+v, want a missing-argument error", r)
	}
	for _, r := range []define.Result{tk.Execute(ctx, "nope", nil), tk.ExecuteJSON(ctx, "nope", []byte(`{}`))} {
		if !r.IsError || !errors.Is(r.Err, toolnexus.ErrUnknownTool) {
			t.Errorf("unknown tool: %+v, want an error wrapping ErrUnknownTool", r)
		}
		want := `unknown tool "nope" (available tools: ping, search, get_weather)`
		if r.Output != want {
			t.Errorf("unknown tool output = %q, want %q", r.Output, want)
		}
	}
}

// TestAdapterMethods: each method equals the free function over Tools().
func TestAdapterMethods(t *testing.T) {
	tools := testTools(t)
	tk, err := toolnexus.NewToolkit(tools...)
	if err != nil {
		t.Fatal(err)
	}
	type pair struct {
		name         string
		method, free func() (any, error)
	}
	pairs := []pair{
		{"ToOpenAI", func() (any, error) { return tk.ToOpenAI() }, func() (any, error) { return adapters.ToOpenAI(tools) }},
		{"ToOpenAI strict", func() (any, error) { return tk.ToOpenAI(adapters.Strict(true)) }, func() (any, error) { return adapters.ToOpenAI(tools, adapters.Strict(true)) }},
		{"ToOpenAIResponses", func() (any, error) { return tk.ToOpenAIResponses() }, func() (any, error) { return adapters.ToOpenAIResponses(tools) }},
		{"ToAnthropic", func() (any, error) { return tk.ToAnthropic(adapters.Strict(true)) }, func() (any, error) { return adapters.ToAnthropic(tools, adapters.Strict(true)) }},
		{"ToGemini", func() (any, error) { return tk.ToGemini(adapters.GeminiJSONSchema()) }, func() (any, error) { return adapters.ToGemini(tools, adapters.GeminiJSONSchema()) }},
		{"ToGemini parameters", func() (any, error) { return tk.ToGemini() }, func() (any, error) { return adapters.ToGemini(tools) }},
		{"ToMCP", func() (any, error) { return tk.ToMCP() }, func() (any, error) { return adapters.ToMCP(tools) }},
		{"ToBedrock", func() (any, error) { return tk.ToBedrock() }, func() (any, error) { return adapters.ToBedrock(tools) }},
	}
	for _, p := range pairs {
		m, merr := p.method()
		f, ferr := p.free()
		if (merr == nil) != (ferr == nil) || merr != nil && merr.Error() != ferr.Error() {
			t.Errorf("%s: method error %v, free function error %v", p.name, merr, ferr)
			continue
		}
		if merr != nil {
			continue
		}
		mb, _ := json.Marshal(m)
		fb, _ := json.Marshal(f)
		if !bytes.Equal(mb, fb) {
			t.Errorf("%s: method and free function differ:\n%s\n%s", p.name, mb, fb)
		}
	}
	// The map field cannot be expressed in OpenAI strict mode: same error both ways.
	if _, err := tk.ToOpenAI(adapters.Strict(true)); !errors.Is(err, adapters.ErrUnsupported) {
		t.Errorf("ToOpenAI(Strict(true)) = %v, want ErrUnsupported", err)
	}
}

// TestUnknownToolNameCut: a huge unknown name is not echoed whole.
func TestUnknownToolNameCut(t *testing.T) {
	tk, err := toolnexus.NewToolkit(testTools(t)...)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("é", 5<<20) // 10 MB
	r := tk.ExecuteJSON(context.Background(), name, []byte(`{}`))
	if !errors.Is(r.Err, toolnexus.ErrUnknownTool) {
		t.Fatalf("err = %v", r.Err)
	}
	want := `unknown tool "` + strings.Repeat("é", toolnexus.MaxEchoedName/2) + `"... (10485760 bytes) (available tools: ping, search, get_weather)`
	if diff := cmp.Diff(want, r.Output); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}
