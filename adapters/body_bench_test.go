package adapters_test

import (
	"fmt"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// BenchmarkBodyStep measures the body of step n: the step's entries (a
// replay and its results) appended to a history of 10, 100 and 1000
// entries and the whole body written out (Append and AppendTo), beside
// the body written out alone (write: what a step costs beyond its own
// entries), the byte copy of the same body (copy), the floor of any way to
// send it, and the same body built again from its whole history
// (rebuild).
// Both should grow linearly with the history; the step costs its own
// entries more than the copy.
func BenchmarkBodyStep(b *testing.B) {
	systemMessage := map[string]bool{"openai": true, "groq": true, "mistral": true, "ollama": true}
	for _, name := range []string{"openai", "groq", "mistral", "ollama", "openai-responses", "anthropic", "gemini", "bedrock"} {
		p := bodyProviders()[name]
		steps := bodyHistory(b, name, p)
		step := append(append([]any(nil), steps[1]...), steps[2]...)
		for _, n := range []int{10, 100, 1000} {
			body, err := adapters.NewBody(p, bodyRequest(b, name))
			if err != nil {
				b.Fatal(err)
			}
			for body.Len() < n {
				for _, s := range steps {
					if err := body.Append(s...); err != nil {
						b.Fatal(err)
					}
				}
			}
			var all []any
			for k := 0; k < body.Len()/len(steps); k++ { // the history again, for rebuild
				for _, s := range steps {
					all = append(all, s...)
				}
			}
			history := body.Len()
			if systemMessage[name] {
				history-- // the system message, which Len counts
			}
			all = append(all[:history], step...)
			mn, ms := adapters.BodyMark(body)
			if err := body.Append(step...); err != nil {
				b.Fatal(err)
			}
			whole := body.Bytes()
			adapters.BodyRewind(body, mn, ms)
			dst := make([]byte, 0, len(whole))
			b.Run(fmt.Sprintf("%s/entries=%d/append", name, n), func(b *testing.B) {
				b.SetBytes(int64(len(whole)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := body.Append(step...); err != nil {
						b.Fatal(err)
					}
					dst = body.AppendTo(dst[:0])
					adapters.BodyRewind(body, mn, ms)
				}
				if string(dst) != string(whole) {
					b.Fatalf("the step's body is not the same body")
				}
			})
			b.Run(fmt.Sprintf("%s/entries=%d/write", name, n), func(b *testing.B) {
				if err := body.Append(step...); err != nil {
					b.Fatal(err)
				}
				defer adapters.BodyRewind(body, mn, ms)
				b.SetBytes(int64(len(whole)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					dst = body.AppendTo(dst[:0])
				}
				if string(dst) != string(whole) {
					b.Fatalf("the body written is not the same body")
				}
			})
			b.Run(fmt.Sprintf("%s/entries=%d/rebuild", name, n), func(b *testing.B) {
				b.SetBytes(int64(len(whole)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					fresh, err := adapters.NewBody(p, bodyRequest(b, name))
					if err != nil {
						b.Fatal(err)
					}
					if err := fresh.Append(all...); err != nil {
						b.Fatal(err)
					}
					dst = fresh.AppendTo(dst[:0])
				}
				if string(dst) != string(whole) {
					b.Fatalf("the rebuilt body is not the same body")
				}
			})
			b.Run(fmt.Sprintf("%s/entries=%d/copy", name, n), func(b *testing.B) {
				b.SetBytes(int64(len(whole)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					dst = append(dst[:0], whole...)
				}
			})
		}
	}
}
