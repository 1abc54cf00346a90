package adapters

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/toolsearch"
)

// Deferred loading: the shared part. A provider that has it (Anthropic,
// OpenAI Responses) sends every tool of the request, most of them marked
// "defer_loading": true, plus a tool-search tool; the model sees only the
// loaded tools and the search tool, searches, and the tools the search
// finds are loaded for its next turn. The homes render the marks, the
// search tool and the answers to client-side searches
// (anthropic_deferred.go, responses_deferred.go, with Namespace, the
// Responses API's own option); this file holds the options they share,
// the [Search] a parser reads and the [Searcher] that answers it.
//
// The deferral options do not enter config (the per-tool cache key): the
// schemas of a deferred tool are those of a loaded one, so the marks are
// set on the rendered entries after the cache, and a []string would make
// config incomparable anyway.

// SearchMode says who runs the model's tool searches when tools are
// deferred.
type SearchMode uint8

const (
	// SearchClient adds a tool that the model calls like any other, and
	// that the program answers from the toolkit with a [Searcher]: no
	// index on the provider's side. It is the default.
	SearchClient SearchMode = iota
	// SearchServer adds the provider's own search tool, which its server
	// runs: Anthropic's regex variant (tool_search_tool_regex_20251119),
	// OpenAI Responses' hosted tool_search.
	SearchServer
	// SearchServerBM25 adds Anthropic's BM25 variant
	// (tool_search_tool_bm25_20251119), a search in natural language. The
	// Responses API has no such variant: it is an error there.
	SearchServerBM25
)

func (m SearchMode) String() string {
	switch m {
	case SearchClient:
		return "SearchClient"
	case SearchServer:
		return "SearchServer"
	case SearchServerBM25:
		return "SearchServerBM25"
	}
	return fmt.Sprintf("SearchMode(%d)", int(m))
}

// SearchToolName is the name of the tool that [SearchClient] adds for
// Anthropic, and the name a [Searcher] reads as a search among a turn's
// calls. A request that renders it refuses a tool of the same name.
const SearchToolName = "search_tools"

// deferOption is Deferred and DeferOnly: apply is a no-op because the
// homes read it from the option list (see deferralOf).
type deferOption struct {
	only  bool     // DeferOnly: names are the deferred tools; else the loaded ones
	names []string //
	text  string
}

func (deferOption) apply(*config)     {}
func (deferOption) kind() optionKind  { return optDeferred }
func (deferOption) home() string      { return "" }
func (o deferOption) String() string  { return o.text }
func (searchOption) apply(*config)    {}
func (searchOption) kind() optionKind { return optDeferred }
func (searchOption) home() string     { return "" }
func (o searchOption) String() string { return "ToolSearch(" + o.mode.String() + ")" }

type searchOption struct{ mode SearchMode }

// Deferred renders every tool of the call with "defer_loading": true
// except those named in alwaysLoaded, and adds the provider's tool-search
// tool at the end of the list (the client-side one unless [ToolSearch]
// says otherwise), so that the model sees the loaded tools and the search
// tool, and loads the others by searching. It applies to [ToAnthropic]
// and [ToOpenAIResponses]; every name in alwaysLoaded must be one of the
// call's tools.
//
// The request still carries every tool: the provider hides the deferred
// ones from the model (Anthropic wholly; the Responses API shows a
// deferred function's name and description, or only a namespace's), so the
// savings are in the model's context, not in the request's bytes (see
// docs/large-toolkits.md). The Responses API's limit of 128 tools is not
// checked on a deferred call.
func Deferred(alwaysLoaded ...string) Option {
	return deferOption{names: slices.Clone(alwaysLoaded), text: fmt.Sprintf("Deferred(%s)", quoteList(alwaysLoaded))}
}

// DeferOnly is [Deferred] the other way round: only the tools named are
// deferred, the others loaded. It conflicts with Deferred.
func DeferOnly(deferred ...string) Option {
	return deferOption{only: true, names: slices.Clone(deferred), text: fmt.Sprintf("DeferOnly(%s)", quoteList(deferred))}
}

