package reflectx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

type uniqueAny struct {
	V []any `json:"v" uniqueItems:"true"`
}
type uniqueTimes struct {
	V []time.Time `json:"v" uniqueItems:"true"`
}
type uniquePtrs struct {
	V []*int `json:"v" uniqueItems:"true"`
}
type uniqueMaps struct {
	V []map[string]any `json:"v" uniqueItems:"true"`
}
type uniqueSlices struct {
	V [][]float64 `json:"v" uniqueItems:"true"`
}
type withPtr struct {
	A *float64 `json:"a"`
	B string   `json:"b,omitempty"`
}
type uniqueStructs struct {
	V []withPtr `json:"v" uniqueItems:"true"`
}
type uniqueRaw struct {
	V []json.RawMessage `json:"v" uniqueItems:"true"`
}
type uniqueIntMaps struct {
	V []map[int]*int `json:"v" uniqueItems:"true"`
}
type uniqueArray struct {
	V [3]any `json:"v" uniqueItems:"true"`
}

// decodeAllWays decodes text into a fresh value of t by JSON text and by
// both map forms, returning the three errors.
func decodeAllWays(t *testing.T, typ reflect.Type, text string) []error {
	t.Helper()
	p := mustPlan(t, typ)
	var out []error
	out = append(out, p.DecodeJSON(reflect.New(typ).UnsafePointer(), []byte(text)))
	fm, nm := mapsOf(t, text, modeAll)
	out = append(out, p.DecodeMap(reflect.New(typ).UnsafePointer(), fm))
	out = append(out, p.DecodeMap(reflect.New(typ).UnsafePointer(), nm))
	return out
}

