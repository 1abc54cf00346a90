package tnmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

// toolJSON is the tools/list entry of a tool named name with a small
// object schema.
func toolJSON(name string) string {
	return `{"name":"` + name + `","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}`
}

// pagedServer answers tools/list with page(cursor): the tools of the page
// (JSON entries) and the next cursor ("" for none). It counts the pages
// it served.
func pagedServer(t *testing.T, pages *atomic.Int64, page func(cursor string) ([]string, string)) *mcp.ClientSession {
	t.Helper()
	return serveRaw(t, func(method string, params json.RawMessage) []byte {
		if method != "tools/list" {
			return nil
		}
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(params, &p)
		pages.Add(1)
		tools, next := page(p.Cursor)
		out := `{"tools":[` + strings.Join(tools, ",") + `]`
		if next != "" {
			out += `,"nextCursor":"` + next + `"`
		}
		return []byte(out + "}")
	})
}

// remoteWithin runs NewRemote with context.Background() and fails the
// test if it has not returned after d: a listing must end on its own
// bounds, not on the caller's deadline.
func remoteWithin(t *testing.T, d time.Duration, cs *mcp.ClientSession, opts ...tnmcp.RemoteOption) (*tnmcp.Remote, error) {
	t.Helper()
	type answer struct {
		r   *tnmcp.Remote
		err error
	}
	done := make(chan answer, 1)
	go func() {
		r, err := tnmcp.NewRemote(context.Background(), cs, opts...)
		done <- answer{r, err}
	}()
	select {
	case a := <-done:
		if a.r != nil {
			t.Cleanup(a.r.Close)
		}
		return a.r, a.err
	case <-time.After(d):
		t.Fatalf("NewRemote(context.Background()) has not returned after %v", d)
		return nil, nil
	}
}

// TestRemoteListingEndless: a server that answers every page with one
// more tool and a new cursor, forever. NewRemote stops at the page bound
// (on main it listed until the caller's deadline, and never returned
// with context.Background()).
func TestRemoteListingEndless(t *testing.T) {
	var pages atomic.Int64
	cs := pagedServer(t, &pages, func(cursor string) ([]string, string) {
		n := pages.Load()
		return []string{toolJSON(fmt.Sprintf("t%d", n))}, fmt.Sprintf("c%d", n)
	})
	_, err := remoteWithin(t, 20*time.Second, cs)
	if !errors.Is(err, tnmcp.ErrListLimit) || !strings.Contains(err.Error(), "100 pages") {
		t.Fatalf("NewRemote: %v, want ErrListLimit at %d pages", err, tnmcp.DefaultMaxPages)
	}
	if n := pages.Load(); n != tnmcp.DefaultMaxPages {
		t.Errorf("%d pages requested, want %d", n, tnmcp.DefaultMaxPages)
	}

	// Other bounds, and none.
	pages.Store(0)
	_, err = remoteWithin(t, 20*time.Second, cs, tnmcp.WithListLimits(tnmcp.ListLimits{MaxPages: 7}))
	if !errors.Is(err, tnmcp.ErrListLimit) || pages.Load() != 7 {
		t.Errorf("MaxPages 7: %v after %d pages", err, pages.Load())
	}
	pages.Store(0)
	_, err = remoteWithin(t, 20*time.Second, cs, tnmcp.WithListLimits(tnmcp.ListLimits{MaxPages: -1, MaxTools: 250}))
	if !errors.Is(err, tnmcp.ErrListLimit) || !strings.Contains(err.Error(), "250 tools") || pages.Load() != 251 {
		t.Errorf("no page bound, 250 tools: %v after %d pages", err, pages.Load())
	}
}

// TestRemoteListingRepeatedCursor: a server whose pages come back to a
// cursor already followed ("a", "b", "a", ...): the listing fails at once
// instead of going round (on main it went round until the deadline).
func TestRemoteListingRepeatedCursor(t *testing.T) {
	var pages atomic.Int64
	cs := pagedServer(t, &pages, func(cursor string) ([]string, string) {
		switch cursor {
		case "":
			return []string{toolJSON("first")}, "a"
		case "a":
			return nil, "b" // an empty page
		}
		return []string{toolJSON("again")}, "a"
	})
	_, err := remoteWithin(t, 20*time.Second, cs, tnmcp.WithListLimits(tnmcp.ListLimits{MaxPages: -1, MaxTools: -1, MaxBytes: -1}))
	if !errors.Is(err, tnmcp.ErrCursorRepeated) || pages.Load() != 3 {
		t.Errorf("cursor a, b, a: %v after %d pages, want ErrCursorRepeated after 3", err, pages.Load())
	}
}

