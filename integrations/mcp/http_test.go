package tnmcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

// serveHTTP serves the weather server with HTTPHandler(o) on httptest
// with NewHTTPServer's bounds.
func serveHTTP(t *testing.T, o *tnmcp.HTTPOptions) *httptest.Server {
	t.Helper()
	h, err := tnmcp.HTTPHandler(newServer(t), o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(h)
	srv := tnmcp.NewHTTPServer(h)
	ts.Config.ReadHeaderTimeout, ts.Config.IdleTimeout, ts.Config.MaxHeaderBytes = srv.ReadHeaderTimeout, srv.IdleTimeout, srv.MaxHeaderBytes
	ts.Start()
	t.Cleanup(ts.Close)
	return ts
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// post sends one JSON-RPC body with headers (name, value pairs) and
// returns the status and the start of the response's body.
func post(t *testing.T, client *http.Client, url, body string, headers ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return resp.StatusCode, string(b)
}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func connectURL(t *testing.T, url string, client *http.Client) *mcp.ClientSession {
	t.Helper()
	cs, err := newClient().Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: url, HTTPClient: client, DisableStandaloneSSE: true,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func convert(t *testing.T, cs *mcp.ClientSession, celsius float64) (float64, error) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "celsius_to_fahrenheit", Arguments: map[string]any{"celsius": celsius}})
	if err != nil {
		return 0, err
	}
	if res.IsError {
		return 0, errors.New(text(t, res))
	}
	var out struct {
		Fahrenheit float64 `json:"fahrenheit"`
	}
	if err := json.Unmarshal([]byte(text(t, res)), &out); err != nil {
		return 0, err
	}
	return out.Fahrenheit, nil
}

func TestHTTPBearerToken(t *testing.T) {
	ts := serveHTTP(t, &tnmcp.HTTPOptions{Verifier: tnmcp.StaticToken("s3cret")})
	for _, c := range []struct {
		name    string
		headers []string
	}{
		{"no token", nil},
		{"wrong token", []string{"Authorization", "Bearer guess"}},
		{"not bearer", []string{"Authorization", "Basic czNjcmV0"}},
	} {
		if code, body := post(t, ts.Client(), ts.URL, initializeBody, c.headers...); code != http.StatusUnauthorized {
			t.Errorf("%s: %d %s, want 401", c.name, code, body)
		}
	}
	cs := connectURL(t, ts.URL, &http.Client{Transport: bearer{"s3cret", ts.Client().Transport}})
	if f, err := convert(t, cs, 100); err != nil || f != 212 {
		t.Errorf("with the token: %v, %v; want 212", f, err)
	}
}

