package toolsearch_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/toolsearch"
)

// The retrieval benchmark reads the Berkeley Function Calling Leaderboard
// (github.com/ShishirPatil/gorilla, berkeley-function-call-leaderboard/
// bfcl_eval/data): each question of its "multiple" and "live_multiple"
// categories comes with several candidate functions and names the right
// one in its possible answer. Run it with the data folder:
//
//	go test ./toolsearch -run TestRecallBFCL -v -bfcl path/to/bfcl_eval/data
//
// The folder holds the leaderboard's files (BFCL_v4_<category>.json and
// possible_answer/BFCL_v4_<category>.json, JSON lines), or files of one
// JSON object per line with "question", "functions" and "answers" (the
// ground truth) in one place, named <category>.jsonl.
var bfclDir = flag.String("bfcl", "", "folder of Berkeley Function Calling Leaderboard data files")

type bfclEntry struct {
	ID        string            `json:"id"`
	Question  [][]bfclMessage   `json:"question"`
	Functions []json.RawMessage `json:"function"`
	Answers   []map[string]any  `json:"ground_truth"`
}

type bfclMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

func readLines(path string, each func([]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			if err := each(line); err != nil {
				return err
			}
		}
	}
	return sc.Err()
}

// loadBFCL reads one category's entries.
func loadBFCL(dir, category string) ([]bfclEntry, error) {
	var out []bfclEntry
	joined := filepath.Join(dir, category+".jsonl")
	if _, err := os.Stat(joined); err == nil {
		err := readLines(joined, func(line []byte) error {
			var e struct {
				ID        string            `json:"id"`
				Question  [][]bfclMessage   `json:"question"`
				Functions []json.RawMessage `json:"functions"`
				Answers   []map[string]any  `json:"answers"`
			}
			if err := json.Unmarshal(line, &e); err != nil {
				return err
			}
			out = append(out, bfclEntry{e.ID, e.Question, e.Functions, e.Answers})
			return nil
		})
		return out, err
	}
	name := "BFCL_v4_" + category + ".json"
	answers := map[string][]map[string]any{}
	err := readLines(filepath.Join(dir, "possible_answer", name), func(line []byte) error {
		var a struct {
			ID          string           `json:"id"`
			GroundTruth []map[string]any `json:"ground_truth"`
		}
		if err := json.Unmarshal(line, &a); err != nil {
			return err
		}
		answers[a.ID] = a.GroundTruth
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = readLines(filepath.Join(dir, name), func(line []byte) error {
		var e bfclEntry
		if err := json.Unmarshal(line, &e); err != nil {
			return err
		}
		e.Answers = answers[e.ID]
		out = append(out, e)
		return nil
	})
	return out, err
}

// bfclDoc reads one BFCL function definition.
func bfclDoc(raw json.RawMessage) (toolsearch.Doc, error) {
	var f struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Parameters  any    `json:"parameters"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return toolsearch.Doc{}, err
	}
	d := toolsearch.Doc{Name: f.Name, Description: f.Description}
	var walk func(s any, depth int)
	walk = func(s any, depth int) {
		node, ok := s.(map[string]any)
		if !ok || depth > 6 {
			return
		}
		props, _ := node["properties"].(map[string]any)
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			desc, _ := props[k].(map[string]any)["description"].(string)
			d.Params = append(d.Params, toolsearch.Param{Name: k, Description: desc})
			walk(props[k], depth+1)
		}
		walk(node["items"], depth+1)
	}
	walk(f.Parameters, 0)
	return d, nil
}

type recall struct{ at1, at5, n int }

func (r recall) String() string {
	return fmt.Sprintf("%.1f%% | %.1f%%", 100*float64(r.at1)/float64(r.n), 100*float64(r.at5)/float64(r.n))
}

func (r *recall) add(hits []toolsearch.Hit, want string) {
	r.n++
	for i, h := range hits {
		if h.Name == want {
			if i == 0 {
				r.at1++
			}
			if i < 5 {
				r.at5++
			}
			return
		}
	}
}

// TestRecallBFCL prints recall@1 and recall@5 of the search, and of the
// same search over names only, on each category: among each question's
// own candidates, and among every function of the category pooled into
// one toolkit.
func TestRecallBFCL(t *testing.T) {
	if *bfclDir == "" {
		t.Skip("no -bfcl folder given: see the comment on bfclDir")
	}
	fmt.Printf("| category | questions | toolkit | search r@1 | r@5 | names only r@1 | r@5 |\n|---|---|---|---|---|---|---|\n")
	for _, cat := range []string{"multiple", "live_multiple"} {
		entries, err := loadBFCL(*bfclDir, cat)
		if errors.Is(err, os.ErrNotExist) {
			t.Logf("%s: no data files", cat)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", cat, err)
		}
		// The pool: every function of the category, once by name.
		var pool []toolsearch.Doc
		seen := map[string]bool{}
		var own, ownNames, pooled, pooledNames recall
		type q struct {
			text, want string
			docs       []toolsearch.Doc
		}
		var qs []q
		for _, e := range entries {
			if len(e.Answers) != 1 || len(e.Question) == 0 {
				continue // several calls: not one right function
			}
			var want string
			for k := range e.Answers[0] {
				want = k
			}
			var text []string
			for _, m := range e.Question[len(e.Question)-1] {
				if m.Role == "user" {
					text = append(text, m.Content)
				}
			}
			var docs []toolsearch.Doc
			for _, raw := range e.Functions {
				d, err := bfclDoc(raw)
				if err != nil {
					t.Fatalf("%s %s: %v", cat, e.ID, err)
				}
				docs = append(docs, d)
				if !seen[d.Name] {
					seen[d.Name] = true
					pool = append(pool, d)
				}
			}
			qs = append(qs, q{strings.Join(text, "\n"), want, docs})
		}
		all := toolsearch.New(pool, toolsearch.Weights{})
		allNames := toolsearch.New(pool, toolsearch.Weights{Name: 1})
		for _, x := range qs {
			own.add(toolsearch.New(x.docs, toolsearch.Weights{}).Search(x.text, 5), x.want)
			ownNames.add(toolsearch.New(x.docs, toolsearch.Weights{Name: 1}).Search(x.text, 5), x.want)
			pooled.add(all.Search(x.text, 5), x.want)
			pooledNames.add(allNames.Search(x.text, 5), x.want)
		}
		fmt.Printf("| %s | %d | its own candidates | %s | %s |\n", cat, own.n, own, ownNames)
		fmt.Printf("| %s | %d | all %d functions pooled | %s | %s |\n", cat, pooled.n, len(pool), pooled, pooledNames)
	}
}
