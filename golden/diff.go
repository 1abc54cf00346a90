package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Limits of a failure report: how many changed paths, diff lines and
// context lines it shows.
const (
	maxPaths     = 10
	maxDiffLines = 40
	contextLines = 3
)

// change is one JSON path whose value differs between the golden file
// (want) and the rendering (got).
type change struct {
	path      string
	want, got any
	inWant    bool
	inGot     bool
	// tool is the name of the outermost object on the path with a string
	// member "name" (the golden file's, else the rendering's), and rel the
	// path inside it.
	tool, rel string
}

func (c change) String() string {
	where := c.path
	if c.tool != "" {
		if c.rel != "" {
			where = "tool " + strconv.Quote(c.tool) + ": " + strings.TrimPrefix(c.rel, ".")
		} else {
			where += " (tool " + strconv.Quote(c.tool) + ")"
		}
	}
	switch {
	case !c.inWant:
		return fmt.Sprintf("%s: added %s", where, short(c.got))
	case !c.inGot:
		return fmt.Sprintf("%s: removed (was %s)", where, short(c.want))
	}
	return fmt.Sprintf("%s: %s -> %s", where, short(c.want), short(c.got))
}

// nameOf is the string member "name" of the first of vs that is an
// object and has one.
func nameOf(vs ...any) (string, bool) {
	for _, v := range vs {
		if m, ok := v.(map[string]any); ok {
			if s, ok := m["name"].(string); ok {
				return s, true
			}
		}
	}
	return "", false
}

// changes lists the paths where want and got (decoded with UseNumber)
// differ, in document order of got with map keys sorted; it stops
// collecting after limit entries but keeps counting. Cost is linear in the
// size of both values.
func changes(want, got any, limit int) (list []change, total int) {
	var walk func(path string, w, g any)
	tool, toolAt := "", 0
	add := func(c change) {
		total++
		if len(list) < limit {
			c.tool = tool
			if tool != "" {
				c.rel = c.path[toolAt:]
			} else if name, ok := nameOf(c.got, c.want); ok {
				c.tool = name
			}
			list = append(list, c)
		}
	}
	walk = func(path string, w, g any) {
		if tool == "" {
			if name, ok := nameOf(w, g); ok {
				if _, both := g.(map[string]any); both {
					if _, both = w.(map[string]any); both {
						tool, toolAt = name, len(path)
						defer func() { tool = "" }()
					}
				}
			}
		}
		switch wv := w.(type) {
		case map[string]any:
			gv, ok := g.(map[string]any)
			if !ok {
				break
			}
			keys := make([]string, 0, len(wv)+len(gv))
			for k := range wv {
				keys = append(keys, k)
			}
			for k := range gv {
				if _, ok := wv[k]; !ok {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			for _, k := range keys {
				a, inW := wv[k]
				b, inG := gv[k]
				p := path + member(k)
				if inW && inG {
					walk(p, a, b)
					continue
				}
				add(change{path: p, want: a, got: b, inWant: inW, inGot: inG})
			}
			return
		case []any:
			gv, ok := g.([]any)
			if !ok {
				break
			}
			for i := 0; i < max(len(wv), len(gv)); i++ {
				p := path + "[" + strconv.Itoa(i) + "]"
				switch {
				case i >= len(wv):
					add(change{path: p, got: gv[i], inGot: true})
				case i >= len(gv):
					add(change{path: p, want: wv[i], inWant: true})
				default:
					walk(p, wv[i], gv[i])
				}
			}
			return
		}
		if !scalarEqual(w, g) {
			add(change{path: path, want: w, got: g, inWant: true, inGot: true})
		}
	}
	walk("$", want, got)
	return list, total
}

// scalarEqual compares two decoded JSON values of which at least one is
// not a container of the same kind as the other.
func scalarEqual(w, g any) bool {
	switch w.(type) {
	case map[string]any, []any:
		return false
	}
	switch g.(type) {
	case map[string]any, []any:
		return false
	}
	return w == g
}

// member renders an object key as a path step: .name for identifier-like
// keys, ["key"] otherwise.
func member(k string) string {
	for i, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return "[" + strconv.Quote(k) + "]"
		}
	}
	if k == "" {
		return `[""]`
	}
	return "." + k
}

// short renders a decoded JSON value on one line, cut at 80 bytes.
func short(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}

// firstLineDiff shows where two byte-different texts first differ: the
// line number and a few lines of context from each side.
func firstLineDiff(want, got []byte) string {
	wl := strings.Split(string(want), "\n")
	gl := strings.Split(string(got), "\n")
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "first difference at line %d:\n", i+1)
	side := func(sign string, lines []string) {
		for j := max(0, i-contextLines); j < min(len(lines), i+contextLines+1); j++ {
			mark := " "
			if j == i {
				mark = sign
			}
			fmt.Fprintf(&b, "%s %4d | %s\n", mark, j+1, lines[j])
		}
	}
	b.WriteString("want:\n")
	side("-", wl)
	b.WriteString("got:\n")
	side("+", gl)
	return b.String()
}
