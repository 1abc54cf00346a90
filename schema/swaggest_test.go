package schema

import (
	"reflect"
	"testing"

	"github.com/toolnexus/toolnexus/internal/benchdata"
	"github.com/toolnexus/toolnexus/internal/zoo"
)

// usesSwaggestHooks decides whether swaggest's reflector runs at all; a
// false negative would silently drop a type's own title, description or enum.
func TestUsesSwaggestHooks(t *testing.T) {
	tests := []struct {
		name string
		t    reflect.Type
		want bool
	}{
		{"enum method on a field type", reflect.TypeFor[zoo.EnumMethod](), true},
		{"behind a pointer and a slice", reflect.TypeFor[struct{ X []*zoo.EnumMethod }](), true},
		{"as a map value", reflect.TypeFor[map[string]zoo.EnumMethod](), true},
		{"plain tags only", reflect.TypeFor[benchdata.Args](), false},
		{"recursive, no hooks", reflect.TypeFor[zoo.Node](), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := usesSwaggestHooks(tc.t); got != tc.want {
				t.Errorf("usesSwaggestHooks(%v) = %v, want %v", tc.t, got, tc.want)
			}
		})
	}
}
