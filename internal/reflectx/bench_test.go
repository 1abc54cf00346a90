package reflectx

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/benchdata"
)

var sinkArgs benchdata.Args

func mustPlan(tb testing.TB, t reflect.Type) *Plan {
	tb.Helper()
	p, err := PlanFor(t)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// BenchmarkDecodeMap decodes the sample map with the plan.
func BenchmarkDecodeMap(b *testing.B) {
	p := mustPlan(b, reflect.TypeFor[benchdata.Args]())
	m := benchdata.SampleMap()
	var a benchdata.Args // escapes once: the decoder fills it in place
	b.ReportAllocs()
	for b.Loop() {
		a = benchdata.Args{}
		if err := p.DecodeMap(unsafe.Pointer(&a), m); err != nil {
			b.Fatal(err)
		}
		sinkArgs = a
	}
}

// BenchmarkDecodeMapByHand is the floor: type assertions and the same
// validation, written by hand.
func BenchmarkDecodeMapByHand(b *testing.B) {
	m := benchdata.SampleMap()
	b.ReportAllocs()
	for b.Loop() {
		a, err := benchdata.DecodeByHand(m)
		if err != nil {
			b.Fatal(err)
		}
		sinkArgs = a
	}
}

// BenchmarkDecodeMapRoundTrip is what a generic decoder without a plan
// does: json.Marshal the map, then json.Unmarshal into the struct (and it
// validates nothing).
func BenchmarkDecodeMapRoundTrip(b *testing.B) {
	m := benchdata.SampleMap()
	b.ReportAllocs()
	for b.Loop() {
		data, err := json.Marshal(m)
		if err != nil {
			b.Fatal(err)
		}
		var a benchdata.Args
		if err := json.Unmarshal(data, &a); err != nil {
			b.Fatal(err)
		}
		sinkArgs = a
	}
}

// BenchmarkDecodeJSON decodes the sample JSON text with the plan.
func BenchmarkDecodeJSON(b *testing.B) {
	p := mustPlan(b, reflect.TypeFor[benchdata.Args]())
	b.SetBytes(int64(len(benchdata.SampleJSON)))
	var a benchdata.Args
	b.ReportAllocs()
	for b.Loop() {
		a = benchdata.Args{}
		if err := p.DecodeJSON(unsafe.Pointer(&a), benchdata.SampleJSON); err != nil {
			b.Fatal(err)
		}
		sinkArgs = a
	}
}

// BenchmarkDecodeJSONNew decodes the sample JSON text into a frame of its
// own per call, as define's ExecuteJSON does.
func BenchmarkDecodeJSONNew(b *testing.B) {
	p := mustPlan(b, reflect.TypeFor[benchdata.Args]())
	b.SetBytes(int64(len(benchdata.SampleJSON)))
	b.ReportAllocs()
	for b.Loop() {
		v, err := p.DecodeJSONNew(benchdata.SampleJSON, Limits{})
		if err != nil {
			b.Fatal(err)
		}
		sinkArgs = *(*benchdata.Args)(v)
	}
}

// BenchmarkDecodeJSONReversed decodes the sample with its keys in the
// reverse of the struct's order, so that no key is the field expected next
// and every one takes the scan and table lookup.
func BenchmarkDecodeJSONReversed(b *testing.B) {
	p := mustPlan(b, reflect.TypeFor[benchdata.Args]())
	var m map[string]json.RawMessage
	if err := json.Unmarshal(benchdata.SampleJSON, &m); err != nil {
		b.Fatal(err)
	}
	names := []string{"note", "tags", "filters", "max_price", "cabin", "passengers", "date", "destination", "origin"}
	text := []byte("{")
	for i, k := range names {
		if i > 0 {
			text = append(text, ',')
		}
		text = append(append(strconv.AppendQuote(text, k), ':'), m[k]...)
	}
	text = append(text, '}')
	b.SetBytes(int64(len(text)))
	var a benchdata.Args
	b.ReportAllocs()
	for b.Loop() {
		a = benchdata.Args{}
		if err := p.DecodeJSON(unsafe.Pointer(&a), text); err != nil {
			b.Fatal(err)
		}
		sinkArgs = a
	}
}

// BenchmarkDecodeJSONStdlib is encoding/json.Unmarshal into the struct
// (without validation).
func BenchmarkDecodeJSONStdlib(b *testing.B) {
	b.SetBytes(int64(len(benchdata.SampleJSON)))
	var a benchdata.Args
	b.ReportAllocs()
	for b.Loop() {
		a = benchdata.Args{}
		if err := json.Unmarshal(benchdata.SampleJSON, &a); err != nil {
			b.Fatal(err)
		}
		sinkArgs = a
	}
}

// benchTypes returns n distinct struct types made with reflect.StructOf.
var structOfSeq atomic.Int64

func newStructType() reflect.Type {
	id := structOfSeq.Add(1)
	return reflect.StructOf([]reflect.StructField{
		{Name: "A", Type: reflect.TypeFor[string](), Tag: `json:"a" pattern:"^[a-z]+$"`},
		{Name: "B", Type: reflect.TypeFor[int](), Tag: `json:"b" minimum:"0"`},
		{Name: "C", Type: reflect.TypeFor[[]string](), Tag: `json:"c,omitempty" maxItems:"3"`},
		{Name: fmt.Sprintf("D%d", id), Type: reflect.TypeFor[float64](), Tag: `json:"d,omitempty"`},
	})
}

// BenchmarkPlanForMiss builds a plan for a new type each time.
func BenchmarkPlanForMiss(b *testing.B) {
	types := make([]reflect.Type, b.N)
	for i := range types {
		types[i] = newStructType()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := PlanFor(types[i]); err != nil {
			b.Fatal(err)
		}
	}
}
