package tnmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
	"github.com/toolnexus/toolnexus/internal/mediatest"
)

var quiet = slog.New(slog.DiscardHandler)

// connect serves server over in-memory transports and returns a client
// session to it, made with opts (nil: the tnmcp.ToolListChanged handler).
func connect(t *testing.T, server *mcp.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	if opts == nil {
		opts = &mcp.ClientOptions{ToolListChangedHandler: tnmcp.ToolListChanged, Logger: quiet}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v1.0.0"}, opts)
	cs, err := client.Connect(ctx, clientEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

const objectSchema = `{"type":"object","properties":{"q":{"type":"string","description":"the query"}}}`

// argsEcho answers with the arguments it got, as text, and the tool's name.
func argsEcho(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return textResult(req.Params.Name + " " + string(req.Params.Arguments)), nil
}

// awkwardServer lists tools whose names and descriptions providers refuse.
func awkwardServer(longDesc string) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "awkward", Version: "v1"}, &mcp.ServerOptions{Logger: quiet})
	for _, name := range []string{
		"get weather",       // space
		"files.read",        // dot
		"überprüfen",        // non-ASCII
		"9lives",            // leading digit
		"a b", "a.b", "a_b", // collide once mapped; a_b is valid
		strings.Repeat("x", 100),      // too long
		strings.Repeat("x", 99) + "y", // too long, same first 64 bytes
		"plain",
	} {
		server.AddTool(&mcp.Tool{Name: name, Description: "tool " + name, InputSchema: json.RawMessage(objectSchema)}, argsEcho)
	}
	server.AddTool(&mcp.Tool{Name: "long", Description: longDesc, InputSchema: json.RawMessage(objectSchema)}, argsEcho)
	// No parameters, as zod writes it: strict modes refuse it unless closed.
	server.AddTool(&mcp.Tool{Name: "noargs", InputSchema: json.RawMessage(`{"type":"object","properties":{},"$schema":"http://json-schema.org/draft-07/schema#"}`)}, argsEcho)
	// Property keys Anthropic and Bedrock refuse.
	server.AddTool(&mcp.Tool{Name: "person", InputSchema: json.RawMessage(`{"type":"object","properties":{` +
		`"first name":{"type":"string"},"größe":{"type":"number"},"a.b":{"type":"string"},"first_name":{"type":"string"}},` +
		`"required":["first name","a.b"]}`)}, argsEcho)
	return server
}

