package reflectx

import (
	"encoding/json"
	"errors"
	"github.com/toolnexus/toolnexus/internal/benchdata"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// mode selects the inputs a row is run through.
type mode uint8

const (
	modeJSON     mode = 1 << iota // DecodeJSON of the row's text
	modeFloatMap                  // DecodeMap of the text parsed by json.Unmarshal (float64 numbers)
	modeNumMap                    // DecodeMap of the text parsed with UseNumber (json.Number)
	modeGoMap                     // DecodeMap of the row's own map
	modeAll      = modeJSON | modeFloatMap | modeNumMap
	modeExact    = modeJSON | modeNumMap // numbers float64 cannot hold exactly
)

func (m mode) String() string {
	switch m {
	case modeJSON:
		return "json"
	case modeFloatMap:
		return "floatmap"
	case modeNumMap:
		return "numbermap"
	}
	return "gomap"
}

// wantErr is one expected problem, as data: the path and the sentinel.
type wantErr struct {
	path string
	err  error
}

type decodeCase struct {
	name     string
	typ      reflect.Type // zoo when nil
	json     string
	m        map[string]any // for modeGoMap
	modes    mode           // modeAll when 0
	want     []wantErr      // nil: success
	check    func(t *testing.T, v any, m mode)
	checkErr func(t *testing.T, err error)
	reason   string
}

var (
	zooType       = reflect.TypeFor[zoo]()
	weatherType   = reflect.TypeFor[weather]()
	embeddedType  = reflect.TypeFor[embedded]()
	dominanceType = reflect.TypeFor[dominance]()
	treeType      = reflect.TypeFor[tree]()
)

func errs(pairs ...any) []wantErr {
	var out []wantErr
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, wantErr{pairs[i].(string), pairs[i+1].(error)})
	}
	return out
}

func zooCheck(f func(t *testing.T, z *zoo, m mode)) func(*testing.T, any, mode) {
	return func(t *testing.T, v any, m mode) { f(t, v.(*zoo), m) }
}

func nested(key string, depth int, leaf string) string {
	return strings.Repeat(`{"`+key+`":`, depth) + leaf + strings.Repeat("}", depth)
}

// ptrTo returns a pointer to a copy of v, for expected values.
func ptrTo[T any](v T) *T { return &v }

const validZoo = `{"s":"héllo","i":-7,"i8":-128,"i64":-9007199254740992,"u":7,"u8":255,"u64":42,
"f":1.5,"f32":0.25,"b":true,"max":10,"exmin":0.5,"mult":-15,"multf":0.3,"enum":"F","enumi":2,
"const":"v1","pat":"FRA","dt":"2026-03-14T09:30:00+01:00","date":"2026-03-14","time":"09:30:00Z",
"email":"a.b@example.com","uuid":"123e4567-e89b-12d3-a456-426614174000","ipv4":"192.168.0.1",
"ipv6":"2001:db8::1","uri":"https://example.com/a?b=c","host":"api.example.com",
"t":"2026-03-14T09:30:00Z","bytes":"aGVsbG8=","color":"#ff8000","pcol":"#000001","temp":"21.5C",
"ptr":3,"sl":[1,2,3],"strs":["x"],"arr":[4,5],"m":{"a":1},"mi":{"7":"seven"},"ma":{"k":[1,"x",null]},
"any":{"n":"v"},"raw":[1, 2],"items":[{"n":1,"tag":"t"}],"next":{"s":"in"},"ps":"abc",
"named":{"x":{"n":2}},"deep":[["a"],[]],"opt":null}`

