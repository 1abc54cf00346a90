package toolnexus

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/echo"
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
	names  []string       // the tools' names, in order
	pairs  namePairs      // their letter pairs, when there are more than cfg.closestNames
	pinned []bool         // per tool, whether it is pinned strict (define.WithStrict(true)); nil when none is
	near   map[string]int // WithNearMissNames: each name's near-miss key to its tool, -1 when two share it; nil when off
	cfg    toolkitConfig
	hooks  *hooks // middleware, approvals and observers; nil when none
}

// ToolkitOption configures a [Toolkit] made by [NewToolkitWith]. The set is
// sealed: make options with [WithMaxEchoedName], [WithClosestNames],
// [WithMiddleware], [WithToolMiddleware], [WithObserver], [WithApproval],
// [WithApprovalIf], [WithApprovalKey], [WithApprovalExpiry] and
// [WithApprovalStore].
type ToolkitOption interface {
	applyToolkit(*toolkitConfig)
}

type toolkitConfig struct {
	maxEchoedName int
	closestNames  int
	nearMiss      bool
	middleware    []Middleware
	named         []namedOption // options for one tool, in order
	observers     []Observer

	approvalKey    []byte
	approvalKeySet bool   // WithApprovalKey was given
	approvalKeyID  string // names the key in digests (keyID)
	approvalExpiry time.Duration
	approvalStore  ApprovalStore
}

type toolkitOption func(*toolkitConfig)

func (o toolkitOption) applyToolkit(c *toolkitConfig) { o(c) }

// DefaultClosestNames is how many tool names the unknown-tool error names
// unless [WithClosestNames] says otherwise.
const DefaultClosestNames = 5

// WithMaxEchoedName sets how many bytes of an unknown tool's name the
// unknown-tool error repeats (and compares with the toolkit's names); a
// longer name is cut at a UTF-8 boundary and its length given. n < 1 means
// [MaxEchoedName], the default. A name from a model is untrusted: the
// error, and the work of finding close names, grow with this setting, not
// with the name.
func WithMaxEchoedName(n int) ToolkitOption {
	return toolkitOption(func(c *toolkitConfig) { c.maxEchoedName = n })
}

// WithClosestNames sets how many tool names the unknown-tool error names:
// a toolkit of at most n tools has every name listed, in order; a larger
// one has the n names closest to the unknown name (by the letter pairs
// they share, case and '-' versus '_' ignored), best first, and the count
// of the others. n < 1 means [DefaultClosestNames]. Finding them takes
// time linear in the total length of the toolkit's names.
func WithClosestNames(n int) ToolkitOption {
	return toolkitOption(func(c *toolkitConfig) { c.closestNames = n })
}

// NewToolkit returns a toolkit of tools, in the order given, with the
// default settings. A zero tool, a name outside the portable set
// ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$, or a name used twice is an error.
func NewToolkit(tools ...define.Tool) (*Toolkit, error) {
	return NewToolkitWith(tools)
}

// NewToolkitWith is [NewToolkit] with options: [WithMaxEchoedName] and
// [WithClosestNames] shape the error of a call of an unknown name, and
// [WithNearMissNames] reads a near miss of a name as the name;
// [WithMiddleware], [WithToolMiddleware], [WithObserver] and
// [WithApproval] add to every call's lifecycle (see [Middleware]). An
// option naming a tool the toolkit does not have is an error, and so is
// an empty [WithApprovalKey].
func NewToolkitWith(tools []define.Tool, opts ...ToolkitOption) (*Toolkit, error) {
	tk := &Toolkit{tools: append([]define.Tool(nil), tools...), byName: make(map[string]int, len(tools))}
	for _, o := range opts {
		if o != nil {
			o.applyToolkit(&tk.cfg)
		}
	}
	if tk.cfg.maxEchoedName < 1 {
		tk.cfg.maxEchoedName = MaxEchoedName
	}
	if tk.cfg.closestNames < 1 {
		tk.cfg.closestNames = DefaultClosestNames
	}
	if tk.cfg.approvalKeySet {
		if len(tk.cfg.approvalKey) == 0 {
			return nil, errors.New("toolnexus: NewToolkit: WithApprovalKey: the key is empty (an unset variable?); give a secret key, or no WithApprovalKey for plain SHA-256 digests")
		}
		tk.cfg.approvalKeyID = keyID(tk.cfg.approvalKey)
	}
	if tk.cfg.approvalStore == nil {
		tk.cfg.approvalStore = NewApprovalMemory(0)
	}
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
		tk.names = append(tk.names, name)
	}
	if len(tk.names) > tk.cfg.closestNames {
		tk.pairs = newNamePairs(tk.names)
	}
	tk.pinned = strictPins(tk.tools)
	if tk.cfg.nearMiss {
		tk.near = nearMissKeys(tk.names)
	}
	h, err := newHooks(tk)
	if err != nil {
		return nil, err
	}
	tk.hooks = h
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
// that names the tools to call instead, so the model can correct itself;
// its Err is an [*UnknownToolError], which wraps [ErrUnknownTool]. The
// call goes through the toolkit's middleware, approval gate and observers
// (see [Middleware]); a call that needs approval does not run and its
// result is pending (see [PendingCalls]).
func (tk *Toolkit) Execute(ctx context.Context, name string, args map[string]any) define.Result {
	if args == nil {
		args = map[string]any{} // Input nil would mean Args
	}
	c := tk.effective(&adapters.Call{Name: name, Input: args}, adapters.Rendering{})
	if tk.hooks != nil {
		return tk.execute(ctx, *c)
	}
	t, ok := tk.Get(c.Name)
	if !ok {
		return tk.unknownTool(name)
	}
	return t.Execute(ctx, c.Input)
}

