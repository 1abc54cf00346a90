package adapters

import (
	"encoding/json"

	"github.com/toolnexus/toolnexus/define"
)

// BedrockTool is one entry of a Bedrock Converse toolConfig "tools" array:
// a tool specification or a cache point.
type BedrockTool struct {
	ToolSpec   *BedrockToolSpec   `json:"toolSpec,omitempty"`
	CachePoint *BedrockCachePoint `json:"cachePoint,omitempty"`
}

// BedrockToolSpec is a Converse toolSpec.
type BedrockToolSpec struct {
	Name        string             `json:"name"`
	Description string             `json:"description,omitempty"` // Bedrock rejects ""
	InputSchema BedrockInputSchema `json:"inputSchema"`
}

// BedrockInputSchema wraps the JSON Schema: {"json":{...}}. JSON is
// pre-rendered and shared with the per-tool cache: replace it, never modify
// its bytes.
type BedrockInputSchema struct {
	JSON json.RawMessage `json:"json"`
}

// BedrockCachePoint is a prompt-cache breakpoint entry:
// {"cachePoint":{"type":"default"}}.
type BedrockCachePoint struct {
	Type string `json:"type"`
}

// ToBedrock renders tools as a Bedrock Converse toolConfig "tools" array of
// toolSpec entries. The schema is the canonical JSON Schema with
// Anthropic's root rule (no anyOf, oneOf or allOf at the root, since Claude
// serves most Converse tool calls); names must match ^[a-zA-Z0-9_-]{1,64}$
// and property keys ^[a-zA-Z0-9_.-]{1,64}$; an empty description is
// omitted (Bedrock rejects "").
func ToBedrock(tools []define.Tool, opts ...Option) ([]BedrockTool, error) {
	return render(pBedrock, tools, opts, 0, buildBedrock)
}

func buildBedrock(cfg config, d toolData) (BedrockTool, error) {
	if err := pBedrock.checkToolName(d.name); err != nil {
		return BedrockTool{}, err
	}
	in, err := renderJS(pBedrock, cfg, d.name, d.in, "input")
	if err != nil {
		return BedrockTool{}, err
	}
	return BedrockTool{ToolSpec: &BedrockToolSpec{Name: d.name, Description: d.description, InputSchema: BedrockInputSchema{JSON: in}}}, nil
}
