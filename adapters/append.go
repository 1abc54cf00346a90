package adapters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// AppendJSON appends to dst the JSON encoding of tools, a value returned by
// [ToOpenAI], [ToOpenAIResponses], [ToAnthropic], [ToGemini], [ToMCP],
// [ToBedrock] or [ToOllama], byte for byte what json.Marshal(tools)
// returns.
//
// It exists for the request hot path: json.Marshal re-validates every
// pre-rendered schema (a per-byte scan that dominates its cost), while
// AppendJSON copies the cached bytes without validating them (those the
// ToX functions cache are compact, valid JSON; a schema you substitute must
// be too). Use it when the request body is assembled as bytes; splicing the
// result into a struct as a json.RawMessage would bring the scan back.
func AppendJSON(dst []byte, tools any) ([]byte, error) {
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

func appendOpenAI(dst []byte, t *OpenAITool) ([]byte, error) {
	dst = append(dst, `{"type":`...)
	dst = appendString(dst, t.Type)
	dst = append(dst, `,"function":{"name":`...)
	dst = appendString(dst, t.Function.Name)
	if t.Function.Description != "" {
		dst = append(dst, `,"description":`...)
		dst = appendString(dst, t.Function.Description)
	}
	dst = append(dst, `,"parameters":`...)
	dst, err := appendRaw(dst, t.Function.Parameters)
	if t.Function.Strict {
		dst = append(dst, `,"strict":true`...)
	}
	return append(dst, "}}"...), err
}

func appendResponses(dst []byte, t *OpenAIResponsesTool) ([]byte, error) {
	dst = append(dst, `{"type":`...)
	dst = appendString(dst, t.Type)
	dst = append(dst, `,"name":`...)
	dst = appendString(dst, t.Name)
	if t.Description != "" {
		dst = append(dst, `,"description":`...)
		dst = appendString(dst, t.Description)
	}
	dst = append(dst, `,"parameters":`...)
	dst, err := appendRaw(dst, t.Parameters)
	dst = append(dst, `,"strict":`...)
	dst = strconv.AppendBool(dst, t.Strict)
	return append(dst, '}'), err
}

func appendAnthropic(dst []byte, t *AnthropicTool) ([]byte, error) {
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, t.Name)
	if t.Description != "" {
		dst = append(dst, `,"description":`...)
		dst = appendString(dst, t.Description)
	}
	dst = append(dst, `,"input_schema":`...)
	dst, err := appendRaw(dst, t.InputSchema)
	if err != nil {
		return dst, err
	}
	if t.Strict {
		dst = append(dst, `,"strict":true`...)
	}
	if t.CacheControl != nil {
		data, err := json.Marshal(t.CacheControl)
		if err != nil {
			return dst, err
		}
		dst = append(append(dst, `,"cache_control":`...), data...)
	}
	return append(dst, '}'), nil
}

func appendGemini(dst []byte, t *GeminiTool) ([]byte, error) {
	dst = append(dst, `{"functionDeclarations":`...)
	dst, err := appendList(dst, t.FunctionDeclarations, nil, func(dst []byte, d *GeminiFunctionDeclaration) ([]byte, error) {
		dst = append(dst, `{"name":`...)
		dst = appendString(dst, d.Name)
		if d.Description != "" {
			dst = append(dst, `,"description":`...)
			dst = appendString(dst, d.Description)
		}
		var err error
		if len(d.Parameters) > 0 {
			dst = append(dst, `,"parameters":`...)
			if dst, err = appendRaw(dst, d.Parameters); err != nil {
				return dst, err
			}
		}
		if len(d.ParametersJSONSchema) > 0 {
			dst = append(dst, `,"parametersJsonSchema":`...)
			if dst, err = appendRaw(dst, d.ParametersJSONSchema); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	})
	return append(dst, '}'), err
}

func appendMCP(dst []byte, t *MCPTool) ([]byte, error) {
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, t.Name)
	if t.Title != "" {
		dst = append(dst, `,"title":`...)
		dst = appendString(dst, t.Title)
	}
	if t.Description != "" {
		dst = append(dst, `,"description":`...)
		dst = appendString(dst, t.Description)
	}
	dst = append(dst, `,"inputSchema":`...)
	dst, err := appendRaw(dst, t.InputSchema)
	if err == nil && len(t.OutputSchema) > 0 {
		dst = append(dst, `,"outputSchema":`...)
		dst, err = appendRaw(dst, t.OutputSchema)
	}
	return append(dst, '}'), err
}

func appendBedrock(dst []byte, t *BedrockTool) ([]byte, error) {
	dst = append(dst, '{')
	var err error
	if s := t.ToolSpec; s != nil {
		dst = append(dst, `"toolSpec":{"name":`...)
		dst = appendString(dst, s.Name)
		if s.Description != "" {
			dst = append(dst, `,"description":`...)
			dst = appendString(dst, s.Description)
		}
		dst = append(dst, `,"inputSchema":{"json":`...)
		dst, err = appendRaw(dst, s.InputSchema.JSON)
		dst = append(dst, "}}"...)
	}
	if t.CachePoint != nil {
		if t.ToolSpec != nil {
			dst = append(dst, ',')
		}
		dst = append(dst, `"cachePoint":{"type":`...)
		dst = appendString(dst, t.CachePoint.Type)
		dst = append(dst, '}')
	}
	return append(dst, '}'), err
}

// entryKeys is at least what the keys, quotes and punctuation of one entry
// of AppendJSON take, beyond its strings and schemas. A string or schema
// that needs escaping takes more: then dst grows again, as append does.
const entryKeys = 128

func sizeOpenAI(t *OpenAITool) int {
	return entryKeys + len(t.Type) + len(t.Function.Name) + len(t.Function.Description) + len(t.Function.Parameters)
}

func sizeResponses(t *OpenAIResponsesTool) int {
	return entryKeys + len(t.Type) + len(t.Name) + len(t.Description) + len(t.Parameters)
}

func sizeAnthropic(t *AnthropicTool) int {
	return entryKeys + len(t.Name) + len(t.Description) + len(t.InputSchema)
}

func sizeGemini(t *GeminiTool) int {
	n := entryKeys
	for i := range t.FunctionDeclarations {
		d := &t.FunctionDeclarations[i]
		n += entryKeys + len(d.Name) + len(d.Description) + len(d.Parameters) + len(d.ParametersJSONSchema)
	}
	return n
}

func sizeMCP(t *MCPTool) int {
	return entryKeys + len(t.Name) + len(t.Title) + len(t.Description) + len(t.InputSchema) + len(t.OutputSchema)
}

func sizeBedrock(t *BedrockTool) int {
	n := entryKeys
	if s := t.ToolSpec; s != nil {
		n += len(s.Name) + len(s.Description) + len(s.InputSchema.JSON)
	}
	return n
}

// appendString appends s as json.Marshal quotes it (HTML-escaped).
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			data, _ := json.Marshal(s) // a string always marshals
			return append(dst, data...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

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

// needsHTMLEscape reports whether raw holds a byte json.Marshal escapes in
// a RawMessage: <, >, & or the first byte of U+2028/U+2029. Each check is
// one vectorised IndexByte.
func needsHTMLEscape(raw []byte) bool {
	return bytes.IndexByte(raw, '<') >= 0 || bytes.IndexByte(raw, '>') >= 0 ||
		bytes.IndexByte(raw, '&') >= 0 || bytes.IndexByte(raw, 0xE2) >= 0
}
