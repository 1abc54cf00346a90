package tnmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
	"github.com/toolnexus/toolnexus/integrations/mcp/internal/weather"
)

// marshal is the JSON the SDK sends for v.
func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestToolsOmitAbsentSchemas(t *testing.T) {
	tk, err := weather.Toolkit()
	if err != nil {
		t.Fatal(err)
	}
	tools, err := tnmcp.Tools(tk)
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := tk.ToMCP()
	if err != nil {
		t.Fatal(err)
	}
	for i, tool := range tools {
		// The schemas go through as adapters.ToMCP renders them, byte for byte.
		if diff := cmp.Diff(string(rendered[i].InputSchema), string(tool.InputSchema.(json.RawMessage))); diff != "" {
			t.Errorf("%s: input schema (-want +got):\n%s", tool.Name, diff)
		}
		wire := marshal(t, tool)
		if strings.Contains(wire, "null") {
			t.Errorf("%s: the SDK would send a null: %s", tool.Name, wire)
		}
		if tool.Name == "get_time" && (tool.OutputSchema != nil || strings.Contains(wire, "outputSchema")) {
			t.Errorf("get_time has a string output, want no outputSchema: %s", wire)
		}
		if tool.Name == "get_weather" && !strings.Contains(wire, `"outputSchema":{"type":"object","properties":{"city":`) {
			t.Errorf("get_weather: want its output schema, in field order: %s", wire)
		}
	}
}

func TestResult(t *testing.T) {
	type out struct {
		F float64 `json:"f"`
	}
	for _, c := range []struct {
		name string
		in   define.Result
		want string
	}{
		{"string", define.Result{Output: "14:05"}, `{"content":[{"type":"text","text":"14:05"}]}`},
		{"struct", define.Result{Output: `{"f":1.5}`, Value: out{1.5}}, `{"content":[{"type":"text","text":"{\"f\":1.5}"}],"structuredContent":{"f":1.5}}`},
		{"array", define.Result{Output: `[1]`, Value: []int{1}}, `{"content":[{"type":"text","text":"[1]"}]}`},
		{"error", define.Result{Output: "boom", IsError: true, Err: errors.New("boom")}, `{"content":[{"type":"text","text":"boom"}],"isError":true}`},
		{"error without message", define.Result{IsError: true}, `{"content":[{"type":"text","text":"the tool failed without a message"}],"isError":true}`},
	} {
		if diff := cmp.Diff(c.want, marshal(t, tnmcp.Result(c.in))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestHandlerBadInput(t *testing.T) {
	tk, err := weather.Toolkit()
	if err != nil {
		t.Fatal(err)
	}
	convert, _ := tk.Get("celsius_to_fahrenheit")
	h := tnmcp.Handler(convert)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
		req  *mcp.CallToolRequest
		want string
	}{
		{"array", context.Background(), req(`[21]`), "invalid arguments: expected object, got [21]"},
		{"absent", context.Background(), req(``), "invalid arguments: /celsius: expected number (required), got nothing"},
		{"no params", context.Background(), &mcp.CallToolRequest{}, "invalid arguments: /celsius: expected number (required), got nothing"},
		{"unknown field", context.Background(), req(`{"celsius":1,"kelvin":2}`), "invalid arguments: /kelvin: "},
		{"cancelled", cancelled, req(`{"celsius":1}`), "cancelled before the tool ran"},
	} {
		res, err := h(c.ctx, c.req)
		if err != nil {
			t.Errorf("%s: handler error %v, want an error result", c.name, err)
			continue
		}
		if got := marshal(t, res); !res.IsError || !strings.Contains(got, c.want) || strings.Contains(got, "structuredContent") {
			t.Errorf("%s: result %s, want isError with %q and no structuredContent", c.name, got, c.want)
		}
	}
}

func TestHandlerPanic(t *testing.T) {
	boom := define.MustDefineTool(func(context.Context, struct{}) (string, error) { panic("boom") }, define.WithName("boom"))
	res, err := tnmcp.Handler(boom)(context.Background(), req(`{}`))
	if err != nil || !res.IsError || !strings.Contains(marshal(t, res), "tool boom failed with an internal error: boom") {
		t.Errorf("panicking tool: result %s, err %v; want an isError result naming the panic", marshal(t, res), err)
	}
}

func req(args string) *mcp.CallToolRequest {
	return &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "x", Arguments: json.RawMessage(args)}}
}

func TestAddToolsNullableObjectSchema(t *testing.T) {
	// A hand-written schema that also allows null is served as an object
	// schema: the SDK's Server.AddTool would panic on any other type.
	nullable, err := define.NewTool("nullable", json.RawMessage(`{"type":["object","null"],"properties":{"a":{"type":"string"}}}`),
		func(context.Context, json.RawMessage) (any, error) { return "ok", nil })
	if err != nil {
		t.Fatal(err)
	}
	tk, err := toolnexus.NewToolkit(nullable)
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "x", Version: "v0"}, nil)
	if err := tnmcp.AddTools(server, tk); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cs, _ := connectInMemory(t, ctx, server)
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 {
		t.Fatalf("listed %d tools, want 1", len(list.Tools))
	}
	want := map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}}
	if diff := cmp.Diff(want, list.Tools[0].InputSchema); diff != "" {
		t.Errorf("input schema (-want +got):\n%s", diff)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nullable", Arguments: json.RawMessage(`null`)})
	if err != nil || res.IsError || text(t, res) != "ok" {
		t.Errorf("call with null arguments: %v, %v; want the result ok", res, err)
	}
}

func TestUnknownToolIsProtocolError(t *testing.T) {
	ctx := context.Background()
	cs, _ := connectInMemory(t, ctx, newServer(t))
	defer cs.Close()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_wether", Arguments: map[string]any{}}); err == nil {
		t.Error("calling an unknown tool succeeded, want the SDK's protocol error")
	}
}
