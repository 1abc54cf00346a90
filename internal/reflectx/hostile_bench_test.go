package reflectx

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// The hostile-input benchmarks decode the worst cases of untrusted
// arguments at 1 MB and 10 MB. Besides ns/op and B/op they report
// B/inbyte, bytes allocated per byte of input: it must stay flat from
// 1 MB to 10 MB (linear) and at most about 10.

var hostileSizes = []struct {
	name string
	size int
}{{"1MB", 1 << 20}, {"10MB", 10 << 20}}

// amplification runs decode b.N times over input of n bytes and reports
// the bytes allocated per input byte.
func amplification(b *testing.B, n int, decode func()) {
	b.Helper()
	b.SetBytes(int64(n))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		decode()
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(n), "B/inbyte")
}

// benchJSON benchmarks DecodeJSON of data into a fresh T, failing when the
// verdict is not want (nil: success).
func benchJSON[T any](b *testing.B, data []byte, wantErr bool) {
	p := mustPlan(b, reflect.TypeFor[T]())
	lim := Limits{MaxBytes: len(data) + 1}
	var dst T
	if err := p.DecodeJSONLimits(unsafe.Pointer(&dst), data, lim); (err != nil) != wantErr {
		b.Fatalf("err = %.200v, want error %v", err, wantErr)
	}
	amplification(b, len(data), func() {
		var dst T
		_ = p.DecodeJSONLimits(unsafe.Pointer(&dst), data, lim)
	})
}

func BenchmarkHostileUniqueTimes(b *testing.B) {
	for _, s := range hostileSizes {
		b.Run(s.name, func(b *testing.B) { benchJSON[uniqueTimes](b, uniqueTimesJSON(s.size), false) })
	}
}

type plainAny struct {
	V []any `json:"v"`
}

// BenchmarkHostileAnyObjects is the baseline of BenchmarkHostileUniqueAny:
// the same input without uniqueItems (map[string]any values cost about 17
// bytes per byte of `{"n":1.5,"s":"x"}` by themselves).
func BenchmarkHostileAnyObjects(b *testing.B) {
	for _, s := range hostileSizes {
		b.Run(s.name, func(b *testing.B) { benchJSON[plainAny](b, uniqueAnyJSON(s.size), false) })
	}
}

func BenchmarkHostileUniqueAny(b *testing.B) {
	for _, s := range hostileSizes {
		b.Run(s.name, func(b *testing.B) { benchJSON[uniqueAny](b, uniqueAnyJSON(s.size), false) })
	}
}

// BenchmarkHostileUniqueExponents: uniqueItems over numbers whose
// exponents are most of the input (quadratic while the key's exponent
// went through math/big). Sizes from 0.1 MB.
func BenchmarkHostileUniqueExponents(b *testing.B) {
	for _, s := range append([]struct {
		name string
		size int
	}{{"100KB", 100 << 10}}, hostileSizes...) {
		b.Run(s.name, func(b *testing.B) { benchJSON[uniqueAny](b, longExponentJSON(s.size), false) })
	}
}

// BenchmarkHostileAnyFloor is the floor under BenchmarkHostileAnyObjects
// and BenchmarkHostileUniqueAny: the same values built directly, without
// reading JSON, in the least memory Go's types allow (an exact-size []any,
// maps made for their two members, numbers and strings boxed once). No
// decoder of this input into []any can allocate less, bar the bytes of
// the strings.
func BenchmarkHostileAnyFloor(b *testing.B) {
	for _, s := range hostileSizes {
		data := uniqueAnyJSON(s.size)
		lits := make([]string, bytes.Count(data, []byte(`"n"`)))
		for i := range lits {
			lits[i] = strconv.Itoa(i) + ".5"
		}
		x := strings.Clone("x")
		b.Run(s.name, func(b *testing.B) {
			amplification(b, len(data), func() {
				v := make([]any, len(lits))
				for i, lit := range lits {
					m := make(map[string]any, 2)
					m["n"] = json.Number(lit)
					m["s"] = x
					v[i] = m
				}
				sink = v
			})
		})
	}
}

var sink any

// BenchmarkAnyMapCost measures what one decoded JSON object costs in Go's
// representation (B/op): a map[string]any with no, one and eight members
// (keys and values preallocated, so only the map is counted).
func BenchmarkAnyMapCost(b *testing.B) {
	keys := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	for _, n := range []int{0, 1, 8} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m := map[string]any{}
				for _, k := range keys[:n] {
					m[k] = true
				}
				sink = m
			}
		})
	}
}

// repeatJSON is prefix, then item repeated (comma-separated) until about
// size bytes, then suffix.
func repeatJSON(size int, prefix string, item func(i int) string, suffix string) []byte {
	b := []byte(prefix)
	for i := 0; len(b) < size; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, item(i)...)
	}
	return append(b, suffix...)
}

type patternArg struct {
	Word string `json:"word" pattern:"[a-z]{2,64}x"`
}

type anyArg struct {
	Any any `json:"any"`
}

func BenchmarkHostileMaxItems(b *testing.B) {
	for _, s := range hostileSizes {
		data := repeatJSON(s.size, `{"items":[`, func(int) string { return `{}` }, `]}`)
		b.Run(s.name, func(b *testing.B) { benchJSON[boundedItems](b, data, true) })
	}
}

