package reflectx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/internal/fields"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// addSeeds adds the JSON text of every row of the decode table.
func addSeeds(f *testing.F) {
	for _, tc := range decodeCases() {
		if tc.typ == nil && tc.json != "" && len(tc.json) < 4096 {
			f.Add([]byte(tc.json))
		}
	}
	f.Add([]byte(validZoo))
}

// FuzzDecodeJSON decodes arbitrary bytes into zoo: it must never panic, it
// returns nil or *ArgErrors, and a success survives a round trip through
// encoding/json: marshal, decode again, marshal again gives the same text.
func FuzzDecodeJSON(f *testing.F) {
	addSeeds(f)
	p := mustPlan(f, zooType)
	// One Scratch for every input, as a tool's pool reuses one: its
	// reserve hands each call memory of frames earlier calls took, and the
	// value of the last call decoded with it must survive the next one.
	var (
		s        Scratch
		last     *zoo
		lastJSON []byte
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		var z1 zoo
		err := p.DecodeJSON(unsafe.Pointer(&z1), data)
		sameAsNew(t, data, err, &z1, func() (unsafe.Pointer, error) { return p.DecodeJSONNew(data, Limits{}) })
		z3 := new(zoo)
		err3 := p.DecodeJSONWith(&s, unsafe.Pointer(z3), data, Limits{})
		sameAsNew(t, data, err, &z1, func() (unsafe.Pointer, error) {
			if err3 != nil {
				return nil, err3
			}
			return unsafe.Pointer(z3), nil
		})
		if last != nil {
			if b, err := json.Marshal(last); err != nil || !bytes.Equal(b, lastJSON) {
				t.Fatalf("after DecodeJSONWith(%q), the value the Scratch decoded before changed:\nwas %s\nnow %s", data, lastJSON, b)
			}
		}
		if err3 == nil {
			if b, err := json.Marshal(z3); err == nil {
				last, lastJSON = z3, b
			}
		}
		if err != nil {
			var ae *ArgErrors
			if !errors.As(err, &ae) || len(ae.Errs) == 0 || len(ae.Errs) > MaxErrors {
				t.Fatalf("DecodeJSON(%q) = %v (%T), want *ArgErrors with 1 to %d problems", data, err, err, MaxErrors)
			}
			return
		}
		m1, err := json.Marshal(&z1)
		if err != nil {
			t.Fatalf("json.Marshal of the decoded %q: %v", data, err)
		}
		var z2 zoo
		if err := p.DecodeJSON(unsafe.Pointer(&z2), m1); err != nil {
			t.Fatalf("DecodeJSON(%s) (re-marshalled from %q) = %v", m1, data, err)
		}
		m2, err := json.Marshal(&z2)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(m1, m2) {
			t.Fatalf("round trip of %q:\nfirst  %s\nsecond %s", data, m1, m2)
		}
	})
}

// keyIso has fields whose names fold to other Unicode letters (k: the
// Kelvin sign, s: the long s).
type keyIso struct {
	City string `json:"city,omitempty"`
	Unit string `json:"unit,omitempty"`
	K    string `json:"k,omitempty"`
	S    string `json:"s,omitempty"`
}

// FuzzKeyIsolation checks that a key that is not exactly a field name (one
// that differs only by case, by a trailing NUL, or by Unicode folding) is
// rejected as unknown, from JSON text and from a map.
func FuzzKeyIsolation(f *testing.F) {
	for _, k := range []string{"City", "CITY", "city\x00", "unit\x00", "\u212a", "K", "ſ", "S", "cıty", "Unit ", " unit", "city/", "~"} {
		f.Add(k)
	}
	p := mustPlan(f, reflect.TypeFor[keyIso]())
	f.Fuzz(func(t *testing.T, key string) {
		switch key {
		case "city", "unit", "k", "s":
			return
		}
		if !utf8.ValidString(key) {
			return // encoding/json would change the key
		}
		m := map[string]any{key: "x"}
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		want := []wantErr{{"/" + jsonwire.EscapeToken(key), ErrUnknownField}}
		var v keyIso
		if got := gotErrs(t, p.DecodeJSON(unsafe.Pointer(&v), data)); !reflect.DeepEqual(got, want) {
			t.Errorf("DecodeJSON(%s) = %v, want %v", data, got, want)
		}
		if got := gotErrs(t, p.DecodeMap(unsafe.Pointer(&v), m)); !reflect.DeepEqual(got, want) {
			t.Errorf("DecodeMap(%q) = %v, want %v", m, got, want)
		}
		if v != (keyIso{}) {
			t.Errorf("a rejected key set a field: %+v", v)
		}
	})
}

