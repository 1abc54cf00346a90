package define_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/benchdata"
	"github.com/toolnexus/toolnexus/schema"
)

// Invoice is the answer most tests decode.
type Invoice struct {
	Number string     `json:"number" pattern:"^INV-[0-9]+$"`
	Total  int64      `json:"total" minimum:"0"`
	Lines  []Line     `json:"lines" minItems:"1"`
	Due    *time.Time `json:"due,omitempty"`
}

// Line is one line of an Invoice.
type Line struct {
	Item     string `json:"item"`
	Quantity int    `json:"quantity" minimum:"1"`
}

// Page is a generic answer, for its default name.
type Page[T any] struct {
	Items []T `json:"items"`
}

func TestDefineAnswerNames(t *testing.T) {
	for _, c := range []struct {
		name string
		got  func() (string, error)
		want string
	}{
		{"struct", answerName[Invoice], "invoice"},
		{"pointer", answerName[*Invoice], "invoice"},
		{"generic", answerName[Page[Line]], "page"},
		{"slice", answerName[[]Line], "answer"},
		{"predeclared", answerName[int], "answer"},
		{"named time", answerName[time.Time], "time"},
		{"WithName", func() (string, error) {
			a, err := define.DefineAnswer[Invoice](define.WithName("final_result"))
			return a.Name(), err
		}, "final_result"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.got()
			if err != nil || got != c.want {
				t.Errorf("name = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func answerName[T any]() (string, error) {
	a, err := define.DefineAnswer[T]()
	return a.Name(), err
}

func TestDefineAnswerErrors(t *testing.T) {
	type bad struct {
		F func() `json:"f"`
	}
	type badTag struct {
		N int `json:"n" minimum:"x"`
	}
	for _, c := range []struct {
		name string
		err  func() error
		want []string // substrings of the message
		is   error
		path string // the *schema.TypeError's Path, when one is wanted
	}{
		{"option", func() error { _, err := define.DefineAnswer[Invoice](define.WithTitle("t")); return err },
			[]string{`define: DefineAnswer[define_test.Invoice]: option WithTitle("t") does not apply to an answer`}, nil, ""},
		{"output limit", func() error { _, err := define.DefineAnswer[Invoice](define.WithMaxOutputBytes(5)); return err },
			[]string{"WithMaxOutputBytes(5) does not apply"}, nil, ""},
		{"name", func() error { _, err := define.DefineAnswer[Invoice](define.WithName("a b")); return err },
			[]string{`tool name "a b"`}, nil, ""},
		{"field type", func() error { _, err := define.DefineAnswer[bad](); return err },
			[]string{`define: answer "bad": answer type define_test.bad: field F`}, schema.ErrUnsupportedType, "F"},
		{"tag", func() error { _, err := define.DefineAnswer[[]badTag](); return err },
			[]string{`answer type []define_test.badTag: field [].N: tag minimum`}, schema.ErrInvalidTag, "[].N"},
		{"wrapped type", func() error { _, err := define.DefineAnswer[chan int](); return err },
			[]string{"answer type chan int"}, schema.ErrUnsupportedType, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.err()
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if c.is != nil {
				if !errors.Is(err, c.is) {
					t.Errorf("errors.Is(%v, %v) = false", err, c.is)
				}
				var te *schema.TypeError
				if !errors.As(err, &te) || te.Role != "answer" || te.Path != c.path {
					t.Errorf("TypeError = %+v, want Role answer and Path %q", te, c.path)
				}
			}
		})
	}
}

func TestMustDefineAnswerPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustDefineAnswer with a bad option did not panic")
		}
	}()
	define.MustDefineAnswer[Invoice](define.WithTitle("x"))
}

