package reflectx

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/internal/fields"
)

type badChan struct {
	Filters struct {
		When chan int `json:"when"`
	} `json:"filters"`
}

type badFunc struct{ F func() }
type badComplex struct{ C complex128 }
type badUnsafe struct{ P unsafe.Pointer }
type badUintptr struct{ P uintptr }
type badMapKey struct{ M map[float64]int }
type badStructKey struct{ M map[struct{ A int }]int }
type badIface struct{ E error }
type badSliceElem struct{ Xs []chan int }
type badMinimum struct {
	N int `minimum:"abc"`
}
type badMinLength struct {
	S string `minLength:"-1"`
}
type misfitMinLength struct {
	N int `json:"n" minLength:"1"`
}
type misfitEnum struct {
	Xs []string `enum:"a,b"`
}
type misfitPattern struct {
	N float64 `pattern:"^a$"`
}
type misfitMinItems struct {
	S string `minItems:"1"`
}
type misfitMinProps struct {
	Xs []int `minProperties:"1"`
}
type misfitMinimumPtr struct {
	S *string `minimum:"1"`
}
type minAboveMax struct {
	N int `minimum:"5" maximum:"1"`
}
type exclusiveEmpty struct {
	F float64 `exclusiveMinimum:"1" maximum:"1"`
}
type noIntegerLeft struct {
	N int `exclusiveMinimum:"1" exclusiveMaximum:"2"`
}
type boundOutsideType struct {
	N int8 `minimum:"200"`
}
type lengthMinAboveMax struct {
	S string `minLength:"5" maxLength:"2"`
}
type defaultViolates struct {
	Passengers int `json:"passengers" minimum:"1" default:"0"`
}
type defaultMalformed struct {
	N int `default:"x"`
}
type defaultEnum struct {
	Unit string `enum:"C,F" default:"K"`
}
type defaultJSONMalformed struct {
	M map[string]int `default:"{a:1}"`
}
type unknownFormat struct {
	S string `format:"phone"`
}
type badPattern struct {
	S string `pattern:"("`
}
type badEnumInt struct {
	N int `enum:"a,b"`
}
type badEnumRange struct {
	N uint8 `enum:"1,300"`
}
type badRequired struct {
	S string `required:"yes"`
}
type badMultiple struct {
	N int `multipleOf:"0"`
}
type badExamples struct {
	S string `examples:"not json"`
}

type quotedOption struct {
	N int `json:"n,string"`
}
type hidden struct{ X int }
type embedsUnexportedPtr struct {
	*hidden
}
type badTagName struct {
	//lint:ignore SA5008 a name encoding/json does not take falls back to the Go name: that is the test
	Odd int `json:"a\\b,omitempty"`
}

type requiredDefault struct {
	N int `default:"1" required:"true"`
}
type requiredDefaultPtr struct {
	P *string `default:"x" required:"1"`
}
type defaultIntKey struct {
	M map[int]bool `default:"{\"01\":true}"`
}

type nullableTag struct {
	S string `nullable:"true"`
}
type exampleViolates struct {
	N int `minimum:"1" example:"0"`
}
type examplesViolate struct {
	S string `enum:"a,b" examples:"[\"a\",\"c\"]"`
}
type enumViolates struct {
	N int `enum:"1,20" maximum:"10"`
}
type arrayItems struct {
	A [3]int `minItems:"2"`
}
type timeDefaultNotJSON struct {
	T time.Time `default:"2026-01-01T00:00:00Z"`
}
type timeMinLength struct {
	T time.Time `minLength:"1"`
}
type badTypeEnum struct {
	C cabinInt `json:"c"`
}

// cabinInt's Enum values are not integers.
type cabinInt int

func (cabinInt) Enum() []any { return []any{"x"} }

