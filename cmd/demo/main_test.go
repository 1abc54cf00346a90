package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestDemoRuns(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, ""); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	got := out.String()
	if n := strings.Count(got, "── final answer ──\n"+finalText); n != 5 {
		t.Errorf("the final answer appears %d times, want 5 (every provider but MCP)", n)
	}
	if n := strings.Count(got, "results of 2 calls"); n != 6 {
		t.Errorf("%d providers ran the parallel turn, want 6", n)
	}
	if n := strings.Count(got, "results of 1 call"); n != 6 {
		t.Errorf("%d providers ran the second turn, want 6", n)
	}
	for _, bad := range []string{`"isError": true`, `"is_error": true`, `"status": "error"`, `"error": "`, `"error: `} {
		if strings.Contains(got, bad) {
			t.Errorf("the demo output holds an error result (%s)", bad)
		}
	}
}

func TestDemoUnknownProvider(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, "cohere"); err == nil {
		t.Errorf("run(cohere) succeeded, want an error")
	}
}