func decodeCases() []decodeCase {
	var many strings.Builder
	many.WriteString("{")
	for i := 0; i < 25; i++ {
		if i > 0 {
			many.WriteString(",")
		}
		many.WriteString(`"x` + string(rune('a'+i)) + `":1`)
	}
	many.WriteString("}")

	cyclic := map[string]any{}
	cyclic["next"] = cyclic
	deepMap := map[string]any{}
	for i := 0; i < 600; i++ {
		deepMap = map[string]any{"next": deepMap}
	}

	type myInt int
	type myString string

	return []decodeCase{
		{name: "valid everything", json: validZoo, check: zooCheck(func(t *testing.T, z *zoo, m mode) {
			// Numbers under any are json.Number unless the input map
			// already held float64; the raw message keeps the JSON text
			// as written, and is compact when re-encoded from a map.
			var one any = json.Number("1")
			raw := json.RawMessage("[1,2]")
			switch m {
			case modeFloatMap:
				one = 1.0
			case modeJSON:
				raw = json.RawMessage("[1, 2]")
			}
			want := &zoo{
				S: "héllo", I: -7, I8: -128, I64: -9007199254740992, U: 7, U8: 255, U64: 42,
				F: 1.5, F32: 0.25, B: true, Max: 10, ExMin: 0.5, Mult: -15, MultF: 0.3, Enum: "F", EnumI: 2,
				Const: "v1", Pat: "FRA", DT: "2026-03-14T09:30:00+01:00", Date: "2026-03-14", Time: "09:30:00Z",
				Email: "a.b@example.com", UUID: "123e4567-e89b-12d3-a456-426614174000", IPv4: "192.168.0.1",
				IPv6: "2001:db8::1", URI: "https://example.com/a?b=c", Host: "api.example.com",
				T: time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC), Bytes: []byte("hello"),
				Color: color{0xff, 0x80, 0}, PCol: &color{0, 0, 1}, Temp: 21.5,
				Ptr: ptrTo(3), Sl: []int{1, 2, 3}, Strs: []string{"x"}, Arr: [2]int{4, 5},
				M: map[string]int{"a": 1}, MI: map[int]string{7: "seven"}, MA: map[string]any{"k": []any{one, "x", nil}},
				Any: map[string]any{"n": "v"}, Raw: raw, Items: []item{{N: 1, Tag: "t"}}, Next: &zoo{S: "in"}, PS: ptrTo("abc"),
				Named: map[string]*item{"x": {N: 2}}, Deep: [][]string{{"a"}, {}}, Opt: nil,
			}
			// cmp calls time.Time's Equal and tells a nil slice or map from
			// an empty one (Deep[1] must be empty, not nil; Opt must be nil).
			if diff := cmp.Diff(want, z); diff != "" {
				t.Errorf("decoded zoo (-want +got):\n%s", diff)
			}
		})},
		{name: "empty object", json: `{}`},
		{name: "null arguments", typ: weatherType, json: `null`, want: errs("/city", ErrMissing, "/forced", ErrMissing)},
		{name: "empty text", typ: weatherType, json: ``, want: errs("/city", ErrMissing, "/forced", ErrMissing)},
		{name: "whitespace text", typ: weatherType, json: " \n\t\r ", want: errs("/city", ErrMissing, "/forced", ErrMissing)},
		{name: "defaults fill absent keys", typ: weatherType, json: `{"city":"Oslo","forced":null}`,
			check: func(t *testing.T, v any, _ mode) {
				want := &weather{City: "Oslo", Unit: "C", Days: 3, Limit: ptrTo(5), Tags: []string{"a", "b"}, Forced: nil}
				if diff := cmp.Diff(want, v.(*weather)); diff != "" {
					t.Errorf("decoded weather (-want +got):\n%s", diff)
				}
			}},
		{name: "defaults do not replace null", typ: weatherType, json: `{"city":"Oslo","forced":1,"limit":null,"unit":"F"}`,
			check: func(t *testing.T, v any, _ mode) {
				want := &weather{City: "Oslo", Unit: "F", Days: 3, Limit: nil, Tags: []string{"a", "b"}, Forced: ptrTo(1)}
				if diff := cmp.Diff(want, v.(*weather)); diff != "" {
					t.Errorf("decoded weather (-want +got):\n%s", diff)
				}
			}},
		{name: "null for a defaulted string", typ: weatherType, json: `{"city":"Oslo","forced":1,"unit":null}`, want: errs("/unit", ErrType)},
		{name: "missing required", typ: weatherType, json: `{"unit":"F"}`, want: errs("/city", ErrMissing, "/forced", ErrMissing)},
		{name: "wrong type", json: `{"s":5}`, want: errs("/s", ErrType)},
		{name: "string for int", json: `{"i":"2"}`, want: errs("/i", ErrType), reason: "no string to number coercion"},
		{name: "string for bool", json: `{"b":"true"}`, want: errs("/b", ErrType)},
		{name: "number for string", json: `{"pat":123}`, want: errs("/pat", ErrType)},
		{name: "object for int", json: `{"i":{"a":[1,2]}}`, want: errs("/i", ErrType)},
		{name: "unknown key", typ: weatherType, json: `{"city":"x","forced":1,"Color":"red"}`, want: errs("/Color", ErrUnknownField)},
		{name: "wrong-case key", typ: weatherType, json: `{"City":"x","forced":1}`, want: errs("/City", ErrUnknownField, "/city", ErrMissing)},
		{name: "2.5 for an int", json: `{"i":2.5}`, want: errs("/i", ErrType)},
		{name: "2.0 for an int", json: `{"i":2.0,"i64":1e2}`, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if diff := cmp.Diff(&zoo{I: 2, I64: 100}, z); diff != "" {
				t.Errorf("decoded zoo (-want +got):\n%s", diff)
			}
		})},
		{name: "2^53+1 into int64 stays exact", json: `{"i64":9007199254740993}`, modes: modeExact,
			reason: "float64 would round it to 2^53",
			check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
				if z.I64 != 9007199254740993 {
					t.Errorf("i64 = %d", z.I64)
				}
			})},
		{name: "max uint64 stays exact", json: `{"u64":18446744073709551615}`, modes: modeExact,
			check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
				if z.U64 != math.MaxUint64 {
					t.Errorf("u64 = %d", z.U64)
				}
			})},
		{name: "uint64 overflow", json: `{"u64":18446744073709551616}`, want: errs("/u64", ErrType)},
		{name: "int64 min", json: `{"i64":-9223372036854775808}`, modes: modeExact, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if z.I64 != math.MinInt64 {
				t.Errorf("i64 = %d", z.I64)
			}
		})},
		{name: "int64 overflow", json: `{"i64":9223372036854775808}`, modes: modeExact, want: errs("/i64", ErrType)},
		{name: "negative into uint", json: `{"u":-1}`, want: errs("/u", ErrType)},
		{name: "minus zero into uint", json: `{"u":-0}`},
		{name: "overflow int8", json: `{"i8":128}`, want: errs("/i8", ErrType)},
		{name: "underflow int8", json: `{"i8":-129}`, want: errs("/i8", ErrType)},
		{name: "overflow uint8", json: `{"u8":256}`, want: errs("/u8", ErrType)},
		{name: "overflow float32", json: `{"f32":1e39}`, want: errs("/f32", ErrType)},
		{name: "overflow float64", json: `{"f":1e400}`, modes: modeExact, want: errs("/f", ErrType), reason: "json.Unmarshal cannot build the float map"},
		{name: "fraction in exponent form", json: `{"i":15e-1}`, want: errs("/i", ErrType)},
		{name: "enum miss", json: `{"enum":"K"}`, want: errs("/enum", ErrConstraint)},
		{name: "enum int miss", json: `{"enumi":4}`, want: errs("/enumi", ErrConstraint)},
		{name: "const miss", json: `{"const":"v2"}`, want: errs("/const", ErrConstraint)},
		{name: "over maximum", json: `{"max":11}`, want: errs("/max", ErrConstraint)},
		{name: "at maximum", json: `{"max":10}`},
		{name: "exclusive bound hit exactly", json: `{"exmin":0}`, want: errs("/exmin", ErrConstraint)},
		{name: "exclusive bound just above", json: `{"exmin":1e-300}`},
		{name: "multipleOf miss", json: `{"mult":7}`, want: errs("/mult", ErrConstraint)},
		{name: "multipleOf float", json: `{"multf":0.7}`},
		{name: "multipleOf float miss", json: `{"multf":0.35}`, want: errs("/multf", ErrConstraint)},
		{name: "uint enum miss", json: `{"uenum":3}`, want: errs("/uenum", ErrConstraint)},
		{name: "uint maximum", json: `{"umul":12}`, want: errs("/umul", ErrConstraint)},
		{name: "uint multipleOf", json: `{"umul":3}`, want: errs("/umul", ErrConstraint)},
		{name: "type enum", json: `{"cabin":"first","cabs":["economy"]}`},
		{name: "type enum miss", json: `{"cabin":"business","cabs":["economy","coach"]}`, want: errs("/cabin", ErrConstraint, "/cabs/1", ErrConstraint),
			reason: "cabin has an Enum method; the schema lists its values"},
		{name: "enum tag replaces the type enum", typ: reflect.TypeFor[cabinOverride](), json: `{"c":"premium"}`},
		{name: "enum tag replaces the type enum miss", typ: reflect.TypeFor[cabinOverride](), json: `{"c":"economy"}`,
			want: errs("/c", ErrConstraint)},
		{name: "float enum", json: `{"fenum":1.5}`},
		{name: "float enum miss", json: `{"fenum":1}`, want: errs("/fenum", ErrConstraint)},
		{name: "unique structs", json: `{"uitems":[{"n":1},{"n":2},{"n":1}]}`, want: errs("/uitems", ErrConstraint)},
		{name: "unique any", json: `{"uany":[{"a":[1]},2,{"a":[1]}]}`, want: errs("/uany", ErrConstraint)},
		{name: "unique any distinct", json: `{"uany":[{"a":[1]},{"a":[2]}]}`},
		{name: "pattern mismatch", json: `{"pat":"fra"}`, want: errs("/pat", ErrConstraint)},
		{name: "minLength counts runes", json: `{"s":"é"}`, want: errs("/s", ErrConstraint), reason: "é is 2 bytes but 1 code point"},
		{name: "maxLength counts runes", json: `{"s":"héllo"}`},
		{name: "maxLength exceeded", json: `{"s":"héllo!"}`, want: errs("/s", ErrConstraint)},
		{name: "formats bad", json: `{"dt":"2026-13-01T00:00:00Z","date":"2026-02-30","time":"25:00:00Z",
			"email":"no-at","uuid":"123","ipv4":"1.2.3","ipv6":"1.2.3.4","uri":"relative/path","host":"-bad-.com"}`,
			want: errs("/dt", ErrConstraint, "/date", ErrConstraint, "/time", ErrConstraint, "/email", ErrConstraint,
				"/uuid", ErrConstraint, "/ipv4", ErrConstraint, "/ipv6", ErrConstraint, "/uri", ErrConstraint, "/host", ErrConstraint)},
		{name: "duplicate key", json: `{"i":1,"i":2}`, modes: modeJSON, want: errs("/i", ErrDuplicateKey)},
		{name: "duplicate unknown key", json: `{"zz":1,"zz":2}`, modes: modeJSON, want: errs("/zz", ErrUnknownField, "/zz", ErrDuplicateKey)},
		{name: "duplicate key in any", json: `{"any":{"a":1,"a":2}}`, modes: modeJSON, want: errs("/any/a", ErrDuplicateKey)},
		{name: "duplicate key in map field", json: `{"m":{"a":1,"a":2}}`, modes: modeJSON, want: errs("/m/a", ErrDuplicateKey)},
		{name: "duplicate integer key", json: `{"mi":{"1":"a","1":"b"}}`, modes: modeJSON, want: errs("/mi/1", ErrDuplicateKey)},
		// Integer keys only in the canonical form of the schema's
		// propertyNames pattern, so "1" and "01" never name one entry.
		{name: "non-canonical integer keys", json: `{"mi":{"1":"a","01":"b","+2":"c","-0":"d","00":"e","-":"f","":"g"}}`,
			want: errs("/mi/", ErrType, "/mi/+2", ErrType, "/mi/-", ErrType, "/mi/-0", ErrType, "/mi/00", ErrType, "/mi/01", ErrType)},
		{name: "canonical integer keys", json: `{"mi":{"0":"a","-1":"b","9223372036854775807":"c","-9223372036854775808":"d"}}`},
		{name: "depth 10000 in any", json: `{"any":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
			modes: modeJSON, want: errs("", ErrTooDeep)},
		{name: "depth 10000 in unknown key", json: `{"zz":` + strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000) + `}`,
			modes: modeJSON, want: errs("", ErrTooDeep)},
		{name: "depth 600 through a recursive type", json: nested("next", 600, "{}"), want: errs("", ErrTooDeep)},
		{name: "depth 100 through a recursive type", json: nested("next", 100, "{}")},
		{name: "cyclic map", m: cyclic, modes: modeGoMap, want: errs("", ErrTooDeep)},
		{name: "deep map", m: deepMap, modes: modeGoMap, want: errs("", ErrTooDeep)},
		{name: "depth 1000 in any", json: `{"any":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`, want: errs("", ErrTooDeep)},
		{name: "depth 1000 in raw", json: `{"raw":` + strings.Repeat(`{"a":`, 1000) + "1" + strings.Repeat("}", 1000) + `}`, want: errs("", ErrTooDeep)},
		{name: "cyclic map in any is too deep", m: map[string]any{"any": cyclic}, modes: modeGoMap, want: errs("", ErrTooDeep)},
		{name: "cyclic map in raw is too deep", m: map[string]any{"raw": cyclic}, modes: modeGoMap, want: errs("", ErrTooDeep)},
		{name: "cyclic map under an unknown key", m: map[string]any{"zz": cyclic, "i": []any{cyclic}}, modes: modeGoMap,
			want: errs("/zz", ErrUnknownField, "/i", ErrType), reason: "rendering Got must stop"},
		{name: "time good", json: `{"t":"2026-03-14T09:30:00.5+02:00"}`, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if want := time.Date(2026, 3, 14, 7, 30, 0, 5e8, time.UTC); !z.T.Equal(want) {
				t.Errorf("t = %v, want %v", z.T, want)
			}
		})},
		{name: "time bad", json: `{"t":"yesterday"}`, want: errs("/t", ErrType)},
		{name: "time not a string", json: `{"t":5}`, want: errs("/t", ErrType)},
		{name: "time null", json: `{"t":null}`, want: errs("/t", ErrType)},
		{name: "bytes good", json: `{"bytes":"aGk="}`, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if string(z.Bytes) != "hi" {
				t.Errorf("bytes = %q", z.Bytes)
			}
		})},
		{name: "bytes bad", json: `{"bytes":"!!!"}`, want: errs("/bytes", ErrType)},
		{name: "bytes null", json: `{"bytes":null}`},
		{name: "text unmarshaler bad", json: `{"color":"red"}`, want: errs("/color", ErrType)},
		{name: "text unmarshaler not a string", json: `{"color":5}`, want: errs("/color", ErrType)},
		{name: "text unmarshaler behind a pointer", json: `{"pcol":"#010203"}`, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if diff := cmp.Diff(&color{1, 2, 3}, z.PCol); diff != "" {
				t.Errorf("pcol (-want +got):\n%s", diff)
			}
		})},
		{name: "json unmarshaler number", json: `{"temp":-3.5}`, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if z.Temp != -3.5 {
				t.Errorf("temp = %v", z.Temp)
			}
		})},
		{name: "json unmarshaler error", json: `{"temp":"hot"}`, want: errs("/temp", ErrType),
			checkErr: func(t *testing.T, err error) {
				if !errors.Is(err, errNotCelsius) {
					t.Errorf("errors.Is(%v, errNotCelsius) = false, want true (the cause is kept)", err)
				}
			}},
		{name: "pointer null", json: `{"ptr":null}`, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if z.Ptr != nil {
				t.Errorf("ptr = %v", z.Ptr)
			}
		})},
		{name: "pointer constraint", json: `{"ps":"ab"}`, want: errs("/ps", ErrConstraint)},
		{name: "slice null", json: `{"sl":null}`, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if z.Sl != nil {
				t.Errorf("sl = %v", z.Sl)
			}
		})},
		{name: "slice empty", json: `{"sl":[]}`, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			// cmp tells nil from empty: the slice must be empty and not nil.
			if diff := cmp.Diff([]int{}, z.Sl); diff != "" {
				t.Errorf("sl (-want +got):\n%s", diff)
			}
		})},
		{name: "slice grows", json: `{"deep":[["a","b","c","d","e","f","g","h","i"],["j"]]}`, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			want := [][]string{{"a", "b", "c", "d", "e", "f", "g", "h", "i"}, {"j"}}
			if diff := cmp.Diff(want, z.Deep); diff != "" {
				t.Errorf("deep (-want +got):\n%s", diff)
			}
		})},
		{name: "uniqueItems", json: `{"sl":[1,2,1]}`, want: errs("/sl", ErrConstraint)},
		{name: "maxItems", json: `{"sl":[1,2,3,4]}`, want: errs("/sl", ErrConstraint)},
		{name: "minItems", json: `{"strs":[]}`, want: errs("/strs", ErrConstraint)},
		{name: "array too short", json: `{"arr":[1]}`, want: errs("/arr", ErrConstraint)},
		{name: "array too long", json: `{"arr":[1,2,3]}`, want: errs("/arr", ErrConstraint)},
		{name: "array null", json: `{"arr":null}`, want: errs("/arr", ErrType)},
		{name: "int null", json: `{"i":null}`, want: errs("/i", ErrType)},
		{name: "struct null", json: `{"items":[null]}`, want: errs("/items/0", ErrType)},
		{name: "maxProperties", json: `{"m":{"a":1,"b":2,"c":3}}`, want: errs("/m", ErrConstraint)},
		{name: "map value type", json: `{"m":{"a":"x"}}`, want: errs("/m/a", ErrType)},
		{name: "integer map key", json: `{"mi":{"x":"a"}}`, want: errs("/mi/x", ErrType)},
		{name: "nested paths", json: `{"items":[{"n":1},{"n":-1},{"n":"x"},{}]}`,
			want: errs("/items/1/n", ErrConstraint, "/items/2/n", ErrType, "/items/3/n", ErrMissing)},
		{name: "pointer escaping", json: `{"a/b~c":1}`, want: errs("/a~1b~0c", ErrUnknownField)},
		{name: "any keeps big number", json: `{"any":9007199254740993}`, modes: modeExact, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if z.Any != json.Number("9007199254740993") {
				t.Errorf("any = %#v, want json.Number", z.Any)
			}
		})},
		{name: "any nested", json: `{"any":{"a":[1,"x",true,null,{}]}}`, modes: modeExact, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			want := map[string]any{"a": []any{json.Number("1"), "x", true, nil, map[string]any{}}}
			if !reflect.DeepEqual(z.Any, want) {
				t.Errorf("any = %#v, want %#v", z.Any, want)
			}
		})},
		{name: "any from a float map", json: `{"any":[1.5]}`, modes: modeFloatMap, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if !reflect.DeepEqual(z.Any, []any{1.5}) {
				t.Errorf("any = %#v", z.Any)
			}
		})},
		{name: "raw message exact bytes", json: `{"raw": {"b" : [1, 2]} }`, modes: modeJSON, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if string(z.Raw) != `{"b" : [1, 2]}` {
				t.Errorf("raw = %s", z.Raw)
			}
		})},
		{name: "raw message from a map", json: `{"raw": {"b" : [1, 2]} }`, modes: modeFloatMap | modeNumMap, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if string(z.Raw) != `{"b":[1,2]}` {
				t.Errorf("raw = %s", z.Raw)
			}
		})},
		{name: "raw message null", json: `{"raw":null}`, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if string(z.Raw) != "null" {
				t.Errorf("raw = %s", z.Raw)
			}
		})},
		{name: "many errors", json: many.String(), want: nil, checkErr: func(t *testing.T, err error) {
			var ae *ArgErrors
			if !errors.As(err, &ae) {
				t.Fatalf("err = %v (%T), want *ArgErrors", err, err)
			}
			type counts struct{ Errs, Omitted int }
			if diff := cmp.Diff(counts{Errs: MaxErrors, Omitted: 5}, counts{len(ae.Errs), ae.Omitted}); diff != "" {
				t.Fatalf("err = %v: counts (-want +got):\n%s", err, diff)
			}
			for _, e := range ae.Errs {
				if !errors.Is(e, ErrUnknownField) {
					t.Errorf("error %v is not ErrUnknownField", e)
				}
			}
		}},
		{name: "invalid UTF-8", json: "{\"s\":\"a\xffb\"}", modes: modeJSON, want: errs("", ErrSyntax),
			reason: "JSON text must be UTF-8; encoding/json would replace the byte instead"},
		{name: "invalid UTF-8 in a key", json: "{\"\xfe\":1}", modes: modeJSON, want: errs("", ErrSyntax)},
		{name: "lone surrogate", json: `{"s":"\ud800x"}`, modes: modeJSON, want: errs("/s", ErrSyntax),
			reason: "one rule with the reply reader: refused, not read as U+FFFD as encoding/json reads it"},
		{name: "lone low surrogate", json: `{"s":"ab\uDC00"}`, modes: modeJSON, want: errs("/s", ErrSyntax)},
		{name: "surrogates in the wrong order", json: `{"s":"\udc00\ud800"}`, modes: modeJSON, want: errs("/s", ErrSyntax)},
		{name: "high surrogate before another escape", json: `{"s":"\ud800\u0041"}`, modes: modeJSON, want: errs("/s", ErrSyntax)},
		{name: "lone surrogate in a slice", json: `{"strs":["a","\ud83d"]}`, modes: modeJSON, want: errs("/strs/1", ErrSyntax)},
		{name: "lone surrogate in an any value", json: `{"any":{"k":[1,"\ud800"]}}`, modes: modeJSON, want: errs("/any/k/1", ErrSyntax)},
		{name: "lone surrogate in a key", json: `{"ma":{"\ud800":1}}`, modes: modeJSON, want: errs("/ma", ErrSyntax)},
		{name: "lone surrogate in an unknown key's value", json: `{"nope":{"k":"\udfff"}}`, modes: modeJSON, want: errs("", ErrSyntax)},
		{name: "escaped U+FFFD", json: `{"s":"\ufffdx"}`, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if z.S != "\uFFFDx" {
				t.Errorf("s = %q", z.S)
			}
		})},
		{name: "surrogate bytes in map input", m: map[string]any{"s": "\xed\xa0\x80x"}, modes: modeGoMap, want: errs("/s", ErrSyntax),
			reason: "a Go string cannot spell a lone surrogate but as bytes that are not UTF-8: refused too"},
		{name: "surrogate pair and escapes", json: `{"s":"\ud83d\ude00\n\u00e9"}`, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if z.S != "😀\né" {
				t.Errorf("s = %q", z.S)
			}
		})},
		{name: "escaped key", json: `{"\u0073":"ab"}`, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			if z.S != "ab" {
				t.Errorf("s = %q", z.S)
			}
		})},
		{name: "syntax: unterminated", json: `{"s":"ab"`, modes: modeJSON, want: errs("", ErrSyntax)},
		{name: "syntax: missing value", json: `{"s":}`, modes: modeJSON, want: errs("", ErrSyntax)},
		{name: "syntax: trailing comma", json: `{"i":1,}`, modes: modeJSON, want: errs("", ErrSyntax)},
		{name: "syntax: trailing text", json: `{} x`, modes: modeJSON, want: errs("", ErrSyntax)},
		{name: "syntax: leading zero", json: `{"i":01}`, modes: modeJSON, want: errs("", ErrSyntax)},
		{name: "syntax: bare decimal point", json: `{"f":1.}`, modes: modeJSON, want: errs("", ErrSyntax)},
		{name: "syntax: single quotes", json: `{'s':1}`, modes: modeJSON, want: errs("", ErrSyntax)},
		{name: "syntax: control character", json: "{\"s\":\"a\x01\"}", modes: modeJSON, want: errs("", ErrSyntax)},
		{name: "syntax: bad escape", json: `{"s":"\x"}`, modes: modeJSON, want: errs("", ErrSyntax)},
		{name: "syntax: bad literal", json: `{"b":tru}`, modes: modeJSON, want: errs("", ErrSyntax)},
		{name: "syntax error replaces other errors", json: `{"i":"x","zz":1,`, modes: modeJSON, want: errs("", ErrSyntax)},
		{name: "root array", json: `[1]`, modes: modeJSON, want: errs("", ErrType)},
		{name: "root string", json: `"x"`, modes: modeJSON, want: errs("", ErrType)},
		{name: "embedded fields", typ: embeddedType, json: `{"id":"1","extra":3,"title":"t"}`,
			check: func(t *testing.T, v any, _ mode) {
				want := &embedded{Base: Base{ID: "1"}, Other: &Other{Extra: 3}, Title: "t"}
				if diff := cmp.Diff(want, v.(*embedded)); diff != "" {
					t.Errorf("decoded embedded (-want +got):\n%s", diff)
				}
			}},
		{name: "embedded conflict drops the name", typ: embeddedType, json: `{"id":"1","name":"x"}`, want: errs("/name", ErrUnknownField),
			reason: "Base.Name and Other.Name are at the same depth, both tagged"},
		{name: "embedded required", typ: embeddedType, json: `{}`, want: errs("/id", ErrMissing)},
		{name: "dominance", typ: dominanceType, json: `{"id":5,"V":"s","name":"n"}`, check: func(t *testing.T, v any, _ mode) {
			// The outer ID takes "id", so Base.ID stays empty.
			want := &dominance{Base: Base{ID: "", Name: "n"}, tagged: tagged{V: "s"}, ID: 5}
			if diff := cmp.Diff(want, v.(*dominance), cmp.AllowUnexported(dominance{})); diff != "" {
				t.Errorf("decoded dominance (-want +got):\n%s", diff)
			}
		}},
		{name: "dominance types", typ: dominanceType, json: `{"id":"x","V":1}`, want: errs("/id", ErrType, "/V", ErrType)},
		{name: "dominance required", typ: dominanceType, json: `{}`, want: errs("/id", ErrMissing, "/V", ErrMissing)},
		{name: "recursive type", typ: treeType, json: `{"name":"a","children":[{"name":"b","next":{"name":"c"}}]}`,
			check: func(t *testing.T, v any, _ mode) {
				if tr := v.(*tree); tr.Children[0].Next.Name != "c" {
					t.Errorf("got %+v", tr)
				}
			}},
		{name: "recursive map and slice types", typ: reflect.TypeFor[recHolder](), json: `{"m":{"a":{"b":{}}},"s":[[],[[]]]}`,
			check: func(t *testing.T, v any, _ mode) {
				// Empty objects and arrays decode to empty, not nil, values.
				want := &recHolder{M: recMap{"a": {"b": {}}}, S: recSlice{{}, {{}}}}
				if diff := cmp.Diff(want, v.(*recHolder)); diff != "" {
					t.Errorf("decoded recHolder (-want +got):\n%s", diff)
				}
			}},
		{name: "recursive slice too deep", typ: reflect.TypeFor[recHolder](), json: `{"s":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
			want: errs("", ErrTooDeep)},
		{name: "Go numeric kinds", modes: modeGoMap, m: map[string]any{
			"i": int(3), "i8": int8(-5), "u": uint16(7), "u64": uint64(1 << 63), "f": float32(0.5),
			"f32": 2, "i64": json.Number("9007199254740993"), "max": myInt(4), "u8": uint8(200), "mult": int64(10),
			"enumi": int32(3), "s": myString("abc"),
		}, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			want := &zoo{I: 3, I8: -5, U: 7, U64: 1 << 63, F: 0.5, F32: 2, I64: 9007199254740993, Max: 4, U8: 200, Mult: 10, EnumI: 3, S: "abc"}
			if diff := cmp.Diff(want, z); diff != "" {
				t.Errorf("decoded zoo (-want +got):\n%s", diff)
			}
		})},
		{name: "json.Number that is not a number", modes: modeGoMap, m: map[string]any{"i": json.Number("abc"), "f": json.Number("1e")},
			want: errs("/i", ErrType, "/f", ErrType)},
		{name: "NaN and Inf", modes: modeGoMap, m: map[string]any{"f": math.NaN(), "exmin": math.Inf(1), "i": math.Inf(-1)},
			want: errs("/f", ErrType, "/exmin", ErrType, "/i", ErrType)},
		{name: "typed Go values", modes: modeGoMap, m: map[string]any{
			"strs": []string{"a"}, "m": map[string]int{"a": 1}, "items": []item{{N: 1}}, "next": &zoo{S: "ab"},
			"t": time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "bytes": []byte("hi"), "arr": [2]int{1, 2},
		}, check: zooCheck(func(t *testing.T, z *zoo, _ mode) {
			want := &zoo{
				Strs: []string{"a"}, M: map[string]int{"a": 1}, Items: []item{{N: 1}}, Next: &zoo{S: "ab"},
				T: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Bytes: []byte("hi"), Arr: [2]int{1, 2},
			}
			if diff := cmp.Diff(want, z); diff != "" {
				t.Errorf("decoded zoo (-want +got):\n%s", diff)
			}
		})},
		{name: "typed Go values are validated", modes: modeGoMap, m: map[string]any{"items": []item{{N: -1}}, "sl": []int{1, 1}},
			want: errs("/items/0/n", ErrConstraint, "/sl", ErrConstraint)},
		{name: "unsupported Go values", modes: modeGoMap, m: map[string]any{"s": make(chan int), "items": make(chan int), "raw": make(chan int), "next": func() {}},
			want: errs("/s", ErrType, "/items", ErrType, "/raw", ErrType, "/next", ErrType)},
	}
}

// mapsOf returns the map forms of a row's JSON text.
func mapsOf(t *testing.T, text string, modes mode) (floatMap, numMap map[string]any) {
	t.Helper()
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	if modes&modeFloatMap == 0 {
		// only the number map
	} else if err := json.Unmarshal([]byte(text), &floatMap); err != nil {
		t.Fatalf("json.Unmarshal(%.60q) for the float map: %v", text, err)
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&numMap); err != nil {
		t.Fatalf("json.Unmarshal(%.60q) for the number map: %v", text, err)
	}
	return floatMap, numMap
}

// gotErrs returns the problems in err as (path, sentinel) pairs, sorted.
func gotErrs(t *testing.T, err error) []wantErr {
	t.Helper()
	if err == nil {
		return nil
	}
	var ae *ArgErrors
	if !errors.As(err, &ae) {
		t.Fatalf("error %v (%T) is not an *ArgErrors", err, err)
	}
	var out []wantErr
	for _, e := range ae.Errs {
		var s error
		for _, sentinel := range []error{ErrType, ErrMissing, ErrUnknownField, ErrConstraint, ErrSyntax, ErrDuplicateKey, ErrTooDeep} {
			if errors.Is(e, sentinel) {
				s = sentinel
			}
		}
		if s == nil {
			t.Errorf("error %v wraps no sentinel", e)
		}
		if !strings.Contains(e.Error(), "expected "+e.Want+", got "+e.Got) || (e.Path != "" && !strings.HasPrefix(e.Error(), e.Path+": ")) {
			t.Errorf("Error() = %q does not have the shape PATH: expected WANT, got GOT", e.Error())
		}
		out = append(out, wantErr{e.Path, s})
	}
	sortErrs(out)
	return out
}

func sortErrs(es []wantErr) {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].path != es[j].path {
			return es[i].path < es[j].path
		}
		return es[i].err.Error() < es[j].err.Error()
	})
}

