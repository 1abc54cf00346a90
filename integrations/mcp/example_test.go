package tnmcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
	"github.com/toolnexus/toolnexus/integrations/mcp/internal/weather"
)

// A toolkit served by a go-sdk MCP server. Here the server and a client
// share an in-memory transport; a real server runs over stdio with
// server.Run(ctx, &mcp.StdioTransport{}), or over streamable HTTP with
// mcp.NewStreamableHTTPHandler (see example/weather-server).
func ExampleAddTools() {
	ctx := context.Background()
	tk, err := weather.Toolkit() // get_weather, get_time, celsius_to_fahrenheit
	if err != nil {
		log.Fatal(err)
	}

	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "v1.0.0"}, nil)
	if err := tnmcp.AddTools(server, tk); err != nil {
		log.Fatal(err)
	}
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverEnd, nil); err != nil {
		log.Fatal(err)
	}

	// The other side: an MCP host's client.
	client := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v1.0.0"}, nil)
	session, err := client.Connect(ctx, clientEnd, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	list, err := session.ListTools(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range list.Tools {
		fmt.Println("tool:", t.Name)
	}
	for _, args := range []string{`{"celsius":"21 °C"}`, `{"celsius":21}`} {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "celsius_to_fahrenheit", Arguments: json.RawMessage(args)})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s -> isError=%v text=%s structured=%v\n", args, res.IsError, res.Content[0].(*mcp.TextContent).Text, res.StructuredContent)
	}
	// Output:
	// tool: celsius_to_fahrenheit
	// tool: get_time
	// tool: get_weather
	// {"celsius":"21 °C"} -> isError=true text=invalid arguments: /celsius: expected number, got "21 °C" structured=<nil>
	// {"celsius":21} -> isError=false text={"fahrenheit":69.8} structured=map[fahrenheit:69.8]
}