// ExecuteJSON is [Toolkit.Execute] for arguments that arrived as JSON text
// (OpenAI's function.arguments); see [define.Tool.ExecuteJSON].
func (tk *Toolkit) ExecuteJSON(ctx context.Context, name string, args []byte) define.Result {
	c := tk.effective(&adapters.Call{Name: name, Args: args}, adapters.Rendering{})
	if tk.hooks != nil {
		return tk.execute(ctx, *c)
	}
	t, ok := tk.Get(c.Name)
	if !ok {
		return tk.unknownTool(name)
	}
	return t.ExecuteJSON(ctx, c.Args)
}

func (tk *Toolkit) unknownTool(name string) define.Result {
	err := &UnknownToolError{Name: cutName(name, tk.cfg.maxEchoedName), NameLen: len(name)}
	if len(tk.names) <= tk.cfg.closestNames {
		err.Closest = append([]string(nil), tk.names...)
	} else {
		err.Closest = tk.pairs.closest(err.Name, tk.names, tk.cfg.closestNames)
		err.More = len(tk.names) - len(err.Closest)
	}
	return define.Result{Output: err.Error(), IsError: true, Err: err}
}

// UnknownToolError is the Err of the result of a call whose name is no
// tool of the toolkit; it wraps [ErrUnknownTool]. Its text names the tools
// the model can call instead: all of them in a small toolkit, the closest
// few and the count of the others in a large one ([WithClosestNames]).
type UnknownToolError struct {
	Name    string   // the name called, cut to the toolkit's [WithMaxEchoedName]
	NameLen int      // the length in bytes of the name called, before any cut
	Closest []string // tool names to offer, best first (all of them, in order, when More is 0)
	More    int      // how many of the toolkit's tools Closest leaves out
}

func (e *UnknownToolError) Error() string {
	size := len(ErrUnknownTool.Error()) + 4*len(e.Name) + 64
	for _, n := range e.Closest {
		size += len(n) + 2
	}
	var sb strings.Builder
	var num [20]byte
	sb.Grow(size)
	sb.WriteString(ErrUnknownTool.Error())
	sb.WriteByte(' ')
	sb.WriteString(strconv.Quote(e.Name))
	if e.NameLen > len(e.Name) {
		sb.WriteString("... (")
		sb.Write(strconv.AppendInt(num[:0], int64(e.NameLen), 10))
		sb.WriteString(" bytes)")
	}
	if e.More == 0 {
		sb.WriteString(" (available tools: ")
	} else {
		sb.WriteString(" (closest tools: ")
	}
	if len(e.Closest) == 0 && e.More == 0 {
		sb.WriteString("none")
	}
	for i, n := range e.Closest {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(n)
	}
	if e.More > 0 {
		sb.WriteString("; ")
		sb.Write(strconv.AppendInt(num[:0], int64(e.More), 10))
		sb.WriteString(" more")
	}
	sb.WriteByte(')')
	return sb.String()
}

// Unwrap returns [ErrUnknownTool].
func (e *UnknownToolError) Unwrap() error { return ErrUnknownTool }

// MaxEchoedName is the default of [WithMaxEchoedName]: how many bytes of
// an unknown tool's name the unknown-tool error repeats. A valid name has
// at most 64, and a name from a model is untrusted, so a longer one is cut
// and its length given.
const MaxEchoedName = 80

