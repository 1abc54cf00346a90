package reflectx

import (
	"encoding/json"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestSliceChunks decodes arrays of every length around the chunk sizes
// of elemChunks (4, then doubling to maxChunk, then maxChunk each) into
// slices of structs holding pointers, strings and slices, and compares
// them with encoding/json; a GC runs in the middle so that elements kept
// only by the chunks must be seen by it.
func TestSliceChunks(t *testing.T) {
	type elem struct {
		S  string `json:"s"`
		P  *int   `json:"p"`
		XS []int  `json:"xs"`
	}
	type args struct {
		V []elem `json:"v"`
		N []int  `json:"n"`
	}
	p := mustPlan(t, reflect.TypeFor[args]())
	for _, n := range []int{1, 3, 4, 5, 8, 12, 13, 28, 29, 60, 61, 1020, 1021, 2044, 2045, 3069, 3070, 5000} {
		var b strings.Builder
		b.WriteString(`{"v":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"s":"e` + strconv.Itoa(i) + `","p":` + strconv.Itoa(i) + `,"xs":[` + strconv.Itoa(i) + `,1]}`)
		}
		b.WriteString(`],"n":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(i))
		}
		b.WriteString(`]}`)
		text := []byte(b.String())
		var got, want args
		if err := p.DecodeJSON(unsafe.Pointer(&got), text); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		runtime.GC()
		if err := json.Unmarshal(text, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("n=%d: the decoded slices differ from encoding/json's", n)
		}
		if len(got.V) != n || (n > 4 && cap(got.V) != n) || (n <= 4 && cap(got.V) != 4) {
			t.Errorf("n=%d: len %d cap %d, want len %d and cap %d (4 up to 4 elements)", n, len(got.V), cap(got.V), n, max(n, 4))
		}
	}
}
