package adapters

import (
	"hash/maphash"
	"strconv"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// geminiTree is the arguments object of a call whose arguments Vertex AI
// streams (partialArgs), built from its pieces: each sets (or, for a
// string, appends to) the value at a JSON path.
//
// A path costs a few bytes a segment ("$.a.a.a..."), and a value per
// segment would cost a hundred; so a chain of values that each hold one
// member or element, which is what a path to a new value makes, is one
// node holding the chain's path text (its edge), and is split where a
// later path leaves it. A piece so adds at most two nodes, whatever its
// path's depth. The tree also counts the bytes the arguments take as
// compact JSON (size) as it grows, so that a stream whose arguments would
// pass the reply limit fails at the piece that passes it.
type geminiTree struct {
	// blocks hold the nodes, geminiBlock a block (so that the nodes are
	// never copied as they grow); node 0 is the arguments object.
	blocks [][]geminiNode
	n      int32 // the nodes
	size   int   // the compact JSON bytes of the arguments
	// wide finds the members of the objects that have more than wideFrom
	// by their parent and name: open addressing, at a load of at most
	// three quarters, of node indexes plus one (0 is an empty slot).
	wide   []int32
	inWide int    // the members in wide
	closer []byte // appendJSON's closing brackets, reused
}

const (
	geminiBlock = 64
	// wideFrom is the number of members from which an object's are found
	// by name in wide rather than by comparing each.
	wideFrom = 8
)

// geminiNode is a value of the arguments, at the end of its edge.
type geminiNode struct {
	// edge is the path text of the segments from the parent to the value:
	// its first segment (the member's name or the element's index in the
	// parent), then those of the values between, each of which holds one
	// member or element only. "" for the arguments object.
	edge   string
	kids   []int32 // an object's members or an array's elements, in order
	val    []byte  // a string's inside as sent (escaped), or another value's JSON
	parent int32   // the node that holds it
	kind   byte    // 'o' object, 'a' array, 's' string, 'v' another value
}

func newGeminiTree() geminiTree {
	t := geminiTree{size: len("{}")}
	t.add(geminiNode{kind: 'o'})
	return t
}

// node returns node i.
func (t *geminiTree) node(i int32) *geminiNode {
	return &t.blocks[i/geminiBlock][i%geminiBlock]
}

// add appends the node n and returns its index.
func (t *geminiTree) add(n geminiNode) int32 {
	if t.n%geminiBlock == 0 {
		t.blocks = append(t.blocks, make([]geminiNode, geminiBlock))
	}
	i := t.n
	*t.node(i) = n
	t.n++
	return i
}

// slot is where the member named key of node parent is, or goes, in wide.
func (t *geminiTree) slot(parent int32, key string) int {
	h := uint32(maphash.String(wideSeed, key)) ^ uint32(parent)*0x9e3779b9
	i := int(uint64(h) * uint64(len(t.wide)) >> 32)
	for {
		k := t.wide[i]
		if k == 0 {
			return i
		}
		if n := t.node(k - 1); n.parent == parent && firstSeg(n.edge).key == key {
			return i
		}
		if i++; i == len(t.wide) {
			i = 0
		}
	}
}

// index puts the member k (a node whose parent is wide) in wide.
func (t *geminiTree) index(k int32) {
	if 4*(t.inWide+1) > 3*len(t.wide) {
		old := t.wide
		t.wide = make([]int32, 2*len(old)+64)
		for _, m := range old {
			if m != 0 {
				n := t.node(m - 1)
				t.wide[t.slot(n.parent, firstSeg(n.edge).key)] = m
			}
		}
	}
	n := t.node(k)
	i := t.slot(n.parent, firstSeg(n.edge).key)
	if t.wide[i] == 0 {
		t.inWide++
	}
	t.wide[i] = k + 1
}

var wideSeed = maphash.MakeSeed()

// firstSeg parses the first segment of the edge e (which is not "").
func firstSeg(e string) geminiSeg {
	sg, _ := nextGeminiSeg(e, 0) // an edge is text of a path that parsed
	return sg
}

// segCost is the bytes the segment sg adds to the compact JSON of the
// value that holds it: a member's name and colon, nothing for an element.
func segCost(sg geminiSeg) int {
	if sg.index >= 0 {
		return 0
	}
	return quotedLen(sg.key) + 1
}

// quotedLen is the length of appendString(nil, s).
func quotedLen(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return len(appendString(nil, s))
		}
	}
	return len(s) + 2
}