// cutName cuts name to at most limit bytes, at a UTF-8 boundary.
func cutName(name string, limit int) string { return name[:echo.Keep(name, limit)] }

// Letter pairs: closestNames ranks names by the pairs of adjacent bytes
// they share with the unknown name (the Dice coefficient of the two sets),
// which catches typos, swapped words and changes of case in time linear in
// the names' length. The bytes of a name fold to pairSymbols symbols: 0 for
// either end of the name (so that a one-letter name still has pairs), 1-26
// the letters of either case, 27-36 the digits, 37 '_' and '-', 38 any
// other byte.
const pairSymbols = 39

// pairSet is a set of letter pairs, one bit per pair.
type pairSet [(pairSymbols*pairSymbols + 63) / 64]uint64

// pairSymbolOf maps a byte to its symbol.
var pairSymbolOf = func() (t [256]uint8) {
	for c := range t {
		switch {
		case 'a' <= c && c <= 'z':
			t[c] = uint8(c-'a') + 1
		case 'A' <= c && c <= 'Z':
			t[c] = uint8(c-'A') + 1
		case '0' <= c && c <= '9':
			t[c] = uint8(c-'0') + 27
		case c == '_' || c == '-':
			t[c] = 37
		default:
			t[c] = 38
		}
	}
	return t
}()

// appendPairs appends the distinct letter pairs of s, the ends included,
// to dst.
func appendPairs(dst []uint16, s string) []uint16 {
	var seen pairSet
	prev := uint(0)
	for i := 0; i <= len(s); i++ {
		cur := uint(0)
		if i < len(s) {
			cur = uint(pairSymbolOf[s[i]])
		}
		p := prev*pairSymbols + cur
		prev = cur
		w, bit := p>>6, uint64(1)<<(p&63)
		if seen[w]&bit == 0 {
			seen[w] |= bit
			dst = append(dst, uint16(p))
		}
	}
	return dst
}

// namePairs holds the distinct letter pairs of a toolkit's names, made
// once by NewToolkitWith so that an unknown name costs one pass over them:
// name i's pairs are pairs[ends[i-1]:ends[i]] (from 0 for the first).
type namePairs struct {
	pairs []uint16
	ends  []int32
}

func newNamePairs(names []string) namePairs {
	np := namePairs{ends: make([]int32, len(names))}
	for i, n := range names {
		np.pairs = appendPairs(np.pairs, n)
		np.ends[i] = int32(len(np.pairs))
	}
	return np
}

// closest returns the n names closest to name, best first, ties in
// toolkit order; n < len(names).
func (np namePairs) closest(name string, names []string, n int) []string {
	var buf [MaxEchoedName + 1]uint16
	var want pairSet
	wantPairs := appendPairs(buf[:0], name)
	for _, p := range wantPairs {
		want[p>>6] |= uint64(1) << (p & 63)
	}
	// A name's score is shared/total: the pairs it shares with name over
	// the pairs of both (the Dice coefficient, halved).
	type score struct{ name, shared, total int }
	better := func(a, b score) bool { return a.shared*b.total > b.shared*a.total }
	best := make([]score, 0, n)
	start := int32(0)
	for ni, end := range np.ends {
		ps := np.pairs[start:end]
		start = end
		shared := 0
		for _, p := range ps {
			if want[p>>6]&(uint64(1)<<(p&63)) != 0 {
				shared++
			}
		}
		sc := score{name: ni, shared: shared, total: len(wantPairs) + len(ps)}
		if len(best) == n && !better(sc, best[n-1]) {
			continue
		}
		if len(best) < n {
			best = append(best, sc)
		}
		k := len(best) - 1
		for ; k > 0 && better(sc, best[k-1]); k-- {
			best[k] = best[k-1]
		}
		best[k] = sc
	}
	out := make([]string, len(best))
	for i, sc := range best {
		out[i] = names[sc.name]
	}
	return out
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

// ToOllama is [adapters.ToOllama] over the toolkit's tools.
func (tk *Toolkit) ToOllama(opts ...adapters.Option) ([]adapters.OpenAITool, error) {
	return adapters.ToOllama(tk.tools, opts...)
}

// ToMistral is [adapters.ToMistral] over the toolkit's tools.
func (tk *Toolkit) ToMistral(opts ...adapters.Option) ([]adapters.OpenAITool, error) {
	return adapters.ToMistral(tk.tools, opts...)
}
