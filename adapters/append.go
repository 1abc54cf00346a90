package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
	"github.com/toolnexus/toolnexus/internal/outjson"
)

// AppendJSON appends to dst the JSON encoding of tools, a value returned by
// [ToOpenAI], [ToOpenAIResponses], [ToAnthropic], [ToGemini], [ToMCP],
// [ToBedrock] or [ToOllama], byte for byte what json.Marshal(tools)
// returns; or of the history entries of [Provider.Results] (a []any), as a
// JSON array, each byte for byte what json.Marshal writes.
//
// It exists for the request hot path: json.Marshal re-validates every
// pre-rendered schema (a per-byte scan that dominates its cost), while
// AppendJSON copies the cached bytes without validating them (those the
// ToX functions cache are compact, valid JSON; a schema you substitute must
// be too). Use it when the request body is assembled as bytes; splicing the
// result into a struct as a json.RawMessage would bring the scan back.
// Results with parts (images, files, audio) gain the most: a part's bytes
// are encoded once, as base64, straight into dst, where json.Marshal
// encodes them into a buffer, scans it and copies it.
func AppendJSON(dst []byte, tools any) ([]byte, error) {
	if entries, ok := tools.([]any); ok {
		return appendEntries(dst, entries)
	}
	for _, h := range homes {
		if h.appendJSON == nil {
			continue
		}
		if out, ok, err := h.appendJSON(dst, tools); ok {
			return out, err
		}
	}
	return dst, fmt.Errorf("adapters: AppendJSON: %T is not a tools value of this package", tools)
}

// jsonAppender is a history entry that writes its own JSON, byte for
// byte what json.Marshal writes (the entries that carry parts' bytes).
type jsonAppender interface {
	size() int // about the length of its JSON: at least the bytes of its parts
	appendJSON(dst []byte) []byte
}

// entryWriter is a history entry that writes its own JSON, byte for
// byte what json.Marshal writes, when it holds nothing that needs
// encoding/json's own checks (the messages Body.Append sees at every
// step: an assistant message with its tool calls, a tool message). When
// it does (members in Extra, a raw value that is not plain), appendEntry
// returns dst as it was and false, and json.Marshal writes the entry.
type entryWriter interface {
	size() int // about the length of its JSON
	appendEntry(dst []byte) ([]byte, bool)
}

// appendEntries appends history entries as a JSON array: those that
// write their own JSON straight into dst, grown once by their size, the
// others as json.Marshal writes them.
func appendEntries(dst []byte, entries []any) ([]byte, error) {
	n := 2
	for _, e := range entries {
		switch a := e.(type) {
		case jsonAppender:
			n += a.size() + 1
		case entryWriter:
			n += a.size() + 1
		case json.RawMessage:
			n += len(a) + 1
		}
	}
	dst = slices.Grow(dst, n)
	dst = append(dst, '[')
	for i, e := range entries {
		if i > 0 {
			dst = append(dst, ',')
		}
		switch a := e.(type) {
		case jsonAppender:
			dst = a.appendJSON(dst)
			continue
		case entryWriter:
			var ok bool
			if dst, ok = a.appendEntry(dst); ok {
				continue
			}
		case json.RawMessage: // a replay (Responses' items, Gemini's and Bedrock's contents)
			var ok bool
			if dst, ok = appendPlainRaw(dst, a); ok {
				continue
			}
		}
		b, err := json.Marshal(e)
		if err != nil {
			return dst, fmt.Errorf("adapters: AppendJSON: entries[%d]: %w", i, err)
		}
		dst = append(dst, b...)
	}
	return append(dst, ']'), nil
}