// TestRemoteListingTools: the default bound on tools leaves a server of
// real size (117 tools, the largest public server checked) far inside it
// and refuses one more than DefaultMaxTools, in pages of 100.
func TestRemoteListingTools(t *testing.T) {
	var pages atomic.Int64
	paged := func(total int) func(string) ([]string, string) {
		return func(cursor string) ([]string, string) {
			start := 0
			fmt.Sscanf(cursor, "from-%d", &start)
			var tools []string
			for i := start; i < min(start+100, total); i++ {
				tools = append(tools, toolJSON(fmt.Sprintf("tool_%d", i)))
			}
			if start+100 >= total {
				return tools, ""
			}
			return tools, fmt.Sprintf("from-%d", start+100)
		}
	}
	r, err := remoteWithin(t, 20*time.Second, pagedServer(t, &pages, paged(117)))
	if err != nil || len(r.Tools()) != 117 || pages.Load() != 2 {
		t.Fatalf("117 tools in 2 pages: %v, %d pages", err, pages.Load())
	}
	cs := pagedServer(t, &pages, paged(tnmcp.DefaultMaxTools+1))
	if _, err := remoteWithin(t, 20*time.Second, cs); !errors.Is(err, tnmcp.ErrListLimit) || !strings.Contains(err.Error(), "1000 tools") {
		t.Errorf("%d tools: %v, want ErrListLimit", tnmcp.DefaultMaxTools+1, err)
	}
	r, err = remoteWithin(t, 20*time.Second, cs, tnmcp.WithListLimits(tnmcp.ListLimits{MaxTools: 2000}))
	if err != nil || len(r.Tools()) != tnmcp.DefaultMaxTools+1 {
		t.Errorf("MaxTools 2000: %v", err)
	}
}

// bigDescriptionServer lists one tool whose description is n bytes and
// another one.
func bigDescriptionServer(t *testing.T, n int) *mcp.ClientSession {
	list := []byte(`{"tools":[{"name":"big","description":"` + strings.Repeat("d", n) + `","inputSchema":{"type":"object"}},` + toolJSON("small") + `]}`)
	return serveRaw(t, func(method string, _ json.RawMessage) []byte {
		if method == "tools/list" {
			return list
		}
		return nil
	})
}

// TestRemoteListingBytes: the bytes of a listing are bounded; within the
// bound, a 10 MB description is cut to MaxDescription.
func TestRemoteListingBytes(t *testing.T) {
	cs := bigDescriptionServer(t, 10<<20)
	_, err := remoteWithin(t, 20*time.Second, cs, tnmcp.WithListLimits(tnmcp.ListLimits{MaxBytes: 1 << 20}))
	if !errors.Is(err, tnmcp.ErrListLimit) || !strings.Contains(err.Error(), "1048576 bytes") {
		t.Errorf("MaxBytes 1 MiB: %v, want ErrListLimit", err)
	}
	r, err := remoteWithin(t, 20*time.Second, cs)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range r.Tools() {
		if n := len([]rune(tool.Description())); n > tnmcp.MaxDescription {
			t.Errorf("%s: description of %d characters", tool.Name(), n)
		}
	}
}

// TestRemoteRefreshCacheHashed: what a Remote keeps of a listing is its
// tools, not the listing: with a tool of a 10 MB description, the heap
// that stays live with the Remote (its session closed) is far below the
// description's size. On main the refresh cache kept each tool's whole
// JSON as its key (10 MB here).
func TestRemoteRefreshCacheHashed(t *testing.T) {
	const size = 10 << 20
	cs := bigDescriptionServer(t, size)
	before := liveHeap()
	r, err := tnmcp.NewRemote(context.Background(), cs)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Refresh(context.Background()); err != nil { // the cache's second generation
		t.Fatal(err)
	}
	cs.Close() // the SDK's reading buffer goes with its connection
	kept := int64(liveHeap()) - int64(before)
	runtime.KeepAlive(r)
	t.Logf("the Remote keeps %d bytes after listing a %d-byte description", kept, size)
	if kept > size/8 {
		t.Errorf("the Remote keeps %d bytes of a listing with a %d-byte description", kept, size)
	}
	if len(r.Tools()) != 2 {
		t.Errorf("%d tools", len(r.Tools()))
	}
}

