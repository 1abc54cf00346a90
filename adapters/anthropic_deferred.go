package adapters

import (
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// Anthropic's deferred loading (see deferred.go): the defer_loading marks,
// the search tools, and the tool_reference answers to client-side
// searches.

// anthropicSearchSchema is the input schema of the client-side search
// tool.
const anthropicSearchSchema = `{"type":"object","properties":{"query":{"type":"string","description":"Words for what the tool should do, e.g. \"create a calendar event\"."}},"required":["query"]}`

const anthropicSearchDescription = "Search the available tools that are not loaded yet, by what they do. " +
	"The tools found are loaded and can be called from the next turn."

// anthropicSearchTools are the search tools of each SearchMode.
var anthropicSearchTools = [...]AnthropicTool{
	SearchClient:     {Name: SearchToolName, Description: anthropicSearchDescription, InputSchema: json.RawMessage(anthropicSearchSchema)},
	SearchServer:     {Type: "tool_search_tool_regex_20251119", Name: "tool_search_tool_regex"},
	SearchServerBM25: {Type: "tool_search_tool_bm25_20251119", Name: "tool_search_tool_bm25"},
}

// anthropicDefer marks the deferred tools of out and adds the search tool,
// when opts defer tools.
func anthropicDefer(p *spec, tools []define.Tool, opts []Option, out []AnthropicTool) ([]AnthropicTool, error) {
	d, err := deferralOf(p, tools, opts)
	if err != nil || !d.on {
		return out, err
	}
	for i := range out {
		out[i].DeferLoading = d.deferred[i]
	}
	// The search tool is never deferred, so at least one tool is loaded,
	// as the API requires.
	return append(out, anthropicSearchTools[d.mode]), nil
}

// AnthropicSearchResultMessage is the user message that answers a turn's
// client-side searches: one tool_result block per search.
type AnthropicSearchResultMessage struct {
	Role    string                  `json:"role"` // "user"
	Content []AnthropicSearchResult `json:"content"`
}

// AnthropicSearchResult is the tool_result block of one client-side
// search: a tool_reference block per tool found, or one text block saying
// that none was.
type AnthropicSearchResult struct {
	Type      string                 `json:"type"` // "tool_result"
	ToolUseID string                 `json:"tool_use_id"`
	Content   []AnthropicSearchBlock `json:"content"`
}

// AnthropicSearchBlock is a block of a search's tool_result:
// {"type":"tool_reference","tool_name":...}, which the API expands into
// the deferred tool's definition, or {"type":"text","text":...}.
type AnthropicSearchBlock struct {
	Type     string `json:"type"`
	ToolName string `json:"tool_name,omitempty"`
	Text     string `json:"text,omitempty"`
}

// AnthropicSearchResults answers searches (the calls of the client-side
// search tool, from [Searcher.Split]) from s: the user message to send
// after the turn's replay, a tool_result block per search in order. Each
// tool found must be one of the request's tools, deferred or not, as it is
// when s indexes the tools the request rendered.
func AnthropicSearchResults(s *Searcher, searches []Search) (AnthropicSearchResultMessage, error) {
	msg := AnthropicSearchResultMessage{Role: "user", Content: make([]AnthropicSearchResult, len(searches))}
	for i, q := range searches {
		if q.ID == "" {
			return AnthropicSearchResultMessage{}, fmt.Errorf("adapters: AnthropicSearchResults: searches[%d] has no id", i)
		}
		found := s.find(q)
		r := AnthropicSearchResult{Type: "tool_result", ToolUseID: q.ID, Content: make([]AnthropicSearchBlock, 0, max(len(found), 1))}
		for _, t := range found {
			r.Content = append(r.Content, AnthropicSearchBlock{Type: "tool_reference", ToolName: t.Name()})
		}
		if len(found) == 0 {
			r.Content = append(r.Content, AnthropicSearchBlock{Type: "text", Text: fmt.Sprintf("No tool matches %q: search again with other words.", q.Query)})
		}
		msg.Content[i] = r
	}
	return msg, nil
}

// anthropicExamples renders the "examples" of d's input schema root as
// Anthropic's input_examples: each must be a JSON object (define checks
// them against the tool's decoder when the tool is made).
func anthropicExamples(p *spec, d toolData) ([]json.RawMessage, error) {
	if d.in == nil || len(d.in.Examples) == 0 {
		return nil, nil
	}
	out := make([]json.RawMessage, len(d.in.Examples))
	for i, e := range d.in.Examples {
		data, err := marshalNoEscape(e)
		if err == nil && (len(data) == 0 || data[0] != '{') {
			err = fmt.Errorf("expected a JSON object, got %s", jsonwire.Kind(data))
		}
		if err != nil {
			return nil, &Error{Func: p.funcName, Tool: d.name, Path: fmt.Sprintf("/examples/%d", i), Err: ErrUnsupported,
				Msg: fmt.Sprintf("input example %d: %v (Anthropic's input_examples are argument objects)", i, err)}
		}
		out[i] = json.RawMessage(data)
	}
	return out, nil
}
