package reflectx

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/formats"
)

// pattern is a compiled pattern tag. Patterns of fixed length made of
// character classes and literals, anchored at both ends (`^[A-Z]{3}$`,
// `^\d{4}-\d{2}-\d{2}$`), the common case in tool arguments, are matched by
// a plain loop over the runes; every other pattern goes to regexp.
type pattern struct {
	re    *regexp.Regexp
	fixed [][]rune // one class (lo, hi pairs) per rune; nil: use re
	// ascii holds fixed as bitmaps of the bytes 0-127 when every class
	// is within ASCII (`^[A-Z]{3}$`): a string then matches iff it has
	// one ASCII byte per class, each in its class, tested with a shift
	// and a mask. nil otherwise.
	ascii [][2]uint64
}

func compilePattern(expr string) (*pattern, error) {
	re, err := formats.Regexp(expr)
	if err != nil {
		return nil, err
	}
	return newPattern(re, expr), nil
}

// newPattern returns the pattern of expr, compiled to re.
func newPattern(re *regexp.Regexp, expr string) *pattern {
	p := &pattern{re: re, fixed: fixedClasses(expr)}
	p.ascii = asciiClasses(p.fixed)
	return p
}

// asciiClasses returns fixed as bitmaps when every class is within ASCII,
// else nil.
func asciiClasses(fixed [][]rune) [][2]uint64 {
	if fixed == nil {
		return nil
	}
	out := make([][2]uint64, len(fixed))
	for i, class := range fixed {
		for k := 0; k+1 < len(class); k += 2 {
			lo, hi := class[k], class[k+1]
			if lo < 0 || hi >= utf8.RuneSelf {
				return nil
			}
			for r := lo; r <= hi; r++ {
				out[i][r>>6] |= 1 << (r & 63)
			}
		}
	}
	return out
}

// maxFixed bounds the length of patterns matched by the loop.
const maxFixed = 64

// fixedClasses returns the per-rune classes of a fixed-length anchored
// pattern, or nil when the pattern is anything else.
func fixedClasses(expr string) [][]rune {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) < 2 {
		return nil
	}
	subs := re.Sub
	if subs[0].Op != syntax.OpBeginText || subs[len(subs)-1].Op != syntax.OpEndText {
		return nil
	}
	var out [][]rune
	add := func(class []rune, n int) bool {
		if len(out)+n > maxFixed {
			return false
		}
		for i := 0; i < n; i++ {
			out = append(out, class)
		}
		return true
	}
	for _, s := range subs[1 : len(subs)-1] {
		n := 1
		if s.Op == syntax.OpRepeat {
			if s.Min != s.Max || s.Min < 0 {
				return nil
			}
			n, s = s.Min, s.Sub[0]
		}
		var ok bool
		switch s.Op {
		case syntax.OpLiteral:
			if s.Flags&syntax.FoldCase != 0 {
				return nil
			}
			ok = true
			for _, r := range s.Rune {
				for i := 0; i < n && ok; i++ {
					ok = add([]rune{r, r}, 1)
				}
			}
		case syntax.OpCharClass:
			ok = add(s.Rune, n)
		default:
			return nil
		}
		if !ok {
			return nil
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// match reports whether s matches the pattern.
func (p *pattern) match(s string) bool {
	if p.ascii != nil {
		// A rune outside ASCII is in no class: one byte per class.
		if len(s) != len(p.ascii) {
			return false
		}
		for i, set := range p.ascii {
			c := s[i]
			if c >= utf8.RuneSelf || set[c>>6]&(1<<(c&63)) == 0 {
				return false
			}
		}
		return true
	}
	if p.fixed == nil {
		return p.re.MatchString(s)
	}
	i := 0
	for _, class := range p.fixed {
		if i >= len(s) {
			return false
		}
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		in := false
		for k := 0; k+1 < len(class); k += 2 {
			if class[k] <= r && r <= class[k+1] {
				in = true
				break
			}
		}
		if !in {
			return false
		}
	}
	return i == len(s)
}
