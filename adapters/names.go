package adapters

import "fmt"

// nameRule is one provider's rule for tool names or property keys. The rules
// are checked by hand (no regexp) on the hot first render.
type nameRule struct {
	text  string // the rule as the provider documents it
	min   int
	max   int
	first func(c byte) bool // nil: the first character follows rest
	rest  func(c byte) bool
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isLetterUnder(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

var (
	// OpenAI Chat and Responses: ^[a-zA-Z0-9_-]+$, at most 64.
	openAIToolName = nameRule{text: "^[a-zA-Z0-9_-]{1,64}$", min: 1, max: 64,
		rest: func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }}
	// Anthropic: ^[a-zA-Z0-9_-]{1,64}$ (64 is what every client enforces).
	anthropicToolName = nameRule{text: "^[a-zA-Z0-9_-]{1,64}$", min: 1, max: 64,
		rest: func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }}
	// Anthropic and Bedrock property keys: ^[a-zA-Z0-9_.-]{1,64}$.
	anthropicKey = nameRule{text: "^[a-zA-Z0-9_.-]{1,64}$", min: 1, max: 64,
		rest: func(c byte) bool { return isAlnum(c) || c == '_' || c == '.' || c == '-' }}
	// Gemini: starts with a letter or _, then [a-zA-Z0-9_.:-], at most 64
	// (observed server limit; the SDK documents 128).
	geminiToolName = nameRule{text: "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$", min: 1, max: 64,
		first: isLetterUnder,
		rest:  func(c byte) bool { return isAlnum(c) || c == '_' || c == '.' || c == ':' || c == '-' }}
	// Gemini parameter names: [a-zA-Z0-9_], at most 64.
	geminiKey = nameRule{text: "^[A-Za-z0-9_]{1,64}$", min: 1, max: 64,
		rest: func(c byte) bool { return isAlnum(c) || c == '_' }}
	// MCP: 1 to 128 of [A-Za-z0-9_.-].
	mcpToolName = nameRule{text: "^[A-Za-z0-9_.-]{1,128}$", min: 1, max: 128,
		rest: func(c byte) bool { return isAlnum(c) || c == '_' || c == '.' || c == '-' }}
	// Bedrock: [a-zA-Z0-9_-]+, 1 to 64.
	bedrockToolName = nameRule{text: "^[a-zA-Z0-9_-]{1,64}$", min: 1, max: 64,
		rest: func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }}
)

// match reports whether s follows r.
func (r *nameRule) match(s string) bool {
	if len(s) < r.min || len(s) > r.max {
		return false
	}
	for i := 0; i < len(s); i++ {
		ok := r.rest
		if i == 0 && r.first != nil {
			ok = r.first
		}
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func (p provider) toolNameRule() *nameRule {
	switch p {
	case pOpenAI, pOpenAIResponses:
		return &openAIToolName
	case pAnthropic:
		return &anthropicToolName
	case pGemini:
		return &geminiToolName
	case pMCP:
		return &mcpToolName
	case pBedrock:
		return &bedrockToolName
	}
	return nil
}

// keyRule is the property-key rule of p, or nil when p documents none.
func (p provider) keyRule() *nameRule {
	switch p {
	case pAnthropic, pBedrock:
		return &anthropicKey
	case pGemini:
		return &geminiKey
	}
	return nil
}

func (p provider) checkToolName(name string) error {
	r := p.toolNameRule()
	if r.match(name) {
		return nil
	}
	return &Error{Func: p.fn(), Tool: name, Err: ErrName,
		Msg: fmt.Sprintf("tool name %q does not match %s's %s", name, p.label(), r.text)}
}
