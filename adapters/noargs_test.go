package adapters_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// TestStrictNoArguments: a tool that takes no arguments can be strict when
// its schema says so. A Go struct{} input is a closed empty object and is
// sent strict; a hand-written {"type":"object","properties":{}} is, in
// JSON Schema, any object, so Strict(true) refuses it with the way out and
// StrictWherePossible sends it non-strict; with "additionalProperties":
// false it is sent strict. (tnmcp.Remote closes the schemas of remote
// tools that list no properties, the MCP servers' no-argument tools.)
func TestStrictNoArguments(t *testing.T) {
	noop := func(context.Context, json.RawMessage) (any, error) { return nil, nil }
	open, err := define.NewTool("list_dirs", json.RawMessage(`{"type":"object","properties":{}}`), noop)
	if err != nil {
		t.Fatal(err)
	}
	closed, err := define.NewTool("get_me", json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`), noop)
	if err != nil {
		t.Fatal(err)
	}
	typed := define.MustDefineTool(func(context.Context, struct{}) (string, error) { return "", nil }, define.WithName("ping"))

	for _, tl := range []define.Tool{closed, typed} {
		out, err := adapters.ToOpenAI([]define.Tool{tl}, adapters.Strict(true))
		if err != nil {
			t.Fatalf("%s strict: %v", tl.Name(), err)
		}
		if f := out[0].Function; !f.Strict || string(f.Parameters) != `{"type":"object","properties":{},"additionalProperties":false}` {
			t.Errorf("%s strict: %v %s", tl.Name(), f.Strict, f.Parameters)
		}
	}
	_, err = adapters.ToOpenAI([]define.Tool{open}, adapters.Strict(true))
	var ae *adapters.Error
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "free-form object") || !strings.Contains(err.Error(), "StrictWherePossible()") {
		t.Errorf("an open empty object under Strict(true): %v", err)
	}
	out, err := adapters.ToOpenAI([]define.Tool{open, closed}, adapters.StrictWherePossible())
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Function.Strict || !out[1].Function.Strict {
		t.Errorf("StrictWherePossible: strict %v and %v, want false and true", out[0].Function.Strict, out[1].Function.Strict)
	}
}
