package adapters_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// TestToMCPAnnotationsAndIcons: the hints and icons of define's options
// are in the entry, unset hints absent; a tool without them has neither
// key.
func TestToMCPAnnotationsAndIcons(t *testing.T) {
	type in struct {
		Q string `json:"q"`
	}
	fn := func(context.Context, in) (string, error) { return "", nil }
	search := define.MustDefineTool(fn, define.WithName("search"),
		define.WithAnnotations(define.Annotations{ReadOnly: define.HintTrue, OpenWorld: define.HintFalse}),
		define.WithIcons(define.Icon{Src: "https://x.example/s.svg", MIMEType: "image/svg+xml", Sizes: []string{"any"}, Theme: "light"}))
	plain := define.MustDefineTool(fn, define.WithName("plain"))
	out, err := adapters.ToMCP([]define.Tool{search, plain})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"search","inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"],"additionalProperties":false},` +
		`"annotations":{"readOnlyHint":true,"openWorldHint":false},"icons":[{"src":"https://x.example/s.svg","mimeType":"image/svg+xml","sizes":["any"],"theme":"light"}]},` +
		`{"name":"plain","inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"],"additionalProperties":false}}]`
	if string(got) != want {
		t.Errorf("ToMCP:\n got %s\nwant %s", got, want)
	}
	appended, err := adapters.AppendJSON(nil, out)
	if err != nil || string(appended) != string(got) {
		t.Errorf("AppendJSON = %s, %v; want json.Marshal's %s", appended, err, got)
	}
}

func TestIconsChecked(t *testing.T) {
	fn := func(context.Context, struct{}) (string, error) { return "", nil }
	for _, ic := range []define.Icon{{}, {Src: "https://x.example/i.png", Theme: "blue"}} {
		if _, err := define.DefineTool(fn, define.WithName("t"), define.WithIcons(ic)); err == nil {
			t.Errorf("icon %+v: no error", ic)
		}
	}
	if _, err := define.NewTool("t", json.RawMessage(`{"type":"object"}`), func(context.Context, json.RawMessage) (any, error) { return nil, nil }, define.WithIcons(define.Icon{})); err == nil {
		t.Error("NewTool with an icon without Src: no error")
	}
}
