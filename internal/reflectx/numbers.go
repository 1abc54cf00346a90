package reflectx

import "math"

// numStatus is the outcome of reading a number as an integer.
type numStatus uint8

const (
	numOK         numStatus = iota
	numNotInteger           // has a fractional part
	numOverflow             // integral but beyond 64 bits
)

// validNumber reports whether s is a JSON number literal, exactly.
func validNumber[S ~string | ~[]byte](s S) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i == len(s)
}

// parseIntLit reads a valid JSON number literal exactly, as a sign and a
// magnitude, without going through float64: "9007199254740993" stays
// exact, "2.0" and "1e2" are integers, "2.5" is not.
func parseIntLit[S ~string | ~[]byte](s S) (neg bool, mag uint64, st numStatus) {
	i := 0
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	intStart := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	intEnd := i
	if i == len(s) && intEnd-intStart <= 19 {
		// Fast path: plain digits that cannot overflow.
		for k := intStart; k < intEnd; k++ {
			mag = mag*10 + uint64(s[k]-'0')
		}
		if mag == 0 {
			neg = false
		}
		return neg, mag, numOK
	}
	fracStart, fracEnd := i, i
	if i < len(s) && s[i] == '.' {
		i++
		fracStart = i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		fracEnd = i
	}
	exp := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if exp < 1_000_000 {
				exp = exp*10 + int(s[i]-'0')
			}
			i++
		}
		if eneg {
			exp = -exp
		}
	}
	nInt, nFrac := intEnd-intStart, fracEnd-fracStart
	digit := func(k int) byte {
		if k < nInt {
			return s[intStart+k]
		}
		return s[fracStart+k-nInt]
	}
	total := nInt + nFrac
	first, last := -1, -1
	for k := 0; k < total; k++ {
		if digit(k) != '0' {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	if first < 0 {
		return false, 0, numOK // zero, in any spelling
	}
	exp10 := exp - nFrac + (total - 1 - last) // exponent after dropping trailing zeros
	if exp10 < 0 {
		return neg, 0, numNotInteger
	}
	if last-first+1+exp10 > 20 {
		return neg, 0, numOverflow
	}
	for k := first; k <= last; k++ {
		d := uint64(digit(k) - '0')
		if mag > (math.MaxUint64-d)/10 {
			return neg, 0, numOverflow
		}
		mag = mag*10 + d
	}
	for ; exp10 > 0; exp10-- {
		if mag > math.MaxUint64/10 {
			return neg, 0, numOverflow
		}
		mag *= 10
	}
	return neg, mag, numOK
}

// fitInt converts sign and magnitude to a signed integer of the given size.
func fitInt(neg bool, mag uint64, bits int) (int64, bool) {
	limit := uint64(1) << (bits - 1)
	if neg {
		if mag > limit {
			return 0, false
		}
		return int64(-mag), true // two's complement: also right for 1<<63
	}
	if mag >= limit {
		return 0, false
	}
	return int64(mag), true
}

// fitUint converts sign and magnitude to an unsigned integer of the given size.
func fitUint(neg bool, mag uint64, bits int) (uint64, bool) {
	if neg && mag != 0 {
		return 0, false
	}
	if bits < 64 && mag >= uint64(1)<<bits {
		return 0, false
	}
	return mag, true
}

// floatToInt reads an integral float64 as sign and magnitude.
func floatToInt(f float64) (neg bool, mag uint64, st numStatus) {
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
		return false, 0, numNotInteger
	}
	if f < 0 {
		neg, f = true, -f
	}
	if f >= 1<<64 {
		return neg, 0, numOverflow
	}
	mag = uint64(f)
	if mag == 0 {
		neg = false
	}
	return neg, mag, numOK
}

// exactPow10 are the powers of ten a float64 holds exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastFloat parses a valid JSON number literal without an exponent and
// with at most 15 digits as a float64, correctly rounded: the digits are an
// exact integer below 2^53 and 10^k (k <= 15) is exact, so the one division
// rounds once (Clinger's fast path, as strconv's). ok is false for any other
// literal, which strconv.ParseFloat then reads.
func fastFloat(lit []byte) (f float64, ok bool) {
	i := 0
	neg := len(lit) > 0 && lit[0] == '-'
	if neg {
		i++
	}
	var mant uint64
	nd, frac := 0, -1
	for ; i < len(lit); i++ {
		c := lit[i]
		switch {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
			nd++
		case c == '.' && frac < 0:
			frac = nd
		default:
			return 0, false // an exponent
		}
	}
	if nd == 0 || nd > 15 {
		return 0, false
	}
	f = float64(mant)
	if frac >= 0 {
		f /= exactPow10[nd-frac]
	}
	if neg {
		f = -f
	}
	return f, true
}
