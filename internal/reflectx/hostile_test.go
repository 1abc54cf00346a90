package reflectx

import (
	"encoding/json"
	"errors"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// payloads has a field of every kind whose map-input value is kept or
// marshalled as it is.
type payloads struct {
	Any   any               `json:"any,omitempty"`
	Raw   json.RawMessage   `json:"raw,omitempty"`
	JSONU *celsius          `json:"jsonu,omitempty"`
	Map   map[string]any    `json:"map,omitempty"`
	Typed map[string][]any  `json:"typed,omitempty"`
	Slice []map[string]any  `json:"slice,omitempty"`
	Strs  map[string]string `json:"strs,omitempty"`
	Tree  *tree             `json:"tree,omitempty"`
}

var payloadFields = []string{"any", "raw", "jsonu", "map", "typed", "slice", "tree"}

// deepMap nests n levels of {"a": ...} (with "name" for tree).
func deepValue(n int) map[string]any {
	v := map[string]any{"name": "leaf"}
	for i := 0; i < n; i++ {
		v = map[string]any{"name": "x", "next": v, "a": []any{}}
	}
	return v
}

func decodePayloads(t *testing.T, m map[string]any) error {
	t.Helper()
	p := mustPlan(t, reflect.TypeFor[payloads]())
	var dst payloads
	return p.DecodeMap(unsafe.Pointer(&dst), m)
}

// TestDeepMapInput: map input nested deeper than MaxDepth, or cyclic, is
// ErrTooDeep in every kind of field, as the same nesting in JSON text is;
// at 500,000 levels nothing recurses that deep (json.Marshal would die of
// a stack overflow no recover catches).
func TestDeepMapInput(t *testing.T) {
	for _, depth := range []int{1000, 500_000} {
		v := deepValue(depth)
		for _, f := range payloadFields {
			arg := any(v)
			if f == "typed" {
				arg = map[string]any{"k": []any{v}}
			}
			if f == "slice" {
				arg = []any{v}
			}
			if err := decodePayloads(t, map[string]any{f: arg}); !errors.Is(err, ErrTooDeep) {
				t.Errorf("depth %d in %s: err = %.200v, want ErrTooDeep", depth, f, err)
			}
		}
	}
	// The same verdict for the same nesting as JSON text.
	text, err := json.Marshal(map[string]any{"any": deepValue(600)})
	if err != nil {
		t.Fatal(err)
	}
	p := mustPlan(t, reflect.TypeFor[payloads]())
	var dst payloads
	if err := p.DecodeJSON(unsafe.Pointer(&dst), text); !errors.Is(err, ErrTooDeep) {
		t.Errorf("JSON text: err = %.200v, want ErrTooDeep", err)
	}
	if err := decodePayloads(t, map[string]any{"any": deepValue(200)}); err != nil {
		t.Errorf("depth 200: %v", err)
	}
}

func TestCyclicMapInput(t *testing.T) {
	cyc := map[string]any{"name": "x"}
	cyc["next"] = cyc
	cycSlice := []any{nil}
	cycSlice[0] = cycSlice
	type self struct {
		P *self
		M map[string]any
	}
	s := &self{}
	s.P = s
	for _, f := range payloadFields {
		for name, v := range map[string]any{"map": cyc, "slice": cycSlice, "struct": s} {
			arg := v
			if f == "typed" {
				arg = map[string]any{"k": []any{v}}
			}
			if f == "slice" {
				arg = []any{v}
			}
			err := decodePayloads(t, map[string]any{f: arg})
			if err == nil {
				t.Errorf("cyclic %s in %s accepted", name, f)
			}
			var ae *ArgErrors
			if errors.As(err, &ae) && !errors.Is(err, ErrTooDeep) && !errors.Is(err, ErrType) {
				t.Errorf("cyclic %s in %s: err = %v, want ErrTooDeep or ErrType", name, f, err)
			}
		}
	}
}

// TestSharedSubtreesBounded: a map that shares one subtree 2^40 times is
// stopped by MaxBytes, counting each appearance, long before it is walked.
func TestSharedSubtreesBounded(t *testing.T) {
	v := any("x")
	for i := 0; i < 40; i++ {
		v = []any{v, v}
	}
	for _, f := range payloadFields {
		if f == "jsonu" || f == "tree" {
			continue
		}
		arg := v
		if f == "map" || f == "raw" {
			arg = map[string]any{"k": v}
		}
		if f == "typed" {
			arg = map[string]any{"k": v}
		}
		if f == "slice" {
			arg = []any{map[string]any{"k": v}}
		}
		if err := decodePayloads(t, map[string]any{f: arg}); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: err = %.200v, want ErrTooLarge", f, err)
		}
	}
}

