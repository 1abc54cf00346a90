package fields

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// summary is what a test compares of parsed rules: the tags as the
// schema would say them.
func summary(r *Rules) map[string]any {
	out := map[string]any{}
	if r.HasTitle {
		out["title"] = r.Title
	}
	if r.HasDescription {
		out["description"] = r.Description
	}
	if r.Required != nil {
		out["required"] = *r.Required
	}
	for k, n := range map[string]*Number{"minimum": r.Minimum, "maximum": r.Maximum,
		"exclusiveMinimum": r.ExclusiveMinimum, "exclusiveMaximum": r.ExclusiveMaximum, "multipleOf": r.MultipleOf} {
		if n != nil {
			out[k] = n.Text
		}
	}
	for k, n := range map[string]int64{"minLength": r.MinLength, "maxLength": r.MaxLength, "minItems": r.MinItems,
		"maxItems": r.MaxItems, "minProperties": r.MinProperties, "maxProperties": r.MaxProperties} {
		if n >= 0 {
			out[k] = n
		}
	}
	if r.Pattern != "" {
		out["pattern"] = r.Pattern
	}
	if r.Format != "" {
		out["format"] = r.Format
	}
	if r.UniqueItems {
		out["uniqueItems"] = true
	}
	if r.ReadOnly {
		out["readOnly"] = true
	}
	if r.Enum != nil {
		out["enum"] = jsonText(r.Enum)
	}
	if r.HasDefault {
		out["default"] = string(r.DefaultJSON)
	}
	if r.Examples != nil {
		out["examples"] = jsonText(r.Examples)
	}
	if r.Elem != nil {
		out["elem"] = summary(r.Elem)
	}
	return out
}

var (
	tString  = reflect.TypeFor[string]()
	tInt     = reflect.TypeFor[int]()
	tFloat   = reflect.TypeFor[float64]()
	tStrings = reflect.TypeFor[[]string]()
	tInts    = reflect.TypeFor[[]int]()
)