// loneSurrogate reports whether data, JSON text that encoding/json
// accepts, holds a \u escape of half a UTF-16 surrogate pair without the
// other half, which the strict reader of replies (jsonwire) refuses.
func loneSurrogate(data []byte) bool {
	err := jsonwire.Check(data, 1<<20)
	return err != nil && strings.Contains(err.Problem, "surrogate")
}

// FuzzDecodeMapVsJSON checks that JSON text and its map form (parsed by
// encoding/json with UseNumber) get the same verdict, the same problems and
// the same value. Inputs where the two cannot agree are skipped: invalid
// UTF-8 and lone surrogates (encoding/json replaces them; the text is
// refused), duplicate keys (a map cannot hold them), and nesting beyond
// MaxDepth inside `any` (map values in any fields are kept as given).
func FuzzDecodeMapVsJSON(f *testing.F) {
	addSeeds(f)
	f.Fuzz(runMapVsJSON)
}

// runMapVsJSON is the body of FuzzDecodeMapVsJSON.
func runMapVsJSON(t *testing.T, data []byte) {
	p := mustPlan(t, zooType)
	if !utf8.Valid(data) || len(bytes.TrimSpace(data)) == 0 {
		return
	}
	var zj zoo
	errJSON := p.DecodeJSON(unsafe.Pointer(&zj), data)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || !atEOF(dec) {
		if errJSON == nil {
			t.Fatalf("DecodeJSON accepted %q, which encoding/json rejects (%v)", data, err)
		}
		return
	}
	if errors.Is(errJSON, ErrTooDeep) || errors.Is(errJSON, ErrDuplicateKey) || hasDuplicateKeys(data) {
		return
	}
	if loneSurrogate(data) {
		// encoding/json reads it as U+FFFD; the decoder refuses it, as
		// the reply reader does, and a map cannot hold it.
		if !errors.Is(errJSON, ErrSyntax) {
			t.Fatalf("DecodeJSON(%q) = %v, want ErrSyntax for a lone surrogate", data, errJSON)
		}
		return
	}
	if errors.Is(errJSON, ErrSyntax) {
		t.Fatalf("DecodeJSON(%q) = %v, but encoding/json accepts it", data, errJSON)
	}
	var zm zoo
	errMap := p.DecodeMap(unsafe.Pointer(&zm), m)
	sameAsNew(t, data, errMap, &zm, func() (unsafe.Pointer, error) { return p.DecodeMapNew(m, Limits{}) })
	if (errJSON == nil) != (errMap == nil) {
		t.Fatalf("verdicts differ for %q:\njson: %v\nmap:  %v", data, errJSON, errMap)
	}
	if errJSON != nil {
		var aj, am *ArgErrors
		errors.As(errJSON, &aj)
		errors.As(errMap, &am)
		if aj.Omitted > 0 || am.Omitted > 0 {
			// Past the cap the decoders stop looking, each in its own
			// order: both must have found a full list.
			type counts struct{ JSON, Map int }
			if diff := cmp.Diff(counts{MaxErrors, MaxErrors}, counts{len(aj.Errs), len(am.Errs)}); diff != "" {
				t.Fatalf("problem counts for %q (%d and %d omitted) (-want +got):\n%s", data, aj.Omitted, am.Omitted, diff)
			}
			return
		}
		if gj, gm := gotErrs(t, errJSON), gotErrs(t, errMap); !reflect.DeepEqual(gj, gm) {
			t.Fatalf("problems differ for %q:\njson: %v\nmap:  %v", data, errJSON, errMap)
		}
		return
	}
	bj, err := json.Marshal(&zj)
	if err != nil {
		t.Fatalf("json.Marshal of the value decoded from JSON %q: %v", data, err)
	}
	bm, err := json.Marshal(&zm)
	if err != nil {
		t.Fatalf("json.Marshal of the value decoded from the map of %q: %v", data, err)
	}
	if diff := cmp.Diff(string(bj), string(bm)); diff != "" {
		t.Fatalf("values differ for %q (-json +map):\n%s", data, diff)
	}
}

