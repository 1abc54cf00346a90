package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/internal/zoo"
	"github.com/toolnexus/toolnexus/schema"
)

// Node has the same name as zoo.Node: $defs keys get the package name.
type Node struct {
	Next *Node `json:"next"`
}

type Tree[T any] struct {
	Value T         `json:"value"`
	Kids  []Tree[T] `json:"kids,omitempty"`
}

type twoNodes struct {
	Mine   Node            `json:"mine"`
	Theirs zoo.Node        `json:"theirs"`
	Tree   Tree[zoo.Point] `json:"tree"`
}

func TestDefNames(t *testing.T) {
	s, err := schema.For[twoNodes]()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range s.Defs {
		names = append(names, d.Name)
	}
	want := []string{"Tree_zoo.Point", "schema_test.Node", "zoo.Node"}
	if got, _ := json.Marshal(names); string(got) != mustJSON(want) {
		t.Errorf("$defs names = %s, want %s", got, mustJSON(want))
	}
	for _, p := range []struct{ prop, ref string }{
		{"mine", "#/$defs/schema_test.Node"},
		{"theirs", "#/$defs/zoo.Node"},
		{"tree", "#/$defs/Tree_zoo.Point"},
	} {
		if got := s.Property(p.prop).Ref; got != p.ref {
			t.Errorf("property %s $ref = %q, want %q", p.prop, got, p.ref)
		}
	}
}

// TestNonRecursiveInlined checks that only types in a cycle are under $defs.
func TestNonRecursiveInlined(t *testing.T) {
	for _, c := range []struct {
		name string
		s    func() (*schema.Schema, error)
		defs int
	}{
		{"shared struct", schema.For[zoo.SharedStruct], 0},
		{"search", schema.For[zoo.Search], 0},
		{"node", schema.For[zoo.Node], 1},
		{"mutual", schema.For[zoo.A], 2},
		{"self pointer", schema.For[Node], 1},
	} {
		s, err := c.s()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(s.Defs) != c.defs {
			data, _ := json.Marshal(s)
			t.Errorf("%s: %d $defs, want %d: %s", c.name, len(s.Defs), c.defs, data)
		}
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
