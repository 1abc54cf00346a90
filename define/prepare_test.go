package define_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/define"
)

// A toolkit's batch splits a call in two (Tool.DecodeJSON, DecodeMap):
// the decode on the caller's goroutine, the handler on a worker. These
// tests hold the split call to what ExecuteJSON and Execute give whole.

// prepared runs a call split in two, as a batch does: from text, or from
// m when m is not nil. ok is false when the decode may run the program's
// code (Tool.DecodeCallsUserCode), which a batch decodes on a worker.
func prepared(tool define.Tool, ctx context.Context, text []byte, m map[string]any) (res define.Result, ok bool) {
	var call define.Decoded
	if m != nil {
		call = tool.DecodeMap(ctx, m, &res)
	} else {
		call = tool.DecodeJSON(ctx, text, &res)
	}
	if call != nil {
		call.Finish(ctx)
	}
	return res, !tool.DecodeCallsUserCode()
}

// resultDiff describes how got differs from want, or is "".
func resultDiff(got, want define.Result) string {
	var diffs []string
	if got.Output != want.Output {
		diffs = append(diffs, fmt.Sprintf("Output %q, want %q", got.Output, want.Output))
	}
	if got.IsError != want.IsError {
		diffs = append(diffs, fmt.Sprintf("IsError %t, want %t", got.IsError, want.IsError))
	}
	if !reflect.DeepEqual(got.Value, want.Value) {
		diffs = append(diffs, fmt.Sprintf("Value %#v, want %#v", got.Value, want.Value))
	}
	if g, w := fmt.Sprint(got.Err), fmt.Sprint(want.Err); g != w {
		diffs = append(diffs, fmt.Sprintf("Err %s, want %s", g, w))
	}
	return strings.Join(diffs, "; ")
}

// TestPrepareMatchesExecute: every call case of the booking tool, from text
// and from a map, with a live and a cancelled context, gives the same
// result split as whole: good arguments, bad ones, a handler's error, its
// panic; so do a pointer input (decoded into fresh memory, not pooled),
// a structured output and an output past the tool's limit.
func TestPrepareMatchesExecute(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	booking := bookingTool(t)
	ptr, err := define.DefineTool(func(_ context.Context, in *Booking) (Booking, error) { return *in, nil }, define.WithName("ptr"))
	if err != nil {
		t.Fatal(err)
	}
	small, err := define.DefineTool(book, define.WithName("small"), define.WithMaxOutputBytes(5))
	if err != nil {
		t.Fatal(err)
	}
	extra := []callCase{
		{name: "panics", json: `{"city":"Boom","passengers":1}`, args: map[string]any{"city": "Boom", "passengers": 1.0}},
		{name: "handler error", json: `{"city":"Nowhere","passengers":1}`, args: map[string]any{"city": "Nowhere", "passengers": 1.0}},
	}
	for _, tool := range []define.Tool{booking, ptr, small, echoTool(t)} {
		for _, tc := range append(append([]callCase(nil), callCases...), extra...) {
			for _, ctx := range []context.Context{context.Background(), cancelled} {
				name := fmt.Sprintf("%s/%s (cancelled %t)", tool.Name(), tc.name, ctx.Err() != nil)
				got, ok := prepared(tool, ctx, []byte(tc.json), nil)
				if !ok {
					t.Fatalf("%s: the tool reports a decode of user code", name)
				}
				if d := resultDiff(got, tool.ExecuteJSON(ctx, []byte(tc.json))); d != "" {
					t.Errorf("%s, from text: %s", name, d)
				}
				if tc.args == nil {
					continue
				}
				got, ok = prepared(tool, ctx, nil, tc.args)
				if !ok {
					t.Fatalf("%s: the tool reports a decode of user code", name)
				}
				if d := resultDiff(got, tool.Execute(ctx, tc.args)); d != "" {
					t.Errorf("%s, from a map: %s", name, d)
				}
			}
		}
	}
}

