package toolnexus_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readmeDocs are the Markdown files whose Go blocks TestReadme checks.
var readmeDocs = []string{"README.md", "docs/integrations.md", "docs/answers.md", "docs/temporal.md", "docs/durable.md", "docs/transport.md"}

// TestReadme holds every Go block of README.md (and of the other
// readmeDocs) to compiled code. A block is announced by an HTML comment
// naming a region,
//
//	<!-- README: quickstart -->
//	```go
//	...
//	```
//
// and the region is the lines between "// README: quickstart" and the next
// "// README end" in a .go file of the repository (any module; most are
// Example functions of _test.go files, run with their // Output:), minus
// their common leading tabs. The block must equal the region line for line,
// and every region must be shown once, so that an example cannot change
// without the docs, nor the docs without a compiled example.
func TestReadme(t *testing.T) {
	regions := exampleRegions(t, ".")
	shown := map[string]string{}
	for _, doc := range readmeDocs {
		for _, b := range readmeBlocks(t, doc) {
			if where, ok := shown[b.name]; ok {
				t.Errorf("%s:%d: the region %q is shown already at %s", doc, b.line, b.name, where)
			}
			shown[b.name] = fmt.Sprintf("%s:%d", doc, b.line)
			r, ok := regions[b.name]
			if !ok {
				t.Errorf("%s:%d: the block %q has no region \"// README: %s\" ... \"// README end\" in any .go file", doc, b.line, b.name, b.name)
				continue
			}
			if diff := cmp.Diff(r.lines, b.lines); diff != "" {
				t.Errorf("%s:%d: the block %q differs from its region in %s:%d (-example +%s):\n%s\n"+
					"Change the example first, then copy the region (without its indentation) into %s.",
					doc, b.line, b.name, r.file, r.line, doc, diff, doc)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(regions)) {
		if _, ok := shown[name]; !ok {
			r := regions[name]
			t.Errorf("%s:%d: the region %q is not shown in %s: add it under <!-- README: %s --> or remove its markers",
				r.file, r.line, name, strings.Join(readmeDocs, " or "), name)
		}
	}
}

// TestReadmeLinks checks that every relative link of the repository's
// Markdown documents names a file or directory that exists.
func TestReadmeLinks(t *testing.T) {
	docs := []string{"README.md", "CONTRIBUTING.md"}
	more, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, more...)
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	code := regexp.MustCompile("`[^`]*`")
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		fenced := false
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				fenced = !fenced
				continue
			}
			if fenced {
				continue
			}
			for _, m := range link.FindAllStringSubmatch(code.ReplaceAllString(line, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				target, _, _ = strings.Cut(target, "#")
				path := filepath.Join(filepath.Dir(doc), filepath.FromSlash(target))
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: link to %s: no such file (%s)", doc, i+1, m[1], path)
				}
			}
		}
	}
}

type readmeBlock struct {
	name  string
	line  int // of the opening fence
	lines []string
}

var regionComment = regexp.MustCompile(`^<!-- README: ([a-z0-9-]+) -->$`)

// readmeBlocks returns the ```go blocks of a Markdown file, each with the
// region named by the comment above it (blank lines between are allowed).
func readmeBlocks(t *testing.T, path string) []readmeBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []readmeBlock
	name, nameLine := "", 0
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t\r")
		if m := regionComment.FindStringSubmatch(line); m != nil {
			name, nameLine = m[1], i+1
			continue
		}
		if strings.HasPrefix(line, "```") {
			lang := strings.TrimPrefix(line, "```")
			start := i + 1
			i++
			for i < len(lines) && strings.TrimRight(lines[i], " \t\r") != "```" {
				i++
			}
			if i == len(lines) {
				t.Fatalf("%s:%d: code block not closed", path, start)
			}
			if lang == "go" {
				if name == "" {
					t.Errorf("%s:%d: a ```go block without a <!-- README: name --> comment above it: every Go block must be a region of a compiled example", path, start)
				} else {
					out = append(out, readmeBlock{name, start, trimLines(lines[start:i])})
				}
			} else if name != "" {
				t.Errorf("%s:%d: the comment naming region %q is followed by a ```%s block, not ```go", path, nameLine, name, lang)
			}
			name = ""
			continue
		}
		if line != "" && name != "" {
			t.Errorf("%s:%d: the comment naming region %q is not followed by a ```go block", path, nameLine, name)
			name = ""
		}
	}
	return out
}

type exampleRegion struct {
	file  string
	line  int // of the "// README: name" comment
	lines []string
}

// exampleRegions reads the README regions of every .go file under root,
// outside testdata directories (whose files are not compiled).
func exampleRegions(t *testing.T, root string) map[string]exampleRegion {
	t.Helper()
	regions := map[string]exampleRegion{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || path == "readme_test.go" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !bytes.Contains(data, []byte("// README: ")) {
			return nil
		}
		var cur *exampleRegion
		var name string
		sc := bufio.NewScanner(bytes.NewReader(data))
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			marker := strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(marker, "// README: "):
				if cur != nil {
					t.Errorf("%s:%d: region %q starts inside region %q", path, n, marker, name)
				}
				name = strings.TrimPrefix(marker, "// README: ")
				if prev, ok := regions[name]; ok {
					t.Errorf("%s:%d: region %q is also in %s:%d", path, n, name, prev.file, prev.line)
				}
				cur = &exampleRegion{file: path, line: n}
			case marker == "// README end":
				if cur == nil {
					t.Errorf("%s:%d: \"// README end\" outside a region", path, n)
					continue
				}
				cur.lines = trimLines(dedent(cur.lines))
				regions[name] = *cur
				cur = nil
			case cur != nil:
				cur.lines = append(cur.lines, line)
			}
		}
		if cur != nil {
			t.Errorf("%s:%d: region %q has no \"// README end\"", path, cur.line, name)
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return regions
}

// dedent removes the leading tabs that all non-blank lines share.
func dedent(lines []string) []string {
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, "\t"))
		if common < 0 || n < common {
			common = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		out[i] = l[common:]
	}
	return out
}

// trimLines drops trailing spaces of each line and blank lines at both ends.
func trimLines(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, strings.TrimRight(l, " \t\r"))
	}
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}