// child returns the member (sg a name) or element (sg an index) of node n
// that sg names, -1 when there is none.
func (t *geminiTree) child(n int32, sg geminiSeg) int32 {
	kids := t.node(n).kids
	if sg.index >= 0 {
		if sg.index < len(kids) {
			return kids[sg.index]
		}
		return -1
	}
	if len(kids) > wideFrom {
		return t.wide[t.slot(n, sg.key)] - 1
	}
	for _, k := range kids {
		if firstSeg(t.node(k).edge).key == sg.key {
			return k
		}
	}
	return -1
}

// addKid appends the node k as the last member or element of n.
func (t *geminiTree) addKid(n, k int32) {
	node := t.node(n)
	if len(node.kids) > 0 {
		t.size++ // a comma
	}
	if len(node.kids) == cap(node.kids) {
		node.kids = append(make([]int32, 0, 2*cap(node.kids)+1), node.kids...)
	}
	node.kids = append(node.kids, k)
	t.node(k).parent = n
	switch {
	case node.kind != 'o' || len(node.kids) <= wideFrom:
	case len(node.kids) == wideFrom+1:
		for _, kid := range node.kids {
			t.index(kid)
		}
	default:
		t.index(k)
	}
}

// what names the kind of node n's value in an error.
func (t *geminiTree) what(n int32) string {
	return kindWhat(t.node(n).kind, t.node(n).val)
}

func kindWhat(kind byte, val []byte) string {
	switch kind {
	case 'o':
		return "an object"
	case 'a':
		return "an array"
	case 's':
		return "a string"
	}
	return jsonwire.Kind(val)
}

// containerOf is the kind of value that a segment is read in: an object
// for a name, an array for an index.
func containerOf(sg geminiSeg) byte {
	if sg.index >= 0 {
		return 'a'
	}
	return 'o'
}

var containerNames = map[byte]string{'o': "an object", 'a': "an array"}

// apply sets (or, for a string, appends to) the value at the path segs
// (path's text, whose segments they are, for errors and edges) to the
// JSON value val of kind ('s' or 'v'); kind 0 (no value) only checks the
// path against what is there. It returns what is wrong, "" when nothing.
func (t *geminiTree) apply(segs []geminiSeg, path string, kind byte, val []byte) string {
	if len(segs) == 0 {
		if kind != 0 {
			return "a value for the arguments object itself"
		}
		return ""
	}
	n := int32(0)
	for i := 0; ; {
		if i == len(segs) {
			return t.set(n, path, kind, val)
		}
		sg := segs[i]
		want := containerOf(sg)
		if got := t.node(n).kind; got != want {
			return pathPrefix(path, segs, i) + " holds " + t.what(n) + ", not " + containerNames[want]
		}
		c := t.child(n, sg)
		if c < 0 {
			if kind == 0 {
				return ""
			}
			if kids := len(t.node(n).kids); sg.index > kids {
				return "index " + strconv.Itoa(sg.index) + " skips ahead: " + pathPrefix(path, segs, i) + " holds " + strconv.Itoa(kids) + " element(s) so far"
			}
			return t.grow(n, segs, i, path, kind, val)
		}
		// Follow c's edge, past its first segment, along the path.
		e := t.node(c).edge
		at := firstSeg(e).end
		j := i + 1
		for at < len(e) {
			esg := firstSegAt(e, at)
			if j == len(segs) {
				// The path ends at a value inside the edge: an object or
				// an array of one member or element.
				return t.conflict(path, containerOf(esg), nil, kind, val)
			}
			if !sameSeg(esg, segs[j]) {
				// The path leaves the edge here: the value before esg
				// becomes a node of its own, which holds c.
				c = t.split(n, c, at, containerOf(esg))
				break
			}
			at, j = esg.end, j+1
		}
		n, i = c, j
	}
}

// firstSegAt parses the segment of the edge e at byte at.
func firstSegAt(e string, at int) geminiSeg {
	sg, _ := nextGeminiSeg(e, at)
	return sg
}

func sameSeg(a, b geminiSeg) bool {
	return a.index == b.index && (a.index >= 0 || a.key == b.key)
}

