package reflectx

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"testing"
	"unsafe"
)

type numFields struct {
	F  float64  `json:"f,omitempty"`
	PF *float64 `json:"pf,omitempty"`
	F3 float32  `json:"f3,omitempty"`
	I  int64    `json:"i,omitempty"`
	U  uint8    `json:"u,omitempty"`
	PI *int     `json:"pi,omitempty"`
}

// numLiterals are number texts around the one-pass paths of jint and
// jfloat: digit counts at their limits, leading zeros, fractions,
// exponents, signs and cut-short numbers.
var numLiterals = []string{
	"0", "-0", "1", "-1", "7", "00", "01", "-01", "0.0", "-0.0", "0.5", "-0.5", "1.", "-", "-.", ".5", "1.5.",
	"1450.5", "123456789012345", "1234567890123456", "12345678901234.5", "1234567890.12345", "0.000000000000001",
	"0.0000000000000001", "9007199254740993", "1e2", "1E2", "1.5e-3", "2.0", "255", "256", "-1e0", "1e", "1.e1",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551615",
	"18446744073709551616", "1234567890123456789", "12345678901234567890", "3.14159265358979", "1x", "2 ",
}

// TestNumberPaths checks the float fields against encoding/json on the
// same text, and the integer fields against the general rule (a valid
// JSON number whose exact value is an integer in range): what they accept
// and the value they store (errors apart, whose wording is the decoder's
// own).
func TestNumberPaths(t *testing.T) {
	p := mustPlan(t, reflect.TypeFor[numFields]())
	for _, lit := range numLiterals {
		for _, key := range []string{"f", "pf", "f3", "i", "u", "pi"} {
			for _, text := range []string{`{"` + key + `":` + lit + `}`, `{"` + key + `":` + lit} {
				var got, want numFields
				err := p.DecodeJSON(unsafe.Pointer(&got), []byte(text))
				var wantErr error
				switch key {
				case "f", "pf", "f3":
					wantErr = json.Unmarshal([]byte(text), &want)
				default:
					wantErr = wantInt(text, lit, key, &want)
				}
				if (err == nil) != (wantErr == nil) {
					t.Errorf("%s: DecodeJSON error %v, want error %v", text, err, wantErr)
					continue
				}
				if err == nil && !reflect.DeepEqual(got, want) {
					t.Errorf("%s: DecodeJSON stored %+v, want %+v", text, got, want)
				}
			}
		}
	}
}

// wantInt is what decoding text, {"key":lit}, into an integer field of
// numFields gives by the general rule.
func wantInt(text, lit, key string, v *numFields) error {
	if !json.Valid([]byte(text)) {
		return errors.New("invalid JSON")
	}
	neg, mag, st := parseIntLit(lit)
	if st != numOK {
		return errors.New("not an integer in range")
	}
	switch key {
	case "u":
		u, ok := fitUint(neg, mag, 8)
		if !ok {
			return errors.New("out of range")
		}
		v.U = uint8(u)
	default:
		i, ok := fitInt(neg, mag, 64)
		if !ok {
			return errors.New("out of range")
		}
		if key == "i" {
			v.I = i
		} else {
			n := int(i)
			v.PI = &n
		}
	}
	return nil
}

// TestFloatPathValues checks the float one-pass path against strconv on
// many literals of up to 15 digits.
func TestFloatPathValues(t *testing.T) {
	p := mustPlan(t, reflect.TypeFor[numFields]())
	for _, lit := range []string{"1", "12", "123.25", "0.1", "0.3", "1.7976931348623", "4503599627370.497", "99999999999999.9",
		"999999999999999", "0.123456789012345", "-271.828182845904", "5e-324", "0.000001"} {
		var v numFields
		if err := p.DecodeJSON(unsafe.Pointer(&v), []byte(`{"f":`+lit+`}`)); err != nil {
			t.Fatalf("%s: %v", lit, err)
		}
		want, _ := strconv.ParseFloat(lit, 64)
		if v.F != want {
			t.Errorf("%s: got %v, want %v", lit, v.F, want)
		}
	}
}
