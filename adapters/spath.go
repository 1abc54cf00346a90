package adapters

import "strconv"

// spath is the JSON Pointer of a schema node during a walk, as a chain of
// segments up to the root (nil). The walk makes one small segment per
// node; the pointer's text, which grows with the depth, is built only when
// an error needs it (building it for every node allocated the depth times
// the names' length: 606 bytes per input byte for 240 levels of 2 KB
// property names).
type spath struct {
	up  *spath
	kw  string // "/items", "/properties/", ...
	nm  string // a property or definition name, escaped when joined
	idx int    // an index, when kw is ""
}

func (p *spath) key(kw string) *spath        { return &spath{up: p, kw: kw} }
func (p *spath) name(kw, name string) *spath { return &spath{up: p, kw: kw, nm: name} }
func (p *spath) index(i int) *spath          { return &spath{up: p, idx: i} }

// String is the JSON Pointer ("" for the root).
func (p *spath) String() string {
	var segs []*spath
	for q := p; q != nil; q = q.up {
		segs = append(segs, q)
	}
	var b []byte
	for i := len(segs) - 1; i >= 0; i-- {
		q := segs[i]
		switch {
		case q.kw == "":
			b = append(b, '/')
			b = strconv.AppendInt(b, int64(q.idx), 10)
		default:
			b = append(b, q.kw...)
			b = append(b, pointerEscape(q.nm)...)
		}
	}
	return string(b)
}
