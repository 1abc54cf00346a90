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
	"sync"
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
	const timeout = time.Second
	ts := serveHTTP(t, &tnmcp.HTTPOptions{SessionTimeout: timeout})
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	settle := func() int {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
		return runtime.NumGoroutine()
	}
	base := settle()
	const sessions = 40
	start := time.Now()
	for range sessions {
		if code, body := post(t, client, ts.URL, initializeBody); code != http.StatusOK {
			t.Fatalf("initialize: %d %s", code, body)
		}
	}
	held := runtime.NumGoroutine()
	// On a loaded machine the first sessions may have timed out already.
	if time.Since(start) < timeout && held < base+sessions {
		t.Fatalf("%d goroutines with %d open sessions, baseline %d: the sessions hold none, the test shows nothing", held, sessions, base)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := settle()
		if n <= base+2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines 5s after abandoning %d sessions (timeout %v), baseline %d", n, sessions, timeout, base)
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

// initialize sends an initialize request and returns its status and the
// session id the server gave.
func initialize(t *testing.T, client *http.Client, url string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(initializeBody))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
}

// openStream opens the GET stream of session id and returns its status
// and a function that closes it.
func openStream(t *testing.T, client *http.Client, url, id string) (int, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := client.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	return resp.StatusCode, func() { cancel(); resp.Body.Close() }
}

// TestHTTPSessionCaps sends many initialize requests to a handler with
// MaxSessions: beyond the bound they are answered 503, and the goroutines
// and memory that sessions hold stop growing at the bound; a session that
// ends frees its place. On main, sessions had no bound: 3,000 initialize
// requests left 3,003 goroutines and 15 MB until the session timeout.
func TestHTTPSessionCaps(t *testing.T) {
	const maxSessions, requests = 20, 400
	ts := serveHTTP(t, &tnmcp.HTTPOptions{MaxSessions: maxSessions, MaxStreams: 3, SessionTimeout: time.Minute})
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	settle := func() (goroutines int, heap uint64) {
		heap = liveHeap()
		time.Sleep(20 * time.Millisecond)
		return runtime.NumGoroutine(), heap
	}
	baseG, _ := settle()
	var ids []string
	codes := map[int]int{}
	var atCapG int
	var atCapHeap uint64
	for i := range requests {
		code, id := initialize(t, client, ts.URL)
		codes[code]++
		if code == http.StatusOK {
			ids = append(ids, id)
		}
		if i == maxSessions-1 {
			atCapG, atCapHeap = settle()
		}
	}
	if codes[http.StatusOK] != maxSessions || codes[http.StatusServiceUnavailable] != requests-maxSessions {
		t.Fatalf("statuses %v, want %d OK and %d 503", codes, maxSessions, requests-maxSessions)
	}
	g, heap := settle()
	t.Logf("goroutines: %d at start, %d with %d sessions, %d after %d more initialize requests; live heap %d then %d",
		baseG, atCapG, maxSessions, g, requests-maxSessions, atCapHeap, heap)
	if atCapG < baseG+maxSessions {
		t.Fatalf("%d sessions hold %d goroutines: the test shows nothing", maxSessions, atCapG-baseG)
	}
	if g > atCapG+5 {
		t.Errorf("%d goroutines after %d refused requests, %d at the bound", g, requests-maxSessions, atCapG)
	}
	if heap > atCapHeap+1<<20 {
		t.Errorf("live heap grew from %d to %d bytes over %d refused requests", atCapHeap, heap, requests-maxSessions)
	}

	// Streams: three open at once, the fourth refused until one closes.
	var closers []func()
	for _, id := range ids[:3] {
		code, closeStream := openStream(t, client, ts.URL, id)
		if code != http.StatusOK {
			t.Fatalf("GET stream: %d", code)
		}
		closers = append(closers, closeStream)
	}
	if code, closeStream := openStream(t, client, ts.URL, ids[3]); code != http.StatusServiceUnavailable {
		t.Errorf("a fourth stream: %d, want 503", code)
		closeStream()
	}
	closers[0]()
	reopened := false
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		code, closeStream := openStream(t, client, ts.URL, ids[3])
		if code == http.StatusOK {
			closers[0] = closeStream
			reopened = true
			break
		}
		closeStream()
	}
	if !reopened {
		t.Error("no stream could open after one closed")
	}
	for _, c := range closers {
		c()
	}

	// A session deleted frees its place.
	req, _ := http.NewRequest("DELETE", ts.URL, nil)
	req.Header.Set("Mcp-Session-Id", ids[0])
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	freed := false
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if code, _ := initialize(t, client, ts.URL); code == http.StatusOK {
			freed = true
			break
		}
	}
	if !freed {
		t.Error("no session could start after one was deleted")
	}
}

// TestHTTPSessionCapDefault: without options, the handler holds
// DefaultMaxSessions sessions and refuses the next.
func TestHTTPSessionCapDefault(t *testing.T) {
	ts := serveHTTP(t, nil)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	var ok, busy atomic.Int32
	var wg sync.WaitGroup
	work := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range work {
				switch code, _ := initialize(t, client, ts.URL); code {
				case http.StatusOK:
					ok.Add(1)
				case http.StatusServiceUnavailable:
					busy.Add(1)
				}
			}
		}()
	}
	for range tnmcp.DefaultMaxSessions + 10 {
		work <- struct{}{}
	}
	close(work)
	wg.Wait()
	if ok.Load() != tnmcp.DefaultMaxSessions || busy.Load() != 10 {
		t.Errorf("%d OK and %d 503, want %d and 10", ok.Load(), busy.Load(), tnmcp.DefaultMaxSessions)
	}
}