func TestUniqueItems(t *testing.T) {
	cases := []struct {
		typ  reflect.Type
		v    string
		dup  bool
		note string
	}{
		{reflect.TypeFor[uniqueAny](), `[1, 1.0]`, true, "numbers by value"},
		{reflect.TypeFor[uniqueAny](), `[10, 1e1]`, true, "exponent"},
		{reflect.TypeFor[uniqueAny](), `[0, -0]`, true, "signed zero"},
		{reflect.TypeFor[uniqueAny](), `[0.5, 5e-1, 50E-2]`, true, "fractions"},
		{reflect.TypeFor[uniqueAny](), `[{"a":1},{"a":1.0}]`, true, "members by value"},
		{reflect.TypeFor[uniqueAny](), `[{"a":1,"b":[2]},{"b":[2.0],"a":1}]`, true, "member order"},
		{reflect.TypeFor[uniqueAny](), `[1, "1"]`, false, "number and string"},
		{reflect.TypeFor[uniqueAny](), `[[1],[1,0]]`, false, "array lengths"},
		{reflect.TypeFor[uniqueAny](), `[null, false, 0, "", [], {}]`, false, "distinct kinds"},
		{reflect.TypeFor[uniqueAny](), `[{"a":"b"},{"ab":""}]`, false, "key and value boundaries"},
		{reflect.TypeFor[uniqueAny](), `[1, 1.000000000000000000001]`, false, "beyond float64"},
		{reflect.TypeFor[uniqueAny](), `[123456789012345678901, 123456789012345678902]`, false, "large integers"},
		{reflect.TypeFor[uniqueTimes](), `["2024-01-01T00:00:00Z","2024-01-01T00:00:00Z"]`, true, "times"},
		{reflect.TypeFor[uniqueTimes](), `["2024-01-01T00:00:00Z","2024-01-01T00:00:01Z"]`, false, "distinct times"},
		{reflect.TypeFor[uniquePtrs](), `[1, 2, 1]`, true, "pointers by value"},
		{reflect.TypeFor[uniquePtrs](), `[null, 0, null]`, true, "null pointers"},
		{reflect.TypeFor[uniquePtrs](), `[null, 0]`, false, "null is not zero"},
		{reflect.TypeFor[uniqueMaps](), `[{"x":[1]},{"x":[1.0]}]`, true, "maps"},
		{reflect.TypeFor[uniqueMaps](), `[{"x":1},{"y":1}]`, false, "distinct maps"},
		{reflect.TypeFor[uniqueSlices](), `[[1,2],[1.0,2.0]]`, true, "slices"},
		{reflect.TypeFor[uniqueSlices](), `[[1,2],[2,1]]`, false, "order matters in arrays"},
		{reflect.TypeFor[uniqueStructs](), `[{"a":1},{"a":1.0}]`, true, "structs holding pointers"},
		{reflect.TypeFor[uniqueStructs](), `[{"a":1},{"a":null}]`, false, "pointer null"},
		{reflect.TypeFor[uniqueRaw](), `[{"a":1, "b":2},{"b":2,"a":1.0}]`, true, "raw messages by value"},
		{reflect.TypeFor[uniqueIntMaps](), `[{"1":2,"3":null},{"3":null,"1":2}]`, true, "integer-keyed maps"},
		{reflect.TypeFor[uniqueIntMaps](), `[{"1":2},{"1":3}]`, false, "integer-keyed maps differ"},
		{reflect.TypeFor[uniqueArray](), `[1, {"a":[true]}, {"a":[true]}]`, true, "Go arrays"},
	}
	for _, tc := range cases {
		t.Run(tc.note, func(t *testing.T) {
			for i, err := range decodeAllWays(t, tc.typ, `{"v":`+tc.v+`}`) {
				if i == 1 && (strings.HasPrefix(tc.note, "beyond") || strings.HasPrefix(tc.note, "large")) {
					continue // float64 map input rounds these numbers
				}
				// A duplicate is an error with one problem, the
				// constraint; distinct items are no error at all.
				type problem struct {
					Want       string
					Constraint bool
				}
				type verdict struct {
					Failed   bool
					Problems []problem
				}
				want := verdict{Failed: tc.dup}
				if tc.dup {
					want.Problems = []problem{{Want: "unique items", Constraint: true}}
				}
				var ae *ArgErrors
				if err != nil && !errors.As(err, &ae) {
					t.Errorf("%s: way %d: err = %v (%T), want *ArgErrors", tc.v, i, err, err)
					continue
				}
				got := verdict{Failed: err != nil}
				if ae != nil {
					for _, e := range ae.Errs {
						got.Problems = append(got.Problems, problem{e.Want, errors.Is(e, ErrConstraint)})
					}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: way %d: err = %v (-want +got):\n%s", tc.v, i, err, diff)
				}
			}
		})
	}
}

func TestUniqueItemsFromGoValues(t *testing.T) {
	p := mustPlan(t, reflect.TypeFor[uniqueAny]())
	t0 := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		v   []any
		dup bool
	}{
		{[]any{1, 1.0}, true},
		{[]any{int8(3), uint64(3), float32(3), json.Number("3e0")}, true},
		{[]any{[]byte("hi"), "aGk="}, true},
		{[]any{t0, "2024-01-02T03:04:05Z"}, true},
		{[]any{[]string{"a"}, []any{"a"}}, true},
		{[]any{map[string]int{"a": 1}, map[string]any{"a": 1.0}}, true},
		{[]any{map[string]int{"a": 1}, map[string]any{"a": 2}}, false},
	}
	for _, tc := range cases {
		var dst uniqueAny
		err := p.DecodeMap(unsafe.Pointer(&dst), map[string]any{"v": tc.v})
		if got := errors.Is(err, ErrConstraint); got != tc.dup {
			t.Errorf("%#v: err = %v, want duplicate %v", tc.v, err, tc.dup)
		}
	}
}

