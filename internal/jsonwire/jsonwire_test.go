package jsonwire

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	for _, tc := range []struct{ key, token string }{
		{"", ""}, {"city", "city"}, {"a/b", "a~1b"}, {"~", "~0"}, {"~1", "~01"}, {"/~/", "~1~0~1"}, {"ü/é", "ü~1é"},
	} {
		if got := EscapeToken(tc.key); got != tc.token {
			t.Errorf("EscapeToken(%q) = %q, want %q", tc.key, got, tc.token)
		}
		if got := UnescapeToken(tc.token); got != tc.key {
			t.Errorf("UnescapeToken(%q) = %q, want %q", tc.token, got, tc.key)
		}
		if got := string(AppendToken([]byte("/p"), tc.key)); got != "/p/"+tc.token {
			t.Errorf("AppendToken(%q) = %q", tc.key, got)
		}
	}
	if got := string(AppendIndex(AppendToken(nil, "items"), 12)); got != "/items/12" {
		t.Errorf("AppendIndex = %q", got)
	}
}

func TestStringLen(t *testing.T) {
	for _, s := range []string{"", "abc", `a"b\c`, "\n\t\x00\x1f", "é<>&\u2028", strings.Repeat(`"`, 100)} {
		want, _ := json.Marshal(s) // escapes <, >, & and U+2028 as \u00XX: take those out
		w := len(want) - 5*strings.Count(s, "<") - 5*strings.Count(s, ">") - 5*strings.Count(s, "&") - 3*strings.Count(s, "\u2028")
		if got := StringLen(s); got != w {
			t.Errorf("StringLen(%q) = %d, want %d", s, got, w)
		}
	}
}
