package reflectx

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/internal/benchdata"
)

// TestLookup checks the field lookup table against byName, for a struct
// using the table and for ones whose names collide into the fallback.
func TestLookup(t *testing.T) {
	check := func(sp *structPlan) {
		t.Helper()
		type found struct {
			Index int
			OK    bool
		}
		for name, want := range sp.byName {
			got, ok := sp.lookup(name)
			if diff := cmp.Diff(found{want, true}, found{got, ok}); diff != "" {
				t.Errorf("lookup(%q) (-want +got):\n%s", name, diff)
			}
			for _, k := range []string{name + "x", name[:len(name)-1], "X" + name[1:], ""} {
				if _, known := sp.byName[k]; known {
					continue
				}
				if got, ok := sp.lookup(k); ok {
					t.Errorf("lookup(%q) = %d, true; want no field", k, got)
				}
			}
		}
	}
	args := mustPlan(t, reflect.TypeFor[benchdata.Args]()).root.st
	if args.table == nil {
		t.Error("benchdata.Args does not use the lookup table")
	}
	check(args)
	check(mustPlan(t, reflect.TypeFor[benchdata.Filters]()).root.st)
	for _, n := range []int{1, 20, 300} {
		var fs []reflect.StructField
		for i := 0; i < n; i++ {
			// Same length, first, middle and last byte: all collide.
			fs = append(fs, reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: reflect.TypeFor[int](), Tag: reflect.StructTag(fmt.Sprintf(`json:"a%03d%03da,omitempty"`, i, 999-i))})
		}
		sp := mustPlan(t, reflect.StructOf(fs)).root.st
		if n > maxProbe && sp.table != nil {
			t.Errorf("%d colliding names: table used", n)
		}
		check(sp)
	}
}