// split cuts the edge of node c, a member or element of n, before its
// segment at byte at: the values on the edge before it become a node of
// kind, whose one member or element is c. It returns the new node.
func (t *geminiTree) split(n, c int32, at int, kind byte) int32 {
	e := t.node(c).edge
	slot := -1
	if t.node(n).kind == 'o' && len(t.node(n).kids) > wideFrom {
		slot = t.slot(n, firstSeg(e).key) // c's, which becomes m's
	}
	m := t.add(geminiNode{edge: e[:at], kind: kind, kids: []int32{c}, parent: n})
	t.node(c).edge, t.node(c).parent = e[at:], m
	kids := t.node(n).kids
	for i, k := range kids {
		if k == c {
			kids[i] = m
			break
		}
	}
	if slot >= 0 {
		t.wide[slot] = m + 1
	}
	return m
}

// grow adds the path segs[i:] under node n, which holds nothing at
// segs[i], as one new node (its edge the path's text from segs[i]) of the
// value val. The values it passes through are new, so each index after
// the first must be 0.
func (t *geminiTree) grow(n int32, segs []geminiSeg, i int, path string, kind byte, val []byte) string {
	from := 1 // the byte after "$"
	if i > 0 {
		from = segs[i-1].end
	}
	size := segCost(segs[i])
	for k := i + 1; k < len(segs); k++ {
		if segs[k].index > 0 {
			return "index " + strconv.Itoa(segs[k].index) + " skips ahead: " + pathPrefix(path, segs, k) + " holds 0 element(s) so far"
		}
		size += 2 + segCost(segs[k]) // the value between: its brackets, and its one member's name
	}
	size += len(val) // a string's quotes and inside as sent, or the value
	node := geminiNode{edge: path[from:], kind: kind}
	if kind == 's' {
		node.val = append(make([]byte, 0, len(val)-2), val[1:len(val)-1]...)
	} else {
		node.val = append(make([]byte, 0, len(val)), val...)
	}
	k := t.add(node)
	t.addKid(n, k)
	t.size += size
	return ""
}

// set applies the value val of kind to node n, at the end of path.
func (t *geminiTree) set(n int32, path string, kind byte, val []byte) string {
	node := t.node(n)
	switch {
	case kind == 0:
	case n == 0:
		return "a value for the arguments object itself"
	case kind == 's' && node.kind == 's':
		node.val = append(node.val, val[1:len(val)-1]...)
		t.size += len(val) - 2
	case kind == 'v' && node.kind == 'v':
		t.size += len(val) - len(node.val)
		node.val = append(node.val[:0], val...)
	default:
		return t.conflict(path, node.kind, node.val, kind, val)
	}
	return ""
}

// conflict is the problem of the value val of kind applied at path,
// which holds a value of kind has (hval its JSON, for another value).
func (t *geminiTree) conflict(path string, has byte, hval []byte, kind byte, val []byte) string {
	switch {
	case kind == 0:
		return ""
	case kind == 's':
		return path + " holds " + kindWhat(has, hval) + ": a string piece cannot be appended to it"
	}
	return path + " holds " + kindWhat(has, hval) + ": " + jsonwire.Kind(val) + " cannot replace it"
}

// appendJSON appends the arguments as compact JSON: t.size bytes.
func (t *geminiTree) appendJSON(b []byte) []byte {
	return t.appendNode(b, 0)
}

// appendNode appends node n's value.
func (t *geminiTree) appendNode(b []byte, n int32) []byte {
	node := t.node(n)
	switch node.kind {
	case 'o', 'a':
		open, closing := byte('{'), byte('}')
		if node.kind == 'a' {
			open, closing = '[', ']'
		}
		b = append(b, open)
		for i, k := range node.kids {
			if i > 0 {
				b = append(b, ',')
			}
			b = t.appendKid(b, k)
		}
		return append(b, closing)
	case 's':
		return append(append(append(b, '"'), node.val...), '"')
	}
	return append(b, node.val...)
}

// appendKid appends the member or element k: its edge's name, the values
// on its edge, and its value.
func (t *geminiTree) appendKid(b []byte, k int32) []byte {
	e := t.node(k).edge
	sg := firstSeg(e)
	if sg.index < 0 {
		b = append(appendString(b, sg.key), ':')
	}
	depth := len(t.closer)
	for at := sg.end; at < len(e); {
		esg := firstSegAt(e, at)
		if esg.index >= 0 {
			b = append(b, '[')
			t.closer = append(t.closer, ']')
		} else {
			b = append(appendString(append(b, '{'), esg.key), ':')
			t.closer = append(t.closer, '}')
		}
		at = esg.end
	}
	b = t.appendNode(b, k)
	for i := len(t.closer) - 1; i >= depth; i-- {
		b = append(b, t.closer[i])
	}
	t.closer = t.closer[:depth]
	return b
}
