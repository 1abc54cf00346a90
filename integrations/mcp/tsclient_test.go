package tnmcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
	"github.com/toolnexus/toolnexus/internal/mediatest"
)

// The MCP project's TypeScript SDK Client, which no one here wrote, against
// our server over stdio and streamable HTTP. Its callTool checks every
// structuredContent against the tool's outputSchema, so a struct output
// whose nil slices were sent as null would fail here.
const tsSDKPackage = "@modelcontextprotocol/sdk@1.32.2"

// tsServerEnv makes the test binary, run again, serve tsToolkit over
// stdio (TestTSClientStdioServer), as the TypeScript client's subprocess.
const tsServerEnv = "TNMCP_TS_STDIO_SERVER"

type tsOrder struct {
	ID    string   `json:"id"`
	Items []string `json:"items"`
}

type tsOrders struct {
	Orders []tsOrder          `json:"orders"`
	Tags   map[string]string  `json:"tags"`
	Pairs  [2]tsOrder         `json:"pairs"`
	Counts map[string][]int64 `json:"counts"`
}

type tsFindArgs struct {
	Customer string `json:"customer" minLength:"1" description:"Customer id"`
	Limit    int    `json:"limit,omitempty" minimum:"1" maximum:"50"`
}

// tsToolkit is the toolkit both transports serve: a struct output full of
// nil slices and maps (no orders found), one with values, and read-only
// annotations.
func tsToolkit() (*toolnexus.Toolkit, error) {
	find := define.MustDefineTool(func(_ context.Context, in tsFindArgs) (tsOrders, error) {
		if in.Customer == "c-42" {
			return tsOrders{Orders: []tsOrder{{ID: "o-1", Items: []string{"tea"}}}, Tags: map[string]string{"tier": "gold"}}, nil
		}
		return tsOrders{}, nil // every slice and map nil
	}, define.WithName("find_orders"), define.WithDescription("Orders of a customer"),
		define.WithAnnotations(define.Annotations{ReadOnly: define.HintTrue}))
	chart := define.MustDefineTool(func(context.Context, struct{}) (define.Result, error) {
		return define.Result{Output: "the chart, its data and a reading", Parts: tsParts()}, nil
	}, define.WithName("chart"), define.WithDescription("A chart"))
	return toolnexus.NewToolkit(find, chart)
}

// tsParts are the parts the chart tool returns: one of every kind MCP
// carries as content.
func tsParts() []define.Part {
	return []define.Part{
		define.ImagePart("image/png", mediatest.PNG()),
		define.AudioPart("audio/wav", mediatest.WAV()),
		define.FilePart("application/pdf", "report.pdf", mediatest.PDF()),
		define.FilePart("text/csv", "data.csv", mediatest.Text()),
		define.ImageURLPart("https://example.com/chart.png"),
	}
}

// TestTSClientStdioServer is not a test: run by the TypeScript client with
// tsServerEnv set, it serves tsToolkit over stdio until stdin closes.
func TestTSClientStdioServer(t *testing.T) {
	if os.Getenv(tsServerEnv) != "1" {
		t.Skip("the stdio server of TestTypeScriptClient, run as its subprocess")
	}
	tk, err := tsToolkit()
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "toolnexus-ts-test", Version: "v1.0.0"}, nil)
	if err := tnmcp.AddTools(server, tk); err != nil {
		t.Fatal(err)
	}
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Log(err)
	}
}

// installTSClient installs the TypeScript SDK into a temporary folder and
// writes the client script next to it.
func installTSClient(t *testing.T) (node, script string) {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("npm not found (%v): this test installs %s from npm and runs its Client with node; install Node.js and npm to run it", err, tsSDKPackage)
	}
	if node, err = exec.LookPath("node"); err != nil {
		t.Skipf("node not found next to npm (%v)", err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", tsSDKPackage)
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install %s: %v\n%s", tsSDKPackage, err, out)
	}
	script = filepath.Join(dir, "client.mjs")
	if err := os.WriteFile(script, []byte(tsClientScript), 0o644); err != nil {
		t.Fatal(err)
	}
	return node, script
}

