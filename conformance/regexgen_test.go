package conformance

import (
	"math/rand/v2"
	"regexp/syntax"
	"strings"
	"unicode"
)

// regexString returns a random string that the RE2 pattern matches (for an
// unanchored pattern, the generated text itself matches, which is enough),
// or ok=false when the pattern does not parse.
func regexString(r *rand.Rand, pattern string) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	genRegex(r, re.Simplify(), &b, 0)
	return b.String(), true
}

func genRegex(r *rand.Rand, re *syntax.Regexp, b *strings.Builder, depth int) {
	if depth > 20 {
		return
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && r.IntN(2) == 0 {
				c = unicode.SimpleFold(c)
			}
			b.WriteRune(c)
		}
	case syntax.OpCharClass:
		b.WriteRune(pickFromClass(r, re.Rune))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteRune(rune('a' + r.IntN(26)))
	case syntax.OpCapture:
		genRegex(r, re.Sub[0], b, depth+1)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			genRegex(r, s, b, depth+1)
		}
	case syntax.OpAlternate:
		genRegex(r, re.Sub[r.IntN(len(re.Sub))], b, depth+1)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 3
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 {
				hi = lo + 3
			}
		}
		n := lo + r.IntN(hi-lo+1)
		for i := 0; i < n; i++ {
			genRegex(r, re.Sub[0], b, depth+1)
		}
	default:
		// anchors, word boundaries, empty match: nothing to write
	}
}

// pickFromClass picks a rune from a class given as [lo, hi] pairs,
// preferring printable ASCII.
func pickFromClass(r *rand.Rand, ranges []rune) rune {
	var ascii [][2]rune
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo < 0x20 {
			lo = 0x20
		}
		if hi > 0x7e {
			hi = 0x7e
		}
		if lo <= hi {
			ascii = append(ascii, [2]rune{lo, hi})
		}
	}
	if len(ascii) > 0 && r.IntN(8) != 0 {
		p := ascii[r.IntN(len(ascii))]
		return p[0] + rune(r.IntN(int(p[1]-p[0]+1)))
	}
	if len(ranges) < 2 {
		return 'a'
	}
	i := 2 * r.IntN(len(ranges)/2)
	lo, hi := ranges[i], ranges[i+1]
	if hi-lo > 0xffff {
		hi = lo + 0xffff
	}
	c := lo + rune(r.IntN(int(hi-lo+1)))
	if c >= 0xd800 && c <= 0xdfff || c > unicode.MaxRune {
		return lo
	}
	return c
}