type okTags struct {
	A  int               `json:"a" minimum:"-3" maximum:"3" multipleOf:"0.5" enum:"[-2,0,2]" default:"2"`
	B  float32           `json:"b,omitempty" exclusiveMinimum:"0" exclusiveMaximum:"1.5"`
	C  string            `json:"c,omitempty" enum:"[\"x\",\"y,z\"]"`
	Cc string            `json:"cc,omitempty" const:"y,z" example:"y,z"`
	D  []int             `json:"d,omitempty" minItems:"0" maxItems:"4" uniqueItems:"true" default:"[1,2]"`
	E  map[string]string `json:"e,omitempty" minProperties:"1" maxProperties:"3" default:"{\"k\":\"v\"}"`
	F  *uint16           `json:"f" minimum:"10" default:"12"`
	G  bool              `json:"g,omitempty" const:"true" deprecated:"true" examples:"[true]"`
	H  []string          `json:"h,omitempty" default:"[\"p\",\"q\"]"`
	I  int               `json:"i" required:"0"`
	T  time.Time         `json:"t,omitzero" default:"\"2026-01-01T00:00:00Z\""`
	J  int               `json:"-"`
	//lint:ignore SA5008 json:"-," names the field "-", as encoding/json does: that is the test
	K int `json:"-,"`
	//lint:ignore U1000 unexported fields are skipped: that is the test
	l int
}

// oneOfExposer would add oneOf to its schema through swaggest's interface.
type oneOfExposer string

func (oneOfExposer) JSONSchemaOneOf() []any { return []any{"a", 1} }

func TestPlanForErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		typ  reflect.Type
		path string // the Go field path in the error, from the type
		hint string // a word the message must contain
	}{
		{"chan in nested struct", reflect.TypeFor[badChan](), "Filters.When", "chan int"},
		{"func", reflect.TypeFor[badFunc](), "F", "func()"},
		{"complex", reflect.TypeFor[badComplex](), "C", "complex128"},
		{"unsafe.Pointer", reflect.TypeFor[badUnsafe](), "P", "unsafe.Pointer"},
		{"uintptr", reflect.TypeFor[badUintptr](), "P", "uintptr"},
		{"float map key", reflect.TypeFor[badMapKey](), "M", "map[string]int"},
		{"struct map key", reflect.TypeFor[badStructKey](), "M", "consider"},
		{"non-empty interface", reflect.TypeFor[badIface](), "E", "consider any"},
		{"slice element", reflect.TypeFor[badSliceElem](), "Xs[]", "chan int"},
		{"malformed minimum", reflect.TypeFor[badMinimum](), "N", "minimum"},
		{"negative minLength", reflect.TypeFor[badMinLength](), "S", "minLength"},
		{"minLength on int", reflect.TypeFor[misfitMinLength](), "N", "consider minimum"},
		{"enum on slice", reflect.TypeFor[misfitEnum](), "Xs", "enum"},
		{"pattern on float", reflect.TypeFor[misfitPattern](), "N", "pattern"},
		{"minItems on string", reflect.TypeFor[misfitMinItems](), "S", "consider minLength"},
		{"minProperties on slice", reflect.TypeFor[misfitMinProps](), "Xs", "consider minItems"},
		{"minimum on *string", reflect.TypeFor[misfitMinimumPtr](), "S", "minimum"},
		{"min above max", reflect.TypeFor[minAboveMax](), "N", "no valid value"},
		{"exclusive bounds meet", reflect.TypeFor[exclusiveEmpty](), "F", "no valid value"},
		{"no integer between bounds", reflect.TypeFor[noIntegerLeft](), "N", "no integer"},
		{"bound outside the type", reflect.TypeFor[boundOutsideType](), "N", "int8"},
		{"minLength above maxLength", reflect.TypeFor[lengthMinAboveMax](), "S", "greater"},
		{"default violates minimum", reflect.TypeFor[defaultViolates](), "Passengers", "default"},
		{"default malformed", reflect.TypeFor[defaultMalformed](), "N", "default"},
		{"default outside enum", reflect.TypeFor[defaultEnum](), "Unit", "default"},
		{"default malformed JSON", reflect.TypeFor[defaultJSONMalformed](), "M", "default"},
		{"unknown format", reflect.TypeFor[unknownFormat](), "S", "consider one of"},
		{"bad pattern", reflect.TypeFor[badPattern](), "S", "RE2"},
		{"enum not ints", reflect.TypeFor[badEnumInt](), "N", "enum"},
		{"enum out of range", reflect.TypeFor[badEnumRange](), "N", "enum"},
		{"required not a bool", reflect.TypeFor[badRequired](), "S", "required"},
		{"multipleOf zero", reflect.TypeFor[badMultiple](), "N", "multipleOf"},
		{"examples not JSON", reflect.TypeFor[badExamples](), "S", "examples"},
		{"pointer to itself", reflect.TypeFor[recPtrHolder](), "P", "consider a struct"},
		{",string option", reflect.TypeFor[quotedOption](), "N", "consider a string field"},
		{"embedded pointer to unexported struct", reflect.TypeFor[embedsUnexportedPtr](), "hidden.X", "consider embedding it by value"},
		{"map value", reflect.TypeFor[map[string]func()](), "{}", "func()"},
		{"nullable tag", reflect.TypeFor[nullableTag](), "S", "consider a pointer"},
		{"required with default", reflect.TypeFor[requiredDefault](), "N", "default is never used on a required field"},
		{"required pointer with default", reflect.TypeFor[requiredDefaultPtr](), "P", "consider removing required"},
		{"default with a non-canonical integer key", reflect.TypeFor[defaultIntKey](), "M", "default"},
		{"example violates", reflect.TypeFor[exampleViolates](), "N", "example"},
		{"examples violate", reflect.TypeFor[examplesViolate](), "S", "example"},
		{"enum member violates", reflect.TypeFor[enumViolates](), "N", "enum member"},
		{"array minItems", reflect.TypeFor[arrayItems](), "A", "consider a slice"},
		{"time default not JSON", reflect.TypeFor[timeDefaultNotJSON](), "T", "default"},
		{"minLength on time", reflect.TypeFor[timeMinLength](), "T", "minLength"},
		{"type Enum values of the wrong type", reflect.TypeFor[badTypeEnum](), "C", "Enum method"},
		{"swaggest oneOf exposer", reflect.TypeFor[struct{ X []oneOfExposer }](), "X[]", "jsonschema.OneOfExposer"},
		{"root int", reflect.TypeFor[int](), "", "consider a struct"},
		{"root slice", reflect.TypeFor[[]string](), "", "consider a struct"},
		{"root non-empty interface", reflect.TypeFor[error](), "", "consider any"},
		{"root pointer", reflect.TypeFor[*okTags](), "", "consider a struct"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := PlanFor(tc.typ)
			if err == nil {
				t.Fatalf("PlanFor(%v) = %v, nil; want an error", tc.typ, p)
			}
			msg := err.Error()
			var fe *fields.Error
			if !errors.As(err, &fe) {
				t.Fatalf("PlanFor(%v) error %T is not a *fields.Error", tc.typ, err)
			}
			if diff := cmp.Diff(tc.path, fe.Path); diff != "" {
				t.Errorf("PlanFor(%v) = %q: path (-want +got):\n%s", tc.typ, msg, diff)
			}
			type shape struct {
				Type     reflect.Type
				Sentinel bool
			}
			sameType := cmp.Comparer(func(a, b reflect.Type) bool { return a == b })
			if diff := cmp.Diff(shape{tc.typ, true}, shape{fe.Type, fe.Err != nil}, sameType); diff != "" {
				t.Errorf("PlanFor(%v) = %+v: type and sentinel (-want +got):\n%s", tc.typ, fe, diff)
			}
			if !strings.Contains(msg, tc.hint) {
				t.Errorf("PlanFor(%v) = %q, want it to mention %q", tc.typ, msg, tc.hint)
			}
		})
	}
}

