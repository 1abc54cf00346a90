package schema

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/toolnexus/toolnexus/internal/benchdata"
)

// freshTypes makes n struct types the caches have never seen, from the
// fields of benchdata.Args. With distinct set, every tag value and the
// nested struct differ per type too, which defeats the caches keyed by
// field type or tag text (parsed rules, compiled patterns); without it,
// only the root is new, as with the bench module's `type freshN
// benchdata.Args` pool.
func freshTypes(n int, distinct bool) []reflect.Type {
	args := reflect.TypeFor[benchdata.Args]()
	out := make([]reflect.Type, n)
	for o := range out {
		freshCount++
		i := freshCount
		fs := make([]reflect.StructField, args.NumField())
		for j := range fs {
			f := args.Field(j)
			fs[j] = reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag}
		}
		fs[0].Tag += reflect.StructTag(fmt.Sprintf(` fresh:"%d"`, i))
		if distinct {
			k := i + 1
			fs[0].Tag = reflect.StructTag(fmt.Sprintf(`json:"origin" pattern:"^[A-Z]{%d}$" description:"departure airport %d"`, k%5+1, k))
			fs[1].Tag = reflect.StructTag(fmt.Sprintf(`json:"destination" pattern:"^[A-Z]{3}-%d$"`, k))
			fs[3].Tag = reflect.StructTag(fmt.Sprintf(`json:"passengers" minimum:"%d" maximum:"%d"`, k, k+9))
			fs[4].Tag = reflect.StructTag(fmt.Sprintf(`json:"cabin" enum:"economy%d,premium,business,first"`, k))
			fs[5].Tag = reflect.StructTag(fmt.Sprintf(`json:"max_price" exclusiveMinimum:"0.%d" description:"upper price limit %d"`, k, k))
			fs[8].Tag = reflect.StructTag(fmt.Sprintf(`json:"note,omitempty" maxLength:"%d"`, 200+k))
			filters := fs[6].Type
			ffs := make([]reflect.StructField, filters.NumField())
			for j := range ffs {
				f := filters.Field(j)
				ffs[j] = reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag}
			}
			ffs[0].Tag = reflect.StructTag(fmt.Sprintf(`json:"max_stops" minimum:"0" maximum:"%d"`, k+3))
			ffs[1].Tag = reflect.StructTag(fmt.Sprintf(`json:"airlines" maxItems:"%d"`, k+5))
			fs[6].Type = reflect.StructOf(ffs)
		}
		out[o] = reflect.StructOf(fs)
	}
	return out
}

// freshCount numbers the types freshTypes made, so that no two calls make
// the same type.
var freshCount int

// BenchmarkForTypeFresh times the first schema of a type, for types made
// with reflect.StructOf.
func BenchmarkForTypeFresh(b *testing.B) {
	benchFresh(b, func(t reflect.Type) error {
		_, err := build(t)
		return err
	})
}

// benchFresh runs first over fresh types, from the pool and distinct.
func benchFresh(b *testing.B, first func(reflect.Type) error) {
	for _, v := range []struct {
		name     string
		distinct bool
	}{{"pool", false}, {"distinct", true}} {
		b.Run(v.name, func(b *testing.B) {
			types := freshTypes(b.N, v.distinct)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if err := first(types[i]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
