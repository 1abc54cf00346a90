package fields

import (
	"reflect"
	"sync"
	"sync/atomic"
)

// facts is what this package works out about one Go type, each part on
// its first use and then kept: the described fields ([Describe]), the
// fields as encoding/json selects them ([Walk]), the refused swaggest
// interfaces ([CheckHooks]), the schema the type declares through
// swaggest's ([TypeRules]) and whether any type it reaches speaks to
// swaggest's reflector ([ReachesSwaggestHooks]). One entry per type holds them all, the facts
// every build (the schema tree, the decode plan, the output encoder)
// reads for every type it meets; internal/typeinfo keeps, per tool
// type, what is built from them.
//
// A part is computed outside any lock and published with a
// compare-and-swap, so that a computation that meets its own type again
// (a recursive type) does not wait for itself; concurrent first uses may
// compute a part twice, and the first one published is what everyone
// gets.
type facts struct {
	described atomic.Pointer[described]
	walked    atomic.Pointer[[]Field]
	hooks     atomic.Pointer[hookAnswer]
	declared  atomic.Pointer[typeRules]
	// reach is ReachesSwaggestHooks' answer (reachYes, reachNo), once a
	// complete one is known.
	reach atomic.Int32
}

// types maps reflect.Type to its *facts. A program has finitely many
// types, so the map is bounded by the program itself.
var types sync.Map

// factsOf returns the facts entry of t, made empty on first use.
func factsOf(t reflect.Type) *facts {
	if f, ok := types.Load(t); ok {
		return f.(*facts)
	}
	f, _ := types.LoadOrStore(t, new(facts))
	return f.(*facts)
}
