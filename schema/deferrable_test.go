package schema_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/internal/fields"
	"github.com/toolnexus/toolnexus/internal/reflectx"
	"github.com/toolnexus/toolnexus/internal/typeinfo"
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

// deferCorpus is every type the schema tests reject, the zoo, and the
// types above.
func deferCorpus() []reflect.Type {
	types := []reflect.Type{
		reflect.TypeFor[emptyEnumElem](), reflect.TypeFor[structDefault](), reflect.TypeFor[mapExample](),
		reflect.TypeFor[ownDecoding](), reflect.TypeFor[plainNested](),
		reflect.TypeFor[struct{ V hookOneOf }](), reflect.TypeFor[struct{ V []hookAnyOf }](),
		reflect.TypeFor[struct{ V prepNot }](), reflect.TypeFor[struct{ V exposeWrong }](),
		reflect.TypeFor[struct{ V *exposePanics }](), reflect.TypeFor[struct{ V rawBroken }](),
		reflect.TypeFor[struct{ M map[hookKey]int }](), reflect.TypeFor[struct{ V []chan int }](),
		reflect.TypeFor[struct{ hidden hookCat }](),
		reflect.TypeFor[argsChan](), reflect.TypeFor[argsComplex](), reflect.TypeFor[argsDeep](), reflect.TypeFor[argsFunc](), reflect.TypeFor[argsIface](), reflect.TypeFor[argsMapChan](), reflect.TypeFor[argsMapKey2](), reflect.TypeFor[argsMapKey](), reflect.TypeFor[argsPtrFn](), reflect.TypeFor[argsRing](), reflect.TypeFor[argsSelfPointerMap](), reflect.TypeFor[argsSelfPointer](), reflect.TypeFor[argsSliceFn](), reflect.TypeFor[argsUintptr](), reflect.TypeFor[argsUnsafe](), reflect.TypeFor[argsWrongEnum](), reflect.TypeFor[embedUnexpPtr](), reflect.TypeFor[enumOnStruct](), reflect.TypeFor[tagArrayLen](), reflect.TypeFor[tagBoolConst](), reflect.TypeFor[tagConstRange](), reflect.TypeFor[tagDefaultEmailSpace](), reflect.TypeFor[tagDefaultEnum](), reflect.TypeFor[tagDefaultFormat](), reflect.TypeFor[tagDefaultIntKey](), reflect.TypeFor[tagDefaultInt](), reflect.TypeFor[tagDefaultJSON](), reflect.TypeFor[tagDefaultLen](), reflect.TypeFor[tagDefaultMin](), reflect.TypeFor[tagDefaultNestedBad](), reflect.TypeFor[tagDefaultStruct](), reflect.TypeFor[tagDefaultTimeBad](), reflect.TypeFor[tagDefaultUint8Key](), reflect.TypeFor[tagDefaultUnique](), reflect.TypeFor[tagDeprecatedBad](), reflect.TypeFor[tagEnumEmpty](), reflect.TypeFor[tagEnumFraction](), reflect.TypeFor[tagEnumIntBad](), reflect.TypeFor[tagEnumJSONBad](), reflect.TypeFor[tagEnumSlice](), reflect.TypeFor[tagEnumVsConst](), reflect.TypeFor[tagExampleBad](), reflect.TypeFor[tagExampleNestedBad](), reflect.TypeFor[tagExamplesBad](), reflect.TypeFor[tagExamplesWrongType](), reflect.TypeFor[tagExclusiveEqual](), reflect.TypeFor[tagFormatInt](), reflect.TypeFor[tagFormatOnTime](), reflect.TypeFor[tagFormatUnknown](), reflect.TypeFor[tagHugeExponent](), reflect.TypeFor[tagItems](), reflect.TypeFor[tagLengthOnJSONU](), reflect.TypeFor[tagLengths](), reflect.TypeFor[tagMinItemsString](), reflect.TypeFor[tagMinLengthInt](), reflect.TypeFor[tagMinLengthNeg](), reflect.TypeFor[tagMinMax](), reflect.TypeFor[tagMinPropsStruct](), reflect.TypeFor[tagMinimumBad](), reflect.TypeFor[tagMinimumHex](), reflect.TypeFor[tagMinimumString](), reflect.TypeFor[tagMultipleZero](), reflect.TypeFor[tagNested](), reflect.TypeFor[tagNoIntegerLeft](), reflect.TypeFor[tagNullable](), reflect.TypeFor[tagPatternBad](), reflect.TypeFor[tagPatternTime](), reflect.TypeFor[tagRequiredBad](), reflect.TypeFor[tagRequiredDefaultPtr](), reflect.TypeFor[tagRequiredDefault](), reflect.TypeFor[tagStringOpt](), reflect.TypeFor[tagUint8Over](), reflect.TypeFor[tagUniqueBad](),
	}
	for _, c := range zoo.Cases {
		types = append(types, c.Type)
	}
	return types
}

// hookKey is a map key type with a method.
type hookKey string

func (hookKey) Description() string { return "a key" }

// TestDeferrablePlanCannotFail checks the promise that lets a definition
// leave the schema tree and the decode plan to their first use: for a
// deferrable type, ForType and PlanFor succeed; and the types whose
// problems only the plan finds are not deferrable, so that their
// definition (typeinfo.Input) still fails.
func TestDeferrablePlanCannotFail(t *testing.T) {
	for _, typ := range deferCorpus() {
		if !typeinfo.Deferrable(typ) {
			continue
		}
		if _, err := schema.ForType(typ); err != nil {
			t.Errorf("%v is deferrable, but ForType fails: %v", typ, err)
		}
		if _, err := reflectx.PlanFor(fields.Deref(typ)); err != nil {
			t.Errorf("%v is deferrable, but PlanFor fails: %v", typ, err)
		}
	}

	for _, typ := range []reflect.Type{
		reflect.TypeFor[emptyEnumElem](), reflect.TypeFor[structDefault](), reflect.TypeFor[mapExample](),
		reflect.TypeFor[ownDecoding](),
	} {
		got := typeinfo.Deferrable(typ)
		if diff := cmp.Diff(false, got); diff != "" {
			t.Errorf("Deferrable(%v) (-want +got):\n%s", typ, diff)
		}
		if _, err := typeinfo.Input(typ); err == nil {
			t.Errorf("typeinfo.Input(%v) succeeded; want the plan's error", typ)
		}
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[plainNested](), reflect.TypeFor[zoo.Scalars]()} {
		if diff := cmp.Diff(true, typeinfo.Deferrable(typ)); diff != "" {
			t.Errorf("Deferrable(%v) (-want +got):\n%s", typ, diff)
		}
	}
}
