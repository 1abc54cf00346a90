package reflectx

import (
	"regexp"
	"testing"
)

var patternCases = []struct {
	expr  string
	fixed bool // matched by the loop, not by regexp
	ascii bool // and by the ASCII bitmaps
}{
	{`^[A-Z]{3}$`, true, true},
	{`^\d{4}-\d{2}-\d{2}$`, true, true},
	{`^ab[^c]\w$`, true, false}, // [^c] reaches beyond ASCII
	{`^é.{2}$`, false, false},   // . is not a class in syntax.Parse (OpAnyCharNotNL)
	{`^[a-z]+$`, false, false},
	{`[A-Z]{3}`, false, false}, // unanchored
	{`^(?i)abc$`, false, false},
	{`^[A-Z]{2,3}$`, false, false},
	{`^a|b$`, false, false},
	{`^\p{Greek}{2}$`, true, false},
	{`^[\x00-\x7f][~]$`, true, true},
}

var patternInputs = []string{"", "FRA", "fra", "FRAN", "FR", "2026-03-14", "2026-3-14", "abd1", "abc1", "ab\xffx", "abé_",
	"é12", "éab", "αβ", "αβγ", "Aé", "ABC\n", "\nABC", "A\x00C",
	"\x7f~", "\x80~", "\u0080~", "A\x00", "Z\x7f~"}

// TestPatternFastPath checks that the loop and regexp agree.
func TestPatternFastPath(t *testing.T) {
	for _, pc := range patternCases {
		p, err := compilePattern(pc.expr)
		if err != nil {
			t.Fatal(err)
		}
		if (p.fixed != nil) != pc.fixed {
			t.Errorf("compilePattern(%q).fixed = %v, want fixed %v", pc.expr, p.fixed, pc.fixed)
		}
		if (p.ascii != nil) != pc.ascii {
			t.Errorf("compilePattern(%q).ascii = %v, want ascii %v", pc.expr, p.ascii, pc.ascii)
		}
		re := regexp.MustCompile(pc.expr)
		for _, s := range patternInputs {
			if got, want := p.match(s), re.MatchString(s); got != want {
				t.Errorf("pattern %q match(%q) = %v, regexp says %v", pc.expr, s, got, want)
			}
		}
	}
}

// FuzzPatternFastPath checks that the loop agrees with regexp on any
// pattern it takes and any string.
func FuzzPatternFastPath(f *testing.F) {
	for _, pc := range patternCases {
		for _, s := range patternInputs {
			f.Add(pc.expr, s)
		}
	}
	f.Fuzz(func(t *testing.T, expr, s string) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		p, err := compilePattern(expr)
		if err != nil {
			t.Fatalf("compilePattern(%q): %v, but regexp compiles it", expr, err)
		}
		if got, want := p.match(s), re.MatchString(s); got != want {
			t.Fatalf("pattern %q match(%q) = %v, regexp says %v", expr, s, got, want)
		}
	})
}
