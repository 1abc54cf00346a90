package outjson

import (
	"encoding/json"
	"errors"
	"math"
	"net/netip"
	"strings"
	"testing"
	"time"
)

type textKey int

func (k textKey) MarshalText() ([]byte, error) { return []byte("k" + string(rune('0'+int(k)))), nil }

type ptrMarshaler struct{ N int }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) { return []byte(` { "p" : 1 } `), nil }

type Embedded struct{ E int }

type parity struct {
	Embedded
	*Other
	B      bool              `json:"b"`
	I      int8              `json:"i,omitempty"`
	U      uint64            `json:"u,string"`
	F32    float32           `json:"f32"`
	F64    []float64         `json:"f64"`
	S      string            `json:"s"`
	Q      string            `json:"q,string"`
	Bytes  []byte            `json:"bytes"`
	Arr    [2]int            `json:"arr"`
	M      map[string]any    `json:"m"`
	IntKey map[int]string    `json:"int_key"`
	TxtKey map[textKey]int   `json:"txt_key"`
	T      time.Time         `json:"t"`
	TP     *time.Time        `json:"tp"`
	Addr   netip.Addr        `json:"addr"`
	Num    json.Number       `json:"num"`
	Raw    json.RawMessage   `json:"raw"`
	PM     ptrMarshaler      `json:"pm"`
	PMP    *ptrMarshaler     `json:"pmp"`
	Z      time.Time         `json:"z,omitzero"`
	Skip   int               `json:"-"`
	Iface  any               `json:"iface"`
	Nested map[string][]uint `json:"nested"`
}

type Other struct{ O string }

// TestParity: where no nil slice or map and no invalid UTF-8 is involved,
// Append gives encoding/json's bytes.
func TestParity(t *testing.T) {
	tm := time.Date(2026, 3, 14, 9, 30, 0, 123, time.FixedZone("x", 3600))
	v := parity{
		Embedded: Embedded{3}, Other: &Other{"o"},
		B: true, I: -3, U: 1 << 63, F32: 3.14, F64: []float64{0, 1e-7, 1e21, 123456789, -0.5, 1e20},
		S: "a\"b\\c\n\t\x01<>&\u2028é😀", Q: "q\"", Bytes: []byte("hi\x00"), Arr: [2]int{1, 2},
		M:      map[string]any{"z": 1, "a": []any{"x", nil, 2.5}, "m": map[string]any{}},
		IntKey: map[int]string{-1: "a", 10: "b", 2: "c"}, TxtKey: map[textKey]int{1: 1, 2: 2},
		T: tm, TP: &tm, Addr: netip.MustParseAddr("::1"), Num: "12.5e3", Raw: json.RawMessage(` [1, {"a" : "<"}] `),
		PMP: &ptrMarshaler{}, Iface: &Embedded{1}, Nested: map[string][]uint{"n": {1}},
	}
	for _, x := range []any{v, &v, []any{v, 1, "s", nil, true}, map[string]int{"b": 1, "a": 2}, math.MaxInt64, float32(1e-7)} {
		want, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Append(nil, x, Limits{MaxBytes: -1})
		if err != nil || string(got) != string(want) {
			t.Errorf("Append(%T) =\n%s, %v\nwant\n%s", x, got, err, want)
		}
	}
}

func TestNilsAndErrors(t *testing.T) {
	type nils struct {
		S []int          `json:"s"`
		M map[string]int `json:"m"`
		B []byte         `json:"b"`
		P *int           `json:"p"`
		R json.RawMessage
		*Other
	}
	got, err := Append(nil, nils{}, Limits{MaxBytes: -1})
	if want := `{"s":[],"m":{},"b":"","p":null,"R":null,"O":""}`; err != nil || string(got) != want {
		t.Errorf("nils = %s, %v; want %s", got, err, want)
	}
	for _, c := range []struct {
		v    any
		want string
	}{
		{math.NaN(), "unsupported value"},
		{func() {}, "unsupported type"},
		{map[[2]int]int{{1, 2}: 1}, "unsupported type"},
		{json.RawMessage("{"), "invalid JSON"},
		{json.Number("1x"), "invalid number"},
	} {
		if _, err := Append(nil, c.v, Limits{MaxBytes: -1}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%T: err %v, want %q", c.v, err, c.want)
		}
	}
	if _, err := Append(nil, strings.Repeat("x", 100), Limits{MaxBytes: 50}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("long string: %v", err)
	}
	if _, err := Append(nil, make([]int, 100), Limits{MaxBytes: 50}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("long slice: %v", err)
	}
	deep := json.RawMessage(strings.Repeat("[", 600) + strings.Repeat("]", 600))
	if _, err := Append(nil, deep, Limits{MaxBytes: -1}); !errors.Is(err, ErrTooDeep) {
		t.Errorf("deep raw: %v", err)
	}
	var a any
	a = &a
	if _, err := Append(nil, a, Limits{MaxBytes: -1}); !errors.Is(err, ErrTooDeep) {
		t.Errorf("cycle through an interface: %v", err)
	}
	if got := AppendValid(nil, []byte("{\"a\": \"\xff<\"}")); string(got) != `{"a":"\ufffd\u003c"}` {
		t.Errorf("AppendValid = %s", got)
	}
}

type tree struct {
	Name string  `json:"name"`
	Kids []*tree `json:"kids"`
}

// TestConcurrentFirstUse: the encoders of a recursive type are built once
// under concurrent first uses (run with -race).
func TestConcurrentFirstUse(t *testing.T) {
	v := &tree{Name: "a", Kids: []*tree{{Name: "b"}, nil}}
	want := `{"name":"a","kids":[{"name":"b","kids":[]},null]}`
	done := make(chan string)
	for range 8 {
		go func() {
			got, err := Append(nil, v, Limits{MaxBytes: -1})
			if err != nil {
				done <- err.Error()
				return
			}
			done <- string(got)
		}()
	}
	for range 8 {
		if got := <-done; got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}

// FuzzAppendString: AppendString writes any string byte for byte as
// json.Marshal does (HTML characters, control bytes, U+2028, U+2029,
// invalid UTF-8).
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c\n\t\r\b\f\x01\x1f\x7f", "<>&", "\u2028\u2029", "é😀", "\xff\xfe", "\xe2\x80", `{"city":"Paris"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got[1:], want)
		}
	})
}
