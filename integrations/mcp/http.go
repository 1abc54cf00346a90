package tnmcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of [HTTPOptions] and [NewHTTPServer].
const (
	DefaultSessionTimeout = 10 * time.Minute
	DefaultMaxBodyBytes   = 1 << 20 // 1 MiB: one JSON-RPC message
	DefaultBodyTimeout    = 10 * time.Second
	DefaultHeaderTimeout  = 10 * time.Second
	DefaultIdleTimeout    = 2 * time.Minute
	DefaultMaxSessions    = 1000 // live sessions of one handler
	DefaultMaxStreams     = 1000 // open GET streams of one handler
)

// HTTPOptions configures [HTTPHandler]. The zero value is a stateful
// handler with the defaults, no authentication and cross-origin
// protection for every origin.
type HTTPOptions struct {
	// Stateless serves every request with a temporary session of its own
	// (the SDK's StreamableHTTPOptions.Stateless): no Mcp-Session-Id, so
	// replicas behind a load balancer serve one client's calls without
	// affinity. A stateless server cannot send a request to the client
	// (elicitation/create, sampling: the SDK refuses them), so serve tools
	// that need approval by elicitation from a stateful server. GET and
	// DELETE are refused (405).
	Stateless bool

	// SessionTimeout closes a session that has had no request for this
	// long, so that sessions clients abandon are reclaimed. 0 means
	// DefaultSessionTimeout; < 0 means never (sessions then live until
	// the client deletes them). Stateless handlers have no sessions.
	SessionTimeout time.Duration

	// MaxSessions bounds the live sessions of a stateful handler: a
	// request that would start one more (a POST without Mcp-Session-Id,
	// an initialize) is answered 503 Service Unavailable while that many
	// are open. A session ends when the client deletes it, when it has
	// been idle for SessionTimeout, or when its initialize fails. Each
	// live session holds two goroutines (the SDK's, and one that waits
	// for its end to count it out) and about 10 KB. 0 means
	// DefaultMaxSessions; < 0 means no bound.
	MaxSessions int

	// MaxStreams bounds the GET requests open at once, all sessions
	// together: the streams a client opens for the server's own messages
	// (one per session; more to resume from a Last-Event-ID), each
	// holding a connection and a goroutine for as long as the client
	// keeps it. One more is answered 503. 0 means DefaultMaxStreams; < 0
	// means no bound.
	MaxStreams int

	// MaxBodyBytes bounds a request's body: a longer one is refused with
	// 413 before the MCP handler sees it. 0 means DefaultMaxBodyBytes;
	// < 0 means the SDK's own default (mcp.DefaultMaxRequestBodyBytes).
	MaxBodyBytes int64

	// BodyTimeout bounds the reading of a request's body, from when its
	// headers are read: a client that sends its body slower is refused
	// with 408 and its connection closed, so trickled bodies hold no
	// handler. 0 means DefaultBodyTimeout; < 0 means no bound.
	BodyTimeout time.Duration

	// Verifier, when set, makes every request carry a bearer token that it
	// accepts (through the SDK's auth.RequireBearerToken); a request
	// without one, or with one it refuses, is answered 401. [StaticToken]
	// makes a Verifier for one shared secret. Bearer are the options of
	// RequireBearerToken (nil: none).
	Verifier auth.TokenVerifier
	Bearer   *auth.RequireBearerTokenOptions

	// TrustedOrigins are the origins ("https://app.example") allowed to
	// call cross-origin. Every other cross-origin browser request is
	// refused with 403: net/http's CrossOriginProtection, which refuses a
	// non-GET request whose Sec-Fetch-Site is cross-site, or whose Origin
	// is not the request's host, and lets requests without either header
	// (clients that are not browsers) through.
	TrustedOrigins []string

	// Logger, when set, is the SDK's logger of the streamable transport.
	Logger *slog.Logger
}

