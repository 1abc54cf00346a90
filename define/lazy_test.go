package define_test

import (
	"context"
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
		wg.Go(func() {
			tl := tool
			if i%2 == 1 {
				tl = other
			}
			ins[i], outs[i] = tl.InputSchema(), tl.OutputSchema()
		})
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
