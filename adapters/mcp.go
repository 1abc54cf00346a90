package adapters

import (
	"encoding/json"

	"github.com/toolnexus/toolnexus/define"
)

// MCPTool is one entry of an MCP tools/list result's "tools".
//
// The schemas are pre-rendered and shared with the per-tool cache: replace
// them, never modify their bytes.
type MCPTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

// ToMCP renders tools as MCP tools/list entries: name, title (from
// define.WithTitle), description, inputSchema, and, for a tool with a typed
// (struct) output, outputSchema. Schemas are the canonical JSON Schema
// 2020-12, unknown keywords of hand-written schemas included. Names must be
// 1 to 128 characters of [A-Za-z0-9_.-].
func ToMCP(tools []define.Tool, opts ...Option) ([]MCPTool, error) {
	return render(pMCP, tools, opts, 0, buildMCP)
}

func buildMCP(cfg config, d toolData) (MCPTool, error) {
	if err := pMCP.checkToolName(d.name); err != nil {
		return MCPTool{}, err
	}
	in, err := renderJS(pMCP, cfg, d.name, d.in, "input")
	if err != nil {
		return MCPTool{}, err
	}
	t := MCPTool{Name: d.name, Title: d.title, Description: d.description, InputSchema: in}
	if d.out != nil {
		if t.OutputSchema, err = renderJS(pMCP, cfg, d.name, d.out, "output"); err != nil {
			return MCPTool{}, err
		}
	}
	return t, nil
}
