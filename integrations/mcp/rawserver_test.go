package tnmcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

// rawInitialize is the initialize result of a raw server: protocol
// 2025-11-25, under which the go-sdk client keeps no cache of listings.
const rawInitialize = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"raw","version":"v1"}}`

// serveRaw connects a go-sdk client to an MCP server written by hand, so
// that a test controls every byte the client reads and so that the
// allocations of a server do not count in the client's: it answers
// initialize with rawInitialize, ignores notifications, and answers every
// other request with the result answer returns (the JSON text of the
// result, written as it is), or with a JSON-RPC error when answer returns
// nil.
func serveRaw(t testing.TB, answer func(method string, params json.RawMessage) []byte) *mcp.ClientSession {
	t.Helper()
	clientEnd, serverEnd := net.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		dec := json.NewDecoder(serverEnd)
		w := bufio.NewWriter(serverEnd)
		for {
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			}
			if dec.Decode(&msg) != nil {
				return
			}
			if msg.ID == nil || msg.Method == "" {
				continue // a notification, or the client's answer to a request
			}
			var result []byte
			if msg.Method == "initialize" {
				result = []byte(rawInitialize)
			} else {
				result = answer(msg.Method, msg.Params)
			}
			w.WriteString(`{"jsonrpc":"2.0","id":`)
			w.Write(msg.ID)
			if result == nil {
				w.WriteString(`,"error":{"code":-32601,"message":"no such method"}}` + "\n")
			} else {
				w.WriteString(`,"result":`)
				w.Write(result)
				w.WriteString("}\n")
			}
			if w.Flush() != nil {
				return
			}
		}
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v1.0.0"},
		&mcp.ClientOptions{ToolListChangedHandler: tnmcp.ToolListChanged, Logger: quiet})
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: clientEnd, Writer: clientEnd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		serverEnd.Close()
		<-done
	})
	return cs
}
