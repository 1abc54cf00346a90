package fields

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/internal/benchdata"
	"github.com/toolnexus/toolnexus/internal/zoo"
)

// ReachesSwaggestHooks decides whether swaggest's reflector runs at all; a
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
			if got := ReachesSwaggestHooks(tc.t); got != tc.want {
				t.Errorf("ReachesSwaggestHooks(%v) = %v, want %v", tc.t, got, tc.want)
			}
		})
	}
}

// hookCycleC reaches a hook directly and through hookCycleD, which reaches
// it only through hookCycleC.
type hookCycleC struct {
	D *hookCycleD
	E zoo.EnumMethod
}

type hookCycleD struct{ C *hookCycleC }

type plainCycleA struct{ B *plainCycleB }

type plainCycleB struct {
	A    *plainCycleA
	When []map[string]*plainCycleA
}

// The answers ReachesSwaggestHooks remembers must not depend on the order of
// the questions: a type first met while its cycle is still being walked
// is not remembered as having no hook.
func TestUsesSwaggestHooksOrder(t *testing.T) {
	for _, order := range [][]reflect.Type{
		{reflect.TypeFor[hookCycleC](), reflect.TypeFor[hookCycleD]()},
		{reflect.TypeFor[hookCycleD](), reflect.TypeFor[hookCycleC]()},
	} {
		clearReach()
		for _, typ := range order {
			if !ReachesSwaggestHooks(typ) {
				t.Errorf("ReachesSwaggestHooks(%v) = false after %v, want true", typ, order)
			}
		}
	}
	clearReach()
	for _, typ := range []reflect.Type{reflect.TypeFor[plainCycleB](), reflect.TypeFor[plainCycleA](), reflect.TypeFor[*plainCycleB]()} {
		if ReachesSwaggestHooks(typ) {
			t.Errorf("ReachesSwaggestHooks(%v) = true, want false", typ)
		}
	}
	// A remembered answer is used: the hook is found again through it.
	if !ReachesSwaggestHooks(reflect.TypeFor[[]hookCycleD]()) {
		t.Errorf("ReachesSwaggestHooks([]hookCycleD) = false, want true")
	}
}

// A walk that meets more new types than its slice holds goes on with a
// map, and still finds a hook behind them, or none.
func TestUsesSwaggestHooksMany(t *testing.T) {
	var fs []reflect.StructField
	for i := range 40 {
		// Distinct types never asked before: arrays of a fresh length,
		// some met twice.
		typ := reflect.ArrayOf(1000+i%30, reflect.TypeFor[[]*int16]())
		fs = append(fs, reflect.StructField{Name: "F" + string(rune('A'+i%26)) + string(rune('a'+i/26)), Type: typ})
	}
	plain := reflect.StructOf(fs)
	hooked := reflect.StructOf(append(fs, reflect.StructField{Name: "E", Type: reflect.TypeFor[zoo.EnumMethod]()}))
	got := [2]bool{ReachesSwaggestHooks(hooked), ReachesSwaggestHooks(plain)}
	if diff := cmp.Diff([2]bool{true, false}, got); diff != "" {
		t.Errorf("ReachesSwaggestHooks of hooked, plain (-want +got):\n%s", diff)
	}
}

// clearReach forgets every answer of ReachesSwaggestHooks.
func clearReach() {
	types.Range(func(_, f any) bool {
		f.(*facts).reach.Store(reachUnknown)
		return true
	})
}
