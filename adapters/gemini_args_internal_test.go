package adapters

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// refNode is the plain tree partialArgs were applied to before geminiTree:
// a value per path segment. TestGeminiTreeMatchesPlain holds geminiTree to
// its results.
type refNode struct {
	kind byte
	keys []string
	kids []*refNode
	val  []byte
}

func (root *refNode) apply(segs []geminiSeg, path string, kind byte, val []byte) string {
	if len(segs) == 0 {
		if kind != 0 {
			return "a value for the arguments object itself"
		}
		return ""
	}
	n := root
	for i, sg := range segs {
		want := containerOf(sg)
		if n.kind == 0 {
			n.kind = want
		}
		if n.kind != want {
			return pathPrefix(path, segs, i) + " holds " + kindWhat(n.kind, n.val) + ", not " + containerNames[want]
		}
		var next *refNode
		if want == 'a' {
			switch {
			case sg.index < len(n.kids):
				next = n.kids[sg.index]
			case sg.index == len(n.kids) && kind != 0:
				next = new(refNode)
				n.kids = append(n.kids, next)
			case kind == 0:
				return ""
			default:
				return "index " + strconv.Itoa(sg.index) + " skips ahead: " + pathPrefix(path, segs, i) + " holds " + strconv.Itoa(len(n.kids)) + " element(s) so far"
			}
		} else {
			j := -1
			for k, key := range n.keys {
				if key == sg.key {
					j = k
				}
			}
			switch {
			case j >= 0:
				next = n.kids[j]
			case kind == 0:
				return ""
			default:
				next = new(refNode)
				n.keys = append(n.keys, sg.key)
				n.kids = append(n.kids, next)
			}
		}
		n = next
	}
	switch {
	case kind == 0:
	case n.kind == 0 && kind == 's', kind == 's' && n.kind == 's':
		n.kind = kind
		n.val = append(n.val, val[1:len(val)-1]...)
	case n.kind == 0 || kind == 'v' && n.kind == 'v':
		n.kind = kind
		n.val = append(n.val[:0], val...)
	default:
		if kind == 's' {
			return path + " holds " + kindWhat(n.kind, n.val) + ": a string piece cannot be appended to it"
		}
		return path + " holds " + kindWhat(n.kind, n.val) + ": " + jsonwire.Kind(val) + " cannot replace it"
	}
	return ""
}

func (n *refNode) appendJSON(b []byte) []byte {
	switch n.kind {
	case 'o':
		b = append(b, '{')
		for j, k := range n.keys {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, k), ':')
			b = n.kids[j].appendJSON(b)
		}
		return append(b, '}')
	case 'a':
		b = append(b, '[')
		for j, kid := range n.kids {
			if j > 0 {
				b = append(b, ',')
			}
			b = kid.appendJSON(b)
		}
		return append(b, ']')
	case 's':
		return append(append(append(b, '"'), n.val...), '"')
	}
	return append(b, n.val...)
}

// randomPath is a path of up to depth segments over a few names (in all
// three spellings) and small indexes, so that paths share prefixes,
// leave each other's chains and conflict. A fixed path (four seeds in
// five) is depth segments long, a name or an index by its depth, so that
// it conflicts seldom and the pieces build larger arguments.
func randomPath(r *rand.Rand, depth int, fixed bool) string {
	var b strings.Builder
	b.WriteString("$")
	n := r.IntN(depth + 1)
	if fixed {
		n = depth
	}
	for d := range n {
		kind := r.IntN(5)
		if fixed {
			kind = []int{0, 2, 4, 3, 1, 4}[d%6]
		}
		switch kind {
		case 0, 1:
			b.WriteString("." + string(rune('a'+r.IntN(3))))
		case 2:
			b.WriteString("['" + string(rune('a'+r.IntN(3))) + "']")
		case 3:
			b.WriteString(`["<` + string(rune('a'+r.IntN(2))) + `"]`)
		default:
			i := r.IntN(3)
			if fixed {
				i = r.IntN(2)
			}
			b.WriteString("[" + strconv.Itoa(i) + "]")
		}
	}
	return b.String()
}

