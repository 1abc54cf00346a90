package tnmcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

// TestAnnotationsListed: the hints, title and icons declared with define's
// options reach a go-sdk client's tools/list, over memory and HTTP.
func TestAnnotationsListed(t *testing.T) {
	fn := func(context.Context, struct{}) (string, error) { return "", nil }
	wipe := define.MustDefineTool(fn, define.WithName("wipe"), define.WithTitle("Wipe the disk"),
		define.WithAnnotations(define.Annotations{Destructive: define.HintTrue, Idempotent: define.HintTrue, OpenWorld: define.HintFalse}),
		define.WithIcons(define.Icon{Src: "https://x.example/wipe.png", MIMEType: "image/png", Sizes: []string{"48x48"}, Theme: "dark"}))
	plain := define.MustDefineTool(fn, define.WithName("plain"))
	tk, err := toolnexus.NewToolkit(wipe, plain)
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "a", Version: "v1"}, nil)
	if err := tnmcp.AddTools(server, tk); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	defer ts.Close()
	inMem, _ := connectInMemory(t, ctx, server)
	overHTTP := connectURL(t, ts.URL, ts.Client())
	for name, cs := range map[string]*mcp.ClientSession{"memory": inMem, "http": overHTTP} {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]*mcp.Tool{}
		for _, tool := range res.Tools {
			byName[tool.Name] = tool
		}
		w := byName["wipe"]
		if w == nil || w.Title != "Wipe the disk" {
			t.Fatalf("%s: wipe listed as %+v", name, w)
		}
		ann, _ := json.Marshal(w.Annotations)
		if got, want := string(ann), `{"destructiveHint":true,"idempotentHint":true,"openWorldHint":false,"readOnlyHint":false}`; got != want {
			t.Errorf("%s: annotations %s, want %s", name, got, want)
		}
		icons, _ := json.Marshal(w.Icons)
		if got, want := string(icons), `[{"src":"https://x.example/wipe.png","mimeType":"image/png","sizes":["48x48"],"theme":"dark"}]`; got != want {
			t.Errorf("%s: icons %s, want %s", name, got, want)
		}
		if p := byName["plain"]; p == nil || p.Annotations != nil || p.Icons != nil {
			t.Errorf("%s: plain listed as %+v", name, p)
		}
	}
}
