package toolnexus

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// ErrUnknownTool is wrapped by the Err of the result of a call whose name is
// not a tool of the toolkit.
var ErrUnknownTool = errors.New("unknown tool")

// Toolkit is an ordered set of tools with unique names: what an agent hands
// to a model (rendered per provider) and what it routes the model's calls
// through. A Toolkit is immutable after [NewToolkit] and safe for concurrent
// use.
type Toolkit struct {
	tools  []define.Tool
	byName map[string]int
}

// NewToolkit returns a toolkit of tools, in the order given. A zero tool, a
// name outside the portable set ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$, or a name
// used twice is an error.
func NewToolkit(tools ...define.Tool) (*Toolkit, error) {
	tk := &Toolkit{tools: append([]define.Tool(nil), tools...), byName: make(map[string]int, len(tools))}
	for i, t := range tk.tools {
		if t.IsZero() {
			return nil, fmt.Errorf("toolnexus: NewToolkit: tools[%d]: %w", i, define.ErrZeroTool)
		}
		name := t.Name()
		if err := define.ValidateName(name); err != nil {
			return nil, fmt.Errorf("toolnexus: NewToolkit: tools[%d]: %w", i, err)
		}
		if j, dup := tk.byName[name]; dup {
			return nil, fmt.Errorf("toolnexus: NewToolkit: tools[%d] and tools[%d] are both named %q (tool names must be unique)", j, i, name)
		}
		tk.byName[name] = i
	}
	return tk, nil
}

// Tools returns the toolkit's tools in order. The slice is a copy.
func (tk *Toolkit) Tools() []define.Tool {
	return append([]define.Tool(nil), tk.tools...)
}

// Len returns the number of tools.
func (tk *Toolkit) Len() int { return len(tk.tools) }

// Get returns the tool named name.
func (tk *Toolkit) Get(name string) (define.Tool, bool) {
	i, ok := tk.byName[name]
	if !ok {
		return define.Tool{}, false
	}
	return tk.tools[i], true
}

// Execute runs the tool named name on arguments that arrived as a parsed
// JSON object (Gemini functionCall.args, Anthropic tool_use.input); see
// [define.Tool.Execute]. An unknown name gives an error [define.Result]
// that lists the available tools, so the model can correct itself; its Err
// wraps [ErrUnknownTool].
func (tk *Toolkit) Execute(ctx context.Context, name string, args map[string]any) define.Result {
	t, ok := tk.Get(name)
	if !ok {
		return tk.unknownTool(name)
	}
	return t.Execute(ctx, args)
}

// ExecuteJSON is [Toolkit.Execute] for arguments that arrived as JSON text
// (OpenAI's function.arguments); see [define.Tool.ExecuteJSON].
func (tk *Toolkit) ExecuteJSON(ctx context.Context, name string, args []byte) define.Result {
	t, ok := tk.Get(name)
	if !ok {
		return tk.unknownTool(name)
	}
	return t.ExecuteJSON(ctx, args)
}

func (tk *Toolkit) unknownTool(name string) define.Result {
	names := make([]string, len(tk.tools))
	for i, t := range tk.tools {
		names[i] = t.Name()
	}
	avail := "none"
	if len(names) > 0 {
		avail = strings.Join(names, ", ")
	}
	err := fmt.Errorf("%w %s (available tools: %s)", ErrUnknownTool, echoName(name), avail)
	return define.Result{Output: err.Error(), IsError: true, Err: err}
}

// MaxEchoedName is how many bytes of an unknown tool's name the
// unknown-tool error repeats: a valid name has at most 64, and a name from
// a model is untrusted, so a longer one is cut and its length given.
const MaxEchoedName = 80

// echoName quotes name for the unknown-tool error, cut to MaxEchoedName
// bytes (at a UTF-8 boundary).
func echoName(name string) string {
	if len(name) <= MaxEchoedName {
		return strconv.Quote(name)
	}
	cut := MaxEchoedName
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return strconv.Quote(name[:cut]) + "... (" + strconv.Itoa(len(name)) + " bytes)"
}

// ToOpenAI is [adapters.ToOpenAI] over the toolkit's tools.
func (tk *Toolkit) ToOpenAI(opts ...adapters.Option) ([]adapters.OpenAITool, error) {
	return adapters.ToOpenAI(tk.tools, opts...)
}

// ToOpenAIResponses is [adapters.ToOpenAIResponses] over the toolkit's tools.
func (tk *Toolkit) ToOpenAIResponses(opts ...adapters.Option) ([]adapters.OpenAIResponsesTool, error) {
	return adapters.ToOpenAIResponses(tk.tools, opts...)
}

// ToAnthropic is [adapters.ToAnthropic] over the toolkit's tools.
func (tk *Toolkit) ToAnthropic(opts ...adapters.Option) ([]adapters.AnthropicTool, error) {
	return adapters.ToAnthropic(tk.tools, opts...)
}

// ToGemini is [adapters.ToGemini] over the toolkit's tools: always one
// entry, [{"functionDeclarations":[...]}].
func (tk *Toolkit) ToGemini(opts ...adapters.Option) ([]adapters.GeminiTool, error) {
	return adapters.ToGemini(tk.tools, opts...)
}

// ToMCP is [adapters.ToMCP] over the toolkit's tools.
func (tk *Toolkit) ToMCP(opts ...adapters.Option) ([]adapters.MCPTool, error) {
	return adapters.ToMCP(tk.tools, opts...)
}

// ToBedrock is [adapters.ToBedrock] over the toolkit's tools.
func (tk *Toolkit) ToBedrock(opts ...adapters.Option) ([]adapters.BedrockTool, error) {
	return adapters.ToBedrock(tk.tools, opts...)
}
