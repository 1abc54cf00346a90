package define_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/define"
)

// TestValueJSON: a structured output carries its encoding, a handler's own
// Result carries the encoding of its Value beside its Output, and string
// outputs, errors and Results made by hand carry none.
func TestValueJSON(t *testing.T) {
	type out struct {
		N    int      `json:"n"`
		Tags []string `json:"tags"`
	}
	ctx := context.Background()
	structured := define.MustDefineTool(func(context.Context, struct{}) (out, error) { return out{N: 1}, nil }, define.WithName("s"))
	own := define.MustDefineTool(func(context.Context, struct{}) (define.Result, error) {
		return define.Result{Output: "one", Value: out{N: 1, Tags: []string{"a"}}}, nil
	}, define.WithName("own"))
	text := define.MustDefineTool(func(context.Context, struct{}) (string, error) { return "hi", nil }, define.WithName("text"))
	failing := define.MustDefineTool(func(context.Context, struct{}) (out, error) { return out{}, errNoSeats }, define.WithName("failing"))
	type got struct {
		Output, JSON string
		OK           bool
	}
	for _, tc := range []struct {
		name string
		res  define.Result
		want got
	}{
		{"structured", structured.Execute(ctx, nil), got{`{"n":1,"tags":[]}`, `{"n":1,"tags":[]}`, true}},
		{"own result", own.Execute(ctx, nil), got{"one", `{"n":1,"tags":["a"]}`, true}},
		{"string", text.Execute(ctx, nil), got{"hi", "", false}},
		{"error", failing.Execute(ctx, nil), got{errNoSeats.Error(), "", false}},
		{"by hand", define.Result{Output: "x", Value: 1}, got{"x", "", false}},
	} {
		data, ok := tc.res.ValueJSON()
		if diff := cmp.Diff(tc.want, got{tc.res.Output, data, ok}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}
