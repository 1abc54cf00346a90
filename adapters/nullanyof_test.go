package adapters_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

type nullableArgs struct {
	City  string  `json:"city"`
	Limit *int    `json:"limit,omitempty" minimum:"1" description:"At most this many"`
	Note  *string `json:"note,omitempty" maxLength:"20"`
}

// TestMCPNullAsAnyOf: by default a pointer field is a type list with null;
// with NullAsAnyOf it is anyOf [T with its constraints, null], description
// outside; other providers refuse the option.
func TestMCPNullAsAnyOf(t *testing.T) {
	tool := define.MustDefineTool(func(context.Context, nullableArgs) (string, error) { return "", nil }, define.WithName("find"))
	props := func(opts ...adapters.Option) map[string]json.RawMessage {
		t.Helper()
		out, err := adapters.ToMCP([]define.Tool{tool}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(out[0].InputSchema, &s); err != nil {
			t.Fatal(err)
		}
		return s.Properties
	}
	plain := props()
	if got := string(plain["limit"]); got != `{"type":["integer","null"],"description":"At most this many","minimum":1}` {
		t.Errorf("default limit: %s", got)
	}
	any := props(adapters.NullAsAnyOf())
	if got := string(any["limit"]); got != `{"description":"At most this many","anyOf":[{"type":"integer","minimum":1},{"type":"null"}]}` {
		t.Errorf("NullAsAnyOf limit: %s", got)
	}
	if got := string(any["note"]); got != `{"anyOf":[{"type":"string","maxLength":20},{"type":"null"}]}` {
		t.Errorf("NullAsAnyOf note: %s", got)
	}
	if got := string(any["city"]); got != `{"type":"string"}` {
		t.Errorf("NullAsAnyOf city: %s", got)
	}
	if _, err := adapters.ToOpenAI([]define.Tool{tool}, adapters.NullAsAnyOf()); !errors.Is(err, adapters.ErrOption) {
		t.Errorf("ToOpenAI with NullAsAnyOf: %v, want ErrOption", err)
	}
}
