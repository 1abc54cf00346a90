package reflectx

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// One Scratch reused across text and map decodes, good and bad arguments
// and a decode cut short by MaxBytes gives each call the value and the
// errors a fresh decoder gives, and keeps nothing an earlier value points
// to: the values decoded first are intact after all the later calls.
func TestScratchReuse(t *testing.T) {
	type inner struct {
		S string `json:"s" maxLength:"40"`
	}
	type args struct {
		N    int      `json:"n" maximum:"100"`
		Tags []string `json:"tags" maxItems:"3"`
		In   inner    `json:"in"`
		P    *string  `json:"p,omitempty"`
	}
	p := mustPlan(t, reflect.TypeFor[args]())
	var s Scratch
	rows := func(err error) []string {
		var ae *ArgErrors
		if !errors.As(err, &ae) {
			if err == nil {
				return nil
			}
			return []string{"not ArgErrors: " + err.Error()}
		}
		var r []string
		for _, e := range ae.Errs {
			r = append(r, e.Error())
		}
		return r
	}
	type kept struct {
		want args
		got  *args
	}
	var keep []kept
	for i := range 300 {
		text := fmt.Sprintf(`{"n":%d,"tags":["t%d-a","t%d-b"],"in":{"s":"inner-%d"},"p":"p-%d"}`, i%7, i, i, i, i)
		lim := Limits{}
		switch i % 5 {
		case 1: // bad: out of range, too many items, unknown key
			text = fmt.Sprintf(`{"n":%d,"tags":["a","b","c","d"],"zz":1}`, 1000+i)
		case 2: // cut short before decoding
			lim = Limits{MaxBytes: 8}
		case 3: // bad nested: too long a string
			text = `{"n":1,"in":{"s":"` + fmt.Sprintf("%050d", i) + `"}}`
		}
		var want args
		wantErr := p.DecodeJSONLimits(unsafe.Pointer(&want), []byte(text), lim)
		got := new(args)
		var gotErr error
		if i%2 == 0 {
			gotErr = p.DecodeJSONWith(&s, unsafe.Pointer(got), []byte(text), lim)
		} else {
			var m map[string]any
			dec := json.NewDecoder(strings.NewReader(text))
			dec.UseNumber()
			if err := dec.Decode(&m); err != nil {
				t.Fatal(err)
			}
			wantErr = p.DecodeMapLimits(unsafe.Pointer(&want), m, lim)
			gotErr = p.DecodeMapWith(&s, unsafe.Pointer(got), m, lim)
		}
		if diff := cmp.Diff(rows(wantErr), rows(gotErr)); diff != "" {
			t.Fatalf("call %d %s: errors (-fresh +scratch):\n%s", i, text, diff)
		}
		if (wantErr == nil) != (gotErr == nil) || wantErr != nil && errors.Is(wantErr, ErrTooLarge) != errors.Is(gotErr, ErrTooLarge) {
			t.Fatalf("call %d: errors %v and %v", i, wantErr, gotErr)
		}
		if wantErr == nil {
			if diff := cmp.Diff(want, *got); diff != "" {
				t.Fatalf("call %d: value (-fresh +scratch):\n%s", i, diff)
			}
			if len(keep) < 20 {
				keep = append(keep, kept{want, got})
			}
		}
	}
	if len(keep) == 0 {
		t.Fatal("no call succeeded")
	}
	for i, k := range keep {
		if diff := cmp.Diff(k.want, *k.got); diff != "" {
			t.Errorf("value %d after later decodes with the same Scratch (-want +got):\n%s", i, diff)
		}
	}
}
