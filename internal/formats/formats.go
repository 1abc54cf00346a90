// Package formats checks the string formats of the format tag:
// internal/fields accepts the names, and internal/reflectx checks with
// [Lookup] both a call's arguments and the values tags give (defaults,
// examples, enum members), so that both meet exactly the same checks.
package formats

import (
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// names lists the formats, in the order decisions.md gives them.
var names = []string{"date-time", "date", "time", "email", "uuid", "ipv4", "ipv6", "uri", "hostname"}

// Names returns the formats the format tag accepts, in the order
// decisions.md gives them (a new slice each time).
func Names() []string { return slices.Clone(names) }

// Known reports whether name is one of Names.
func Known(name string) bool { return slices.Contains(names, name) }

// Lookup returns the check of the named format and what it wants, for
// an error ("email address"); ok is false for an unknown name.
func Lookup(name string) (check func(string) bool, want string, ok bool) {
	switch name {
	case "date-time":
		return DateTime, "date-time (RFC 3339, e.g. 2006-01-02T15:04:05Z)", true
	case "date":
		return Date, "date (YYYY-MM-DD)", true
	case "time":
		return Time, "time (RFC 3339 full-time, e.g. 15:04:05Z)", true
	case "email":
		return Email, "email address", true
	case "uuid":
		return UUID, "UUID (8-4-4-4-12 hex digits)", true
	case "ipv4":
		return IPv4, "IPv4 address", true
	case "ipv6":
		return IPv6, "IPv6 address", true
	case "uri":
		return URI, "absolute URI", true
	case "hostname":
		return Hostname, "hostname", true
	}
	return nil, "", false
}

// ParseDateTime parses an RFC 3339 date-time as time.Time's UnmarshalText
// does (strictly), after accepting the lower-case "t" and "z" that RFC 3339
// section 5.6 allows. The leap second 23:59:60 is an error: time.Time
// cannot hold it.
func ParseDateTime(s string) (time.Time, error) { return ParseDateTimeBytes([]byte(s)) }

// ParseDateTimeBytes is ParseDateTime for JSON text; b is not modified.
func ParseDateTimeBytes(b []byte) (time.Time, error) {
	if !dateTimeSyntax(b) {
		// time's own parser is lenient here (a one-digit hour, a comma
		// before the fraction, an offset of +24:00: go.dev/issue/54580).
		return time.Time{}, &time.ParseError{Layout: time.RFC3339, Value: string(b), LayoutElem: time.RFC3339, ValueElem: string(b),
			Message: ": not an RFC 3339 date-time"}
	}
	lowerT := b[10] == 't'
	lowerZ := b[len(b)-1] == 'z'
	if lowerT || lowerZ {
		b = append([]byte(nil), b...)
		if lowerT {
			b[10] = 'T'
		}
		if lowerZ {
			b[len(b)-1] = 'Z'
		}
	}
	var t time.Time
	err := t.UnmarshalText(b)
	return t, err
}

// dateTimeSyntax checks the shape of an RFC 3339 date-time,
// YYYY-MM-DDTHH:MM:SS[.F+](Z|±HH:MM) with "t" and "z" allowed, and the range
// of the offset; time.Time checks the ranges of the other fields.
func dateTimeSyntax(b []byte) bool {
	const shape = "dddd-dd-ddTdd:dd:dd"
	if len(b) < len(shape)+1 {
		return false
	}
	for i := 0; i < len(shape); i++ {
		switch c := b[i]; shape[i] {
		case 'd':
			if c < '0' || c > '9' {
				return false
			}
		case 'T':
			if c != 'T' && c != 't' {
				return false
			}
		default:
			if c != shape[i] {
				return false
			}
		}
	}
	rest := b[len(shape):]
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		rest = rest[n:]
	}
	if len(rest) == 1 {
		return rest[0] == 'Z' || rest[0] == 'z'
	}
	digit := func(c byte) bool { return '0' <= c && c <= '9' }
	return len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':' &&
		digit(rest[1]) && digit(rest[2]) && digit(rest[4]) && digit(rest[5]) &&
		(rest[1]-'0')*10+(rest[2]-'0') <= 23 && rest[4] <= '5'
}

// DateTime reports whether s is an RFC 3339 date-time Go can represent;
// see ParseDateTime.
func DateTime(s string) bool {
	_, err := ParseDateTime(s)
	return err == nil
}

