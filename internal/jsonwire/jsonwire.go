// Package jsonwire holds what every JSON reader of the library shares: the
// nesting limit, the cap on reported problems, JSON Pointer (RFC 6901)
// paths, the notation of every error path the library reports (argument
// errors, reply errors, schema rendering errors), the strict check of a
// JSON text ([Check], [Checker]) and the readers of checked text ([Index],
// [Members], [Elems], [Text], [Compact], ...), which the reply parsers of
// package adapters and schema.Parse use.
//
//	path := jsonwire.AppendToken([]byte("/properties"), "a/b") // "/properties/a~1b"
package jsonwire

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// MaxDepth is the deepest nesting of arrays and objects the readers accept
// by default: the decoders of tool arguments, the reply parsers and
// schema.Parse. Each of their public limits (reflectx.MaxDepth,
// adapters.DefaultMaxReplyDepth, schema.MaxParseDepth) is this constant.
const MaxDepth = 512

// MaxErrors is how many problems one capped error list keeps (the
// argument errors of one call, the rendering errors of one ToX call); the
// rest are counted.
const MaxErrors = 20

// AppendToken appends "/" and key, escaped as one JSON Pointer reference
// token: "~" as "~0" and "/" as "~1".
func AppendToken(dst []byte, key string) []byte {
	dst = append(dst, '/')
	return appendEscaped(dst, key)
}

// AppendIndex appends "/" and the array index i.
func AppendIndex(dst []byte, i int) []byte {
	return strconv.AppendInt(append(dst, '/'), int64(i), 10)
}

// EscapeToken returns key escaped as one JSON Pointer reference token,
// without the leading "/".
func EscapeToken(key string) string {
	if !strings.ContainsAny(key, "~/") {
		return key
	}
	return string(appendEscaped(make([]byte, 0, len(key)+2), key))
}

// UnescapeToken undoes EscapeToken: "~1" is "/", then "~0" is "~".
func UnescapeToken(tok string) string {
	if !strings.Contains(tok, "~") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}

// Quote quotes s for an error message, cut to n bytes with "..." after
// the quote when longer.
func Quote(s string, n int) string {
	if len(s) > n {
		return strconv.Quote(s[:n]) + "..."
	}
	return strconv.Quote(s)
}

func appendEscaped(dst []byte, key string) []byte {
	for i := 0; i < len(key); i++ {
		switch c := key[i]; c {
		case '~':
			dst = append(dst, "~0"...)
		case '/':
			dst = append(dst, "~1"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// Capped is a list of problems that keeps MaxErrors of them and counts the
// rest in Omitted: the argument errors of one decode, the rendering
// errors of one ToX call. The zero value is empty.
type Capped[E any] struct {
	Errs    []E
	Omitted int
}

// Full reports whether the list keeps no more problems: a further one is
// only counted.
func (c *Capped[E]) Full() bool { return len(c.Errs) >= MaxErrors }

// Room returns how many more problems the list keeps.
func (c *Capped[E]) Room() int { return max(MaxErrors-len(c.Errs), 0) }

// Add keeps e, or counts it in Omitted when the list is full.
func (c *Capped[E]) Add(e E) {
	if c.Full() {
		c.Omitted++
		return
	}
	c.Errs = append(c.Errs, e)
}

// escapeExtra is how many bytes escaping adds to each byte of a JSON
// string: 1 for '"', '\\' and the control bytes with a short escape (\n,
// ...), 5 for the other control bytes (\u00XX).
var escapeExtra = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = 5
	}
	for _, c := range []byte{'"', '\\', '\b', '\f', '\n', '\r', '\t'} {
		t[c] = 1
	}
	return t
}()

// StringLen returns the length of s as a JSON string, its quotes and the
// escapes it needs included (none for '<', '>', '&' or U+2028: the
// shortest text a model may send).
func StringLen(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		n += int(escapeExtra[s[i]])
	}
	return n
}

// StringLenUTF8 is [StringLen] and [utf8.ValidString] in one pass: the
// length of s as a JSON string, and whether s is valid UTF-8 (when it is
// not, n is not its length). Eight plain bytes (no '"', '\\', control or
// non-ASCII byte) are taken at a time.
func StringLenUTF8(s string) (n int, valid bool) {
	n = len(s) + 2
	p := unsafe.Pointer(unsafe.StringData(s))
	for i := 0; i < len(s); {
		for i+8 <= len(s) {
			w := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, i))[:])
			q := w ^ (SWAROnes * '"')
			b := w ^ (SWAROnes * '\\')
			if ((q-SWAROnes)&^q|(b-SWAROnes)&^b|(w-SWAROnes*0x20)&^w|w)&SWARHigh != 0 {
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			n += int(escapeExtra[c])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return n, false
		}
		i += size
	}
	return n, true
}

// MarshalNoEscape is json.Marshal without HTML escaping: the text shown to
// a model (an example, a default in a description) keeps its <, > and &.
func MarshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