// TestPeerTags reads the peer dialects into the rules the equivalent
// swaggest tags give: both forms of the same field must summarise alike.
func TestPeerTags(t *testing.T) {
	for _, tc := range []struct {
		name      string
		t         reflect.Type
		peer, own reflect.StructTag
	}{
		{"google description", tString, `jsonschema:"the city, e.g. Paris"`, `description:"the city, e.g. Paris"`},
		{"google text with = after a space", tString, `jsonschema:"a b=c"`, `description:"a b=c"`},
		{"jsonschema_description", tString, `jsonschema_description:"IATA code"`, `description:"IATA code"`},
		{"invopop numbers", tInt, `jsonschema:"minimum=1,maximum=9,multipleOf=2"`, `minimum:"1" maximum:"9" multipleOf:"2"`},
		{"invopop exclusive bounds are numbers", tFloat, `jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1.5"`, `exclusiveMinimum:"0" exclusiveMaximum:"1.5"`},
		{"invopop strings", tString, `jsonschema:"minLength=2,maxLength=8,format=email,title=Mail"`, `minLength:"2" maxLength:"8" format:"email" title:"Mail"`},
		{"invopop escaped comma", tString, `jsonschema:"pattern=^[a-z]{1\\,3}$,description=a\\, b"`, `pattern:"^[a-z]{1,3}$" description:"a, b"`},
		{"invopop enum members", tString, `jsonschema:"enum=economy,enum=first"`, `enum:"economy,first"`},
		{"invopop numeric enum and default", tInt, `jsonschema:"enum=1,enum=2,default=2"`, `enum:"1,2" default:"2"`},
		{"invopop examples typed by the field", tFloat, `jsonschema:"example=1.5,example=2"`, `examples:"[1.5,2]"`},
		{"invopop one example", tString, `jsonschema:"example=pizza"`, `example:"pizza"`},
		{"invopop required flag", tString, `jsonschema:"required,description=x"`, `required:"true" description:"x"`},
		{"invopop readOnly", tString, `jsonschema:"readOnly=true"`, `readOnly:"true"`},
		{"invopop with its description tag", tInt, `jsonschema:"minimum=0" jsonschema_description:"stops"`, `minimum:"0" description:"stops"`},
		{"invopop type that fits", tInt, `jsonschema:"type=integer,minimum=0"`, `minimum:"0"`},
		{"invopop trailing comma", tInt, `jsonschema:"minimum=0,"`, `minimum:"0"`},
		{"invopop on a slice: own keys", tStrings, `jsonschema:"minItems=1,maxItems=5,uniqueItems"`, `minItems:"1" maxItems:"5" uniqueItems:"true"`},
		{"invopop on a slice: uniqueItems=true", tStrings, `jsonschema:"uniqueItems=true"`, `uniqueItems:"true"`},
		{"invopop on a slice: element keys", tStrings, `jsonschema:"format=email,maxLength=40,enum=a@b.co,enum=c@d.org"`, `items.format:"email" items.maxLength:"40" items.enum:"a@b.co,c@d.org"`},
		{"invopop on a slice: examples are the elements'", tStrings, `jsonschema:"example=red"`, `items.example:"red"`},
		{"invopop on a slice: the default lists elements", tInts, `jsonschema:"default=1,default=2,minimum=0"`, `default:"[1,2]" items.minimum:"0"`},
		{"mcp-go enum parts", tString, `jsonschema:"Temperature unit,enum=C,enum=F"`, `description:"Temperature unit" enum:"C,F"`},
		{"mcp-go enum parts after text", tString, `jsonschema:"The unit, enum=C, enum=F"`, `description:"The unit" enum:"C,F"`},
		{"enum only", tString, `jsonschema:"enum=C,enum=F"`, `enum:"C,F"`},
		{"enum only on a slice: the elements'", tStrings, `jsonschema:"enum=C,enum=F"`, `items.enum:"C,F"`},
		{"same value twice", tInt, `minimum:"1" jsonschema:"minimum=1"`, `minimum:"1"`},
		{"same description twice", tString, `description:"x" jsonschema:"x" jsonschema_description:"x"`, `description:"x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseRules(tc.t, tc.peer)
			if err != nil {
				t.Fatalf("ParseRules(%s, %s): %v", tc.t, tc.peer, err)
			}
			want, err := ParseRules(tc.t, tc.own)
			if err != nil {
				t.Fatalf("ParseRules(%s, %s): %v", tc.t, tc.own, err)
			}
			if len(summary(want)) == 0 {
				t.Fatalf("the swaggest twin %s says nothing", tc.own)
			}
			if diff := cmp.Diff(summary(want), summary(got)); diff != "" {
				t.Errorf("%s and %s differ (-swaggest +peer):\n%s", tc.own, tc.peer, diff)
			}
		})
	}
}

// TestPeerTagErrors: a malformed value, a key that cannot be honoured, an
// unknown key and a conflict are define-time errors naming the tag the
// user wrote and the key.
func TestPeerTagErrors(t *testing.T) {
	for _, tc := range []struct {
		t     reflect.Type
		tag   reflect.StructTag
		key   string   // Error.Tag
		words []string // in the message
	}{
		{tInt, `jsonschema:"minimum=abc"`, "jsonschema", []string{"key minimum", `malformed number "abc"`}},
		{tInt, `jsonschema:"maxLength=3"`, "jsonschema", []string{"key maxLength", "does not apply to int"}},
		{tInt, `jsonschema:"minimum=5,maximum=1"`, "", []string{"minimum 5 and maximum 1 leave no valid value"}},
		{tString, `jsonschema:"format=colour"`, "jsonschema", []string{"key format", `unknown format "colour"`}},
		{tInt, `jsonschema:"enum=1,enum=x"`, "jsonschema", []string{"key enum", `malformed number "x"`}},
		{tString, `jsonschema:"oneof_required=a"`, "jsonschema", []string{"key oneof_required", "not supported"}},
		{tString, `jsonschema:"anyof_type=string;integer"`, "jsonschema", []string{"key anyof_type", "not supported"}},
		{tString, `jsonschema:"nullable"`, "jsonschema", []string{"key nullable", "consider a pointer type"}},
		{tString, `jsonschema:"-"`, "jsonschema", []string{"key -", `json:"-"`}},
		{tString, `jsonschema:"anchor=x"`, "jsonschema", []string{"key anchor", "$anchor"}},
		{tString, `jsonschema:"const=x"`, "jsonschema", []string{`key "const"`, "unknown key"}},
		{tString, `jsonschema:"requird,minLength=1"`, "jsonschema", []string{`key "requird"`, "not one of invopop's flags"}},
		{tString, `jsonschema:"required=maybe"`, "jsonschema", []string{"key required", `malformed boolean "maybe"`}},
		{tInt, `jsonschema:"type=string"`, "jsonschema", []string{"key type", `"string" does not fit int`}},
		{tString, `jsonschema:"Count, minimum=3"`, "jsonschema", []string{"key minimum", "in a description"}},
		{tString, `jsonschema:""`, "jsonschema", []string{"empty value"}},
		{tString, `jsonschema_extras:"x-order=1"`, "jsonschema_extras", []string{`"x-order"`, "neither rendered nor enforced"}},
		{tStrings, `jsonschema:"Labels,enum=a"`, "jsonschema", []string{"key enum", "items.enum"}},
		{reflect.TypeFor[[]struct{ A int }](), `jsonschema:"default=1"`, "jsonschema", []string{"key default", "not strings, numbers or booleans"}},
		{tStrings, `jsonschema:"minLength=x"`, "jsonschema", []string{"key minLength (read as items.minLength)", "malformed count"}},
		{tInt, `minimum:"2" jsonschema:"minimum=1"`, "jsonschema", []string{"key minimum", `"1" contradicts minimum:"2"`}},
		{tString, `description:"a" jsonschema:"b"`, "jsonschema", []string{`"b" contradicts description:"a"`}},
		{tString, `jsonschema_description:"a" jsonschema:"description=b"`, "jsonschema", []string{"key description", `"b" contradicts "a" given by jsonschema_description`}},
		{tInt, `jsonschema:"minimum=1,minimum=2"`, "jsonschema", []string{"key minimum", `"2" contradicts "1" given by jsonschema key minimum`}},
	} {
		_, err := ParseRules(tc.t, tc.tag)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrInvalidTag) {
			t.Errorf("ParseRules(%s, %s) = %v, want an *Error wrapping ErrInvalidTag", tc.t, tc.tag, err)
			continue
		}
		if e.Tag != tc.key {
			t.Errorf("ParseRules(%s, %s): Tag %q, want %q (%v)", tc.t, tc.tag, e.Tag, tc.key, err)
		}
		for _, w := range tc.words {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("ParseRules(%s, %s) = %q, want it to mention %q", tc.t, tc.tag, err, w)
			}
		}
	}
}

// TestPeerTagErrorPath: through Describe, an error about a peer tag has
// the field's path, and the rules Describe checks across tags (required
// and default) see the translated ones.
func TestPeerTagErrorPath(t *testing.T) {
	type Inner struct {
		Max int `json:"max" jsonschema:"maximum=ten"`
	}
	type args struct{ Inner }
	type both struct {
		Unit string `json:"unit" jsonschema:"required,default=C"`
	}
	for _, tc := range []struct {
		t    reflect.Type
		want []string
	}{
		{reflect.TypeFor[args](), []string{"Inner.Max", "jsonschema", `field Inner.Max: tag jsonschema: key maximum: malformed number "ten": not a JSON number`}},
		{reflect.TypeFor[both](), []string{"Unit", "jsonschema", `field Unit: tag jsonschema: key default: default is never used on a required field (consider removing required:"true" or the default)`}},
	} {
		_, err := Describe(tc.t)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Describe(%v): %v, want an *Error", tc.t, err)
		}
		if diff := cmp.Diff(tc.want, []string{e.Path, e.Tag, e.Error()}); diff != "" {
			t.Errorf("Describe(%v) error (-want +got):\n%s", tc.t, diff)
		}
	}
}

// TestElemTags reads items.* and values.* into Rules.Elem, nested and with
// the element type's own declarations.
func TestElemTags(t *testing.T) {
	for _, tc := range []struct {
		t    reflect.Type
		tag  reflect.StructTag
		want string // the summary of r.Elem, as JSON
	}{
		{tStrings, `items.format:"email" items.maxLength:"40"`, `{"format":"email","maxLength":40}`},
		{reflect.TypeFor[[3]int](), `items.minimum:"0" items.enum:"0,1,2"`, `{"enum":"[0,1,2]","minimum":"0"}`},
		{reflect.TypeFor[[]*string](), `items.pattern:"^a"`, `{"pattern":"^a"}`},
		{reflect.TypeFor[map[string]float64](), `values.exclusiveMinimum:"0"`, `{"exclusiveMinimum":"0"}`},
		{reflect.TypeFor[[][]int](), `items.maxItems:"2" items.items.maximum:"9"`, `{"elem":{"maximum":"9"},"maxItems":2}`},
		{reflect.TypeFor[map[string][]string](), `values.items.minLength:"1"`, `{"elem":{"minLength":1}}`},
	} {
		r, err := ParseRules(tc.t, tc.tag)
		if err != nil {
			t.Errorf("ParseRules(%s, %s): %v", tc.t, tc.tag, err)
			continue
		}
		if r.Elem == nil {
			t.Errorf("ParseRules(%s, %s): no element rules", tc.t, tc.tag)
			continue
		}
		got, _ := json.Marshal(summary(r.Elem))
		if string(got) != tc.want {
			t.Errorf("ParseRules(%s, %s).Elem = %s, want %s", tc.t, tc.tag, got, tc.want)
		}
		if r.Set {
			t.Errorf("ParseRules(%s, %s): Set on the container, which has no tag of its own", tc.t, tc.tag)
		}
	}
	if r, _ := ParseRules(tStrings, `minItems:"1"`); r.Elem != nil {
		t.Errorf("no items.* tag, but element rules %+v", r.Elem)
	}
}

func TestElemTagErrors(t *testing.T) {
	for _, tc := range []struct {
		t     reflect.Type
		tag   reflect.StructTag
		key   string
		words []string
	}{
		{tString, `items.format:"email"`, "items.format", []string{"does not apply to string", "slices and arrays"}},
		{tStrings, `values.format:"email"`, "values.format", []string{"maps", "consider items.format"}},
		{reflect.TypeFor[map[string]int](), `items.minimum:"1"`, "items.minimum", []string{"consider values.minimum"}},
		{reflect.TypeFor[[]byte](), `items.minimum:"1"`, "items.minimum", []string{"does not apply to []uint8"}},
		{tStrings, `items.format:"colour"`, "items.format", []string{`unknown format "colour"`}},
		{tInts, `items.minLength:"1"`, "items.minLength", []string{"does not apply to int"}},
		{tInts, `items.minimum:"5" items.maximum:"1"`, "", []string{"the items.* tags: minimum 5 and maximum 1 leave no valid value"}},
		{tStrings, `items.default:"a"`, "items.default", []string{"never missing"}},
		{tStrings, `items.required:"true"`, "items.required", []string{"never missing"}},
		{tStrings, `items.nullable:"true"`, "items.nullable", []string{"consider a pointer type"}},
		{tStrings, `items.colour:"red"`, "items.colour", []string{`unknown tag "colour"`}},
		{tStrings, `items.jsonschema:"minLength=1"`, "items.jsonschema", []string{"unknown tag"}},
		{reflect.TypeFor[[][]int](), `items.items.minLength:"1"`, "items.items.minLength", []string{"does not apply to int"}},
	} {
		_, err := ParseRules(tc.t, tc.tag)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrInvalidTag) {
			t.Errorf("ParseRules(%s, %s) = %v, want an *Error wrapping ErrInvalidTag", tc.t, tc.tag, err)
			continue
		}
		if e.Tag != tc.key {
			t.Errorf("ParseRules(%s, %s): Tag %q, want %q (%v)", tc.t, tc.tag, e.Tag, tc.key, err)
		}
		for _, w := range tc.words {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("ParseRules(%s, %s) = %q, want it to mention %q", tc.t, tc.tag, err, w)
			}
		}
	}
	// The error for a string tag on a slice shows the way to its elements.
	_, err := ParseRules(tStrings, `format:"email"`)
	if err == nil || !strings.Contains(err.Error(), `consider items.format:"…"`) {
		t.Errorf(`format:"email" on []string: %v, want a hint at items.format`, err)
	}
	_, err = ParseRules(tInts, `minProperties:"1"`)
	if err == nil || strings.Contains(err.Error(), "items.minProperties") {
		t.Errorf(`minProperties on []int: %v, want no hint at items.minProperties (an int has no properties)`, err)
	}
}

func TestSplitUnescaped(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"a=1,b=2", []string{"a=1", "b=2"}},
		{`pattern=^a{1\,3}$,b`, []string{"pattern=^a{1,3}$", "b"}},
		{`a\,\,b`, []string{"a,,b"}},
		{"a,", []string{"a", ""}},
		{",a", []string{"", "a"}},
		{`a\`, []string{`a\`}},
	} {
		if diff := cmp.Diff(tc.want, splitUnescaped(tc.in)); diff != "" {
			t.Errorf("splitUnescaped(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}