// appendList appends ts as a JSON array, one by one. dst grows once, by
// what size says the entries take (appending 128 tools to a growing slice
// allocated about four times their size); size may be nil for a list
// nested in an entry whose size counted it.
func appendList[T any](dst []byte, ts []T, size func(*T) int, one func([]byte, *T) ([]byte, error)) ([]byte, error) {
	if ts == nil {
		return append(dst, "null"...), nil
	}
	if size != nil {
		n := 2
		for i := range ts {
			n += 1 + size(&ts[i])
		}
		dst = slices.Grow(dst, n)
	}
	dst = append(dst, '[')
	for i := range ts {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = one(dst, &ts[i]); err != nil {
			return dst, err
		}
	}
	return append(dst, ']'), nil
}

// entryKeys is at least what the keys, quotes and punctuation of one entry
// of AppendJSON take, beyond its strings and schemas. A string or schema
// that needs escaping takes more: then dst grows again, as append does.
const entryKeys = 128

// appendString appends s as json.Marshal quotes it (HTML-escaped).
func appendString(dst []byte, s string) []byte { return outjson.AppendString(dst, s) }

// appendRaw appends pre-rendered compact JSON as json.Marshal writes a
// json.RawMessage: HTML-escaped, and null when empty. The bytes are not
// validated: those the ToX functions cache are compact, valid JSON.
func appendRaw(dst []byte, raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 {
		return append(dst, "null"...), nil
	}
	if !needsHTMLEscape(raw) {
		return append(dst, raw...), nil
	}
	var esc bytes.Buffer
	json.HTMLEscape(&esc, raw)
	return append(dst, esc.Bytes()...), nil
}

// appendPlainRaw appends raw as json.Marshal writes a json.RawMessage
// (null when nil, else compact and HTML-escaped) when raw is valid JSON
// that holds no byte to escape; else it returns b as it was and false,
// for encoding/json to write it (or to return its error).
func appendPlainRaw(b []byte, raw json.RawMessage) ([]byte, bool) {
	switch {
	case raw == nil:
		return append(b, "null"...), true
	case needsHTMLEscape(raw):
		return b, false
	case plainString(raw):
		return append(b, raw...), true
	}
	c := checkers.Get().(*jsonwire.Checker)
	bad := c.Check(raw, jsonwire.MaxDepth, nil) != nil
	checkers.Put(c)
	if bad {
		return b, false
	}
	return jsonwire.AppendCompact(b, raw), true
}

// checkers keep the room their checks grew (paths, keys), so that a
// step's raw values are checked without allocating.
var checkers = sync.Pool{New: func() any { return new(jsonwire.Checker) }}

// plainString reports whether s is one JSON string without space
// around it: a quote, bytes from 0x20 on (no quote; a backslash starts
// a valid escape), a quote.
func plainString(s []byte) bool {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		switch c := s[i]; {
		case c < 0x20 || c == '"':
			return false
		case c == '\\':
			i++
			if i == len(s)-1 {
				return false
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if _, ok := jsonwire.Hex4(s, i+1); !ok || i+5 > len(s)-1 {
					return false
				}
				i += 4
			default:
				return false
			}
		}
	}
	return true
}

// needsHTMLEscape reports whether raw holds a byte json.Marshal escapes in
// a RawMessage: <, >, & or the first byte of U+2028/U+2029. Each check is
// one vectorised IndexByte.
func needsHTMLEscape(raw []byte) bool {
	return bytes.IndexByte(raw, '<') >= 0 || bytes.IndexByte(raw, '>') >= 0 ||
		bytes.IndexByte(raw, '&') >= 0 || bytes.IndexByte(raw, 0xE2) >= 0
}

// marshalWithExtra marshals v, a struct, and appends the members of the
// JSON object extra.
func marshalWithExtra(v any, extra json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	extra = bytes.TrimSpace(extra)
	if len(extra) < 2 || extra[0] != '{' || !json.Valid(extra) {
		return nil, errors.New("adapters: Extra is not a JSON object")
	}
	inner := bytes.TrimSpace(extra[1 : len(extra)-1])
	if len(inner) == 0 {
		return b, nil
	}
	b = append(b[:len(b)-1], ',')
	b = append(b, inner...)
	return append(b, '}'), nil
}
