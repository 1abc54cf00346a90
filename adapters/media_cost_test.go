package adapters_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/mediatest"
)

// TestMediaEncodedOnce renders, for every provider, a result holding a
// 256 KiB image and writes the entries three ways (AppendJSON into a
// reused buffer, json.NewEncoder into a reused buffer, json.Marshal). In
// each, the image's bytes go through the package's base64 encoder at
// most once (exactly once for AppendJSON, whose writers are the
// package's), its base64 appears once in the body, and the bytes
// allocated per write, once warm, stay under the copies the path cannot
// avoid: none for AppendJSON, the data: URL a MarshalText returns for
// the encoder, that and json.Marshal's result for json.Marshal. A second
// encoding into a buffer of its own breaks the bound by the encoded size.
// The bound is checked on the least of three warm runs (the memory
// statistics count every goroutine's), and not under -race. (Not
// parallel: it sets the package's encoding hook.)
func TestMediaEncodedOnce(t *testing.T) {
	img := mediatest.Sized(256 << 10)
	b64 := base64.StdEncoding.EncodeToString(img)
	enc := uint64(len(b64))
	results := []define.Result{{Output: "the screen", Parts: []define.Part{define.ImagePart("image/png", img)}}}
	calls := mediaCalls(1)
	var count int
	adapters.SetEncoded(func(data []byte) {
		if len(data) == len(img) && &data[0] == &img[0] {
			count++
		}
	})
	defer adapters.SetEncoded(nil)
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // the pool of encoding/json keeps its buffer
	const slack = 16 << 10
	for _, p := range adapters.Providers() {
		var body bytes.Buffer
		var buf []byte
		write := map[string]func(entries []any) ([]byte, error){
			"append": func(entries []any) ([]byte, error) {
				var err error
				buf, err = adapters.AppendJSON(buf[:0], entries)
				return buf, err
			},
			"encoder": func(entries []any) ([]byte, error) {
				body.Reset()
				err := json.NewEncoder(&body).Encode(entries)
				return body.Bytes(), err
			},
			"marshal": func(entries []any) ([]byte, error) { return json.Marshal(entries) },
		}
		bound := map[string]uint64{"append": slack, "encoder": enc + slack, "marshal": 2*enc + slack}
		for _, mode := range []string{"append", "encoder", "marshal"} {
			least := ^uint64(0)  // the least bytes allocated by a warm run
			for run := range 4 { // the first run warms the buffers
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				count = 0
				entries, err := p.Results(calls, results)
				if err != nil {
					t.Fatalf("%s: Results: %v", p.Name(), err)
				}
				out, err := write[mode](entries)
				if err != nil {
					t.Fatalf("%s/%s: %v", p.Name(), mode, err)
				}
				runtime.ReadMemStats(&after)
				if n := bytes.Count(out, []byte(b64[:4096])); n != 1 {
					t.Fatalf("%s/%s: the image's base64 is in the body %d times, want 1", p.Name(), mode, n)
				}
				if count > 1 || mode == "append" && count != 1 {
					t.Fatalf("%s/%s: the image was encoded %d times by the package in one render", p.Name(), mode, count)
				}
				if run > 0 {
					least = min(least, after.TotalAlloc-before.TotalAlloc)
				}
			}
			// Under -race, sync.Pool drops what it is given at random, so
			// encoding/json's buffer is not kept; the counts above hold.
			if !raceEnabled && least > bound[mode] {
				t.Errorf("%s/%s: %d bytes allocated per render, want at most %d (%.2f of the encoded size %d)",
					p.Name(), mode, least, bound[mode], float64(least)/float64(enc), enc)
			}
		}
	}
}
