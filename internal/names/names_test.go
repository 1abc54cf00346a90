package names

import (
	"regexp"
	"strings"
	"testing"
)

var (
	toolRE = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`)
	keyRE  = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`)
)

// FuzzNames: ValidTool and ValidKey are the providers' patterns, Tool and
// Key always return a valid name or key, and keep a valid one.
func FuzzNames(f *testing.F) {
	for _, s := range []string{"", "a", "get weather", "9lives", "-x", "a.b", "überprüfen", strings.Repeat("x", 70), "first name"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidTool(s) != toolRE.MatchString(s) {
			t.Fatalf("ValidTool(%q) = %v", s, ValidTool(s))
		}
		if ValidKey(s) != keyRE.MatchString(s) {
			t.Fatalf("ValidKey(%q) = %v", s, ValidKey(s))
		}
		if got := Tool(s); !ValidTool(got) || ValidTool(s) && got != s {
			t.Fatalf("Tool(%q) = %q", s, got)
		}
		if got := Key(s); !ValidKey(got) || ValidKey(s) && got != s {
			t.Fatalf("Key(%q) = %q", s, got)
		}
	})
}

// TestMap: unique results, valid names kept, collisions hashed, the
// result independent of the order.
func TestMap(t *testing.T) {
	in := []string{"a b", "a.b", "a_b", "a-b", strings.Repeat("y", 80), strings.Repeat("y", 79) + "z"}
	out := Map("", in, ValidTool, Tool)
	seen := map[string]bool{}
	for i, n := range out {
		if !ValidTool(n) || seen[n] {
			t.Errorf("%q -> %q (valid %v, repeated %v)", in[i], n, ValidTool(n), seen[n])
		}
		seen[n] = true
	}
	if out[2] != "a_b" || out[3] != "a-b" {
		t.Errorf("valid names changed: %q", out)
	}
	rev := Map("", []string{in[5], in[4], in[3], in[2], in[1], in[0]}, ValidTool, Tool)
	for i := range in {
		if rev[len(in)-1-i] != out[i] {
			t.Errorf("order changes %q: %q, then %q", in[i], out[i], rev[len(in)-1-i])
		}
	}
}