// sameAsNew checks that decoding data with the frame-allocating decode (a
// fresh value per call) gives what decoding into want did: the same
// problems, or an equal value.
func sameAsNew(t *testing.T, data []byte, wantErr error, want *zoo, decode func() (unsafe.Pointer, error)) {
	t.Helper()
	v, err := decode()
	if (err == nil) != (wantErr == nil) || (err == nil) != (v != nil) {
		t.Fatalf("%q: frame decode gave %p, %v; in-place decode %v", data, v, err, wantErr)
	}
	if err != nil {
		if gw, gn := gotErrs(t, wantErr), gotErrs(t, err); !reflect.DeepEqual(gw, gn) {
			t.Fatalf("%q: problems differ:\nin place: %v\nframe:    %v", data, wantErr, err)
		}
		return
	}
	bw, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	bn, err := json.Marshal((*zoo)(v))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(bw), string(bn)); diff != "" {
		t.Fatalf("%q: values differ (-in place +frame):\n%s", data, diff)
	}
}

// hasDuplicateKeys reports whether some object in valid JSON text repeats
// a key (such problems may be among those omitted beyond MaxErrors).
func hasDuplicateKeys(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		keys     map[string]bool
		isObject bool
		wantKey  bool
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if top != nil && top.isObject && top.wantKey {
			if k, ok := tok.(string); ok {
				if top.keys[k] {
					return true
				}
				top.keys[k] = true
				top.wantKey = false
				continue
			}
		}
		if top != nil && top.isObject {
			top.wantKey = true // this token is a value (or the closing brace)
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{keys: map[string]bool{}, isObject: true, wantKey: true})
		case json.Delim('['):
			stack = append(stack, frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].isObject {
				stack[len(stack)-1].wantKey = true
			}
		}
	}
}

func atEOF(dec *json.Decoder) bool {
	_, err := dec.Token()
	return err == io.EOF
}

// FuzzTagValues builds a plan for a field with fuzzed constraint tags and
// checks what makes the one checker hold: a build never panics, and when
// it succeeds, every enum member, the default and the example (each a
// value the build accepted) is accepted by the plan as a call's argument,
// while a build that refuses one of them names a tag.
func FuzzTagValues(f *testing.F) {
	f.Add("string", "a,b", "1", "3", "^[a-z]+$", "", "a", "b")
	f.Add("string", "ab,c", "2", "", "", "email", "", "")
	f.Add("int", "1,7", "", "", "", "", "3", "5")
	f.Add("float64", "0.5,2", "", "", "", "", "0.5", "")
	f.Fuzz(func(t *testing.T, kind, enum, lo, hi, pattern, format, def, example string) {
		types := map[string]reflect.Type{"string": reflect.TypeFor[string](), "int": reflect.TypeFor[int](),
			"uint8": reflect.TypeFor[uint8](), "float64": reflect.TypeFor[float64]()}
		typ, ok := types[kind]
		if !ok {
			return
		}
		var tag []string
		add := func(key, v string) {
			if v != "" {
				tag = append(tag, key+":"+strconv.Quote(v))
			}
		}
		add("enum", enum)
		if typ.Kind() == reflect.String {
			add("minLength", lo)
			add("maxLength", hi)
			add("pattern", pattern)
			add("format", format)
		} else {
			add("minimum", lo)
			add("maximum", hi)
		}
		add("default", def)
		add("example", example)
		st := reflect.StructOf([]reflect.StructField{{Name: "F", Type: typ, Tag: reflect.StructTag(`json:"f,omitempty" ` + strings.Join(tag, " "))}})
		p, err := PlanFor(st)
		if err != nil {
			var fe *fields.Error
			if !errors.As(err, &fe) {
				t.Fatalf("tags %v: error %T %v is not a *fields.Error", tag, err, err)
			}
			return
		}
		fs, err := fields.Describe(st)
		if err != nil {
			t.Fatalf("tags %v: the plan built but Describe fails: %v", tag, err)
		}
		r := fs[0].Rules
		values := append(append([]any(nil), r.Enum...), r.Examples...)
		if r.HasDefault {
			values = append(values, r.Default)
		}
		for _, v := range values {
			arg, err := json.Marshal(map[string]any{"f": v})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.DecodeJSONNew(arg, Limits{}); err != nil {
				t.Errorf("tags %v: the plan accepted %s as a tag's value but refuses it as an argument: %v", tag, arg, err)
			}
		}
	})
}
