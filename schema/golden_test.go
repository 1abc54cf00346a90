package schema_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/golden"
	"github.com/toolnexus/toolnexus/internal/zoo"
	"github.com/toolnexus/toolnexus/schema"
)

// TestGolden renders every zoo case and compares it with
// testdata/golden/schema/<case>.json; run with TOOLNEXUS_UPDATE_GOLDEN=1 to
// rewrite them.
// Each case is rendered twice (two ForType calls) to check stability, and
// parsed back to check that Parse inverts MarshalJSON.
func TestGolden(t *testing.T) {
	for _, c := range zoo.Cases {
		t.Run(c.Name, func(t *testing.T) {
			s1, err := schema.ForType(c.Type)
			if err != nil {
				t.Fatalf("ForType(%v) error: %v", c.Type, err)
			}
			s2, err := schema.ForType(c.Type)
			if err != nil {
				t.Fatalf("second ForType(%v) error: %v", c.Type, err)
			}
			b1, err := json.Marshal(s1)
			if err != nil {
				t.Fatal(err)
			}
			b2, _ := json.Marshal(s2)
			if string(b1) != string(b2) {
				t.Errorf("ForType(%v) is not stable:\n%s\n%s", c.Type, b1, b2)
			}
			golden.JSON(t, filepath.Join("..", "testdata", "golden", "schema", c.Name+".json"), s1)

			if !s1.HasType("object") {
				t.Errorf("ForType(%v) root type = %v, want object", c.Type, s1.Types)
			}
			data, _ := s1.MarshalJSON()
			back, err := schema.Parse(data)
			if err != nil {
				t.Fatalf("Parse(MarshalJSON(ForType(%v))) error: %v", c.Type, err)
			}
			if diff := cmp.Diff(s1, back); diff != "" {
				t.Errorf("Parse(MarshalJSON(s)) differs from s (-want +got):\n%s", diff)
			}
		})
	}
}

// TestForTypeFreshCopies checks that callers own what ForType returns.
func TestForTypeFreshCopies(t *testing.T) {
	s1, err := schema.For[zoo.Constraints]()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(s1)
	s1.Properties[0].Schema.Description = "changed"
	s1.Required = append(s1.Required[:0], "x")
	s1.Properties[2].Schema.Enum = nil
	s2, _ := schema.For[zoo.Constraints]()
	got, _ := json.Marshal(s2)
	if string(got) != string(want) {
		t.Errorf("changing a returned schema changed the cache:\ngot  %s\nwant %s", got, want)
	}
}