// HTTPHandler serves server over streamable HTTP with the protections of
// o (nil means the zero HTTPOptions): cross-origin protection, then the
// bearer token when o.Verifier is set, then the body's bound and timeout,
// then the bounds on live sessions and open streams, then the SDK's
// handler with its session timeout. The SDK's own DNS
// rebinding protection (a loopback request whose Host is not loopback is
// refused) stays on. Serve it with [NewHTTPServer], which bounds what
// comes before the body. An error is a bad trusted origin.
func HTTPHandler(server *mcp.Server, o *HTTPOptions) (http.Handler, error) {
	if o == nil {
		o = &HTTPOptions{}
	}
	timeout := o.SessionTimeout
	switch {
	case timeout == 0:
		timeout = DefaultSessionTimeout
	case timeout < 0:
		timeout = 0
	}
	maxBody := o.MaxBodyBytes
	if maxBody == 0 {
		maxBody = DefaultMaxBodyBytes
	}
	bodyTimeout := o.BodyTimeout
	if bodyTimeout == 0 {
		bodyTimeout = DefaultBodyTimeout
	}
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless:           o.Stateless,
		SessionTimeout:      timeout,
		MaxRequestBodyBytes: maxBody,
		Logger:              o.Logger,
	})
	if !o.Stateless {
		h = capSessions(h, server, resolveCap(o.MaxSessions, DefaultMaxSessions), resolveCap(o.MaxStreams, DefaultMaxStreams))
	}
	if maxBody > 0 || bodyTimeout > 0 {
		h = readBody(h, maxBody, bodyTimeout)
	}
	if o.Verifier != nil {
		h = auth.RequireBearerToken(o.Verifier, o.Bearer)(h)
	}
	cop := http.NewCrossOriginProtection()
	for _, origin := range o.TrustedOrigins {
		if err := cop.AddTrustedOrigin(origin); err != nil {
			return nil, fmt.Errorf("tnmcp: trusted origin: %w", err)
		}
	}
	return cop.Handler(h), nil
}

// resolveCap resolves a cap of HTTPOptions: 0 is def, < 0 no bound (0).
func resolveCap(n, def int) int64 {
	switch {
	case n == 0:
		return int64(def)
	case n < 0:
		return 0
	}
	return int64(n)
}

// sessionIDHeader is the header of the streamable transport that names a
// session.
const sessionIDHeader = "Mcp-Session-Id"

// capSessions answers 503 to a request that would start a session beyond
// maxSessions live ones, or open a GET stream beyond maxStreams open ones
// (0: no bound). A session counts from the request that starts it until
// the server's session ends; the SDK's handler owns the sessions, so the
// session is found among server.Sessions by the id the SDK put in the
// response, and a goroutine waits for its end.
func capSessions(next http.Handler, server *mcp.Server, maxSessions, maxStreams int64) http.Handler {
	var sessions, streams atomic.Int64
	busy := func(w http.ResponseWriter, what string, max int64) {
		http.Error(w, fmt.Sprintf("the server has %d %s open, its limit: try again later", max, what), http.StatusServiceUnavailable)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && maxStreams > 0:
			if streams.Add(1) > maxStreams {
				streams.Add(-1)
				busy(w, "streams", maxStreams)
				return
			}
			defer streams.Add(-1)
		case r.Method == http.MethodPost && r.Header.Get(sessionIDHeader) == "" && maxSessions > 0:
			// Counted before the session exists, so that requests at once
			// cannot pass the bound together.
			if sessions.Add(1) > maxSessions {
				sessions.Add(-1)
				busy(w, "sessions", maxSessions)
				return
			}
			counted := false
			defer func() {
				if !counted {
					sessions.Add(-1) // none was made, it has ended, or the handler panicked
				}
			}()
			next.ServeHTTP(w, r)
			ss := findSession(server, w.Header().Get(sessionIDHeader))
			if ss == nil {
				return
			}
			counted = true
			go func() {
				_ = ss.Wait()
				sessions.Add(-1)
			}()
			return
		}
		next.ServeHTTP(w, r)
	})
}

