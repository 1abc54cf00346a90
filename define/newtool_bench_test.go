package define_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/benchdata"
)

// BenchmarkSchemaTool compares one call of the nine-field flight search
// (internal/benchdata) through the typed tool (DefineTool: decode and
// validate into benchdata.Args) and through a NewTool tool made from the
// schema the typed tool renders (validate the arguments against it, hand
// them on as text). Both handlers do no work: the ratio is the cost of
// validating from a schema against decoding from a type. unvalidated is
// the NewTool tool made WithoutValidation (the one-object check, and for
// a map the JSON the handler gets), what validation adds to.
func BenchmarkSchemaTool(b *testing.B) {
	ctx := context.Background()
	typed := define.MustDefineTool(searchFlights)
	ok := func(context.Context, json.RawMessage) (any, error) { return "ok", nil }
	raw, err := define.NewTool("search_flights", typed.InputSchema(), ok)
	if err != nil {
		b.Fatal(err)
	}
	unvalidated, err := define.NewTool("search_flights", typed.InputSchema(), ok, define.WithoutValidation())
	if err != nil {
		b.Fatal(err)
	}
	text, m := benchdata.SampleJSON, benchdata.SampleMap()
	for _, tool := range []define.Tool{typed, raw, unvalidated} {
		if res := tool.ExecuteJSON(ctx, text); res.IsError {
			b.Fatalf("ExecuteJSON(sample) = %s", res.Output)
		}
		if res := tool.Execute(ctx, m); res.IsError {
			b.Fatalf("Execute(sample) = %s", res.Output)
		}
	}
	for _, c := range []struct {
		name string
		tool define.Tool
	}{{"typed", typed}, {"schema", raw}, {"unvalidated", unvalidated}} {
		b.Run("json/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if res := c.tool.ExecuteJSON(ctx, text); res.IsError {
					b.Fatal(res.Output)
				}
			}
		})
	}
	for _, c := range []struct {
		name string
		tool define.Tool
	}{{"typed", typed}, {"schema", raw}, {"unvalidated", unvalidated}} {
		b.Run("map/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := c.tool.Execute(ctx, m); res.IsError {
					b.Fatal(res.Output)
				}
			}
		})
	}
}
