package adapters_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// renderOptionSets are the option sets the render fuzz tries per provider.
var renderOptionSets = []func([]define.Tool) (any, error){
	func(t []define.Tool) (any, error) { return adapters.ToOpenAI(t, adapters.StrictWherePossible()) },
	func(t []define.Tool) (any, error) {
		return adapters.ToAnthropic(t, adapters.StrictWherePossible(), adapters.MaxInlineDepth(1))
	},
	func(t []define.Tool) (any, error) { return adapters.ToGemini(t, adapters.MaxInlineDepth(2)) },
}

// FuzzRender renders hand-written input schemas for every provider and
// option set: none may panic; an error is an *Errors whose every problem
// is an *Error with a sentinel; a success marshals to valid JSON.
// StrictWherePossible and the Gemini default must render whatever the
// non-strict JSON Schema rendering of the same provider renders.
func FuzzRender(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`))
	f.Add([]byte(`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"integer"}},"x":{}}}`))
	f.Add([]byte(`{"type":"object","$ref":"#/$defs/Q","$defs":{"Q":{"type":"object","properties":{"t":{"type":"string"},"s":{"$ref":"#/$defs/Q"}},"required":["t"]}}}`))
	f.Add([]byte(`{"type":"object","properties":{"u":{"type":["string","null"],"anyOf":[{"minLength":1}],"enum":["a",null]},"l":{"type":"array"}}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		tool, err := define.NewTool("fuzz", json.RawMessage(in), dummy)
		if err != nil {
			return
		}
		tools := []define.Tool{tool}
		all := append(append([]func([]define.Tool) (any, error){}, renderOptionSets...), func(t []define.Tool) (any, error) { return adapters.ToGemini(t, adapters.GeminiJSONSchema()) })
		for _, v := range allVariants() {
			all = append(all, v.render)
		}
		for i, render := range all {
			out, err := render(tools)
			if err != nil {
				var list *adapters.Errors
				if !errors.As(err, &list) || len(list.Errs) == 0 {
					t.Fatalf("render %d: error %v (%T) is not a non-empty *Errors", i, err, err)
				}
				for _, e := range list.Errs {
					if e.Err == nil || e.Msg == "" {
						t.Fatalf("render %d: problem %#v has no sentinel or message", i, e)
					}
				}
				continue
			}
			data, err := json.Marshal(out)
			if err != nil || !json.Valid(data) {
				t.Fatalf("render %d: marshal: %v", i, err)
			}
		}
		// The defaults that choose per tool never fail where the plain
		// rendering of the same provider succeeds, except for the strict
		// limits and key rules, which apply to both.
		if _, err := adapters.ToGemini(tools, adapters.GeminiJSONSchema()); err == nil {
			if _, err := adapters.ToGemini(tools); err != nil {
				t.Fatalf("ToGemini fails (%v) where GeminiJSONSchema() renders", err)
			}
		}
		if _, err := adapters.ToOpenAI(tools); err == nil {
			if _, err := adapters.ToOpenAI(tools, adapters.StrictWherePossible()); err != nil {
				t.Fatalf("StrictWherePossible() fails (%v) where ToOpenAI renders", err)
			}
		}
	})
}
