// Package toolsearch finds the tools of a large toolkit that fit a request,
// so that a request to a provider without deferred tool loading (Gemini,
// Bedrock, OpenAI Chat Completions, Ollama) carries the k tools most
// likely to be called rather than all of them, and stays under the
// provider's limit on tools per request.
//
// The ranking is BM25F over four fields of each tool: its name (split at
// underscores, dots, dashes and camelCase humps), its description, its
// parameters' names and its parameters' descriptions, the name weighing
// most. Words are lower-cased, common English words are dropped and
// plural and verb endings are folded ("file", "files", "filed" and
// "filing" are one word), the same way for tools and for queries. An index is built once
// and is safe for concurrent searches.
//
//	ix := toolsearch.FromTools(tk.Tools())
//	picked := ix.Tools("what's the weather in Paris tomorrow?", 20)
//	tools, err := adapters.ToGemini(picked)
//
// The query is what the model is about to answer: the user's last
// message, or the whole turn's text. A search reads at most the first
// [MaxQueryBytes] of it and ranks by at most its first [MaxQueryWords]
// words, so that it costs time linear in those words and in the tools
// that share a word with them, whatever the query's length.
package toolsearch

import (
	"container/heap"
	"encoding/json"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/define"
)

// Doc is what the index reads of one tool.
type Doc struct {
	Name        string
	Description string
	// Params are the tool's parameters, nested ones included.
	Params []Param
}

// Param is one parameter of a tool.
type Param struct {
	Name        string
	Description string
}

// Weights are the weights of a tool's fields in its score. The zero
// value means [DefaultWeights].
type Weights struct {
	Name, Description, ParamNames, ParamDescriptions float64
}

// DefaultWeights weigh a word of the tool's name three times a word of its
// description, a parameter's name one and a half times, a parameter's
// description half.
var DefaultWeights = Weights{Name: 3, Description: 1, ParamNames: 1.5, ParamDescriptions: 0.5}

// BM25's constants: k1 bounds what repeating a word adds, b how much a
// long field is discounted.
const (
	k1 = 1.2
	b  = 0.75
)

// Bounds of a query: [Index.Search] reads at most its first MaxQueryBytes
// (cut at a character; a word the cut splits is left out) and ranks
// by at most its first MaxQueryWords words (stop words are not counted);
// the rest of the query is not read. A 16 KiB query is about 2,700
// English words: put the text that says what the tools must do first.
const (
	MaxQueryBytes = 16 << 10
	MaxQueryWords = 1024
)

// Index ranks a fixed set of tools against queries.
type Index struct {
	docs  []Doc
	tools []define.Tool // when built from tools
	terms map[string][]posting
}

// posting is one tool's weighted, length-normalised frequency of a term.
type posting struct {
	doc int32
	tf  float32
}

// Hit is one tool that fits a query, with its score (higher fits better;
// scores compare within one search only).
type Hit struct {
	// Index is the tool's place in the list the index was built from.
	Index int
	Name  string
	Score float64
}

// FromTools indexes tools with [DefaultWeights]: their names, descriptions
// and the names and descriptions of their input schemas' properties.
func FromTools(tools []define.Tool) *Index {
	docs := make([]Doc, len(tools))
	for i, t := range tools {
		docs[i] = DocOf(t)
	}
	ix := New(docs, Weights{})
	ix.tools = tools
	return ix
}

// DocOf reads the fields the index ranks of tool t.
func DocOf(t define.Tool) Doc {
	d := Doc{Name: t.Name(), Description: t.Description()}
	var root any
	if err := json.Unmarshal(t.InputSchema(), &root); err == nil {
		d.Params = appendParams(d.Params, root, 0)
	}
	return d
}

// maxParamDepth is how deep DocOf reads nested parameters.
const maxParamDepth = 6

