package adapters

import (
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/schema"
)

// The strict modes, a core file: OpenAI's, shared by OpenAI Chat
// Completions and Responses (the Structured Outputs subset as a dialect,
// and its size limits, checked before the request by the homes'
// schemaLimits hook, so that a strict schema over a limit is an error
// naming the limit and the tool instead of a 400; docs/providers.md says
// where each number comes from), and Anthropic's subset, which Anthropic's
// strict tools and response format and Bedrock's response format take.

// OpenAI Structured Outputs limits, per schema (one tool's parameters).
const (
	openAIMaxProperties    = 5000    // object properties in total
	openAIMaxNesting       = 10      // levels of object nesting
	openAIMaxEnumValues    = 1000    // enum values across the schema
	openAILargeEnum        = 250     // an enum of more string values than this...
	openAIMaxLargeEnumText = 15000   // ...may hold at most this many characters in total
	openAIMaxSchemaText    = 120_000 // characters of property names, definition names, enum and const values
)

// valueText is the length in characters of an enum or const value as
// OpenAI counts it: a string's characters, another value's JSON text.
func valueText(v any) int {
	if s, ok := v.(string); ok {
		return utf8.RuneCountInString(s)
	}
	data, err := marshalNoEscape(v)
	if err != nil {
		return 0
	}
	return utf8.RuneCount(data)
}

// strictLimits is the schemaLimits hook of OpenAI Chat and Responses: a
// schema rendered strict is held to the Structured Outputs limits.
func strictLimits(c *conv, rendered *schema.Schema) []*Error {
	if c.d != &openAIStrictDialect {
		return nil
	}
	return c.openAIBudget(rendered)
}

// openAIBudget checks one strict schema against OpenAI's Structured Outputs
// limits and returns every limit it exceeds.
func (c *conv) openAIBudget(root *schema.Schema) []*Error {
	var errs []*Error
	props, enums, text := 0, 0, 0
	deepest, deepPath := 0, (*spath)(nil)
	walkSchema(root, nil, 0, func(n *schema.Schema, path *spath, level int) {
		props += len(n.Properties)
		for _, p := range n.Properties {
			text += utf8.RuneCountInString(p.Name)
		}
		for _, d := range n.Defs {
			text += utf8.RuneCountInString(d.Name)
		}
		if level > deepest {
			deepest, deepPath = level, path
		}
		enums += len(n.Enum)
		enumText := 0
		for _, v := range n.Enum {
			enumText += valueText(v)
		}
		text += enumText
		if n.HasConst {
			text += valueText(n.Const)
		}
		if len(n.Enum) > openAILargeEnum && allStrings(n.Enum) && enumText > openAIMaxLargeEnumText {
			errs = append(errs, c.errf(path, ErrLimit,
				"an enum of %d string values totals %d characters; OpenAI strict mode accepts at most %d characters for an enum of more than %d string values",
				len(n.Enum), enumText, openAIMaxLargeEnumText, openAILargeEnum))
		}
	})
	if props > openAIMaxProperties {
		errs = append(errs, c.errf(nil, ErrLimit, "the schema has %d object properties in total; OpenAI strict mode accepts at most %d", props, openAIMaxProperties))
	}
	if deepest > openAIMaxNesting {
		errs = append(errs, c.errf(deepPath, ErrLimit, "objects are nested %d levels deep; OpenAI strict mode accepts at most %d", deepest, openAIMaxNesting))
	}
	if enums > openAIMaxEnumValues {
		errs = append(errs, c.errf(nil, ErrLimit, "the schema has %d enum values in total; OpenAI strict mode accepts at most %d", enums, openAIMaxEnumValues))
	}
	if text > openAIMaxSchemaText {
		errs = append(errs, c.errf(nil, ErrLimit,
			"property names, definition names and enum and const values total %d characters; OpenAI strict mode accepts at most %d", text, openAIMaxSchemaText))
	}
	return errs
}

// openAIDialect is the dialect of OpenAI Chat and Responses: Structured
// Outputs' subset when strict, JSON Schema as is otherwise.
func openAIDialect(cfg config) *dialect {
	if cfg.strict {
		return &openAIStrictDialect
	}
	return &plainDialect
}

// openAIStrictDialect is OpenAI's Structured Outputs subset.
var openAIStrictDialect = dialect{
	name: "OpenAI strict mode", hint: strictHint, strict: true, typed: true, title: true,
	numbers: numbersKept, minItems: -1, maxItems: true,
	typedItems: true, closeObjects: closeAll, allRequired: true,
	format: func(s *schema.Schema) bool {
		switch s.Format {
		case "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid":
			return true
		}
		return false
	},
	pattern: func(p string) bool { return !hasLookaround(p) },
}

// anthropicStrictDialect is Anthropic's strict tool use subset, which
// its structured outputs (output_config) take too, and Bedrock's
// (outputConfig) for Claude and the other models it serves.
var anthropicStrictDialect = dialect{
	name: "Anthropic strict mode", strict: true, title: true,
	numbers: numbersDescribed, minItems: 1, closeObjects: closeWithProps, openMaps: true,
	format: func(s *schema.Schema) bool {
		switch s.Format {
		case "date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid":
			return true
		}
		return false
	},
	pattern: func(p string) bool { return !hasLookaround(p) && !hasBackref(p) },
}

// strictHint is the way out of a schema OpenAI's strict subset cannot
// express.
const strictHint = " (consider StrictWherePossible(), which sends this tool non-strict, or a concrete Go type)"
