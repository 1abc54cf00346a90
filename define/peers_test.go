package define_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

// The same rules in swaggest's tags, in invopop/jsonschema's, and through
// the items.* and values.* tags.
type (
	rulesSwaggest struct {
		Code   string            `json:"code" pattern:"^[A-Z]{3}$" description:"IATA code"`
		Seats  int               `json:"seats" minimum:"1" maximum:"9"`
		Cabin  string            `json:"cabin,omitempty" enum:"economy,first" default:"economy"`
		Price  *float64          `json:"price,omitempty" exclusiveMinimum:"0"`
		Emails []string          `json:"emails,omitempty" maxItems:"2" items.format:"email"`
		Grades map[string]int    `json:"grades,omitempty" values.minimum:"1" values.maximum:"6"`
		Rows   [][]string        `json:"rows,omitempty" items.items.enum:"x,o"`
		Notes  map[string]string `json:"notes,omitempty" values.maxLength:"3"`
	}
	rulesInvopop struct {
		Code   string            `json:"code" jsonschema:"pattern=^[A-Z]{3}$,description=IATA code"`
		Seats  int               `json:"seats" jsonschema:"minimum=1,maximum=9"`
		Cabin  string            `json:"cabin,omitempty" jsonschema:"enum=economy,enum=first,default=economy"`
		Price  *float64          `json:"price,omitempty" jsonschema:"exclusiveMinimum=0"`
		Emails []string          `json:"emails,omitempty" jsonschema:"maxItems=2,format=email"`
		Grades map[string]int    `json:"grades,omitempty" values.minimum:"1" values.maximum:"6"`
		Rows   [][]string        `json:"rows,omitempty" items.items.enum:"x,o"`
		Notes  map[string]string `json:"notes,omitempty" values.maxLength:"3"`
	}
)

func peerTool[T any](t *testing.T) define.Tool {
	t.Helper()
	tool, err := define.DefineTool(func(_ context.Context, in T) (string, error) {
		b, err := json.Marshal(in)
		return string(b), err
	}, define.WithName("rules"))
	if err != nil {
		t.Fatalf("DefineTool: %v", err)
	}
	return tool
}

// TestPeerTagsDecode: a struct in invopop's tags and its swaggest twin
// accept and reject the same arguments with the same messages, from JSON
// text and from a map, and items.*/values.* are checked on every element
// with its path.
func TestPeerTagsDecode(t *testing.T) {
	own, peer := peerTool[rulesSwaggest](t), peerTool[rulesInvopop](t)
	ctx := context.Background()
	for _, tc := range []struct {
		args string
		want string // in the error, or the output for a good call
	}{
		{`{"code":"OSL","seats":2}`, `{"code":"OSL","seats":2,"cabin":"economy"`},
		{`{"code":"OSL","seats":2,"emails":["a@b.co"],"grades":{"x":6},"rows":[["x","o"]],"notes":{"a":"abc"}}`, `"emails":["a@b.co"]`},
		{`{"code":"osl","seats":0}`, `/code: expected string matching ^[A-Z]{3}$, got "osl"; /seats: expected integer >= 1, got 0`},
		{`{"code":"OSL","seats":2,"cabin":"coach","price":0}`, `/cabin: expected one of "economy", "first", got "coach"; /price: expected number > 0, got 0`},
		{`{"code":"OSL","seats":2,"emails":["a@b.co","nope"]}`, `/emails/1: expected email address, got "nope"`},
		{`{"code":"OSL","seats":2,"emails":["a","b","c"]}`, `/emails: expected at most 2 items, got 3 items`},
		{`{"code":"OSL","seats":2,"grades":{"math":3,"art":7}}`, `/grades/art: expected integer <= 6, got 7`},
		{`{"code":"OSL","seats":2,"grades":{"math":0}}`, `/grades/math: expected integer >= 1, got 0`},
		{`{"code":"OSL","seats":2,"rows":[["x"],["o","z"]]}`, `/rows/1/1: expected one of "x", "o", got "z"`},
		{`{"code":"OSL","seats":2,"notes":{"a~/b":"abcd"}}`, `/notes/a~0~1b: expected at most 3 characters, got "abcd"`},
	} {
		var m map[string]any
		if err := json.Unmarshal([]byte(tc.args), &m); err != nil {
			t.Fatal(err)
		}
		for _, tool := range []define.Tool{own, peer} {
			for how, res := range map[string]define.Result{
				"text": tool.ExecuteJSON(ctx, []byte(tc.args)),
				"map":  tool.Execute(ctx, m),
			} {
				if !strings.Contains(res.Output, tc.want) {
					t.Errorf("%T from %s %s = %v %q, want it to contain %q", tool, how, tc.args, res.IsError, res.Output, tc.want)
				}
			}
		}
		a, b := own.ExecuteJSON(ctx, []byte(tc.args)), peer.ExecuteJSON(ctx, []byte(tc.args))
		if a.IsError != b.IsError || a.Output != b.Output {
			t.Errorf("%s: swaggest's tags give %v %q, invopop's %v %q", tc.args, a.IsError, a.Output, b.IsError, b.Output)
		}
	}
}

// TestElemExampleChecked: an element's example that only decoding can
// check (a time.Time, here) is checked at definition, under its tag.
func TestElemExampleChecked(t *testing.T) {
	type args struct {
		When []time.Time `json:"when" items.example:"\"2026-13-01T00:00:00Z\""`
	}
	_, err := define.DefineTool(func(context.Context, args) (string, error) { return "", nil }, define.WithName("when"))
	var te *schema.TypeError
	if !errors.As(err, &te) || !errors.Is(err, schema.ErrInvalidTag) || te.Path != "When" || te.Tag != "items.example" {
		t.Fatalf("DefineTool = %v, want a TypeError at When, tag items.example", err)
	}
	type good struct {
		When []time.Time `json:"when" items.example:"\"2026-12-01T00:00:00Z\""`
	}
	if _, err := define.DefineTool(func(context.Context, good) (string, error) { return "", nil }, define.WithName("when")); err != nil {
		t.Errorf("DefineTool with a good element example: %v", err)
	}
}
