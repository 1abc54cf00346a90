package adapters_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/adapters"
)

// A call read back from its JSON equals it: a malformed call's text,
// which MarshalJSON quotes, is the text again.
func TestCallJSONRoundTrip(t *testing.T) {
	for _, c := range []adapters.Call{
		{ID: "call_1", Name: "get_weather", Args: json.RawMessage(`{"city":"Oslo"}`)},
		{ID: "call_2", Name: "get_weather", Args: json.RawMessage(`{"city": "Os`), Malformed: "not valid JSON: unexpected end"},
		{ID: "call_3", Name: "f", Args: json.RawMessage(`"a string"`), Malformed: "not a JSON object"},
	} {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var got adapters.Call
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c, got); diff != "" {
			t.Errorf("%s read back differs (-want +got):\n%s", b, diff)
		}
	}
}
