package tnmcp_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

// TestPartsBothWays: a toolkit's parts served by AddTools come back
// through Remote as the same parts: images, audio and files whole, with
// their types and file names; a text file, which MCP embeds as text, as
// text naming it; a part by URL, a resource link, as its note.
func TestPartsBothWays(t *testing.T) {
	tk, err := tsToolkit()
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "parts", Version: "v1.0.0"}, nil)
	if err := tnmcp.AddTools(server, tk); err != nil {
		t.Fatal(err)
	}
	remote, err := tnmcp.NewRemote(context.Background(), connect(t, server, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	var chart define.Tool
	for _, tool := range remote.Tools() {
		if tool.Name() == "chart" {
			chart = tool
		}
	}
	r := chart.ExecuteJSON(context.Background(), nil)
	if r.IsError || r.Output != "the chart, its data and a reading" {
		t.Fatalf("result: %+v", r)
	}
	sent := tsParts()
	want := []define.Part{sent[0], sent[1], sent[2],
		define.TextPart("[resource toolnexus://part/3/data.csv: text/csv, 24 bytes of text]"), define.TextPart(string(sent[3].Data)),
		define.TextPart("[resource link: https://example.com/chart.png, image/png]")}
	if len(r.Parts) != len(want) {
		t.Fatalf("parts = %v, want %v", r.Parts, want)
	}
	for i, w := range want {
		g := r.Parts[i]
		if g.Kind != w.Kind || g.MIMEType != w.MIMEType || g.Filename != w.Filename || g.Text != w.Text || !bytes.Equal(g.Data, w.Data) {
			t.Errorf("part %d = %v %q, want %v %q", i, g, g.Text, w, w.Text)
		}
	}
}
