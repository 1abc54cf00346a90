package schema_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/internal/typeinfo"
	"github.com/toolnexus/toolnexus/internal/zoo"
	"github.com/toolnexus/toolnexus/schema"
)

type (
	argsChan struct {
		Filters struct {
			When chan int `json:"when"`
		} `json:"filters"`
	}
	argsFunc    struct{ F func() }
	argsComplex struct{ C complex128 }
	argsUnsafe  struct{ P unsafe.Pointer }
	argsUintptr struct{ U uintptr }
	argsMapKey  struct{ M map[bool]int }
	argsMapKey2 struct{ M map[zoo.Point]int }
	argsIface   struct{ E error }
	argsSliceFn struct{ Fs []func() }
	argsMapChan struct{ M map[string]chan int }
	argsPtrFn   struct{ P *func() }
	argsDeep    struct{ Items []struct{ Bad complex64 } }

	tagMinLengthInt struct {
		N int `minLength:"1"`
	}
	tagEnumSlice struct {
		S []string `enum:"a,b"`
	}
	tagMinimumString struct {
		S string `minimum:"1"`
	}
	tagMinItemsString struct {
		S string `minItems:"1"`
	}
	tagMinPropsStruct struct {
		P zoo.Point `minProperties:"1"`
	}
	tagFormatInt struct {
		N int `format:"date"`
	}
	tagPatternTime struct {
		T time.Time `pattern:"^2"`
	}
	tagMinimumBad struct {
		N int `minimum:"abc"`
	}
	tagMinimumHex struct {
		N int `minimum:"0x10"`
	}
	tagMinLengthNeg struct {
		S string `minLength:"-1"`
	}
	tagPatternBad struct {
		S string `pattern:"("`
	}
	tagRequiredBad struct {
		S string `required:"maybe"`
	}
	tagRequiredDefault struct {
		N int `default:"1" required:"true"`
	}
	tagRequiredDefaultPtr struct {
		P *string `default:"x" required:"1"`
	}
	tagDefaultIntKey struct {
		M map[int]bool `default:"{\"01\":true}"`
	}
	tagDefaultEmailSpace struct {
		S string `format:"email" default:" a@example.com"`
	}
	tagEnumIntBad struct {
		N int `enum:"1,x"`
	}
	tagEnumJSONBad struct {
		N int `enum:"[1,"`
	}
	tagEnumFraction struct {
		N int `enum:"[1.5]"`
	}
	tagConstRange struct {
		N uint8 `const:"300"`
	}
	tagDefaultInt struct {
		N int `default:"abc"`
	}
	tagDefaultJSON struct {
		S []string `default:"[1"`
	}
	tagExamplesBad struct {
		S string `examples:"nope"`
	}
	tagUniqueBad struct {
		S []int `uniqueItems:"yes"`
	}
	tagBoolConst struct {
		B bool `const:"yes"`
	}
	tagFormatUnknown struct {
		S string `format:"phone"`
	}
	tagMinMax struct {
		N int `minimum:"5" maximum:"1"`
	}
	tagExclusiveEqual struct {
		N float64 `exclusiveMinimum:"1" exclusiveMaximum:"1"`
	}
	tagUint8Over struct {
		N uint8 `minimum:"300"`
	}
	tagLengths struct {
		S string `minLength:"5" maxLength:"1"`
	}
	tagItems struct {
		S []int `minItems:"3" maxItems:"1"`
	}
	tagMultipleZero struct {
		N int `multipleOf:"0"`
	}
	tagNullable struct {
		S string `nullable:"true"`
	}
	tagStringOpt struct {
		N int `json:"n,string"`
	}
	tagArrayLen struct {
		A [3]int `minItems:"2"`
	}
	tagDefaultMin struct {
		N int `default:"0" minimum:"1"`
	}
	tagDefaultEnum struct {
		S string `default:"x" enum:"a,b"`
	}
	tagDefaultLen struct {
		S string `default:"toolong" maxLength:"3"`
	}
	tagDefaultUnique struct {
		S []int `default:"[1,1]" uniqueItems:"true"`
	}
	tagDefaultStruct struct {
		P zoo.Point `default:"{\"x\":1}"`
	}
	tagDefaultFormat struct {
		S string `default:"nope" format:"uuid"`
	}
	tagEnumVsConst struct {
		S string `enum:"a,b" const:"c"`
	}
	tagExampleBad struct {
		N int `example:"1.5"`
	}
	tagDeprecatedBad struct {
		S string `deprecated:"x"`
	}
	tagHugeExponent struct {
		N float64 `maximum:"1e999999"`
	}
	tagNested struct {
		Outer struct {
			Inner []struct {
				S string `maxLength:"x"`
			}
		}
	}

	selfPointer        *selfPointer
	argsSelfPointer    struct{ P selfPointer }
	argsSelfPointerMap struct{ M map[string]selfPointer }
	ringA              *ringB
	ringB              *ringC
	ringC              *ringA
	argsRing           struct{ R []ringA }
	tagFormatOnTime    struct {
		T time.Time `format:"date"`
	}
	tagLengthOnJSONU struct {
		R json.RawMessage `minLength:"1"`
	}
	tagExamplesWrongType struct {
		N int `examples:"[\"a\"]"`
	}
	tagEnumEmpty struct {
		N int `enum:"[]"`
	}
	tagNoIntegerLeft struct {
		N int `exclusiveMinimum:"1" exclusiveMaximum:"2"`
	}
	tagDefaultTimeBad struct {
		T time.Time `default:"\"yesterday\""`
	}
	tagDefaultNestedBad struct {
		P []zoo.Point `default:"[{\"x\":1,\"y\":\"no\"}]"`
	}
	tagExampleNestedBad struct {
		M map[string]int8 `example:"{\"a\":300}"`
	}
	tagDefaultUint8Key struct {
		M map[uint8]int `default:"{\"300\":1}"`
	}

	enumOnStruct   struct{ V badEnum }
	embedUnexpPtr  struct{ *hidden }
	hidden         struct{ X int }
	badEnum        struct{ A int }
	wrongEnumValue string
	argsWrongEnum  struct{ W wrongEnumValue }
)