func TestAnswerDecode(t *testing.T) {
	inv := define.MustDefineAnswer[Invoice]()
	due := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	got, err := inv.Decode([]byte(` {"number":"INV-7","total":9007199254740993,"lines":[{"item":"tea","quantity":2}],"due":"2026-03-01T00:00:00Z"} `))
	if err != nil {
		t.Fatal(err)
	}
	want := Invoice{Number: "INV-7", Total: 9007199254740993, Lines: []Line{{"tea", 2}}, Due: &due}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Decode (-want +got):\n%s", diff)
	}

	for _, c := range []struct {
		name, text string
		want       []string // every problem, as ArgError messages
		is         error
	}{
		{"empty", "", []string{"expected a JSON object, got nothing"}, define.ErrType},
		{"spaces", " \n\t", []string{"expected a JSON object, got nothing"}, define.ErrType},
		{"null", " null \n", []string{"expected a JSON object, got null"}, define.ErrType},
		{"array", `[1]`, []string{"expected object, got [1]"}, define.ErrType},
		{"every problem", `{"number":"7","total":-1,"lines":[{"item":"x","quantity":0}],"extra":1}`, []string{
			`/number: expected string matching ^INV-[0-9]+$, got "7"`,
			"/total: expected integer >= 0, got -1",
			"/lines/0/quantity: expected integer >= 1, got 0",
			"/extra: expected no such property (allowed: number, total, lines, due), got 1",
		}, define.ErrConstraint},
		{"missing", `{"number":"INV-1"}`, []string{"/total: expected integer (required), got nothing", "/lines: expected array (required), got nothing"}, define.ErrMissing},
		{"duplicate", `{"number":"INV-1","number":"INV-2","total":1,"lines":[{"item":"a","quantity":1}]}`, nil, define.ErrDuplicateKey},
		{"not JSON", `{"number":`, nil, define.ErrSyntax},
		{"fenced", "```json\n{}\n```", nil, define.ErrSyntax},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := inv.Decode([]byte(c.text))
			var ae *define.ArgErrors
			if !errors.As(err, &ae) {
				t.Fatalf("Decode(%q) = %v, want *ArgErrors", c.text, err)
			}
			if !errors.Is(err, c.is) {
				t.Errorf("Decode(%q) = %v, want errors.Is %v", c.text, err, c.is)
			}
			if c.want == nil {
				return
			}
			var got []string
			for _, e := range ae.Errs {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("Decode(%q) problems (-want +got):\n%s", c.text, diff)
			}
		})
	}
}

// TestAnswerDecodeAsArguments: an answer's verdict on a text is the one a
// tool of the same input type gives the same text as arguments (the same
// errors, word for word), except that empty text and null are errors.
func TestAnswerDecodeAsArguments(t *testing.T) {
	ctx := context.Background()
	inv := define.MustDefineAnswer[Invoice]()
	tool := define.MustDefineTool(func(_ context.Context, in Invoice) (Invoice, error) { return in, nil }, define.WithName("t"))
	for _, text := range []string{
		`{"number":"INV-1","total":3,"lines":[{"item":"a","quantity":1}]}`,
		`{"number":"INV-1","total":3.5,"lines":[]}`,
		`{"number":"INV-1","total":99999999999999999999,"lines":[{"item":"a","quantity":1}]}`,
		`{"number":1,"total":"3","lines":null,"due":"yesterday"}`,
		`{"number":"INV-1","total":1,"lines":[{"item":"a","quantity":1,"x":{}}],"due":null}`,
		`{"number":"\ud800","total":1,"lines":[{"item":"a","quantity":1}]}`,
		`{}`, `[]`, `"x"`, `{"lines":[` + strings.Repeat("[", 600) + `]}`,
	} {
		got, err := inv.Decode([]byte(text))
		res := tool.ExecuteJSON(ctx, []byte(text))
		if (err != nil) != res.IsError {
			t.Errorf("%s: Decode error %v, ExecuteJSON %q", text, err, res.Output)
			continue
		}
		if err != nil {
			if want := strings.TrimPrefix(res.Output, "invalid arguments: "); err.Error() != want {
				t.Errorf("%s: Decode = %q, ExecuteJSON = %q", text, err, want)
			}
			continue
		}
		data, _ := json.Marshal(got)
		if string(data) != res.Output {
			t.Errorf("%s: Decode = %s, ExecuteJSON = %s", text, data, res.Output)
		}
	}
}

