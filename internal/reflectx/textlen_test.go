package reflectx

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// TestFloatLen: floatLen is the length of encoding/json's text for every
// kind of float: integers, short and long decimals, both notations and
// their borders, float32, negative zero, and random bit patterns.
func TestFloatLen(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	check := func(f float64, bits int) {
		t.Helper()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return
		}
		var want []byte
		var err error
		if bits == 32 {
			want, err = json.Marshal(float32(f))
		} else {
			want, err = json.Marshal(f)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := floatLen(f, bits); got != len(want) {
			t.Errorf("floatLen(%v, %d) = %d, want %d (%s)", f, bits, got, len(want), want)
		}
		if got := appendJSONFloat(nil, f, bits); string(got) != string(want) {
			t.Errorf("appendJSONFloat(%v, %d) = %s, want %s", f, bits, got, want)
		}
	}
	fixed := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1450.5, 0.1, 0.1 + 0.2, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21,
		999999999999999.9, 1 << 50, 1<<50 - 0.5, 1<<53 + 2, 123456.123456, 123456.1234567, 5e-324, math.MaxFloat64,
		math.SmallestNonzeroFloat64, 0.000001234, 100, 1e15, 4.35, 2.675, 1.005, 0.3}
	for _, f := range fixed {
		check(f, 64)
		check(-f, 64)
		check(float64(float32(f)), 32)
	}
	for range 200000 {
		var f float64
		switch r.IntN(5) {
		case 0: // any bit pattern
			f = math.Float64frombits(r.Uint64())
		case 1: // a decimal of a few digits, as a model writes them
			f, _ = strconv.ParseFloat(strconv.FormatInt(r.Int64N(1e9)-5e8, 10)+"e-"+strconv.Itoa(r.IntN(12)), 64)
		case 2: // an integer
			f = float64(r.Int64N(1<<60) - 1<<59)
		case 3: // a magnitude near the notations' borders
			f = math.Pow(10, r.Float64()*44-22)
		case 4:
			f = r.NormFloat64() * 1e6
		}
		check(f, 64)
		check(float64(float32(f)), 32)
	}
}

// TestTextLens: the lengths of the other values of map input, against
// encoding/json.
func TestTextLens(t *testing.T) {
	for _, i := range []int64{0, 1, -1, 9, 10, -10, 99, 100, math.MaxInt64, math.MinInt64, -123456789} {
		if got, want := signedLen(i), len(strconv.FormatInt(i, 10)); got != want {
			t.Errorf("signedLen(%d) = %d, want %d", i, got, want)
		}
	}
	for _, u := range []uint64{0, 9, 10, math.MaxUint64, 1 << 63} {
		if got, want := intLen(false, u), len(strconv.FormatUint(u, 10)); got != want {
			t.Errorf("intLen(%d) = %d, want %d", u, got, want)
		}
	}
	for n := range 20 {
		b, _ := json.Marshal(make([]byte, n))
		if got := base64Len(n); got != len(b) {
			t.Errorf("base64Len(%d) = %d, want %d", n, got, len(b))
		}
	}
	for _, tm := range []time.Time{time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 1, time.FixedZone("", -34200))} {
		b, _ := json.Marshal(tm)
		if got := timeLen(tm); got != len(b) {
			t.Errorf("timeLen(%v) = %d, want %d", tm, got, len(b))
		}
	}
	for _, b := range []bool{true, false} {
		if got := boolLen(b); got != len(strconv.FormatBool(b)) {
			t.Errorf("boolLen(%v) = %d", b, got)
		}
	}
}
