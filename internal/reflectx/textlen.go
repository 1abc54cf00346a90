package reflectx

import (
	"math"
	"strconv"
	"time"
)

// The lengths that values of map input would have as compact JSON text,
// which is what Limits.MaxBytes charges them, so that a map and the text
// it would be written as get the same verdict at the bound as anywhere
// else. Numbers are counted as encoding/json writes them (strings as
// jsonwire.StringLen counts them: escaped only where JSON requires it).

// intLen returns the length of the decimal integer with sign neg and
// magnitude mag.
func intLen(neg bool, mag uint64) int {
	n := 1
	if neg {
		n++
	}
	for mag >= 10 {
		mag /= 10
		n++
	}
	return n
}

// signedLen returns the length of the decimal integer i.
func signedLen(i int64) int { return intLen(i < 0, absInt(i)) }

// boolLen returns the length of true or false.
func boolLen(b bool) int {
	if b {
		return 4
	}
	return 5
}

// floatLen returns the length of the finite float f (of bits 32 or 64)
// as encoding/json writes it. Integers below 2^50 (2^24 for a float32,
// whose shortest digits may round a larger one up: 999999986991104 is
// written 1000000000000000), where no other decimal reads back as the
// same float, and float64 decimals of up to six fractional digits are
// counted without formatting: the
// fewest fractional digits k for which round(|f|·10^k)/10^k is |f| again
// (exact arithmetic: both numbers are exact in a float64, and a division
// rounds correctly) are the digits of the shortest text that reads back
// as f, which is the one encoding/json writes. Any other number is
// formatted, on the stack.
func floatLen(f float64, bits int) int {
	a := math.Abs(f)
	if a < 1<<50 && (bits == 64 || a < 1<<24) {
		sign := 0
		if math.Signbit(f) {
			sign = 1
		}
		if a == math.Trunc(a) {
			return sign + intLen(false, uint64(a))
		}
		if bits == 64 && a >= 1e-6 {
			p := 1.0
			for k := 1; k <= 6; k++ {
				p *= 10
				m := math.Round(a * p)
				if m >= 1<<50 {
					break
				}
				if m/p == a {
					return sign + intLen(false, uint64(a)) + 1 + k
				}
			}
		}
	}
	var buf [32]byte
	return len(appendJSONFloat(buf[:0], f, bits))
}

// appendJSONFloat appends the finite float f (of bits 32 or 64) to b as
// encoding/json writes it: the shortest digits that read back as f, in
// plain notation from 1e-6 up to 1e21 and in exponent notation outside
// it, with at least two exponent digits only when needed (1e-7, not
// 1e-07).
func appendJSONFloat(b []byte, f float64, bits int) []byte {
	a := math.Abs(f)
	format := byte('f')
	switch {
	case a == 0:
	case bits == 32:
		if a32 := float32(a); a32 < 1e-6 || a32 >= 1e21 {
			format = 'e'
		}
	case a < 1e-6 || a >= 1e21:
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// base64Len returns the length of n bytes in standard base64 with
// padding, as a JSON string (quotes included).
func base64Len(n int) int { return (n+2)/3*4 + 2 }

// timeLen returns the length of t as encoding/json writes it: RFC 3339
// with the fractional seconds it needs, quoted.
func timeLen(t time.Time) int {
	var buf [64]byte
	return len(t.AppendFormat(buf[:0], time.RFC3339Nano)) + 2
}
