// Package echo cuts text from untrusted input (keys, paths, values, panic
// messages) before an error message repeats it, so that the size of an
// error message never follows the size of the input.
package echo

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Marker ends text that was cut; the full length follows it, as in
// "abc… (4194304 bytes)".
const Marker = "…"

// Cut returns s whole if it is at most max bytes long, else its first
// bytes, up to max and cut at a UTF-8 boundary, then Marker and the full
// length. Only the kept bytes are copied.
func Cut[T ~string | ~[]byte](s T, max int) string {
	if len(s) <= max {
		return string(s)
	}
	return string(Append(nil, s, max))
}

// Keep returns how many bytes of s a cut to max keeps: all of s when it
// is at most max bytes long, else at most max, ending at a UTF-8 boundary.
func Keep[T ~string | ~[]byte](s T, max int) int {
	if len(s) <= max {
		return len(s)
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// Append appends s to b as [Cut] renders it.
func Append[T ~string | ~[]byte](b []byte, s T, max int) []byte {
	if len(s) <= max {
		return append(b, s...)
	}
	b = append(b, s[:Keep(s, max)]...)
	b = append(b, Marker+" ("...)
	b = strconv.AppendInt(b, int64(len(s)), 10)
	return append(b, " bytes)"...)
}

// Value renders v as %v does, cut as [Cut] does. A string or an error's
// message is cut without being copied whole first.
func Value(v any, max int) string {
	switch x := v.(type) {
	case string:
		return Cut(x, max)
	case error:
		return Cut(x.Error(), max)
	case fmt.Stringer:
		return Cut(x.String(), max)
	}
	return Cut(fmt.Sprint(v), max)
}

// Quote returns s quoted as strconv.Quote does when it is at most max
// bytes long, else its first bytes quoted, then Marker and the full
// length: "abc"… (4194304 bytes).
func Quote(s string, max int) string {
	if len(s) <= max {
		return strconv.Quote(s)
	}
	b := strconv.AppendQuote(nil, s[:Keep(s, max)])
	b = append(b, Marker+" ("...)
	b = strconv.AppendInt(b, int64(len(s)), 10)
	return string(append(b, " bytes)"...))
}