func TestNumberKey(t *testing.T) {
	key := func(s string) string {
		var k keyer
		k.number([]byte(s))
		return string(k.buf)
	}
	groups := [][]string{
		{"0", "-0", "0.0", "0e5", "-0.000e-7"},
		{"1", "1.0", "1e0", "10e-1", "0.1E1", "100e-2", "1e-0000000000000000000000000000000000000000"},
		{"-25", "-2.5e1", "-0.025e3", "-250E-1"},
		{"1e99999999999999999999", "10e99999999999999999998", "0.1e100000000000000000000"},
		{"123456789012345678901234567890"},
		{"123456789012345678901234567891"},
		{"1e-400"},
		{"1e400"},
		// Exponents beyond int64, with the point moving them across a
		// power of ten: a carry (9…9 + 1) and a borrow (10…0 - 1).
		{"1.5e9999999999999999999", "15e9999999999999999998", "0.15e10000000000000000000"},
		{"1.5e-10000000000000000000", "15e-10000000000000000001", "0.15e-9999999999999999999"},
		{"123e-10000000000000000000", "1.23e-9999999999999999998"},
		{"0.0001e10000000000000000003", "1e9999999999999999999", "1E+9999999999999999999"},
		{"1e9999999999999999999999999999999999999998"},
		{"1e-9999999999999999999999999999999999999998"},
		{"-1e9999999999999999999", "-10e9999999999999999998"},
	}
	seen := map[string]int{}
	for gi, g := range groups {
		for _, s := range g {
			k := key(s)
			if prev, ok := seen[k]; ok && prev != gi {
				t.Errorf("%s shares key %q with group %d", s, k, prev)
			}
			seen[k] = gi
			if want := key(g[0]); k != want {
				t.Errorf("key(%s) = %q, want %q (as %s)", s, k, want, g[0])
			}
		}
	}
}