func TestHTTPCrossOrigin(t *testing.T) {
	ts := serveHTTP(t, &tnmcp.HTTPOptions{TrustedOrigins: []string{"https://app.example"}})
	for _, c := range []struct {
		name    string
		headers []string
		want    int
	}{
		{"foreign Origin", []string{"Origin", "https://evil.example"}, http.StatusForbidden},
		{"cross-site fetch", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		{"cross-site fetch from a foreign Origin", []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}, http.StatusForbidden},
		{"trusted Origin", []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://app.example"}, http.StatusOK},
		{"same origin", []string{"Sec-Fetch-Site", "same-origin"}, http.StatusOK},
		{"no browser headers", nil, http.StatusOK},
	} {
		code, body := post(t, ts.Client(), ts.URL, initializeBody, c.headers...)
		if code != c.want {
			t.Errorf("%s: %d %s, want %d", c.name, code, body, c.want)
		}
		if code == http.StatusOK && !strings.Contains(body, `"protocolVersion"`) {
			t.Errorf("%s: no initialize result: %s", c.name, body)
		}
	}
}

func TestHTTPBodyBounds(t *testing.T) {
	ts := serveHTTP(t, &tnmcp.HTTPOptions{MaxBodyBytes: 1024, BodyTimeout: 300 * time.Millisecond})
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 2000) + `"}}`
	if code, _ := post(t, ts.Client(), ts.URL, big); code != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized body: %d, want 413", code)
	}
	// Without a Content-Length (chunked), the bound holds while reading.
	req, _ := http.NewRequest("POST", ts.URL, io.MultiReader(strings.NewReader(big)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized chunked body: %d, want 413", resp.StatusCode)
	}
	if code, body := post(t, ts.Client(), ts.URL, initializeBody); code != http.StatusOK {
		t.Errorf("a small body: %d %s", code, body)
	}

	// A client that trickles its body, a byte every 50ms, would take 10s
	// to send it; it is answered 408 after the body timeout.
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := strings.Repeat(" ", 200-len(initializeBody)) + initializeBody
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", ts.Listener.Addr(), len(body))
	go func() {
		for i := range len(body) {
			if _, err := conn.Write([]byte{body[i]}); err != nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	start := time.Now()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err = http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("trickled body: no response: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("trickled body: %d, want 408", resp.StatusCode)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("trickled body refused after %v, want about 300ms", d)
	}
}

// TestHTTPSessionsReclaimed opens sessions and abandons them (an
// initialize, then nothing): they hold goroutines until the session
// timeout closes them.
func TestHTTPSessionsReclaimed(t *testing.T) {
	ts := serveHTTP(t, &tnmcp.HTTPOptions{SessionTimeout: 300 * time.Millisecond})
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	settle := func() int {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
		return runtime.NumGoroutine()
	}
	base := settle()
	const sessions = 40
	for range sessions {
		if code, body := post(t, client, ts.URL, initializeBody); code != http.StatusOK {
			t.Fatalf("initialize: %d %s", code, body)
		}
	}
	held := runtime.NumGoroutine()
	if held < base+sessions {
		t.Fatalf("%d goroutines with %d open sessions, baseline %d: the sessions hold none, the test shows nothing", held, sessions, base)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := settle()
		if n <= base+2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines 5s after abandoning %d sessions (timeout 300ms), baseline %d", n, sessions, base)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestStatelessReplicas serves one client's calls from three stateless
// replicas behind a round-robin reverse proxy: every call is answered
// correctly, and every replica serves some of them.
func TestStatelessReplicas(t *testing.T) {
	const replicas, calls = 3, 30
	var backends []*url.URL
	served := make([]atomic.Int32, replicas)
	for i := range replicas {
		h, err := tnmcp.HTTPHandler(newServer(t), &tnmcp.HTTPOptions{Stateless: true})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			served[i].Add(1)
			h.ServeHTTP(w, r)
		}))
		t.Cleanup(ts.Close)
		u, _ := url.Parse(ts.URL)
		backends = append(backends, u)
	}
	var next atomic.Uint32
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(backends[int(next.Add(1)-1)%replicas])
	}})
	t.Cleanup(proxy.Close)

	cs := connectURL(t, proxy.URL, proxy.Client())
	for i := range calls {
		c := float64(i*7 - 40)
		got, err := convert(t, cs, c)
		want := math.Round((c*9/5+32)*10) / 10
		if err != nil || got != want {
			t.Errorf("call %d: %v °F, %v; want %v", i, got, err, want)
		}
	}
	total := 0
	for i := range served {
		n := int(served[i].Load())
		total += n
		if n < calls/replicas {
			t.Errorf("replica %d served %d requests of %d calls", i, n, calls)
		}
	}
	if total < calls {
		t.Errorf("%d requests for %d calls", total, calls)
	}
}

func TestCheckExposure(t *testing.T) {
	for _, c := range []struct {
		addr    string
		auth    bool
		exposed bool
	}{
		{"127.0.0.1:8080", false, false},
		{"[::1]:8080", false, false},
		{"0.0.0.0:8080", false, true},
		{"[::]:8080", false, true},
		{"192.168.1.5:8080", false, true},
		{"0.0.0.0:8080", true, false},
	} {
		a, err := net.ResolveTCPAddr("tcp", c.addr)
		if err != nil {
			t.Fatal(err)
		}
		err = tnmcp.CheckExposure(a, c.auth)
		if got := errors.Is(err, tnmcp.ErrExposed); got != c.exposed {
			t.Errorf("CheckExposure(%s, %t) = %v, want exposed %t", c.addr, c.auth, err, c.exposed)
		}
	}
	ln, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := tnmcp.CheckExposure(ln.Addr(), false); err != nil {
		t.Errorf("localhost listener: %v", err)
	}
}
