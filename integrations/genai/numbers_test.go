package tngenai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/integrations/genai"
	"github.com/toolnexus/toolnexus/internal/sdktest"
	"google.golang.org/genai"
)

// numberToolkit has one tool, "number", that returns {"n": N} with N
// the number text of its argument.
func numberToolkit(t *testing.T) *toolnexus.Toolkit {
	t.Helper()
	tool := define.MustDefineTool(func(_ context.Context, in struct {
		N string `json:"n"`
	}) (map[string]json.Number, error) {
		return map[string]json.Number{"n": json.Number(in.N)}, nil
	}, define.WithName("number"))
	tk, err := toolnexus.NewToolkit(tool)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// TestLargeIntegersExact: a result holding a number a float64 would
// change reaches the request with its digits: the genai SDK sends every
// request through float64, so the output goes as its JSON text; a result
// whose numbers a float64 keeps goes as the object.
func TestLargeIntegersExact(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n     string
		exact bool // a float64 keeps it
	}{
		{"9007199254740993", false},
		{"-9007199254740993", false},
		{"12345678901234567890", false},
		{"0.1000000000000000055511151231257827", false},
		{"1e400", false},
		{"9007199254740992", true},
		{"12", true},
		{"0.1", true},
		{"1.50", true},
		{"-0", true},
		{"1e3", true},
		{"1E+21", true},
	} {
		m := sdktest.NewModel(modelPath, script[len(script)-1])
		client, err := newClient(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		tk := numberToolkit(t)
		resp := &genai.GenerateContentResponse{Candidates: []*genai.Candidate{{Content: &genai.Content{Role: genai.RoleModel, Parts: []*genai.Part{
			{FunctionCall: &genai.FunctionCall{ID: "c1", Name: "number", Args: map[string]any{"n": tc.n}}},
		}}}}}
		next, _, err := tngenai.Run(ctx, tk, resp)
		if err != nil {
			t.Fatal(err)
		}
		out := next[1].Parts[0].FunctionResponse.Response["output"]
		want := `{"n":` + tc.n + `}`
		if s, isText := out.(string); isText == tc.exact || isText && s != want {
			t.Errorf("%s: output %T %v, want the object (a float64 keeps it: %v) or the text %s", tc.n, out, out, tc.exact, want)
		}
		if _, err := client.Models.GenerateContent(ctx, "gemini-test", next, nil); err != nil {
			t.Fatalf("%s: %v (model: %v)", tc.n, err, m.Err())
		}
		sent := string(m.Requests()[0])
		m.Close()
		if !tc.exact && !strings.Contains(sent, strings.ReplaceAll(want, `"`, `\"`)) {
			t.Errorf("%s: the request does not carry the digits: %s", tc.n, sent)
		}
		if tc.exact && tc.n == "9007199254740992" && !strings.Contains(sent, `"output":{"n":9007199254740992}`) {
			t.Errorf("%s: the request does not carry the object: %s", tc.n, sent)
		}
	}
}
