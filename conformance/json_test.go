package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// decodeJSON parses data into any, numbers as json.Number, rejecting
// trailing data.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return v, nil
}

// normalize rewrites a decoded JSON value for comparison: every number
// becomes "#" plus its exact rational value (so 1, 1.0 and 1e0 compare
// equal, and a float64 round trip of 0.01 stays 0.01), and with dropNulls,
// object members whose value is null are removed (an SDK may drop a null it
// has no field for, or write an absent optional field as null).
func normalize(v any, dropNulls bool) any {
	switch x := v.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(string(x))
		if !ok {
			return "#?" + string(x)
		}
		return "#" + r.RatString()
	case float64:
		return "#" + new(big.Rat).SetFloat64(x).RatString()
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if dropNulls && e == nil {
				continue
			}
			out[k] = normalize(e, dropNulls)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e, dropNulls)
		}
		return out
	default:
		return v
	}
}

// jsonDiff returns "" when want and got are the same JSON value (numbers
// compared exactly by value), else a cmp.Diff (-want +got).
func jsonDiff(want, got []byte, dropNulls bool) string {
	w, err := decodeJSON(want)
	if err != nil {
		return "want is not JSON: " + err.Error()
	}
	g, err := decodeJSON(got)
	if err != nil {
		return "got is not JSON: " + err.Error()
	}
	return cmp.Diff(normalize(w, dropNulls), normalize(g, dropNulls))
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%T): %v", v, err)
	}
	return data
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// short cuts s for a log line.
func short(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
