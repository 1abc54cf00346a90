package reflectx

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/toolnexus/toolnexus/schema"
)

// mustSchemaPlan parses and compiles a schema document.
func mustSchemaPlan(tb testing.TB, doc string) *SchemaPlan {
	tb.Helper()
	var s *schema.Schema
	var err error
	switch doc {
	case "true":
		s = schema.True()
	case "false":
		s = schema.False()
	default:
		if s, err = schema.Parse([]byte(doc)); err != nil {
			tb.Fatalf("Parse(%s): %v", doc, err)
		}
	}
	p, err := CompileSchema(s, schema.ParseLimits{})
	if err != nil {
		tb.Fatalf("CompileSchema(%s): %v", doc, err)
	}
	return p
}

// schemaCase is one value checked against one schema: want is "" for a
// valid value, else the whole error text.
type schemaCase struct {
	name, schema, value, want string
	sentinel                  error
}

func runSchemaCases(t *testing.T, cases []schemaCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustSchemaPlan(t, tc.schema)
			err := p.ValidateValue([]byte(tc.value), Limits{})
			got := ""
			if err != nil {
				got = err.Error()
				var ae *ArgErrors
				if !errors.As(err, &ae) || len(ae.Errs) == 0 {
					t.Fatalf("ValidateValue(%s) = %v (%T), want *ArgErrors", tc.value, err, err)
				}
			}
			if got != tc.want {
				t.Errorf("schema %s\nvalue %s\ngot  %q\nwant %q", tc.schema, tc.value, got, tc.want)
			}
			if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Errorf("ValidateValue(%s) = %v, want it to wrap %v", tc.value, err, tc.sentinel)
			}
		})
	}
}

func TestSchemaTypes(t *testing.T) {
	runSchemaCases(t, []schemaCase{
		{"string ok", `{"type":"string"}`, `"x"`, "", nil},
		{"string got number", `{"type":"string"}`, `5`, "expected string, got 5", ErrType},
		{"integer ok", `{"type":"integer"}`, `-3`, "", nil},
		{"integer 1.0 is an integer", `{"type":"integer"}`, `1.0`, "", nil},
		{"integer 1e2 is an integer", `{"type":"integer"}`, `1e2`, "", nil},
		{"integer got fraction", `{"type":"integer"}`, `1.5`, "expected integer, got 1.5", ErrType},
		{"integer beyond 64 bits", `{"type":"integer"}`, `123456789012345678901234567890`, "", nil},
		{"number ok", `{"type":"number"}`, `1.5e3`, "", nil},
		{"number got string", `{"type":"number"}`, `"1"`, `expected number, got "1"`, ErrType},
		{"boolean", `{"type":"boolean"}`, `0`, "expected boolean, got 0", ErrType},
		{"null ok", `{"type":"null"}`, `null`, "", nil},
		{"null got false", `{"type":"null"}`, `false`, "expected null, got false", ErrType},
		{"object got array", `{"type":"object"}`, `[1,2]`, "expected object, got [1,2]", ErrType},
		{"array got object", `{"type":"array"}`, `{}`, "expected array, got {}", ErrType},
		{"list", `{"type":["string","null"]}`, `null`, "", nil},
		{"list refuses", `{"type":["integer","string","null"]}`, `true`, "expected string, integer or null, got true", ErrType},
		{"number and integer", `{"type":["integer","number"]}`, `true`, "expected number, got true", ErrType},
		{"no type takes anything", `{}`, `[{"a":null}]`, "", nil},
		{"true schema", `true`, `"anything"`, "", nil},
		{"false schema", `false`, `1`, "expected no value here (the schema is false), got 1", ErrConstraint},
		{"constraints of other types do not apply", `{"minLength":5,"maximum":1,"minItems":3,"minProperties":2}`, `true`, "", nil},
	})
}

func TestSchemaStrings(t *testing.T) {
	runSchemaCases(t, []schemaCase{
		{"minLength counts code points", `{"minLength":3}`, `"héé"`, "", nil},
		{"minLength", `{"minLength":3}`, `"ab"`, `expected at least 3 characters, got "ab"`, ErrConstraint},
		{"maxLength", `{"maxLength":1}`, `"ab"`, `expected at most 1 character, got "ab"`, ErrConstraint},
		{"maxLength decimal", `{"maxLength":2.0}`, `"abc"`, `expected at most 2 characters, got "abc"`, ErrConstraint},
		{"pattern unanchored", `{"pattern":"b+"}`, `"abbc"`, "", nil},
		{"pattern", `{"pattern":"^[A-Z]{3}$"}`, `"FRa"`, `expected string matching ^[A-Z]{3}$, got "FRa"`, ErrConstraint},
		{"format email", `{"format":"email"}`, `"bob"`, `expected email address, got "bob"`, ErrConstraint},
		{"format date-time fast", `{"format":"date-time"}`, `"2026-03-14T09:30:00Z"`, "", nil},
		{"format date-time slow", `{"format":"date-time"}`, `"2026-03-14t09:30:00.5+01:00"`, "", nil},
		{"format date-time bad day", `{"format":"date-time"}`, `"2026-02-30T09:30:00Z"`, `expected date-time (RFC 3339, e.g. 2006-01-02T15:04:05Z), got "2026-02-30T09:30:00Z"`, ErrConstraint},
		{"unknown format is an annotation", `{"format":"int32"}`, `"x"`, "", nil},
		{"format applies to strings only", `{"format":"email"}`, `12`, "", nil},
		{"base64", `{"contentEncoding":"base64"}`, `"aGk="`, "", nil},
		{"base64 bad", `{"contentEncoding":"base64"}`, `"aGk"`, `expected base64 string, got "aGk"`, ErrType},
		{"other encodings are annotations", `{"contentEncoding":"base16"}`, `"zz"`, "", nil},
		{"escaped string", `{"const":"a\"b"}`, `"a\u0022b"`, "", nil},
	})
}