// findSession returns the session of server named id, or nil.
func findSession(server *mcp.Server, id string) *mcp.ServerSession {
	if id == "" {
		return nil
	}
	for ss := range server.Sessions() {
		if ss.ID() == id {
			return ss
		}
	}
	return nil
}

// readBody reads a request's whole body before next sees it, at most max
// bytes (max <= 0: no bound here) within timeout (<= 0: none), refusing
// the request otherwise. A streamable HTTP request's body is one JSON-RPC
// message, which the SDK reads whole anyway; reading it here lets the
// read deadline cover the body alone, not the response that follows
// (which can be a long call or an event stream, and which http.Server's
// ReadTimeout would cut).
func readBody(next http.Handler, max int64, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		if max > 0 && r.ContentLength > max {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		rc := http.NewResponseController(w)
		deadline := timeout > 0 && rc.SetReadDeadline(time.Now().Add(timeout)) == nil
		body := r.Body
		if max > 0 {
			body = http.MaxBytesReader(w, r.Body, max)
		}
		b, err := io.ReadAll(body)
		if deadline {
			rc.SetReadDeadline(time.Time{})
		}
		if err != nil {
			var tooLarge *http.MaxBytesError
			var ne net.Error
			switch {
			case errors.As(err, &tooLarge):
				http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, os.ErrDeadlineExceeded):
				w.Header().Set("Connection", "close")
				http.Error(w, "request body not received in time", http.StatusRequestTimeout)
			default:
				http.Error(w, "cannot read the request body", http.StatusBadRequest)
			}
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(b))
		r.ContentLength = int64(len(b))
		next.ServeHTTP(w, r)
	})
}

// StaticToken is a [auth.TokenVerifier] that accepts one token, compared
// in constant time (of its SHA-256, so that its length does not show
// either). The token does not expire: each verification gives it an
// expiry a day ahead, as RequireBearerToken wants one. Read the
// token from a file or the environment, not a command-line flag, which
// other users of the machine can see.
func StaticToken(token string) auth.TokenVerifier {
	want := sha256.Sum256([]byte(token))
	return func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
		sum := sha256.Sum256([]byte(got))
		if token == "" || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Expiration: time.Now().Add(24 * time.Hour)}, nil
	}
}

// NewHTTPServer returns an http.Server for h with the bounds that do not
// depend on one request: DefaultHeaderTimeout to read a request's headers
// (a body's timeout is [HTTPOptions].BodyTimeout), DefaultIdleTimeout for
// a kept-alive connection between requests, and 64 KiB of headers. It has
// no ReadTimeout or WriteTimeout: they would cut the response of a long
// call or an event stream; bound calls with [Limits].
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: DefaultHeaderTimeout,
		IdleTimeout:       DefaultIdleTimeout,
		MaxHeaderBytes:    64 << 10,
	}
}

// ErrExposed is wrapped by [CheckExposure]'s error.
var ErrExposed = errors.New("serving beyond loopback without authentication")

// CheckExposure reports an error wrapping [ErrExposed] when addr (a
// listener's address) is reachable from other machines, any address that
// is not loopback (0.0.0.0 and :: included), and authenticated is false:
// anyone who can reach it could call the tools. Call it after net.Listen,
// with ln.Addr(), so that a name such as "localhost" has been resolved.
func CheckExposure(addr net.Addr, authenticated bool) error {
	if authenticated {
		return nil
	}
	var ip net.IP
	switch a := addr.(type) {
	case *net.TCPAddr:
		ip = a.IP
	case *net.UDPAddr:
		ip = a.IP
	case *net.UnixAddr:
		return nil // a socket file, guarded by its permissions
	default:
		host, _, err := net.SplitHostPort(addr.String())
		if err != nil {
			host = addr.String()
		}
		ip = net.ParseIP(host)
	}
	if ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("tnmcp: %s: %w: bind a loopback address (127.0.0.1) or require a bearer token", addr, ErrExposed)
}
