// Package names makes tool names and property keys valid for every
// provider, for define (define.SanitizeName, define.WithSanitizedName)
// and integrations/mcp (a remote server's tool names and property keys):
// one implementation of the mapping, so that a name maps alike wherever
// it is made.
package names

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"unicode/utf8"
)

// MaxName is the longest portable tool name and property key, in bytes.
const MaxName = 64

// ValidTool reports whether name matches ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$,
// the tool names every provider accepts (define.ValidateName's rule).
func ValidTool(name string) bool {
	if name == "" || len(name) > MaxName {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && (c == '-' || '0' <= c && c <= '9')) {
			return false
		}
	}
	return true
}

// Tool makes s a valid tool name: each run of characters outside
// [a-zA-Z0-9_-] becomes one "_", a leading digit or "-" gets a "_" before
// it, "" becomes "tool", and a name over MaxName bytes is cut and ends in
// "_" and six hex digits of a hash of s. A valid name is returned as is.
func Tool(s string) string {
	name := ReplaceRuns(s, func(c rune) bool {
		return c == '_' || c == '-' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	})
	switch {
	case name == "":
		return "tool"
	case name[0] == '-' || '0' <= name[0] && name[0] <= '9':
		name = "_" + name
	}
	if len(name) > MaxName {
		return WithHash(name, s, 0)
	}
	return name
}

// ValidKey reports whether k is a property key every provider accepts
// (Anthropic's and Bedrock's ^[a-zA-Z0-9_.-]{1,64}$).
func ValidKey(k string) bool {
	if len(k) == 0 || len(k) > MaxName {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c == '_' || c == '-' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// Key makes k a valid property key, as Tool makes a name (a run of
// characters ValidKey refuses becomes one "_").
func Key(k string) string {
	key := ReplaceRuns(k, func(c rune) bool { return ValidKey(string(c)) })
	if key == "" {
		return "_"
	}
	if len(key) > MaxName {
		return WithHash(key, k, 0)
	}
	return key
}

// Map returns the name of each of origs, with prefix before each: a name
// that valid accepts stays, every other goes through sanitize, and a
// mapped name that another already has gets a hash suffix (WithHash),
// the mapped names taken in sorted order of origs, so that the result
// depends on the set of names, not on their order. origs must not hold a
// name twice.
func Map(prefix string, origs []string, valid func(string) bool, sanitize func(string) string) []string {
	out := make([]string, len(origs))
	taken := make(map[string]bool, len(origs))
	var mapped []int
	for i, r := range origs {
		if cand := prefix + r; valid(cand) {
			out[i] = cand
			taken[cand] = true
			continue
		}
		mapped = append(mapped, i)
	}
	sort.Slice(mapped, func(a, b int) bool { return origs[mapped[a]] < origs[mapped[b]] })
	for _, i := range mapped {
		base := sanitize(prefix + origs[i])
		name := base
		for k := 0; taken[name]; k++ {
			name = WithHash(base, origs[i], k)
		}
		out[i] = name
		taken[name] = true
	}
	return out
}

// WithHash cuts the valid name to leave room for "_" and six hex digits of
// an FNV-1a hash of orig (and of k, the try, when k > 0), and appends
// them.
func WithHash(name, orig string, k int) string {
	h := fnv.New32a()
	h.Write([]byte(orig))
	if k > 0 {
		fmt.Fprintf(h, "\x00%d", k)
	}
	suffix := fmt.Sprintf("_%06x", h.Sum32()&0xffffff)
	if len(name) > MaxName-len(suffix) {
		name = name[:MaxName-len(suffix)] // ASCII only, so any cut is valid
	}
	return name + suffix
}

// ReplaceRuns returns s with each run of characters that are not ASCII or
// that keep refuses replaced by one "_".
func ReplaceRuns(s string, keep func(c rune) bool) string {
	var b strings.Builder
	replaced := false
	for _, c := range s {
		if c < utf8.RuneSelf && keep(c) {
			b.WriteRune(c)
			replaced = false
			continue
		}
		if !replaced {
			b.WriteByte('_')
			replaced = true
		}
	}
	return b.String()
}