// uniqueTimesJSON is a []time.Time argument of distinct items, about size
// bytes long: the case that was quadratic.
func uniqueTimesJSON(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"v":[`)
	base := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q", base.Add(time.Duration(i)*time.Second).Format(time.RFC3339))
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// uniqueAnyJSON is a []any argument of distinct objects holding numbers.
func uniqueAnyJSON(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"v":[`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"n":%d.5,"s":"x"}`, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

func TestUniqueItemsAllocsLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	p := mustPlan(t, reflect.TypeFor[uniqueTimes]())
	perByte := func(size int) float64 {
		data := uniqueTimesJSON(size)
		var dst uniqueTimes
		if err := p.DecodeJSON(unsafe.Pointer(&dst), data); err != nil {
			t.Fatal(err)
		}
		n := testing.AllocsPerRun(3, func() {
			dst = uniqueTimes{}
			_ = p.DecodeJSON(unsafe.Pointer(&dst), data)
		})
		return n / float64(len(data))
	}
	small, large := perByte(100<<10), perByte(1<<20)
	// Allocations per input byte stay flat (one key per item), not
	// growing with the number of items.
	if large > 2*small+0.01 {
		t.Errorf("allocs per byte: %.4f at 100 KB, %.4f at 1 MB: superlinear", small, large)
	}
}

// TestAppendExponentExact checks the decimal sum of a long exponent and
// the point against math/big, around powers of ten where carries and
// borrows run through every digit.
func TestAppendExponentExact(t *testing.T) {
	exps := []string{"1000000000000000", "999999999999999", "9999999999999999", "10000000000000000",
		"1000000000000000000000000001", "99999999999999999999999999999", "123456789012345678901234567890",
		"0001000000000000000", "+9999999999999999"}
	points := []int64{0, 1, -1, 9, -9, 10, -10, 11, -11, 999, -1000, 123456789, -123456789,
		999999999999999, -999999999999999, 1 << 40, -(1 << 40)}
	for _, e := range exps {
		for _, sign := range []string{"", "-"} {
			for _, pt := range points {
				lit := sign + e
				if sign != "" && e[0] == '+' {
					continue
				}
				want, _ := new(big.Int).SetString(lit, 10)
				want.Add(want, big.NewInt(pt))
				if got := string(appendExponent([]byte("x"), []byte(lit), pt)); got != "x"+want.String() {
					t.Errorf("appendExponent(%s, %d) = %s, want x%s", lit, pt, got, want)
				}
			}
		}
	}
}

// longExponentJSON is a []any argument of about size bytes holding 2 and
// two numbers whose exponents take the rest: 1.5e99…9 and -2.5e-99…9 (the
// point moving each exponent by one, across a power of ten for the first).
func longExponentJSON(size int) []byte {
	digits := max((size-len(`{"v":[2,1.5e,-2.5e-]}`))/2, 1)
	nines := strings.Repeat("9", digits)
	return []byte(`{"v":[2,1.5e` + nines + `,-2.5e-` + nines + `]}`)
}

// TestUniqueLongExponentsLinear: the key of a number costs its length,
// however long its exponent (math/big took about 2,000 bytes per input
// byte at 4 MiB, and seconds).
func TestUniqueLongExponentsLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	p := mustPlan(t, reflect.TypeFor[uniqueAny]())
	perByte := func(size int) float64 {
		data := longExponentJSON(size)
		var dst uniqueAny
		if err := p.DecodeJSON(unsafe.Pointer(&dst), data); err != nil {
			t.Fatal(err)
		}
		return bytesPerRun(2, func() {
			dst = uniqueAny{}
			_ = p.DecodeJSON(unsafe.Pointer(&dst), data)
		}) / float64(len(data))
	}
	small, large := perByte(64<<10), perByte(512<<10)
	if small > 10 || large > 10 {
		t.Errorf("bytes allocated per input byte: %.1f at 64 KB, %.1f at 512 KB, want at most 10", small, large)
	}
}

func TestUniqueItemsReportsFirstRepeat(t *testing.T) {
	p := mustPlan(t, reflect.TypeFor[uniqueAny]())
	var dst uniqueAny
	err := p.DecodeJSON(unsafe.Pointer(&dst), []byte(`{"v":[{"a":1},2,{"a":1.0},2]}`))
	var ae *ArgErrors
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v", err)
	}
	want := []string{"/v: expected unique items, got item 2 repeats item 0"}
	var got []string
	for _, e := range ae.Errs {
		got = append(got, e.Error())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestUniqueItemsHashCollisions makes every item's hash collide, so that
// repeats are found only by comparing whole keys: the verdicts must not
// change, and the repeat reported is still the first one.
func TestUniqueItemsHashCollisions(t *testing.T) {
	defer func(h func(maphash.Seed, []byte) uint64) { itemHash = h }(itemHash)
	itemHash = func(maphash.Seed, []byte) uint64 { return 0 }
	t.Run("verdicts", TestUniqueItems)
	t.Run("first repeat", TestUniqueItemsReportsFirstRepeat)

	p := mustPlan(t, reflect.TypeFor[uniqueAny]())
	for _, tc := range []struct{ v, want string }{
		{`[{"a":1},2,"x",2]`, "/v: expected unique items, got item 3 repeats item 1"},
		{`[{"a":1},2,"x","x"]`, "/v: expected unique items, got item 3 repeats item 2"},
		{`[{"a":1},2,"x",{"a":1e0}]`, "/v: expected unique items, got item 3 repeats item 0"},
		{`[{"a":1},2,"x",[],{}]`, ""},
	} {
		var dst uniqueAny
		err := p.DecodeJSON(unsafe.Pointer(&dst), []byte(`{"v":`+tc.v+`}`))
		var got string
		if ae := (*ArgErrors)(nil); errors.As(err, &ae) && len(ae.Errs) == 1 {
			got = ae.Errs[0].Error()
		} else if err != nil {
			t.Errorf("%s: err = %v, want one argument error", tc.v, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: error (-want +got):\n%s", tc.v, diff)
		}
	}
}