func TestAnswerWrapped(t *testing.T) {
	lines := define.MustDefineAnswer[[]Line](define.WithDescription("The lines"))
	f := lines.Format()
	if !f.Wrapped() || f.Name() != "answer" || f.Description() != "The lines" || f.Type().String() != "[]define_test.Line" {
		t.Errorf("format = %v wrapped %v %q %q", f, f.Wrapped(), f.Name(), f.Description())
	}
	want := `{"type":"object","properties":{"value":{"type":"array","items":{"type":"object","properties":{"item":{"type":"string"},"quantity":{"type":"integer","minimum":1}},"required":["item","quantity"],"additionalProperties":false}}},"required":["value"],"additionalProperties":false}`
	if got := string(lines.Schema()); got != want {
		t.Errorf("Schema =\n%s\nwant\n%s", got, want)
	}
	got, err := lines.Decode([]byte(`{"value":[{"item":"tea","quantity":2},{"item":"cake","quantity":1}]}`))
	if err != nil || len(got) != 2 || got[1] != (Line{"cake", 1}) {
		t.Errorf("Decode = %v, %v", got, err)
	}
	_, err = lines.Decode([]byte(`{"value":[{"item":"tea","quantity":0}]}`))
	if err == nil || err.Error() != "/value/0/quantity: expected integer >= 1, got 0" {
		t.Errorf("Decode(bad) = %v", err)
	}
	if _, err := lines.Decode([]byte(`[{"item":"tea","quantity":2}]`)); err == nil || err.Error() != `expected object, got [{"item":"tea","quantity":2}]` {
		t.Errorf("Decode(bare array) = %v", err)
	}

	// Scalars, pointers and text types are wrapped too; a pointer's value
	// is required and may be null.
	n := define.MustDefineAnswer[int16]()
	if v, err := n.Decode([]byte(`{"value":-300}`)); err != nil || v != -300 {
		t.Errorf("int16 Decode = %v, %v", v, err)
	}
	if _, err := n.Decode([]byte(`{"value":40000}`)); err == nil || !strings.HasPrefix(err.Error(), "/value: expected integer") {
		t.Errorf("int16 Decode(40000) = %v", err)
	}
	p := define.MustDefineAnswer[*string]()
	if v, err := p.Decode([]byte(`{"value":null}`)); err != nil || v != nil {
		t.Errorf("*string Decode(null) = %v, %v", v, err)
	}
	if v, err := p.Decode([]byte(`{"value":"x"}`)); err != nil || v == nil || *v != "x" {
		t.Errorf("*string Decode = %v, %v", v, err)
	}
	if _, err := p.Decode([]byte(`{}`)); err == nil || err.Error() != "/value: expected string (required), got nothing" {
		t.Errorf("*string Decode({}) = %v", err)
	}
	tm := define.MustDefineAnswer[time.Time]()
	if v, err := tm.Decode([]byte(`{"value":"2026-01-02T03:04:05Z"}`)); err != nil || v.Year() != 2026 {
		t.Errorf("time Decode = %v, %v", v, err)
	}
}

func TestAnswerRoots(t *testing.T) {
	m := define.MustDefineAnswer[map[string]int]()
	if got, err := m.Decode([]byte(`{"a":1,"b":2}`)); err != nil || got["b"] != 2 || m.Format().Wrapped() {
		t.Errorf("map Decode = %v, %v", got, err)
	}
	a := define.MustDefineAnswer[any]()
	if got, err := a.Decode([]byte(`{"n":12345678901234567890}`)); err != nil || fmt.Sprint(got) != "map[n:12345678901234567890]" {
		t.Errorf("any Decode = %v, %v", got, err)
	}
	p := define.MustDefineAnswer[*Line]()
	got, err := p.Decode([]byte(`{"item":"a","quantity":3}`))
	if err != nil || got == nil || *got != (Line{"a", 3}) {
		t.Errorf("*Line Decode = %v, %v", got, err)
	}
	if _, err := p.Decode([]byte(`null`)); err == nil {
		t.Error("*Line Decode(null) = nil error")
	}
}

