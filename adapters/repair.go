package adapters

import (
	"bytes"
	"strings"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// The repairs of arguments texts (RepairArguments), a core file: what a
// parser does with an arguments text that is not one JSON object when its
// provider was made with RepairArguments. docs/mistakes.md lists them.

// Repairs is a set of the repairs [RepairArguments] made to the arguments
// text of a call ([Call].Repaired). Its text (String, and its JSON) names
// them in this order, joined with ", ": "double-encoded, code fence".
type Repairs uint16

// The repairs, each of which cannot change the meaning of a well-formed
// call: a text that is one JSON object is never repaired, and none of
// them turns a text into an object it does not spell out.
const (
	// RepairDoubleEncoded: the text was one JSON string whose text is the
	// object ("{\"city\":\"Oslo\"}").
	RepairDoubleEncoded Repairs = 1 << iota
	// RepairCodeFence: a Markdown code fence was around the object
	// ("```json" and a line break before it, "```" after it).
	RepairCodeFence
	// RepairTextAround: one run of text before the object, or after it,
	// or both, that is no JSON of its own: prose ("I'll now search"), a
	// stray quote or brace. Text before it may not hold a quote, a colon,
	// a comma or a bracket (it could be the start of an object cut off);
	// text after it may not hold '{', '[' or a colon (a second object,
	// or members).
	RepairTextAround
	// RepairTrailingComma: a comma before a closing '}' or ']' was
	// dropped.
	RepairTrailingComma
	// RepairSingleQuotes: strings in single quotes ('Oslo') were read as
	// JSON strings; a double quote inside one is escaped, and \' is '.
	RepairSingleQuotes
	// RepairPythonLiterals: the bare words True, False and None were read
	// as true, false and null.
	RepairPythonLiterals
	// RepairEscapedSpace: \n, \r or \t written outside strings (a
	// backslash and a letter, where only space may stand) was read as the
	// space it stands for.
	RepairEscapedSpace
)

var repairNames = [...]string{"double-encoded", "code fence", "text around", "trailing comma", "single quotes", "Python literals", "escaped space"}

// String names the repairs of r, in the order of their constants.
func (r Repairs) String() string {
	var b strings.Builder
	for i, name := range repairNames {
		if r&(1<<i) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name)
	}
	return b.String()
}

// MarshalText writes r's String, so that a Call's JSON names its repairs.
func (r Repairs) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// RepairArguments makes the Provider's Parse, ParseStream and streams
// ([NewStream], toolnexus.Toolkit.RunStream) try a fixed list of repairs
// ([Repairs]) on an arguments text that is not one JSON object, before
// marking the call malformed ([Call].Malformed): a double-encoded object,
// a code fence or one run of text around exactly one object, a trailing
// comma, single-quoted strings, Python's True, False and None, and \n, \r
// or \t written outside strings. A text the repairs make one JSON object
// gives a call with that object as its Args and the repairs in
// [Call].Repaired, validated by its tool as any call is; any other text
// stays malformed. A text that is one JSON object is never touched, and a
// call cut off by the token limit is still [ErrIncomplete].
//
// It applies where a model's arguments arrive as text: OpenAI Chat
// Completions (and its server profiles), OpenAI Responses and Mistral,
// and the streamed input of Anthropic and Bedrock. It changes no
// rendering (ToOpenAI and the others take it and ignore it), and
// package functions such as ParseOpenAIReply never repair.
func RepairArguments() Option {
	return option{k: optRepair, f: func(*config) {}, text: "RepairArguments()"}
}

// hasRepair reports whether opts hold RepairArguments.
func hasRepair(opts []Option) bool {
	for _, o := range opts {
		if o != nil && o.kind() == optRepair {
			return true
		}
	}
	return false
}

// repairArgs applies the repairs to text, an arguments text (unquoted)
// that is not one JSON object: it returns the object, compact, and the
// repairs made, or ok false when they do not make the text one JSON object
// within maxDepth. Each repair is tried once, in the order of the
// constants; the time is linear in the text.
func repairArgs(text []byte, maxDepth int) (obj []byte, done Repairs, ok bool) {
	t := bytes.TrimSpace(text)
	if len(t) > 1 && t[0] == '"' {
		// A JSON string, whole: its text is the object's, to read again.
		if jsonwire.Check(t, maxDepth) != nil {
			return nil, 0, false
		}
		t = bytes.TrimSpace(jsonwire.AppendUnquoted(nil, t))
		done |= RepairDoubleEncoded
		if wholeObject(t, maxDepth) {
			return jsonwire.AppendCompact(nil, t), done, true
		}
	}
	if inner, ok := unfence(t); ok {
		t = inner
		done |= RepairCodeFence
	}
	start := bytes.IndexByte(t, '{')
	if start < 0 || bytes.ContainsAny(t[:start], "\":,[]}") {
		return nil, 0, false
	}
	out, end, reps, ok := rewriteObject(t, start)
	if !ok {
		return nil, 0, false
	}
	done |= reps
	if trail := t[end:]; start > 0 || len(bytes.TrimSpace(trail)) > 0 {
		if bytes.ContainsAny(trail, "{[:") {
			return nil, 0, false
		}
		done |= RepairTextAround
	}
	if !wholeObject(out, maxDepth) {
		return nil, 0, false
	}
	return jsonwire.AppendCompact(out[:0:0], out), done, true
}

