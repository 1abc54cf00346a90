package adapters_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/mediatest"
)

// BenchmarkResultsImage renders, for every provider, the result of one
// call that returned a 1 MiB image: Provider.Results, then the entries
// encoded as JSON, as a request body is (append: AppendJSON into a buffer
// the request reuses; encoder: json.NewEncoder into such a buffer;
// marshal: json.Marshal). B/enc is the bytes
// allocated per byte of the image's base64 (1,398,104 bytes); the
// base64_once row is one base64 encoding of the image alone, the time
// every provider's rendering is held to (one encoding, no copy of it).
//
//	go test ./adapters -run '^$' -bench ResultsImage -benchmem
func BenchmarkResultsImage(b *testing.B) {
	img := mediatest.Sized(1 << 20)
	enc := base64.StdEncoding.EncodedLen(len(img))
	results := []define.Result{{Output: "the screen", Parts: []define.Part{define.ImagePart("image/png", img)}}}
	calls := mediaCalls(1)
	b.Run("base64_once", func(b *testing.B) {
		buf := make([]byte, 0, enc)
		b.SetBytes(int64(len(img)))
		for b.Loop() {
			buf = base64.StdEncoding.AppendEncode(buf[:0], img)
		}
	})
	for _, p := range adapters.Providers() {
		for _, mode := range []string{"append", "encoder", "marshal"} {
			b.Run(p.Name()+"/"+mode, func(b *testing.B) {
				var body bytes.Buffer
				var buf []byte
				b.SetBytes(int64(len(img)))
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				n := 0
				for b.Loop() {
					entries, err := p.Results(calls, results)
					if err != nil {
						b.Fatal(err)
					}
					switch mode {
					case "append":
						buf, err = adapters.AppendJSON(buf[:0], entries)
					case "encoder":
						body.Reset()
						err = json.NewEncoder(&body).Encode(entries)
					default:
						_, err = json.Marshal(entries)
					}
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n)/float64(enc), "B/enc")
			})
		}
	}
}

// BenchmarkResultsText renders, for every provider, the results of a
// turn of four calls that returned text (a JSON object, a sentence, an
// error, an empty output), then marshals the entries: the path every
// text result takes, held no slower than before parts existed.
//
//	go test ./adapters -run '^$' -bench ResultsText -benchmem
func BenchmarkResultsText(b *testing.B) {
	calls, results := textResultsTurn()
	for _, p := range adapters.Providers() {
		b.Run(p.Name(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				entries, err := p.Results(calls, results)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(entries); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkResultsTextAppend is BenchmarkResultsText with the entries
// written by AppendJSON into a reused buffer, as Body.Append writes
// them: the library's own path to a request body.
//
//	go test ./adapters -run '^$' -bench ResultsTextAppend -benchmem
func BenchmarkResultsTextAppend(b *testing.B) {
	calls, results := textResultsTurn()
	for _, p := range adapters.Providers() {
		b.Run(p.Name(), func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				entries, err := p.Results(calls, results)
				if err != nil {
					b.Fatal(err)
				}
				if buf, err = adapters.AppendJSON(buf[:0], entries); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// textResultsTurn is a turn of four calls that returned text: a JSON
// object, a sentence, an error, an empty output.
func textResultsTurn() ([]adapters.Call, []define.Result) {
	calls := []adapters.Call{
		{ID: "callA0000", Name: "get_weather", Args: json.RawMessage(`{"city":"Paris"}`)},
		{ID: "callB0000", Name: "get_time", Args: json.RawMessage(`{"zone":"CET"}`)},
		{ID: "callC0000", Name: "get_weather", Args: json.RawMessage(`{"city":"Nowhere"}`)},
		{ID: "callD0000", Name: "ping", Args: json.RawMessage(`{}`)},
	}
	results := []define.Result{
		{Output: `{"city":"Paris","temperature":21.5,"conditions":"sunny","humidity":40}`},
		{Output: "It is 14:05 in Central European Time, on Tuesday the 3rd."},
		{Output: "invalid arguments: /city: no such city", IsError: true},
		{Output: ""},
	}
	return calls, results
}
