package define_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// strictArgs has optional fields of every kind a strict rendering makes
// nullable, fields that accept null already, and required ones.
type strictArgs struct {
	City    string         `json:"city"`
	Unit    string         `json:"unit,omitempty" enum:"C,F" default:"C"`
	Days    int            `json:"days,omitempty" default:"3"`
	Exact   bool           `json:"exact,omitempty"`
	Tags    []string       `json:"tags,omitempty" default:"[\"a\"]"`
	Note    *string        `json:"note,omitempty"`
	Where   *strictWhere   `json:"where,omitempty"`
	Stops   []strictWhere  `json:"stops,omitempty"`
	Extra   map[string]int `json:"extra,omitempty"`
	Anytime any            `json:"anytime,omitempty"`
}

type strictWhere struct {
	Lat   float64 `json:"lat"`
	Label string  `json:"label,omitempty" default:"here"`
}

func strictEcho(t testing.TB) define.Tool {
	t.Helper()
	return define.MustDefineTool(func(_ context.Context, in strictArgs) (strictArgs, error) { return in, nil }, define.WithName("strict_echo"))
}

// TestNullsAsAbsent: the nulls of optional properties that do not accept
// null go, at every level; the others stay; the call then gets the
// defaults, from text and from a map alike.
func TestNullsAsAbsent(t *testing.T) {
	tool := strictEcho(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name, args, want string // want: the arguments read, "" for the args as given
		output           string // the call's output
	}{
		{"every optional null", `{"city":"Oslo","unit":null,"days":null,"exact":null,"tags":null,"note":null,"where":null,"stops":null,"extra":null,"anytime":null}`,
			`{"city":"Oslo","note":null,"where":null,"anytime":null}`,
			`{"city":"Oslo","unit":"C","days":3,"tags":["a"]}`},
		{"nested", `{"city":"Oslo","where":{"lat":1,"label":null},"stops":[{"lat":2,"label":null},{"lat":3,"label":"x"}]}`,
			`{"city":"Oslo","where":{"lat":1},"stops":[{"lat":2},{"lat":3,"label":"x"}]}`,
			`{"city":"Oslo","unit":"C","days":3,"tags":["a"],"where":{"lat":1,"label":"here"},"stops":[{"lat":2,"label":"here"},{"lat":3,"label":"x"}]}`},
		{"no null", `{"city": "Oslo", "unit": "F"}`, "",
			`{"city":"Oslo","unit":"F","days":3,"tags":["a"]}`},
		{"null in a string only", `{"city":"null"}`, "",
			`{"city":"null","unit":"C","days":3,"tags":["a"]}`},
		{"a required null stays", `{"city":null,"unit":null}`, `{"city":null}`,
			`invalid arguments: /city: expected string, got null`},
		{"a required null inside stays", `{"city":"x","where":{"lat":null}}`, "",
			`invalid arguments: /where/lat: expected number, got null`},
		{"an unknown key's null stays", `{"city":"x","other":null}`, "",
			`invalid arguments: /other: expected no such property (allowed: city, unit, days, exact, tags, note, where, stops, extra, anytime), got null`},
		{"not JSON", `{"city":null,`, "", `invalid arguments: not a JSON object: expected string key, got end of input at offset 13`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tool.NullsAsAbsentJSON([]byte(tc.args))
			want := tc.want
			if want == "" {
				want = tc.args
			}
			if string(got) != want {
				t.Errorf("NullsAsAbsentJSON(%s) = %s, want %s", tc.args, got, want)
			}
			res := tool.ExecuteJSON(ctx, got)
			if res.Output != tc.output {
				t.Errorf("ExecuteJSON = %q, want %q", res.Output, tc.output)
			}
			var m map[string]any
			if json.Unmarshal([]byte(tc.args), &m) != nil {
				return
			}
			before, _ := json.Marshal(m)
			fromMap := tool.Execute(ctx, tool.NullsAsAbsent(m))
			if fromMap.Output != res.Output {
				t.Errorf("from a map: %q, from text: %q", fromMap.Output, res.Output)
			}
			if after, _ := json.Marshal(m); !bytes.Equal(before, after) {
				t.Errorf("NullsAsAbsent modified its argument: %s, was %s", after, before)
			}
		})
	}
}

