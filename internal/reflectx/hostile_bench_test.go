package reflectx

import (
	"reflect"
	"runtime"
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

func BenchmarkHostileUniqueAny(b *testing.B) {
	for _, s := range hostileSizes {
		b.Run(s.name, func(b *testing.B) { benchJSON[uniqueAny](b, uniqueAnyJSON(s.size), false) })
	}
}