func TestSchemaNumbers(t *testing.T) {
	runSchemaCases(t, []schemaCase{
		{"minimum", `{"minimum":1}`, `0`, "expected number >= 1, got 0", ErrConstraint},
		{"minimum integer word", `{"type":"integer","minimum":1}`, `0`, "expected integer >= 1, got 0", ErrConstraint},
		{"exclusiveMinimum", `{"exclusiveMinimum":1.1}`, `1.1`, "expected number > 1.1, got 1.1", ErrConstraint},
		{"exclusiveMinimum ok", `{"exclusiveMinimum":1.1}`, `1.2`, "", nil},
		{"maximum float", `{"maximum":3.0}`, `3.5`, "expected number <= 3.0, got 3.5", ErrConstraint},
		{"exclusiveMaximum integer", `{"exclusiveMaximum":3}`, `3`, "expected number < 3, got 3", ErrConstraint},
		{"tighter bound wins", `{"minimum":1,"exclusiveMinimum":1}`, `1`, "expected number > 1, got 1", ErrConstraint},
		{"multipleOf", `{"multipleOf":2}`, `7`, "expected multiple of 2, got 7", ErrConstraint},
		{"multipleOf fraction", `{"multipleOf":1.5}`, `4.5`, "", nil},
		{"multipleOf fraction no", `{"multipleOf":1.5}`, `35`, "expected multiple of 1.5, got 35", ErrConstraint},
		{"multipleOf small", `{"multipleOf":0.0001}`, `0.00751`, "expected multiple of 0.0001, got 0.00751", ErrConstraint},
		{"multipleOf tiny on integers", `{"type":"integer","multipleOf":1e-8}`, `12391239123`, "", nil},
		{"big multipleOf on huge integer", `{"multipleOf":0.123456789}`, `1e308`, "expected multiple of 0.123456789, got 1e308", ErrConstraint},
		{"huge integer multiple", `{"multipleOf":7}`, `7000000000000000000000000000000000000000`, "", nil},
		{"huge power of ten multiple", `{"multipleOf":4}`, `1e400`, "", nil},
		{"huge power of ten not multiple", `{"multipleOf":3}`, `1e400`, "expected multiple of 3, got 1e400", ErrConstraint},
		// Integers beyond int64 are compared exactly, never rounded.
		{"uint64 max ok", `{"maximum":18446744073709551615}`, `18446744073709551600`, "", nil},
		{"beyond uint64", `{"maximum":18446744073709551615}`, `18446744073709551616`, "expected number <= 18446744073709551615, got 18446744073709551616", ErrConstraint},
		{"2^53+1 above 2^53", `{"maximum":9007199254740992}`, `9007199254740993`, "expected number <= 9007199254740992, got 9007199254740993", ErrConstraint},
		{"very negative", `{"minimum":-18446744073709551615}`, `-18446744073709551600`, "", nil},
		{"very negative out", `{"minimum":-18446744073709551615}`, `-18446744073709551616`, "expected number >= -18446744073709551615, got -18446744073709551616", ErrConstraint},
		{"high precision exclusive", `{"exclusiveMaximum":9.727837981879871e+26}`, `9.727837981879871e+26`, "expected number < 9.727837981879871e+26, got 9.727837981879871e+26", ErrConstraint},
		{"bound beyond int64 excludes int64", `{"minimum":1e30}`, `5`, "expected number >= 1e30, got 5", ErrConstraint},
		{"bound beyond int64 admits", `{"minimum":1e30}`, `2e30`, "", nil},
		{"huge exponent", `{"maximum":1e300}`, `1e1000000000000000000000`, "expected number <= 1e300, got 1e1000000000000000000000", ErrConstraint},
		{"huge negative exponent", `{"minimum":-1e300}`, `-1e99999999999999999999`, "expected number >= -1e300, got -1e99999999999999999999", ErrConstraint},
		{"tiny exponent", `{"type":"integer","minimum":0}`, `1e-99999999999999999999`, "expected integer, got 1e-99999999999999999999", ErrType},
		{"no bounds, no range", `{"type":"number"}`, `1` + strings.Repeat("0", 400) + `.5`, "", nil},
		{"fraction beyond float64", `{"type":"number","minimum":0}`, `1` + strings.Repeat("0", 400) + `.5`, "", nil},
		// Fractions are compared exactly too, never as float64.
		{"fraction past float64 precision", `{"exclusiveMinimum":-1e20}`, `-99999999999999999999.5`, "", nil},
		{"fraction above uint64 max", `{"maximum":18446744073709551615}`, `18446744073709551615.001`, "expected number <= 18446744073709551615, got 18446744073709551615.001", ErrConstraint},
		{"tiny positive", `{"exclusiveMinimum":0}`, `1e-400`, "", nil},
		{"tiny negative", `{"minimum":0}`, `-1e-400`, "expected number >= 0, got -1e-400", ErrConstraint},
		{"multipleOf exact", `{"multipleOf":0.1}`, `0.3`, "", nil},
		{"multipleOf exact no", `{"multipleOf":0.1}`, `0.30000000001`, "expected multiple of 0.1, got 0.30000000001", ErrConstraint},
		{"multipleOf tiny value", `{"multipleOf":0.1}`, `1e-400`, "expected multiple of 0.1, got 1e-400", ErrConstraint},
		{"multipleOf small fraction", `{"multipleOf":1e-8}`, `0.00000012`, "", nil},
		{"multipleOf small fraction no", `{"multipleOf":1e-8}`, `0.000000012`, "expected multiple of 1e-8, got 0.000000012", ErrConstraint},
		{"multipleOf thirds", `{"multipleOf":0.75}`, `2.25`, "", nil},
		{"multipleOf fraction of huge", `{"multipleOf":0.5}`, `1e400`, "", nil},
	})
}

