package echo

import (
	"errors"
	"strings"
	"testing"
)

func TestCut(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc… (4 bytes)"},
		{"aé", 2, "a… (3 bytes)"}, // not inside é
		{"", 0, ""},
	} {
		if got := Cut(c.in, c.max); got != c.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
		if got := Cut([]byte(c.in), c.max); got != c.want {
			t.Errorf("Cut([]byte(%q), %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

func TestValue(t *testing.T) {
	long := strings.Repeat("x", 1000)
	for _, v := range []any{long, errors.New(long), []string{long}} {
		if got := Value(v, 10); len(got) > 40 || !strings.Contains(got, Marker) {
			t.Errorf("Value(%T) = %q", v, got)
		}
	}
	if got := Value(42, 10); got != "42" {
		t.Errorf("Value(42) = %q", got)
	}
}