func (badEnum) Enum() []any        { return []any{1} }
func (wrongEnumValue) Enum() []any { return []any{1, 2} }

func TestForTypeErrors(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		err  error
		path string
		tag  string
	}{
		{"chan nested", reflect.TypeFor[argsChan](), schema.ErrUnsupportedType, "Filters.When", ""},
		{"func", reflect.TypeFor[argsFunc](), schema.ErrUnsupportedType, "F", ""},
		{"complex", reflect.TypeFor[argsComplex](), schema.ErrUnsupportedType, "C", ""},
		{"unsafe pointer", reflect.TypeFor[argsUnsafe](), schema.ErrUnsupportedType, "P", ""},
		{"uintptr", reflect.TypeFor[argsUintptr](), schema.ErrUnsupportedType, "U", ""},
		{"bool map key", reflect.TypeFor[argsMapKey](), schema.ErrUnsupportedType, "M", ""},
		{"struct map key", reflect.TypeFor[argsMapKey2](), schema.ErrUnsupportedType, "M", ""},
		{"interface with methods", reflect.TypeFor[argsIface](), schema.ErrUnsupportedType, "E", ""},
		{"slice of func", reflect.TypeFor[argsSliceFn](), schema.ErrUnsupportedType, "Fs[]", ""},
		{"map of chan", reflect.TypeFor[argsMapChan](), schema.ErrUnsupportedType, "M{}", ""},
		{"pointer to func", reflect.TypeFor[argsPtrFn](), schema.ErrUnsupportedType, "P", ""},
		{"deep complex", reflect.TypeFor[argsDeep](), schema.ErrUnsupportedType, "Items[].Bad", ""},
		{"pointer to itself", reflect.TypeFor[argsSelfPointer](), schema.ErrUnsupportedType, "P", ""},
		{"map of pointer to itself", reflect.TypeFor[argsSelfPointerMap](), schema.ErrUnsupportedType, "M{}", ""},
		{"ring of pointer types", reflect.TypeFor[argsRing](), schema.ErrUnsupportedType, "R[]", ""},
		{"embedded pointer to unexported", reflect.TypeFor[embedUnexpPtr](), schema.ErrUnsupportedType, "hidden.X", ""},

		{"minLength on int", reflect.TypeFor[tagMinLengthInt](), schema.ErrInvalidTag, "N", "minLength"},
		{"enum on slice", reflect.TypeFor[tagEnumSlice](), schema.ErrInvalidTag, "S", "enum"},
		{"minimum on string", reflect.TypeFor[tagMinimumString](), schema.ErrInvalidTag, "S", "minimum"},
		{"minItems on string", reflect.TypeFor[tagMinItemsString](), schema.ErrInvalidTag, "S", "minItems"},
		{"minProperties on struct", reflect.TypeFor[tagMinPropsStruct](), schema.ErrInvalidTag, "P", "minProperties"},
		{"format on int", reflect.TypeFor[tagFormatInt](), schema.ErrInvalidTag, "N", "format"},
		{"pattern on time", reflect.TypeFor[tagPatternTime](), schema.ErrInvalidTag, "T", "pattern"},
		{"malformed minimum", reflect.TypeFor[tagMinimumBad](), schema.ErrInvalidTag, "N", "minimum"},
		{"hex minimum", reflect.TypeFor[tagMinimumHex](), schema.ErrInvalidTag, "N", "minimum"},
		{"negative minLength", reflect.TypeFor[tagMinLengthNeg](), schema.ErrInvalidTag, "S", "minLength"},
		{"malformed pattern", reflect.TypeFor[tagPatternBad](), schema.ErrInvalidTag, "S", "pattern"},
		{"malformed required", reflect.TypeFor[tagRequiredBad](), schema.ErrInvalidTag, "S", "required"},
		{"required with default", reflect.TypeFor[tagRequiredDefault](), schema.ErrInvalidTag, "N", "default"},
		{"required pointer with default", reflect.TypeFor[tagRequiredDefaultPtr](), schema.ErrInvalidTag, "P", "default"},
		{"default with a non-canonical integer key", reflect.TypeFor[tagDefaultIntKey](), schema.ErrInvalidTag, "M", "default"},
		{"default with a uint8 key out of range", reflect.TypeFor[tagDefaultUint8Key](), schema.ErrInvalidTag, "M", "default"},
		{"format other than date-time on time.Time", reflect.TypeFor[tagFormatOnTime](), schema.ErrInvalidTag, "T", "format"},
		{"minLength on RawMessage", reflect.TypeFor[tagLengthOnJSONU](), schema.ErrInvalidTag, "R", "minLength"},
		{"examples of the wrong type", reflect.TypeFor[tagExamplesWrongType](), schema.ErrInvalidTag, "N", "examples"},
		{"empty enum", reflect.TypeFor[tagEnumEmpty](), schema.ErrInvalidTag, "N", "enum"},
		{"bounds leave no integer", reflect.TypeFor[tagNoIntegerLeft](), schema.ErrInvalidTag, "N", ""},
		{"time default not a date-time", reflect.TypeFor[tagDefaultTimeBad](), schema.ErrInvalidTag, "T", "default"},
		{"default breaks a nested field", reflect.TypeFor[tagDefaultNestedBad](), schema.ErrInvalidTag, "P", "default"},
		{"example breaks the element type", reflect.TypeFor[tagExampleNestedBad](), schema.ErrInvalidTag, "M", "example"},
		{"email default with a space", reflect.TypeFor[tagDefaultEmailSpace](), schema.ErrInvalidTag, "S", "default"},
		{"enum item not an int", reflect.TypeFor[tagEnumIntBad](), schema.ErrInvalidTag, "N", "enum"},
		{"enum malformed JSON", reflect.TypeFor[tagEnumJSONBad](), schema.ErrInvalidTag, "N", "enum"},
		{"enum fraction on int", reflect.TypeFor[tagEnumFraction](), schema.ErrInvalidTag, "N", "enum"},
		{"const out of range", reflect.TypeFor[tagConstRange](), schema.ErrInvalidTag, "N", "const"},
		{"default not an int", reflect.TypeFor[tagDefaultInt](), schema.ErrInvalidTag, "N", "default"},
		{"default malformed JSON", reflect.TypeFor[tagDefaultJSON](), schema.ErrInvalidTag, "S", "default"},
		{"examples not an array", reflect.TypeFor[tagExamplesBad](), schema.ErrInvalidTag, "S", "examples"},
		{"uniqueItems not a bool", reflect.TypeFor[tagUniqueBad](), schema.ErrInvalidTag, "S", "uniqueItems"},
		{"bool const", reflect.TypeFor[tagBoolConst](), schema.ErrInvalidTag, "B", "const"},
		{"unknown format", reflect.TypeFor[tagFormatUnknown](), schema.ErrInvalidTag, "S", "format"},
		{"minimum above maximum", reflect.TypeFor[tagMinMax](), schema.ErrInvalidTag, "N", ""},
		{"exclusive bounds equal", reflect.TypeFor[tagExclusiveEqual](), schema.ErrInvalidTag, "N", ""},
		{"minimum above uint8 range", reflect.TypeFor[tagUint8Over](), schema.ErrInvalidTag, "N", ""},
		{"minLength above maxLength", reflect.TypeFor[tagLengths](), schema.ErrInvalidTag, "S", ""},
		{"minItems above maxItems", reflect.TypeFor[tagItems](), schema.ErrInvalidTag, "S", ""},
		{"multipleOf zero", reflect.TypeFor[tagMultipleZero](), schema.ErrInvalidTag, "N", "multipleOf"},
		{"nullable tag", reflect.TypeFor[tagNullable](), schema.ErrInvalidTag, "S", "nullable"},
		{"string option", reflect.TypeFor[tagStringOpt](), schema.ErrInvalidTag, "N", "json"},
		{"array length contradicted", reflect.TypeFor[tagArrayLen](), schema.ErrInvalidTag, "A", "minItems"},
		{"default below minimum", reflect.TypeFor[tagDefaultMin](), schema.ErrInvalidTag, "N", "default"},
		{"default outside enum", reflect.TypeFor[tagDefaultEnum](), schema.ErrInvalidTag, "S", "default"},
		{"default too long", reflect.TypeFor[tagDefaultLen](), schema.ErrInvalidTag, "S", "default"},
		{"default not unique", reflect.TypeFor[tagDefaultUnique](), schema.ErrInvalidTag, "S", "default"},
		{"default misses required", reflect.TypeFor[tagDefaultStruct](), schema.ErrInvalidTag, "P", "default"},
		{"default breaks format", reflect.TypeFor[tagDefaultFormat](), schema.ErrInvalidTag, "S", "default"},
		{"enum member breaks const", reflect.TypeFor[tagEnumVsConst](), schema.ErrInvalidTag, "S", "enum"},
		{"example not an int", reflect.TypeFor[tagExampleBad](), schema.ErrInvalidTag, "N", "example"},
		{"deprecated not a bool", reflect.TypeFor[tagDeprecatedBad](), schema.ErrInvalidTag, "S", "deprecated"},
		{"huge exponent", reflect.TypeFor[tagHugeExponent](), schema.ErrInvalidTag, "N", "maximum"},
		{"nested path", reflect.TypeFor[tagNested](), schema.ErrInvalidTag, "Outer.Inner[].S", "maxLength"},
		{"Enum method on struct", reflect.TypeFor[enumOnStruct](), schema.ErrInvalidTag, "V", ""},
		{"Enum method with wrong values", reflect.TypeFor[argsWrongEnum](), schema.ErrInvalidTag, "W", ""},

		{"root string", reflect.TypeFor[string](), schema.ErrNotObject, "", ""},
		{"root slice", reflect.TypeFor[[]zoo.Point](), schema.ErrNotObject, "", ""},
		{"root time", reflect.TypeFor[time.Time](), schema.ErrNotObject, "", ""},
		{"root int pointer", reflect.TypeFor[*int](), schema.ErrNotObject, "", ""},
		{"root text struct", reflect.TypeFor[zoo.LatLng](), schema.ErrNotObject, "", ""},
		{"root map with bool keys", reflect.TypeFor[map[bool]int](), schema.ErrUnsupportedType, "", ""},
		{"nil type", nil, schema.ErrNotObject, "", ""},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		if seen[tt.name] {
			t.Fatalf("duplicate row name %q", tt.name)
		}
		seen[tt.name] = true
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.ForType(tt.typ)
			prefix := "schema: ForType("
			if byDecoder[tt.name] {
				// Only the decoder finds it, by decoding the tag's value:
				// ForType (which has no decoder) accepts the type and its
				// definition as a tool's input refuses it.
				if err != nil {
					t.Fatalf("ForType(%v) error = %v; want it left to the decoder", tt.typ, err)
				}
				s, err, prefix = nil, nil, "input type "
				if _, err = typeinfo.Input(tt.typ); err == nil {
					t.Fatalf("typeinfo.Input(%v) succeeded, want an error wrapping %v", tt.typ, tt.err)
				}
			}
			if err == nil {
				data, _ := s.MarshalJSON()
				t.Fatalf("ForType(%v) = %s, want an error wrapping %v", tt.typ, data, tt.err)
			}
			if s != nil {
				t.Errorf("ForType(%v) returned a schema with its error", tt.typ)
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("ForType(%v) error = %v, want one wrapping %v", tt.typ, err, tt.err)
			}
			var te *schema.TypeError
			if !errors.As(err, &te) {
				t.Fatalf("ForType(%v) error %T is not a *schema.TypeError", tt.typ, err)
			}
			if te.Path != tt.path {
				t.Errorf("ForType(%v) error path = %q, want %q (error: %v)", tt.typ, te.Path, tt.path, err)
			}
			if te.Tag != tt.tag {
				t.Errorf("ForType(%v) error tag = %q, want %q (error: %v)", tt.typ, te.Tag, tt.tag, err)
			}
			if te.Type != tt.typ {
				t.Errorf("ForType(%v) error type = %v, want the argument", tt.typ, te.Type)
			}
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q does not start with %q", err, prefix)
			}
			if byDecoder[tt.name] {
				return
			}
			// A second build finds the same error.
			if _, err2 := schema.ForType(tt.typ); !errors.Is(err2, tt.err) {
				t.Errorf("second ForType(%v) error = %v, want one wrapping %v", tt.typ, err2, tt.err)
			}
		})
	}
}