func TestSchemaEnumConst(t *testing.T) {
	runSchemaCases(t, []schemaCase{
		{"enum ok", `{"enum":[1,2,3]}`, `2`, "", nil},
		{"enum by value", `{"enum":[1,2,3]}`, `2.0`, "", nil},
		{"enum", `{"enum":[1,2,3]}`, `4`, "expected one of 1, 2, 3, got 4", ErrConstraint},
		{"heterogeneous", `{"enum":[6,"foo",[],true,{"foo":12}]}`, `{"foo":12.0}`, "", nil},
		{"heterogeneous string", `{"enum":[6,"foo",[],true,{"foo":12}]}`, `"foo"`, "", nil},
		{"heterogeneous refuses", `{"enum":[6,"foo",[],true,{"foo":12}]}`, `{"foo":false}`, `expected one of 6, "foo", [], true, {"foo":12}, got {"foo":false}`, ErrConstraint},
		{"false is not 0", `{"enum":[false]}`, `0`, "expected one of false, got 0", ErrConstraint},
		{"0 is not false", `{"enum":[0]}`, `false`, "expected one of 0, got false", ErrConstraint},
		{"null member", `{"enum":[6,null]}`, `null`, "", nil},
		{"not null", `{"enum":[6]}`, `null`, "expected one of 6, got null", ErrConstraint},
		{"string not member", `{"enum":[1]}`, `"1"`, `expected one of 1, got "1"`, ErrConstraint},
		{"empty enum", `{"enum":[]}`, `1`, "expected one of , got 1", ErrConstraint},
		{"const", `{"const":2}`, `2.0`, "", nil},
		{"const refuses", `{"const":2}`, `3`, "expected 2, got 3", ErrConstraint},
		{"const object", `{"const":{"b":[1,2],"a":"x"}}`, `{"a":"x","b":[1,2.0]}`, "", nil},
		{"const array order", `{"const":[1,2]}`, `[2,1]`, "expected [1,2], got [2,1]", ErrConstraint},
		{"const nul", `{"const":"hello\u0000there"}`, `"hello\u0000there"`, "", nil},
		{"const string", `{"const":"C"}`, `"F"`, `expected "C", got "F"`, ErrConstraint},
		{"big integer exact", `{"const":9007199254740993}`, `9007199254740992`, "expected 9007199254740993, got 9007199254740992", ErrConstraint},
	})
}

func TestSchemaArrays(t *testing.T) {
	runSchemaCases(t, []schemaCase{
		{"items", `{"items":{"type":"integer"}}`, `[1,"x",2.5]`, `/1: expected integer, got "x"; /2: expected integer, got 2.5`, ErrType},
		{"minItems", `{"minItems":2}`, `[1]`, "expected at least 2 items, got 1 item", ErrConstraint},
		{"maxItems stops the array", `{"maxItems":2,"items":{"type":"string"}}`, `[1,2,3,4]`, "expected at most 2 items, got 4 items", ErrConstraint},
		{"maxItems decimal", `{"maxItems":2.0}`, `[1,2,3]`, "expected at most 2 items, got 3 items", ErrConstraint},
		{"uniqueItems", `{"uniqueItems":true}`, `[{"a":1,"b":2},{"b":2,"a":1.0}]`, "expected unique items, got item 1 repeats item 0", ErrConstraint},
		{"uniqueItems ok", `{"uniqueItems":true}`, `[1,"1",true,[1],{"a":1},null]`, "", nil},
		{"uniqueItems false and true", `{"uniqueItems":true}`, `[false,0]`, "", nil},
		{"uniqueItems false is the default", `{"uniqueItems":false}`, `[1,1]`, "", nil},
		{"nested paths", `{"items":{"items":{"maximum":1}}}`, `[[0],[0,2]]`, "/1/1: expected number <= 1, got 2", ErrConstraint},
	})
}

