package adapters

import "github.com/toolnexus/toolnexus/schema"

// dialect is what one schema dialect accepts: the capability table that
// drives the single schema walk (conv.js). A capability that is off moves
// the keyword into the description, or, where the table says so, makes the
// schema an error. The rules are those of docs/providers.md.
type dialect struct {
	name string // in messages: "OpenAI strict mode"
	hint string // the way out of a schema the dialect cannot express, appended to the message

	// nodes, when set, are the dialect's own rules for a node, for a
	// dialect whose schemas are not JSON Schema (Gemini "parameters", the
	// OpenAPI 3.0 subset, in its home); nil for the JSON Schema dialects.
	// Such a dialect needs a schema at every node: the true and false
	// schemas, and an absent one, are errors.
	nodes nodeRules

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

// nodeRules are a dialect's own rules for the nodes of a schema (see
// dialect.nodes): the walk asks them to shape each node before it reads
// its keywords, and to judge the nodes it built.
type nodeRules interface {
	// shape brings s into one of the dialect's node shapes. final reports
	// that node is the result (a union, a type list, a cut or an error);
	// otherwise the walk goes on with node, whose enum, const and union
	// notes are in n.
	shape(c *conv, s *schema.Schema, path *spath, n *notes) (node *schema.Schema, final, cut bool, err error)
	// empty reports whether the built node s may not stand as array items,
	// a property or a union branch (for Gemini, an object without
	// properties).
	empty(s *schema.Schema) bool
	// emptyProperty handles the property prop whose built node is empty:
	// it records an error (c.fail), or leaves the property out with a note
	// in n.
	emptyProperty(c *conv, path *spath, prop string, required bool, n *notes)
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
