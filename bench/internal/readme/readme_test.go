package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseMedian(t *testing.T) {
	out := []byte(`goos: linux
cpu: Some CPU
BenchmarkExecute/map/eino_InferTool-2   	  21752	     10778 ns/op	    1559 B/op	      34 allocs/op
BenchmarkExecute/map/eino_InferTool-2   	  21752	     30000 ns/op	    1559 B/op	      34 allocs/op
BenchmarkExecute/map/eino_InferTool-2   	  21752	     20000 ns/op	    1559 B/op	      34 allocs/op
BenchmarkExecute/json/toolnexus-2       	  63192	      3920 ns/op	  67.34 MB/s	     400 B/op	      13 allocs/op
PASS
`)
	r := results{}
	if cpu := r.parse(out); cpu != "Some CPU" {
		t.Errorf("parse() cpu = %q, want %q", cpu, "Some CPU")
	}
	m, ok := r.median(benchName("Execute", "map", "eino InferTool"))
	if !ok || m.ns != 20000 || m.allocs != 34 || m.bytes != 1559 {
		t.Errorf("median(eino) = %+v, %v; want 20000 ns, 34 allocs, 1559 B", m, ok)
	}
	if m, ok := r.median("Execute/json/toolnexus"); !ok || m.ns != 3920 || m.allocs != 13 {
		t.Errorf("median(toolnexus) = %+v, %v; want 3920 ns, 13 allocs (MB/s skipped)", m, ok)
	}
}

func TestRewrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	before := "# T\n\nintro\n\n" + startMarker + "\nold\n" + endMarker + "\n\nafter\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	section := startMarker + "\nnew\n" + endMarker + "\n"
	if err := rewrite(path, section); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := "# T\n\nintro\n\n" + startMarker + "\nnew\n" + endMarker + "\n\nafter\n"
	if string(got) != want {
		t.Errorf("rewrite() = %q, want %q", got, want)
	}
	if err := os.WriteFile(path, []byte("no markers"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rewrite(path, section); err == nil || !strings.Contains(err.Error(), "markers") {
		t.Errorf("rewrite(no markers) = %v, want an error about the markers", err)
	}
}
