package schema_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/internal/fields"
	"github.com/toolnexus/toolnexus/internal/reflectx"
	"github.com/toolnexus/toolnexus/internal/zoo"
	"github.com/toolnexus/toolnexus/schema"
)

// Types whose only define-time problem is one the decode plan finds.
type (
	emptyEnum     string
	emptyEnumElem struct {
		Vs []emptyEnum `json:"vs"`
	}
	structDefault struct {
		P struct {
			N int `json:"n" minimum:"5"`
		} `json:"p" default:"{\"n\":1}"`
	}
	mapExample struct {
		M map[string]int8 `json:"m" example:"{\"a\":300}"`
	}
	ownDecoding struct{ N int }
	plainNested struct {
		Items []struct {
			At   *json.RawMessage `json:"at"`
			Tags map[string][]string
		} `json:"items" maxItems:"3"`
	}
)

func (emptyEnum) Enum() []any { return []any{} }

func (o *ownDecoding) UnmarshalJSON([]byte) error { return nil }

// TestDeferrablePlanCannotFail checks the promise that lets a definition
// leave the decode plan to the first call: for a deferrable type that
// ForType accepts, PlanFor succeeds; and the types whose problems only the
// plan finds are not deferrable, so that their definition still fails.
func TestDeferrablePlanCannotFail(t *testing.T) {
	types := []reflect.Type{
		reflect.TypeFor[emptyEnumElem](), reflect.TypeFor[structDefault](), reflect.TypeFor[mapExample](),
		reflect.TypeFor[ownDecoding](), reflect.TypeFor[plainNested](),
		reflect.TypeFor[argsChan](), reflect.TypeFor[argsSliceFn](), reflect.TypeFor[argsSelfPointer](),
		reflect.TypeFor[argsRing](), reflect.TypeFor[tagDefaultNestedBad](), reflect.TypeFor[tagExampleNestedBad](),
		reflect.TypeFor[tagPatternBad](), reflect.TypeFor[tagMinMax](),
	}
	for _, c := range zoo.Cases {
		types = append(types, c.Type)
	}
	for _, typ := range types {
		base := fields.Deref(typ)
		if !reflectx.Deferrable(base) {
			continue
		}
		if _, err := schema.ForType(typ); err != nil {
			continue
		}
		if _, err := reflectx.PlanFor(base); err != nil {
			t.Errorf("%v is deferrable and ForType accepts it, but PlanFor fails: %v", typ, err)
		}
	}

	for _, typ := range []reflect.Type{
		reflect.TypeFor[emptyEnumElem](), reflect.TypeFor[structDefault](), reflect.TypeFor[mapExample](),
		reflect.TypeFor[ownDecoding](),
	} {
		got := reflectx.Deferrable(typ)
		if diff := cmp.Diff(false, got); diff != "" {
			t.Errorf("Deferrable(%v) (-want +got):\n%s", typ, diff)
		}
		if _, err := schema.ForType(typ); err == nil && typ != reflect.TypeFor[ownDecoding]() {
			t.Errorf("ForType(%v) succeeded; want the plan's error", typ)
		}
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[plainNested](), reflect.TypeFor[zoo.Scalars]()} {
		if diff := cmp.Diff(true, reflectx.Deferrable(typ)); diff != "" {
			t.Errorf("Deferrable(%v) (-want +got):\n%s", typ, diff)
		}
	}
}
