package tnmcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

// The tools of a remote MCP server next to a local tool in one toolkit.
// Here the server runs in the same process over in-memory transports; a
// real one is reached with mcp.CommandTransport (stdio) or
// mcp.StreamableClientTransport.
func ExampleNewRemote() {
	ctx := context.Background()

	// A server no one here wrote, with a name providers refuse.
	server := mcp.NewServer(&mcp.Implementation{Name: "calc", Version: "v1.0.0"}, nil)
	server.AddTool(&mcp.Tool{
		Name:        "add numbers",
		Description: "Adds a and b.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`),
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ A, B float64 }
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, nil
	})
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverEnd, nil); err != nil {
		log.Fatal(err)
	}

	localTools := []define.Tool{define.MustDefineTool(func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		return "sunny in " + in.City, nil
	}, define.WithName("get_weather"))}

	// The agent's side: a client whose tools/list_changed handler keeps
	// the Remote current.
	// README: mcp-client
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v1.0.0"},
		&mcp.ClientOptions{ToolListChangedHandler: tnmcp.ToolListChanged})
	session, err := client.Connect(ctx, clientEnd, nil) // or &mcp.CommandTransport{Command: exec.Command("some-mcp-server")}
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	remote, err := tnmcp.NewRemote(ctx, session)
	if err != nil {
		log.Fatal(err)
	}
	defer remote.Close()
	tk, err := toolnexus.NewToolkit(append(localTools, remote.Tools()...)...)
	if err != nil {
		log.Fatal(err)
	}
	// README end
	if _, err := tk.ToGemini(); err != nil {
		log.Fatal(err)
	}
	for _, n := range remote.Names() {
		fmt.Printf("remote %q is tool %s\n", n.Remote, n.Tool)
	}
	results := tk.Run(ctx, []adapters.Call{
		{ID: "1", Name: "add_numbers", Args: json.RawMessage(`{"a":2,"b":40}`)},
		{ID: "2", Name: "get_weather", Args: json.RawMessage(`{"city":"Oslo"}`)},
	})
	for _, r := range results {
		fmt.Println(r.Output)
	}
	// Output:
	// remote "add numbers" is tool add_numbers
	// 42
	// sunny in Oslo
}