func TestSchemaObjects(t *testing.T) {
	obj := `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"],"additionalProperties":false}`
	runSchemaCases(t, []schemaCase{
		{"ok", obj, `{"a":"x","b":1}`, "", nil},
		{"missing", obj, `{"b":1}`, "/a: expected string (required), got nothing", ErrMissing},
		{"unknown", obj, `{"a":"x","c":1}`, "/c: expected no such property (allowed: a, b), got 1", ErrUnknownField},
		{"case matters", obj, `{"A":"x","a":"y"}`, "/A: expected no such property (allowed: a, b), got \"x\"", ErrUnknownField},
		{"duplicate", obj, `{"a":"x","a":"y"}`, `/a: expected each key once, got a second "a"`, ErrDuplicateKey},
		{"duplicate unknown", `{"type":"object"}`, `{"z":1,"z":2}`, `/z: expected each key once, got a second "z"`, ErrDuplicateKey},
		{"escaped key", obj, `{"\u0061":"x"}`, "", nil},
		{"out of order, spaced", obj, `{ "b" : 1 , "a" : "x" }`, "", nil},
		{"additionalProperties schema", `{"properties":{"a":{}},"additionalProperties":{"type":"boolean"}}`, `{"a":1,"b":true,"c":2}`, "/c: expected boolean, got 2", ErrType},
		{"open by default", `{"properties":{"a":{}}}`, `{"b":[1]}`, "", nil},
		{"required without properties", `{"required":["x","y"]}`, `{"x":1}`, "/y: expected any JSON value (required), got nothing", ErrMissing},
		{"required escaped", `{"required":["a/b~c"]}`, `{}`, "/a~1b~0c: expected any JSON value (required), got nothing", ErrMissing},
		{"required and closed", `{"required":["x"],"additionalProperties":false}`, `{"x":1}`, "/x: expected no such property (this object takes none), got 1", ErrUnknownField},
		{"false property", `{"properties":{"a":false,"b":{}}}`, `{"a":1}`, "/a: expected no such property (allowed: b), got 1", ErrUnknownField},
		{"minProperties", `{"minProperties":2}`, `{"a":1}`, "expected at least 2 properties, got 1 property", ErrConstraint},
		{"maxProperties stops", `{"maxProperties":1,"additionalProperties":{"type":"string"}}`, `{"a":1,"b":2,"c":3}`, "expected at most 1 property, got 3 properties", ErrConstraint},
		{"propertyNames", `{"propertyNames":{"maxLength":3}}`, `{"abcd":1,"ab":2}`, `/abcd: expected at most 3 characters, got "abcd"`, ErrConstraint},
		{"propertyNames pattern", `{"propertyNames":{"pattern":"^[0-9]+$"},"properties":{"x":{}}}`, `{"x":1,"12":2}`, `/x: expected string matching ^[0-9]+$, got "x"`, ErrConstraint},
		{"many properties", manyProps(40), `{"p39":1,"p0":"x"}`, `/p0: expected integer, got "x"`, ErrType},
		{"paths escape", `{"properties":{"a/b":{"type":"integer"}}}`, `{"a/b":"x"}`, `/a~1b: expected integer, got "x"`, ErrType},
	})
}

