package fields

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

type (
	inner struct {
		A int `json:"a"`
		B int
		C int `json:"c"`
	}
	other struct {
		B int
		C int
	}
	dominance struct {
		inner
		other
		C int    `json:"-"`
		D string `json:"d,omitempty"`
		E *int
		F int  `json:"f" default:"2"`
		G *int `json:"g" required:"true"`
		//lint:ignore U1000 unexported fields are skipped: that is the test
		h int
	}
	twice struct {
		X1 struct{ inner } `json:"x1"`
		inner
	}
)

func TestDescribeDominance(t *testing.T) {
	fs, err := Describe(reflect.TypeFor[dominance]())
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Name, GoPath string
		Required     bool
	}
	var got []row
	for _, f := range fs {
		got = append(got, row{f.Name, f.GoPath, f.Required})
	}
	// B is at one depth in two embedded structs, untagged in both: dropped.
	// c is tagged in inner only: it wins over other.C.
	want := []row{
		{"a", "inner.A", true},
		{"c", "inner.C", true},
		{"C", "other.C", true}, // json:"-" on dominance.C takes no name
		{"d", "D", false},
		{"E", "E", false},
		{"f", "F", false},
		{"g", "G", true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	fs2, _ := Describe(reflect.TypeFor[twice]())
	var names []string
	for _, f := range fs2 {
		names = append(names, f.Name)
	}
	if diff := cmp.Diff([]string{"x1", "a", "B", "c"}, names); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}

type badBase struct {
	N int `minLength:"1"`
}

type (
	ring1 *ring2
	ring2 *ring1
	chain *****int
)

func TestKindOfPointers(t *testing.T) {
	for _, tc := range []struct {
		t    reflect.Type
		want error
	}{
		{reflect.TypeFor[ring1](), ErrUnsupportedType},
		{reflect.TypeFor[*ring2](), ErrUnsupportedType},
		{reflect.TypeFor[chain](), nil},
	} {
		_, err := KindOf(tc.t)
		if !errors.Is(err, tc.want) {
			t.Errorf("KindOf(%v) = %v, want %v", tc.t, err, tc.want)
		}
	}
	if got := Deref(reflect.TypeFor[chain]()); got != reflect.TypeFor[int]() {
		t.Errorf("Deref(chain) = %v, want int", got)
	}
	if got := Deref(reflect.TypeFor[ring1]()); got.Kind() != reflect.Pointer {
		t.Errorf("Deref(ring1) = %v, want a pointer type (it never ends)", got)
	}
}

func TestParseRulesBounds(t *testing.T) {
	type args struct {
		N int8      `minimum:"-3" exclusiveMinimum:"-3" maximum:"2.5" exclusiveMaximum:"9"`
		F float64   `exclusiveMinimum:"0" minimum:"-1"`
		T time.Time `format:"date-time"`
	}
	st := reflect.TypeFor[args]()
	rules := func(i int) *Rules {
		f := st.Field(i)
		r, err := ParseRules(f.Type, f.Tag)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	n := rules(0)
	got := []any{n.Lower.Tag, n.Lower.Exclusive, n.Upper.Tag, n.IntLower.String(), n.IntUpper.String(), n.Set}
	if diff := cmp.Diff([]any{"exclusiveMinimum", true, "maximum", "-2", "2", true}, got); diff != "" {
		t.Errorf("int8 bounds (-want +got):\n%s", diff)
	}
	f := rules(1)
	if diff := cmp.Diff([]any{"exclusiveMinimum 0", true}, []any{f.Lower.String(), f.IntLower == nil}); diff != "" {
		t.Errorf("float bounds (-want +got):\n%s", diff)
	}
	if tr := rules(2); tr.Format != "" || tr.Set {
		t.Errorf("format:\"date-time\" on time.Time = %q (Set %v), want nothing added", tr.Format, tr.Set)
	}
}

func TestUnderAndJoin(t *testing.T) {
	type withBad struct{ badBase }
	_, err := Describe(reflect.TypeFor[withBad]())
	root := reflect.TypeFor[[]withBad]()
	var e *Error
	if !errors.As(Under(err, "Items[]", root), &e) {
		t.Fatalf("Under(%v) is not an *Error", err)
	}
	if diff := cmp.Diff([]any{"Items[].badBase.N", "minLength", root.String()}, []any{e.Path, e.Tag, e.Type.String()}); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	// The cached error is not changed by Under.
	_, again := Describe(reflect.TypeFor[withBad]())
	if errors.As(again, &e); e.Path != "badBase.N" || e.Type != nil {
		t.Errorf("cached error changed: %+v", e)
	}
	for _, tc := range [][3]string{{"", "A", "A"}, {"A", "", "A"}, {"A", "B", "A.B"}, {"A", "[].B", "A[].B"}, {"M", "{}", "M{}"}} {
		if got := Join(tc[0], tc[1]); got != tc[2] {
			t.Errorf("Join(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}

// A struct without embedded fields: names given twice still follow
// encoding/json's dominance. (Made with reflect.StructOf: vet rejects a json
// name given twice in source.)
func TestDescribeSameDepthNames(t *testing.T) {
	field := func(name, tag string) reflect.StructField {
		return reflect.StructField{Name: name, Type: reflect.TypeFor[int](), Tag: reflect.StructTag(tag)}
	}
	typ := reflect.StructOf([]reflect.StructField{
		field("X", `json:"n"`), field("Y", `json:"n"`), // both tagged: both dropped
		field("Z", ``), field("W", `json:"Z"`), // the tagged "Z" wins
		field("V", `json:"v"`),
	})
	fs, err := Describe(typ)
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]string
	for _, f := range fs {
		got = append(got, [2]string{f.Name, f.GoPath})
	}
	want := [][2]string{{"Z", "W"}, {"v", "V"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
}

func TestIntRange(t *testing.T) {
	for _, tc := range []struct {
		k      reflect.Kind
		lo, hi string
	}{
		{reflect.Int8, "-128", "127"}, {reflect.Uint8, "0", "255"},
		{reflect.Int32, "-2147483648", "2147483647"}, {reflect.Uint64, "0", "18446744073709551615"},
		{reflect.Int64, "-9223372036854775808", "9223372036854775807"},
	} {
		lo, hi := IntRange(tc.k)
		if diff := cmp.Diff([2]string{tc.lo, tc.hi}, [2]string{lo.String(), hi.String()}); diff != "" {
			t.Errorf("IntRange(%v) (-want +got):\n%s", tc.k, diff)
		}
	}
}

// A number tag repeated across fields is parsed once and shared, read-only.
func TestNumberTagShared(t *testing.T) {
	f64 := reflect.TypeFor[float64]()
	a, err := ParseRules(f64, `minimum:"1.25" maximum:"1e2"`)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseRules(reflect.TypeFor[int](), `exclusiveMaximum:"1.25" minimum:"-3"`)
	if err != nil {
		t.Fatal(err)
	}
	if a.Minimum != b.ExclusiveMaximum {
		t.Errorf("minimum:\"1.25\" and exclusiveMaximum:\"1.25\" parsed twice")
	}
	got := []string{a.Minimum.Rat.RatString(), a.Maximum.Rat.RatString(), b.IntLower.String(), b.IntUpper.String()}
	if diff := cmp.Diff([]string{"5/4", "100", "-3", "1"}, got); diff != "" {
		t.Errorf("bounds (-want +got):\n%s", diff)
	}
	if _, err := ParseRules(f64, `minimum:"1.25x"`); !errors.Is(err, ErrInvalidTag) {
		t.Errorf("minimum:\"1.25x\": error %v, want ErrInvalidTag", err)
	}
}
