package golden

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeT records what JSON reports instead of failing the test.
type fakeT struct {
	testing.TB
	errors, fatals, logs []string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, a ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, a...))
}
func (f *fakeT) Fatalf(format string, a ...any) {
	f.fatals = append(f.fatals, fmt.Sprintf(format, a...))
}
func (f *fakeT) Logf(format string, a ...any) { f.logs = append(f.logs, fmt.Sprintf(format, a...)) }

func (f *fakeT) failures() string { return strings.Join(append(f.errors, f.fatals...), "\n") }

// setUpdate turns updating on or off for the duration of the test,
// through the environment; an -update flag on this test binary's command
// line is turned off meanwhile.
func setUpdate(t *testing.T, v bool) {
	t.Helper()
	for _, name := range []string{updateFlag} {
		if fl := flag.Lookup(name); fl != nil {
			old := fl.Value.String()
			if err := fl.Value.Set("false"); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = fl.Value.Set(old) })
		}
	}
	if v {
		t.Setenv(EnvUpdate, "1")
	} else {
		t.Setenv(EnvUpdate, "")
	}
}

type ordered struct {
	B string `json:"b"`
	A []int  `json:"a"`
	H string `json:"h"`
}

func TestMarshal(t *testing.T) {
	got, err := Marshal(ordered{B: "x", A: []int{1, 2}, H: "<&>"})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"b\": \"x\",\n  \"a\": [\n    1,\n    2\n  ],\n  \"h\": \"<&>\"\n}\n"
	if string(got) != want {
		t.Errorf("Marshal = %q, want %q", got, want)
	}
}