func TestInvalidTagNameFallsBack(t *testing.T) {
	p := mustPlan(t, reflect.TypeFor[badTagName]())
	if got := p.root.st.fields[0].name; got != "Odd" {
		t.Errorf("name = %q, want the Go name Odd (as encoding/json)", got)
	}
}

func TestPlanForNil(t *testing.T) {
	if _, err := PlanFor(nil); err == nil {
		t.Error("PlanFor(nil) = nil error")
	}
}

func TestPlanFields(t *testing.T) {
	p := mustPlan(t, reflect.TypeFor[okTags]())
	var names []string
	var required []string
	for _, f := range p.root.st.fields {
		names = append(names, f.name)
		if f.required {
			required = append(required, f.name)
		}
	}
	if got, want := strings.Join(names, ","), "a,b,c,cc,d,e,f,g,h,i,t,-"; got != want {
		t.Errorf("fields = %s, want %s", got, want)
	}
	if got, want := strings.Join(required, ","), "-"; got != want {
		t.Errorf("required = %s, want %s", got, want)
	}
	// Defaults and constraints of okTags work together.
	var v okTags
	if err := p.DecodeJSON(unsafe.Pointer(&v), []byte(`{"-":1,"c":"y,z","cc":"y,z","g":true}`)); err != nil {
		t.Fatal(err)
	}
	twelve := uint16(12)
	wantV := okTags{A: 2, Cc: "y,z", C: "y,z", D: []int{1, 2}, E: map[string]string{"k": "v"}, F: &twelve, G: true,
		H: []string{"p", "q"}, K: 1, T: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	if diff := cmp.Diff(wantV, v, cmp.AllowUnexported(okTags{})); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	v = okTags{} // dst must be a zero value
	err := p.DecodeJSON(unsafe.Pointer(&v), []byte(`{"-":1,"a":1,"b":1.5,"c":"w","cc":"x","g":false,"f":9,"e":{}}`))
	got := gotErrs(t, err)
	want := errs("/a", ErrConstraint, "/b", ErrConstraint, "/c", ErrConstraint, "/cc", ErrConstraint, "/e", ErrConstraint, "/f", ErrConstraint, "/g", ErrConstraint)
	sortErrs(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("errors = %v, want %v", got, want)
	}
}

func TestConcurrentDecode(t *testing.T) {
	p := mustPlan(t, zooType)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				var z zoo
				if err := p.DecodeJSON(unsafe.Pointer(&z), []byte(validZoo)); err != nil {
					t.Error(err)
					return
				}
				err := p.DecodeJSON(unsafe.Pointer(&z), []byte(`{"i":"x","zz":1}`))
				if got := len(gotErrs(t, err)); got != 2 {
					t.Errorf("got %d errors, want 2", got)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestRecursiveSharedPlan(t *testing.T) {
	p := mustPlan(t, treeType)
	st := p.root.st
	var children *field
	for i := range st.fields {
		if st.fields[i].name == "children" {
			children = &st.fields[i]
		}
	}
	if children == nil || children.node.elem.st != st {
		t.Fatal("the recursive field does not point back to the plan of its type")
	}
}

// TestWideStruct exercises the bitset beyond 256 fields and the shortened
// list of allowed names.
func TestWideStruct(t *testing.T) {
	var fields []reflect.StructField
	for i := 0; i < 300; i++ {
		tag := fmt.Sprintf(`json:"f%d,omitempty"`, i)
		if i == 299 {
			tag = `json:"f299"`
		}
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: reflect.TypeFor[int](), Tag: reflect.StructTag(tag)})
	}
	typ := reflect.StructOf(fields)
	p := mustPlan(t, typ)
	v := reflect.New(typ)
	err := p.DecodeJSON(v.UnsafePointer(), []byte(`{"f280":1,"f280":2,"zz":3}`))
	want := errs("/f280", ErrDuplicateKey, "/zz", ErrUnknownField, "/f299", ErrMissing)
	sortErrs(want)
	if got := gotErrs(t, err); !reflect.DeepEqual(got, want) {
		t.Errorf("errors = %v, want %v", got, want)
	}
	var ae *ArgErrors
	errors.As(err, &ae)
	for _, e := range ae.Errs {
		if e.Path == "/zz" && !strings.Contains(e.Want, "300 in all") {
			t.Errorf("Want = %q, want a shortened list", e.Want)
		}
	}
	v = reflect.New(typ)
	if err := p.DecodeMap(v.UnsafePointer(), map[string]any{"f299": 1.0, "f270": 2.0}); err != nil {
		t.Fatal(err)
	}
	if got := v.Elem().Field(270).Int(); got != 2 {
		t.Errorf("f270 = %d", got)
	}
}

type selfDecoding struct{ A int }

func (*selfDecoding) UnmarshalJSON([]byte) error { return nil }

// TestPlanForUnmarshalerRoot: a root type with its own UnmarshalJSON has no
// field-by-field plan, and says so with the define-time sentinel.
func TestPlanForUnmarshalerRoot(t *testing.T) {
	_, err := PlanFor(reflect.TypeFor[selfDecoding]())
	if !errors.Is(err, fields.ErrNotObject) {
		t.Errorf("PlanFor(selfDecoding) = %v, want ErrNotObject", err)
	}
}

// TestValueTagsCheckedByThePlan: the values a tag gives (enum members, a
// default, examples) are checked against the field's other constraints by
// the plan, with the checks a call's values meet; the error names the tag
// as written (a peer dialect's key included) and what was wanted.
func TestValueTagsCheckedByThePlan(t *testing.T) {
	tString, tStrings, tInt := reflect.TypeFor[string](), reflect.TypeFor[[]string](), reflect.TypeFor[int]()
	for _, tc := range []struct {
		typ   reflect.Type
		tag   reflect.StructTag
		key   string
		words []string
	}{
		{tString, `pattern:"^[a-z]+$" enum:"abc,Abc"`, "enum", []string{`the enum member "Abc"`, "string matching ^[a-z]+$"}},
		{tString, `enum:"a,b" const:"c"`, "enum", []string{`the enum member "a"`}},
		{tInt, `enum:"1,7" maximum:"5"`, "enum", []string{"the enum member 7", "<= 5"}},
		{tStrings, `items.enum:"a,bb" items.minLength:"2"`, "items.enum", []string{`the enum member "a"`, "at least 2 characters"}},
		{tString, `jsonschema:"enum=a,default=b"`, "jsonschema", []string{"key default", "one of \"a\""}},
		{tStrings, `jsonschema:"enum=a,minLength=2"`, "jsonschema", []string{"key enum (read as items.enum)", `the enum member "a"`}},
		{tString, `maxLength:"3" default:"toolong"`, "default", []string{`the default "toolong"`, "at most 3 characters"}},
		{tInt, `minimum:"1" example:"0"`, "example", []string{"the example 0", ">= 1"}},
	} {
		typ := reflect.StructOf([]reflect.StructField{{Name: "F", Type: tc.typ, Tag: `json:"f" ` + tc.tag}})
		_, err := PlanFor(typ)
		var fe *fields.Error
		if !errors.As(err, &fe) || !errors.Is(err, fields.ErrInvalidTag) {
			t.Errorf("%s %s: PlanFor error %v, want a *fields.Error wrapping ErrInvalidTag", tc.typ, tc.tag, err)
			continue
		}
		if fe.Tag != tc.key || fe.Path != "F" {
			t.Errorf("%s %s: path %q, tag %q; want F, %q (%v)", tc.typ, tc.tag, fe.Path, fe.Tag, tc.key, err)
		}
		for _, w := range tc.words {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s %s: %q does not mention %q", tc.typ, tc.tag, err, w)
			}
		}
	}
	// Members that fit pass.
	typ := reflect.StructOf([]reflect.StructField{{Name: "F", Type: tString, Tag: `json:"f" pattern:"^[a-z]+$" enum:"abc,xyz"`}})
	if _, err := PlanFor(typ); err != nil {
		t.Errorf("fitting members: %v", err)
	}
}