func TestRemoteNames(t *testing.T) {
	long := strings.Repeat("Lorem ipsum dolor sit amet. ", 80) // 2,240 characters
	cs := connect(t, awkwardServer(long), nil)
	ctx := context.Background()
	remote, err := tnmcp.NewRemote(ctx, cs)
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	if remote.Server() != "awkward" {
		t.Errorf("Server() = %q, want the server's own name", remote.Server())
	}
	names := remote.Names()
	if len(names) != 13 {
		t.Fatalf("got %d names, want 13: %v", len(names), names)
	}
	seen := map[string]string{}
	for _, n := range names {
		if err := define.ValidateName(n.Tool); err != nil {
			t.Errorf("%q -> %q: %v", n.Remote, n.Tool, err)
		}
		if prev, dup := seen[n.Tool]; dup {
			t.Errorf("%q and %q both map to %q", prev, n.Remote, n.Tool)
		}
		seen[n.Tool] = n.Remote
		if got, _ := remote.ToolName(n.Remote); got != n.Tool {
			t.Errorf("ToolName(%q) = %q, want %q", n.Remote, got, n.Tool)
		}
		if got, _ := remote.RemoteName(n.Tool); got != n.Remote {
			t.Errorf("RemoteName(%q) = %q, want %q", n.Tool, got, n.Remote)
		}
	}
	for remoteName, want := range map[string]string{
		"get weather": "get_weather", "files.read": "files_read", "überprüfen": "_berpr_fen",
		"9lives": "_9lives", "a_b": "a_b", "plain": "plain",
	} {
		if got, _ := remote.ToolName(remoteName); got != want {
			t.Errorf("ToolName(%q) = %q, want %q", remoteName, got, want)
		}
	}
	// "a b" sorts before "a.b": the first mapped one tries a_b (taken by
	// the valid name), so both get a hash suffix.
	for _, r := range []string{"a b", "a.b", strings.Repeat("x", 100)} {
		got, _ := remote.ToolName(r)
		if !strings.HasPrefix(got, r[:1]) || len(got) > 64 || got[len(got)-7] != '_' {
			t.Errorf("ToolName(%q) = %q, want a prefix, \"_\" and six hex digits", r, got)
		}
	}

	// Local and remote tools in one toolkit, rendered for every provider.
	local := define.MustDefineTool(func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		return "sunny in " + in.City, nil
	}, define.WithName("local_weather"))
	tk, err := toolnexus.NewToolkit(append([]define.Tool{local}, remote.Tools()...)...)
	if err != nil {
		t.Fatal(err)
	}
	renderAll(t, tk)

	// The description was shortened, with the marker, to OpenAI's limit.
	tool, _ := tk.Get("long")
	if d := tool.Description(); utf8.RuneCountInString(d) > tnmcp.MaxDescription || !strings.HasSuffix(d, tnmcp.DescriptionMarker) || !strings.HasPrefix(long, strings.TrimSuffix(d, tnmcp.DescriptionMarker)) {
		t.Errorf("description of %d characters: %q", utf8.RuneCountInString(d), d)
	}

	// A tool without parameters is closed, as a Go struct{} input is; a
	// tool with parameters keeps its schema.
	if tool, _ := tk.Get("noargs"); !strings.Contains(string(tool.InputSchema()), `"additionalProperties":false`) {
		t.Errorf("noargs: %s, want it closed", tool.InputSchema())
	}
	if tool, _ := tk.Get("plain"); strings.Contains(string(tool.InputSchema()), "additionalProperties") {
		t.Errorf("plain: %s, want it unchanged", tool.InputSchema())
	}

	// Property keys are mapped like names, required with them; the call
	// sends the remote keys.
	person, _ := tk.Get("person")
	var ps struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(person.InputSchema(), &ps); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range ps.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// "first name" sanitizes to first_name, which the server also has.
	if len(keys) != 4 || keys[0] != "a.b" || keys[1] != "first_name" || !strings.HasPrefix(keys[2], "first_name_") || keys[3] != "gr_e" ||
		fmt.Sprint(ps.Required) != fmt.Sprintf("[%s a.b]", keys[2]) {
		t.Errorf("person: keys %v, required %v", keys, ps.Required)
	}
	r := tk.ExecuteJSON(ctx, "person", []byte(`{"`+keys[2]+`":"Ada","gr_e":1.8,"a.b":"x","first_name":"y","n":12345678901234567890}`))
	if want := `person {"a.b":"x","first name":"Ada","first_name":"y","größe":1.8,"n":12345678901234567890}`; r.IsError || r.Output != want {
		t.Errorf("person: got %+v, want %s", r, want)
	}

	// Run sends each call to the server under its remote name, with the
	// arguments as the model sent them (a large integer unrounded).
	calls := []adapters.Call{
		{ID: "1", Name: "get_weather", Args: json.RawMessage(`{"q":"Oslo","n":12345678901234567890}`)},
		{ID: "2", Name: "local_weather", Args: json.RawMessage(`{"city":"Oslo"}`)},
		{ID: "3", Name: "_berpr_fen", Args: json.RawMessage(`{}`)},
	}
	results := tk.Run(ctx, calls)
	for i, want := range []string{`get weather {"q":"Oslo","n":12345678901234567890}`, "sunny in Oslo", "überprüfen {}"} {
		if results[i].IsError || results[i].Output != want {
			t.Errorf("call %s: got %+v, want %q", calls[i].Name, results[i], want)
		}
	}
}