func TestMaxBytes(t *testing.T) {
	p := mustPlan(t, reflect.TypeFor[payloads]())
	text := []byte(`{"any":"` + strings.Repeat("x", 100) + `"}`)
	var dst payloads
	if err := p.DecodeJSONLimits(unsafe.Pointer(&dst), text, Limits{MaxBytes: 50}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("JSON: err = %v, want ErrTooLarge", err)
	}
	if err := p.DecodeJSONLimits(unsafe.Pointer(&dst), text, Limits{MaxBytes: -1}); err != nil {
		t.Errorf("JSON without a bound: %v", err)
	}
	m := map[string]any{"any": strings.Repeat("x", 100)}
	if err := p.DecodeMapLimits(unsafe.Pointer(&dst), m, Limits{MaxBytes: 50}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("map: err = %v, want ErrTooLarge", err)
	}
	if err := p.DecodeMapLimits(unsafe.Pointer(&dst), m, Limits{MaxBytes: 200}); err != nil {
		t.Errorf("map under the bound: %v", err)
	}
}

// TestSameVerdictUTF8: invalid UTF-8 is rejected from maps as from text.
func TestSameVerdictUTF8(t *testing.T) {
	bad := "a\xffb"
	for _, m := range []map[string]any{
		{"any": bad},
		{"any": map[string]any{bad: 1}},
		{"map": map[string]any{"k": []any{bad}}},
		{"map": map[string]any{bad: 1}},
		{"strs": map[string]any{"k": bad}},
		{"strs": map[string]any{bad: "v"}},
		{"raw": []any{bad}},
		{"tree": map[string]any{"name": bad}},
	} {
		if err := decodePayloads(t, m); !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: err = %v, want ErrSyntax", m, err)
		}
	}
}

func TestBase64Strict(t *testing.T) {
	type bin struct {
		B []byte `json:"b"`
	}
	p := mustPlan(t, reflect.TypeFor[bin]())
	for _, s := range []string{"aGVs\nbG8=", "aGVs\r\nbG8=", "aGVsbG8=\n"} {
		var dst bin
		text, _ := json.Marshal(map[string]string{"b": s})
		if err := p.DecodeJSON(unsafe.Pointer(&dst), text); !errors.Is(err, ErrType) {
			t.Errorf("JSON %q: err = %v, want ErrType", s, err)
		}
		if err := p.DecodeMap(unsafe.Pointer(&dst), map[string]any{"b": s}); !errors.Is(err, ErrType) {
			t.Errorf("map %q: err = %v, want ErrType", s, err)
		}
	}
	var dst bin
	if err := p.DecodeJSON(unsafe.Pointer(&dst), []byte(`{"b":"aGVsbG8="}`)); err != nil {
		t.Errorf("valid base64: %v", err)
	}
	if diff := cmp.Diff([]byte("hello"), dst.B); diff != "" {
		t.Errorf("valid base64 (-want +got):\n%s", diff)
	}
}

