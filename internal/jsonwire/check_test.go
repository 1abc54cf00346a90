package jsonwire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestCheckJSON(t *testing.T) {
	tests := []struct {
		in      string
		problem string // "" when valid
		path    string
		syntax  bool
		limit   bool
	}{
		{in: `{"a":[1,-0.5e+3,true,false,null,"x\u00e9\ud83d\ude00"]}`},
		{in: " \n[ ] "},
		{in: `{"a":1,"A":2}`}, // keys differ
		{in: `""`},
		{in: ``, problem: "empty", syntax: true},
		{in: `{"a":1,"a":2}`, problem: `duplicate key "a"`},
		{in: `{"x":{"n\u0061me":1,"name":2}}`, problem: `duplicate key "name"`, path: "/x"},
		{in: `[{"k":0},{"a/b":{"z":1,"z":2}}]`, problem: `duplicate key "z"`, path: "/1/a~1b"},
		{in: `{"a":1}{}`, problem: "unexpected '{' after the value at byte 7", syntax: true},
		{in: `{"a":01}`, problem: "expected , or } in an object, got '1' at byte 6", syntax: true},
		{in: `[1.]`, problem: "invalid number at byte 3", syntax: true},
		{in: `"\ud800"`, problem: "lone UTF-16 surrogate in a \\u escape at byte 7", syntax: true},
		{in: `"\udc00\ud800"`, problem: "lone UTF-16 surrogate in a \\u escape at byte 7", syntax: true},
		{in: "\"a\xffb\"", problem: "invalid UTF-8 at byte 2", syntax: true},
		{in: "\"a\nb\"", problem: "control character in a string at byte 2", syntax: true},
		{in: `"\x"`, problem: "invalid escape at byte 1", syntax: true},
		{in: `[tru]`, problem: "invalid literal (expected true) at byte 1", syntax: true},
		{in: `nope`, problem: "unexpected 'n' at byte 0", syntax: true}, // no misspelt null: nothing suggests sending one
		{in: `[n]`, problem: "unexpected 'n' at byte 1", syntax: true},
		{in: `[nul]`, problem: "invalid literal (expected null) at byte 1", syntax: true},
		{in: `[falsy]`, problem: "unexpected 'f' at byte 1", syntax: true},
		{in: `{"a" 1}`, problem: "expected : after a key, got '1' at byte 5", syntax: true},
		{in: `[1`, problem: "unexpected end of input", syntax: true},
		{in: `[[[1]]]`, problem: "nested deeper than 2 levels", path: "/0/0", limit: true},
		{in: `{"a":{"b":{}}}`, problem: "nested deeper than 2 levels", path: "/a/b", limit: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			e := Check([]byte(tt.in), 2+boolInt(tt.problem == "" || !tt.limit)*10)
			if tt.problem == "" {
				if e != nil {
					t.Fatalf("Check = %+v, want nil", e)
				}
				return
			}
			if e == nil {
				t.Fatalf("Check = nil, want %q", tt.problem)
			}
			want := Error{Path: tt.path, Problem: tt.problem, Syntax: tt.syntax, Limit: tt.limit}
			if diff := cmp.Diff(want, *e); diff != "" {
				t.Errorf("Check mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestCheckJSONManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 1000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + `":1`)
	}
	b.WriteString("}")
	if e := Check([]byte(b.String()), 10); e != nil {
		t.Fatalf("1000 distinct keys: %+v", e)
	}
	dup := b.String()[:b.Len()-1] + `,"kaa":2}`
	if e := Check([]byte(dup), 10); e == nil || e.Problem != `duplicate key "kaa"` {
		t.Fatalf("1001 keys with one repeated: %+v, want duplicate key \"kaa\"", e)
	}
}

// FuzzCheckJSON compares the check with encoding/json: what the check
// accepts, encoding/json accepts; what encoding/json accepts and the check
// rejects has a reason the check names (duplicate keys, invalid UTF-8, lone
// surrogates, depth). The readers agree with encoding/json on every value.
func FuzzCheckJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":"c"}],"d":null}`, `[1e5,"\u00e9",true]`, `{"a":1,"a":2}`, `"\ud800"`, "\"\xff\"", `{"x":{"y":[[[]]]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e := Check(data, 64)
		valid := json.Valid(data)
		if e == nil && !valid {
			t.Fatalf("check accepts %q, encoding/json does not", data)
		}
		if e != nil && e.Syntax && valid && utf8.Valid(data) && !bytes.Contains(data, []byte(`\u`)) {
			t.Fatalf("check rejects %q as not JSON (%s), encoding/json accepts it", data, e.Problem)
		}
		if e != nil {
			return
		}
		var want any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, readBack(bytes.TrimSpace(data))); diff != "" {
			t.Fatalf("readers disagree with encoding/json on %q (-want +got):\n%s", data, diff)
		}
		if !json.Valid(Compact(bytes.TrimSpace(data))) {
			t.Fatalf("Compact(%q) is not JSON", data)
		}
	})
}

// readBack decodes checked JSON with the package's readers.
func readBack(raw []byte) any {
	switch raw[0] {
	case '{':
		m := map[string]any{}
		_ = Members(raw, func(mb Member) error {
			k, _ := Text(mb.Key)
			m[k] = readBack(mb.Val)
			return nil
		})
		return m
	case '[':
		l := []any{}
		_ = Elems(raw, func(_ int, v []byte) error {
			l = append(l, readBack(v))
			return nil
		})
		return l
	case '"':
		s, _ := Text(raw)
		return s
	}
	switch raw[0] {
	case 't', 'f':
		return raw[0] == 't'
	case 'n':
		return nil
	}
	return json.Number(raw)
}

// indexTexts are checked texts for the index tests: every reply fixture,
// and texts heavy in nesting, escaped quotes and space.
func indexTexts(t testing.TB) [][]byte {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "calls", "*", "replies", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no reply fixtures: %v", err)
	}
	var texts [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, data)
	}
	escaped := `"` + strings.Repeat(`say \"hi\"\\n `, 20) + `"`
	return append(texts,
		[]byte(` {"a": [`+strings.Repeat(`{"b": [1, 2, {"c": `+escaped+`}], "d": "`+strings.Repeat("x", 70)+`"},`, 30)+`{}] } `),
		[]byte(strings.Repeat(`[ `, 300)+escaped+strings.Repeat(` ]`, 300)),
		[]byte(strings.Repeat(`{"k": `, 40)+`[`+escaped+`, "\\\"", "\\\\"]`+strings.Repeat(` }`, 40)),
	)
}

// checkIndex checks what the check recorded of text against what
// scanning finds: every span is a value, with the space it holds, and a
// recorded container compacts as Compact does.
func checkIndex(t testing.TB, text []byte) {
	var ix Index
	if e := new(Checker).Check(text, 1000, &ix); e != nil {
		return
	}
	var scan *Index
	prev, containers, taped := -1, 0, 0
	for _, sp := range ix.spans {
		start, end := int(sp.start), int(sp.end)
		if start <= prev {
			t.Fatalf("%.40q: span at %d after one at %d", text, start, prev)
		}
		prev = start
		if e := scan.end(text, -1, start); e != end {
			t.Fatalf("%.40q: span %d-%d, but the value ends at %d", text, start, end, e)
		}
		raw := text[start:end]
		if text[start] == '"' {
			if end-start < indexMinString || !bytes.Contains(raw, []byte(`\"`)) {
				t.Fatalf("%.40q: string %d-%d is shorter than %d or holds no escaped quote", text, start, end, indexMinString)
			}
			continue
		}
		if end-start < indexMin {
			t.Fatalf("%.40q: span %d-%d is shorter than %d", text, start, end, indexMin)
		}
		if n := scan.Spaces(raw); n != int(sp.spaces) {
			t.Fatalf("%.40q: span %d-%d holds %d bytes of space, recorded %d", text, start, end, n, sp.spaces)
		}
		if n := scan.Spaces(text[:start]); n != int(sp.before) {
			t.Fatalf("%.40q: span %d-%d follows %d bytes of space, recorded %d", text, start, end, n, sp.before)
		}
		if got, want := ix.Compact(raw), Compact(raw); !bytes.Equal(got, want) {
			t.Fatalf("%.40q: span %d-%d compacts to %q, want %q", text, start, end, got, want)
		}
		containers++
		if sp.first != 0 {
			taped++
		}
		if n := len(parts(nil, raw)) / 2; raw[0] == '[' && ix.Len(raw) != n {
			t.Fatalf("%.40q: span %d-%d: Len %d, scanning finds %d elements", text, start, end, ix.Len(raw), n)
		}
		if got, want := parts(&ix, raw), parts(nil, raw); !slices.Equal(got, want) {
			t.Fatalf("%.40q: span %d-%d (taped: %v) reads as %q, scanning finds %q", text, start, end, sp.first != 0, got, want)
		}
	}
	// Lookups find every value in any order (they start from the last).
	for _, i := range rand.New(rand.NewPCG(uint64(len(text)), 1)).Perm(len(ix.spans)) {
		if sp := ix.lookup(int(ix.spans[i].start)); sp != &ix.spans[i] {
			t.Fatalf("%.40q: lookup of span %d at %d found %v", text, i, ix.spans[i].start, sp)
		}
		if sp := ix.lookup(int(ix.spans[i].start) + 1); sp != nil && text[ix.spans[i].start+1] != '"' && text[ix.spans[i].start+1] != '{' && text[ix.spans[i].start+1] != '[' {
			t.Fatalf("%.40q: lookup at %d found a value not recorded there", text, ix.spans[i].start+1)
		}
	}
	// When every value of the text fits the tape's budget, no entry is
	// cut: every recorded container is on the tape.
	if taped < containers && values(bytes.TrimSpace(text)) <= len(text)/tapeRatio+16 {
		t.Fatalf("%.40q: %d containers recorded, %d on the tape", text, containers, taped)
	}
	if len(ix.tape) > len(text)/tapeRatio+16 {
		t.Fatalf("%.40q: %d entries on the tape for %d bytes, more than the budget", text, len(ix.tape), len(text))
	}
}

