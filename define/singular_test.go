package define_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/define"
)

type oneEach struct {
	Name  string            `json:"name" minLength:"1"`
	Tags  []string          `json:"tags" minItems:"1" maxItems:"1"`
	Extra map[string]string `json:"extra" maxProperties:"1"`
}

// TestConstraintMessagesSingular: a bound of 1 reads "1 character",
// "1 item", "1 property", and so does a count of 1 in the got part.
func TestConstraintMessagesSingular(t *testing.T) {
	tool, err := define.DefineTool(func(context.Context, oneEach) (string, error) { return "ok", nil }, define.WithName("one"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ args, want string }{
		{`{"name":"","tags":["a"],"extra":{}}`, "expected at least 1 character,"},
		{`{"name":"x","tags":["a","b"],"extra":{}}`, "expected at most 1 item, got 2 items"},
		{`{"name":"x","tags":["a"],"extra":{"a":"1","b":"2"}}`, "expected at most 1 property, got 2 properties"},
	} {
		for _, via := range []string{"json", "map"} {
			var res define.Result
			if via == "json" {
				res = tool.ExecuteJSON(context.Background(), []byte(tc.args))
			} else {
				res = tool.Execute(context.Background(), mustMap(t, tc.args))
			}
			if !res.IsError || !strings.Contains(res.Output, tc.want) {
				t.Errorf("%s %s: %q, want an error with %q", via, tc.args, res.Output, tc.want)
			}
			for _, bad := range []string{" 1 characters", " 1 items", " 1 properties"} {
				if strings.Contains(res.Output, bad) {
					t.Errorf("%s %s: %q holds %q", via, tc.args, res.Output, bad)
				}
			}
		}
	}
}

func mustMap(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}