func TestDecode(t *testing.T) {
	names := map[string]bool{}
	for _, tc := range decodeCases() {
		if names[tc.name] {
			t.Fatalf("duplicate row name %q", tc.name)
		}
		names[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			typ := tc.typ
			if typ == nil {
				typ = zooType
			}
			p, err := PlanFor(typ)
			if err != nil {
				t.Fatalf("PlanFor(%v): %v", typ, err)
			}
			modes := tc.modes
			if modes == 0 {
				modes = modeAll
			}
			var floatMap, numMap map[string]any
			if modes&(modeFloatMap|modeNumMap) != 0 {
				floatMap, numMap = mapsOf(t, tc.json, modes)
			}
			want := append([]wantErr(nil), tc.want...)
			sortErrs(want)
			for _, m := range []mode{modeJSON, modeFloatMap, modeNumMap, modeGoMap} {
				if modes&m == 0 {
					continue
				}
				v := reflect.New(typ)
				var err error
				switch m {
				case modeJSON:
					err = p.DecodeJSON(v.UnsafePointer(), []byte(tc.json))
				case modeFloatMap:
					err = p.DecodeMap(v.UnsafePointer(), floatMap)
				case modeNumMap:
					err = p.DecodeMap(v.UnsafePointer(), numMap)
				case modeGoMap:
					err = p.DecodeMap(v.UnsafePointer(), tc.m)
				}
				if tc.checkErr != nil {
					tc.checkErr(t, err)
				} else if got := gotErrs(t, err); !reflect.DeepEqual(got, want) {
					t.Errorf("%v: errors = %v (%v), want %v", m, got, err, want)
				}
				if tc.check != nil && err == nil {
					tc.check(t, v.Interface(), m)
				}
			}
		})
	}
}

