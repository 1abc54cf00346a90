package reflectx

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/benchdata"
	"github.com/toolnexus/toolnexus/schema"
)

// BenchmarkSchemaValidate validates the nine-field sample against the
// schema benchdata.Args renders, the work of a define.NewTool tool made
// from that schema; BenchmarkDecodeJSON decodes the same text with the
// type's plan.
func BenchmarkSchemaValidate(b *testing.B) {
	s, err := schema.ForType(reflect.TypeFor[benchdata.Args]())
	if err != nil {
		b.Fatal(err)
	}
	p, err := CompileSchema(s, schema.ParseLimits{})
	if err != nil {
		b.Fatal(err)
	}
	text := benchdata.SampleJSON
	if err := p.ValidateJSON(text, Limits{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if err := p.ValidateJSON(text, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchSchema benchmarks ValidateJSON of data against doc, failing when
// the verdict is not the one wanted, and reports B/inbyte.
func benchSchema(b *testing.B, doc string, data []byte, wantErr bool) {
	p := mustSchemaPlan(b, doc)
	lim := Limits{MaxBytes: len(data) + 1}
	if err := p.ValidateJSON(data, lim); (err != nil) != wantErr {
		b.Fatalf("err = %.200v, want error %v", err, wantErr)
	}
	amplification(b, len(data), func() { _ = p.ValidateJSON(data, lim) })
}

// The worst cases of a hand-written schema's validation: unique items of
// every kind (each keyed from its text), many properties checked against
// additionalProperties and propertyNames, branches tried on every item,
// and the step bound of exponential branches.
func BenchmarkHostileSchema(b *testing.B) {
	for _, sz := range hostileSizes {
		b.Run("unique/"+sz.name, func(b *testing.B) {
			benchSchema(b, `{"type":"object","properties":{"v":{"uniqueItems":true}}}`, uniqueAnyJSON(sz.size), false)
		})
		b.Run("keys/"+sz.name, func(b *testing.B) {
			var sb strings.Builder
			sb.WriteString(`{`)
			for i := 0; sb.Len() < sz.size; i++ {
				if i > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString(`"k` + strconv.Itoa(i) + `":1`)
			}
			sb.WriteString(`}`)
			benchSchema(b, `{"type":"object","additionalProperties":{"type":"integer"},"propertyNames":{"pattern":"^k[0-9]+$"}}`, []byte(sb.String()), false)
		})
		b.Run("branches/"+sz.name, func(b *testing.B) {
			items := strings.Repeat(`{"a":"x","b":[1,2]},`, sz.size/20)
			data := []byte(`{"v":[` + items + `{"a":"x","b":[1,2]}]}`)
			benchSchema(b, `{"type":"object","properties":{"v":{"items":{"anyOf":[{"required":["z"]},{"properties":{"b":{"items":{"type":"string"}}}},{"properties":{"a":{"type":"string"}}}]}}}}`, data, false)
		})
		b.Run("steps/"+sz.name, func(b *testing.B) {
			n := sz.size / 2
			data := []byte(`{"v":` + strings.Repeat("[", min(n, MaxDepth-1)) + strings.Repeat("]", min(n, MaxDepth-1)) + strings.Repeat(" ", max(0, sz.size-2*MaxDepth)) + `}`)
			benchSchema(b, `{"type":"object","properties":{"v":{"$ref":"#/$defs/s"}},"$defs":{"s":{"anyOf":[{"items":{"$ref":"#/$defs/s"},"minItems":5},{"items":{"$ref":"#/$defs/s"},"minItems":6}]}}}`, data, true)
		})
	}
}

// sinkSchemaErr keeps results alive.
var sinkSchemaErr error

// BenchmarkSchemaDecodeBaseline is BenchmarkDecodeJSON's work with a
// fresh value per call, for a ratio in the same run.
func BenchmarkSchemaDecodeBaseline(b *testing.B) {
	p := mustPlan(b, reflect.TypeFor[benchdata.Args]())
	text := benchdata.SampleJSON
	var a benchdata.Args
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		a = benchdata.Args{}
		sinkSchemaErr = p.DecodeJSON(unsafe.Pointer(&a), text)
	}
	sinkArgs = a
}
