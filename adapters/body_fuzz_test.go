package adapters_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/adapters"
)

// FuzzBody builds every provider's body from a fuzzed system prompt, a
// prompt, and a passthrough member: NewBody either refuses (the member is
// not JSON, or is one the body writes) or writes a JSON object whose
// member is the value, compacted, and whose history holds the prompt.
func FuzzBody(f *testing.F) {
	f.Add("Be terse.", "Hi", "top_p", []byte(`0.9`))
	f.Add("\u2028<\"\\>", "\x00", "metadata", []byte(` {"a": [1, 2e300, "\u00e9"]} `))
	f.Add("", "", "model", []byte(`"x"`))
	f.Add("s", "p", "k", []byte(`{"a":1} {"b":2}`))
	providers := bodyProviders()
	f.Fuzz(func(t *testing.T, system, prompt, key string, val []byte) {
		for name, p := range providers {
			b, err := adapters.NewBody(p, adapters.Request{Model: "m", System: system, MaxTokens: 16,
				Extra: map[string]json.RawMessage{key: val}})
			if err != nil {
				if json.Valid(val) && utf8.ValidString(key) && !bytes.Contains([]byte(err.Error()), []byte("itself")) {
					t.Fatalf("%s: valid member %q refused: %v", name, key, err)
				}
				continue
			}
			if err := b.Append(p.Prompt(prompt)...); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b.Bytes(), &m); err != nil {
				t.Fatalf("%s: not a JSON object: %v\n%s", name, err, b.Bytes())
			}
			var want bytes.Buffer
			if err := json.Compact(&want, val); err != nil {
				t.Fatalf("%s: an invalid member taken: %q", name, val)
			}
			if !bytes.Equal(m[key], want.Bytes()) {
				t.Fatalf("%s: member %q is %s, want %s", name, key, m[key], want.Bytes())
			}
			if system != "" && !bytes.Contains(b.Bytes(), mustJSON(t, system)) {
				t.Fatalf("%s: the system prompt is not in the body", name)
			}
		}
	})
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