// TestDecodeNilError checks that success is a nil interface, not a typed nil.
func TestDecodeNilError(t *testing.T) {
	p := mustPlan(t, weatherType)
	var w weather
	var err error = p.DecodeJSON(unsafe.Pointer(&w), []byte(`{"city":"x","forced":1}`))
	if err != nil {
		t.Fatalf("DecodeJSON = %#v, want nil interface", err)
	}
	if err = p.DecodeMap(unsafe.Pointer(&w), map[string]any{"city": "x", "forced": 1.0}); err != nil {
		t.Fatalf("DecodeMap = %#v, want nil interface", err)
	}
}

// TestArgErrorMessage checks the parts of messages a model acts on, as data.
func TestArgErrorMessage(t *testing.T) {
	p := mustPlan(t, weatherType)
	var w weather
	err := p.DecodeJSON(unsafe.Pointer(&w), []byte(`{"city":"`+strings.Repeat("x", 100)+`","forced":1,"unit":"K","days":2.5,"Color":"red"}`))
	var ae *ArgErrors
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v (%T), want *ArgErrors", err, err)
	}
	type message struct{ Path, Want, Got string }
	const listsKeys = "(lists city, unit, days)"
	var got []message
	for _, e := range ae.Errs {
		m := message{e.Path, e.Want, e.Got}
		// Only that the known keys are listed, in order, matters here.
		if e.Path == "/Color" && strings.Contains(e.Want, "city, unit, days") {
			m.Want = listsKeys
		}
		got = append(got, m)
	}
	want := []message{
		{"/Color", listsKeys, `"red"`},
		{"/days", "integer", "2.5"},
		{"/unit", `one of "C", "F"`, `"K"`},
	}
	byPath := cmpopts.SortSlices(func(a, b message) bool { return a.Path < b.Path })
	if diff := cmp.Diff(want, got, byPath); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	err = p.DecodeMap(unsafe.Pointer(&w), map[string]any{"forced": 1.0, "days": strings.Repeat("y", 100)})
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v", err)
	}
	for _, e := range ae.Errs {
		if len(e.Got) > maxGot+len(`""… (100 bytes)`) {
			t.Errorf("%s: Got is %d bytes, want about %d", e.Path, len(e.Got), maxGot)
		}
		if e.Path != "/city" {
			continue
		}
		if diff := cmp.Diff(message{"/city", "string (required)", "nothing"}, message{e.Path, e.Want, e.Got}); diff != "" {
			t.Errorf("problem (-want +got):\n%s", diff)
		}
	}
	if got := (&ArgError{Want: "object", Got: "[1]", Err: ErrType}).Error(); got != "expected object, got [1]" {
		t.Errorf("Error() without path = %q", got)
	}
}

