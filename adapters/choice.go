package adapters

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolnexus/toolnexus/define"
)

// ChoiceMode is how a request lets the model choose between its tools.
type ChoiceMode int

const (
	// ChoiceAuto lets the model call tools or answer in text.
	ChoiceAuto ChoiceMode = iota
	// ChoiceRequired makes the model call at least one tool.
	ChoiceRequired
	// ChoiceNone makes the model answer without calling a tool.
	ChoiceNone
)

func (m ChoiceMode) String() string {
	switch m {
	case ChoiceAuto:
		return "ChoiceAuto"
	case ChoiceRequired:
		return "ChoiceRequired"
	case ChoiceNone:
		return "ChoiceNone"
	}
	return fmt.Sprintf("ChoiceMode(%d)", int(m))
}

// Choice says which of a request's tools the model may call: the request
// still carries all of them (so that its prompt cache holds), and Allowed
// narrows what the model may call this time. Render it with [ToolChoice].
type Choice struct {
	Mode ChoiceMode
	// Allowed names the tools the model may call, a subset of the
	// request's tools; empty means all of them. With ChoiceRequired and
	// one name, the model must call that tool.
	Allowed []string
}

// ToolChoice renders c as the value of p's request field that carries it,
// and returns the field's name with it:
//
//   - OpenAI Chat Completions: "tool_choice": "auto", "required", "none",
//     a named function, or an allowed_tools object for a subset;
//   - OpenAI Responses: "tool_choice", the same choices in its shapes;
//   - Anthropic: "tool_choice": {"type":"auto"|"any"|"none"} or
//     {"type":"tool","name":...} (Anthropic has no subset of several
//     tools: send only those tools instead);
//   - Gemini: "toolConfig": {"functionCallingConfig":{"mode":...,
//     "allowedFunctionNames":[...]}}, a subset with ChoiceAuto being mode
//     VALIDATED (the model may answer in text, and calls only those);
//   - Bedrock: "toolChoice" (a member of the request's toolConfig):
//     {"auto":{}}, {"any":{}} or {"tool":{"name":...}} (no ChoiceNone and
//     no subset of several tools: leave toolConfig out, or send only those
//     tools);
//   - Mistral: "tool_choice": "auto", "any" (ChoiceRequired), "none", or a
//     named function (no subset of several tools).
//
// A compatible server's Provider (ForOpenAI with a [Server]) renders
// OpenAI Chat's. Every name in c.Allowed must be the name of one of tools, the request's
// tools; what a provider cannot say is an error naming the provider and
// what to do instead. MCP and Ollama have no tool choice.
func ToolChoice(p Provider, tools []define.Tool, c Choice) (field string, value json.RawMessage, err error) {
	if p == nil {
		return "", nil, errors.New("adapters: ToolChoice: no provider (nil)")
	}
	rt := p.impl()
	if rt.spec.choice == nil {
		return "", nil, fmt.Errorf("adapters: ToolChoice: %s has no tool choice", rt.spec.display)
	}
	if c.Mode < ChoiceAuto || c.Mode > ChoiceNone {
		return "", nil, fmt.Errorf("adapters: ToolChoice: unknown mode %v", c.Mode)
	}
	if c.Mode == ChoiceNone && len(c.Allowed) > 0 {
		return "", nil, fmt.Errorf("adapters: ToolChoice: ChoiceNone with allowed tools %q: no tool may be called", c.Allowed)
	}
	names := make(map[string]bool, len(tools))
	for _, t := range tools {
		names[t.Name()] = true
	}
	seen := make(map[string]bool, len(c.Allowed))
	for _, n := range c.Allowed {
		switch {
		case !names[n]:
			return "", nil, fmt.Errorf("adapters: ToolChoice: allowed tool %q is not one of the request's %d tools", n, len(tools))
		case seen[n]:
			return "", nil, fmt.Errorf("adapters: ToolChoice: allowed tool %q is named twice", n)
		}
		seen[n] = true
	}
	if len(tools) == 0 && c.Mode != ChoiceNone {
		return "", nil, fmt.Errorf("adapters: ToolChoice: %v with no tools in the request", c.Mode)
	}
	field, value, err = rt.spec.choice(c)
	if err != nil {
		return "", nil, fmt.Errorf("adapters: ToolChoice: %s: %w", rt.spec.display, err)
	}
	return field, value, nil
}

// choiceNames appends names as a JSON array of strings, each wrapped by
// open and close (`{"type":"function","name":` and `}`).
func choiceNames(b []byte, names []string, open, close string) []byte {
	b = append(b, '[')
	for i, n := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, open...), n)
		b = append(b, close...)
	}
	return append(b, ']')
}

// errNoSubset is the error of a provider that cannot narrow the tools to
// several.
func errNoSubset(c Choice) error {
	return fmt.Errorf("no way to allow only %d of the request's tools (%s): send only those tools", len(c.Allowed), strings.Join(c.Allowed, ", "))
}