// TestDecodeCallsUserCode: a tool whose decode may call a user's method
// says so, and its split call still gives what the whole call gives; a
// NewTool tool and the zero Tool do not, and the zero Tool's decode is
// its error result.
func TestDecodeCallsUserCode(t *testing.T) {
	methods, err := define.DefineTool(func(_ context.Context, in stamped) (string, error) {
		return in.S.Text, nil
	}, define.WithName("stamped"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := define.NewTool("raw", []byte(`{"type":"object"}`), func(_ context.Context, args json.RawMessage) (any, error) {
		return string(args), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool define.Tool
		user bool
	}{{methods, true}, {raw, false}, {define.Tool{}, false}} {
		if got := tc.tool.DecodeCallsUserCode(); got != tc.user {
			t.Errorf("%v: DecodeCallsUserCode() = %t, want %t", tc.tool, got, tc.user)
		}
		for _, args := range []string{`{"s":"x"}`, `{"s":1}`, `[]`} {
			got, _ := prepared(tc.tool, context.Background(), []byte(args), nil)
			if d := resultDiff(got, tc.tool.ExecuteJSON(context.Background(), []byte(args))); d != "" {
				t.Errorf("%v %s, split: %s", tc.tool, args, d)
			}
		}
		got, _ := prepared(tc.tool, context.Background(), nil, map[string]any{"s": "x"})
		if d := resultDiff(got, tc.tool.Execute(context.Background(), map[string]any{"s": "x"})); d != "" {
			t.Errorf("%v from a map, split: %s", tc.tool, d)
		}
	}
	var res define.Result
	if call := (define.Tool{}).DecodeJSON(context.Background(), []byte(`{}`), &res); call != nil || !errors.Is(res.Err, define.ErrZeroTool) {
		t.Errorf("zero Tool: DecodeJSON = %v, result %+v; want nil and ErrZeroTool", call, res)
	}
}

// TestPreparedCallsOwnTheirInputs: calls prepared before any of them
// finishes (each holds pooled memory meanwhile), finished in reverse
// order, each see their own arguments; inputs a handler keeps stay intact
// after many more split calls reuse the pool.
func TestPreparedCallsOwnTheirInputs(t *testing.T) {
	var kept []Booking
	tool, err := define.DefineTool(func(_ context.Context, in Booking) (string, error) {
		kept = append(kept, in)
		return in.City, nil
	}, define.WithName("keeps"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const n = 8
	results := make([]define.Result, n)
	var pending []define.Decoded
	for i := range n {
		text := fmt.Appendf(nil, `{"city":"City%c","passengers":%d,"tags":["t%d"]}`, 'a'+i, i%9+1, i)
		call := tool.DecodeJSON(ctx, text, &results[i])
		if call == nil {
			t.Fatalf("call %d: DecodeJSON = nil (%+v); want a call", i, results[i])
		}
		pending = append(pending, call)
	}
	for i := n - 1; i >= 0; i-- {
		pending[i].Finish(ctx)
	}
	for i, r := range results {
		if want := fmt.Sprintf("City%c", 'a'+i); r.IsError || r.Output != want {
			t.Errorf("call %d: %+v, want %s", i, r, want)
		}
	}
	for i := range 200 {
		if r, _ := prepared(tool, ctx, fmt.Appendf(nil, `{"city":"Other","passengers":1,"tags":["x%d","y"]}`, i), nil); r.IsError {
			t.Fatalf("later call %d: %s", i, r.Output)
		}
	}
	for j := range n {
		i := n - 1 - j // finished in reverse order
		in := kept[j]
		if in.City != fmt.Sprintf("City%c", 'a'+i) || in.Passengers != i%9+1 || len(in.Tags) != 1 || in.Tags[0] != fmt.Sprintf("t%d", i) {
			t.Errorf("kept input %d = %+v: changed after later calls", j, in)
		}
	}
}