// TestGeminiTreeMatchesPlain applies random partialArgs to geminiTree and
// to the plain tree: the same problems, the same arguments, and the size
// geminiTree counts is the arguments' length, after every piece (up to
// the first problem, which fails the stream).
func TestGeminiTreeMatchesPlain(t *testing.T) {
	vals := []struct {
		kind byte
		val  string
	}{{'s', `"x"`}, {'s', `"\u00e9\""`}, {'v', `1`}, {'v', `null`}, {'v', `true`}, {'v', `-12.5e3`}, {0, ``}}
	applied := 0
	for seed := range 2000 {
		r := rand.New(rand.NewPCG(uint64(seed), 1))
		tree, ref := newGeminiTree(), &refNode{kind: 'o'}
		depth, fixed := 1+seed%9, seed%5 != 0
		for step := range 60 {
			path := randomPath(r, depth, fixed)
			segs, problem := parseGeminiPath(nil, path, 500)
			if problem != "" {
				t.Fatalf("seed %d: %s: %s", seed, path, problem)
			}
			v := vals[r.IntN(len(vals))]
			if fixed && v.kind != 0 {
				// One kind of value at each place.
				v = vals[len(path)%2*2+r.IntN(2)]
			}
			got := tree.apply(segs, path, v.kind, []byte(v.val))
			want := ref.apply(segs, path, v.kind, []byte(v.val))
			if got != want {
				t.Fatalf("seed %d step %d: %s = %s: problem %q, the plain tree's %q", seed, step, path, v.val, got, want)
			}
			if got != "" {
				break // the stream fails here (the plain tree kept what it had begun)
			}
			applied++
			args := tree.appendJSON(nil)
			if w := ref.appendJSON(nil); string(args) != string(w) {
				t.Fatalf("seed %d step %d: %s = %s: arguments\n%s\nthe plain tree's\n%s", seed, step, path, v.val, args, w)
			}
			if len(args) != tree.size {
				t.Fatalf("seed %d step %d: size %d, arguments of %d bytes: %s", seed, step, tree.size, len(args), args)
			}
		}
	}
	if applied < 20000 {
		t.Errorf("only %d pieces applied without a problem: the paths conflict too soon to test much", applied)
	}
	t.Logf("%d pieces applied", applied)
}

// TestGeminiTreeNodes: a piece adds at most two nodes however deep its
// path, and wide objects and long arrays are found by name and index.
func TestGeminiTreeNodes(t *testing.T) {
	tree := newGeminiTree()
	deep := strings.Repeat(".a", 400)
	for i := range 300 {
		path := "$.k" + strconv.Itoa(i) + deep + ".z" + strconv.Itoa(i%7)
		segs, _ := parseGeminiPath(nil, path, 500)
		if p := tree.apply(segs, path, 'v', []byte("1")); p != "" {
			t.Fatal(p)
		}
		// The same path again, and a sibling deep inside the chain.
		if p := tree.apply(segs, path, 'v', []byte("2")); p != "" {
			t.Fatal(p)
		}
		side := "$.k" + strconv.Itoa(i) + strings.Repeat(".a", 200) + ".b"
		segs, _ = parseGeminiPath(nil, side, 500)
		if p := tree.apply(segs, side, 's', []byte(`"s"`)); p != "" {
			t.Fatal(p)
		}
	}
	if tree.n > 1+3*300 {
		t.Errorf("%d nodes for 900 pieces of paths 400 deep", tree.n)
	}
	args := tree.appendJSON(nil)
	if len(args) != tree.size {
		t.Errorf("size %d, arguments of %d bytes", tree.size, len(args))
	}
	if !strings.HasPrefix(string(args), `{"k0":{"a":{"a":`) || !strings.Contains(string(args), `"z6":2}`) {
		t.Errorf("arguments %.200s...", args)
	}
}
