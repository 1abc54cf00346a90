package define_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/benchdata"
)

// searchFlights is the benchmarks' handler: it does no work of its own, so
// the benchmarks measure the call path.
func searchFlights(_ context.Context, in benchdata.Args) (string, error) {
	return "ok", nil
}

// BenchmarkExecute compares one call from a provider's arguments to the
// handler's result, on the realistic input of internal/benchdata:
//
//   - map/*: arguments already parsed into a map (Gemini, Anthropic);
//     hand-written is the floor (type assertions and the same validation),
//     roundtrip is json.Marshal of the map then json.Unmarshal into the
//     struct, without validation.
//   - json/*: arguments as JSON text (OpenAI); encoding-json is
//     json.Unmarshal into the struct, without validation.
func BenchmarkExecute(b *testing.B) {
	ctx := context.Background()
	tool := define.MustDefineTool(searchFlights)
	m := benchdata.SampleMap()
	text := benchdata.SampleJSON
	if res := tool.Execute(ctx, m); res.IsError {
		b.Fatalf("Execute(sample) = %s", res.Output)
	}
	if res := tool.ExecuteJSON(ctx, text); res.IsError {
		b.Fatalf("ExecuteJSON(sample) = %s", res.Output)
	}

	b.Run("map/toolnexus", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if res := tool.Execute(ctx, m); res.IsError {
				b.Fatal(res.Output)
			}
		}
	})
	b.Run("map/hand-written", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			in, err := benchdata.DecodeByHand(m)
			if err != nil {
				b.Fatal(err)
			}
			if out, err := searchFlights(ctx, in); err != nil || out == "" {
				b.Fatal(err)
			}
		}
	})
	b.Run("map/roundtrip", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			data, err := json.Marshal(m)
			if err != nil {
				b.Fatal(err)
			}
			var in benchdata.Args
			if err := json.Unmarshal(data, &in); err != nil {
				b.Fatal(err)
			}
			if out, err := searchFlights(ctx, in); err != nil || out == "" {
				b.Fatal(err)
			}
		}
	})
	b.Run("json/toolnexus", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if res := tool.ExecuteJSON(ctx, text); res.IsError {
				b.Fatal(res.Output)
			}
		}
	})
	b.Run("json/encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			var in benchdata.Args
			if err := json.Unmarshal(text, &in); err != nil {
				b.Fatal(err)
			}
			if out, err := searchFlights(ctx, in); err != nil || out == "" {
				b.Fatal(err)
			}
		}
	})
}
