// Command weather-server serves a toolnexus toolkit as an MCP server, over
// stdio (the default, for a host that starts it as a subprocess) or over
// streamable HTTP:
//
//	go run ./example/weather-server                    # stdio
//	go run ./example/weather-server -http 127.0.0.1:8080 # http://127.0.0.1:8080/mcp
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
	"github.com/toolnexus/toolnexus/integrations/mcp/internal/weather"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at this address (path /mcp) instead of stdio")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *addr); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, addr string) error {
	server, err := newServer()
	if err != nil {
		return err
	}
	if addr == "" {
		return server.Run(ctx, &mcp.StdioTransport{})
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "weather-server: MCP over streamable HTTP at http://%s/mcp\n", ln.Addr())
	return serveHTTP(ctx, server, ln)
}

// newServer is the MCP server of the weather toolkit.
func newServer() (*mcp.Server, error) {
	tk, err := weather.Toolkit()
	if err != nil {
		return nil, err
	}
	// From a Toolkit to a server: these lines; then server.Run or an HTTP
	// handler serves it.
	// README: mcp-server
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "v1.0.0"}, nil)
	if err := tnmcp.AddTools(server, tk); err != nil {
		return nil, err
	}
	// README end
	return server, nil
}

// serveHTTP serves server over streamable HTTP at /mcp on ln until ctx is
// done.
func serveHTTP(ctx context.Context, server *mcp.Server, ln net.Listener) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	<-stopped
	return nil
}
