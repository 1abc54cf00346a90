package define_test

import (
	"context"
	"errors"
	"testing"

	"github.com/toolnexus/toolnexus/define"
)

// TestLoneSurrogate: a \u escape of half a UTF-16 surrogate pair is
// refused in arguments, as the reply reader refuses it, with the path of
// the value and what was expected; map input, which can carry one only as
// bytes that are not UTF-8, is refused too; a whole pair and an escaped
// U+FFFD are accepted (issue 32 item 14).
func TestLoneSurrogate(t *testing.T) {
	ctx := context.Background()
	type args struct {
		City  string   `json:"city"`
		Notes []string `json:"notes,omitempty"`
		Extra any      `json:"extra,omitempty"`
	}
	tool := define.MustDefineTool(func(ctx context.Context, in args) (string, error) { return in.City, nil }, define.WithName("t"))
	for _, c := range []struct{ text, want string }{
		{`{"city":"Oslo\ud800"}`, `invalid arguments: /city: expected a valid UTF-16 surrogate pair, got lone surrogate \ud800 at offset 13`},
		{`{"city":"x","notes":["a","\uDE00b"]}`, `invalid arguments: /notes/1: expected a valid UTF-16 surrogate pair, got lone surrogate \uDE00 at offset 26`},
		{`{"city":"x","extra":{"k":"\ud83d\u0020"}}`, `invalid arguments: /extra/k: expected a valid UTF-16 surrogate pair, got lone surrogate \ud83d at offset 26`},
	} {
		r := tool.ExecuteJSON(ctx, []byte(c.text))
		if !errors.Is(r.Err, define.ErrSyntax) || r.Output != c.want {
			t.Errorf("ExecuteJSON(%s) = %q (%v), want %q", c.text, r.Output, r.Err, c.want)
		}
	}
	if r := tool.ExecuteJSON(ctx, []byte(`{"city":"\ud83d\ude00\ufffd"}`)); r.IsError || r.Output != "😀\uFFFD" {
		t.Errorf("a pair and an escaped U+FFFD: %+v", r)
	}
	if r := tool.Execute(ctx, map[string]any{"city": "Oslo\xed\xa0\x80"}); !errors.Is(r.Err, define.ErrSyntax) {
		t.Errorf("surrogate bytes in a map: %+v, want ErrSyntax", r)
	}
	raw := mustNewTool(t, "raw")
	if r := raw.ExecuteJSON(ctx, []byte(`{"q":"\udc00"}`)); !errors.Is(r.Err, define.ErrSyntax) {
		t.Errorf("NewTool: %+v, want ErrSyntax", r)
	}
	if r := raw.Execute(ctx, map[string]any{"q": "\xed\xb0\x80"}); !errors.Is(r.Err, define.ErrSyntax) {
		t.Errorf("NewTool, map: %+v, want ErrSyntax", r)
	}
}
