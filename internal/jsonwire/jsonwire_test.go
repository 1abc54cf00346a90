package jsonwire

import "testing"

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
