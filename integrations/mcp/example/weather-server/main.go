// Command weather-server serves a toolnexus toolkit as an MCP server, over
// stdio (the default, for a host that starts it as a subprocess) or over
// streamable HTTP:
//
//	go run ./example/weather-server                    # stdio
//	go run ./example/weather-server -http 127.0.0.1:8080 # http://127.0.0.1:8080/mcp
//
// Over HTTP it serves with tnmcp's protections (cross-origin protection,
// bounded bodies, idle sessions closed, at most 8 calls at once, each
// within 30s). With WEATHER_MCP_TOKEN set in its environment, every
// request must carry "Authorization: Bearer $WEATHER_MCP_TOKEN". Without
// a token it refuses to listen beyond loopback (0.0.0.0 included) unless
// -insecure-no-auth says so, for an authenticating proxy in front.
// -stateless serves without sessions, for replicas behind a load
// balancer.
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
	"github.com/toolnexus/toolnexus"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
	"github.com/toolnexus/toolnexus/integrations/mcp/internal/weather"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at this address (path /mcp) instead of stdio")
	var o httpConfig
	flag.BoolVar(&o.stateless, "stateless", false, "serve HTTP without sessions (for replicas behind a load balancer)")
	flag.BoolVar(&o.insecure, "insecure-no-auth", false, "allow listening beyond loopback without WEATHER_MCP_TOKEN")
	flag.Parse()
	o.token = os.Getenv("WEATHER_MCP_TOKEN")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *addr, o); err != nil {
		log.Fatal(err)
	}
}

// httpConfig is how the server serves HTTP.
type httpConfig struct {
	token     string // the bearer token; "" for none
	stateless bool
	insecure  bool // listen beyond loopback without a token
}

func run(ctx context.Context, addr string, o httpConfig) error {
	server, err := newServer()
	if err != nil {
		return err
	}
	if addr == "" {
		return server.Run(ctx, &mcp.StdioTransport{})
	}
	ln, err := listen(addr, o)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "weather-server: MCP over streamable HTTP at http://%s/mcp\n", ln.Addr())
	return serveHTTP(ctx, server, ln, o)
}

// listen listens at addr, refusing an address beyond loopback without a
// token unless o.insecure allows it (with a warning).
func listen(addr string, o httpConfig) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if err := tnmcp.CheckExposure(ln.Addr(), o.token != ""); err != nil {
		if !o.insecure {
			ln.Close()
			return nil, fmt.Errorf("weather-server: %w (set WEATHER_MCP_TOKEN, or -insecure-no-auth behind an authenticating proxy)", err)
		}
		fmt.Fprintf(os.Stderr, "weather-server: warning: %v\n", err)
	}
	return ln, nil
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
	limits := tnmcp.NewLimits(toolnexus.WithParallelism(8), toolnexus.WithCallTimeout(30*time.Second))
	if err := limits.AddTools(server, tk); err != nil {
		return nil, err
	}
	// README end
	return server, nil
}

// serveHTTP serves server over streamable HTTP at /mcp on ln until ctx is
// done.
func serveHTTP(ctx context.Context, server *mcp.Server, ln net.Listener, o httpConfig) error {
	hopts := &tnmcp.HTTPOptions{Stateless: o.stateless}
	if o.token != "" {
		hopts.Verifier = tnmcp.StaticToken(o.token)
	}
	h, err := tnmcp.HTTPHandler(server, hopts)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := tnmcp.NewHTTPServer(mux)
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
