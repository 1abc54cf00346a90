package tnmcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

// TestMapOutputSchema: a tool whose output is a map with string keys has
// an object output schema (additionalProperties of the value type) and
// sends its value, an empty one as {}, as structuredContent, which the
// go-sdk client checks against that schema.
func TestMapOutputSchema(t *testing.T) {
	type args struct {
		City string `json:"city"`
	}
	stock := define.MustDefineTool(func(_ context.Context, in args) (map[string]int, error) {
		if in.City == "none" {
			return nil, nil
		}
		return map[string]int{"tea": 3, "milk": 0}, nil
	}, define.WithName("stock"))
	if got := string(stock.OutputSchema()); got != `{"type":"object","properties":{},"additionalProperties":{"type":"integer"}}` {
		t.Fatalf("output schema: %s", got)
	}
	tk, err := toolnexus.NewToolkit(stock)
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "v1"}, nil)
	if err := tnmcp.AddTools(server, tk); err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for city, want := range map[string]string{"Oslo": `{"milk":0,"tea":3}`, "none": `{}`} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "stock", Arguments: map[string]any{"city": city}})
		if err != nil {
			t.Fatalf("%s: %v", city, err)
		}
		got, _ := json.Marshal(res.StructuredContent)
		if res.IsError || string(got) != want {
			t.Errorf("%s: isError %v, structuredContent %s, want %s", city, res.IsError, got, want)
		}
	}
}
