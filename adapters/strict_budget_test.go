package adapters

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

// toolOf makes a tool of a hand-built input schema.
func toolOf(t *testing.T, name string, in *schema.Schema) define.Tool {
	t.Helper()
	data, err := in.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	tool, err := define.NewTool(name, data, func(context.Context, json.RawMessage) (any, error) { return "ok", nil })
	if err != nil {
		t.Fatalf("NewTool(%q): %v", name, err)
	}
	return tool
}

// manyProps is an object of n required string properties named
// prefix0, prefix1, ...
func manyProps(n int, prefix string) *schema.Schema {
	props := make([]schema.Property, n)
	for i := range props {
		props[i] = prop(fmt.Sprintf("%s%d", prefix, i), str())
	}
	return obj(props...)
}

// nested is n objects nested in one another (the root is level 1).
func nested(n int) *schema.Schema {
	s := obj(prop("leaf", str()))
	for i := 1; i < n; i++ {
		s = obj(prop("next", s))
	}
	return s
}

func enumOf(n, width int) *schema.Schema {
	vals := make([]any, n)
	for i := range vals {
		v := fmt.Sprintf("%0*d", width, i)
		vals[i] = v
	}
	return &schema.Schema{Types: []string{"string"}, Enum: vals}
}

// TestOpenAIBudgets: each documented Structured Outputs limit is checked
// at its edge: the limit itself renders, one more is an ErrLimit naming
// the limit under Strict(true), and StrictWherePossible() sends the tool
// non-strict instead.
func TestOpenAIBudgets(t *testing.T) {
	tests := []struct {
		name     string
		ok, over *schema.Schema
		limit    string // the number the error names
	}{
		{"properties", manyProps(5000, "p"), manyProps(5001, "p"), "5000"},
		{"nesting", nested(10), nested(11), "at most 10"},
		{"enum values", obj(prop("a", enumOf(500, 3)), prop("b", enumOf(500, 4))),
			obj(prop("a", enumOf(500, 3)), prop("b", enumOf(501, 4))), "1000"},
		{"large enum text", obj(prop("e", enumOf(300, 50))), obj(prop("e", enumOf(300, 51))), "15000"},
		{"schema text", manyProps(1200, strings.Repeat("n", 96)), manyProps(1300, strings.Repeat("n", 96)), "120000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, p := range []*spec{openAISpec, responsesSpec} {
				if _, err := buildAny(p, toolData{name: "t", in: tt.ok}, Strict(true)); err != nil {
					t.Errorf("%s: at the limit: %v", p.funcName, err)
				}
				_, err := buildAny(p, toolData{name: "t", in: tt.over}, Strict(true))
				if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), tt.limit) || !strings.Contains(err.Error(), `tool "t"`) {
					t.Errorf("%s: over the limit: err = %v, want ErrLimit naming the tool and %s", p.funcName, err, tt.limit)
				}
				got, err := buildAny(p, toolData{name: "t", in: tt.over}, StrictWherePossible())
				if err != nil {
					t.Fatalf("%s: StrictWherePossible(): %v", p.funcName, err)
				}
				if strict := got.(interface{ isStrict() bool }).isStrict(); strict {
					t.Errorf("%s: StrictWherePossible() over the limit sent the tool strict", p.funcName)
				}
			}
		})
	}
}

func (t OpenAITool) isStrict() bool          { return t.Function.Strict }
func (t OpenAIResponsesTool) isStrict() bool { return t.Strict }

