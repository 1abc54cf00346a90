package adapters

// SameShape reports whether the providers named a and b declare one reply
// shape (spec.shape), so that each parser reads the other's replies.
func SameShape(a, b string) bool {
	var sa, sb string
	for _, h := range homes {
		switch h.name {
		case a:
			sa = h.shape
		case b:
			sb = h.shape
		}
	}
	return sa != "" && sa == sb
}

// SetEncoded sets the hook that sees each part's bytes the package
// encodes to base64 (nil to remove it).
func SetEncoded(f func(data []byte)) { encoded = f }

// BodyMark returns where b's history ends, and BodyRewind goes back to
// such a mark: the benchmarks append the same step again and again to a
// history of one length.
func BodyMark(b *Body) (n, size int)  { return b.n, len(b.hist) }
func BodyRewind(b *Body, n, size int) { b.n, b.hist = n, b.hist[:size] }
