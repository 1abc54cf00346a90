package define_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus/define"
)

// echoTree nests maps whose keys come from the input, so that an error's
// path repeats them.
type echoTree map[string]echoTree

type echoArgs struct {
	T echoTree `json:"t"`
	N int      `json:"n,omitempty"`
}

// hostileEcho is about 3.7 MB of arguments: 450 levels of 8 KiB keys,
// then 25 values of the wrong type, each at the end of that path.
func hostileEcho() (map[string]any, []byte) {
	leaf := map[string]any{}
	for i := range 25 {
		leaf["bad"+strings.Repeat("b", i)] = "not an object"
	}
	var m any = leaf
	for i := range 450 {
		m = map[string]any{strings.Repeat(string(rune('a'+i%26)), 8<<10): m}
	}
	args := map[string]any{"t": m}
	text, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return args, text
}

// allocated returns the bytes f allocates and its result.
func allocated(f func() define.Result) (uint64, define.Result) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, r
}

func checkBounded(t *testing.T, what string, r define.Result, alloc uint64, input int) {
	t.Helper()
	if !r.IsError {
		t.Fatalf("%s: not an error: %.200s", what, r.Output)
	}
	if len(r.Output) > define.MaxErrorText+64 {
		t.Errorf("%s: message of %d bytes, want at most about %d: %.300s", what, len(r.Output), define.MaxErrorText, r.Output)
	}
	if msg := r.Err.Error(); len(msg) > define.MaxErrorText+64 {
		t.Errorf("%s: Err.Error() of %d bytes", what, len(msg))
	}
	t.Logf("%s: %d bytes of message, %d bytes allocated for %d bytes of input", what, len(r.Output), alloc, input)
	// Decoding the input itself allocates about its size (the keys of
	// the maps); the message must not add more than a small multiple.
	if limit := uint64(4 * input); alloc > limit {
		t.Errorf("%s: %d bytes allocated for %d bytes of input, want at most %d", what, alloc, input, limit)
	}
}

func TestErrorTextBounded(t *testing.T) {
	tool := define.MustDefineTool(func(ctx context.Context, in echoArgs) (string, error) { return "ok", nil }, define.WithName("echo"))
	ctx := context.Background()
	args, text := hostileEcho()
	if len(text) > define.DefaultMaxArgBytes {
		t.Fatalf("input of %d bytes is over the limit", len(text))
	}
	alloc, r := allocated(func() define.Result { return tool.ExecuteJSON(ctx, text) })
	checkBounded(t, "ExecuteJSON", r, alloc, len(text))
	var ae *define.ArgErrors
	if !errors.As(r.Err, &ae) || len(ae.Errs) == 0 {
		t.Fatalf("Err = %v", r.Err)
	}
	for _, e := range ae.Errs {
		if len(e.Path) > define.MaxEchoedPath+64 {
			t.Errorf("path of %d bytes", len(e.Path))
		}
		// /t/hhh… (8192 bytes)/…/… (N steps)/…/aaa… (8192 bytes)/bad…: the first and last steps.
		if !strings.HasPrefix(e.Path, "/t/hhhh") || !strings.Contains(e.Path, "… (8192 bytes)/") ||
			!strings.Contains(e.Path, " steps)/") || !strings.Contains(e.Path[strings.LastIndexByte(e.Path, '/'):], "/bad") {
			t.Errorf("path %q: want its first and last steps, cut", e.Path)
		}
	}
	if !strings.Contains(r.Output, "more") {
		t.Errorf("the problems left out are not counted: %.300s", r.Output)
	}
	alloc, r = allocated(func() define.Result { return tool.Execute(ctx, args) })
	checkBounded(t, "Execute", r, alloc, len(text))
}

func TestUnknownKeyCut(t *testing.T) {
	tool := define.MustDefineTool(func(ctx context.Context, in echoArgs) (string, error) { return "ok", nil }, define.WithName("echo"))
	ctx := context.Background()
	key := strings.Repeat("k", 4<<20-100)
	args := map[string]any{key: 1}
	text, _ := json.Marshal(args)
	for _, c := range []struct {
		name string
		run  func() define.Result
	}{
		{"ExecuteJSON", func() define.Result { return tool.ExecuteJSON(ctx, text) }},
		{"Execute", func() define.Result { return tool.Execute(ctx, args) }},
	} {
		alloc, r := allocated(c.run)
		if !errors.Is(r.Err, define.ErrUnknownField) {
			t.Fatalf("%s: %.200s", c.name, r.Output)
		}
		if len(r.Output) > 1024 {
			t.Errorf("%s: message of %d bytes: %.300s", c.name, len(r.Output), r.Output)
		}
		if !strings.Contains(r.Output, "… (4194204 bytes)") {
			t.Errorf("%s: the key's length is not given: %.300s", c.name, r.Output)
		}
		if alloc > 3*uint64(len(text)) {
			t.Errorf("%s: %d bytes allocated", c.name, alloc)
		}
	}
}

func TestPanicMessageCut(t *testing.T) {
	big := strings.Repeat("p", 20<<20)
	for _, v := range []any{big, errors.New(big)} {
		tool := define.MustDefineTool(func(ctx context.Context, in echoArgs) (string, error) { panic(v) }, define.WithName("boom"))
		r := tool.ExecuteJSON(context.Background(), []byte(`{"t":{}}`))
		var pe *define.PanicError
		if !errors.As(r.Err, &pe) {
			t.Fatalf("Err = %v", r.Err)
		}
		if len(r.Output) > define.MaxEchoedPanic+200 {
			t.Errorf("Output of %d bytes", len(r.Output))
		}
		if len(pe.Error()) > define.MaxEchoedPanic+200 {
			t.Errorf("PanicError.Error() of %d bytes", len(pe.Error()))
		}
		if !strings.Contains(r.Output, "… (20971520 bytes)") {
			t.Errorf("the length is not given: %.2000s", r.Output)
		}
	}
}