// liveHeap returns the bytes of live heap objects after a collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestRemoteSkipsBadSchema: tools that define.NewTool refuses are left
// out, each reported with its error, and the server's other tools load
// (on main one such tool made NewRemote and every Refresh fail).
func TestRemoteSkipsBadSchema(t *testing.T) {
	var fixed atomic.Bool
	cs := serveRaw(t, func(method string, _ json.RawMessage) []byte {
		if method != "tools/list" {
			return nil
		}
		notObject := `{"name":"not_object","inputSchema":{"type":"array"}}`
		if fixed.Load() {
			notObject = toolJSON("not_object")
		}
		return []byte(`{"tools":[` + toolJSON("good_one") + `,` + notObject + `,` +
			`{"name":"bad keyword","inputSchema":{"type":"object","additionalProperties":3}},` +
			`{"name":"wide","inputSchema":{"type":"object","properties":{"a":{},"b":{},"c":{},"d":{},"e":{},"f":{},"g":{},"h":{},"i":{},"j":{},"k":{}}}},` +
			toolJSON("good_two") + `]}`)
	})
	var reported []tnmcp.SkippedTool
	r, err := tnmcp.NewRemote(context.Background(), cs,
		tnmcp.WithToolOptions(define.WithMaxSchemaNodes(10)),
		tnmcp.OnSkip(func(s tnmcp.SkippedTool) { reported = append(reported, s) }))
	if err != nil {
		t.Fatalf("NewRemote: %v, want the good tools loaded", err)
	}
	defer r.Close()
	var names []string
	for _, tool := range r.Tools() {
		names = append(names, tool.Name())
	}
	if fmt.Sprint(names) != "[good_one good_two]" {
		t.Errorf("tools %v, want [good_one good_two]", names)
	}
	skipped := r.Skipped()
	want := map[string]string{
		"not_object":  `root must have "type": "object"`,
		"bad keyword": "a schema must be an object or a boolean",
		"wide":        "schema",
	}
	if len(skipped) != len(want) || fmt.Sprint(skipped) != fmt.Sprint(reported) {
		t.Fatalf("Skipped() = %v, OnSkip got %v; want %d tools", skipped, reported, len(want))
	}
	for _, s := range skipped {
		if w, ok := want[s.Remote]; !ok || s.Err == nil || !strings.Contains(s.Err.Error(), w) || !strings.Contains(s.Err.Error(), `"`+s.Remote+`"`) {
			t.Errorf("skipped %q: %v, want an error naming it and saying %q", s.Remote, s.Err, w)
		}
	}
	if _, ok := r.ToolName("not_object"); ok {
		t.Error("a skipped tool has a tool name")
	}

	// Fixed on the server, it loads at the next listing.
	fixed.Store(true)
	if err := r.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(r.Tools()) != 3 || len(r.Skipped()) != 2 {
		t.Errorf("after the fix: %d tools, skipped %v", len(r.Tools()), r.Skipped())
	}

	// RemoteTools reports through OnSkip too.
	reported = nil
	tools, err := tnmcp.RemoteTools(context.Background(), cs, tnmcp.OnSkip(func(s tnmcp.SkippedTool) { reported = append(reported, s) }))
	if err != nil || len(tools) != 4 || len(reported) != 1 || reported[0].Remote != "bad keyword" {
		t.Errorf("RemoteTools: %d tools, %v, reported %v", len(tools), err, reported)
	}
}

// allocated returns the bytes f allocates (all goroutines counted).
func allocated(f func()) int64 {
	runtime.GC()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return int64(b.TotalAlloc - a.TotalAlloc)
}

// emptyImages is a result of n image blocks without data or MIME type.
func emptyImages(n int) *mcp.CallToolResult {
	content := make([]mcp.Content, n)
	for i := range content {
		content[i] = &mcp.ImageContent{Data: []byte{}}
	}
	return &mcp.CallToolResult{Content: content}
}