// wholeObject reports whether t is one JSON object within maxDepth, with
// no key repeated: what the strict reader accepts as arguments.
func wholeObject(t []byte, maxDepth int) bool {
	return len(t) > 0 && t[0] == '{' && jsonwire.Check(t, maxDepth) == nil
}

// unfence returns what a Markdown code fence holds: t is "```", an info
// string of letters, digits, '_', '-' or '+' (json, tool_call), space and
// a line break, the text, and "```" at the end.
func unfence(t []byte) ([]byte, bool) {
	if len(t) < 6 || !bytes.HasPrefix(t, []byte("```")) || !bytes.HasSuffix(t, []byte("```")) {
		return nil, false
	}
	i := 3
	for i < len(t) && (isWordByte(t[i]) || t[i] == '-' || t[i] == '+') {
		i++
	}
	j := i
	for j < len(t) && (t[j] == ' ' || t[j] == '\t' || t[j] == '\r') {
		j++
	}
	switch {
	case j < len(t) && t[j] == '\n':
		j++
	case i > 3:
		return nil, false // an info string not ended by a line break
	}
	if j > len(t)-3 {
		return nil, false
	}
	return bytes.TrimSpace(t[j : len(t)-3]), true
}

// rewriteObject copies the object that starts at t[start] ('{') with the
// repairs of its tokens, up to its closing brace: it returns the copy,
// where the object ended in t, and the repairs made; ok is false when the
// object never closes. Strings in double quotes are copied as they are;
// the copy is checked afterwards.
func rewriteObject(t []byte, start int) (out []byte, end int, done Repairs, ok bool) {
	out = make([]byte, 0, len(t)-start+8)
	depth := 0
	for i := start; i < len(t); {
		switch c := t[i]; {
		case c == '"':
			j := stringEnd(t, i)
			if j < 0 {
				return nil, 0, 0, false
			}
			out = append(out, t[i:j]...)
			i = j
		case c == '\'':
			j := stringEnd(t, i)
			if j < 0 {
				return nil, 0, 0, false
			}
			out = appendSingleQuoted(out, t[i+1:j-1])
			done |= RepairSingleQuotes
			i = j
		case c == '{' || c == '[':
			depth++
			out = append(out, c)
			i++
		case c == '}' || c == ']':
			if k := lastNonSpace(out); k >= 0 && out[k] == ',' {
				out = append(out[:k], out[k+1:]...)
				done |= RepairTrailingComma
			}
			depth--
			out = append(out, c)
			i++
			if depth == 0 {
				return out, i, done, true
			}
		case c == '\\' && i+1 < len(t) && (t[i+1] == 'n' || t[i+1] == 'r' || t[i+1] == 't'):
			out = append(out, ' ')
			done |= RepairEscapedSpace
			i += 2
		case isWordByte(c) && !('0' <= c && c <= '9'):
			j := i + 1
			for j < len(t) && isWordByte(t[j]) {
				j++
			}
			if lit := pythonLiteral(t[i:j]); lit != "" {
				out = append(out, lit...)
				done |= RepairPythonLiterals
			} else {
				out = append(out, t[i:j]...)
			}
			i = j
		default:
			out = append(out, c)
			i++
		}
	}
	return nil, 0, 0, false
}

// pythonLiteral is the JSON literal for Python's True, False and None,
// "" for any other word.
func pythonLiteral(w []byte) string {
	switch string(w) {
	case "True":
		return "true"
	case "False":
		return "false"
	case "None":
		return "null"
	}
	return ""
}

// stringEnd returns the offset just after the string that starts with the
// quote at t[i] (a backslash escapes the byte after it), -1 when it does
// not end.
func stringEnd(t []byte, i int) int {
	q := t[i]
	for j := i + 1; j < len(t); j++ {
		switch t[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return -1
}

// appendSingleQuoted appends the inside of a single-quoted string as a
// JSON string: a double quote escaped, \' unescaped, other escapes kept.
func appendSingleQuoted(out, in []byte) []byte {
	out = append(out, '"')
	for i := 0; i < len(in); i++ {
		switch c := in[i]; {
		case c == '\\' && i+1 < len(in) && in[i+1] == '\'':
			out = append(out, '\'')
			i++
		case c == '\\' && i+1 < len(in):
			out = append(out, c, in[i+1])
			i++
		case c == '"':
			out = append(out, '\\', '"')
		default:
			out = append(out, c)
		}
	}
	return append(out, '"')
}

// lastNonSpace returns the offset of the last byte of b that is not JSON
// space, -1 when there is none.
func lastNonSpace(b []byte) int {
	for k := len(b) - 1; k >= 0; k-- {
		if !isSpace(b[k]) {
			return k
		}
	}
	return -1
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}
