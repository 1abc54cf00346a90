package adapters

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/toolnexus/toolnexus/define"
)

// OpenAI Responses' deferred loading (see deferred.go): defer_loading on
// functions, namespaces, the tool_search tool, the client-side
// tool_search_call items and the tool_search_output items that answer
// them.

// responsesSearchParams are the parameters of the client-side tool_search
// tool: a query, or the names of tools to load.
const responsesSearchParams = `{"type":"object","properties":{` +
	`"query":{"type":"string","description":"Words for what the tool should do, e.g. \"create a calendar event\"."},` +
	`"paths":{"type":"array","items":{"type":"string"},"description":"Names of tools to load, when they are known."}},` +
	`"additionalProperties":false}`

const responsesSearchDescription = "Search the deferred tools by what they do (query), or load them by name (paths). " +
	"The tools found are loaded for the next turn."

func toResponses(p *spec, tools []define.Tool, opts []Option) ([]OpenAIResponsesTool, error) {
	out, err := render(p, tools, opts, buildOpenAIResponses)
	if err != nil {
		return nil, err
	}
	d, err := deferralOf(p, tools, opts)
	if err != nil {
		return nil, err
	}
	ns, err := namespacesOf(p, tools, opts)
	if err != nil || (!d.on && ns.list == nil) {
		return out, err
	}
	if d.mode == SearchServerBM25 {
		return nil, &Error{Func: p.funcName, Err: ErrOption, Msg: "ToolSearch(SearchServerBM25): the Responses API has one hosted search; use SearchServer"}
	}
	for _, n := range ns.list {
		if err := p.checkToolName(n.name); err != nil {
			return nil, err
		}
	}
	list := make([]OpenAIResponsesTool, 0, len(out)+1)
	at := make([]int, len(ns.list)) // each namespace's place in list, -1 until its first member
	for i := range at {
		at[i] = -1
	}
	for i, t := range out {
		if d.on {
			t.DeferLoading = d.deferred[i]
		}
		if ns.member == nil || ns.member[i] < 0 {
			list = append(list, t)
			continue
		}
		n := ns.member[i]
		if at[n] < 0 {
			at[n] = len(list)
			o := ns.list[n]
			list = append(list, OpenAIResponsesTool{Type: "namespace", Name: o.name, Description: o.description,
				Tools: make([]OpenAIResponsesTool, 0, len(o.tools))})
		}
		list[at[n]].Tools = append(list[at[n]].Tools, t)
	}
	if d.on {
		search := OpenAIResponsesTool{Type: "tool_search"}
		if d.mode == SearchClient {
			search.Execution, search.Description, search.Parameters = "client", responsesSearchDescription, json.RawMessage(responsesSearchParams)
		}
		list = append(list, search)
	}
	return list, nil
}

// Namespace groups the named tools of a [ToOpenAIResponses] call into one
// {"type":"namespace","name":name,"description":description,"tools":[...]}
// entry, in the place of its first member. With deferral, the members are
// deferred (the mark is on the functions, not on the namespace) and the
// model sees only the namespace's name and description until it searches,
// which OpenAI's guide recommends over deferred functions alone. A tool
// belongs to one namespace at most; every name must be one of the call's
// tools.
func Namespace(name, description string, tools ...string) Option {
	return namespaceOption{name, description, slices.Clone(tools)}
}

// namespaceOption is Namespace, an option of the Responses home alone: the
// home reads it from the option list (namespacesOf).
type namespaceOption struct {
	name, description string
	tools             []string
}

func (namespaceOption) apply(*config)    {}
func (namespaceOption) kind() optionKind { return optMode }
func (namespaceOption) home() string     { return NameOpenAIResponses }
func (o namespaceOption) String() string {
	return fmt.Sprintf("Namespace(%q, ..., %d tools)", o.name, len(o.tools))
}

// namespaces is what the Namespace options of one call ask for.
type namespaces struct {
	list   []namespaceOption
	member []int // per tool of the call: its namespace in list, or -1
}

