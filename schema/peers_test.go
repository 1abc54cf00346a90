package schema_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/swaggest/jsonschema-go"

	"github.com/toolnexus/toolnexus/internal/benchdata"
	"github.com/toolnexus/toolnexus/schema"
)

// argsInvopop is benchdata.Args in invopop/jsonschema's tags (as genkit and
// eino users write them), argsGoogle its descriptions in
// google/jsonschema-go's, with swaggest's tags for the constraints that
// library has no tag for.
type (
	argsInvopop struct {
		Origin      string         `json:"origin" jsonschema:"pattern=^[A-Z]{3}$" jsonschema_description:"IATA code of the departure airport"`
		Destination string         `json:"destination" jsonschema:"pattern=^[A-Z]{3}$,description=IATA code of the arrival airport"`
		Date        time.Time      `json:"date" jsonschema_description:"departure time, RFC 3339"`
		Passengers  int            `json:"passengers" jsonschema:"minimum=1,maximum=9"`
		Cabin       string         `json:"cabin" jsonschema:"enum=economy,enum=premium,enum=business,enum=first"`
		MaxPrice    *float64       `json:"max_price" jsonschema:"exclusiveMinimum=0" jsonschema_description:"upper price limit in EUR"`
		Filters     filtersInvopop `json:"filters"`
		Tags        []string       `json:"tags"`
		Note        string         `json:"note,omitempty" jsonschema:"maxLength=200"`
	}
	filtersInvopop struct {
		MaxStops   int      `json:"max_stops" jsonschema:"minimum=0,maximum=3"`
		Airlines   []string `json:"airlines" jsonschema:"maxItems=5"`
		Refundable bool     `json:"refundable"`
	}
	argsGoogle struct {
		Origin      string            `json:"origin" pattern:"^[A-Z]{3}$" jsonschema:"IATA code of the departure airport"`
		Destination string            `json:"destination" pattern:"^[A-Z]{3}$" jsonschema:"IATA code of the arrival airport"`
		Date        time.Time         `json:"date" jsonschema:"departure time, RFC 3339"`
		Passengers  int               `json:"passengers" minimum:"1" maximum:"9"`
		Cabin       string            `json:"cabin" enum:"economy,premium,business,first"`
		MaxPrice    *float64          `json:"max_price" exclusiveMinimum:"0" jsonschema:"upper price limit in EUR"`
		Filters     benchdata.Filters `json:"filters"`
		Tags        []string          `json:"tags"`
		Note        string            `json:"note,omitempty" maxLength:"200"`
	}
)

// email is a string that declares its format through swaggest's Preparer:
// before items.* tags, the one way to constrain the elements of a slice.
type email string

func (email) PrepareJSONSchema(s *jsonschema.Schema) error {
	s.WithFormat("email").WithMaxLength(40)
	return nil
}

type (
	itemsByTag struct {
		To     []string         `json:"to" items.format:"email" items.maxLength:"40" minItems:"1"`
		Scores map[string]uint8 `json:"scores" values.maximum:"100" values.multipleOf:"5"`
		Grid   [][]float64      `json:"grid" items.maxItems:"3" items.items.exclusiveMinimum:"0"`
		Maybe  []*string        `json:"maybe" items.enum:"a,b"`
		Codes  *[2]string       `json:"codes" items.pattern:"^[A-Z]{2}$" items.description:"ISO 3166 code"`
	}
	itemsByType struct {
		To     []email          `json:"to" minItems:"1"`
		Scores map[string]uint8 `json:"scores"`
		Grid   [][]float64      `json:"grid"`
		Maybe  []*string        `json:"maybe"`
		Codes  *[2]string       `json:"codes"`
	}
)

func mustSchemaJSON(t *testing.T, typ reflect.Type) string {
	t.Helper()
	s, err := schema.ForType(typ)
	if err != nil {
		t.Fatalf("ForType(%v): %v", typ, err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPeerTagsSchema: the same constraints in invopop's, google's and
// swaggest's tags give the same schema, byte for byte.
func TestPeerTagsSchema(t *testing.T) {
	want := mustSchemaJSON(t, reflect.TypeFor[benchdata.Args]())
	for _, typ := range []reflect.Type{reflect.TypeFor[argsInvopop](), reflect.TypeFor[argsGoogle]()} {
		if got := mustSchemaJSON(t, typ); got != want {
			t.Errorf("ForType(%v) =\n%s\nwant (benchdata.Args, swaggest's tags)\n%s", typ, got, want)
		}
	}
	for _, w := range []string{`"description":"IATA code of the arrival airport"`, `"enum":["economy","premium","business","first"]`, `"exclusiveMinimum":0`} {
		if !strings.Contains(want, w) {
			t.Errorf("the schema lacks %s: %s", w, want)
		}
	}
}

// TestElemTagsSchema: items.* and values.* put the constraints under
// items and additionalProperties; the email element is what a named type
// with PrepareJSONSchema gives.
func TestElemTagsSchema(t *testing.T) {
	got := mustSchemaJSON(t, reflect.TypeFor[itemsByTag]())
	want := `{"type":"object","properties":{` +
		`"to":{"type":"array","items":{"type":"string","format":"email","maxLength":40},"minItems":1},` +
		`"scores":{"type":"object","properties":{},"additionalProperties":{"type":"integer","minimum":0,"maximum":100,"multipleOf":5}},` +
		`"grid":{"type":"array","items":{"type":"array","items":{"type":"number","exclusiveMinimum":0},"maxItems":3}},` +
		`"maybe":{"type":"array","items":{"type":["string","null"],"enum":["a","b",null]}},` +
		`"codes":{"type":["array","null"],"items":{"type":"string","description":"ISO 3166 code","pattern":"^[A-Z]{2}$"},"minItems":2,"maxItems":2}},` +
		`"required":["to","scores","grid","maybe"],"additionalProperties":false}`
	if got != want {
		t.Errorf("ForType(itemsByTag) =\n%s\nwant\n%s", got, want)
	}
	byType := mustSchemaJSON(t, reflect.TypeFor[itemsByType]())
	to := func(s string) string { return s[strings.Index(s, `"to":`):strings.Index(s, `,"scores"`)] }
	if to(got) != to(byType) {
		t.Errorf("items.format on []string: %s; a named type with PrepareJSONSchema: %s", to(got), to(byType))
	}
}

// TestElemTagsErrors: a misplaced element tag is a TypeError with the
// field path and the tag.
func TestElemTagsErrors(t *testing.T) {
	type bad struct {
		Name string `json:"name" items.format:"email"`
	}
	type badPeer struct {
		Tags []string `json:"tags" jsonschema:"format=colour"`
	}
	for _, tc := range []struct {
		typ       reflect.Type
		path, tag string
	}{
		{reflect.TypeFor[bad](), "Name", "items.format"},
		{reflect.TypeFor[badPeer](), "Tags", "jsonschema"},
	} {
		_, err := schema.ForType(tc.typ)
		var te *schema.TypeError
		if !errors.As(err, &te) || !errors.Is(err, schema.ErrInvalidTag) {
			t.Errorf("ForType(%v) = %v, want a TypeError wrapping ErrInvalidTag", tc.typ, err)
			continue
		}
		if te.Path != tc.path || te.Tag != tc.tag {
			t.Errorf("ForType(%v): path %q tag %q, want %q %q (%v)", tc.typ, te.Path, te.Tag, tc.path, tc.tag, err)
		}
	}
}
