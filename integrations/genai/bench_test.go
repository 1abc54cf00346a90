package tngenai_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/integrations/genai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
	"google.golang.org/genai"
)

// benchResponse is a model turn with two function calls, as the SDK
// decodes it.
func benchResponse(b *testing.B) *genai.GenerateContentResponse {
	b.Helper()
	var resp genai.GenerateContentResponse
	if err := json.Unmarshal([]byte(`{"candidates":[{"content":{"role":"model","parts":[
		{"functionCall":{"id":"a","name":"get_weather","args":{"city":"Oslo","unit":"C"}}},
		{"functionCall":{"id":"b","name":"local_time","args":{"city":"Oslo"}}}]}}]}`), &resp); err != nil {
		b.Fatal(err)
	}
	return &resp
}

// BenchmarkRun: one model turn answered by Run, against the glue the
// integration replaces (the baseline): each call's args marshalled to JSON
// for Toolkit.Run, the results rendered by GeminiResults and moved into a
// genai.Content through json.Marshal and json.Unmarshal.
func BenchmarkRun(b *testing.B) {
	ctx := context.Background()
	tk := sdktest.Toolkit()
	resp := benchResponse(b)
	b.Run("glue", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var calls []adapters.Call
			for _, fc := range resp.FunctionCalls() {
				args, err := json.Marshal(fc.Args)
				if err != nil {
					b.Fatal(err)
				}
				calls = append(calls, adapters.Call{ID: fc.ID, Name: fc.Name, Args: args})
			}
			rendered, err := adapters.GeminiResults(calls, tk.Run(ctx, calls))
			if err != nil {
				b.Fatal(err)
			}
			data, err := json.Marshal(rendered)
			if err != nil {
				b.Fatal(err)
			}
			var content genai.Content
			if err := json.Unmarshal(data, &content); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Run", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := tngenai.Run(ctx, tk, resp); err != nil {
				b.Fatal(err)
			}
		}
	})
}
