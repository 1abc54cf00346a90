package main

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

func TestServeHTTP(t *testing.T) {
	server, err := newServer()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	serveCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- serveHTTP(serveCtx, server, ln, httpConfig{}) }()

	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != `{"city":"Oslo","temp_c":4,"sky":"sleet"}` || res.IsError {
		t.Errorf("get_weather(Oslo) = %s (isError %v)", got, res.IsError)
	}
	cs.Close()
	stop()
	if err := <-done; err != nil {
		t.Errorf("serveHTTP after ctx was cancelled: %v, want nil", err)
	}
}

// TestStdio builds the command and talks to it over stdio, as a host that
// starts it as a subprocess does.
func TestStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "weather-server")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: json.RawMessage(`{"city":7}`)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Content[0].(*mcp.TextContent).Text, "invalid arguments: /city: expected string, got 7"; got != want || !res.IsError {
		t.Errorf("get_weather(city: 7) = %q (isError %v), want %q as an error", got, res.IsError, want)
	}
}

// TestListenRefusesExposure: beyond loopback without a token, listen
// refuses unless told otherwise; with a token or on loopback it listens.
func TestListenRefusesExposure(t *testing.T) {
	ln, err := listen("0.0.0.0:0", httpConfig{})
	if err == nil {
		ln.Close()
		t.Fatal("listen(0.0.0.0) without a token: no error")
	}
	if !errors.Is(err, tnmcp.ErrExposed) {
		t.Errorf("listen(0.0.0.0): %v, want ErrExposed", err)
	}
	for _, c := range []struct {
		addr string
		o    httpConfig
	}{
		{"0.0.0.0:0", httpConfig{token: "t"}},
		{"0.0.0.0:0", httpConfig{insecure: true}},
		{"127.0.0.1:0", httpConfig{}},
	} {
		ln, err := listen(c.addr, c.o)
		if err != nil {
			t.Errorf("listen(%s, %+v): %v", c.addr, c.o, err)
			continue
		}
		ln.Close()
	}
}

// TestServeHTTPToken: with a token, a request without it is refused.
func TestServeHTTPToken(t *testing.T) {
	server, err := newServer()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveHTTP(ctx, server, ln, httpConfig{token: "s3cret"}) }()
	defer func() { cancel(); <-done }()
	resp, err := http.Post("http://"+ln.Addr().String()+"/mcp", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", resp.StatusCode)
	}
}
