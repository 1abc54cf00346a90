package adapters

import (
	"encoding/json"

	"github.com/toolnexus/toolnexus/define"
)

// AnthropicTool is one entry of an Anthropic Messages "tools" array.
//
// InputSchema is pre-rendered and shared with the per-tool cache: replace
// it, never modify its bytes.
type AnthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
	Strict      bool            `json:"strict,omitempty"`
	// CacheControl marks a prompt-cache breakpoint; set it on the last tool
	// to cache all tools. ToAnthropic leaves it nil.
	CacheControl *AnthropicCacheControl `json:"cache_control,omitempty"`
}

// AnthropicCacheControl is a prompt-cache breakpoint: {"type":"ephemeral"}.
type AnthropicCacheControl struct {
	Type string `json:"type"`
	TTL  string `json:"ttl,omitempty"`
}

// ToAnthropic renders tools as an Anthropic Messages "tools" array.
//
// The input schema is the canonical JSON Schema, whose root must be an
// object without anyOf, oneOf or allOf (Anthropic rejects those at the top
// level). Tool names must match ^[a-zA-Z0-9_-]{1,64}$ and property keys, at
// every level, ^[a-zA-Z0-9_.-]{1,64}$.
//
// With [Strict](true) each tool has "strict": true and its schema is
// rewritten into Anthropic's strict subset: objects with properties are
// closed, oneOf becomes anyOf, numeric bounds, lengths, maxItems and
// unsupported formats move into the description, and recursive types are
// inlined to [MaxInlineDepth] levels (strict mode rejects recursion).
// [StrictWherePossible] makes each tool strict where it can be, and
// define.WithStrict pins one tool either way.
//
// Anthropic's per-request strict budgets are checked before the request:
// at most 20 strict tools, 24 optional parameters and 16 parameters with
// union types (anyOf or a type list) across the strict schemas, counted at
// every level. Tools that must be strict and exceed them are an [*Error]
// wrapping [ErrLimit] naming the tool; under StrictWherePossible the tools
// that would exceed them are sent non-strict, in list order.
func ToAnthropic(tools []define.Tool, opts ...Option) ([]AnthropicTool, error) {
	out, err := render(pAnthropic, tools, opts, 0, buildAnthropic)
	if err != nil {
		return nil, err
	}
	cfg, _ := newConfig(pAnthropic, opts) // render checked opts
	return anthropicBudget(cfg, tools, out)
}

func buildAnthropic(cfg config, d toolData) (AnthropicTool, error) {
	if err := pAnthropic.checkToolName(d.name); err != nil {
		return AnthropicTool{}, err
	}
	in, err := renderJS(pAnthropic, cfg, d.name, d.in, "input")
	if err != nil {
		return AnthropicTool{}, err
	}
	return AnthropicTool{Name: d.name, Description: d.description, InputSchema: in, Strict: cfg.strict}, nil
}
