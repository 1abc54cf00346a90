package jsonwire

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
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

// TestStringLenUTF8: StringLenUTF8 is StringLen and utf8.ValidString in
// one, on every position of a special byte within and around the
// eight-byte words it takes at once.
func TestStringLenUTF8(t *testing.T) {
	specials := []string{`"`, `\`, "\n", "\x00", "\x1f", "\x7f", "é", "€", "😀", "\xff", "\xed\xa0\x80", "\xe2\x82", "<"}
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 40 {
		for _, sp := range specials {
			for at := 0; at <= n; at++ {
				s := strings.Repeat("a", at) + sp + strings.Repeat("b", n-at)
				if r.IntN(2) == 0 {
					s += specials[r.IntN(len(specials))]
				}
				got, valid := StringLenUTF8(s)
				if valid != utf8.ValidString(s) || valid && got != StringLen(s) {
					t.Fatalf("StringLenUTF8(%q) = %d, %v; want %d, %v", s, got, valid, StringLen(s), utf8.ValidString(s))
				}
			}
		}
	}
}

// TestSkipSpace compares SkipSpace with a byte at a time loop on runs of
// spaces broken by the bytes next to ' ' and by other space.
func TestSkipSpace(t *testing.T) {
	alphabet := []byte{' ', ' ', ' ', '\t', '\n', '\r', '!', 0x1f, 0xa0, 'x', 0}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		data := make([]byte, rng.IntN(24))
		for j := range data {
			data[j] = alphabet[rng.IntN(len(alphabet))]
		}
		i := 0
		if len(data) > 0 {
			i = rng.IntN(len(data) + 1)
		}
		want := i
		for want < len(data) && (data[want] == ' ' || data[want] == '\t' || data[want] == '\n' || data[want] == '\r') {
			want++
		}
		if got := SkipSpace(data, i); got != want {
			t.Fatalf("SkipSpace(%q, %d) = %d, want %d", data, i, got, want)
		}
	}
}
