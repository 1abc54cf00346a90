package reflectx

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// Decoded strings share one per-call buffer (decoder.makeString). A later
// call, reusing a pooled decoder, must never write into the buffer of an
// earlier call's strings, and no string may alias the caller's input.
func TestDecodedStringsOutliveLaterCalls(t *testing.T) {
	type pair struct {
		A string   `json:"a"`
		B []string `json:"b"`
	}
	p := mustPlan(t, reflect.TypeFor[pair]())
	input := []byte(`{"a":"first-call-a","b":["first-call-b0","first-call-b1"]}`)
	var first pair
	if err := p.DecodeJSON(unsafe.Pointer(&first), input); err != nil {
		t.Fatal(err)
	}
	for i := range input {
		input[i] = 'X' // the caller reuses its buffer
	}
	for i := 0; i < 1000; i++ {
		var later pair
		text := fmt.Sprintf(`{"a":"later-%04d-aaaaaaaaaaa","b":["later-%04d-bbbbbbbbbbbb"]}`, i, i)
		if err := p.DecodeJSON(unsafe.Pointer(&later), []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	want := pair{A: "first-call-a", B: []string{"first-call-b0", "first-call-b1"}}
	if !reflect.DeepEqual(first, want) {
		t.Errorf("first call's value = %+v after later calls and input reuse, want %+v", first, want)
	}

	// The same through DecodeJSONNew's frames.
	input = []byte(`{"a":"first-call-a","b":["first-call-b0","first-call-b1"]}`)
	v, err := p.DecodeJSONNew(input, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range input {
		input[i] = 'X'
	}
	for i := 0; i < 1000; i++ {
		text := fmt.Sprintf(`{"a":"later-%04d-aaaaaaaaaaa","b":["later-%04d-bbbbbbbbbbbb"]}`, i, i)
		if _, err := p.DecodeJSONNew([]byte(text), Limits{}); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(want, *(*pair)(v)); diff != "" {
		t.Errorf("DecodeJSONNew's first value after later calls and input reuse (-want +got):\n%s", diff)
	}
}

// DecodeJSONNew puts the value, its strings, its string slices and its
// scalar pointees in one allocation where they fit. Whatever shares it, the
// parts handed out never overlap: appending to one slice, or writing
// through a pointer, changes nothing else, also when a call needs more than
// the frame sized by the calls before it holds.
func TestDecodeJSONNewPartsAreDisjoint(t *testing.T) {
	type args struct {
		A  []string `json:"a"`
		B  []string `json:"b"`
		S  string   `json:"s"`
		PS *string  `json:"ps"`
		PF *float64 `json:"pf"`
		PI *int8    `json:"pi"`
		PB *bool    `json:"pb"`
	}
	p := mustPlan(t, reflect.TypeFor[args]())
	for round, n := range []int{1, 2, 3, 40, 2, 1, 70} { // frames sized for small and large calls, and misses
		var items []string
		for i := range n {
			items = append(items, fmt.Sprintf(`"item-%d-of-%d"`, i, n))
		}
		list := "[" + strings.Join(items, ",") + "]"
		text := fmt.Sprintf(`{"a":%s,"s":"plain","ps":"pointed","pf":2.5,"pi":-7,"pb":true,"b":%s}`, list, list)
		v, err := p.DecodeJSONNew([]byte(text), Limits{})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		got := (*args)(v)
		if cap(got.A) != n || cap(got.B) != n {
			t.Fatalf("round %d: caps %d and %d, want %d (no spare room to append into)", round, cap(got.A), cap(got.B), n)
		}
		got.A = append(got.A, "appended")
		*got.PS = "changed"
		*got.PF, *got.PI, *got.PB = 99, 99, false
		want := make([]string, n)
		for i := range n {
			want[i] = fmt.Sprintf("item-%d-of-%d", i, n)
		}
		if diff := cmp.Diff(want, got.B); diff != "" {
			t.Errorf("round %d: B after writes elsewhere (-want +got):\n%s", round, diff)
		}
		if diff := cmp.Diff(append(want, "appended"), got.A); diff != "" {
			t.Errorf("round %d: A (-want +got):\n%s", round, diff)
		}
		if got.S != "plain" {
			t.Errorf("round %d: S = %q after writes elsewhere", round, got.S)
		}
	}
}

// A pointee carved from the call's bytes is aligned for its type.
func TestDecodeJSONNewPointeeAlignment(t *testing.T) {
	type args struct {
		S  string   `json:"s"`
		PF *float64 `json:"pf"`
		PU *uint32  `json:"pu"`
		PG *float64 `json:"pg"`
	}
	p := mustPlan(t, reflect.TypeFor[args]())
	for range 3 { // the first call sizes the frame of the next ones
		v, err := p.DecodeJSONNew([]byte(`{"s":"odd","pu":7,"pf":1.5,"pg":-2}`), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		a := (*args)(v)
		for _, q := range []uintptr{uintptr(unsafe.Pointer(a.PF)), uintptr(unsafe.Pointer(a.PG))} {
			if q%8 != 0 {
				t.Errorf("*float64 at %#x, not 8-aligned", q)
			}
		}
		if uintptr(unsafe.Pointer(a.PU))%4 != 0 {
			t.Errorf("*uint32 at %p, not 4-aligned", a.PU)
		}
		if diff := cmp.Diff([]any{"odd", 1.5, uint32(7), -2.0}, []any{a.S, *a.PF, *a.PU, *a.PG}); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	}
}

// Invalid arguments give the errors of DecodeJSON and no value.
func TestDecodeJSONNewErrors(t *testing.T) {
	type args struct {
		N int      `json:"n" maximum:"3"`
		L []string `json:"l" maxItems:"1"`
	}
	p := mustPlan(t, reflect.TypeFor[args]())
	text := []byte(`{"n":4,"l":["x","y"]}`)
	var a args
	want := p.DecodeJSON(unsafe.Pointer(&a), text)
	v, got := p.DecodeJSONNew(text, Limits{})
	if v != nil {
		t.Errorf("value %p with an error", v)
	}
	var we, ge *ArgErrors
	if !errors.As(want, &we) || !errors.As(got, &ge) {
		t.Fatalf("errors %v and %v, want *ArgErrors", want, got)
	}
	rows := func(es *ArgErrors) []ArgError {
		var r []ArgError
		for _, e := range es.Errs {
			r = append(r, *e)
		}
		return r
	}
	if diff := cmp.Diff(rows(we), rows(ge), cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("(-DecodeJSON +DecodeJSONNew):\n%s", diff)
	}
	if _, err := p.DecodeJSONNew(text, Limits{MaxBytes: 4}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over MaxBytes: %v, want ErrTooLarge", err)
	}
}

// DecodeMapNew decodes as DecodeMap does, with the string slices and scalar
// pointees in the value's frame where they fit: disjoint, each slice with
// no spare capacity, whatever the calls before sized the frame for.
func TestDecodeMapNewPartsAreDisjoint(t *testing.T) {
	type args struct {
		A  []string `json:"a"`
		B  []string `json:"b"`
		PS *string  `json:"ps"`
		PF *float64 `json:"pf"`
	}
	p := mustPlan(t, reflect.TypeFor[args]())
	for round, n := range []int{1, 3, 40, 2, 70} {
		var list []any
		for i := range n {
			list = append(list, fmt.Sprintf("item-%d", i))
		}
		m := map[string]any{"a": list, "b": list, "ps": "pointed", "pf": 2.5}
		var want args
		if err := p.DecodeMap(unsafe.Pointer(&want), m); err != nil {
			t.Fatal(err)
		}
		v, err := p.DecodeMapNew(m, Limits{})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		got := (*args)(v)
		if diff := cmp.Diff(want, *got); diff != "" {
			t.Fatalf("round %d: DecodeMapNew differs from DecodeMap (-want +got):\n%s", round, diff)
		}
		if cap(got.A) != n || cap(got.B) != n {
			t.Fatalf("round %d: caps %d and %d, want %d", round, cap(got.A), cap(got.B), n)
		}
		got.A = append(got.A, "appended")
		*got.PS, *got.PF = "changed", 99
		if diff := cmp.Diff(want.B, got.B); diff != "" {
			t.Errorf("round %d: B after writes elsewhere (-want +got):\n%s", round, diff)
		}
	}
	if _, err := p.DecodeMapNew(map[string]any{"a": 1}, Limits{}); !errors.Is(err, ErrType) {
		t.Errorf("a number for a list: %v, want ErrType", err)
	}
}

type textField struct{ v string }

func (t *textField) UnmarshalText(b []byte) error { t.v = string(b); return nil }

type jsonField struct{ v string }

func (j *jsonField) UnmarshalJSON(b []byte) error { j.v = string(b); return nil }

// UserMethods finds a user's decoding method anywhere in the plan: in a
// field, an element, a pointee, a map value, a recursive type.
func TestUserMethods(t *testing.T) {
	type rec struct {
		Next *rec     `json:"next,omitempty"`
		Tags []string `json:"tags,omitempty"`
	}
	type deep struct {
		M map[string][]*textField `json:"m"`
	}
	cases := []struct {
		typ  reflect.Type
		want bool
	}{
		{reflect.TypeFor[struct {
			A string `json:"a"`
		}](), false},
		{reflect.TypeFor[rec](), false},
		{reflect.TypeFor[map[string]any](), false},
		{reflect.TypeFor[struct {
			T textField `json:"t"`
		}](), true},
		{reflect.TypeFor[struct {
			J []jsonField `json:"j"`
		}](), true},
		{reflect.TypeFor[deep](), true},
	}
	for _, c := range cases {
		p := mustPlan(t, c.typ)
		for range 2 { // computed, then cached
			if got := p.UserMethods(); got != c.want {
				t.Errorf("%v: UserMethods() = %v, want %v", c.typ, got, c.want)
			}
		}
	}
}

// Calls through one Scratch share frames (its reserve), each frame holding
// a few calls' slots and bytes. What each call gets stays its own: after
// many calls, each value is intact, and appending to its slices or writing
// through its pointers changes no other value.
func TestScratchReserveDisjoint(t *testing.T) {
	type args struct {
		S  string   `json:"s"`
		A  []string `json:"a"`
		PS *string  `json:"ps"`
		PF *float64 `json:"pf"`
		PI *int8    `json:"pi"`
	}
	p := mustPlan(t, reflect.TypeFor[args]())
	var s Scratch
	const calls = 200
	got := make([]*args, calls)
	want := make([]args, calls)
	for i := range calls {
		n := 1 + i%3
		if i%50 == 49 {
			n = 40 // a call larger than the reserve was sized for
		}
		items := make([]string, n)
		quoted := make([]string, n)
		for j := range n {
			items[j] = fmt.Sprintf("c%d-item%d", i, j)
			quoted[j] = `"` + items[j] + `"`
		}
		ps, pf, pi := fmt.Sprintf("c%d-pointed", i), float64(i)+0.5, int8(i%100)
		want[i] = args{S: fmt.Sprintf("c%d-s", i), A: items, PS: &ps, PF: &pf, PI: &pi}
		text := fmt.Sprintf(`{"s":"c%d-s","a":[%s],"ps":"%s","pf":%v,"pi":%d}`, i, strings.Join(quoted, ","), ps, pf, pi)
		got[i] = new(args)
		if i%7 == 3 {
			// A bad call in between hands out memory too, and no value.
			var bad args
			if err := p.DecodeJSONWith(&s, unsafe.Pointer(&bad), []byte(`{"s":"bad-string","a":["x",1],"pf":"no"}`), Limits{}); err == nil {
				t.Fatal("bad call decoded")
			}
		}
		if err := p.DecodeJSONWith(&s, unsafe.Pointer(got[i]), []byte(text), Limits{}); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	for i, g := range got {
		if diff := cmp.Diff(want[i], *g); diff != "" {
			t.Fatalf("call %d after later calls (-want +got):\n%s", i, diff)
		}
		if cap(g.A) != len(g.A) {
			t.Fatalf("call %d: cap %d, len %d (spare room to append into)", i, cap(g.A), len(g.A))
		}
	}
	for _, g := range got {
		g.A = append(g.A, "appended")
		*g.PS, *g.PF, *g.PI = "changed", -1, -1
		g.A[0] = "overwritten"
	}
	for i, g := range got {
		w := want[i]
		if g.S != w.S || len(g.A) != len(w.A)+1 || g.A[len(g.A)-1] != "appended" || g.A[0] != "overwritten" ||
			*g.PS != "changed" || *g.PF != -1 || *g.PI != -1 {
			t.Errorf("call %d after every value was changed: %+v", i, *g)
		}
		for j := 1; j < len(w.A); j++ {
			if g.A[j] != fmt.Sprintf("c%d-item%d", i, j) {
				t.Errorf("call %d: item %d = %q after writes to other values", i, j, g.A[j])
			}
		}
	}
}

// Small calls through one Scratch allocate less than once per call: they
// share the frames of the reserve.
func TestScratchReserveAllocs(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts (the race detector changes them)")
	}
	type args struct {
		S string   `json:"s"`
		A []string `json:"a"`
	}
	p := mustPlan(t, reflect.TypeFor[args]())
	var s Scratch
	text := []byte(`{"s":"some text","a":["x","yy","zzz"]}`)
	var a args
	got := testing.AllocsPerRun(100, func() {
		a = args{}
		if err := p.DecodeJSONWith(&s, unsafe.Pointer(&a), text, Limits{}); err != nil {
			t.Fatal(err)
		}
	})
	if got >= 1 {
		t.Errorf("DecodeJSONWith allocates %v per call, want less than 1", got)
	}
	// Through the package's pool, without a reserve: one frame per call.
	got = testing.AllocsPerRun(100, func() {
		a = args{}
		if err := p.DecodeJSON(unsafe.Pointer(&a), text); err != nil {
			t.Fatal(err)
		}
	})
	if got != 1 {
		t.Errorf("DecodeJSON allocates %v per call, want 1", got)
	}
}
