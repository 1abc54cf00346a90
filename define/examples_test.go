package define_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

type exampleIn struct {
	City string `json:"city" jsonschema:"minLength=2"`
	Days int    `json:"days,omitempty" jsonschema:"minimum=1,maximum=7"`
}

func exampleFn(context.Context, exampleIn) (string, error) { return "ok", nil }

func TestWithExamples(t *testing.T) {
	tool, err := define.DefineTool(exampleFn, define.WithName("forecast"),
		define.WithExamples(map[string]any{"city": "Paris"}, exampleIn{City: "Oslo", Days: 3}))
	if err != nil {
		t.Fatal(err)
	}
	var root struct {
		Examples []map[string]any `json:"examples"`
	}
	if err := json.Unmarshal(tool.InputSchema(), &root); err != nil {
		t.Fatal(err)
	}
	if len(root.Examples) != 2 || root.Examples[0]["city"] != "Paris" || root.Examples[1]["days"] != float64(3) {
		t.Errorf("root examples = %v (schema %s)", root.Examples, tool.InputSchema())
	}
	// Another tool of the same type keeps the shared schema, without them.
	plain := define.MustDefineTool(exampleFn, define.WithName("forecast2"))
	if strings.Contains(string(plain.InputSchema()), "examples") {
		t.Errorf("a tool without WithExamples got examples: %s", plain.InputSchema())
	}

	bad := []struct {
		name    string
		example any
		want    string
	}{
		{"fails a bound", map[string]any{"city": "Paris", "days": 9}, "examples[0] would be refused as arguments"},
		{"missing required", map[string]any{"days": 2}, "/city"},
		{"unknown field", map[string]any{"city": "Rome", "weeks": 1}, "weeks"},
		{"not an object", []string{"Paris"}, "arguments are a JSON object"},
		{"not JSON", func() {}, "not JSON"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			_, err := define.DefineTool(exampleFn, define.WithName("forecast"), define.WithExamples(c.example))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestNewToolExamples(t *testing.T) {
	h := func(context.Context, json.RawMessage) (any, error) { return "ok", nil }
	// A hand-written schema's own root examples are checked too.
	_, err := define.NewTool("t", json.RawMessage(`{"type":"object","examples":[{"a":1},"x"]}`), h)
	if !errors.Is(err, schema.ErrNotObject) || !strings.Contains(err.Error(), "examples[1]") {
		t.Errorf("NewTool with a string example: %v", err)
	}
	tool, err := define.NewTool("t", json.RawMessage(`{"type":"object","examples":[{"a":1}]}`), h, define.WithExamples(map[string]int{"b": 2}))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(tool.InputSchema()); !strings.Contains(s, `"examples":[{"b":2}]`) {
		t.Errorf("WithExamples did not replace the schema's examples: %s", s)
	}
}
