package tnmcp

import (
	"encoding/json"
	"testing"
)

func TestCheckObjectSchema(t *testing.T) {
	for schema, ok := range map[string]bool{
		`{"type":"object"}`:                 true,
		`{"properties":{},"type":"object"}`: true,
		`{"type":["object","null"]}`:        false,
		`{"type":"array"}`:                  false,
		`{}`:                                false,
		`[]`:                                false,
		`nope`:                              false,
	} {
		if err := checkObjectSchema(json.RawMessage(schema)); (err == nil) != ok {
			t.Errorf("checkObjectSchema(%s) = %v, want ok = %v", schema, err, ok)
		}
	}
}
