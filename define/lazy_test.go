package define_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

// lazyIn and lazyOut are used by no other test, so that the schema JSON of
// each is encoded for the first time here.
type lazyIn struct {
	Query string   `json:"query" minLength:"1" description:"what to look for"`
	Limit int      `json:"limit,omitempty" minimum:"1" maximum:"50" default:"10"`
	Tags  []string `json:"tags,omitempty" maxItems:"4"`
}

type lazyOut struct {
	Hits int `json:"hits"`
}

// TestSchemaJSONConcurrentFirst asks many goroutines for the schemas of a
// new tool at once: the lazily encoded JSON must be the encoding of the
// schema tree, the same for all of them, under -race.
func TestSchemaJSONConcurrentFirst(t *testing.T) {
	tool, err := define.DefineTool(func(context.Context, lazyIn) (lazyOut, error) { return lazyOut{}, nil },
		define.WithName("lazy"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := define.DefineTool(func(context.Context, lazyIn) (lazyOut, error) { return lazyOut{}, nil },
		define.WithName("lazy_too"))
	if err != nil {
		t.Fatal(err)
	}
	inTree, err := schema.For[lazyIn]()
	if err != nil {
		t.Fatal(err)
	}
	outTree, err := schema.For[lazyOut]()
	if err != nil {
		t.Fatal(err)
	}
	wantIn, _ := inTree.MarshalJSON()
	wantOut, _ := outTree.MarshalJSON()

	const n = 16
	ins, outs := make([][]byte, n), make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tl := tool
			if i%2 == 1 {
				tl = other
			}
			ins[i], outs[i] = tl.InputSchema(), tl.OutputSchema()
		}()
	}
	wg.Wait()
	for i := range n {
		if diff := cmp.Diff(string(wantIn), string(ins[i])); diff != "" {
			t.Errorf("InputSchema of goroutine %d (-want +got):\n%s", i, diff)
		}
		if diff := cmp.Diff(string(wantOut), string(outs[i])); diff != "" {
			t.Errorf("OutputSchema of goroutine %d (-want +got):\n%s", i, diff)
		}
	}
	// The caller owns what it gets: writing to it changes no later answer.
	ins[0][0] = 'X'
	if diff := cmp.Diff(string(wantIn), string(tool.InputSchema())); diff != "" {
		t.Errorf("InputSchema after a caller wrote to its copy (-want +got):\n%s", diff)
	}
}

// ownDecoder decodes itself: it has no field-by-field plan, so it cannot be
// a tool's input, though schema.ForType accepts it (as an output type).
type ownDecoder struct {
	N int `json:"n"`
}

func (o *ownDecoder) UnmarshalJSON([]byte) error { return nil }

// structDefaultIn has a default that only decoding it can check.
type structDefaultIn struct {
	P struct {
		N int `json:"n" minimum:"5"`
	} `json:"p" default:"{\"n\":1}"`
}

// TestPlanErrorsStayDefineTime defines inputs whose problem only the decode
// plan finds: the definition fails, not the first call.
func TestPlanErrorsStayDefineTime(t *testing.T) {
	// (ForType accepts ownDecoder, an output type, and caches its tree.)
	if _, err := schema.For[ownDecoder](); err != nil {
		t.Fatal(err)
	}
	if _, err := define.DefineTool(func(context.Context, ownDecoder) (string, error) { return "", nil },
		define.WithName("own")); err == nil {
		t.Error("DefineTool with an UnmarshalJSON input succeeded; want an error")
	}
	_, err := define.DefineTool(func(context.Context, structDefaultIn) (string, error) { return "", nil },
		define.WithName("struct_default"))
	var te *schema.TypeError
	if !errors.As(err, &te) || !errors.Is(err, schema.ErrInvalidTag) {
		t.Errorf("DefineTool with a default below the minimum: error %v; want a *schema.TypeError wrapping ErrInvalidTag", err)
	}
}

// deferredIn is used by no other test: its plan is built by the first call.
type deferredIn struct {
	City  string   `json:"city" pattern:"^[A-Z][a-z]+$"`
	Seats int      `json:"seats" minimum:"1" maximum:"9"`
	Tags  []string `json:"tags,omitempty" maxItems:"2"`
}

// TestDeferredPlanConcurrentFirstCalls makes the first calls of a tool from
// many goroutines at once, half of them with bad arguments: every call gets
// its own verdict (run with -race).
func TestDeferredPlanConcurrentFirstCalls(t *testing.T) {
	tool, err := define.DefineTool(func(_ context.Context, in deferredIn) (string, error) {
		return in.City, nil
	}, define.WithName("deferred"))
	if err != nil {
		t.Fatal(err)
	}
	const n = 16
	got := make([]string, n)
	bad := make([]bool, n)
	schemas := make([]string, n)
	trees := make([]*schema.Schema, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				schemas[i] = string(tool.InputSchema())
			} else {
				trees[i] = tool.InputSchemaTree()
			}
			var r define.Result
			switch i % 4 {
			case 0:
				r = tool.ExecuteJSON(context.Background(), []byte(`{"city":"Oslo","seats":2}`))
			case 1:
				r = tool.Execute(context.Background(), map[string]any{"city": "Oslo", "seats": 2.0})
			case 2:
				r = tool.ExecuteJSON(context.Background(), []byte(`{"city":"oslo","seats":2}`))
			default:
				r = tool.Execute(context.Background(), map[string]any{"city": "Oslo", "seats": 10.0})
			}
			got[i], bad[i] = r.Output, r.IsError
		}()
	}
	wg.Wait()
	want, err := schema.For[deferredIn]()
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := want.MarshalJSON()
	for i := range n {
		if i%2 == 0 {
			if diff := cmp.Diff(string(wantJSON), schemas[i]); diff != "" {
				t.Errorf("call %d: InputSchema (-want +got):\n%s", i, diff)
			}
		} else if diff := cmp.Diff(want, trees[i]); diff != "" {
			t.Errorf("call %d: the input tree (-want +got):\n%s", i, diff)
		}
		wantBad := i%4 >= 2
		if diff := cmp.Diff(wantBad, bad[i]); diff != "" {
			t.Errorf("call %d: IsError (-want +got):\n%s\noutput %q", i, diff, got[i])
		}
		if !wantBad {
			if diff := cmp.Diff("Oslo", got[i]); diff != "" {
				t.Errorf("call %d: output (-want +got):\n%s", i, diff)
			}
		}
	}
}
