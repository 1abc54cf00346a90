package adapters

import "github.com/toolnexus/toolnexus/schema"

// dialect is what one schema dialect accepts: the capability table that
// drives the single schema walk (conv.js). A capability that is off moves
// the keyword into the description, or, where the table says so, makes the
// schema an error. The rules are those of docs/providers.md.
type dialect struct {
	name string // in messages: "OpenAI strict mode"
	hint string // the way out of a schema the dialect cannot express, appended to the message

	// openAPI makes every node one of the OpenAPI 3.0 subset's (Gemini
	// "parameters"): one type, null as nullable, string enums only, a type
	// list or a union as anyOf, only the keywords of the node's type, maps
	// and untyped values errors (gemini_schema.go); the walk's result is
	// then turned into that node type (toGemini).
	openAPI bool

	strict      bool // a subset: unresolvable $ref is an error, oneOf/allOf are rewritten
	typed       bool // every schema must say its type (the true schema, {}, is an error)
	title       bool // title is kept
	scalarEnums bool // enum and const take only strings and numbers; const becomes a one-value enum
	encoding    bool // contentEncoding is kept
	lengths     bool // minLength, maxLength, minProperties, maxProperties are kept
	annotations bool // deprecated, readOnly, writeOnly, uniqueItems, propertyNames, oneOf, allOf are kept
	defaults    bool // default is kept
	examples    int  // how many examples are kept; -1 for all

	numbers  numberRule
	minItems int64 // largest minItems kept; -1 for any
	maxItems bool

	typedItems   bool // an array without items is an error
	closeObjects closeRule
	allRequired  bool // every property is required, the optional ones nullable
	openMaps     bool // additionalProperties other than false is accepted
	patternProps bool // patternProperties is kept (its schemas walked); else described
	anyKey       bool // property keys are not held to the provider's key rule
	nullAnyOf    bool // a type list with null becomes anyOf [the rest, null]

	format  func(s *schema.Schema) bool
	pattern func(p string) bool
}

type numberRule uint8

const (
	numbersKept      numberRule = iota // minimum, maximum, exclusive bounds, multipleOf
	numbersDescribed                   // all in the description
	numbersInclusive                   // minimum, maximum; exclusive integer bounds become inclusive; the rest described
)

type closeRule uint8

const (
	closeNone      closeRule = iota
	closeAll                 // every object gets additionalProperties: false (and properties: {})
	closeWithProps           // objects with properties get additionalProperties: false
)

// plainDialect is JSON Schema 2020-12 as is: OpenAI and Anthropic
// non-strict, Bedrock, MCP. The strict and Gemini dialects live in their
// providers' homes.
var plainDialect = dialect{
	title: true, encoding: true, lengths: true, annotations: true, defaults: true, examples: -1,
	numbers: numbersKept, minItems: -1, maxItems: true, openMaps: true, patternProps: true,
	format: func(*schema.Schema) bool { return true }, pattern: func(string) bool { return true },
}
