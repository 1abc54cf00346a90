package toolnexus_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
		{"ToOllama", func() (any, error) { return tk.ToOllama(adapters.MaxInlineDepth(2)) }, func() (any, error) { return adapters.ToOllama(tools, adapters.MaxInlineDepth(2)) }},
		{"ToMistral", func() (any, error) { return tk.ToMistral(adapters.MaxInlineDepth(2)) }, func() (any, error) { return adapters.ToMistral(tools, adapters.MaxInlineDepth(2)) }},
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

// manyTools returns n trivial tools named tool_0000, tool_0001, ... plus
// the named extras.
func manyTools(t testing.TB, n int, extra ...string) []define.Tool {
	t.Helper()
	names := make([]string, 0, n+len(extra))
	for i := range n {
		names = append(names, fmt.Sprintf("tool_%04d", i))
	}
	names = append(names, extra...)
	tools := make([]define.Tool, len(names))
	for i, name := range names {
		tools[i] = define.MustDefineTool(func(ctx context.Context, _ pingArgs) (string, error) { return name, nil }, define.WithName(name))
	}
	return tools
}

// TestUnknownToolClosest: in a toolkit larger than WithClosestNames, the
// unknown-tool error names the closest few, best first, and counts the
// rest; the error is an *UnknownToolError wrapping ErrUnknownTool.
func TestUnknownToolClosest(t *testing.T) {
	tools := manyTools(t, 1000, "get_weather", "get_forecast", "search_docs", "x")
	ctx := context.Background()
	tests := []struct {
		name    string
		opts    []toolnexus.ToolkitOption
		call    string
		closest []string
	}{
		{"typo", nil, "get_wether", []string{"get_weather", "get_forecast", "tool_0000", "tool_0001", "tool_0002"}},
		{"case and dash", nil, "Get-Weather", []string{"get_weather", "get_forecast", "search_docs", "tool_0000", "tool_0001"}},
		{"swapped words", []toolnexus.ToolkitOption{toolnexus.WithClosestNames(2)}, "docs_search", []string{"search_docs", "get_weather"}},
		{"digits", []toolnexus.ToolkitOption{toolnexus.WithClosestNames(1)}, "tool_427", []string{"tool_0427"}},
		{"one letter", []toolnexus.ToolkitOption{toolnexus.WithClosestNames(1)}, "X", []string{"x"}},
		{"nothing close", []toolnexus.ToolkitOption{toolnexus.WithClosestNames(2)}, "ÿÿÿ", []string{"tool_0000", "tool_0001"}},
		{"default on zero", []toolnexus.ToolkitOption{toolnexus.WithClosestNames(0), nil}, "get_wether", []string{"get_weather", "get_forecast", "tool_0000", "tool_0001", "tool_0002"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tk, err := toolnexus.NewToolkitWith(tools, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			r := tk.ExecuteJSON(ctx, tt.call, []byte(`{}`))
			if !r.IsError || !errors.Is(r.Err, toolnexus.ErrUnknownTool) {
				t.Fatalf("result = %+v, want an error wrapping ErrUnknownTool", r)
			}
			var ute *toolnexus.UnknownToolError
			if !errors.As(r.Err, &ute) {
				t.Fatalf("err = %T, want *UnknownToolError", r.Err)
			}
			want := &toolnexus.UnknownToolError{Name: tt.call, NameLen: len(tt.call), Closest: tt.closest, More: len(tools) - len(tt.closest)}
			if diff := cmp.Diff(want, ute); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			wantOut := fmt.Sprintf("unknown tool %q (closest tools: %s; %d more)", tt.call, strings.Join(tt.closest, ", "), want.More)
			if diff := cmp.Diff(wantOut, r.Output); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnknownToolSmallToolkit: a toolkit of at most WithClosestNames tools
// lists them all, in order, and an empty one says so.
func TestUnknownToolSmallToolkit(t *testing.T) {
	ctx := context.Background()
	tk, err := toolnexus.NewToolkitWith(manyTools(t, 3), toolnexus.WithClosestNames(3))
	if err != nil {
		t.Fatal(err)
	}
	want := `unknown tool "zzz" (available tools: tool_0000, tool_0001, tool_0002)`
	if diff := cmp.Diff(want, tk.Execute(ctx, "zzz", nil).Output); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	empty, err := toolnexus.NewToolkit()
	if err != nil {
		t.Fatal(err)
	}
	r := empty.Execute(ctx, "zzz", nil)
	if diff := cmp.Diff(`unknown tool "zzz" (available tools: none)`, r.Output); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	if !errors.Is(r.Err, toolnexus.ErrUnknownTool) {
		t.Errorf("err = %v, want ErrUnknownTool", r.Err)
	}
}

// TestWithMaxEchoedName: the echoed part of an unknown name follows the
// setting, cut at a UTF-8 boundary, and the closest names are found from
// that part alone.
func TestWithMaxEchoedName(t *testing.T) {
	tools := manyTools(t, 10, "get_weather")
	name := "get_wéather" + strings.Repeat("x", 1<<20)
	for _, tt := range []struct {
		n    int
		echo string
	}{
		{5, "get_w"},
		{6, "get_w"}, // byte 6 is inside "é"
		{7, "get_wé"},
		{0, ("get_wéather" + strings.Repeat("x", 80))[:toolnexus.MaxEchoedName]},
		{-1, ("get_wéather" + strings.Repeat("x", 80))[:toolnexus.MaxEchoedName]},
	} {
		tk, err := toolnexus.NewToolkitWith(tools, toolnexus.WithMaxEchoedName(tt.n), toolnexus.WithClosestNames(1))
		if err != nil {
			t.Fatal(err)
		}
		r := tk.Execute(context.Background(), name, nil)
		want := fmt.Sprintf("unknown tool %q... (%d bytes) (closest tools: get_weather; 10 more)", tt.echo, len(name))
		if diff := cmp.Diff(want, r.Output); diff != "" {
			t.Errorf("WithMaxEchoedName(%d): output (-want +got):\n%s", tt.n, diff)
		}
	}
}

// TestUnknownToolCostBounded: the unknown-tool error of a toolkit of 1,000
// tools allocates as often as that of 10 tools, and its text stays short
// whatever the toolkit or the name called.
func TestUnknownToolCostBounded(t *testing.T) {
	ctx := context.Background()
	huge := strings.Repeat("a", 10<<20)
	var allocs, sizes []float64
	for _, n := range []int{10, 1000} {
		tk, err := toolnexus.NewToolkit(manyTools(t, n)...)
		if err != nil {
			t.Fatal(err)
		}
		allocs = append(allocs, testing.AllocsPerRun(20, func() { tk.ExecuteJSON(ctx, "no_such_tool", nil) }))
		sizes = append(sizes, float64(len(tk.ExecuteJSON(ctx, huge, nil).Output)))
	}
	if allocs[0] != allocs[1] {
		t.Errorf("allocations per unknown-tool error: %v at 10 tools, %v at 1,000, want equal", allocs[0], allocs[1])
	}
	if sizes[0] > 300 || sizes[1] > 300 {
		t.Errorf("unknown-tool error of a 10 MB name: %v bytes at 10 tools, %v at 1,000, want at most 300", sizes[0], sizes[1])
	}
}

// A call of a name that is no tool gets an error result naming the closest
// tools; in a toolkit larger than WithClosestNames, the others are counted.
func ExampleNewToolkitWith() {
	tool := func(name string) define.Tool {
		return define.MustDefineTool(func(ctx context.Context, _ pingArgs) (string, error) { return "ok", nil }, define.WithName(name))
	}
	tools := []define.Tool{tool("get_weather"), tool("get_forecast"), tool("search_docs"), tool("send_email")}
	tk, err := toolnexus.NewToolkitWith(tools, toolnexus.WithClosestNames(2), toolnexus.WithMaxEchoedName(20))
	if err != nil {
		panic(err)
	}
	res := tk.ExecuteJSON(context.Background(), "GetWeather", []byte(`{}`))
	fmt.Println(res.Output)
	res = tk.ExecuteJSON(context.Background(), strings.Repeat("x", 1000), []byte(`{}`))
	fmt.Println(res.Output)
	// Output:
	// unknown tool "GetWeather" (closest tools: get_weather, get_forecast; 2 more)
	// unknown tool "xxxxxxxxxxxxxxxxxxxx"... (1000 bytes) (closest tools: get_weather, get_forecast; 2 more)
}