type whenArgs struct {
	When time.Time `json:"when"`
}

func TestCauseCut(t *testing.T) {
	tool := define.MustDefineTool(func(ctx context.Context, in whenArgs) (string, error) { return "ok", nil }, define.WithName("when"))
	long := strings.Repeat("9", 1<<20)
	for _, r := range []define.Result{
		tool.ExecuteJSON(context.Background(), []byte(`{"when":"`+long+`"}`)),
		tool.Execute(context.Background(), map[string]any{"when": long}),
	} {
		var ae *define.ArgError
		if !errors.As(r.Err, &ae) {
			t.Fatalf("Err = %v", r.Err)
		}
		if len(r.Output) > 512 {
			t.Errorf("Output of %d bytes", len(r.Output))
		}
		if msg := ae.Err.Error(); len(msg) > define.MaxEchoedCause+100 {
			t.Errorf("the cause's message is %d bytes", len(msg))
		}
	}
}

type textArgs struct {
	S string         `json:"s"`
	M map[string]any `json:"m,omitempty"`
}

// TestMapChargedAsText: strings of map arguments are charged what they
// are as JSON text, escapes included, so that a map and its text get the
// same verdict against WithMaxArgBytes.
func TestMapChargedAsText(t *testing.T) {
	tool := define.MustDefineTool(func(ctx context.Context, in textArgs) (string, error) { return "ok", nil },
		define.WithName("text"), define.WithMaxArgBytes(1000))
	ctx := context.Background()
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"quotes", map[string]any{"s": strings.Repeat(`"`, 600)}},
		{"few quotes", map[string]any{"s": strings.Repeat(`"`, 400)}},
		{"controls", map[string]any{"s": strings.Repeat("\x01", 300)}},
		{"few controls", map[string]any{"s": strings.Repeat("\x01", 100)}},
		{"backslashes in a key", map[string]any{"s": "", "m": map[string]any{strings.Repeat(`\`, 600): 1.0}}},
		{"newlines in an any", map[string]any{"s": "", "m": map[string]any{"k": []any{strings.Repeat("\n", 600)}}}},
		{"plain", map[string]any{"s": strings.Repeat("x", 980)}},
		{"plain, over", map[string]any{"s": strings.Repeat("x", 1000)}},
	} {
		var buf strings.Builder
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(c.args); err != nil {
			t.Fatal(err)
		}
		text := strings.TrimSpace(buf.String())
		fromText := errors.Is(tool.ExecuteJSON(ctx, []byte(text)).Err, define.ErrTooLarge)
		fromMap := errors.Is(tool.Execute(ctx, c.args).Err, define.ErrTooLarge)
		if fromText != fromMap {
			t.Errorf("%s (%d bytes of text): too large as text %v, as a map %v", c.name, len(text), fromText, fromMap)
		}
	}
}

type numberArgs struct {
	N json.Number   `json:"n"`
	P *json.Number  `json:"p,omitempty"`
	L []json.Number `json:"l,omitempty" uniqueItems:"true"`
}

// TestJSONNumberField: a json.Number field is a number in the schema and
// takes any JSON number, its text kept exactly, from text and from maps.
func TestJSONNumberField(t *testing.T) {
	var got numberArgs
	tool := define.MustDefineTool(func(ctx context.Context, in numberArgs) (string, error) {
		got = in
		return "ok", nil
	}, define.WithName("num"))
	var sch struct {
		Properties map[string]struct {
			Type  any
			Items *struct{ Type any }
		}
	}
	if err := json.Unmarshal(tool.InputSchema(), &sch); err != nil {
		t.Fatal(err)
	}
	isNumber := func(v any) bool { return v == "number" || fmt.Sprint(v) == "[number null]" }
	if !isNumber(sch.Properties["n"].Type) || !isNumber(sch.Properties["p"].Type) || !isNumber(sch.Properties["l"].Items.Type) {
		t.Errorf("schema %s: want numbers", tool.InputSchema())
	}
	ctx := context.Background()
	for _, lit := range []string{"1e5", "0", "-12", "3.25", "-0.5E-3", "123456789012345678901234567890", "1e999999"} {
		if r := tool.ExecuteJSON(ctx, []byte(`{"n":`+lit+`,"p":`+lit+`}`)); r.IsError {
			t.Errorf("%s: %s", lit, r.Output)
		} else if string(got.N) != lit || got.P == nil || string(*got.P) != lit {
			t.Errorf("%s: got %q and %v", lit, got.N, got.P)
		}
		if r := tool.Execute(ctx, map[string]any{"n": json.Number(lit)}); r.IsError || string(got.N) != lit {
			t.Errorf("map %s: %s, got %q", lit, r.Output, got.N)
		}
	}
	if r := tool.Execute(ctx, map[string]any{"n": 1e5}); r.IsError || got.N != "100000" {
		t.Errorf("map 1e5: %s, got %q", r.Output, got.N)
	}
	for _, bad := range []string{`{"n":"12"}`, `{"n":true}`, `{"n":1,"l":[1,1.0]}`} {
		if r := tool.ExecuteJSON(ctx, []byte(bad)); !r.IsError {
			t.Errorf("%s accepted", bad)
		}
	}
	for _, bad := range []map[string]any{{"n": "12"}, {"n": json.Number("1x")}} {
		if r := tool.Execute(ctx, bad); !r.IsError {
			t.Errorf("%v accepted", bad)
		}
	}
}