// manyProps is an object schema of n integer properties p0..p(n-1).
func manyProps(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"integer"}`, i)
	}
	b.WriteString(`}}`)
	return b.String()
}

func TestSchemaApplicators(t *testing.T) {
	nullable := `{"anyOf":[{"type":"string","minLength":3},{"type":"null"}]}`
	runSchemaCases(t, []schemaCase{
		{"anyOf first", nullable, `"abc"`, "", nil},
		{"anyOf second", nullable, `null`, "", nil},
		{"anyOf one branch of the type: its problems", nullable, `"ab"`, `expected at least 3 characters, got "ab"`, ErrConstraint},
		{"anyOf no branch of the type", nullable, `5`, "expected string or null, got 5", ErrType},
		{"anyOf several branches", `{"anyOf":[{"type":"integer","minimum":10},{"type":"number","maximum":1}]}`, `5`, "expected a value valid against one of the anyOf schemas, got 5", ErrConstraint},
		{"oneOf exactly one", `{"oneOf":[{"type":"integer"},{"minimum":2}]}`, `1`, "", nil},
		{"oneOf two", `{"oneOf":[{"type":"integer"},{"minimum":2}]}`, `3`, "expected a value valid against exactly one of the oneOf schemas, got a value valid against oneOf/0 and oneOf/1", ErrConstraint},
		{"oneOf none", `{"oneOf":[{"type":"integer","minimum":5},{"type":"string"}]}`, `3`, "expected integer >= 5, got 3", ErrConstraint},
		{"allOf every", `{"allOf":[{"minimum":2},{"multipleOf":2}]}`, `3`, "expected multiple of 2, got 3", ErrConstraint},
		{"allOf and own keywords", `{"type":"integer","allOf":[{"minimum":2}]}`, `"x"`, `expected integer, got "x"`, ErrType},
		{"ref defs", `{"$defs":{"p":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/p"}}}`, `{"a":"x"}`, `/a: expected integer, got "x"`, ErrType},
		{"ref definitions", `{"definitions":{"p":{"type":"integer"}},"properties":{"a":{"$ref":"#/definitions/p"}}}`, `{"a":"x"}`, `/a: expected integer, got "x"`, ErrType},
		{"ref root recursion", `{"properties":{"next":{"$ref":"#"},"v":{"type":"integer"}}}`, `{"next":{"next":{"v":"x"}}}`, `/next/next/v: expected integer, got "x"`, ErrType},
		{"ref pointer", `{"properties":{"a":{"type":"integer"},"b":{"$ref":"#/properties/a"}}}`, `{"b":1.5}`, "/b: expected integer, got 1.5", ErrType},
		{"ref percent and tilde", `{"$defs":{"a b/c":{"type":"null"}},"$ref":"#/$defs/a%20b~1c"}`, `1`, "expected null, got 1", ErrType},
		{"ref with siblings", `{"$defs":{"p":{"minimum":2}},"$ref":"#/$defs/p","maximum":3}`, `4`, "expected number <= 3, got 4", ErrConstraint},
		{"ref to boolean", `{"$defs":{"no":false},"$ref":"#/$defs/no"}`, `1`, "expected no value here (the schema is false), got 1", ErrConstraint},
		{"nested anyOf in a trial", `{"anyOf":[{"anyOf":[{"type":"string"}]},{"type":"integer"}]}`, `2`, "", nil},
	})
}

func TestSchemaCompileErrors(t *testing.T) {
	for _, tc := range []struct {
		doc, keyword, path string
		sentinel           error
	}{
		{`{"not":{"type":"string"}}`, "not", "", schema.ErrUnsupportedKeyword},
		{`{"properties":{"a":{"if":{},"then":{}}}}`, "if", "/properties/a", schema.ErrUnsupportedKeyword},
		{`{"patternProperties":{"^a":{}}}`, "patternProperties", "", schema.ErrUnsupportedKeyword},
		{`{"items":{"prefixItems":[{}]}}`, "prefixItems", "/items", schema.ErrUnsupportedKeyword},
		{`{"items":[{"type":"string"}]}`, "items", "", schema.ErrUnsupportedKeyword},
		{`{"dependentRequired":{"a":["b"]}}`, "dependentRequired", "", schema.ErrUnsupportedKeyword},
		{`{"contains":{}}`, "contains", "", schema.ErrUnsupportedKeyword},
		{`{"unevaluatedProperties":false}`, "unevaluatedProperties", "", schema.ErrUnsupportedKeyword},
		{`{"$ref":"other.json#/a"}`, "$ref", "", schema.ErrUnsupportedKeyword},
		{`{"$ref":"#anchor"}`, "$ref", "", schema.ErrUnsupportedKeyword},
		{`{"$ref":"#/$defs/missing"}`, "$ref", "", schema.ErrUnsupportedKeyword},
		{`{"properties":{"a":{"$ref":"#/not/x"}}}`, "$ref", "/properties/a", schema.ErrUnsupportedKeyword},
		{`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"allOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`, "$ref", "", schema.ErrUnsupportedKeyword},
		{`{"$ref":"#"}`, "$ref", "", schema.ErrUnsupportedKeyword},
		{`{"type":"file"}`, "type", "", schema.ErrParse},
		{`{"type":[]}`, "type", "", schema.ErrParse},
		{`{"properties":{"a":{"pattern":"(?=a)"}}}`, "pattern", "/properties/a", schema.ErrParse},
		{`{"pattern":"a{1000}b{1000}c{1000}"}`, "pattern", "", schema.ErrParse},
		{`{"maximum":1e401}`, "maximum", "", schema.ErrUnsupportedKeyword},
		{`{"minimum":1e-401}`, "minimum", "", schema.ErrUnsupportedKeyword},
		{`{"exclusiveMinimum":` + strings.Repeat("9", 401) + `}`, "exclusiveMinimum", "", schema.ErrUnsupportedKeyword},
		{`{"minLength":-1}`, "minLength", "", schema.ErrParse},
		{`{"minLength":1.5}`, "minLength", "", schema.ErrParse},
		{`{"required":true}`, "required", "", schema.ErrParse},
		{`{"enum":5}`, "enum", "", schema.ErrParse},
		{`{"multipleOf":0}`, "multipleOf", "", schema.ErrParse},
		{`{"multipleOf":0.` + strings.Repeat("1", 50) + `}`, "multipleOf", "", schema.ErrUnsupportedKeyword},
		{`{"anyOf":[]}`, "anyOf", "", schema.ErrParse},
	} {
		s, err := schema.Parse([]byte(tc.doc))
		if err != nil {
			t.Fatalf("Parse(%s): %v", tc.doc, err)
		}
		_, err = CompileSchema(s, schema.ParseLimits{})
		var ke *schema.KeywordError
		if !errors.As(err, &ke) {
			t.Errorf("CompileSchema(%s) = %v, want a *schema.KeywordError", tc.doc, err)
			continue
		}
		if ke.Keyword != tc.keyword || ke.Path != tc.path || !errors.Is(err, tc.sentinel) {
			t.Errorf("CompileSchema(%s) = %v (keyword %q at %q), want keyword %q at %q wrapping %v", tc.doc, err, ke.Keyword, ke.Path, tc.keyword, tc.path, tc.sentinel)
		}
	}
}

