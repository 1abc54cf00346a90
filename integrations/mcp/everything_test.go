package tnmcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

// everythingPackage is the reference server of the MCP project, a server
// no one here wrote, pinned so that the test sees the same tools each run.
const everythingPackage = "@modelcontextprotocol/server-everything@2026.8.31"

// installEverything installs everythingPackage into a temporary folder,
// once for the test, and returns the path of its entry point. It skips
// the test when npm is absent. It returns node and the server's script.
func installEverything(t *testing.T) (node, script string) {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("npm not found (%v): this test installs %s from npm and runs it with node; install Node.js and npm to run it", err, everythingPackage)
	}
	node, err = exec.LookPath("node")
	if err != nil {
		t.Skipf("node not found next to npm (%v): it runs %s", err, everythingPackage)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", everythingPackage)
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install %s: %v\n%s", everythingPackage, err, out)
	}
	script = filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("npm installed %s without its entry point: %v", everythingPackage, err)
	}
	return node, script
}

func TestServerEverything(t *testing.T) {
	node, script := installEverything(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	cmd := exec.Command(node, script, "stdio")
	stderr := &limitedBuffer{max: 64 << 10}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "toolnexus-test", Version: "v1.0.0"},
		&mcp.ClientOptions{ToolListChangedHandler: tnmcp.ToolListChanged, Logger: quiet})
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to %s: %v (stderr: %s)", everythingPackage, err, stderr)
	}
	defer session.Close()

	remote, err := tnmcp.NewRemote(ctx, session, tnmcp.WithPrefix("ev_"))
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	names := remote.Names()
	for _, n := range names {
		t.Logf("%s -> %s", n.Remote, n.Tool)
	}
	if skipped := remote.Skipped(); len(skipped) != 0 {
		t.Errorf("tools left out: %v", skipped)
	}
	echo, ok := remote.ToolName("echo")
	add, ok2 := remote.ToolName("get-sum")
	if !ok || !ok2 {
		t.Fatalf("the server lists no echo or get-sum tool: %v", names)
	}

	local := define.MustDefineTool(func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		return "sunny in " + in.City, nil
	}, define.WithName("local_weather"))
	tk, err := toolnexus.NewToolkit(append([]define.Tool{local}, remote.Tools()...)...)
	if err != nil {
		t.Fatal(err)
	}
	gemini, err := tk.ToGemini()
	if err != nil {
		t.Errorf("Gemini: %v", err)
	}
	openai, err := tk.ToOpenAI()
	if err != nil {
		t.Errorf("OpenAI: %v", err)
	}
	anthropic, err := tk.ToAnthropic()
	if err != nil {
		t.Errorf("Anthropic: %v", err)
	}
	if len(gemini) != 1 || len(gemini[0].FunctionDeclarations) != tk.Len() || len(openai) != tk.Len() || len(anthropic) != tk.Len() {
		t.Errorf("rendered %d Gemini declarations, %d OpenAI and %d Anthropic tools for %d tools", len(gemini[0].FunctionDeclarations), len(openai), len(anthropic), tk.Len())
	}
	renderAll(t, tk)
	for _, v := range []any{gemini, openai, anthropic} {
		if _, err := json.Marshal(v); err != nil {
			t.Error(err)
		}
	}

	results := tk.Run(ctx, []adapters.Call{
		{ID: "1", Name: echo, Args: json.RawMessage(`{"message":"hello from Go"}`)},
		{ID: "2", Name: add, Args: json.RawMessage(`{"a":2,"b":40}`)},
		{ID: "3", Name: "local_weather", Args: json.RawMessage(`{"city":"Oslo"}`)},
		{ID: "4", Name: add, Args: json.RawMessage(`{"a":"two","b":40}`)},
		{ID: "5", Name: "ev_get-structured-content", Args: json.RawMessage(`{"location":"Chicago"}`)},
		{ID: "6", Name: "ev_get-tiny-image", Args: json.RawMessage(`{}`)},
		{ID: "7", Name: "ev_get-resource-reference", Args: json.RawMessage(`{"resourceType":"Text","resourceId":1}`)},
	})
	for i, r := range results {
		t.Logf("call %d: %+v", i+1, r)
	}
	if r := results[0]; r.IsError || !strings.Contains(r.Output, "hello from Go") {
		t.Errorf("echo: %+v", r)
	}
	if r := results[1]; r.IsError || !strings.Contains(r.Output, "42") {
		t.Errorf("get-sum: %+v", r)
	}
	if r := results[2]; r.IsError || r.Output != "sunny in Oslo" {
		t.Errorf("local_weather: %+v", r)
	}
	// A string where a number is due: the tool validates the arguments
	// against the server's schema before the network, and the model gets
	// the error a local tool would give.
	if r := results[3]; !r.IsError || r.Output != `invalid arguments: /a: expected number, got "two"` {
		t.Errorf("get-sum with a string: %+v", r)
	} else if ae := (*define.ArgErrors)(nil); !errors.As(r.Err, &ae) {
		t.Errorf("get-sum with a string: Err %T, want *define.ArgErrors", r.Err)
	}

	// Structured content as Value; the image as a part, which reaches an
	// Anthropic, a Gemini and a Responses model as an image; the embedded
	// text resource as text naming it.
	if r := results[4]; r.IsError || r.Value == nil {
		t.Errorf("get-structured-content: %+v, want a structured Value", r)
	} else if m := adapters.MCPResult(r); len(m.StructuredContent) == 0 {
		t.Errorf("get-structured-content: MCPResult has no structuredContent: %+v", m)
	}
	if r := results[5]; r.IsError || len(r.Parts) == 0 || r.Parts[0].Kind != define.PartImage || r.Parts[0].MIMEType != "image/png" || define.Sniff(r.Parts[0].Data) != "image/png" {
		t.Errorf("get-tiny-image: %+v, want an image/png part", r)
	} else {
		shot := base64.StdEncoding.EncodeToString(r.Parts[0].Data)
		call := []adapters.Call{{ID: "call_1", Name: "ev_get-tiny-image", Args: json.RawMessage(`{}`)}}
		for _, p := range []adapters.Provider{adapters.ForAnthropic(), adapters.ForGemini(), adapters.ForOpenAIResponses()} {
			entries, err := p.Results(call, results[5:6])
			if err != nil {
				t.Fatalf("%s: %v", p.Name(), err)
			}
			data, _ := json.Marshal(entries)
			image := map[string]string{adapters.NameAnthropic: `"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + shot + `"}`,
				adapters.NameGemini:          `"inlineData":{"mimeType":"image/png","data":"` + shot + `"}`,
				adapters.NameOpenAIResponses: `"type":"input_image","image_url":"data:image/png;base64,` + shot + `"`}[p.Name()]
			if !strings.Contains(string(data), image) {
				t.Errorf("%s: the screenshot is not an image in %.300s", p.Name(), data)
			}
		}
	}
	if r := results[6]; r.IsError || !strings.Contains(r.Output, "[resource ") {
		t.Errorf("get-resource-reference: %+v, want a note naming the resource", r)
	}

	// Its answers are held to the tool's output limit.
	small, err := tnmcp.RemoteTools(ctx, session, tnmcp.WithToolOptions(define.WithMaxOutputBytes(64)))
	if err != nil {
		t.Fatal(err)
	}
	checked := false
	for _, tool := range small {
		if tool.Name() != "echo" {
			continue
		}
		checked = true
		if r := tool.ExecuteJSON(ctx, []byte(`{"message":"short"}`)); r.IsError {
			t.Errorf("echo within the limit: %+v", r)
		}
		if r := tool.ExecuteJSON(ctx, []byte(`{"message":"`+strings.Repeat("long ", 20)+`"}`)); !r.IsError || !errors.Is(r.Err, define.ErrOutputTooLarge) || !strings.HasSuffix(r.Output, "limit of 64") {
			t.Errorf("echo over the limit: %+v", r)
		}
	}
	if !checked {
		t.Error("no echo tool")
	}
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.max - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}
