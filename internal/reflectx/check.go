package reflectx

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// The check functions return "" when v satisfies c, else what was wanted.

func checkInt(c *constraints, v int64) string {
	if c.enum != nil && !containsInt(c.enum.ints, v) {
		return c.enum.want
	}
	if c.cnst != nil && !containsInt(c.cnst.ints, v) {
		return c.cnst.want
	}
	if c.tenum != nil && !containsInt(c.tenum.ints, v) {
		return c.tenum.want
	}
	if c.hasLo && v < c.loI {
		return c.loWant
	}
	if c.hasHi && v > c.hiI {
		return c.hiWant
	}
	if c.hasMult {
		if c.multZeroOnly {
			if v != 0 {
				return c.multWant
			}
		} else {
			m := v
			if m < 0 {
				m = -m // -1<<63 stays negative; its magnitude is a power of two
			}
			if uint64(m)%c.multU != 0 {
				return c.multWant
			}
		}
	}
	return ""
}

func containsInt(xs []int64, v int64) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

func checkUint(c *constraints, v uint64) string {
	if c.enum != nil && !containsUint(c.enum.uints, v) {
		return c.enum.want
	}
	if c.cnst != nil && !containsUint(c.cnst.uints, v) {
		return c.cnst.want
	}
	if c.tenum != nil && !containsUint(c.tenum.uints, v) {
		return c.tenum.want
	}
	if c.hasLo && v < c.loU {
		return c.loWant
	}
	if c.hasHi && v > c.hiU {
		return c.hiWant
	}
	if c.hasMult && ((c.multZeroOnly && v != 0) || (!c.multZeroOnly && v%c.multU != 0)) {
		return c.multWant
	}
	return ""
}

func containsUint(xs []uint64, v uint64) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

func checkFloat(c *constraints, v float64) string {
	if c.enum != nil && !containsFloat(c.enum.floats, v) {
		return c.enum.want
	}
	if c.cnst != nil && !containsFloat(c.cnst.floats, v) {
		return c.cnst.want
	}
	if c.tenum != nil && !containsFloat(c.tenum.floats, v) {
		return c.tenum.want
	}
	if c.hasLo && (v < c.loF || (c.loEx && v == c.loF)) {
		return c.loWant
	}
	if c.hasHi && (v > c.hiF || (c.hiEx && v == c.hiF)) {
		return c.hiWant
	}
	if c.hasMult {
		// Floats are binary: 0.3 is not exactly 3 × 0.1. Accept a quotient
		// within a relative 1e-9 of an integer.
		q := v / c.multF
		if math.IsInf(q, 0) || math.Abs(q-math.Round(q)) > 1e-9*math.Max(1, math.Abs(q)) {
			return c.multWant
		}
	}
	return ""
}

func containsFloat(xs []float64, v float64) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

func checkBool(c *constraints, v bool) string {
	if c.enum != nil && !containsBool(c.enum.bools, v) {
		return c.enum.want
	}
	if c.cnst != nil && !containsBool(c.cnst.bools, v) {
		return c.cnst.want
	}
	if c.tenum != nil && !containsBool(c.tenum.bools, v) {
		return c.tenum.want
	}
	return ""
}

func containsBool(xs []bool, v bool) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

// checkStringLimit checks s against c's string constraints; a string
// longer than maxPattern bytes breaks a pattern that needs the general
// matcher (see [Limits.MaxPatternBytes]).
func checkStringLimit(c *constraints, s string, maxPattern int) string {
	if c.enum != nil && !containsString(c.enum.strs, s) {
		return c.enum.want
	}
	if c.cnst != nil && !containsString(c.cnst.strs, s) {
		return c.cnst.want
	}
	if c.tenum != nil && !containsString(c.tenum.strs, s) {
		return c.tenum.want
	}
	// A string of b bytes has from ceil(b/4) to b runes (an invalid byte
	// counts as one rune), so the runes are counted only when the byte
	// length leaves the bounds open.
	if (c.minLen >= 0 && (len(s)+3)/4 < c.minLen) || (c.maxLen >= 0 && len(s) > c.maxLen) {
		n := utf8.RuneCountInString(s)
		if c.minLen >= 0 && n < c.minLen {
			return c.minLenWant
		}
		if c.maxLen >= 0 && n > c.maxLen {
			return c.maxLenWant
		}
	}
	if c.re != nil {
		if c.re.fixed == nil && len(s) > maxPattern {
			return c.reWant + " (checked on strings of at most " + strconv.Itoa(maxPattern) + " bytes)"
		}
		if !c.re.match(s) {
			return c.reWant
		}
	}
	if c.format != nil && !c.format(s) {
		return c.formatWant
	}
	return ""
}

func containsString(xs []string, v string) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

// checkItems checks the number of items of an array.
func checkItems(c *constraints, n int) string {
	if c.minItems >= 0 && n < c.minItems {
		return c.minItemsWant
	}
	if c.maxItems >= 0 && n > c.maxItems {
		return c.maxItemsWant
	}
	return ""
}

// checkProps checks the number of properties of a map.
func checkProps(c *constraints, n int) string {
	if c.minProps >= 0 && n < c.minProps {
		return c.minPropsWant
	}
	if c.maxProps >= 0 && n > c.maxProps {
		return c.maxPropsWant
	}
	return ""
}