// tsClientScript connects the SDK's Client over the transport of argv[2]
// (stdio: a JSON {command,args,env}; http: a URL), lists the tools, makes
// the calls of argv[4] and prints what it saw as one JSON object.
const tsClientScript = `
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, target, calls] = process.argv.slice(2);
const client = new Client({ name: "toolnexus-ts-client", version: "1.0.0" });
const transport = mode === "stdio"
  ? new StdioClientTransport(JSON.parse(target))
  : new StreamableHTTPClientTransport(new URL(target));
await client.connect(transport);
const { tools } = await client.listTools();
const results = [];
for (const c of JSON.parse(calls)) {
  try {
    results.push({ result: await client.callTool({ name: c.name, arguments: c.arguments }) });
  } catch (e) {
    results.push({ error: String((e && e.message) || e) });
  }
}
console.log(JSON.stringify({ tools, results }));
await client.close();
`

type tsSeen struct {
	Tools []struct {
		Name         string          `json:"name"`
		OutputSchema json.RawMessage `json:"outputSchema"`
		Annotations  struct {
			ReadOnlyHint *bool `json:"readOnlyHint"`
		} `json:"annotations"`
	} `json:"tools"`
	Results []struct {
		Error  string `json:"error"`
		Result struct {
			IsError           bool            `json:"isError"`
			StructuredContent json.RawMessage `json:"structuredContent"`
			Content           []struct {
				Type     string `json:"type"`
				Text     string `json:"text"`
				Data     string `json:"data"`
				MIMEType string `json:"mimeType"`
				URI      string `json:"uri"`
				Resource struct {
					URI      string `json:"uri"`
					MIMEType string `json:"mimeType"`
					Text     string `json:"text"`
					Blob     string `json:"blob"`
				} `json:"resource"`
			} `json:"content"`
		} `json:"result"`
	} `json:"results"`
}

var tsCalls = `[
 {"name":"find_orders","arguments":{"customer":"c-7"}},
 {"name":"find_orders","arguments":{"customer":"c-42","limit":3}},
 {"name":"find_orders","arguments":{"customer":"","limit":99}},
 {"name":"chart","arguments":{}}
]`

func runTSClient(t *testing.T, node, script, mode, target string) tsSeen {
	t.Helper()
	out, stderr, err := startTSClient(node, script, mode, target)
	if err != nil {
		t.Fatalf("the TypeScript client (%s): %v\nstderr: %s", mode, err, stderr)
	}
	var seen tsSeen
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("the TypeScript client printed %q: %v", out, err)
	}
	return seen
}

// startTSClient runs the client script and returns what it printed on
// stdout and on stderr.
func startTSClient(node, script, mode, target string) ([]byte, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, mode, target, tsCalls)
	cmd.Dir = filepath.Dir(script)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	return out, stderr.String(), err
}

func checkTSSeen(t *testing.T, seen tsSeen) {
	t.Helper()
	if len(seen.Tools) != 2 || seen.Tools[1].Name != "find_orders" || len(seen.Tools[1].OutputSchema) == 0 {
		t.Fatalf("tools: %+v", seen.Tools)
	}
	if ro := seen.Tools[1].Annotations.ReadOnlyHint; ro == nil || !*ro {
		t.Errorf("readOnlyHint: %v", ro)
	}
	if len(seen.Results) != 4 {
		t.Fatalf("%d results, want 4", len(seen.Results))
	}
	for i, r := range seen.Results[:2] {
		if r.Error != "" || r.Result.IsError {
			t.Fatalf("call %d: the client refused it: %q %+v", i, r.Error, r.Result)
		}
	}
	if got := string(seen.Results[0].Result.StructuredContent); got != `{"orders":[],"tags":{},"pairs":[{"id":"","items":[]},{"id":"","items":[]}],"counts":{}}` {
		t.Errorf("empty result's structuredContent: %s", got)
	}
	if got := string(seen.Results[1].Result.StructuredContent); !strings.Contains(got, `"orders":[{"id":"o-1","items":["tea"]}]`) {
		t.Errorf("second result's structuredContent: %s", got)
	}
	bad := seen.Results[2]
	if bad.Error != "" || !bad.Result.IsError || len(bad.Result.Content) == 0 ||
		!strings.Contains(bad.Result.Content[0].Text, "/customer") || !strings.Contains(bad.Result.Content[0].Text, "/limit") {
		t.Errorf("bad arguments: %+v", bad)
	}
	// The parts arrive as MCP content the client's schema accepts: an
	// image, an audio, a PDF as an embedded blob, the CSV as an embedded
	// text, and the image by URL as a resource link, each whole.
	chart := seen.Results[3]
	if chart.Error != "" || chart.Result.IsError || len(chart.Result.Content) != 6 {
		t.Fatalf("chart: %+v", chart)
	}
	c := chart.Result.Content
	b64 := base64.StdEncoding.EncodeToString
	parts := tsParts()
	if c[0].Type != "text" || c[0].Text != "the chart, its data and a reading" {
		t.Errorf("chart text: %+v", c[0])
	}
	if c[1].Type != "image" || c[1].MIMEType != "image/png" || c[1].Data != b64(parts[0].Data) {
		t.Errorf("chart image: %+v", c[1])
	}
	if c[2].Type != "audio" || c[2].MIMEType != "audio/wav" || c[2].Data != b64(parts[1].Data) {
		t.Errorf("chart audio: %+v", c[2])
	}
	if r := c[3].Resource; c[3].Type != "resource" || r.MIMEType != "application/pdf" || r.Blob != b64(parts[2].Data) || r.URI != "toolnexus://part/2/report.pdf" {
		t.Errorf("chart PDF: %+v", c[3])
	}
	if r := c[4].Resource; c[4].Type != "resource" || r.MIMEType != "text/csv" || r.Text != string(parts[3].Data) || r.URI != "toolnexus://part/3/data.csv" {
		t.Errorf("chart CSV: %+v", c[4])
	}
	if c[5].Type != "resource_link" || c[5].URI != "https://example.com/chart.png" || c[5].MIMEType != "image/png" {
		t.Errorf("chart image by URL: %+v", c[5])
	}
}

