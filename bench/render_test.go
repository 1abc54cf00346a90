package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	einotool "github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	einoschema "github.com/cloudwego/eino/schema"
	"github.com/firebase/genkit/go/ai"
	"github.com/google/jsonschema-go/jsonschema"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/benchdata"
)

// renderTools is how many tools a request carries: OpenAI's maximum.
const renderTools = 128

func toolName(i int) string { return fmt.Sprintf("search_flights_%03d", i) }

const toolDescription = "Search flights between two airports on a date."

// ourRenderers render a toolkit for each provider, as request bytes, the
// way the README tells users to: adapters.AppendJSON over the cached
// renderings (json.Marshal of the same values gives the same bytes, but
// encoding/json re-scans every pre-rendered schema).
func ourRenderers(tools []define.Tool) []struct {
	provider string
	render   func() ([]byte, error)
} {
	marshal := func(v any, err error) ([]byte, error) {
		if err != nil {
			return nil, err
		}
		return adapters.AppendJSON(nil, v)
	}
	return []struct {
		provider string
		render   func() ([]byte, error)
	}{
		{"openai", func() ([]byte, error) { return marshal(adapters.ToOpenAI(tools)) }},
		{"openai-responses", func() ([]byte, error) { return marshal(adapters.ToOpenAIResponses(tools)) }},
		{"anthropic", func() ([]byte, error) { return marshal(adapters.ToAnthropic(tools)) }},
		{"gemini", func() ([]byte, error) { return marshal(adapters.ToGemini(tools)) }},
		{"bedrock", func() ([]byte, error) { return marshal(adapters.ToBedrock(tools)) }},
		{"mcp", func() ([]byte, error) {
			ts, err := adapters.ToMCP(tools)
			if err != nil {
				return nil, err
			}
			b, err := adapters.AppendJSON([]byte(`{"tools":`), ts)
			return append(b, '}'), err
		}},
	}
}

// openAIFunctionTool is an OpenAI Chat Completions tools entry as the peers'
// OpenAI plugins build it: the schema is a Go value, marshaled with the
// request.
type openAIFunctionTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string `json:"name"`
		Description string `json:"description,omitempty"`
		Parameters  any    `json:"parameters"`
	} `json:"function"`
}

// peerRenderers render the peers' toolkits. Only the providers a peer
// renders for itself are measured:
//
//   - eino (OpenAI): its model components convert each ToolInfo with
//     ParamsOneOf.ToJSONSchema when tools are bound, once; every request
//     then marshals the schemas with the request. Only the marshal is timed.
//   - genkit (OpenAI): every generate call takes each tool's Definition()
//     and the OpenAI-compatible plugin puts its InputSchema map into the
//     request. Definition and marshal are timed.
//   - mcp-go and go-sdk (MCP): a tools/list result, marshaled.
func peerRenderers(tb testing.TB) map[string][]struct {
	name   string
	render func() ([]byte, error)
} {
	ctx := context.Background()
	var einoTools []openAIFunctionTool
	var genkitTools []*ai.ToolDef[ArgsInvopop, string]
	var mcpgoTools []mcpgo.Tool
	var sdkTools []*mcp.Tool
	sdkSchema, err := jsonschema.For[ArgsGoogle](nil)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range renderTools {
		var et einotool.InvokableTool
		if et, err = utils.InferTool(toolName(i), toolDescription, utils.InvokeFunc[ArgsInvopop, string](Ok[ArgsInvopop])); err != nil {
			tb.Fatal(err)
		}
		var info *einoschema.ToolInfo
		if info, err = et.Info(ctx); err != nil {
			tb.Fatal(err)
		}
		var t openAIFunctionTool
		t.Type = "function"
		t.Function.Name, t.Function.Description = info.Name, info.Desc
		if t.Function.Parameters, err = info.ParamsOneOf.ToJSONSchema(); err != nil {
			tb.Fatal(err)
		}
		einoTools = append(einoTools, t)

		genkitTools = append(genkitTools, ai.NewTool(toolName(i), toolDescription, func(ctx *ai.ToolContext, in ArgsInvopop) (string, error) {
			return Ok(ctx, in)
		}))
		mcpgoTools = append(mcpgoTools, mcpgo.NewTool(toolName(i), mcpgo.WithDescription(toolDescription), mcpgo.WithInputSchema[ArgsGoogle]()))
		sdkTools = append(sdkTools, &mcp.Tool{Name: toolName(i), Description: toolDescription, InputSchema: sdkSchema})
	}
	type renderer = struct {
		name   string
		render func() ([]byte, error)
	}
	return map[string][]renderer{
		"openai": {
			{NameEino, func() ([]byte, error) { return json.Marshal(einoTools) }},
			{NameGenkit, func() ([]byte, error) {
				ts := make([]openAIFunctionTool, len(genkitTools))
				for i, gt := range genkitTools {
					d := gt.Definition()
					ts[i].Type = "function"
					ts[i].Function.Name, ts[i].Function.Description, ts[i].Function.Parameters = d.Name, d.Description, d.InputSchema
				}
				return json.Marshal(ts)
			}},
		},
		"mcp": {
			{NameMCPGo, func() ([]byte, error) { return json.Marshal(mcpgo.ListToolsResult{Tools: mcpgoTools}) }},
			{NameGoSDK, func() ([]byte, error) { return json.Marshal(&mcp.ListToolsResult{Tools: sdkTools}) }},
		},
	}
}

func renderToolkit(tb testing.TB) []define.Tool {
	tools := make([]define.Tool, renderTools)
	for i := range tools {
		var err error
		tools[i], err = define.DefineTool(Ok[benchdata.Args], define.WithName(toolName(i)), define.WithDescription(toolDescription))
		if err != nil {
			tb.Fatal(err)
		}
	}
	return tools
}

// BenchmarkRender times rendering a toolkit of 128 tools into a provider's
// request bytes (the tools array, marshaled), as every request does after
// the tools are defined. The floor, copy, is copying the same bytes
// pre-rendered.
func BenchmarkRender(b *testing.B) {
	peers := peerRenderers(b)
	for _, r := range ourRenderers(renderToolkit(b)) {
		pre, err := r.render()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(r.provider+"/copy", func(b *testing.B) {
			for b.Loop() {
				_ = bytes.Clone(pre)
			}
		})
		b.Run(r.provider+"/"+NameToolnexus, func(b *testing.B) {
			for b.Loop() {
				if _, err := r.render(); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, p := range peers[r.provider] {
			b.Run(r.provider+"/"+p.name, func(b *testing.B) {
				for b.Loop() {
					if _, err := p.render(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestRenderers checks that every renderer produces 128 tools.
func TestRenderers(t *testing.T) {
	check := func(name string, data []byte, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n := bytes.Count(data, []byte(`"search_flights_`)); n != renderTools {
			t.Errorf("%s: %d tool names in %d bytes, want %d", name, n, len(data), renderTools)
		}
	}
	for _, r := range ourRenderers(renderToolkit(t)) {
		data, err := r.render()
		check(r.provider+"/"+NameToolnexus, data, err)
	}
	for provider, ps := range peerRenderers(t) {
		for _, p := range ps {
			data, err := p.render()
			check(provider+"/"+p.name, data, err)
		}
	}
}