// TestDecodeMapNilRoots covers nil and map/any roots.
func TestDecodeMapNilRoots(t *testing.T) {
	pm := mustPlan(t, reflect.TypeFor[map[string]int]())
	var m map[string]int
	// cmp tells a nil map from an empty one: nil input gives an empty map.
	if err := pm.DecodeMap(unsafe.Pointer(&m), nil); err != nil {
		t.Errorf("DecodeMap(nil) into map: %v", err)
	}
	if diff := cmp.Diff(map[string]int{}, m); diff != "" {
		t.Errorf("DecodeMap(nil) into map (-want +got):\n%s", diff)
	}
	m = nil
	if err := pm.DecodeJSON(unsafe.Pointer(&m), []byte(`{"a":1,"b":2.5}`)); err == nil {
		t.Errorf("DecodeJSON into map = %v, nil; want an error for b", m)
	}
	if diff := cmp.Diff(1, m["a"]); diff != "" {
		t.Errorf("DecodeJSON into map: a (-want +got):\n%s", diff)
	}
	m = nil
	err := pm.DecodeMap(unsafe.Pointer(&m), map[string]any{"a": 1.0, "b": "x"})
	if diff := cmp.Diff(errs("/b", ErrType), gotErrs(t, err), cmp.AllowUnexported(wantErr{}), cmpopts.EquateErrors()); diff != "" {
		t.Errorf("DecodeMap into map: errors (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(1, m["a"]); diff != "" {
		t.Errorf("DecodeMap into map: a (-want +got):\n%s", diff)
	}
	pa := mustPlan(t, reflect.TypeFor[any]())
	var a any
	if err := pa.DecodeJSON(unsafe.Pointer(&a), []byte(`{"n":1}`)); err != nil {
		t.Errorf("DecodeJSON into any: %v", err)
	}
	if diff := cmp.Diff(any(map[string]any{"n": json.Number("1")}), a); diff != "" {
		t.Errorf("DecodeJSON into any (-want +got):\n%s", diff)
	}
	a = nil
	if err := pa.DecodeMap(unsafe.Pointer(&a), nil); err != nil {
		t.Errorf("DecodeMap(nil) into any: %v", err)
	}
	if diff := cmp.Diff(any(map[string]any{}), a); diff != "" {
		t.Errorf("DecodeMap(nil) into any (-want +got):\n%s", diff)
	}
}

// raceEnabled is set by race_test.go under -race.
var raceEnabled bool

// TestAllocs checks that a warm decode allocates no more than the floor.
func TestAllocs(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts (the race detector changes them)")
	}
	p := mustPlan(t, reflect.TypeFor[benchdata.Args]())
	m := benchdata.SampleMap()
	var a benchdata.Args
	floor := testing.AllocsPerRun(100, func() { _, _ = benchdata.DecodeByHand(m) })
	got := testing.AllocsPerRun(100, func() {
		a = benchdata.Args{}
		if err := p.DecodeMap(unsafe.Pointer(&a), m); err != nil {
			t.Fatal(err)
		}
	})
	if got > floor {
		t.Errorf("DecodeMap allocates %v per run, the hand-written floor %v", got, floor)
	}
	// From JSON the strings must be allocated: 9 strings, 2 slices, 1 pointer.
	got = testing.AllocsPerRun(100, func() {
		a = benchdata.Args{}
		if err := p.DecodeJSON(unsafe.Pointer(&a), benchdata.SampleJSON); err != nil {
			t.Fatal(err)
		}
	})
	if got > 12 {
		t.Errorf("DecodeJSON allocates %v per run, want at most 12", got)
	}
}

// TestDecodeJSONDoesNotAliasInput checks that decoded strings and raw
// messages survive the caller reusing its buffer.
func TestDecodeJSONDoesNotAliasInput(t *testing.T) {
	p := mustPlan(t, zooType)
	buf := []byte(`{"s":"abc","raw":[1],"bytes":"aGk=","strs":["x"]}`)
	var z zoo
	if err := p.DecodeJSON(unsafe.Pointer(&z), buf); err != nil {
		t.Fatal(err)
	}
	for i := range buf {
		buf[i] = ' '
	}
	want := zoo{S: "abc", Raw: json.RawMessage("[1]"), Bytes: []byte("hi"), Strs: []string{"x"}}
	if diff := cmp.Diff(want, z); diff != "" {
		t.Errorf("after reuse (-want +got):\n%s", diff)
	}

}

func (w wantErr) String() string { return w.path + " (" + w.err.Error() + ")" }