// Level decodes itself, so that an answer of it decodes into new memory
// rather than pooled memory.
type Level struct{ N int }

func (l *Level) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	l.N = len(s)
	return nil
}

type Leveled struct {
	Level Level `json:"level"`
}

func TestAnswerUserMethods(t *testing.T) {
	a := define.MustDefineAnswer[Leveled]()
	for i := range 3 {
		got, err := a.Decode([]byte(fmt.Sprintf(`{"level":%q}`, strings.Repeat("x", i))))
		if err != nil || got.Level.N != i {
			t.Errorf("Decode #%d = %v, %v", i, got, err)
		}
	}
}

func TestAnswerLimits(t *testing.T) {
	a := define.MustDefineAnswer[Line](define.WithMaxArgBytes(30))
	if _, err := a.Decode([]byte(`{"item":"a","quantity":1}`)); err != nil {
		t.Errorf("Decode(26 bytes) = %v", err)
	}
	_, err := a.Decode([]byte(`{"item":"` + strings.Repeat("a", 40) + `","quantity":1}`))
	if !errors.Is(err, define.ErrTooLarge) {
		t.Errorf("Decode(over the limit) = %v, want ErrTooLarge", err)
	}
}

func TestAnswerStrictPin(t *testing.T) {
	for _, c := range []struct {
		opts           []define.Option
		strict, pinned bool
	}{
		{nil, false, false},
		{[]define.Option{define.WithStrict(true)}, true, true},
		{[]define.Option{define.WithStrict(false)}, false, true},
	} {
		a := define.MustDefineAnswer[Line](c.opts...)
		if s, p := a.Format().StrictPin(); s != c.strict || p != c.pinned {
			t.Errorf("%v: StrictPin = %v, %v", c.opts, s, p)
		}
	}
}