// renderAll renders tk for every provider, OpenAI strict included.
func renderAll(t *testing.T, tk *toolnexus.Toolkit) {
	t.Helper()
	for name, render := range map[string]func() error{
		"gemini":             func() error { _, err := tk.ToGemini(); return err },
		"openai":             func() error { _, err := tk.ToOpenAI(); return err },
		"openai strict":      func() error { _, err := tk.ToOpenAI(adapters.Strict(true)); return err },
		"openai responses":   func() error { _, err := tk.ToOpenAIResponses(); return err },
		"anthropic":          func() error { _, err := tk.ToAnthropic(); return err },
		"anthropic strict":   func() error { _, err := tk.ToAnthropic(adapters.StrictWherePossible()); return err },
		"bedrock":            func() error { _, err := tk.ToBedrock(); return err },
		"mcp":                func() error { _, err := tk.ToMCP(); return err },
		"ollama":             func() error { _, err := adapters.ToOllama(tk.Tools()); return err },
		"openai strict-wish": func() error { _, err := tk.ToOpenAI(adapters.StrictWherePossible()); return err },
	} {
		if err := render(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestRemoteLongDescriptionOptions(t *testing.T) {
	long := strings.Repeat("é", 1500)
	ctx := context.Background()
	cs := connect(t, awkwardServer(long), nil)

	_, err := tnmcp.RemoteTools(ctx, cs, tnmcp.RefuseLongDescriptions())
	if !errors.Is(err, tnmcp.ErrLongDescription) || !strings.Contains(err.Error(), `"long"`) || !strings.Contains(err.Error(), "1500") {
		t.Errorf("RefuseLongDescriptions: got %v, want ErrLongDescription naming the tool and its length", err)
	}
	tools, err := tnmcp.RemoteTools(ctx, cs, tnmcp.WithMaxDescription(10))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools {
		if tool.Name() == "long" && tool.Description() != strings.Repeat("é", 9)+"…" {
			t.Errorf("WithMaxDescription(10): %q", tool.Description())
		}
		if tool.Name() == "plain" && tool.Description() != "tool plain" {
			t.Errorf("a short description changed: %q", tool.Description())
		}
	}
	tools, err = tnmcp.RemoteTools(ctx, cs, tnmcp.WithMaxDescription(-1), tnmcp.WithPrefix("aw_"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools {
		if !strings.HasPrefix(tool.Name(), "aw_") {
			t.Errorf("WithPrefix: %q", tool.Name())
		}
		if tool.Name() == "aw_long" && tool.Description() != long {
			t.Errorf("WithMaxDescription(-1) shortened the description to %d characters", utf8.RuneCountInString(tool.Description()))
		}
	}
}

func TestMapNamesOrderIndependent(t *testing.T) {
	names := []string{"a b", "a.b", "a_b", "a:b", "x y", "ok", strings.Repeat("é", 40), strings.Repeat("é", 41)}
	want := map[string]string{}
	for i, n := range tnmcp.MapNames("", names) {
		want[names[i]] = n
	}
	// Reversed, the same mapping.
	rev := make([]string, len(names))
	for i, n := range names {
		rev[len(names)-1-i] = n
	}
	for i, n := range tnmcp.MapNames("", rev) {
		if want[rev[i]] != n {
			t.Errorf("%q: %q in one order, %q in the other", rev[i], want[rev[i]], n)
		}
	}
	if want["ok"] != "ok" || want["a_b"] != "a_b" {
		t.Errorf("valid names changed: %v", want)
	}
}

// resultServer has tools answering with each kind of MCP result.
func resultServer(started chan<- struct{}, cancelled chan<- error) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "results", Version: "v1"}, &mcp.ServerOptions{Logger: quiet})
	add := func(name string, h mcp.ToolHandler) {
		server.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}, h)
	}
	add("structured", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"sum":3}`}}, StructuredContent: map[string]any{"sum": 3}}, nil
	})
	add("structured_only", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: map[string]any{"sum": 3}}, nil
	})
	add("fails", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "city not found: Atlantis"}}}, nil
	})
	add("media", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		size := int64(2048)
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "here:"},
			&mcp.ImageContent{Data: mediatest.PNG(), MIMEType: "image/png"},
			&mcp.AudioContent{Data: mediatest.WAV(), MIMEType: "audio/wav"},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "remember"}},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///a.bin", MIMEType: "application/octet-stream", Blob: make([]byte, 7)}},
			&mcp.ResourceLink{URI: "https://example.com/r", Name: "r", MIMEType: "text/html", Size: &size},
		}}, nil
	})
	add("bad_image", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: make([]byte, 1000), MIMEType: "image/png"}}}, nil
	})
	add("blocks", func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		started <- struct{}{}
		select {
		case <-ctx.Done():
			cancelled <- ctx.Err()
			return nil, ctx.Err()
		case <-time.After(10 * time.Second):
			cancelled <- errors.New("never cancelled")
			return textResult("late"), nil
		}
	})
	return server
}

func TestRemoteResults(t *testing.T) {
	ctx := context.Background()
	cs := connect(t, resultServer(nil, nil), nil)
	tools, err := tnmcp.RemoteTools(ctx, cs)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := toolnexus.NewToolkit(tools...)
	if err != nil {
		t.Fatal(err)
	}
	// A free-form input stays free-form: strict modes send it non-strict
	// under StrictWherePossible, and refuse it under Strict(true).
	if tool, _ := tk.Get("structured"); strings.Contains(string(tool.InputSchema()), "additionalProperties") {
		t.Errorf("a free-form schema changed: %s", tool.InputSchema())
	}
	if _, err := tk.ToOpenAI(adapters.StrictWherePossible()); err != nil {
		t.Error(err)
	}
	if _, err := tk.ToOpenAI(adapters.Strict(true)); err == nil {
		t.Error("OpenAI strict accepted a free-form object")
	}

	r := tk.ExecuteJSON(ctx, "structured", nil)
	if r.IsError || r.Output != `{"sum":3}` || fmt.Sprint(r.Value) != "map[sum:3]" {
		t.Errorf("structured: %+v", r)
	}
	// The structured value reaches the MCP rendering of results.
	if m := adapters.MCPResult(r); string(m.StructuredContent) != `{"sum":3}` {
		t.Errorf("structured: MCPResult structuredContent %s", m.StructuredContent)
	}
	r = tk.ExecuteJSON(ctx, "structured_only", nil)
	if r.IsError || r.Output != `{"sum":3}` {
		t.Errorf("structured_only: %+v", r)
	}
	r = tk.ExecuteJSON(ctx, "fails", nil)
	var te *tnmcp.ToolError
	if !r.IsError || r.Output != "city not found: Atlantis" || !errors.As(r.Err, &te) || te.Server != "results" || te.Tool != "fails" {
		t.Errorf("fails: %+v", r)
	}
	// Images, audio and blobs are parts, the texts after the first part
	// text parts between them.
	r = tk.ExecuteJSON(ctx, "media", nil)
	want := []string{
		fmt.Sprintf("image:image/png:%d", len(mediatest.PNG())),
		fmt.Sprintf("audio:audio/wav:%d", len(mediatest.WAV())),
		"text:[resource file:///notes.txt: text/plain, 8 bytes of text]",
		"text:remember",
		"file:application/octet-stream:a.bin:7",
		"text:[resource link: https://example.com/r, text/html, 2048 bytes]",
	}
	if r.IsError || r.Output != "here:" || !slices.Equal(partsText(r.Parts), want) {
		t.Errorf("media: got %q %q\nwant here: %q", r.Output, partsText(r.Parts), want)
	}
	// A part that is not what it declares is the call's error, naming the
	// tool and the part.
	r = tk.ExecuteJSON(ctx, "bad_image", nil)
	if !r.IsError || !errors.Is(r.Err, define.ErrPart) || !strings.HasPrefix(r.Output, "tool bad_image: part 0, image (image/png, 1000 bytes): ") {
		t.Errorf("bad_image: %+v", r)
	}
}

func TestRemoteCancellation(t *testing.T) {
	started, cancelled := make(chan struct{}, 1), make(chan error, 1)
	cs := connect(t, resultServer(started, cancelled), nil)
	tools, err := tnmcp.RemoteTools(context.Background(), cs)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := toolnexus.NewToolkit(tools...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan []define.Result, 1)
	go func() { done <- tk.Run(ctx, []adapters.Call{{ID: "1", Name: "blocks", Args: json.RawMessage(`{}`)}}) }()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the remote tool never started")
	}
	cancel()
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the server's handler saw %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server's handler was not cancelled")
	}
	results := <-done
	if !results[0].IsError || !errors.Is(results[0].Err, context.Canceled) {
		t.Errorf("cancelled call: %+v, want an error result wrapping context.Canceled", results[0])
	}
}

func TestRemoteTransportError(t *testing.T) {
	ctx := context.Background()
	cs := connect(t, resultServer(nil, nil), nil)
	tools, err := tnmcp.RemoteTools(ctx, cs, tnmcp.WithServerName("weather-eu"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	r := tools[0].ExecuteJSON(ctx, nil)
	var ce *tnmcp.CallError
	if !r.IsError || !errors.As(r.Err, &ce) || ce.Server != "weather-eu" || !strings.Contains(r.Output, "mcp server weather-eu: calling "+ce.Tool) {
		t.Errorf("after Close: %+v, want an error result naming the server", r)
	}
}

func TestRemoteListChanged(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "growing", Version: "v1"}, &mcp.ServerOptions{Logger: quiet})
	server.AddTool(&mcp.Tool{Name: "first", InputSchema: json.RawMessage(objectSchema)}, argsEcho)
	cs := connect(t, server, nil)
	ctx := context.Background()
	remote, err := tnmcp.NewRemote(ctx, cs)
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	before := remote.Tools()
	if len(before) != 1 {
		t.Fatalf("got %d tools, want 1", len(before))
	}

	server.AddTool(&mcp.Tool{Name: "second tool", InputSchema: json.RawMessage(objectSchema)}, argsEcho)
	select {
	case <-remote.Changed():
	case <-time.After(5 * time.Second):
		t.Fatal("no refresh after the server added a tool")
	}
	if err := remote.Err(); err != nil {
		t.Fatal(err)
	}
	after := remote.Tools()
	if len(after) != 2 {
		t.Fatalf("after the change: %d tools, want 2", len(after))
	}
	if name, ok := remote.ToolName("second tool"); !ok || name != "second_tool" {
		t.Errorf("ToolName(second tool) = %q, %v", name, ok)
	}
	// The unchanged tool is the same define.Tool (its rendering cache stays).
	for _, tl := range after {
		if tl.Name() == "first" && tl != before[0] {
			t.Errorf("the unchanged tool was rebuilt")
		}
	}
	tk, err := toolnexus.NewToolkit(after...)
	if err != nil {
		t.Fatal(err)
	}
	if r := tk.ExecuteJSON(ctx, "second_tool", []byte(`{"q":"x"}`)); r.IsError || r.Output != `second tool {"q":"x"}` {
		t.Errorf("second_tool: %+v", r)
	}

	// After Close, changes are not followed.
	remote.Close()
	server.RemoveTools("first")
	select {
	case <-remote.Changed():
		t.Error("a closed Remote refreshed")
	case <-time.After(200 * time.Millisecond):
	}
	if len(remote.Tools()) != 2 {
		t.Error("a closed Remote changed its tools")
	}
}

func TestRemoteRefreshCoalesces(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "busy", Version: "v1"}, &mcp.ServerOptions{Logger: quiet})
	var lists atomic.Int32
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				lists.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	// A server without tools does not announce tools.listChanged.
	server.AddTool(&mcp.Tool{Name: "t0", InputSchema: json.RawMessage(objectSchema)}, argsEcho)
	cs := connect(t, server, nil)
	remote, err := tnmcp.NewRemote(context.Background(), cs)
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	for i := 1; i < 20; i++ {
		server.AddTool(&mcp.Tool{Name: fmt.Sprintf("t%d", i), InputSchema: json.RawMessage(objectSchema)}, argsEcho)
	}
	deadline := time.After(5 * time.Second)
	for len(remote.Tools()) != 20 {
		select {
		case <-remote.Changed():
		case <-deadline:
			t.Fatalf("after 20 additions: %d tools", len(remote.Tools()))
		}
	}
	if n := lists.Load(); n > 20 {
		t.Errorf("%d listings for one and 19 changes", n)
	}
}