// bytesPerRun is the average number of bytes f allocates.
func bytesPerRun(runs int, f func()) float64 {
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 0; i < runs; i++ {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(runs)
}

type boundedItems struct {
	Items []item          `json:"items" maxItems:"50"`
	Props map[string]item `json:"props" maxProperties:"5"`
	Name  string          `json:"name" maxLength:"10"`
	Free  []item          `json:"free,omitempty"`
	Any   any             `json:"any,omitempty"`
}

// TestBoundsBoundWork: past maxItems, maxProperties, maxLength and the
// error cap, the decoders skip without allocating, so a hostile input's
// cost does not grow with its size.
func TestBoundsBoundWork(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	p := mustPlan(t, reflect.TypeFor[boundedItems]())
	inputs := map[string]func(n int) string{
		"maxItems": func(n int) string { return `{"items":[` + strings.Repeat(`{},`, n) + `{}]}` },
		"maxProperties": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"props":{`)
			for i := 0; i < n; i++ {
				b.WriteString(`"k` + strconv.Itoa(i) + `":{},`)
			}
			b.WriteString(`"z":{}}}`)
			return b.String()
		},
		"past the cap in a slice": func(n int) string { return `{"free":[` + strings.Repeat(`{"n":-1},`, n) + `{}]}` },
		"past the cap in any": func(n int) string {
			return `{"free":[` + strings.Repeat(`{"n":-1},`, 30) + `{}],"any":[` + strings.Repeat(`{"a":[1]},`, n) + `{}]}`
		},
		"maxLength": func(n int) string { return `{"name":"` + strings.Repeat("x", 10*n) + `"}` },
		"error cap": func(n int) string {
			var b strings.Builder
			b.WriteString(`{`)
			for i := 0; i < n; i++ {
				b.WriteString(`"unknown` + strconv.Itoa(i) + `":1,`)
			}
			b.WriteString(`"z":1}`)
			return b.String()
		},
	}
	for name, input := range inputs {
		var cost [2]float64
		for i, n := range []int{10_000, 100_000} {
			data := []byte(input(n))
			cost[i] = bytesPerRun(3, func() {
				var dst boundedItems
				if err := p.DecodeJSON(unsafe.Pointer(&dst), data); err == nil {
					t.Fatalf("%s: accepted", name)
				}
			})
		}
		// Ten times the input, about the same memory.
		if cost[1] > 2*cost[0]+4096 {
			t.Errorf("%s: %.0f bytes for 10,000, %.0f for 100,000: grows with the input", name, cost[0], cost[1])
		}
	}
}

func TestTooManyReportsOnlyThat(t *testing.T) {
	p := mustPlan(t, reflect.TypeFor[boundedItems]())
	text := `{"items":[` + strings.Repeat(`{"n":-1},`, 60) + `{}]}`
	var fm, nm map[string]any
	fm, nm = mapsOf(t, text, modeAll)
	for i, decode := range []func(*boundedItems) error{
		func(d *boundedItems) error { return p.DecodeJSON(unsafe.Pointer(d), []byte(text)) },
		func(d *boundedItems) error { return p.DecodeMap(unsafe.Pointer(d), fm) },
		func(d *boundedItems) error { return p.DecodeMap(unsafe.Pointer(d), nm) },
	} {
		var dst boundedItems
		err := decode(&dst)
		// The items' own problems (n below its minimum) give way: the
		// bound comes first, of three problems.
		type problems struct {
			First []string
			Count int
		}
		want := problems{First: []string{"/items: expected at most 50 items, got 61 items"}, Count: 3}
		var msgs []string
		var ae *ArgErrors
		if errors.As(err, &ae) {
			for _, e := range ae.Errs {
				msgs = append(msgs, e.Error())
			}
		}
		got := problems{First: msgs[:min(1, len(msgs))], Count: len(msgs)}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("way %d: errors = %q (-want +got):\n%s", i, msgs, diff)
		}
	}
}

// FuzzDecodeMapDeep builds map input nested depth levels (maps and slices
// as shape's bits say), optionally with a cycle back to level cycleAt, in
// the payload field picked by field, and checks that the decode ends with
// a verdict: ErrTooDeep for cycles and nesting beyond MaxDepth, and for
// shallow acyclic input the verdict of the same arguments as JSON text.
func FuzzDecodeMapDeep(f *testing.F) {
	f.Add(uint8(0), uint32(1000), uint8(0), uint32(0))
	f.Add(uint8(1), uint32(500_000), uint8(0x55), uint32(0))
	f.Add(uint8(2), uint32(10), uint8(0xff), uint32(3))
	f.Add(uint8(3), uint32(100), uint8(0x0f), uint32(1))
	f.Add(uint8(4), uint32(511), uint8(0), uint32(0))
	f.Add(uint8(5), uint32(2), uint8(1), uint32(2))
	p := mustPlan(f, reflect.TypeFor[payloads]())
	fields := []string{"any", "raw", "map", "typed", "slice", "jsonu"}
	f.Fuzz(func(t *testing.T, field uint8, depth uint32, shape uint8, cycleAt uint32) {
		depth %= 600_000
		name := fields[int(field)%len(fields)]
		// containers[i] is the container at level i+1 of the payload.
		var containers []any
		var root any = "leaf"
		if depth > 0 {
			containers = make([]any, depth)
			for i := int(depth) - 1; i >= 0; i-- {
				if shape>>(i%8)&1 == 0 {
					containers[i] = map[string]any{"k": root}
				} else {
					containers[i] = []any{root}
				}
				root = containers[i]
			}
		}
		cyclic := cycleAt > 0 && cycleAt <= depth
		if cyclic {
			target := containers[cycleAt-1]
			switch c := containers[depth-1].(type) {
			case map[string]any:
				c["k"] = target
			case []any:
				c[0] = target
			}
		}
		arg := root
		levels := int(depth) // nesting of the arguments: the struct, then the payload
		switch name {
		case "map":
			arg = map[string]any{"k": root}
			levels++
		case "typed":
			arg = map[string]any{"k": []any{root}}
			levels += 2
		case "slice":
			arg = []any{map[string]any{"k": root}}
			levels += 2
		}
		args := map[string]any{name: arg}
		var dst payloads
		err := p.DecodeMap(unsafe.Pointer(&dst), args)
		if err != nil {
			var ae *ArgErrors
			if !errors.As(err, &ae) {
				t.Fatalf("err %v is not *ArgErrors", err)
			}
		}
		if cyclic || levels+1 > MaxDepth {
			if !errors.Is(err, ErrTooDeep) {
				t.Fatalf("%s: depth %d, cyclic %v: err = %.200v, want ErrTooDeep", name, depth, cyclic, err)
			}
			return
		}
		text, merr := json.Marshal(args)
		if merr != nil {
			t.Fatal(merr)
		}
		var dj payloads
		errJSON := p.DecodeJSON(unsafe.Pointer(&dj), text)
		if (err == nil) != (errJSON == nil) {
			t.Fatalf("%s: verdicts differ for %.200s:\nmap:  %v\njson: %v", name, text, err, errJSON)
		}
	})
}

// TestAnyArrayLengths: arrays decoded into an interface, gathered on the
// stack and in chunks, come out whole and in order at every length around
// the chunks' edges, as encoding/json (with UseNumber) gives them.
func TestAnyArrayLengths(t *testing.T) {
	p := mustPlan(t, reflect.TypeFor[anyArg]())
	for _, n := range []int{0, 1, 7, 8, 9, 23, 24, 25, 56, 57, 1000, 2000, 5000} {
		items := make([]string, n)
		for i := range items {
			items[i] = strconv.Itoa(i % 13) // one- and two-digit numbers
			if i%5 == 0 {
				items[i] = `[` + items[i] + `,"x"]`
			}
		}
		text := `{"any":[` + strings.Join(items, ",") + `]}`
		var want anyArg
		dec := json.NewDecoder(strings.NewReader(text))
		dec.UseNumber()
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		var got anyArg
		if err := p.DecodeJSON(unsafe.Pointer(&got), []byte(text)); err != nil {
			t.Fatalf("%d items: %v", n, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%d items (-want +got):\n%s", n, diff)
		}
		if a := got.Any.([]any); len(a) != cap(a) {
			t.Errorf("%d items: cap %d, want the exact length", n, cap(a))
		}
	}
}