// TestRemoteResultBounded: a result over the output limit is refused
// from its measured length, before a byte of it is copied: a 4 MB text
// and 100,000 empty image blocks (whose notes would make 3.1 MB) cost
// under 64 KiB to refuse. On main the text was copied whole (and given
// back whole by RemoteResult), and each image block's note was made with
// fmt.Sprintf and joined (about 26 MB for 100,000 blocks).
func TestRemoteResultBounded(t *testing.T) {
	text := strings.Repeat("x", 4_000_000)
	big := textResult(text)
	images := emptyImages(100_000)
	const note = "[image: no MIME type, 0 bytes]"
	for _, c := range []struct {
		name string
		res  *mcp.CallToolResult
		size int
	}{
		{"text", big, len(text)},
		{"images", images, 100_000*len(note) + 100_000 - 1},
	} {
		var r define.Result
		n := allocated(func() { r = tnmcp.RemoteResult("s", "t", c.res) })
		want := fmt.Sprintf("the tool's output was %d bytes, more than the limit of %d", c.size, define.DefaultMaxOutputBytes)
		if !r.IsError || r.Output != want || !errors.Is(r.Err, define.ErrOutputTooLarge) {
			t.Errorf("%s: %.200q, %v; want %q wrapping define.ErrOutputTooLarge", c.name, r.Output, r.Err, want)
		}
		t.Logf("%s: refusing %d bytes of output allocated %d bytes", c.name, c.size, n)
		if n > 64<<10 {
			t.Errorf("%s: refusing %d bytes of output allocated %d bytes", c.name, c.size, n)
		}
	}

	// Within the limit, the output is built once, at its length.
	small := emptyImages(1000)
	var r define.Result
	n := allocated(func() { r = tnmcp.RemoteResultLimited("s", "t", small, -1) })
	want := strings.TrimSuffix(strings.Repeat(note+"\n", 1000), "\n")
	if r.IsError || r.Output != want {
		t.Errorf("1,000 images: %.80q", r.Output)
	}
	if n > int64(len(want))+4<<10 {
		t.Errorf("a %d-byte output allocated %d bytes", len(want), n)
	}
	if r := tnmcp.RemoteResultLimited("s", "t", big, -1); r.IsError || r.Output != text {
		t.Errorf("no bound: %.80q", r.Output)
	}
	if r := tnmcp.RemoteResultLimited("s", "t", big, len(text)); r.IsError || len(r.Output) != len(text) {
		t.Errorf("a bound of exactly the output: %.80q", r.Output)
	}
	if r := tnmcp.RemoteResultLimited("s", "t", big, 0); !r.IsError || !strings.HasSuffix(r.Output, fmt.Sprint("limit of ", define.DefaultMaxOutputBytes)) {
		t.Errorf("a bound of 0, the default: %.80q", r.Output)
	}
}

// TestRemoteToolOutputLimit: a remote tool's result is refused at the
// tool's own define.WithMaxOutputBytes, and the call allocates no more
// than the SDK does to read the answer.
func TestRemoteToolOutputLimit(t *testing.T) {
	const size = 4_000_000
	answers := map[string][]byte{
		"small": []byte(`{"content":[{"type":"text","text":"` + strings.Repeat("s", 900) + `"}]}`),
		"over":  []byte(`{"content":[{"type":"text","text":"` + strings.Repeat("o", 1001) + `"}]}`),
		"big":   []byte(`{"content":[{"type":"text","text":"` + strings.Repeat("b", size) + `"}]}`),
	}
	cs := serveRaw(t, func(method string, params json.RawMessage) []byte {
		switch method {
		case "tools/list":
			return []byte(`{"tools":[` + toolJSON("small") + `,` + toolJSON("over") + `,` + toolJSON("big") + `]}`)
		case "tools/call":
			var p struct{ Name string }
			_ = json.Unmarshal(params, &p)
			return answers[p.Name]
		}
		return nil
	})
	ctx := context.Background()
	tools, err := tnmcp.RemoteTools(ctx, cs, tnmcp.WithToolOptions(define.WithMaxOutputBytes(1000)))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools {
		r := tool.ExecuteJSON(ctx, nil)
		switch tool.Name() {
		case "small":
			if r.IsError || len(r.Output) != 900 {
				t.Errorf("small: %.80q", r.Output)
			}
		case "over", "big":
			if !r.IsError || !errors.Is(r.Err, define.ErrOutputTooLarge) || !strings.HasSuffix(r.Output, "more than the limit of 1000") {
				t.Errorf("%s: %.80q, %v", tool.Name(), r.Output, r.Err)
			}
		}
	}

	// The call's own allocation beyond the SDK's reading of the answer.
	big := tools[2]
	var call, sdk int64
	for range 3 { // the smallest of 3, against the SDK's buffers' growth
		c := allocated(func() { big.ExecuteJSON(ctx, nil) })
		s := allocated(func() { _, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "big", Arguments: map[string]any{}}) })
		if call == 0 || c < call {
			call = c
		}
		if sdk == 0 || s < sdk {
			sdk = s
		}
	}
	t.Logf("a %d-byte text result: the call allocated %.2f bytes a result byte, the SDK's CallTool alone %.2f", size, float64(call)/size, float64(sdk)/size)
	if extra := call - sdk; extra > size/10 {
		t.Errorf("the call allocated %d bytes more than the SDK's CallTool (%d) for a %d-byte result", extra, sdk, size)
	}
}

