package define_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolnexus/toolnexus/define"
)

// echoTool returns its decoded input as its output, so a successful call's
// Output is the arguments as the tool understood them.
func echoTool(t testing.TB) define.Tool {
	tool, err := define.DefineTool(func(_ context.Context, in Booking) (Booking, error) { return in, nil },
		define.WithName("echo"))
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func addCallSeeds(f *testing.F) {
	for _, tc := range callCases {
		f.Add([]byte(tc.json))
	}
	f.Add([]byte(`{"city":"Paris","passengers":1,"budget":1e308,"tags":[]}`))
	f.Add([]byte(`{"city":"Paris","passengers":1.0,"account":-9223372036854775808}`))
	f.Add([]byte(`{"city":"Paris","passengers":1,"account":9223372036854775808}`))
	f.Add([]byte(`{"city":"P\u00e9ris","passengers":1}`))
}

// FuzzExecuteJSON checks that any text gives a result without panicking, that
// error results carry a Go error, and that a successful call's output, fed
// back as arguments, is accepted and understood the same way.
func FuzzExecuteJSON(f *testing.F) {
	addCallSeeds(f)
	tool := echoTool(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, args []byte) {
		res := tool.ExecuteJSON(ctx, args)
		if split, ok := prepared(tool, ctx, args, nil); !ok {
			t.Fatalf("%q: the tool reports a decode of user code", args)
		} else if d := resultDiff(split, res); d != "" {
			t.Fatalf("ExecuteJSON(%q) split in two: %s", args, d)
		}
		if res.IsError {
			if res.Err == nil {
				t.Fatalf("ExecuteJSON(%q): error result %q without Err", args, res.Output)
			}
			return
		}
		again := tool.ExecuteJSON(ctx, []byte(res.Output))
		if again.IsError || again.Output != res.Output {
			t.Fatalf("ExecuteJSON(%q) = %q, but feeding that back gives %+v", args, res.Output, again)
		}
	})
}

// FuzzExecuteMap checks that arguments decoded into a map by encoding/json
// (as a provider SDK would) get the same verdict as the same JSON text, or,
// where encoding/json rounded a number to a float64, as the map with the
// numbers as written (json.Number).
func FuzzExecuteMap(f *testing.F) {
	addCallSeeds(f)
	tool := echoTool(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, args []byte) {
		var m map[string]any
		if err := json.Unmarshal(args, &m); err != nil {
			return
		}
		fromText := tool.ExecuteJSON(ctx, args)
		if errors.Is(fromText.Err, define.ErrDuplicateKey) || errors.Is(fromText.Err, define.ErrTooDeep) ||
			errors.Is(fromText.Err, define.ErrSyntax) {
			// A map cannot hold duplicate keys; encoding/json has its own depth
			// limit and replaces invalid UTF-8, which we reject.
			return
		}
		fromMap := tool.Execute(ctx, m)
		if split, ok := prepared(tool, ctx, nil, m); !ok {
			t.Fatalf("%v: the tool reports a decode of user code", m)
		} else if d := resultDiff(split, fromMap); d != "" {
			t.Fatalf("Execute(%v) split in two: %s", m, d)
		}
		if fromMap.IsError && fromMap.Err == nil {
			t.Fatalf("Execute(%v): error result %q without Err", m, fromMap.Output)
		}
		if fromMap.IsError != fromText.IsError {
			// encoding/json rounds every number to a float64 before the
			// decoder sees it (7000000000000000.1 becomes an integer):
			// the same map with the numbers as written must agree.
			var exact map[string]any
			dec := json.NewDecoder(bytes.NewReader(args))
			dec.UseNumber()
			if err := dec.Decode(&exact); err == nil && tool.Execute(ctx, exact).IsError == fromText.IsError {
				return
			}
			t.Fatalf("verdicts differ for %s:\n map:  %+v\n text: %+v", args, fromMap, fromText)
		}
	})
}
