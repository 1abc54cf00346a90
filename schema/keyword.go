package schema

import (
	"errors"
	"strconv"
)

// ErrUnsupportedKeyword is wrapped by the [*KeywordError] of a keyword of
// a hand-written schema that the argument validator cannot enforce
// ("not", "if" with "then", "patternProperties", a "$ref" to another
// document, ...): a tool made from such a schema (define.NewTool) would
// let arguments through that the schema refuses, so it is not made.
var ErrUnsupportedKeyword = errors.New("unsupported keyword")

// KeywordError is a define-time problem with one keyword of a
// hand-written schema, found when define.NewTool compiles the schema into
// the validator of its arguments. Err is [ErrUnsupportedKeyword] for a
// keyword the validator cannot enforce, or [ErrParse] for a value a
// schema may not have (a "pattern" that is not a regular expression, a
// "type" that names no JSON type, a negative "minLength").
type KeywordError struct {
	// Path is the JSON Pointer of the schema that holds the keyword in
	// the document ("" is the root, "/properties/tags/items" a subschema).
	Path    string
	Keyword string // the keyword at fault ("not", "$ref", "pattern")
	Msg     string // the problem, with a hint where one helps
	Err     error  // ErrUnsupportedKeyword or ErrParse
}

// Error returns `at "PATH": keyword K: MSG`.
func (e *KeywordError) Error() string {
	return "at " + strconv.Quote(e.Path) + ": keyword " + e.Keyword + ": " + e.Msg
}

// Unwrap returns the sentinel.
func (e *KeywordError) Unwrap() error { return e.Err }
