package define_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/define"
)

type order struct {
	ID    string   `json:"id"`
	Lines []string `json:"lines"`
}

type nilsOutput struct {
	Orders  []order           `json:"orders"`
	Pair    [2]order          `json:"pair"`
	Tags    map[string]string `json:"tags"`
	Counts  map[int]int       `json:"counts"`
	Blob    []byte            `json:"blob"`
	Maybe   *order            `json:"maybe"`
	Any     any               `json:"any"`
	When    time.Time         `json:"when"`
	Skipped []string          `json:"skipped,omitempty"`
}

// TestOutputNilSlicesAndMaps: a nil slice or map in an output is [] or {}
// (a nil []byte ""), as the output schema says; pointers and interfaces
// stay null.
func TestOutputNilSlicesAndMaps(t *testing.T) {
	tool := define.MustDefineTool(func(context.Context, struct{}) (nilsOutput, error) {
		return nilsOutput{}, nil
	}, define.WithName("nils"))
	r := tool.ExecuteJSON(context.Background(), nil)
	want := `{"orders":[],"pair":[{"id":"","lines":[]},{"id":"","lines":[]}],"tags":{},"counts":{},"blob":"","maybe":null,"any":null,"when":"0001-01-01T00:00:00Z"}`
	if r.IsError || r.Output != want {
		t.Errorf("Output = %s\nwant     %s", r.Output, want)
	}
	// A dynamically typed output too, and a top-level nil slice.
	anyTool := define.MustDefineTool(func(context.Context, struct{}) (any, error) {
		return map[string]any{"list": []int(nil), "map": map[string]int(nil)}, nil
	}, define.WithName("nils_any"))
	if r := anyTool.ExecuteJSON(context.Background(), nil); r.Output != `{"list":[],"map":{}}` {
		t.Errorf("any output = %s", r.Output)
	}
	sliceTool := define.MustDefineTool(func(context.Context, struct{}) ([]order, error) {
		return nil, nil
	}, define.WithName("nil_slice"))
	if r := sliceTool.ExecuteJSON(context.Background(), nil); r.Output != `[]` {
		t.Errorf("slice output = %s", r.Output)
	}
}

type node struct {
	Next *node `json:"next"`
}

// TestOutputTooDeep: an output nested far deeper than any model could
// read (a 3-million-node linked list, a cycle) is an error result naming
// the depth limit, not a stack overflow.
func TestOutputTooDeep(t *testing.T) {
	var head *node
	for range 3_000_000 {
		head = &node{Next: head}
	}
	deep := define.MustDefineTool(func(context.Context, struct{}) (*node, error) {
		return head, nil
	}, define.WithName("deep"))
	r := deep.ExecuteJSON(context.Background(), nil)
	if !r.IsError || !errors.Is(r.Err, define.ErrOutputTooDeep) || !strings.Contains(r.Output, "512") {
		t.Errorf("%s, want an ErrOutputTooDeep result naming the limit 512", short(r))
	}

	cyclic := &node{}
	cyclic.Next = cyclic
	cyc := define.MustDefineTool(func(context.Context, struct{}) (any, error) {
		return cyclic, nil
	}, define.WithName("cyclic"))
	if r := cyc.ExecuteJSON(context.Background(), nil); !errors.Is(r.Err, define.ErrOutputTooDeep) {
		t.Errorf("cycle: %s, want ErrOutputTooDeep", short(r))
	}

	// 512 levels are fine.
	var ok *node
	for range 511 {
		ok = &node{Next: ok}
	}
	fine := define.MustDefineTool(func(context.Context, struct{}) (*node, error) {
		return ok, nil
	}, define.WithName("fine"))
	if r := fine.ExecuteJSON(context.Background(), nil); r.IsError {
		t.Errorf("511 nodes: %s", short(r))
	}
}

// TestOutputLimitWhileEncoding: an output far over the limit is refused
// after about the limit's worth of encoding, not after encoding all of it;
// and the limit bounds a Result's Value too.
func TestOutputLimitWhileEncoding(t *testing.T) {
	text := strings.Repeat("x", 100_000)
	big := make([]order, 1000) // about 100 MB as JSON
	for i := range big {
		big[i] = order{ID: text}
	}
	tool := define.MustDefineTool(func(context.Context, struct{}) (struct{ Orders []order }, error) {
		return struct{ Orders []order }{big}, nil
	}, define.WithName("big"))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := tool.ExecuteJSON(context.Background(), nil)
	runtime.ReadMemStats(&after)
	if !errors.Is(r.Err, define.ErrOutputTooLarge) {
		t.Fatalf("%s, want ErrOutputTooLarge", short(r))
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 8<<20 {
		t.Errorf("refusing a 100 MB output allocated %d bytes, want at most 8 MiB", n)
	}

	// A Result carrying a large Value with a short Output.
	valued := define.MustDefineTool(func(context.Context, struct{}) (define.Result, error) {
		return define.Result{Output: "done", Value: struct{ Orders []order }{big}}, nil
	}, define.WithName("valued"))
	if r := valued.ExecuteJSON(context.Background(), nil); !errors.Is(r.Err, define.ErrOutputTooLarge) {
		t.Errorf("large Value: %s, want ErrOutputTooLarge", short(r))
	}
	small := define.MustDefineTool(func(context.Context, struct{}) (define.Result, error) {
		return define.Result{Output: "done", Value: struct{ Orders []order }{}}, nil
	}, define.WithName("small"))
	if r := small.ExecuteJSON(context.Background(), nil); r.IsError || r.Output != "done" {
		t.Errorf("small Value: %s", short(r))
	}
	unbounded := define.MustDefineTool(func(context.Context, struct{}) (struct{ Orders []order }, error) {
		return struct{ Orders []order }{big[:30]}, nil
	}, define.WithName("unbounded"), define.WithMaxOutputBytes(-1))
	if r := unbounded.ExecuteJSON(context.Background(), nil); r.IsError || len(r.Output) < 3_000_000 {
		t.Errorf("no bound: %s", short(r))
	}
}

// TestOutputUTF8: an output's text is valid UTF-8, also when a
// json.RawMessage or a MarshalJSON method holds bytes that are not.
func TestOutputUTF8(t *testing.T) {
	tool := define.MustDefineTool(func(context.Context, struct{}) (struct {
		Raw json.RawMessage `json:"raw"`
		S   string          `json:"s"`
	}, error) {
		var out struct {
			Raw json.RawMessage `json:"raw"`
			S   string          `json:"s"`
		}
		out.Raw = json.RawMessage("{\"k\": \"a\xffb\"}")
		out.S = "c\xfe"
		return out, nil
	}, define.WithName("utf8"))
	r := tool.ExecuteJSON(context.Background(), nil)
	if want := `{"raw":{"k":"a\ufffdb"},"s":"c\ufffd"}`; r.Output != want || !utf8.ValidString(r.Output) {
		t.Errorf("Output = %q, want %q", r.Output, want)
	}
}

// short describes a result in a line: its Output cut to 200 bytes and Err.
func short(r define.Result) string {
	out := r.Output
	if len(out) > 200 {
		out = out[:200] + "..."
	}
	return fmt.Sprintf("{Output: %q, IsError: %t, Err: %v}", out, r.IsError, r.Err)
}