// values counts the values nested in the checked value raw.
func values(raw []byte) int {
	n := 0
	switch raw[0] {
	case '{':
		_ = Members(raw, func(m Member) error {
			n += 1 + values(m.Val)
			return nil
		})
	case '[':
		_ = Elems(raw, func(_ int, v []byte) error {
			n += 1 + values(v)
			return nil
		})
	}
	return n
}

// parts lists the members (key, value and whole) or the elements of the
// container raw as the readers of x see them.
func parts(x *Index, raw []byte) []string {
	var l []string
	if raw[0] == '{' {
		_ = x.Members(raw, func(m Member) error {
			l = append(l, string(m.Key), string(m.Val), string(m.Whole))
			return nil
		})
		return l
	}
	_ = x.Elems(raw, func(i int, v []byte) error {
		l = append(l, strconv.Itoa(i), string(v))
		return nil
	})
	return l
}

// TestTapeBudget: a text whose containers would need more tape than its
// budget (a long array of single digits) is read by scanning past the
// budget, alike, and its tape stays within the budget.
func TestTapeBudget(t *testing.T) {
	digits := strings.Repeat("0,", 5000) + "0"
	members := ""
	for i := range 200 {
		members += fmt.Sprintf(`"key%d": {"name": "n%d", "value": [1, 2, 3], "more": "%s"},`, i, i, strings.Repeat("x", 40))
	}
	for _, text := range []string{
		`{"digits": [` + digits + `], "objects": {` + strings.TrimSuffix(members, ",") + `}}`,
		`{"objects": {` + strings.TrimSuffix(members, ",") + `}, "digits": [` + digits + `]}`,
		`[` + strings.Repeat("0,", 40) + `0]`,
	} {
		checkIndex(t, []byte(text))
		var ix Index
		if e := new(Checker).Check([]byte(text), 100, &ix); e != nil {
			t.Fatal(e)
		}
		if max := len(text)/tapeRatio + 16; len(ix.tape) > max {
			t.Errorf("%d entries on the tape, budget %d", len(ix.tape), max)
		}
	}
}