// byDecoder names the rows of TestForTypeErrors whose problem is a value
// a tag gives (a default, an example, an enum member) that breaks the
// field's other constraints: the decode plan finds it, checking the value
// as a call's would be, when a tool of the type is defined.
var byDecoder = map[string]bool{
	"default with a non-canonical integer key": true,
	"default with a uint8 key out of range":    true,
	"time default not a date-time":             true,
	"default breaks a nested field":            true,
	"example breaks the element type":          true,
	"default not unique":                       true,
	"default misses required":                  true,
	"email default with a space":               true,
	"default below minimum":                    true,
	"default outside enum":                     true,
	"default too long":                         true,
	"default breaks format":                    true,
	"enum member breaks const":                 true,
}

func TestForTypeErrorMessage(t *testing.T) {
	_, err := schema.For[argsChan]()
	const want = "schema: ForType(schema_test.argsChan): field Filters.When: unsupported type chan int (consider"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("For[argsChan]() error = %v, want prefix %q", err, want)
	}
}

// TestTimeFormatDateTime: format:"date-time" on a time.Time field says what
// the type says already, and is accepted; the schema is the same as
// without the tag.
func TestTimeFormatDateTime(t *testing.T) {
	type withTag struct {
		T time.Time  `json:"t" format:"date-time"`
		P *time.Time `json:"p" format:"date-time"`
	}
	type without struct {
		T time.Time  `json:"t"`
		P *time.Time `json:"p"`
	}
	got, err := schema.For[withTag]()
	if err != nil {
		t.Fatal(err)
	}
	want, err := schema.For[without]()
	if err != nil {
		t.Fatal(err)
	}
	gotJSON, _ := got.MarshalJSON()
	wantJSON, _ := want.MarshalJSON()
	if diff := cmp.Diff(string(wantJSON), string(gotJSON)); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
}