// Date reports whether s is an RFC 3339 full-date (YYYY-MM-DD).
func Date(s string) bool {
	if len(s) != len(time.DateOnly) {
		return false
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

var fullTimeRE = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$`)

// Time reports whether s is an RFC 3339 full-time (15:04:05Z,
// 15:04:05.5+01:00). The leap second :60 is accepted only where the time
// in UTC is 23:59:60 (23:59:60Z, 00:59:60+01:00, 15:59:60-08:00), as RFC
// 3339 section 5.7 allows it; which days had one is not checked.
func Time(s string) bool {
	m := fullTimeRE.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	if m[2] != "60" {
		return true
	}
	num := func(t string) int { return int(t[0]-'0')*10 + int(t[1]-'0') }
	minutes := num(s[0:2])*60 + num(s[3:5]) // local time of day
	if z := m[4]; z != "Z" && z != "z" {
		off := num(z[1:3])*60 + num(z[4:6])
		if z[0] == '+' {
			minutes -= off
		} else {
			minutes += off
		}
	}
	return (minutes%1440+1440)%1440 == 23*60+59
}

// Email reports whether s is an RFC 5321 Mailbox: a local part (a
// dot-string of ASCII atext, or a quoted string of printable ASCII) of at
// most 64 bytes, "@", and a domain: a Hostname (localhost and example.com.
// included) or an address literal, [192.0.2.1] or [IPv6:2001:db8::1]. The
// whole is at most 254 bytes. Whitespace outside quotes, control and format
// characters (U+FEFF) and other non-ASCII text are rejected.
func Email(s string) bool {
	if len(s) > 254 {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at > 64 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if !localPart(local) {
		return false
	}
	if lit, ok := strings.CutPrefix(domain, "["); ok {
		lit, ok = strings.CutSuffix(lit, "]")
		if !ok {
			return false
		}
		if v6, ok := strings.CutPrefix(lit, "IPv6:"); ok {
			return IPv6(v6)
		}
		return IPv4(lit)
	}
	return Hostname(domain)
}

// localPart checks RFC 5321's Local-part: Dot-string or Quoted-string.
func localPart(s string) bool {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		q := s[1 : len(s)-1]
		for i := 0; i < len(q); i++ {
			c := q[i]
			switch {
			case c == '\\':
				// quoted-pairSMTP: a backslash and a printable ASCII character
				i++
				if i == len(q) || q[i] < ' ' || q[i] > '~' {
					return false
				}
			case c == '"' || c < ' ' || c > '~':
				return false
			}
		}
		return true
	}
	for _, atom := range strings.Split(s, ".") {
		if atom == "" {
			return false // a leading, trailing or doubled dot
		}
		for i := 0; i < len(atom); i++ {
			if !isAtext(atom[i]) {
				return false
			}
		}
	}
	return true
}

// isAtext reports whether c is RFC 5322 atext.
func isAtext(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0
}

// UUID reports whether s is a UUID in the 8-4-4-4-12 hex digit form.
func UUID(s string) bool {
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
}

// IPv4 reports whether s is a dotted-quad IPv4 address (no leading zeros).
func IPv4(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is4()
}

// IPv6 reports whether s is an IPv6 address without a zone.
func IPv6(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6() && a.Zone() == ""
}

// URI reports whether s is an absolute URI: it has a scheme, parses with
// net/url and holds no whitespace (RFC 3986 allows none).
func URI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && !strings.ContainsAny(s, " \t\n\r")
}

// Hostname reports whether s is an RFC 1123 host name: dot-separated labels
// of 1 to 63 ASCII letters, digits and hyphens, not starting or ending with
// a hyphen, 253 bytes at most, with one optional trailing dot (the root,
// example.com.).
func Hostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
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

// The propertyNames patterns of maps with integer keys: an integer in its
// one canonical decimal form (no sign on 0 or on unsigned keys, no "+", no
// leading zeros), so that each key names one map entry.
const (
	IntKeyPattern  = `^(0|-?[1-9][0-9]*)$`
	UintKeyPattern = `^(0|[1-9][0-9]*)$`
)

// IntegerKey reports whether s matches IntKeyPattern (signed) or
// UintKeyPattern. It does not check the range of the key type.
func IntegerKey(s string, signed bool) bool {
	if signed && len(s) > 1 && s[0] == '-' {
		s = s[1:]
		if s == "0" {
			return false
		}
	}
	if s == "" || len(s) > 1 && s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// regexps caches compiled patterns: schema/ checks a pattern tag and
// reflectx compiles it for its plan, so each pattern of a program's types is
// compiled once. Keys are patterns from struct tags, so the cache is bounded
// by the program's types. A *regexp.Regexp is safe for concurrent use.
var regexps sync.Map // string → *regexp.Regexp

// Regexp returns the compiled form of a pattern tag (RE2 syntax,
// unanchored, as JSON Schema's pattern), compiling it once.
func Regexp(expr string) (*regexp.Regexp, error) {
	if re, ok := regexps.Load(expr); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	v, _ := regexps.LoadOrStore(expr, re)
	return v.(*regexp.Regexp), nil
}