// TestStructuredOutputJSON: the JSON of a structuredContent that is a
// result's only content is what json.Marshal writes, byte for byte, and
// is bounded like the text.
func TestStructuredOutputJSON(t *testing.T) {
	values := []any{
		map[string]any{"z": 1.0, "a": []any{"x", true, false, nil}, "m": map[string]any{}, "é": "<b>&</b>"},
		map[string]any{"s": "quote \" backslash \\ nl \n cr \r tab \t bs \b ff \f nul \x00 us \x1f del \x7f", "sep": "\u2028\u2029", "bad": "a\xffb\xc3", "emoji": "😀"},
		map[string]any{"nums": []any{0.0, math.Copysign(0, -1), 1.0, -1.5, 1e20, 1e21, 123456789012345678.0, 1e-6, 1e-7, 5e-324, 1.7976931348623157e308, -2.5e-10, 0.1, 100.0}},
		map[string]any{"nil slice": []any(nil), "nil map": map[string]any(nil), "int": 7, "raw": json.RawMessage(`{"k":[1,2]}`), "struct": struct{ A int }{3}},
		[]any{map[string]any{"b": 2.0, "a": 1.0}, "<>&"},
		"just a string",
	}
	for _, v := range values {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		r := tnmcp.RemoteResultLimited("s", "t", &mcp.CallToolResult{StructuredContent: v}, -1)
		if r.IsError || r.Output != string(want) {
			t.Errorf("got  %s\nwant %s", r.Output, want)
		}
		if r := tnmcp.RemoteResultLimited("s", "t", &mcp.CallToolResult{StructuredContent: v}, len(want)-1); !r.IsError || !errors.Is(r.Err, define.ErrOutputTooLarge) ||
			!strings.Contains(r.Output, fmt.Sprintf("was %d bytes", len(want))) {
			t.Errorf("one byte over: %q", r.Output)
		}
	}
	// Deeper than define's output depth (a cycle is), and not JSON.
	deep := map[string]any{}
	deep["self"] = deep
	if r := tnmcp.RemoteResult("s", "t", &mcp.CallToolResult{StructuredContent: deep}); !r.IsError || !errors.Is(r.Err, define.ErrOutputTooDeep) {
		t.Errorf("a cycle: %+v", r)
	}
	var ce *tnmcp.CallError
	if r := tnmcp.RemoteResult("s", "t", &mcp.CallToolResult{StructuredContent: map[string]any{"f": func() {}}}); !r.IsError || !errors.As(r.Err, &ce) {
		t.Errorf("a func: %+v", r)
	}
}