func TestJSONMatch(t *testing.T) {
	setUpdate(t, false)
	path := filepath.Join(t.TempDir(), "x.json")
	if err := os.WriteFile(path, []byte("{\n  \"b\": \"x\",\n  \"a\": null,\n  \"h\": \"\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ft := &fakeT{}
	JSON(ft, path, ordered{B: "x"})
	if f := ft.failures(); f != "" {
		t.Errorf("JSON on a matching file failed: %s", f)
	}
}

func TestJSONMissing(t *testing.T) {
	setUpdate(t, false)
	ft := &fakeT{}
	JSON(ft, filepath.Join(t.TempDir(), "missing.json"), ordered{})
	if len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "-update") {
		t.Errorf("JSON on a missing file reported %q, want one error mentioning -update", ft.errors)
	}
}

func TestJSONValueMismatch(t *testing.T) {
	setUpdate(t, false)
	path := filepath.Join(t.TempDir(), "x.json")
	want, _ := Marshal(ordered{B: "old", A: []int{1, 2}})
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	ft := &fakeT{}
	JSON(ft, path, ordered{B: "new", A: []int{1}, H: "h"})
	if len(ft.errors) != 1 {
		t.Fatalf("JSON reported %d errors, want 1: %q", len(ft.errors), ft.errors)
	}
	msg := ft.errors[0]
	paths := []string{`$.a[1]: removed (was 2)`, `$.b: "old" -> "new"`, `$.h: "" -> "h"`}
	for _, s := range append(paths, "3 changed JSON paths", "--- "+path+"\n+++ rendered\n", `-  "b": "old",`, `+  "b": "new",`) {
		if !strings.Contains(msg, s) {
			t.Errorf("mismatch message lacks %q:\n%s", s, msg)
		}
	}
	if strings.Index(msg, paths[2]) > strings.Index(msg, "--- ") {
		t.Errorf("the changed paths come after the diff, want them first:\n%s", msg)
	}
}

// bigDoc is a value whose golden file has hundreds of lines.
func bigDoc(changed int) map[string]any {
	items := make([]any, 300)
	for i := range items {
		items[i] = map[string]any{"n": i, "name": fmt.Sprintf("item %d", i)}
	}
	items[changed] = map[string]any{"n": -1, "name": "changed"}
	return map[string]any{"items": items}
}

func TestJSONMismatchIsShort(t *testing.T) {
	setUpdate(t, false)
	path := filepath.Join(t.TempDir(), "big.json")
	want, _ := Marshal(bigDoc(0))
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	ft := &fakeT{}
	JSON(ft, path, bigDoc(150))
	if len(ft.errors) != 1 {
		t.Fatalf("JSON reported %d errors, want 1: %q", len(ft.errors), ft.errors)
	}
	msg := ft.errors[0]
	for _, s := range []string{"4 changed JSON paths", `tool "changed": n: -1 -> 0`, `tool "item 150": name: "item 150" -> "changed"`, "@@ -601,8 +601,8 @@\n"} {
		if !strings.Contains(msg, s) {
			t.Errorf("mismatch message lacks %q:\n%s", s, msg)
		}
	}
	if n, limit := strings.Count(msg, "\n"), maxPaths+maxDiffLines+10; n > limit {
		t.Errorf("mismatch message has %d lines, want at most %d (the file has %d):\n%s", n, limit, strings.Count(string(want), "\n"), msg)
	}
}

func TestChanges(t *testing.T) {
	dec := func(s string) any {
		var v any
		if err := unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	want := dec(`{"a":1,"b":{"c":[1,2,3],"d":"x"},"e f":true,"g":{"h":1},"big":12345678901234567890}`)
	got := dec(`{"a":1.0,"b":{"c":[1,5],"d":"x","new":null},"e f":false,"g":[1],"big":12345678901234567891}`)
	list, total := changes(want, got, 4)
	var gotS []string
	for _, c := range list {
		gotS = append(gotS, c.String())
	}
	wantS := []string{
		`$.a: 1 -> 1.0`,
		`$.b.c[1]: 2 -> 5`,
		`$.b.c[2]: removed (was 3)`,
		`$.b.new: added null`,
	}
	if diff := cmp.Diff(wantS, gotS); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if total != 7 {
		t.Errorf("total = %d, want 7 (a, b.c[1], b.c[2], b.new, big, e f, g)", total)
	}
	_, all := changes(want, got, 100)
	if all != total {
		t.Errorf("total with a larger limit = %d, want %d", all, total)
	}
}

func TestMember(t *testing.T) {
	got := []string{member("name"), member("_x1"), member("e f"), member("1a"), member(""), member(`q"`)}
	want := []string{".name", "._x1", `["e f"]`, `["1a"]`, `[""]`, `["q\""]`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("member (-want +got):\n%s", diff)
	}
}

func TestJSONByteDrift(t *testing.T) {
	setUpdate(t, false)
	path := filepath.Join(t.TempDir(), "x.json")
	// Same value, other key order and formatting.
	if err := os.WriteFile(path, []byte(`{"a":null,"b":"x","h":""}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ft := &fakeT{}
	JSON(ft, path, ordered{B: "x"})
	if len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "same JSON value but different bytes") ||
		!strings.Contains(ft.errors[0], "first difference at line 1") {
		t.Errorf("JSON on byte drift reported %q, want one error about different bytes at line 1", ft.errors)
	}
}

func TestJSONByteDriftIsShort(t *testing.T) {
	setUpdate(t, false)
	path := filepath.Join(t.TempDir(), "big.json")
	want, _ := Marshal(bigDoc(0))
	// Same value; one line written differently.
	drift := strings.Replace(string(want), `"name": "item 200"`, `"name": "item\u0020200"`, 1)
	if err := os.WriteFile(path, []byte(drift), 0o644); err != nil {
		t.Fatal(err)
	}
	ft := &fakeT{}
	JSON(ft, path, bigDoc(0))
	if len(ft.errors) != 1 {
		t.Fatalf("JSON reported %d errors, want 1: %q", len(ft.errors), ft.errors)
	}
	msg := ft.errors[0]
	line := strings.Count(drift[:strings.Index(drift, `item\u0020200`)], "\n") + 1
	for _, s := range []string{fmt.Sprintf("first difference at line %d", line), `-  ` + strconv.Itoa(line), `item\u0020200`, `"item 200"`} {
		if !strings.Contains(msg, s) {
			t.Errorf("byte drift message lacks %q:\n%s", s, msg)
		}
	}
	if n := strings.Count(msg, "\n"); n > 4*contextLines+10 {
		t.Errorf("byte drift message has %d lines, want a short excerpt:\n%s", n, msg)
	}
}

func TestJSONUpdate(t *testing.T) {
	for _, byEnv := range []bool{false, true} {
		t.Run(fmt.Sprintf("env=%v", byEnv), func(t *testing.T) {
			setUpdate(t, byEnv)
			if !byEnv {
				// The test package's own -update.
				fs := flag.NewFlagSet("test", flag.ContinueOnError)
				fs.Bool(updateFlag, false, "")
				if err := fs.Parse([]string{"-update"}); err != nil {
					t.Fatal(err)
				}
				setCommandLine(t, fs)
			}
			if !Updating() {
				t.Fatal("Updating() = false, want true")
			}
			path := filepath.Join(t.TempDir(), "new", "dir", "x.json")
			ft := &fakeT{}
			JSON(ft, path, ordered{B: "x"})
			if f := ft.failures(); f != "" {
				t.Fatalf("JSON while updating failed: %s", f)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := Marshal(ordered{B: "x"})
			if string(got) != string(want) {
				t.Errorf("written file = %q, want %q", got, want)
			}
			if len(ft.logs) != 1 {
				t.Errorf("logs = %q, want one line naming the file", ft.logs)
			}
		})
	}
}

func TestJSONUnmarshalable(t *testing.T) {
	setUpdate(t, false)
	ft := &fakeT{}
	JSON(ft, filepath.Join(t.TempDir(), "x.json"), func() {})
	if len(ft.fatals) != 1 {
		t.Errorf("JSON on a func value: fatals = %q, want one", ft.fatals)
	}
}

// geminiTools is a two-tool Gemini rendering with maxItems set on the
// second tool's tags.
func geminiTools(maxItems int) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`[{"functionDeclarations":[
{"name":"lookup","description":"Look a word up.","parameters":{"type":"OBJECT","properties":{"word":{"type":"STRING","description":"The word."},"lang":{"type":"STRING","enum":["en","de","fr"]}},"required":["word"]}},
{"name":"search","description":"Search the archive for documents matching a query; results come sorted by relevance and then by date, newest first, and each carries its title, its address and a short excerpt.","parameters":{"type":"OBJECT","properties":{"query":{"type":"STRING","description":"Words to search for."},"tags":{"type":"ARRAY","items":{"type":"STRING"},"maxItems":%d},"limit":{"type":"INTEGER","minimum":1,"maximum":100}},"required":["query"]}}
]}]`, maxItems))
}

func TestJSONMismatchNamesToolWithUnifiedDiff(t *testing.T) {
	setUpdate(t, false)
	path := filepath.Join(t.TempDir(), "gemini.json")
	want, err := Marshal(geminiTools(50))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	ft := &fakeT{}
	JSON(ft, path, geminiTools(60))
	if len(ft.errors) != 1 {
		t.Fatalf("JSON reported %d errors, want 1: %q", len(ft.errors), ft.errors)
	}
	msg := ft.errors[0]
	lines := strings.Split(msg, "\n")
	if len(lines) > 20 {
		t.Errorf("mismatch message has %d lines, want at most 20:\n%s", len(lines), msg)
	}
	for _, l := range lines {
		if len(l) > 200 {
			t.Errorf("mismatch message has a %d-byte line, want at most 200: %q", len(l), l)
		}
	}
	for _, s := range []string{
		"1 changed JSON path\n",
		`  tool "search": parameters.properties.tags.maxItems: 50 -> 60` + "\n",
		"--- " + path + "\n+++ rendered\n",
		`@@ -40,7 +40,7 @@ tool "search"` + "\n",
		`@@ -40,7 +40,7 @@ tool "search"
               "items": {
                 "type": "STRING"
               },
-              "maxItems": 50
+              "maxItems": 60
             },
             "limit": {
               "type": "INTEGER",
run the test`,
	} {
		if !strings.Contains(msg, s) {
			t.Errorf("mismatch message lacks %q:\n%s", s, msg)
		}
	}
	for _, s := range []string{"$[0]", `s"50"`, "functionDeclarations[1]"} {
		if strings.Contains(msg, s) {
			t.Errorf("mismatch message holds %q:\n%s", s, msg)
		}
	}
	if t.Failed() {
		return
	}
	t.Logf("the failure reads:\n%s", msg)
}

func TestToolAt(t *testing.T) {
	got, _ := Marshal(geminiTools(1))
	lines := splitLines(got)
	for i, l := range lines {
		want := ""
		switch {
		case strings.Contains(l, `"word"`), strings.Contains(l, `"lookup"`):
			want = "lookup"
		case strings.Contains(l, `"maxItems"`), strings.Contains(l, `"search"`):
			want = "search"
		default:
			continue
		}
		if name := toolAt(lines, i); name != want {
			t.Errorf("toolAt(line %d %q) = %q, want %q", i+1, l, name, want)
		}
	}
	if name := toolAt(lines, 0); name != "" {
		t.Errorf("toolAt(first line) = %q, want none", name)
	}
}

func TestLineDiff(t *testing.T) {
	a := strings.Split("a b c d e f g", " ")
	b := strings.Split("a x c d f g h", " ")
	var got strings.Builder
	for _, o := range lineDiff(a, b) {
		got.WriteByte(o.kind)
		if o.kind == '+' {
			got.WriteString(b[o.b])
		} else {
			got.WriteString(a[o.a])
		}
	}
	if want := " a-b+x c d-e f g+h"; got.String() != want {
		t.Errorf("lineDiff = %q, want %q", got.String(), want)
	}
}

// TestLineDiffRebuilds: for many pairs of short texts the ops give back
// both sides in order, and a diff past maxEditDistance still does.
func TestLineDiffRebuilds(t *testing.T) {
	words := []string{"a", "b", "c"}
	seq := func(seed, n int) []string {
		out := make([]string, n)
		for i := range out {
			seed = seed*1103515245 + 12345
			out[i] = words[(seed>>16)&0x7fff%len(words)]
		}
		return out
	}
	check := func(a, b []string) {
		var ga, gb []string
		for _, o := range lineDiff(a, b) {
			switch o.kind {
			case ' ':
				if a[o.a] != b[o.b] {
					t.Fatalf("kept line differs: %q vs %q", a[o.a], b[o.b])
				}
				ga, gb = append(ga, a[o.a]), append(gb, b[o.b])
			case '-':
				ga = append(ga, a[o.a])
			case '+':
				gb = append(gb, b[o.b])
			}
		}
		if strings.Join(ga, ",") != strings.Join(a, ",") || strings.Join(gb, ",") != strings.Join(b, ",") {
			t.Fatalf("lineDiff(%q, %q) rebuilds %q, %q", a, b, ga, gb)
		}
	}
	for i := 0; i < 500; i++ {
		check(seq(i, i%9), seq(i*7+1, (i/9)%9))
	}
	big := make([]string, 3*maxEditDistance)
	other := make([]string, len(big))
	for i := range big {
		big[i], other[i] = strconv.Itoa(i), "x"+strconv.Itoa(i)
	}
	check(big, other)
}