// TestSchemaAnnotations: keywords that do not change which values are
// valid compile, and every value passes.
func TestSchemaAnnotations(t *testing.T) {
	doc := `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"urn:x","$comment":"c","title":"t",
		"description":"d","examples":[1],"default":"x","deprecated":true,"readOnly":true,"writeOnly":true,
		"x-vendor":{"a":1},"nullable":true,"format":"uri-reference","contentMediaType":"text/plain",
		"then":{"type":"string"},"else":false,"minContains":2,"$anchor":"a","definitions":{"unused":{"not":{}}},
		"$defs":{"unused":{"not":{}}}}`
	p := mustSchemaPlan(t, doc)
	for _, v := range []string{`1`, `"x"`, `null`, `{"a":[1]}`} {
		if err := p.ValidateValue([]byte(v), Limits{}); err != nil {
			t.Errorf("ValidateValue(%s) = %v, want nil", v, err)
		}
	}
}

// TestSchemaArgs: the arguments' rules: empty, blank and null text mean
// {}, and the text must be one value.
func TestSchemaArgs(t *testing.T) {
	p := mustSchemaPlan(t, `{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}`)
	for _, tc := range []struct{ args, want string }{
		{``, "/a: expected integer (required), got nothing"},
		{` null `, "/a: expected integer (required), got nothing"},
		{`{"a":1}`, ""},
		{`{"a":1} x`, `not a JSON object: expected nothing after the object, got "x" at offset 8`},
		{`nul`, `not a JSON object: expected '{', got "nul" at offset 0`},
		{`nope`, `not a JSON object: expected '{', got "nope" at offset 0`},
		{`[1]`, "expected object, got [1]"},
		{`{"a":1,}`, `not a JSON object: expected string key, got "}" at offset 7`},
		{`{"a":nope}`, `not a JSON object: expected a JSON value, got "nope}" at offset 5`},
		{`{"a":tru}`, `not a JSON object: expected literal true, got "tru}" at offset 5`},
		{"{\"a\":\"\xff\"}", "not a JSON object: expected valid UTF-8, got byte 0xff at offset 6"},
	} {
		err := p.ValidateJSON([]byte(tc.args), Limits{})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("ValidateJSON(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// TestSchemaMatchesDecoder: a struct's schema, compiled, gives the verdict
// and the error text of the struct's own decoder on arguments where no
// documented difference applies (no nulls for slices, no integers beyond
// the Go type).
func TestSchemaMatchesDecoder(t *testing.T) {
	type inner struct {
		N int    `json:"n" minimum:"-3" maximum:"127"`
		W string `json:"w,omitempty" enum:"a,b"`
	}
	type args struct {
		S   string  `json:"s" minLength:"2" pattern:"^[a-z]+$"`
		I   int     `json:"i" maximum:"100" multipleOf:"5"`
		F   float64 `json:"f" exclusiveMinimum:"0"`
		B   bool    `json:"b"`
		P   *string `json:"p" format:"email"`
		In  inner   `json:"in"`
		Arr []inner `json:"arr" minItems:"2" maxItems:"2" uniqueItems:"true"`
		E   string  `json:"e,omitempty" const:"x"`
	}
	typ := reflect.TypeFor[args]()
	plan := mustPlan(t, typ)
	s, err := schema.ForType(typ)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := CompileSchema(s, schema.ParseLimits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		`{"s":"ab","i":5,"f":0.5,"b":true,"p":null,"in":{"n":1},"arr":[{"n":0},{"n":-3,"w":"b"}]}`,
		`{"s":"a","i":7,"f":0,"b":1,"p":"x","in":{"n":-4,"w":"c","z":1},"arr":[{"n":0}],"e":"y","q":2}`,
		`{"s":"AB","i":105,"f":-1,"b":false,"p":"a@b.example","in":{},"arr":[{"n":1},{"n":1},{"n":1}]}`,
		`{"s":5,"i":"5","f":"1","b":null,"in":[],"arr":{}}`,
		`{"i":300,"in":{"n":200}}`,
		`{"s":"ab","s":"cd"}`,
		`{"s":"ab", "i": 5 ,"f":1e-1,"b":true,"p":"a@b.c","in":{"n":1},"arr":[{"n":1,"n":2},{"n":3}]}`,
		`{"s":"ab","i":5,"f":1,"b":true,"p":null,"in":{"n":1},"arr":[{"n":1},{"n":1.0}]}`,
		`[]`, `null`, ``, `{`, `{"s":"\ud800x"}`,
	} {
		want := plan.DecodeJSON(unsafe.Pointer(new(args)), []byte(text))
		got := sp.ValidateJSON([]byte(text), Limits{})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("arguments %s\nschema:  %v\ndecoder: %v", text, got, want)
		}
	}
}

// TestSchemaErrorCap: the error cap, and the path bounds, are the
// decoder's.
func TestSchemaErrorCap(t *testing.T) {
	// Past the cap the rest is skipped unchecked, as the decoder does: one
	// problem more is counted, and the array is not read further.
	p := mustSchemaPlan(t, `{"type":"object","properties":{"a":{"items":{"type":"string"}}}}`)
	text := []byte(`{"a":[` + strings.Repeat("1,", 99) + "1]}")
	err := p.ValidateJSON(text, Limits{})
	var ae *ArgErrors
	if !errors.As(err, &ae) || len(ae.Errs) != MaxErrors || ae.Omitted != 1 {
		t.Fatalf("100 bad items: %v, want %d problems and 1 omitted", err, MaxErrors)
	}
	typed := mustPlan(t, reflect.TypeFor[struct {
		A []string `json:"a"`
	}]()).DecodeJSON(unsafe.Pointer(new(struct{ A []string })), text)
	if typed.Error() != err.Error() {
		t.Fatalf("100 bad items: schema %v\ndecoder %v", err, typed)
	}
	deep := mustSchemaPlan(t, `{"properties":{"a":{"$ref":"#"},"v":{"type":"integer"}}}`)
	err = deep.ValidateValue([]byte(strings.Repeat(`{"a":`, 300)+`{"v":"x"}`+strings.Repeat("}", 300)), Limits{})
	if !errors.As(err, &ae) || len(ae.Errs) != 1 || len(ae.Errs[0].Path) > MaxEchoedPath+64 || !strings.HasSuffix(ae.Errs[0].Path, "/a/v") {
		t.Fatalf("deep error: %v, want one problem with a bounded path", err)
	}
	tooDeep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	if err := mustSchemaPlan(t, `{}`).ValidateValue([]byte(tooDeep), Limits{}); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("nesting %d deep: %v, want ErrTooDeep", MaxDepth+1, err)
	}
	if err := mustSchemaPlan(t, `{}`).ValidateJSON([]byte(`{"a":"xxxxxxxxxx"}`), Limits{MaxBytes: 8}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over MaxBytes: %v, want ErrTooLarge", err)
	}
	long := mustSchemaPlan(t, `{"pattern":"[a-z]{2,64}x"}`)
	if err := long.ValidateValue([]byte(`"`+strings.Repeat("a", 100)+`x"`), Limits{MaxPatternBytes: 50}); !errors.Is(err, ErrConstraint) ||
		!strings.Contains(err.Error(), "checked on strings of at most 50 bytes") {
		t.Fatalf("a string past MaxPatternBytes: %v, want the decoder's pattern bound", err)
	}
}

// TestSchemaSteps: a schema whose branches read one value again and again
// is stopped after a number of steps proportional to the arguments' size,
// not after time exponential in their nesting.
func TestSchemaSteps(t *testing.T) {
	// Each level of nesting doubles the work: both branches read the
	// rest of the value, and each of their items is both again.
	p := mustSchemaPlan(t, `{"$defs":{"s":{"anyOf":[{"items":{"$ref":"#/$defs/s"},"minItems":5},{"items":{"$ref":"#/$defs/s"},"minItems":6}]}},"$ref":"#/$defs/s"}`)
	text := []byte(strings.Repeat("[", 60) + strings.Repeat("]", 60))
	err := p.ValidateValue(text, Limits{})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "steps per byte") {
		t.Fatalf("exponential branches: %v, want the steps bound", err)
	}
}