// BenchmarkRemoteResultLarge: one call of a remote tool whose answer is
// one 15 MB text block, or 300,000 empty image blocks (12.3 MB, notes of
// 9.3 MB), both over the default output limit, through a server of the
// test's own over a pipe (so that only the client allocates): the whole
// call ("call", the tool's ExecuteJSON) and the go-sdk client's CallTool
// alone ("sdk"), in bytes allocated per byte of the answer
// (B/resultbyte).
//
//	go test ./integrations/mcp -run '^$' -bench RemoteResultLarge -benchtime 3x
func BenchmarkRemoteResultLarge(b *testing.B) {
	var images strings.Builder
	images.WriteString(`{"content":[`)
	for i := range 300_000 {
		if i > 0 {
			images.WriteByte(',')
		}
		images.WriteString(`{"type":"image","data":"","mimeType":""}`)
	}
	images.WriteString(`]}`)
	answers := map[string][]byte{
		"text":   []byte(`{"content":[{"type":"text","text":"` + strings.Repeat("x", 15_000_000) + `"}]}`),
		"images": []byte(images.String()),
	}
	cs := serveRaw(b, func(method string, params json.RawMessage) []byte {
		switch method {
		case "tools/list":
			return []byte(`{"tools":[` + toolJSON("text") + `,` + toolJSON("images") + `]}`)
		case "tools/call":
			var p struct{ Name string }
			_ = json.Unmarshal(params, &p)
			return answers[p.Name]
		}
		return nil
	})
	ctx := context.Background()
	tools, err := tnmcp.RemoteTools(ctx, cs)
	if err != nil {
		b.Fatal(err)
	}
	for _, tool := range tools {
		size := float64(len(answers[tool.Name()]))
		tool.ExecuteJSON(ctx, nil) // the SDK's reading buffers grow once
		for _, part := range []string{"call", "sdk"} {
			b.Run(tool.Name()+"/"+part, func(b *testing.B) {
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				for b.Loop() {
					if part == "call" {
						if r := tool.ExecuteJSON(ctx, nil); !errors.Is(r.Err, define.ErrOutputTooLarge) {
							b.Fatalf("%.100q", r.Output)
						}
					} else if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name(), Arguments: map[string]any{}}); err != nil {
						b.Fatal(err)
					}
				}
				runtime.ReadMemStats(&m1)
				b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(b.N)/size, "B/resultbyte")
			})
		}
	}
}

// FuzzStructuredOutputJSON: for any string (invalid UTF-8 included) and
// any finite float, the JSON that RemoteResult writes of a lone
// structuredContent is json.Marshal's, byte for byte.
//
//	go test ./integrations/mcp -run '^$' -fuzz FuzzStructuredOutputJSON -fuzztime 2m
func FuzzStructuredOutputJSON(f *testing.F) {
	f.Add("plain", 1.5)
	f.Add("<a href=\"x\">&amp;</a>\u2028\u2029\x00\x1f\x7f\xff", 1e21)
	f.Add("é\xc3(\xe2\x82\x28😀", 1e-7)
	f.Add("\b\f\n\r\t\\\"", math.Copysign(0, -1))
	f.Fuzz(func(t *testing.T, s string, x float64) {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return
		}
		v := map[string]any{s: x, "s": s, "list": []any{s, x, nil, true}}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if r := tnmcp.RemoteResultLimited("s", "t", &mcp.CallToolResult{StructuredContent: v}, -1); r.IsError || r.Output != string(want) {
			t.Errorf("got  %q\nwant %q", r.Output, want)
		}
	})
}

