package adapters

import (
	"fmt"
)

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

func (p *spec) checkToolName(name string) error {
	r := &p.toolName
	if r.match(name) {
		return nil
	}
	return &Error{Func: p.funcName, Tool: name, Err: ErrName,
		Msg: fmt.Sprintf("tool name %q does not match %s's %s", name, p.display, r.text)}
}

// dottedKeyRule is the rule for property keys that Anthropic documents,
// which Bedrock follows too (Claude models serve most Converse tool calls).
var dottedKeyRule = nameRule{text: "^[a-zA-Z0-9_.-]{1,64}$", min: 1, max: 64,
	rest: func(c byte) bool { return isAlnum(c) || c == '_' || c == '.' || c == '-' }}