// appendParams appends the properties of schema node s (and of its items
// and nested objects).
func appendParams(out []Param, s any, depth int) []Param {
	node, ok := s.(map[string]any)
	if !ok || depth > maxParamDepth {
		return out
	}
	if props, ok := node["properties"].(map[string]any); ok {
		names := make([]string, 0, len(props))
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names) // a stable order: maps have none
		for _, k := range names {
			desc, _ := props[k].(map[string]any)["description"].(string)
			out = append(out, Param{Name: k, Description: desc})
			out = appendParams(out, props[k], depth+1)
		}
	}
	if items, ok := node["items"]; ok {
		out = appendParams(out, items, depth+1)
	}
	for _, key := range [...]string{"anyOf", "oneOf", "allOf"} {
		if list, ok := node[key].([]any); ok {
			for _, sub := range list {
				out = appendParams(out, sub, depth+1)
			}
		}
	}
	return out
}

// New indexes docs with weights w.
func New(docs []Doc, w Weights) *Index {
	if w == (Weights{}) {
		w = DefaultWeights
	}
	weights := [4]float64{w.Name, w.Description, w.ParamNames, w.ParamDescriptions}
	ix := &Index{docs: docs, terms: map[string][]posting{}}
	// Each field's words, per doc, and each field's average length.
	fields := make([][4][]string, len(docs))
	var total [4]float64
	for i, d := range docs {
		fields[i][0] = Words(d.Name)
		fields[i][1] = Words(d.Description)
		for _, p := range d.Params {
			fields[i][2] = append(fields[i][2], Words(p.Name)...)
			fields[i][3] = append(fields[i][3], Words(p.Description)...)
		}
		for f := range fields[i] {
			total[f] += float64(len(fields[i][f]))
		}
	}
	var avg [4]float64
	for f := range avg {
		avg[f] = max(total[f]/float64(max(len(docs), 1)), 1)
	}
	tf := map[string]float64{}
	for i := range docs {
		clear(tf)
		for f, words := range fields[i] {
			if weights[f] == 0 {
				continue
			}
			norm := weights[f] / (1 - b + b*float64(len(words))/avg[f])
			for _, t := range words {
				tf[t] += norm
			}
		}
		for t, v := range tf {
			ix.terms[t] = append(ix.terms[t], posting{doc: int32(i), tf: float32(v)})
		}
	}
	return ix
}

// Len returns the number of tools indexed.
func (ix *Index) Len() int { return len(ix.docs) }

// Search returns the k tools that fit query best, best first; fewer when
// fewer share a word with it. Ties keep the tools' order. Only the first
// [MaxQueryBytes] and [MaxQueryWords] of query count.
func (ix *Index) Search(query string, k int) []Hit {
	if k <= 0 || len(ix.docs) == 0 {
		return nil
	}
	words := words(cutQuery(query), MaxQueryWords)
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	if len(sc.scores) < len(ix.docs) {
		sc.scores = make([]float64, len(ix.docs))
	}
	scores, touched := sc.scores, sc.touched[:0]
	n := float64(len(ix.docs))
	seen := make(map[string]struct{}, len(words))
	for _, t := range words {
		if _, dup := seen[t]; dup {
			continue // a word counts once
		}
		seen[t] = struct{}{}
		list := ix.terms[t]
		if len(list) == 0 {
			continue
		}
		df := float64(len(list))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range list {
			if scores[p.doc] == 0 {
				touched = append(touched, p.doc)
			}
			tf := float64(p.tf)
			scores[p.doc] += idf * tf * (k1 + 1) / (tf + k1)
		}
	}
	// The best k by a min-heap on (score, then later index first out).
	h := make(hitHeap, 0, min(k, len(touched)))
	for _, d := range touched {
		hit := Hit{Index: int(d), Name: ix.docs[d].Name, Score: scores[d]}
		scores[d] = 0
		switch {
		case len(h) < k:
			heap.Push(&h, hit)
		case better(hit, h[0]):
			h[0] = hit
			heap.Fix(&h, 0)
		}
	}
	sc.touched = touched[:0]
	out := make([]Hit, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		out[i] = heap.Pop(&h).(Hit)
	}
	return out
}

// better orders hits: a higher score, then the earlier tool.
func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Index < b.Index
}

