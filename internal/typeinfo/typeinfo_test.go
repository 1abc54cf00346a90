package typeinfo

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/internal/benchdata"
	"github.com/toolnexus/toolnexus/internal/reflectx"
	"github.com/toolnexus/toolnexus/schema"
)

type (
	plain struct {
		Q string   `json:"q" maxLength:"10"`
		N *int     `json:"n,omitempty" minimum:"1"`
		L []string `json:"l,omitempty"`
	}
	withDefault struct {
		Q string `json:"q" default:"x"`
	}
	badNested struct {
		P []struct {
			X int `json:"x"`
		} `json:"p" default:"[{\"x\":\"no\"}]"`
	}
	badTag struct {
		N int `json:"n" minimum:"ten"`
	}
	badOut struct {
		C chan int `json:"c"`
	}
)

// TestOneEntryPerType checks that concurrent first uses of a type share
// one Info, one tree, one encoding and one plan, whether the type defers
// its builds or not.
func TestOneEntryPerType(t *testing.T) {
	for _, typ := range []reflect.Type{
		reflect.StructOf([]reflect.StructField{{Name: "X", Type: reflect.TypeFor[int](), Tag: `json:"x"`}}),
		reflect.StructOf([]reflect.StructField{{Name: "X", Type: reflect.TypeFor[int](), Tag: `json:"x" default:"3"`}}),
	} {
		type got struct {
			info *Info
			tree *schema.Schema
			json []byte
			plan *reflectx.Plan
		}
		res := make([]got, 8)
		var wg sync.WaitGroup
		for i := range res {
			wg.Add(1)
			go func() {
				defer wg.Done()
				info, err := Input(typ)
				if err != nil {
					t.Error(err)
					return
				}
				plan, err := info.Plan()
				if err != nil {
					t.Error(err)
				}
				res[i] = got{info, info.Schema(), info.JSON(), plan}
			}()
		}
		wg.Wait()
		for _, r := range res[1:] {
			if r.info != res[0].info || r.tree != res[0].tree || &r.json[0] != &res[0].json[0] || r.plan != res[0].plan {
				t.Fatalf("%v: concurrent first uses got different entries", typ)
			}
		}
		if res[0].plan.Type() != typ {
			t.Errorf("plan type = %v, want %v", res[0].plan.Type(), typ)
		}
		want, err := schema.ForType(typ)
		if err != nil {
			t.Fatal(err)
		}
		wantJSON, _ := want.MarshalJSON()
		if diff := cmp.Diff(string(wantJSON), string(res[0].json)); diff != "" {
			t.Errorf("%v: JSON differs from ForType's (-want +got):\n%s", typ, diff)
		}
	}
}

// TestDeferral checks which types wait: the plain one builds nothing at
// Input, the one with a default builds its tree and plan there.
func TestDeferral(t *testing.T) {
	for _, tc := range []struct {
		typ   reflect.Type
		waits bool
	}{
		{reflect.TypeFor[plain](), true},
		{reflect.TypeFor[*plain](), true},
		{reflect.TypeFor[map[string]int](), true},
		{reflect.TypeFor[any](), true},
		{reflect.TypeFor[withDefault](), false},
		{reflect.TypeFor[struct{ V json.Number }](), false}, // a method: String
	} {
		if got := Deferrable(tc.typ); got != tc.waits {
			t.Errorf("Deferrable(%v) = %v, want %v", tc.typ, got, tc.waits)
		}
		info, err := Input(tc.typ)
		if err != nil {
			t.Fatalf("Input(%v): %v", tc.typ, err)
		}
		built := [2]bool{info.tree != nil, info.plan != nil}
		if want := [2]bool{!tc.waits, !tc.waits}; built != want {
			t.Errorf("Input(%v) built tree, plan = %v, want %v", tc.typ, built, want)
		}
	}
}

// TestErrorShape checks that every define-time problem, the tree's, the
// plan's and the root check's, is a *schema.TypeError with the role the
// type plays, the type, the path and the sentinel, and that a failed
// type is not cached.
func TestErrorShape(t *testing.T) {
	for _, tc := range []struct {
		name   string
		output bool
		typ    reflect.Type
		path   string
		tag    string
		err    error
		text   string
	}{
		{"root", false, reflect.TypeFor[int](), "", "", schema.ErrNotObject, "input type int: arguments are a JSON object"},
		{"root pointer", false, reflect.TypeFor[*[]int](), "", "", schema.ErrNotObject, "input type *[]int: arguments"},
		{"tag", false, reflect.TypeFor[badTag](), "N", "minimum", schema.ErrInvalidTag, "input type typeinfo.badTag: field N: tag minimum: "},
		{"plan", false, reflect.TypeFor[badNested](), "P", "default", schema.ErrInvalidTag, "input type typeinfo.badNested: field P: tag default: the default"},
		{"output", true, reflect.TypeFor[badOut](), "C", "", schema.ErrUnsupportedType, "output type typeinfo.badOut: field C: unsupported type chan int"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.output {
				_, err = Output(tc.typ)
			} else {
				_, err = Input(tc.typ)
			}
			var te *schema.TypeError
			if !errors.As(err, &te) {
				t.Fatalf("error %v (%T) is not a *schema.TypeError", err, err)
			}
			role := "input"
			if tc.output {
				role = "output"
			}
			type shape struct {
				Role, Path, Tag string
				Sentinel        bool
				Type            string
			}
			want := shape{role, tc.path, tc.tag, true, tc.typ.String()}
			if diff := cmp.Diff(want, shape{te.Role, te.Path, te.Tag, errors.Is(err, tc.err), fmt.Sprint(te.Type)}); diff != "" {
				t.Errorf("error %v (-want +got):\n%s", err, diff)
			}
			if !strings.HasPrefix(err.Error(), tc.text) {
				t.Errorf("error %q, want the prefix %q", err, tc.text)
			}
			m := &inputs
			if tc.output {
				m = &outputs
			}
			if _, ok := m.Load(tc.typ); ok {
				t.Errorf("the failed type %v was cached", tc.typ)
			}
		})
	}
}

// freshTypes makes n struct types nothing has seen, from the fields of
// benchdata.Args.
func freshTypes(n int) []reflect.Type {
	args := reflect.TypeFor[benchdata.Args]()
	out := make([]reflect.Type, n)
	for i := range out {
		fresh++
		fs := make([]reflect.StructField, args.NumField())
		for j := range fs {
			f := args.Field(j)
			fs[j] = reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag}
		}
		fs[0].Tag += reflect.StructTag(fmt.Sprintf(` fresh:"%d"`, fresh))
		out[i] = reflect.StructOf(fs)
	}
	return out
}

var fresh int

// BenchmarkInputFresh times the first Input of a deferrable type: the
// checks of Deferrable, what a definition of such a type costs.
func BenchmarkInputFresh(b *testing.B) {
	types := freshTypes(b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := Input(types[i]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInputHit times Input of a type seen before.
func BenchmarkInputHit(b *testing.B) {
	typ := freshTypes(1)[0]
	if _, err := Input(typ); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Input(typ); err != nil {
			b.Fatal(err)
		}
	}
}
