package reflectx

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// TestStringsToArena checks the strings copied into the arena while they
// are scanned (strToArena) against those of the general path: around the
// end of the arena and of the input, with escapes and non-ASCII bytes, a
// string breaking its constraint (which must leave the arena as it was),
// and the scalar pointees handed out after them, which must be zero
// where the decode did not write.
func TestStringsToArena(t *testing.T) {
	type args struct {
		A  string   `json:"a" maxLength:"5"`
		B  string   `json:"b"`
		P  *int8    `json:"p,omitempty"`
		F  *float64 `json:"f,omitempty"`
		C  []string `json:"c"`
		D  string   `json:"d,omitempty"`
		PB *bool    `json:"pb,omitempty"`
	}
	p := mustPlan(t, reflect.TypeFor[args]())
	long := strings.Repeat("x", 70)
	texts := []string{
		`{"a":"abc","b":"defghijklmnop","p":7,"f":1.5,"c":["q","rstuvwxyz0123456","",""],"d":"` + long + `"}`,
		`{"a":"abcdefgh","b":"kept after a failed one","c":["é","a\"b","\u00e9x"],"d":""}`,
		`{"a":"","b":"","c":[],"p":-1,"pb":true,"d":"` + long + long + long + long + long + long + long + `"}`,
		`{"a":"a","b":"b","c":["c"],"d":"end"}`,
		`{"a":"a","b":"b","c":["c"],"pb":tru}`,
		`{"a":"a","b":"b","c":["c"],"p":"s","d":"xyzxyzxyzxyz"}`,
	}
	// The last string of the input, of every length up to 17, plain or
	// with an escape, a non-ASCII or a control byte at either end.
	for l := range 18 {
		base := strings.Repeat("k", l)
		texts = append(texts, `{"a":"","b":"","c":[],"d":"`+base+`"}`, `{"a":"","b":"","c":["`+base+`"]}`)
		if l > 0 {
			for _, odd := range []string{`\"`, "é", "\n", "\u0041"} {
				texts = append(texts, `{"a":"","b":"","c":[],"d":"`+odd+base+`"}`, `{"a":"","b":"","c":[],"d":"`+base+odd+`"}`)
			}
			texts = append(texts, `{"a":"","b":"","c":[],"d":"`+base+"\x01"+`"}`, `{"a":"","b":"","c":[],"d":"`+base)
		}
	}
	var s Scratch
	for round := 0; round < 3; round++ { // later rounds run with the plan's hints from earlier ones
		for _, text := range texts {
			var got, want args
			errGot := p.DecodeJSONWith(&s, unsafe.Pointer(&got), []byte(text), Limits{})
			// The reference: the same decode through the general path,
			// with no arena room (a decoder without a frame).
			d := &decoder{}
			d.lim = Limits{}.resolve()
			d.decodeJSON(p, unsafe.Pointer(&want), []byte(text))
			errWant := d.reset()
			if (errGot == nil) != (errWant == nil) || (errGot != nil && errGot.Error() != errWant.Error()) {
				t.Errorf("%s: error %v, want %v", text, errGot, errWant)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s:\ngot  %+v\nwant %+v", text, got, want)
			}
			if strings.Contains(text, `"p":"s"`) && (got.P == nil || *got.P != 0) {
				// The pointee of a value of the wrong type is handed out
				// but never written: it must be zero, not what the
				// strings before it left past the arena's end.
				t.Errorf("%s: p = %v, want a pointer to 0", text, got.P)
			}
			nv, errNew := p.DecodeJSONNew([]byte(text), Limits{})
			if (errNew == nil) != (errWant == nil) {
				t.Errorf("%s: DecodeJSONNew error %v, want %v", text, errNew, errWant)
			} else if errNew == nil && !reflect.DeepEqual(*(*args)(nv), want) {
				t.Errorf("%s: DecodeJSONNew\ngot  %+v\nwant %+v", text, *(*args)(nv), want)
			}
		}
	}
}