// hitHeap is a min-heap of hits: the worst at the top.
type hitHeap []Hit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(Hit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// scratch is a search's score table, reused: every score is zero between
// searches.
type scratch struct {
	scores  []float64
	touched []int32
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// Tools returns the k tools that fit query best, best first, from an index
// made by [FromTools] (nil for one made by [New]). Fewer come back when
// fewer share a word with the query: a caller that must send some tools
// anyway adds its always-loaded ones.
func (ix *Index) Tools(query string, k int) []define.Tool {
	if ix.tools == nil {
		return nil
	}
	hits := ix.Search(query, k)
	out := make([]define.Tool, len(hits))
	for i, h := range hits {
		out[i] = ix.tools[h.Index]
	}
	return out
}

// Words splits text into the words the index ranks: letters and digits
// runs, split again at camelCase humps and between letters and digits,
// lower-cased, common English words dropped, endings folded.
func Words(text string) []string {
	return words(text, -1)
}

// words returns the words of text, at most max of them (max < 0: all),
// and reads no further than the last.
func words(text string, max int) []string {
	var out []string
	start := -1
	var prev rune
	for i, r := range text {
		in := unicode.IsLetter(r) || unicode.IsDigit(r) // isWordRune, which does not inline
		if start >= 0 && (!in || hump(prev, r, text[i+utf8.RuneLen(r):])) {
			if w := word(text[start:i]); w != "" {
				out = append(out, w)
			}
			start = -1
			if len(out) == max {
				break
			}
		}
		if !in {
			prev = 0
			continue
		}
		if start < 0 {
			start = i
		}
		prev = r
	}
	if start >= 0 && len(out) != max {
		if w := word(text[start:]); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// word is a run of text as a word: lower-cased and folded, "" for a stop
// word.
func word(run string) string { return fold(strings.ToLower(run)) }

// isWordRune reports whether r belongs in a word.
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// cutQuery returns the first MaxQueryBytes of query, cut at a character,
// without the word the cut splits.
func cutQuery(query string) string {
	if len(query) <= MaxQueryBytes {
		return query
	}
	end := MaxQueryBytes
	for end > 0 && !utf8.RuneStart(query[end]) {
		end--
	}
	if r, _ := utf8.DecodeRuneInString(query[end:]); isWordRune(r) {
		// The cut splits a word: leave it out, unless it is longer than
		// any real word (a run of letters that long is not one).
		for i := end; i > 0 && end-i <= maxWordBytes; {
			r, size := utf8.DecodeLastRuneInString(query[:i])
			if !isWordRune(r) {
				end = i
				break
			}
			i -= size
		}
	}
	return query[:end]
}

// maxWordBytes is the longest word cutQuery leaves out when the cut
// splits it.
const maxWordBytes = 64

// hump reports whether a word ends between prev and r: lower to upper
// ("getWeather"), an upper that starts a word after capitals ("HTTPServer":
// before the "S"), and letters meeting digits ("utf8", "v2").
func hump(prev, r rune, rest string) bool {
	switch {
	case unicode.IsLower(prev) && unicode.IsUpper(r):
		return true
	case unicode.IsUpper(prev) && unicode.IsUpper(r):
		next, _ := utf8.DecodeRuneInString(rest)
		return unicode.IsLower(next)
	case unicode.IsDigit(prev) != unicode.IsDigit(r):
		return true
	}
	return false
}

// stop are the words too common to rank by.
var stop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by can could do does for from get given
		has have how i if in into is it its me my of on or please should so some
		than that the their them then there these this to was we were what when where
		which who will with would you your`) {
		stop[w] = true
	}
}

// fold drops a stop word and folds a word's common endings (plural s and
// es, ies, ing, ed, a doubled consonant before them, a final e), so that
// "file", "files", "filed" and "filing" are one word. It is deliberately
// light: a tool's words and a query's go through the same folding, so it
// only has to agree with itself.
func fold(w string) string {
	if stop[w] {
		return ""
	}
	switch n := len(w); {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 5 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:n-3])
	case n > 4 && strings.HasSuffix(w, "ed"):
		w = undouble(w[:n-2])
	case n > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes")):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	}
	if n := len(w); n > 3 && w[n-1] == 'e' {
		w = w[:n-1]
	}
	return w
}

// undouble folds a stem whose last consonant was doubled before an
// ending: "stopp" (from "stopping") is "stop"; "fill" stays.
func undouble(stem string) string {
	if n := len(stem); n > 2 && stem[n-1] == stem[n-2] && !strings.ContainsRune("aeiouls", rune(stem[n-1])) {
		return stem[:n-1]
	}
	return stem
}