// ToolSearch chooses the search tool that [Deferred] or [DeferOnly] adds
// (see [SearchMode]); without either it is an error.
func ToolSearch(m SearchMode) Option { return searchOption{m} }

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// deferral is what the deferral options of one call ask for.
type deferral struct {
	on       bool
	mode     SearchMode
	deferred []bool // per tool of the call
}

// deferralOf reads the deferral options of opts for the call's tools,
// checking each name against them.
func deferralOf(p *spec, tools []define.Tool, opts []Option) (deferral, error) {
	var d deferral
	var seenDefer, seenSearch Option
	fail := func(format string, args ...any) (deferral, error) {
		return deferral{}, &Error{Func: p.funcName, Err: ErrOption, Msg: fmt.Sprintf(format, args...)}
	}
	index := func() map[string]int {
		m := make(map[string]int, len(tools))
		for i, t := range tools {
			if !t.IsZero() {
				m[t.Name()] = i
			}
		}
		return m
	}
	var byName map[string]int
	for _, o := range opts {
		switch o := o.(type) {
		case deferOption:
			if seenDefer != nil {
				return fail("option %v conflicts with %v: choose one", o, seenDefer)
			}
			seenDefer = o
			if byName == nil {
				byName = index()
			}
			d.on = true
			d.deferred = make([]bool, len(tools))
			named := make([]bool, len(tools))
			for _, n := range o.names {
				i, ok := byName[n]
				if !ok {
					return fail("%v: %q is not one of the call's %d tools", o, n, len(tools))
				}
				named[i] = true
			}
			for i := range tools {
				d.deferred[i] = named[i] == o.only
			}
		case searchOption:
			if seenSearch != nil {
				return fail("option %v conflicts with %v: choose one", o, seenSearch)
			}
			if o.mode > SearchServerBM25 {
				return fail("%v: unknown search mode", o)
			}
			seenSearch, d.mode = o, o.mode
		}
	}
	if seenSearch != nil && !d.on {
		return fail("option %v needs Deferred or DeferOnly", seenSearch)
	}
	if d.on && d.mode == SearchClient {
		if byName == nil {
			byName = index()
		}
		if _, clash := byName[SearchToolName]; clash && p.clientSearchNamed {
			return fail("a tool is named %q, the name of the search tool that deferral adds: rename it or use ToolSearch(SearchServer)", SearchToolName)
		}
	}
	return d, nil
}

// hasDeferral reports whether opts defer tools: the call's tool limit is
// then not checked (the provider loads only some of them).
func hasDeferral(opts []Option) bool {
	for _, o := range opts {
		if _, ok := o.(deferOption); ok {
			return true
		}
	}
	return false
}

// Search is one tool search that the model asked the program to run (a
// [SearchClient] search): its query, or the tools it named, and the id its
// answer must carry. Answer it with [Searcher.Answer].
type Search struct {
	// ID is the id the answer carries: the tool_use id (Anthropic), the
	// tool_search_call's call_id (OpenAI Responses).
	ID string `json:"id"`
	// Query is the model's words for the tools it wants ("" when it named
	// them instead).
	Query string `json:"query,omitempty"`
	// Names are tools the model asked for by name (the "paths" of OpenAI's
	// default client search); names that are not the toolkit's are
	// skipped.
	Names []string `json:"names,omitempty"`
}

// DefaultSearchResults is how many tools a [Searcher] loads for a query
// unless NewSearcher is told otherwise.
const DefaultSearchResults = 5

// A Searcher answers the model's client-side tool searches from a
// toolkit: it ranks the toolkit's tools with package toolsearch and
// renders the provider's answer, which loads the tools found. Make one per
// toolkit (indexing 1,000 tools takes some tens of milliseconds); it is
// safe for concurrent use.
type Searcher struct {
	ix     *toolsearch.Index
	byName map[string]define.Tool
	k      int
}

