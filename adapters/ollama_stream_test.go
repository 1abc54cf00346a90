package adapters_test

import (
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// TestOllamaStreamCallAtOnce feeds an /api/chat stream line by line (each
// cut in two) and checks that a call reaches the Call hook as soon as the
// chunk that carries it is written, before the done line.
func TestOllamaStreamCallAtOnce(t *testing.T) {
	var got []adapters.Call
	var text string
	s, err := adapters.NewStream(adapters.ForOllama(), adapters.StreamHooks{
		Call: func(c adapters.Call) { got = append(got, c) },
		Text: func(d string) { text += d },
	})
	if err != nil {
		t.Fatal(err)
	}
	write := func(line string) {
		t.Helper()
		for _, piece := range []string{line[:len(line)/2], line[len(line)/2:] + "\n"} {
			if _, err := s.Write([]byte(piece)); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(`{"model":"qwen3","created_at":"t","message":{"role":"assistant","content":"Checking "},"done":false}`)
	write(`{"model":"qwen3","created_at":"t","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city": "Oslo"}}}]},"done":false}`)
	if len(got) != 1 || got[0].Name != "get_weather" || string(got[0].Args) != `{"city":"Oslo"}` {
		t.Fatalf("after the chunk with the call the Call hook has %v, want get_weather with compact arguments", got)
	}
	if text != "Checking " {
		t.Fatalf("the Text hook has %q, want %q", text, "Checking ")
	}
	write(`{"model":"qwen3","created_at":"t","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}`)
	turn, err := s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(turn.Calls) != 1 || turn.Stop != "stop" || turn.Text != "Checking " || len(got) != 1 {
		t.Fatalf("turn %+v, hook calls %v", turn, got)
	}
}

func FuzzOllamaStream(f *testing.F) { fuzzStream(f, adapters.ForOllama()) }