// fuzzArgs is a type whose decoder and canonical schema take exactly the
// same arguments: no slice or map (the decoder takes null for them), every
// integer bounded within its Go type (the decoder refuses an integer
// beyond the type, the schema of a 64-bit integer has no bound), no float
// (the decoder rounds to float64 first, the schema's integers are exact).
type fuzzArgs struct {
	S string    `json:"s" minLength:"1" maxLength:"8" pattern:"^[a-z]*$"`
	I int       `json:"i" minimum:"-50" maximum:"50" multipleOf:"3"`
	P *int32    `json:"p" minimum:"0" maximum:"9"`
	B bool      `json:"b,omitempty"`
	E string    `json:"e,omitempty" enum:"x,y"`
	T string    `json:"t,omitempty" format:"date-time"`
	A [2]string `json:"a,omitempty" items.format:"email"`
	N struct {
		K int8   `json:"k" minimum:"-128" maximum:"127"`
		U string `json:"u,omitempty" const:"ok"`
	} `json:"n"`
}

// FuzzSchemaValidate validates arbitrary text against fuzzArgs' schema: it
// never panics, returns nil or an *ArgErrors of 1 to MaxErrors problems,
// and accepts exactly what fuzzArgs' decoder accepts.
func FuzzSchemaValidate(f *testing.F) {
	for _, seed := range []string{
		`{"s":"ab","i":3,"p":null,"n":{"k":1}}`,
		`{"s":"ab","i":3,"p":5,"b":true,"e":"y","t":"2026-03-14T09:30:00Z","a":["a@b.c","d@e.f"],"n":{"k":-128,"u":"ok"}}`,
		`{"s":"AB","i":4,"p":10,"n":{"k":128},"z":1}`, `{"s":"a","s":"b"}`, `null`, ``, `[]`, `{"i":1e400}`,
		`{"s":"\u00e9","i":-51,"p":-0,"n":{"k":1.0}}`, `{"a":["x",null],"n":[]}`,
	} {
		f.Add([]byte(seed))
	}
	typ := reflect.TypeFor[fuzzArgs]()
	plan := mustPlan(f, typ)
	s, err := schema.ForType(typ)
	if err != nil {
		f.Fatal(err)
	}
	sp, err := CompileSchema(s, schema.ParseLimits{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := sp.ValidateJSON(data, Limits{})
		if got != nil {
			var ae *ArgErrors
			if !errors.As(got, &ae) || len(ae.Errs) == 0 || len(ae.Errs) > MaxErrors {
				t.Fatalf("ValidateJSON(%q) = %v (%T), want *ArgErrors with 1 to %d problems", data, got, got, MaxErrors)
			}
		}
		want := plan.DecodeJSON(unsafe.Pointer(new(fuzzArgs)), data)
		if (got == nil) != (want == nil) {
			t.Fatalf("arguments %q\nschema:  %v\ndecoder: %v", data, got, want)
		}
	})
}

