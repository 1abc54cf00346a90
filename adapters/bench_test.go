package adapters_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/zoo"
	"github.com/toolnexus/toolnexus/schema"
)

// benchTools returns 128 tools with varied schemas (the zoo cases the
// variant can render, cycled) for the variant v.
func benchTools(b *testing.B, v variant) []define.Tool {
	b.Helper()
	var tools []define.Tool
	for len(tools) < 128 {
		before := len(tools)
		for _, c := range zoo.Cases {
			if len(tools) == 128 {
				break
			}
			s, err := schema.ForType(c.Type)
			if err != nil {
				b.Fatal(err)
			}
			data, _ := s.MarshalJSON()
			name := fmt.Sprintf("%s_%d", c.Name, len(tools))
			tool, err := define.NewTool(name, data, dummy, define.WithDescription("Tool "+name+" from the zoo."))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := v.render([]define.Tool{tool}); err != nil {
				continue // this provider cannot express the case
			}
			tools = append(tools, tool)
		}
		if len(tools) == before {
			b.Fatalf("%s: no zoo case renders", v.dir)
		}
	}
	return tools
}

// deepCopy rebuilds a decoded JSON tree: the per-request work of a library
// that keeps tools as maps and builds the request from them.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = deepCopy(e)
		}
		return l
	}
	return v
}

// BenchmarkRender renders 128 tools to request bytes per provider:
// "cached" is json.Marshal of ToX's output (per-tool renderings cached on
// the tools), "append" is AppendJSON of it into a reused buffer, "naive" builds an equivalent []map[string]any per request and
// json.Marshals it.
//
// Anthropic's strict budgets allow 20 strict tools per request, so the
// strict Anthropic case renders with StrictWherePossible(): the first tools
// within the budgets go strict, the rest non-strict.
func BenchmarkRender(b *testing.B) {
	for _, v := range allVariants() {
		if v.dir == "anthropic_strict" {
			v = variant{"anthropic_strict_where_possible", func(t []define.Tool) (any, error) {
				return adapters.ToAnthropic(t, adapters.StrictWherePossible())
			}}
		}
		tools := benchTools(b, v)
		out, err := v.render(tools)
		if err != nil {
			b.Fatal(err)
		}
		wire, err := json.Marshal(out)
		if err != nil {
			b.Fatal(err)
		}
		var tree []any
		if err := json.Unmarshal(wire, &tree); err != nil {
			b.Fatal(err)
		}
		b.Run(v.dir+"/cached", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(wire)))
			for b.Loop() {
				out, err := v.render(tools)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(out); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(v.dir+"/append", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(wire)))
			var buf []byte
			for b.Loop() {
				out, err := v.render(tools)
				if err != nil {
					b.Fatal(err)
				}
				if buf, err = adapters.AppendJSON(buf[:0], out); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(v.dir+"/naive", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(wire)))
			for b.Loop() {
				req := make([]map[string]any, len(tree))
				for i, e := range tree {
					req[i] = deepCopy(e).(map[string]any)
				}
				if _, err := json.Marshal(req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