func TestAnswerTool(t *testing.T) {
	ctx := context.Background()
	a := define.MustDefineAnswer[Line](define.WithDescription("One line"))
	tool := a.Format().Tool()
	if tool.Name() != "line" || tool.Description() != "One line" || string(tool.InputSchema()) != string(a.Schema()) {
		t.Errorf("Tool = %v %q %s", tool, tool.Description(), tool.InputSchema())
	}
	if res := tool.ExecuteJSON(ctx, []byte(`{"item":"a","quantity":1}`)); res.IsError || res.Output != "answer received" {
		t.Errorf("ExecuteJSON(good) = %+v", res)
	}
	res := tool.ExecuteJSON(ctx, []byte(`{"item":"a","quantity":0}`))
	if !res.IsError || res.Output != "invalid arguments: /quantity: expected integer >= 1, got 0" || !errors.Is(res.Err, define.ErrConstraint) {
		t.Errorf("ExecuteJSON(bad) = %+v", res)
	}
	if res := tool.ExecuteJSON(ctx, nil); !res.IsError || !strings.Contains(res.Output, "/item: expected string (required)") {
		t.Errorf("ExecuteJSON(nil) = %+v", res)
	}
	if res := tool.Execute(ctx, map[string]any{"item": "a", "quantity": 2}); res.IsError {
		t.Errorf("Execute(good map) = %+v", res)
	}
	if res := tool.Execute(ctx, map[string]any{"item": "a", "quantity": 2.5}); !res.IsError {
		t.Errorf("Execute(bad map) = %+v", res)
	}
	var r define.Result
	call := tool.DecodeJSON(ctx, []byte(`{"item":"a","quantity":1}`), &r)
	if call == nil || r.Output != "answer received" {
		t.Fatalf("DecodeJSON = %v, %+v", call, r)
	}
	call.Finish(ctx)
	if string(call.Input().(json.RawMessage)) != `{"item":"a","quantity":1}` {
		t.Errorf("Input = %v", call.Input())
	}
	if call := tool.DecodeMap(ctx, map[string]any{"quantity": 1}, &r); call != nil || !r.IsError {
		t.Errorf("DecodeMap(bad) = %v, %+v", call, r)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if res := tool.ExecuteJSON(done, []byte(`{"item":"a","quantity":1}`)); !res.IsError || !errors.Is(res.Err, context.Canceled) {
		t.Errorf("ExecuteJSON(cancelled) = %+v", res)
	}
}

func TestZeroAnswer(t *testing.T) {
	var a define.Answer[Line]
	if _, err := a.Decode([]byte(`{}`)); !errors.Is(err, define.ErrZeroAnswer) {
		t.Errorf("zero Decode = %v", err)
	}
	f := a.Format()
	if !f.IsZero() || f.Name() != "" || f.Description() != "" || f.Wrapped() || f.Type() != nil ||
		f.Schema() != nil || f.SchemaTree() != nil || !f.Tool().IsZero() || f.String() != "define.Answer(zero)" {
		t.Errorf("zero AnswerFormat = %v", f)
	}
	if s, p := f.StrictPin(); s || p {
		t.Error("zero StrictPin pinned")
	}
}

func TestAnswerConcurrent(t *testing.T) {
	a := define.MustDefineAnswer[Invoice]()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				text := fmt.Sprintf(`{"number":"INV-%d","total":%d,"lines":[{"item":"x%d","quantity":%d}]}`, g, i, i, i+1)
				got, err := a.Decode([]byte(text))
				if err != nil || got.Total != int64(i) || got.Lines[0].Quantity != i+1 || got.Lines[0].Item != fmt.Sprintf("x%d", i) {
					t.Errorf("Decode(%s) = %+v, %v", text, got, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkAnswerDecode: decoding an answer against ExecuteJSON of a tool
// of the same type, on the same text (internal/benchdata), in one run.
func BenchmarkAnswerDecode(b *testing.B) {
	ctx := context.Background()
	a := define.MustDefineAnswer[benchdata.Args]()
	tool := define.MustDefineTool(searchFlights)
	text := benchdata.SampleJSON
	if _, err := a.Decode(text); err != nil {
		b.Fatal(err)
	}
	b.Run("answer", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if _, err := a.Decode(text); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("execute-json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if res := tool.ExecuteJSON(ctx, text); res.IsError {
				b.Fatal(res.Output)
			}
		}
	})
}

// Profile has optional fields of every kind, as OpenAI's strict rendering
// makes them required and nullable.
type Profile struct {
	Name  string            `json:"name"`
	Unit  string            `json:"unit,omitempty" enum:"C,F" default:"C"`
	Age   int               `json:"age,omitempty" minimum:"1"`
	Tags  []string          `json:"tags,omitempty"`
	Note  *string           `json:"note"`
	Inner *Line             `json:"inner,omitempty"`
	Sub   Sub               `json:"sub"`
	Meta  map[string]string `json:"meta,omitempty"`
}

type Sub struct {
	Level int  `json:"level,omitempty" default:"3"`
	On    bool `json:"on,omitempty"`
}

func TestAnswerDecodeStrictNulls(t *testing.T) {
	a := define.MustDefineAnswer[Profile]()
	text := []byte(`{"name":"x","unit":null,"age":null,"tags":null,"note":null,"inner":null,"sub":{"level":null,"on":null},"meta":null}`)
	got, err := a.DecodeStrictNulls(text)
	if err != nil {
		t.Fatal(err)
	}
	want := Profile{Name: "x", Unit: "C", Sub: Sub{Level: 3}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DecodeStrictNulls (-want +got):\n%s", diff)
	}
	// Decode keeps a tool's verdict: null is no string, no int.
	_, err = a.Decode(text)
	var ae *define.ArgErrors
	if !errors.As(err, &ae) || len(ae.Errs) != 4 {
		t.Fatalf("Decode = %v, want four type errors", err)
	}
	for i, path := range []string{"/unit", "/age", "/sub/level", "/sub/on"} {
		if ae.Errs[i].Path != path || ae.Errs[i].Got != "null" || !errors.Is(ae.Errs[i], define.ErrType) {
			t.Errorf("Decode error %d = %v, want a null at %s", i, ae.Errs[i], path)
		}
	}
	// A required field still takes no null, a value still meets its
	// constraints, and a key twice is still refused.
	for _, c := range []struct{ text, want string }{
		{`{"name":null,"note":null,"sub":{}}`, "/name: expected string, got null"},
		{`{"name":"x","age":0,"note":null,"sub":{}}`, "/age: expected integer >= 1, got 0"},
		// (A text with a key twice is read as sent, its nulls too.)
		{`{"name":"x","unit":null,"unit":"F","note":null,"sub":{}}`, `/unit: expected string, got null; /unit: expected each key once, got a second "unit"`},
		{`{"name":"x","note":null,"sub":{},"unit":nul}`, `not a JSON object: expected literal null, got "nul}" at offset 40`},
	} {
		if _, err := a.DecodeStrictNulls([]byte(c.text)); err == nil || err.Error() != c.want {
			t.Errorf("DecodeStrictNulls(%s) = %v, want %s", c.text, err, c.want)
		}
	}
	var zero define.Answer[Profile]
	if _, err := zero.DecodeStrictNulls(text); !errors.Is(err, define.ErrZeroAnswer) {
		t.Errorf("zero DecodeStrictNulls = %v", err)
	}
}

// FuzzAnswerDecode: on any text, an answer's verdict is the one a tool of
// the same input type gives the same text as arguments (the same value,
// the same errors word for word), empty text and null apart; and what
// Decode accepts, DecodeStrictNulls accepts as the same value.
func FuzzAnswerDecode(f *testing.F) {
	for _, s := range []string{
		`{"number":"INV-1","total":3,"lines":[{"item":"a","quantity":1}]}`,
		`{"number":"INV-1","total":3.5,"lines":[]}`,
		`{"number":"INV-1","total":99999999999999999999,"lines":[{"item":"a","quantity":1}]}`,
		`{"number":1,"total":"3","lines":null,"due":"yesterday"}`,
		`{"number":"INV-1","total":1,"lines":[{"item":"a","quantity":1}],"due":null}`,
		`{"number":"INV-2","total":1,"lines":[{"item":"a","quantity":1}],"due":"2026-01-02T03:04:05Z"}`,
		`{"number":"\ud800","total":1,"lines":[{"item":"a","quantity":1}]}`,
		`{}`, `[]`, `"x"`, ``, ` null `, `{"lines":[[[[]]]]}`,
	} {
		f.Add([]byte(s))
	}
	ctx := context.Background()
	inv := define.MustDefineAnswer[Invoice]()
	tool := define.MustDefineTool(func(_ context.Context, in Invoice) (Invoice, error) { return in, nil }, define.WithName("t"))
	f.Fuzz(func(t *testing.T, text []byte) {
		got, err := inv.Decode(text)
		if trimmed := strings.Trim(string(text), " \t\r\n"); trimmed == "" || trimmed == "null" {
			if !errors.Is(err, define.ErrType) {
				t.Fatalf("Decode(%q) = %v, want ErrType (no answer)", text, err)
			}
			return
		}
		res := tool.ExecuteJSON(ctx, text)
		if (err != nil) != res.IsError {
			t.Fatalf("%q: Decode error %v, ExecuteJSON %q", text, err, res.Output)
		}
		if err != nil {
			var ae *define.ArgErrors
			if !errors.As(err, &ae) {
				t.Fatalf("%q: Decode error %T, want *define.ArgErrors", text, err)
			}
			if want := strings.TrimPrefix(res.Output, "invalid arguments: "); err.Error() != want {
				t.Fatalf("%q: Decode = %q, ExecuteJSON = %q", text, err, want)
			}
			return
		}
		data, _ := json.Marshal(got)
		if string(data) != res.Output {
			t.Fatalf("%q: Decode = %s, ExecuteJSON = %s", text, data, res.Output)
		}
		strict, err := inv.DecodeStrictNulls(text)
		if err != nil || !cmp.Equal(strict, got) {
			t.Fatalf("%q: DecodeStrictNulls = %+v, %v; Decode = %+v", text, strict, err, got)
		}
	})
}