// FuzzKeyerText: the canonical key of JSON text built from the text
// (keyer.text, for uniqueItems, enum and const of a schema tool) is the
// one built from the value decoded (keyer.jsonText, the typed decoder's).
func FuzzKeyerText(f *testing.F) {
	for _, s := range []string{`{"b":[1,1.0,1e0,-0],"a":{"y":"\u0041","x":null}}`, `[true,false,"",{}]`, `"a\"b\\c\u00e9"`,
		`{"\u0061":1,"b":2}`, `1.5e-300`, ` [ 1 , { "k" : [ ] } ] `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if CheckJSON(data, Limits{}) != nil {
			return
		}
		var fromText, decoded keyer
		decoded.jsonText(data)
		if decoded.opaque {
			return // a repeated key: no canonical key (the validator refuses the text anyway)
		}
		fromText.text(data)
		if !bytes.Equal(fromText.buf, decoded.buf) {
			t.Fatalf("%q: text key %q, decoded key %q", data, fromText.buf, decoded.buf)
		}
	})
}

// TestSchemaConcurrent: one plan validates from many goroutines at once
// (a tool's calls run in parallel), each getting its own verdict.
func TestSchemaConcurrent(t *testing.T) {
	p := mustSchemaPlan(t, `{"type":"object","properties":{"n":{"type":"integer","maximum":5},"u":{"uniqueItems":true},
		"e":{"enum":[1,[2],{"a":3}]},"s":{"anyOf":[{"type":"string","pattern":"^[a-z]+$"},{"type":"null"}]}},"additionalProperties":{"type":"boolean"}}`)
	good := []byte(`{"n":5,"u":[1,"1",[1]],"e":{"a":3.0},"s":"abc","x":true}`)
	bad := []byte(`{"n":6,"u":[1,1.0],"e":[3],"s":"ABC","x":1}`)
	const want = 5
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if err := p.ValidateJSON(good, Limits{}); err != nil {
					errs <- "good: " + err.Error()
					return
				}
				var ae *ArgErrors
				if err := p.ValidateJSON(bad, Limits{}); !errors.As(err, &ae) || len(ae.Errs) != want {
					errs <- fmt.Sprintf("bad: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestSchemaRefSiblings: keywords beside a "$ref" apply, a count written
// as a decimal included.
func TestSchemaRefSiblings(t *testing.T) {
	runSchemaCases(t, []schemaCase{
		{"decimal count beside a ref", `{"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","maxLength":2.0}`, `"abc"`, `expected at most 2 characters, got "abc"`, ErrConstraint},
		{"base64 beside a ref", `{"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","contentEncoding":"base64"}`, `"@@"`, `expected base64 string, got "@@"`, ErrType},
		{"format beside a ref", `{"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","format":"uuid"}`, `"x"`, `expected UUID (8-4-4-4-12 hex digits), got "x"`, ErrConstraint},
		{"annotations beside a ref", `{"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","title":"t","format":"int32"}`, `1`, "expected string, got 1", ErrType},
	})
}
