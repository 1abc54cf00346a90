package reflectx

import (
	"math"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"time"
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

func checkString(c *constraints, s string) string {
	if c.enum != nil && !containsString(c.enum.strs, s) {
		return c.enum.want
	}
	if c.cnst != nil && !containsString(c.cnst.strs, s) {
		return c.cnst.want
	}
	if c.tenum != nil && !containsString(c.tenum.strs, s) {
		return c.tenum.want
	}
	if c.minLen >= 0 || c.maxLen >= 0 {
		n := utf8.RuneCountInString(s)
		if c.minLen >= 0 && n < c.minLen {
			return c.minLenWant
		}
		if c.maxLen >= 0 && n > c.maxLen {
			return c.maxLenWant
		}
	}
	if c.re != nil && !c.re.match(s) {
		return c.reWant
	}
	if c.format != fmtNone && !checkFormat(c.format, s) {
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

// format is a compiled format tag.
type format uint8

const (
	fmtNone format = iota
	fmtDateTime
	fmtDate
	fmtTime
	fmtEmail
	fmtUUID
	fmtIPv4
	fmtIPv6
	fmtURI
	fmtHostname
)

var formats = map[string]format{
	"date-time": fmtDateTime, "date": fmtDate, "time": fmtTime, "email": fmtEmail,
	"uuid": fmtUUID, "ipv4": fmtIPv4, "ipv6": fmtIPv6, "uri": fmtURI, "hostname": fmtHostname,
}

var formatWants = map[format]string{
	fmtDateTime: "date-time (RFC 3339, e.g. 2006-01-02T15:04:05Z)",
	fmtDate:     "date (YYYY-MM-DD)",
	fmtTime:     "time (RFC 3339 full-time, e.g. 15:04:05Z)",
	fmtEmail:    "email address",
	fmtUUID:     "UUID (8-4-4-4-12 hex digits)",
	fmtIPv4:     "IPv4 address",
	fmtIPv6:     "IPv6 address",
	fmtURI:      "absolute URI",
	fmtHostname: "hostname",
}

var fullTimeRE = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$`)

// checkFormat reports whether s has format f.
func checkFormat(f format, s string) bool {
	switch f {
	case fmtDateTime:
		_, err := time.Parse(time.RFC3339, s)
		return err == nil
	case fmtDate:
		_, err := time.Parse(time.DateOnly, s)
		return err == nil && len(s) == len(time.DateOnly)
	case fmtTime:
		return fullTimeRE.MatchString(s)
	case fmtEmail:
		at := strings.LastIndexByte(s, '@')
		if at <= 0 || at > 64 {
			return false
		}
		for _, r := range s[:at] {
			if r <= ' ' || r == '@' || r == 0x7f || r == '"' || r == '(' || r == ')' || r == ',' || r == ':' || r == ';' || r == '<' || r == '>' || r == '[' || r == '\\' || r == ']' {
				return false
			}
		}
		return isHostname(s[at+1:]) && strings.Contains(s[at+1:], ".")
	case fmtUUID:
		if len(s) != 36 {
			return false
		}
		for i := 0; i < 36; i++ {
			c := s[i]
			if i == 8 || i == 13 || i == 18 || i == 23 {
				if c != '-' {
					return false
				}
			} else if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
		return true
	case fmtIPv4:
		a, err := netip.ParseAddr(s)
		return err == nil && a.Is4()
	case fmtIPv6:
		a, err := netip.ParseAddr(s)
		return err == nil && a.Is6() && a.Zone() == ""
	case fmtURI:
		u, err := url.Parse(s)
		return err == nil && u.Scheme != "" && !strings.ContainsAny(s, " \t\n\r")
	case fmtHostname:
		return isHostname(s)
	}
	return true
}

// isHostname checks RFC 1123 host names: dot-separated labels of 1 to 63
// letters, digits and hyphens, not starting or ending with a hyphen, 253
// bytes at most.
func isHostname(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-') {
				return false
			}
		}
	}
	return true
}