// TestAnthropicBudgets: the per-request budgets of strict tool use count
// across the strict tools of one call.
func TestAnthropicBudgets(t *testing.T) {
	optional := func(n int) *schema.Schema { // n optional string properties
		s := manyProps(n, "o")
		s.Required = nil
		return s
	}
	unions := func(n int) *schema.Schema { // n required string-or-integer properties
		props := make([]schema.Property, n)
		for i := range props {
			props[i] = prop(fmt.Sprintf("u%d", i), &schema.Schema{Types: []string{"string", "integer"}})
		}
		return obj(props...)
	}
	list := func(n int, in func(i int) *schema.Schema) []define.Tool {
		ts := make([]define.Tool, n)
		for i := range ts {
			ts[i] = toolOf(t, fmt.Sprintf("tool%d", i), in(i))
		}
		return ts
	}
	tests := []struct {
		name  string
		tools []define.Tool
		limit string
		over  string // the tool that goes over
		loose int    // tools StrictWherePossible sends non-strict
	}{
		{"strict tools", list(21, func(int) *schema.Schema { return obj(prop("q", str())) }), "at most 20", "tool20", 1},
		{"optional parameters", list(3, func(int) *schema.Schema { return optional(10) }), "at most 24", "tool2", 1},
		{"union parameters", list(3, func(int) *schema.Schema { return unions(6) }), "at most 16", "tool2", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ToAnthropic(tt.tools[:len(tt.tools)-1], Strict(true)); err != nil {
				t.Errorf("within the budget: %v", err)
			}
			_, err := ToAnthropic(tt.tools, Strict(true))
			var e *Error
			if !errors.Is(err, ErrLimit) || !errors.As(err, &e) || e.Tool != tt.over || !strings.Contains(err.Error(), tt.limit) {
				t.Errorf("over the budget: err = %v, want ErrLimit for %s naming %q", err, tt.over, tt.limit)
			}
			got, err := ToAnthropic(tt.tools, StrictWherePossible())
			if err != nil {
				t.Fatalf("StrictWherePossible(): %v", err)
			}
			loose := 0
			for _, x := range got {
				if !x.Strict {
					loose++
				}
			}
			if loose != tt.loose || got[len(got)-1].Strict {
				t.Errorf("StrictWherePossible(): %d tools non-strict (last strict: %v), want %d, the last", loose, got[len(got)-1].Strict, tt.loose)
			}
			// Non-strict rendering has no budget.
			if _, err := ToAnthropic(tt.tools); err != nil {
				t.Errorf("non-strict: %v", err)
			}
		})
	}
}

// TestAllProblems: one render error reports every problem of the call,
// every tool and every schema path, up to MaxErrors, and errors.Is/As see
// each.
func TestAllProblems(t *testing.T) {
	open := &schema.Schema{Types: []string{"object"}, AdditionalProperties: str()}
	bad := func(names ...string) *schema.Schema {
		var ps []schema.Property
		for _, n := range names {
			ps = append(ps, prop(n, open))
		}
		return obj(append(ps, prop("ok", str()))...)
	}
	tools := []define.Tool{toolOf(t, "a", bad("m1", "m2")), toolOf(t, "b", bad("m3")), toolOf(t, "a", obj(prop("x", str())))}
	_, err := ToOpenAI(tools, Strict(true))
	var all *Errors
	if !errors.As(err, &all) {
		t.Fatalf("err = %v (%T), want *Errors", err, err)
	}
	type problem struct{ Tool, Path string }
	var got []problem
	for _, e := range all.Errs {
		got = append(got, problem{e.Tool, e.Path})
	}
	want := []problem{{"a", "/properties/m1"}, {"a", "/properties/m2"}, {"b", "/properties/m3"}, {"a", ""}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if !errors.Is(err, ErrUnsupported) || !errors.Is(err, ErrName) {
		t.Errorf("errors.Is misses a sentinel in %v", err)
	}

	// Gemini "parameters": every bad property of every tool.
	gtools := []define.Tool{toolOf(t, "g1", bad("m1", "m2")), toolOf(t, "g2", bad("m3"))}
	_, err = ToGemini(gtools, GeminiParameters())
	if !errors.As(err, &all) || len(all.Errs) != 3 {
		t.Errorf("GeminiParameters(): err = %v, want 3 problems", err)
	}

	// The cap.
	names := make([]string, MaxErrors+5)
	for i := range names {
		names[i] = fmt.Sprintf("m%d", i)
	}
	_, err = ToOpenAI([]define.Tool{toolOf(t, "many", bad(names...))}, Strict(true))
	if !errors.As(err, &all) || len(all.Errs) != MaxErrors || all.Omitted != 5 || !strings.HasSuffix(err.Error(), "; and 5 more") {
		t.Errorf("over the cap: %d problems, %d omitted, text %q; want %d, 5, \"; and 5 more\"", len(all.Errs), all.Omitted, err, MaxErrors)
	}
}