func TestJSONIndex(t *testing.T) {
	for _, text := range indexTexts(t) {
		checkIndex(t, text)
	}
}

// FuzzJSONIndex checks the index of any checked text against scanning.
func FuzzJSONIndex(f *testing.F) {
	for _, text := range indexTexts(f) {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkIndex(t, data) })
}

// TestCheckLenientText: with LenientText, strings may hold invalid UTF-8
// and lone surrogates, read as U+FFFD as encoding/json reads them, and
// keys equal once so read are duplicates.
func TestCheckLenientText(t *testing.T) {
	for _, tt := range []struct{ in, problem string }{
		{in: "\"a\xffb\""},
		{in: `"\ud800"`},
		{in: `"\udc00\ud800x"`},
		{in: "{\"\xff\":1,\"\xfe\":2}", problem: "duplicate key \"\uFFFD\""},
		{in: `{"\ud800":1,"\udbff":2}`, problem: "duplicate key \"\uFFFD\""},
		{in: "{\"a\xff\":1,\"a\\ufffd\":2}", problem: "duplicate key \"a\uFFFD\""},
		{in: "\"a\nb\"", problem: "control character in a string at byte 2"},
	} {
		c := Checker{LenientText: true}
		e := c.Check([]byte(tt.in), 10, nil)
		switch {
		case tt.problem == "" && e != nil:
			t.Errorf("%q: %v, want nil", tt.in, e)
		case tt.problem != "" && (e == nil || e.Problem != tt.problem):
			t.Errorf("%q: %v, want %s", tt.in, e, tt.problem)
		}
	}
}

// FuzzUnquoteValid compares AppendUnquotedValid with encoding/json on
// every string LenientText accepts.
func FuzzUnquoteValid(f *testing.F) {
	for _, s := range []string{`"a\u00e9b"`, `"\ud83d\ude00"`, `"\ud800\u0041"`, `"\udc00\ud800"`, "\"\xff\xfe\xc3\"", "\"\xe2\x82\\u00ac\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Checker{LenientText: true}
		if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' || c.Check(data, 1, nil) != nil {
			return
		}
		var want string
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("check accepts %q, encoding/json does not: %v", data, err)
		}
		if got := string(AppendUnquotedValid(nil, data)); got != want {
			t.Fatalf("AppendUnquotedValid(%q) = %q, encoding/json reads %q", data, got, want)
		}
	})
}