// NewSearcher indexes tools, the toolkit's tools as the request renders
// them, for searches that load up to k tools each (k <= 0 means
// [DefaultSearchResults]).
func NewSearcher(tools []define.Tool, k int) *Searcher {
	if k <= 0 {
		k = DefaultSearchResults
	}
	s := &Searcher{ix: toolsearch.FromTools(tools), byName: make(map[string]define.Tool, len(tools)), k: k}
	for _, t := range tools {
		if !t.IsZero() {
			s.byName[t.Name()] = t
		}
	}
	return s
}

// Split returns the client-side searches of turn and the calls that
// remain for Toolkit.Run: the turn's Searches (OpenAI Responses
// tool_search_call items), then its calls of the tool named
// [SearchToolName] (Anthropic's client-side search tool), whose "query"
// argument is the search's query. calls is turn.Calls itself when there
// were no such calls.
func (s *Searcher) Split(turn Turn) (searches []Search, calls []Call) {
	searches = append(searches, turn.Searches...)
	n := 0
	for _, c := range turn.Calls {
		if c.Name == SearchToolName {
			n++
		}
	}
	if n == 0 {
		return searches, turn.Calls
	}
	for _, c := range turn.Calls {
		if c.Name != SearchToolName {
			calls = append(calls, c)
			continue
		}
		searches = append(searches, searchOfCall(c))
	}
	return searches, calls
}

// searchOfCall reads a call of the client-side search tool.
func searchOfCall(c Call) Search {
	q := Search{ID: c.ID}
	var args struct {
		Query any `json:"query"`
	}
	// Arguments that are not an object, or a query that is not a string,
	// give an empty query: the answer loads nothing, and the model may
	// search again.
	if json.Unmarshal(c.Args, &args) == nil {
		q.Query, _ = args.Query.(string)
	}
	return q
}

// find returns the tools that answer q: those it names that the toolkit
// has, then the best ranked for its query, without repeats, at most k
// from the query.
func (s *Searcher) find(q Search) []define.Tool {
	var out []define.Tool
	seen := map[string]bool{}
	for _, n := range q.Names {
		if t, ok := s.byName[n]; ok && !seen[n] {
			seen[n] = true
			out = append(out, t)
		}
	}
	if strings.TrimSpace(q.Query) != "" {
		for _, t := range s.ix.Tools(q.Query, s.k) {
			if !seen[t.Name()] {
				seen[t.Name()] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// Answer renders the answers to searches for p, the provider of the
// request, as the history entries to send after the turn's replay:
//
//   - Anthropic: one user message whose content is a tool_result block
//     per search, each holding a {"type":"tool_reference","tool_name":...}
//     block per tool found (the API expands them into the deferred tools'
//     definitions). When the turn also had calls, send this message
//     before AnthropicResults' one: the API joins consecutive user
//     messages.
//   - OpenAI Responses: a tool_search_output item per search, with its
//     call_id, "execution":"client" and the found tools' definitions,
//     rendered with opts (the options of [ToOpenAIResponses]; deferral
//     options are not taken).
//
// A search that finds nothing is answered too (with no tools), so that the
// model can search again.
func (s *Searcher) Answer(p Provider, searches []Search, opts ...Option) ([]any, error) {
	if p == nil {
		return nil, errors.New("adapters: Searcher.Answer: no provider (nil)")
	}
	rt := p.impl()
	if rt.spec.answer == nil {
		return nil, fmt.Errorf("adapters: Searcher.Answer: %s has no deferred loading", rt.spec.display)
	}
	for i, q := range searches {
		if q.ID == "" {
			return nil, fmt.Errorf("adapters: Searcher.Answer: searches[%d] has no id", i)
		}
	}
	out, err := rt.spec.answer(rt.spec, s, searches, opts)
	if err != nil {
		return nil, fmt.Errorf("adapters: Searcher.Answer: %s: %w", rt.spec.display, err)
	}
	return out, nil
}