// TestNullsAsAbsentSchemaTool: a tool from a JSON Schema reads nulls so
// too, through $ref, allOf and a nullable anyOf, and its handler gets the
// arguments without them.
func TestNullsAsAbsentSchemaTool(t *testing.T) {
	doc := `{"type":"object","properties":{
		"q":{"type":"string"},
		"limit":{"type":"integer","default":10},
		"opt":{"$ref":"#/$defs/Opt"},
		"maybe":{"anyOf":[{"$ref":"#/$defs/Opt"},{"type":"null"}]},
		"kind":{"enum":["a","b",null]},
		"both":{"allOf":[{"type":"object","properties":{"x":{"type":"string"}}},{"properties":{"y":{"type":"number"}},"required":["y"]}]}
	},"required":["q"],"additionalProperties":false,
	"$defs":{"Opt":{"type":"object","properties":{"deep":{"type":"boolean"},"must":{"type":"string"}},"required":["must"],"additionalProperties":false}}}`
	var got json.RawMessage
	tool, err := define.NewTool("search", json.RawMessage(doc), func(_ context.Context, args json.RawMessage) (any, error) {
		got = append(json.RawMessage(nil), args...)
		return "ok", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	args := `{"q":"x","limit":null,"opt":{"deep":null,"must":"m"},"maybe":null,"kind":null,"both":{"x":null,"y":1}}`
	stripped := tool.NullsAsAbsentJSON([]byte(args))
	if want := `{"q":"x","opt":{"must":"m"},"maybe":null,"kind":null,"both":{"y":1}}`; string(stripped) != want {
		t.Fatalf("NullsAsAbsentJSON = %s, want %s", stripped, want)
	}
	if res := tool.ExecuteJSON(context.Background(), stripped); res.IsError || string(got) != string(stripped) {
		t.Fatalf("ExecuteJSON = %+v, handler got %s", res, got)
	}
	if res := tool.ExecuteJSON(context.Background(), []byte(args)); !res.IsError || !errors.Is(res.Err, define.ErrType) {
		t.Fatalf("without the reading: %+v, want the argument error of null", res)
	}
}

// TestNullsAsAbsentAmbiguousBranches: where two branches of an anyOf
// describe objects, which applies is not plain, and no null is removed.
func TestNullsAsAbsentAmbiguousBranches(t *testing.T) {
	doc := `{"type":"object","properties":{"v":{"anyOf":[
		{"type":"object","properties":{"a":{"type":"string"}}},
		{"type":"object","properties":{"b":{"type":"string"}}}]}}}`
	tool, err := define.NewTool("t", json.RawMessage(doc), func(context.Context, json.RawMessage) (any, error) { return "ok", nil })
	if err != nil {
		t.Fatal(err)
	}
	args := `{"v":{"a":null}}`
	if got := tool.NullsAsAbsentJSON([]byte(args)); string(got) != args {
		t.Errorf("NullsAsAbsentJSON = %s, want the args as they are", got)
	}
}

// TestNullsAsAbsentLinear: many objects and much nesting cost a pass.
func TestNullsAsAbsentLinear(t *testing.T) {
	tool := strictEcho(t)
	var b strings.Builder
	b.WriteString(`{"city":"x","stops":[`)
	for i := range 100000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"lat":1,"label":null}`)
	}
	b.WriteString(`]}`)
	args := []byte(b.String())
	allocs := testing.AllocsPerRun(3, func() { tool.NullsAsAbsentJSON(args) })
	if allocs > 20 {
		t.Errorf("%v allocations for 100,000 objects, want a few", allocs)
	}
	out := tool.NullsAsAbsentJSON(args)
	if bytes.Contains(out, []byte("null")) || len(out) != len(args)-100000*len(`,"label":null`) {
		t.Errorf("%d bytes out of %d", len(out), len(args))
	}
}

// FuzzNullsAsAbsent: the reading of nulls gives text and map arguments one
// verdict, as the decoder does, and it never makes valid arguments
// invalid: what the strict reading removes is only ever absent-able.
func FuzzNullsAsAbsent(f *testing.F) {
	for _, s := range []string{`{"city":"Oslo","unit":null}`, `{"city":null}`, `{"city":"x","where":{"lat":1,"label":null},"stops":[{"lat":null}]}`,
		`{"city":"x","tags":[null],"extra":{"a":null}}`, `{"city":"x","anytime":{"k":null}}`} {
		f.Add([]byte(s))
	}
	tool := strictEcho(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, args []byte) {
		var m map[string]any
		dec := json.NewDecoder(bytes.NewReader(args))
		dec.UseNumber()
		if dec.Decode(&m) != nil || dec.More() || jsonwire.Check(args, jsonwire.MaxDepth) != nil {
			return // not JSON a map can hold as it is (a key twice, say)
		}
		plain := tool.ExecuteJSON(ctx, args)
		if errors.Is(plain.Err, define.ErrDuplicateKey) || errors.Is(plain.Err, define.ErrSyntax) || errors.Is(plain.Err, define.ErrTooDeep) {
			return
		}
		text := tool.ExecuteJSON(ctx, tool.NullsAsAbsentJSON(args))
		fromMap := tool.Execute(ctx, tool.NullsAsAbsent(m))
		// The problems of map input come in another order (unknown keys
		// sorted): the verdict and the set of problems must agree.
		if d := cmp.Diff(problems(text), problems(fromMap)); d != "" || text.IsError != fromMap.IsError {
			t.Fatalf("%s: text and map verdicts differ (-text +map):\n%s", args, d)
		}
		if !plain.IsError && (text.IsError || text.Output != plain.Output) {
			t.Fatalf("%s: valid arguments read otherwise: %q, was %q", args, text.Output, plain.Output)
		}
	})
}

// problems returns a result's output, or an error's problems sorted, each
// as its path and what was expected: what came is echoed from the text as
// written and from a map with its keys sorted, so it is left out.
func problems(r define.Result) []string {
	if !r.IsError {
		return []string{r.Output}
	}
	p := strings.Split(strings.TrimPrefix(r.Output, "invalid arguments: "), "; ")
	for i, e := range p {
		if j := strings.Index(e, ", got "); j >= 0 {
			p[i] = e[:j]
		}
	}
	slices.Sort(p)
	return p
}

// BenchmarkStrictNulls: what reading a strict rendering's nulls adds to a
// call: the arguments as a strict model sends them (every optional
// property null) against the same call with those members left out.
func BenchmarkStrictNulls(b *testing.B) {
	tool := strictEcho(b)
	ctx := context.Background()
	withNulls := []byte(`{"city":"Oslo","unit":null,"days":null,"exact":null,"tags":null,"note":null,"where":{"lat":59.9,"label":null},"stops":[{"lat":1,"label":null},{"lat":2,"label":"b"}],"extra":null,"anytime":null}`)
	without := []byte(`{"city":"Oslo","note":null,"where":{"lat":59.9},"stops":[{"lat":1},{"lat":2,"label":"b"}],"anytime":null}`)
	if got := tool.NullsAsAbsentJSON(withNulls); !bytes.Equal(got, without) {
		b.Fatalf("NullsAsAbsentJSON = %s", got)
	}
	b.Run("left out", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tool.ExecuteJSON(ctx, without)
		}
	})
	b.Run("null read as absent", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tool.ExecuteJSON(ctx, tool.NullsAsAbsentJSON(withNulls))
		}
	})
	b.Run("pass only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tool.NullsAsAbsentJSON(withNulls)
		}
	})
}
