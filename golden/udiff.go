package golden

import (
	"fmt"
	"strconv"
	"strings"
)

// Limits of the unified diff in a failure report.
const (
	// maxEditDistance bounds the line diff's search (Myers' D); past it the
	// lines between the common head and tail are shown as one replacement.
	maxEditDistance = 256
	// maxLineBytes cuts each shown line.
	maxLineBytes = 160
)

// op is one line of a line diff: ' ' kept, '-' only in want, '+' only in got.
type op struct {
	kind byte
	a, b int // line index in want (a) and got (b); for '+' a is the next want line, for '-' b the next got line
}

// lineDiff returns the edit script from a to b as a sequence of ops.
// It trims the common head and tail, then runs Myers' greedy algorithm on
// the rest; when that needs more than maxEditDistance edits, the rest is
// one block removed and one block added.
func lineDiff(a, b []string) []op {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var ops []op
	for i := 0; i < head; i++ {
		ops = append(ops, op{' ', i, i})
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	mid, ok := myers(ma, mb)
	if !ok {
		mid = mid[:0]
		for i := range ma {
			mid = append(mid, op{'-', i, 0})
		}
		for j := range mb {
			mid = append(mid, op{'+', len(ma), j})
		}
	}
	for _, o := range mid {
		ops = append(ops, op{o.kind, o.a + head, o.b + head})
	}
	for k := 0; k < tail; k++ {
		ops = append(ops, op{' ', len(a) - tail + k, len(b) - tail + k})
	}
	return ops
}

// myers is the O((N+M)D) greedy shortest edit script; ok is false when
// D would exceed maxEditDistance.
func myers(a, b []string) (ops []op, ok bool) {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil, true
	}
	maxD := min(n+m, maxEditDistance)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, off, d, n, m), true
			}
		}
	}
	return nil, false
}

// backtrack walks the saved frontiers from (n, m) back to (0, 0).
func backtrack(trace [][]int, off, d, n, m int) []op {
	var rev []op
	x, y := n, m
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, op{' ', x, y})
		}
		if x == prevX {
			y--
			rev = append(rev, op{'+', x, y})
		} else {
			x--
			rev = append(rev, op{'-', x, y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, op{' ', x, y})
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// unified renders the line diff of want and got as unified-diff hunks
// with contextLines lines of context, each hunk headed by the tool (the
// outermost object with a string "name" member) it falls in. It shows at
// most maxLines lines and says how many it left out.
func unified(want, got []string, wantName string, maxLines int) string {
	ops := lineDiff(want, got)
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ rendered\n", wantName)
	shown, hidden := 0, 0
	emit := func(s string) {
		if shown < maxLines {
			b.WriteString(s)
			shown++
		} else {
			hidden++
		}
	}
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from contextLines before this change to contextLines
		// after the last change that is within 2*contextLines of the next.
		start := max(0, i-contextLines)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*contextLines {
				break
			}
		}
		stop := min(len(ops), end+contextLines+1)
		aStart, bStart, aLen, bLen := ops[start].a, ops[start].b, 0, 0
		for _, o := range ops[start:stop] {
			if o.kind != '+' {
				aLen++
			}
			if o.kind != '-' {
				bLen++
			}
		}
		header := fmt.Sprintf("@@ -%s +%s @@", span(aStart, aLen), span(bStart, bLen))
		first := ops[i]
		tool := toolAt(got, first.b)
		if first.kind == '-' {
			tool = toolAt(want, first.a)
		}
		if tool != "" {
			header += " tool " + strconv.Quote(tool)
		}
		emit(header + "\n")
		for _, o := range ops[start:stop] {
			line := ""
			if o.kind == '+' {
				line = got[o.b]
			} else {
				line = want[o.a]
			}
			emit(string(o.kind) + cutLine(line) + "\n")
		}
		i = stop
	}
	if hidden > 0 {
		fmt.Fprintf(&b, "... (%d more diff lines)\n", hidden)
	}
	return b.String()
}

// span renders a hunk range the way diff -u does (1-based start).
func span(start, n int) string {
	if n == 0 {
		return strconv.Itoa(start) + ",0"
	}
	if n == 1 {
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(n)
}

func cutLine(s string) string {
	if len(s) <= maxLineBytes {
		return s
	}
	return s[:maxLineBytes-3] + "..."
}

// toolAt finds the tool that line i of an indented JSON text (two spaces
// a level, as [Marshal] and json.Indent write it) lies in: the outermost
// enclosing object with a member "name" holding a string. Scanning back,
// a line indented less than the current level opens the enclosing
// container; lines at the current level are members of the same one.
func toolAt(lines []string, i int) string {
	if i >= len(lines) {
		i = len(lines) - 1
	}
	if i < 0 {
		return ""
	}
	found := ""
	level := indent(lines[i])
	for j := i; j >= 0; j-- {
		in := indent(lines[j])
		if in > level {
			continue
		}
		if in < level {
			level = in
		}
		if name, ok := nameMember(lines[j][in:]); ok {
			found = name
		}
	}
	return found
}

func indent(s string) int {
	return len(s) - len(strings.TrimLeft(s, " "))
}

// nameMember reports whether a trimmed line is `"name": "..."` (with or
// without a trailing comma), and the string.
func nameMember(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, `"name": "`)
	if !ok {
		return "", false
	}
	rest = strings.TrimSuffix(rest, ",")
	name, err := strconv.Unquote(`"` + rest)
	if err != nil {
		return "", false
	}
	return name, true
}
