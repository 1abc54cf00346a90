package schema_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/toolnexus/toolnexus/internal/zoo"
	"github.com/toolnexus/toolnexus/schema"
)

// TestForTypeConcurrent calls ForType from many goroutines on cached zoo
// types and on fresh types built with reflect.StructOf (cache misses), and
// mutates what it gets; run with -race.
func TestForTypeConcurrent(t *testing.T) {
	want := map[reflect.Type]string{}
	for _, c := range zoo.Cases {
		s, err := schema.ForType(c.Type)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(s)
		want[c.Type] = string(data)
	}
	const goroutines = 16
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, c := range zoo.Cases {
				s, err := schema.ForType(c.Type)
				if err != nil {
					errs <- err
					return
				}
				data, _ := json.Marshal(s)
				if string(data) != want[c.Type] {
					errs <- fmt.Errorf("ForType(%v) = %s, want %s", c.Type, data, want[c.Type])
					return
				}
				s.Properties = append(s.Properties, schema.Property{Name: "mutated", Schema: &schema.Schema{}})
				s.Description = "mutated"

				// A fresh type per goroutine and step, shared by two
				// goroutines so that some misses race each other.
				fresh := reflect.StructOf([]reflect.StructField{
					{Name: fmt.Sprintf("F%d_%d", g/2, i), Type: reflect.TypeFor[[]zoo.Node](), Tag: `json:"f" minItems:"1"`},
					{Name: "P", Type: reflect.TypeFor[*zoo.Point]()},
				})
				fs, err := schema.ForType(fresh)
				if err != nil {
					errs <- err
					return
				}
				if fs.Property("f") == nil || fs.Property("P") == nil || len(fs.Defs) != 1 {
					data, _ := json.Marshal(fs)
					errs <- fmt.Errorf("ForType(%v) = %s, want properties f and P and one $def", fresh, data)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
