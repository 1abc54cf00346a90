package reflectx

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// keyed has names the key fast path takes (verbatim) and one it must
// leave to the general path (non-ASCII); "a" is a prefix of "ab".
type keyed struct {
	A    string `json:"a,omitempty"`
	AB   string `json:"ab,omitempty"`
	Uni  string `json:"été,omitempty"`
	Last int    `json:"last,omitempty"`
}

// TestObjectKeys decodes keys in and out of the struct's order, spelled
// as is and with escapes, and checks that each lands in its field and that
// repeats and unknown keys are still reported whichever path read them.
func TestObjectKeys(t *testing.T) {
	p := mustPlan(t, reflect.TypeFor[keyed]())
	all := keyed{A: "1", AB: "2", Uni: "5", Last: 6}
	ok := []struct {
		name, json string
		want       keyed
	}{
		{"in order", `{"a":"1","ab":"2","été":"5","last":6}`, all},
		{"reversed", `{"last":6,"été":"5","ab":"2","a":"1"}`, all},
		{"escaped names", `{"\u0061":"1","a\u0062":"2","\u00e9t\u00e9":"5","l\u0061st":6}`, all},
		{"whitespace", "{ \"a\" :\t\"1\" ,\n\"ab\"\n:\"2\"}", keyed{A: "1", AB: "2"}},
		{"prefix first", `{"ab":"2","a":"1"}`, keyed{A: "1", AB: "2"}},
		{"skip a field", `{"a":"1","last":6}`, keyed{A: "1", Last: 6}},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			var got keyed
			if err := p.DecodeJSON(unsafe.Pointer(&got), []byte(c.json)); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	bad := []struct {
		name, json string
		want       []wantErr
	}{
		{"repeat verbatim", `{"a":"1","a":"2"}`, []wantErr{{"/a", ErrDuplicateKey}}},
		{"repeat escaped", `{"a":"1","\u0061":"2"}`, []wantErr{{"/a", ErrDuplicateKey}}},
		{"longer key", `{"abc":"1"}`, []wantErr{{"/abc", ErrUnknownField}}},
		{"shorter key", `{"":"1"}`, []wantErr{{"/", ErrUnknownField}}},
		{"no colon", `{"a" "1"}`, []wantErr{{"", ErrSyntax}}},
		{"cut after key", `{"a"`, []wantErr{{"", ErrSyntax}}},
		{"cut in key", `{"a`, []wantErr{{"", ErrSyntax}}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			var got keyed
			err := p.DecodeJSON(unsafe.Pointer(&got), []byte(c.json))
			var errs *ArgErrors
			if !errors.As(err, &errs) {
				t.Fatalf("got %v, want *ArgErrors", err)
			}
			var want, gotW []string
			for _, w := range c.want {
				want = append(want, w.String())
			}
			for _, e := range errs.Errs {
				for _, w := range c.want {
					if errors.Is(e, w.err) {
						gotW = append(gotW, wantErr{e.Path, w.err}.String())
					}
				}
			}
			if diff := cmp.Diff(want, gotW); diff != "" {
				t.Errorf("%v: (-want +got)\n%s", err, diff)
			}
		})
	}
}

func TestVerbatimName(t *testing.T) {
	for name, want := range map[string]bool{"": true, "max_price": true, "a b": true, `q"`: false, `s\`: false, "été": false, "a\x01": false, "\x7f": false} {
		if got := verbatimName(name); got != want {
			t.Errorf("verbatimName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestArenaHint checks that a plan learns the bytes of strings its last
// JSON decode copied, and that a decode needing more than the hint, or
// less, still gets every string right.
func TestArenaHint(t *testing.T) {
	type strs struct {
		A string   `json:"a"`
		B []string `json:"b"`
	}
	p := mustPlan(t, reflect.TypeFor[strs]())
	long := strings.Repeat("x", 300)
	for _, c := range []struct {
		json string
		want strs
		hint int32
	}{
		{`{"a":"abc","b":["de","f"]}`, strs{A: "abc", B: []string{"de", "f"}}, 6},
		{`{"a":"` + long + `","b":["` + long + `","g"]}`, strs{A: long, B: []string{long, "g"}}, arenaChunk},
		{`{"a":"","b":[]}`, strs{B: []string{}}, 0},
		{`{"a":"h\u00e9","b":["ij"]}`, strs{A: "hé", B: []string{"ij"}}, 5},
	} {
		var got strs
		if err := p.DecodeJSON(unsafe.Pointer(&got), []byte(c.json)); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%.40s: (-want +got)\n%s", c.json, diff)
		}
		if h := p.arenaHint.Load(); h != c.hint {
			t.Errorf("%.40s: hint %d, want %d", c.json, h, c.hint)
		}
	}
}
