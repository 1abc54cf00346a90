package reflectx

import (
	"fmt"
	"reflect"
	"testing"
	"unsafe"
)

// Decoded strings share one per-call buffer (decoder.makeString). A later
// call, reusing a pooled decoder, must never write into the buffer of an
// earlier call's strings, and no string may alias the caller's input.
func TestDecodedStringsOutliveLaterCalls(t *testing.T) {
	type pair struct {
		A string   `json:"a"`
		B []string `json:"b"`
	}
	p := mustPlan(t, reflect.TypeFor[pair]())
	input := []byte(`{"a":"first-call-a","b":["first-call-b0","first-call-b1"]}`)
	var first pair
	if err := p.DecodeJSON(unsafe.Pointer(&first), input); err != nil {
		t.Fatal(err)
	}
	for i := range input {
		input[i] = 'X' // the caller reuses its buffer
	}
	for i := 0; i < 1000; i++ {
		var later pair
		text := fmt.Sprintf(`{"a":"later-%04d-aaaaaaaaaaa","b":["later-%04d-bbbbbbbbbbbb"]}`, i, i)
		if err := p.DecodeJSON(unsafe.Pointer(&later), []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	want := pair{A: "first-call-a", B: []string{"first-call-b0", "first-call-b1"}}
	if !reflect.DeepEqual(first, want) {
		t.Errorf("first call's value = %+v after later calls and input reuse, want %+v", first, want)
	}
}