// namespacesOf reads the Namespace options of opts for the call's tools,
// checking each name against them.
func namespacesOf(p *spec, tools []define.Tool, opts []Option) (namespaces, error) {
	var ns namespaces
	fail := func(format string, args ...any) (namespaces, error) {
		return namespaces{}, &Error{Func: p.funcName, Err: ErrOption, Msg: fmt.Sprintf(format, args...)}
	}
	var byName map[string]int
	for _, opt := range opts {
		o, ok := opt.(namespaceOption)
		if !ok {
			continue
		}
		if byName == nil {
			byName = make(map[string]int, len(tools))
			for i, t := range tools {
				if !t.IsZero() {
					byName[t.Name()] = i
				}
			}
			ns.member = make([]int, len(tools))
			for i := range ns.member {
				ns.member[i] = -1
			}
		}
		if o.name == "" {
			return fail("%v: the namespace needs a name", o)
		}
		if len(o.tools) == 0 {
			return fail("%v: the namespace has no tools", o)
		}
		for _, other := range ns.list {
			if other.name == o.name {
				return fail("%v: namespace %q is given twice", o, o.name)
			}
		}
		for _, n := range o.tools {
			i, ok := byName[n]
			switch {
			case !ok:
				return fail("%v: %q is not one of the call's %d tools", o, n, len(tools))
			case ns.member[i] >= 0:
				return fail("%v: tool %q is already in namespace %q", o, n, ns.list[ns.member[i]].name)
			}
			ns.member[i] = len(ns.list)
		}
		ns.list = append(ns.list, o)
	}
	return ns, nil
}

// OpenAIResponsesToolSearchOutput is the input item that answers a client-side
// tool_search_call: the definitions of the tools it loads.
type OpenAIResponsesToolSearchOutput struct {
	Type      string                `json:"type"` // "tool_search_output"
	CallID    string                `json:"call_id"`
	Execution string                `json:"execution"` // "client"
	Tools     []OpenAIResponsesTool `json:"tools"`
}

// OpenAIResponsesSearchOutputs answers searches (the turn's Searches) from s:
// a tool_search_output item per search, in order, each with the found
// tools rendered as [ToOpenAIResponses] renders them with opts (which may
// not defer tools or make namespaces). Append them to the input after the
// replayed output items.
func OpenAIResponsesSearchOutputs(s *Searcher, searches []Search, opts ...Option) ([]OpenAIResponsesToolSearchOutput, error) {
	return responsesSearchOutputs(responsesSpec, s, searches, opts)
}

func responsesSearchOutputs(p *spec, s *Searcher, searches []Search, opts []Option) ([]OpenAIResponsesToolSearchOutput, error) {
	for _, o := range opts {
		if _, ns := o.(namespaceOption); ns || o.kind() == optDeferred {
			return nil, fmt.Errorf("adapters: OpenAIResponsesSearchOutputs: option %v does not apply to the tools a search loads", o)
		}
	}
	out := make([]OpenAIResponsesToolSearchOutput, len(searches))
	for i, q := range searches {
		if q.ID == "" {
			return nil, fmt.Errorf("adapters: OpenAIResponsesSearchOutputs: searches[%d] has no id", i)
		}
		tools, err := toResponses(p, s.find(q), opts)
		if err != nil {
			return nil, fmt.Errorf("adapters: OpenAIResponsesSearchOutputs: searches[%d]: %w", i, err)
		}
		if tools == nil {
			tools = []OpenAIResponsesTool{}
		}
		out[i] = OpenAIResponsesToolSearchOutput{Type: "tool_search_output", CallID: q.ID, Execution: "client", Tools: tools}
	}
	return out, nil
}

// responsesSearch reads the arguments of a client-side tool_search_call:
// {"query": "...", "paths": ["..."]}, either of them.
func responsesSearch(p replyParser, at loc, callID string, raw []byte) (Search, error) {
	var c Call
	if err := p.argsText(at, raw, false, &c); err != nil {
		return Search{}, err
	}
	args := c.Args // a malformed text is refused below
	var a struct {
		Query *string  `json:"query"`
		Paths []string `json:"paths"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return Search{}, p.fail(at, ErrArguments, "a tool search's arguments: want a string query and an array of string paths: %v", err)
	}
	q := Search{ID: callID, Names: a.Paths}
	if a.Query != nil {
		q.Query = *a.Query
	}
	return q, nil
}