// TestTypeScriptClient: the TypeScript SDK's Client lists and calls the
// toolkit's tools over stdio and over streamable HTTP; every structured
// result passes its own output-schema check, bad arguments come back as
// an isError result naming both fields, and the annotations arrive.
func TestTypeScriptClient(t *testing.T) {
	node, script := installTSClient(t)
	t.Run("stdio", func(t *testing.T) {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		target, _ := json.Marshal(map[string]any{
			"command": exe,
			"args":    []string{"-test.run=^TestTSClientStdioServer$"},
			"env":     map[string]string{tsServerEnv: "1", "PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME")},
		})
		checkTSSeen(t, runTSClient(t, node, script, "stdio", string(target)))
	})
	t.Run("http", func(t *testing.T) {
		tk, err := tsToolkit()
		if err != nil {
			t.Fatal(err)
		}
		server := mcp.NewServer(&mcp.Implementation{Name: "toolnexus-ts-test", Version: "v1.0.0"}, nil)
		if err := tnmcp.AddTools(server, tk); err != nil {
			t.Fatal(err)
		}
		h, err := tnmcp.HTTPHandler(server, nil)
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(h)
		defer ts.Close()
		checkTSSeen(t, runTSClient(t, node, script, "http", ts.URL+"/mcp"))
	})
	// At the session cap the client is refused with 503; once the session
	// that held the place is deleted, it connects.
	t.Run("http at the session cap", func(t *testing.T) {
		tk, err := tsToolkit()
		if err != nil {
			t.Fatal(err)
		}
		server := mcp.NewServer(&mcp.Implementation{Name: "toolnexus-ts-test", Version: "v1.0.0"}, nil)
		if err := tnmcp.AddTools(server, tk); err != nil {
			t.Fatal(err)
		}
		h, err := tnmcp.HTTPHandler(server, &tnmcp.HTTPOptions{MaxSessions: 1})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(h)
		defer ts.Close()
		code, held := initialize(t, ts.Client(), ts.URL+"/mcp")
		if code != http.StatusOK || held == "" {
			t.Fatalf("initialize: %d, session %q", code, held)
		}
		if out, stderr, err := startTSClient(node, script, "http", ts.URL+"/mcp"); err == nil || !strings.Contains(stderr, "503") {
			t.Fatalf("the TypeScript client at the cap: %v, printed %s\nstderr: %s", err, out, stderr)
		}
		req, _ := http.NewRequest("DELETE", ts.URL+"/mcp", nil)
		req.Header.Set("Mcp-Session-Id", held)
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		deadline := time.Now().Add(5 * time.Second)
		for {
			out, stderr, err := startTSClient(node, script, "http", ts.URL+"/mcp")
			if err == nil {
				var seen tsSeen
				if err := json.Unmarshal(out, &seen); err != nil {
					t.Fatalf("the TypeScript client printed %q: %v", out, err)
				}
				checkTSSeen(t, seen)
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the TypeScript client after the session was deleted: %v\nstderr: %s", err, stderr)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}