// joinedBefore is how RemoteResult joins a result's content (the text
// and notes of each item, one a line) up to its first part (an image, a
// sound or a blob with data), and, from there on, the parts, each text
// line a text part of its own ("text:..."; a part is "image:MIME:N",
// "audio:MIME:N", "file:MIME:NAME:N"), kept as the reference the measured
// join must agree with; size is what the output limit counts: the Output
// and the text parts.
func joinedBefore(content []mcp.Content) (out string, parts []string, size int) {
	var b strings.Builder
	started := false
	line := func(s string) {
		if started {
			if s != "" {
				parts = append(parts, "text:"+s)
				size += len(s)
			}
			return
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	part := func(s string) {
		started = true
		parts = append(parts, s)
	}
	sizeOf := func(n int) string {
		if n == 1 {
			return "1 byte"
		}
		return fmt.Sprintf("%d bytes", n)
	}
	media := func(kind, mime string, n int) string {
		if mime == "" {
			mime = "no MIME type"
		}
		return fmt.Sprintf("[%s: %s, %s]", kind, mime, sizeOf(n))
	}
	for _, c := range content {
		switch c := c.(type) {
		case *mcp.TextContent:
			line(c.Text)
		case *mcp.ImageContent:
			if len(c.Data) > 0 {
				part(fmt.Sprintf("image:%s:%d", c.MIMEType, len(c.Data)))
				continue
			}
			line(media("image", c.MIMEType, len(c.Data)))
		case *mcp.AudioContent:
			if len(c.Data) > 0 {
				part(fmt.Sprintf("audio:%s:%d", c.MIMEType, len(c.Data)))
				continue
			}
			line(media("audio", c.MIMEType, len(c.Data)))
		case *mcp.ResourceLink:
			note := "[resource link: " + c.URI
			if c.MIMEType != "" {
				note += ", " + c.MIMEType
			}
			if c.Size != nil {
				note += ", " + sizeOf(int(*c.Size))
			}
			line(note + "]")
		case *mcp.EmbeddedResource:
			rc := c.Resource
			if rc == nil {
				line("[resource]")
				continue
			}
			if len(rc.Blob) > 0 {
				name := ""
				if u, err := url.Parse(rc.URI); err == nil {
					if name = path.Base(u.Path); name == "." || name == "/" {
						name = ""
					}
				}
				part(fmt.Sprintf("file:%s:%s:%d", rc.MIMEType, name, len(rc.Blob)))
				continue
			}
			mime := rc.MIMEType
			if mime == "" {
				mime = "no MIME type"
			}
			if rc.Blob != nil || rc.Text == "" {
				line(fmt.Sprintf("[resource %s: %s, %s]", rc.URI, mime, sizeOf(len(rc.Blob))))
				continue
			}
			line(fmt.Sprintf("[resource %s: %s, %s of text]", rc.URI, mime, sizeOf(len(rc.Text))))
			line(rc.Text)
		}
	}
	return b.String(), parts, size + b.Len()
}

// partsText describes parts as joinedBefore does.
func partsText(parts []define.Part) []string {
	var out []string
	for _, p := range parts {
		switch p.Kind {
		case define.PartText:
			out = append(out, "text:"+p.Text)
		case define.PartFile:
			out = append(out, fmt.Sprintf("file:%s:%s:%d", p.MIMEType, p.Filename, len(p.Data)))
		default:
			out = append(out, fmt.Sprintf("%s:%s:%d", p.Kind, p.MIMEType, len(p.Data)))
		}
	}
	return out
}

// FuzzRemoteResultJoin: for any sequence of content items (each byte of
// kinds picks one, built from the strings a and b and the size n), the
// measured join writes what joinedBefore writes, and a limit of its exact
// length passes it while one byte less refuses it with that length.
//
//	go test ./integrations/mcp -run '^$' -fuzz FuzzRemoteResultJoin -fuzztime 2m
func FuzzRemoteResultJoin(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7}, "text", "image/png", 1)
	f.Add([]byte{0, 0, 7, 0}, "", "", 0)
	f.Add([]byte{6, 5, 4}, "file:///a b", "text/plain", 1024)
	f.Fuzz(func(t *testing.T, kinds []byte, a, b string, n int) {
		if len(kinds) > 64 || n < 0 || n > 1<<16 {
			return
		}
		var content []mcp.Content
		for _, k := range kinds {
			size := int64(n)
			switch k % 8 {
			case 0:
				content = append(content, &mcp.TextContent{Text: a})
			case 1:
				content = append(content, &mcp.ImageContent{Data: make([]byte, n), MIMEType: b})
			case 2:
				content = append(content, &mcp.AudioContent{Data: make([]byte, n), MIMEType: b})
			case 3:
				content = append(content, &mcp.ResourceLink{URI: a, MIMEType: b, Size: &size})
			case 4:
				content = append(content, &mcp.ResourceLink{URI: b})
			case 5:
				content = append(content, &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: a, MIMEType: b, Text: a}})
			case 6:
				content = append(content, &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: b, Blob: make([]byte, n)}})
			case 7:
				content = append(content, &mcp.EmbeddedResource{})
			}
		}
		res := &mcp.CallToolResult{Content: content}
		want, wantParts, size := joinedBefore(content)
		if r := tnmcp.RemoteResultLimited("s", "t", res, -1); r.IsError || r.Output != want || !slices.Equal(partsText(r.Parts), wantParts) {
			t.Fatalf("got  %q %q\nwant %q %q", r.Output, partsText(r.Parts), want, wantParts)
		}
		if r := tnmcp.RemoteResultLimited("s", "t", res, size); size > 0 && (r.IsError || r.Output != want) {
			t.Fatalf("at a limit of its length: %+v", r)
		}
		if size > 1 {
			r := tnmcp.RemoteResultLimited("s", "t", res, size-1)
			if !r.IsError || !strings.Contains(r.Output, fmt.Sprintf("was %d bytes", size)) {
				t.Fatalf("one byte under its length: %+v", r)
			}
		}
	})
}
