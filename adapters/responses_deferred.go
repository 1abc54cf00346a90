package adapters

import (
	"encoding/json"
	"fmt"

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

func toResponses(p provider, tools []define.Tool, opts []Option) ([]OpenAIResponsesTool, error) {
	out, err := render(p, tools, opts, buildOpenAIResponses)
	if err != nil {
		return nil, err
	}
	d, err := deferralOf(p, tools, opts)
	if err != nil || (!d.on && d.namespaces == nil) {
		return out, err
	}
	if d.mode == SearchServerBM25 {
		return nil, &Error{Func: p.fn(), Err: ErrOption, Msg: "ToolSearch(SearchServerBM25): the Responses API has one hosted search; use SearchServer"}
	}
	for _, ns := range d.namespaces {
		if err := p.checkToolName(ns.name); err != nil {
			return nil, err
		}
	}
	list := make([]OpenAIResponsesTool, 0, len(out)+1)
	at := make([]int, len(d.namespaces)) // each namespace's place in list, -1 until its first member
	for i := range at {
		at[i] = -1
	}
	for i, t := range out {
		if d.on {
			t.DeferLoading = d.deferred[i]
		}
		if d.member == nil || d.member[i] < 0 {
			list = append(list, t)
			continue
		}
		n := d.member[i]
		if at[n] < 0 {
			at[n] = len(list)
			ns := d.namespaces[n]
			list = append(list, OpenAIResponsesTool{Type: "namespace", Name: ns.name, Description: ns.description,
				Tools: make([]OpenAIResponsesTool, 0, len(ns.tools))})
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

// ResponsesToolSearchOutput is the input item that answers a client-side
// tool_search_call: the definitions of the tools it loads.
type ResponsesToolSearchOutput struct {
	Type      string                `json:"type"` // "tool_search_output"
	CallID    string                `json:"call_id"`
	Execution string                `json:"execution"` // "client"
	Tools     []OpenAIResponsesTool `json:"tools"`
}

// ResponsesSearchOutputs answers searches (the turn's Searches) from s:
// a tool_search_output item per search, in order, each with the found
// tools rendered as [ToOpenAIResponses] renders them with opts (which may
// not defer tools or make namespaces). Append them to the input after the
// replayed output items.
func ResponsesSearchOutputs(s *Searcher, searches []Search, opts ...Option) ([]ResponsesToolSearchOutput, error) {
	return responsesSearchOutputs(responsesSpec, s, searches, opts)
}

func responsesSearchOutputs(p provider, s *Searcher, searches []Search, opts []Option) ([]ResponsesToolSearchOutput, error) {
	for _, o := range opts {
		if k := o.kind(); k&(optDeferred|optNamespace) != 0 {
			return nil, fmt.Errorf("adapters: ResponsesSearchOutputs: option %v does not apply to the tools a search loads", o)
		}
	}
	out := make([]ResponsesToolSearchOutput, len(searches))
	for i, q := range searches {
		if q.ID == "" {
			return nil, fmt.Errorf("adapters: ResponsesSearchOutputs: searches[%d] has no id", i)
		}
		tools, err := toResponses(p, s.find(q), opts)
		if err != nil {
			return nil, fmt.Errorf("adapters: ResponsesSearchOutputs: searches[%d]: %w", i, err)
		}
		if tools == nil {
			tools = []OpenAIResponsesTool{}
		}
		out[i] = ResponsesToolSearchOutput{Type: "tool_search_output", CallID: q.ID, Execution: "client", Tools: tools}
	}
	return out, nil
}

// responsesSearch reads the arguments of a client-side tool_search_call:
// {"query": "...", "paths": ["..."]}, either of them.
func responsesSearch(p replyParser, at loc, callID string, raw []byte) (Search, error) {
	args, err := p.argsText(at, raw)
	if err != nil {
		return Search{}, err
	}
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