func BenchmarkHostileMaxProperties(b *testing.B) {
	for _, s := range hostileSizes {
		data := repeatJSON(s.size, `{"props":{`, func(i int) string { return `"k` + strconv.Itoa(i) + `":{}` }, `}}`)
		b.Run(s.name, func(b *testing.B) { benchJSON[boundedItems](b, data, true) })
	}
}

func BenchmarkHostileUnknownKeys(b *testing.B) {
	for _, s := range hostileSizes {
		data := repeatJSON(s.size, `{`, func(i int) string { return `"u` + strconv.Itoa(i) + `":0` }, `}`)
		b.Run(s.name, func(b *testing.B) { benchJSON[boundedItems](b, data, true) })
	}
}

func BenchmarkHostileMaxLength(b *testing.B) {
	for _, s := range hostileSizes {
		data := []byte(`{"name":"` + strings.Repeat("x", s.size) + `"}`)
		b.Run(s.name, func(b *testing.B) { benchJSON[boundedItems](b, data, true) })
	}
}

func BenchmarkHostilePattern(b *testing.B) {
	for _, s := range hostileSizes {
		data := []byte(`{"word":"` + strings.Repeat("a", s.size) + `"}`)
		b.Run(s.name, func(b *testing.B) { benchJSON[patternArg](b, data, true) })
	}
}

func BenchmarkHostileDeepText(b *testing.B) {
	for _, s := range hostileSizes {
		data := []byte(`{"any":` + strings.Repeat("[", s.size) + strings.Repeat("]", s.size) + `}`)
		b.Run(s.name, func(b *testing.B) { benchJSON[anyArg](b, data, true) })
	}
}

// BenchmarkHostileTooLarge: arguments over the default MaxBytes are
// refused unread.
func BenchmarkHostileTooLarge(b *testing.B) {
	p := mustPlan(b, reflect.TypeFor[anyArg]())
	for _, s := range hostileSizes {
		data := []byte(`{"any":"` + strings.Repeat("x", s.size+DefaultMaxBytes) + `"}`)
		b.Run(s.name, func(b *testing.B) {
			amplification(b, len(data), func() {
				var dst anyArg
				if err := p.DecodeJSON(unsafe.Pointer(&dst), data); !errors.Is(err, ErrTooLarge) {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkHostileMapPayload: map input kept as given in an any field is
// walked once (depth, size, UTF-8), allocating nothing; the input's size
// is its size as JSON.
func BenchmarkHostileMapPayload(b *testing.B) {
	p := mustPlan(b, reflect.TypeFor[anyArg]())
	for _, s := range hostileSizes {
		var items []any
		n := 0
		for i := 0; n < s.size; i++ {
			items = append(items, map[string]any{"k": []any{"v", 1.5, true}})
			n += len(`{"k":["v",1.5,true]},`)
		}
		args := map[string]any{"any": items}
		lim := Limits{MaxBytes: 2 * n}
		b.Run(s.name, func(b *testing.B) {
			amplification(b, n, func() {
				var dst anyArg
				if err := p.DecodeMapLimits(unsafe.Pointer(&dst), args, lim); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkHostileSharedMap: a map sharing one subtree 2^40 times is
// refused after MaxBytes of it (the input's size is taken as MaxBytes).
func BenchmarkHostileSharedMap(b *testing.B) {
	p := mustPlan(b, reflect.TypeFor[anyArg]())
	v := any("x")
	for i := 0; i < 40; i++ {
		v = []any{v, v}
	}
	args := map[string]any{"any": v}
	for _, s := range hostileSizes {
		lim := Limits{MaxBytes: s.size}
		b.Run(s.name, func(b *testing.B) {
			amplification(b, s.size, func() {
				var dst anyArg
				if err := p.DecodeMapLimits(unsafe.Pointer(&dst), args, lim); !errors.Is(err, ErrTooLarge) {
					b.Fatal(err)
				}
			})
		})
	}
}

// largeElem is a struct element of 256 bytes that `{}` fills.
type largeElem struct {
	A [31]int64 `json:"a,omitempty"`
	B string    `json:"b,omitempty"`
}

type largeElems struct {
	V []largeElem `json:"v"`
}

// BenchmarkHostileLargeElems: valid `[{},{},...]` into a slice of large
// structs without maxItems costs the element's size per 3 input bytes
// (here 256 bytes, so about 85 B/inbyte in the slice, and as much again in
// the chunks gathered before it is made); only maxItems and MaxBytes bound
// it.
func BenchmarkHostileLargeElems(b *testing.B) {
	for _, s := range hostileSizes {
		data := repeatJSON(s.size, `{"v":[`, func(int) string { return `{}` }, `]}`)
		b.Run(s.name, func(b *testing.B) { benchJSON[largeElems](b, data, false) })
	}
}

// BenchmarkHostileAnyScalars: `[1,1,...]` into an any field, a []any of
// boxed json.Number values (16 bytes each, and 16 for each slot of the
// slice) per 2 input bytes.
func BenchmarkHostileAnyScalars(b *testing.B) {
	for _, s := range hostileSizes {
		data := repeatJSON(s.size, `{"any":[`, func(int) string { return `1` }, `]}`)
		b.Run(s.name, func(b *testing.B) { benchJSON[anyArg](b, data, false) })
	}
}
