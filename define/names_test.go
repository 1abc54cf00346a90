package define_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/define"
)

// TestWithSanitizedName: a name providers refuse is made valid, and the
// name as given is kept.
func TestWithSanitizedName(t *testing.T) {
	h := func(context.Context, json.RawMessage) (any, error) { return "ok", nil }
	doc := json.RawMessage(`{"type":"object"}`)
	if _, err := define.NewTool("get weather", doc, h); err == nil {
		t.Fatal(`NewTool("get weather") without the option: no error`)
	}
	for _, tc := range []struct{ given, want string }{
		{"get weather", "get_weather"},
		{"files.read", "files_read"},
		{"überprüfen", "_berpr_fen"},
		{"9lives", "_9lives"},
		{"-x", "_-x"},
		{"a  b\tc", "a_b_c"},
		{"", "tool"},
		{strings.Repeat("x", 100), ""}, // cut, with a hash: checked below
		{"plain_name", "plain_name"},
	} {
		tool, err := define.NewTool(tc.given, doc, h, define.WithSanitizedName())
		if err != nil {
			t.Errorf("NewTool(%q): %v", tc.given, err)
			continue
		}
		if tc.want == "" {
			tc.want = define.SanitizeName(tc.given)
			if len(tc.want) != 64 || !strings.HasPrefix(tc.want, strings.Repeat("x", 57)+"_") {
				t.Errorf("SanitizeName(100 x) = %q, want 57 x, _ and six hex digits", tc.want)
			}
		}
		if tool.Name() != tc.want {
			t.Errorf("NewTool(%q).Name() = %q, want %q", tc.given, tool.Name(), tc.want)
		}
		if tool.OriginalName() != tc.given && tc.given != "" {
			t.Errorf("NewTool(%q).OriginalName() = %q", tc.given, tool.OriginalName())
		}
	}
	typed, err := define.DefineTool(func(context.Context, struct{}) (string, error) { return "", nil },
		define.WithName("a.b"), define.WithSanitizedName())
	if err != nil || typed.Name() != "a_b" || typed.OriginalName() != "a.b" {
		t.Errorf("DefineTool(WithName(a.b)) = %q (original %q), %v", typed.Name(), typed.OriginalName(), err)
	}
	plain := define.MustDefineTool(func(context.Context, struct{}) (string, error) { return "", nil }, define.WithName("ok"))
	if plain.OriginalName() != "ok" || (define.Tool{}).OriginalName() != "" {
		t.Errorf("OriginalName of a valid name %q, of the zero Tool %q", plain.OriginalName(), (define.Tool{}).OriginalName())
	}
	if got := define.WithSanitizedName().String(); got != "WithSanitizedName()" {
		t.Errorf("String() = %q", got)
	}
}

// TestSanitizeNames: a set of names maps to unique valid names, the same
// whatever their order; valid names stay.
func TestSanitizeNames(t *testing.T) {
	list := []string{"a b", "a.b", "a_b", strings.Repeat("x", 100), strings.Repeat("x", 99) + "y", "get weather", "ok"}
	got := define.SanitizeNames("p_", list)
	seen := map[string]bool{}
	for i, n := range got {
		if err := define.ValidateName(n); err != nil {
			t.Errorf("%q -> %q: %v", list[i], n, err)
		}
		if seen[n] {
			t.Errorf("%q maps to %q twice", list[i], n)
		}
		seen[n] = true
	}
	if got[2] != "p_a_b" || got[6] != "p_ok" || got[5] != "p_get_weather" {
		t.Errorf("SanitizeNames = %q", got)
	}
	rev := slices.Clone(list)
	slices.Reverse(rev)
	back := define.SanitizeNames("p_", rev)
	slices.Reverse(back)
	if !slices.Equal(got, back) {
		t.Errorf("order changes the mapping:\n%q\n%q", got, back)
	}
}

// FuzzSanitizeName: any name becomes valid, and a valid one is kept.
func FuzzSanitizeName(f *testing.F) {
	for _, s := range []string{"", "get weather", "9", "-", "überprüfen", strings.Repeat("é", 70), "ok_name-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := define.SanitizeName(s)
		if err := define.ValidateName(got); err != nil {
			t.Fatalf("SanitizeName(%q) = %q: %v", s, got, err)
		}
		if define.ValidateName(s) == nil && got != s {
			t.Fatalf("SanitizeName(%q) = %q, want a valid name kept", s, got)
		}
	})
}
