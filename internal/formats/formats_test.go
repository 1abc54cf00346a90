package formats

import (
	"strings"
	"testing"
	"time"
)

func TestLookupNames(t *testing.T) {
	for _, name := range Names() {
		if _, _, ok := Lookup(name); !ok {
			t.Errorf("Lookup(%q) fails for a name of Names", name)
		}
	}
	if _, _, ok := Lookup("colour"); ok {
		t.Error(`Lookup("colour") succeeds`)
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		format string
		ok     []string
		bad    []string
	}{
		{"date-time",
			[]string{"2026-09-01T10:00:00Z", "2026-09-01t10:00:00z", "2026-09-01t10:00:00Z", "2024-02-29T23:59:59.123456789+05:30", "1999-12-31T00:00:00-08:00"},
			[]string{"2026-09-01", "2026-09-01T10:00:00", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-09-01T24:00:00Z",
				"2026-12-31T23:59:60Z", "2026-09-01 10:00:00Z", "2026-09-01T10:00:00+0530", "2026-09-01T10:00Z", "2026-09-01T1:00:00Z",
				"2026-09-01T10:00:00,5Z", "2026-09-01T10:00:00+24:00", "2026-09-01T10:00:00zz", " 2026-09-01T10:00:00Z"}},
		{"date", []string{"2026-09-01", "2024-02-29", "0001-01-01"}, []string{"2026-9-1", "2026-02-30", "2023-02-29", "2026-09-01T00:00:00Z"}},
		{"time", []string{"10:00:00Z", "23:59:60z", "23:59:59.999+01:00", "00:59:60+01:00", "15:59:60.5-08:00", "23:29:60-00:30"},
			[]string{"10:00:00", "24:00:00Z", "1:00:00Z", "10:00:00.Z", "10:00:00+25:00", "22:59:60Z", "23:59:60+01:00", "12:00:60Z", "23:58:60Z"}},
		{"email",
			[]string{"user@example.com", "first.last+tag@sub.example.org", "user@[127.0.0.1]", "user@[IPv6:2001:db8::1]",
				`"quoted"@example.com`, `"a b"@example.com`, `"a\"b"@example.com`, "o'hara@example.com", "user@localhost", "user@example.com."},
			[]string{"user@", "@example.com", "plainaddress", "a@b@c.com", "a..b@example.com", ".a@example.com", "a.@example.com",
				"user@-example.com", "user@example.com..", " user@example.com", "user@example.com ", "\ufeffuser@example.com",
				"us\u200ber@example.com", "us\x00er@example.com", "us er@example.com", "jöhn@example.com", "user@[256.1.1.1]",
				"user@[IPv6:1.2.3.4]", "user@[::1]", "user@[127.0.0.1", `"a"b"@example.com`, `"a\"@example.com`,
				strings.Repeat("a", 65) + "@example.com", "a@" + strings.Repeat("b", 250) + ".com"}},
		{"hostname",
			[]string{"example.com", "example.com.", "localhost", "a-b.c", "xn--nxasmq6b.com", strings.Repeat("a", 63) + ".com"},
			[]string{"-leading.example.com", "a..b", "example.com..", ".", "", strings.Repeat("a", 64) + ".com", "under_score.com", " example.com"}},
		{"uri", []string{"https://example.com/p?q=1#f", "mailto:a@example.com", "urn:isbn:0451450523"},
			[]string{"/relative/path", "example.com", "http://exa mple.com", "://no-scheme"}},
		{"uuid", []string{"01234567-89ab-cdef-0123-456789abcdef", "01234567-89AB-CDEF-0123-456789ABCDEF"},
			[]string{"01234567-89ab-cdef-0123-456789abcdeg", "{01234567-89ab-cdef-0123-456789abcdef}"}},
		{"ipv4", []string{"1.2.3.4"}, []string{"256.1.1.1", "01.2.3.4", "::ffff:1.2.3.4"}},
		{"ipv6", []string{"::1", "::ffff:1.2.3.4"}, []string{"fe80::1%eth0", "1.2.3.4"}},
	} {
		check, want, ok := Lookup(tc.format)
		if !ok || want == "" {
			t.Fatalf("Lookup(%q) = %t, %q, %t", tc.format, check != nil, want, ok)
		}
		for _, s := range tc.ok {
			if !check(s) {
				t.Errorf("%s check of %q = false, want true", tc.format, s)
			}
		}
		for _, s := range tc.bad {
			if check(s) {
				t.Errorf("%s check of %q = true, want false", tc.format, s)
			}
		}
	}
}

func TestParseDateTime(t *testing.T) {
	want := time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC)
	for _, s := range []string{"2026-09-01T10:00:00Z", "2026-09-01t10:00:00z", "2026-09-01t12:00:00+02:00"} {
		got, err := ParseDateTime(s)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseDateTime(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	b := []byte("2026-09-01t10:00:00z")
	if _, err := ParseDateTimeBytes(b); err != nil || string(b) != "2026-09-01t10:00:00z" {
		t.Errorf("ParseDateTimeBytes modified its input or failed: %q, %v", b, err)
	}
}

func TestIntegerKey(t *testing.T) {
	for _, tc := range []struct {
		s              string
		signed, unsign bool
	}{
		{"0", true, true}, {"7", true, true}, {"-12", true, false}, {"9223372036854775808", true, true},
		{"-0", false, false}, {"01", false, false}, {"+1", false, false}, {"", false, false}, {"-", false, false},
		{"1.5", false, false}, {"1e3", false, false}, {" 1", false, false}, {"--1", false, false},
	} {
		if got := IntegerKey(tc.s, true); got != tc.signed {
			t.Errorf("IntegerKey(%q, true) = %v, want %v", tc.s, got, tc.signed)
		}
		if got := IntegerKey(tc.s, false); got != tc.unsign {
			t.Errorf("IntegerKey(%q, false) = %v, want %v", tc.s, got, tc.unsign)
		}
	}
}

func TestRegexpCompilesOnce(t *testing.T) {
	a, err := Regexp(`^[A-Z]{3}$`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Regexp(`^[A-Z]{3}$`)
	if a != b {
		t.Error("Regexp compiled the same pattern twice")
	}
	if !a.MatchString("CDG") || a.MatchString("cdg") {
		t.Errorf("Regexp(^[A-Z]{3}$) matches wrongly")
	}
	if _, err := Regexp(`(?<=x)y`); err == nil {
		t.Error("Regexp accepted a lookbehind, which RE2 does not support")
	}
}
