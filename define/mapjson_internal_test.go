package define

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/internal/reflectx"
)

// FuzzMarshalArgs: marshalArgs writes what json.Marshal writes, for maps
// decoded from any JSON object (numbers as float64 and as json.Number)
// and the Go integers a caller's map may hold.
func FuzzMarshalArgs(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[true,null,"x"],"c":{"z":1.5e-7,"y":1e21,"x":123456789.125}}`,
		`{"s":"<&>\u2028\u2029\b\f\n\r\t\u0001\"\\é😀","k\u0000":-0.0,"n":1e400}`,
		`{"b":{},"a":[],"": [[[]]], "9007199254740993": 9007199254740993}`,
		`{"f":0.000001,"g":0.0000001,"h":-1e-7,"i":1e20,"j":123e-20}`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, useNumber bool) {
		dec := json.NewDecoder(bytes.NewReader(data))
		if useNumber {
			dec.UseNumber()
		}
		var m map[string]any
		if dec.Decode(&m) != nil || m == nil {
			return
		}
		m["int"], m["int64"] = 7, int64(-9007199254740993)
		if reflectx.CheckMap(m, reflectx.Limits{MaxBytes: -1}) != nil {
			return
		}
		want, werr := json.Marshal(m)
		got, gerr := marshalArgs(m)
		if (werr == nil) != (gerr == nil) || werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("map from %q:\nmarshalArgs %s (%v)\njson.Marshal %s (%v)", data, got, gerr, want, werr)
		}
	})
}

func TestMarshalArgsFallback(t *testing.T) {
	type point struct{ X int }
	m := map[string]any{"p": point{X: 1}, "u": uint8(3), "n": json.Number("12"), "e": json.Number("")}
	got, err := marshalArgs(m)
	want, _ := json.Marshal(m)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("marshalArgs = %s, %v; want %s", got, err, want)
	}
	if _, err := marshalArgs(map[string]any{"n": json.Number("1.")}); err == nil {
		t.Error("an invalid json.Number: no error")
	}
}
