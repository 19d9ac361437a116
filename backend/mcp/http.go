package mcp

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"hermes/backend/lazyre"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"

	"hermes/backend/egress"
	"hermes/backend/netguard"
)

// remote is how one run reaches a remote server: the URL, the headers with
// their ${VAR}s filled in, and an HTTP client that enforces the network rules
// (netguard at every dial, no redirect to another host, verified TLS).
type remote struct {
	url     *url.URL
	sse     bool // the entry asks for the legacy HTTP+SSE transport
	headers map[string]string
	names   []string // header names, for error messages
	secrets []string // header values, never shown
	client  *http.Client
	status  *statusRecorder
}

// headerRef is a ${VAR} (or VS Code's ${env:VAR}) reference in a header value.
var headerRef = lazyre.New(`\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}`)

// needsUser is a failure that no retry can mend (an unset variable, an
// unreadable CA file): the server waits for the user instead of backing off.
type needsUser struct{ msg string }

func (e *needsUser) Error() string { return e.msg }

func needUser(format string, args ...any) error { return &needsUser{fmt.Sprintf(format, args...)} }

// remoteRule is how a remote server's connections are dialled and recorded
// (as "mcp:<name>"): its host on loopback or the LAN, the internet only with
// allow_internet.
func remoteRule(name string, cfg ServerConfig) egress.Rule {
	return egress.Rule{Part: "mcp:" + name, Guard: true, Internet: cfg.AllowInternet,
		Hint: `"allow_internet": true in the entry in mcp.json`, Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
}

// newRemote prepares a connection to cfg's server, dialled by dial; a ${VAR}
// that the environment does not define is an error (a header without its
// secret would only be refused by the server).
func newRemote(cfg ServerConfig, environ []string, dial egress.DialFunc) (*remote, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("connect: the url is not valid: %w", err)
	}
	lookup := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			if _, dup := lookup[k]; !dup {
				lookup[k] = v
			}
		}
	}
	r := &remote{url: u, sse: cfg.Type == TransportSSE, headers: map[string]string{}, names: cfg.HeaderNames(), status: &statusRecorder{}}
	for _, name := range r.names {
		var missing []string
		val := headerRef.ReplaceAllStringFunc(cfg.Headers[name], func(ref string) string {
			v := headerRef.FindStringSubmatch(ref)[1]
			val, ok := lookup[v]
			if !ok || val == "" {
				missing = append(missing, v)
			}
			return val
		})
		if len(missing) > 0 {
			return nil, needUser("connect: header %s uses ${%s}, which is not set in Hermes's environment; set it, restart Hermes, then restart the server", name, strings.Join(missing, "}, ${"))
		}
		if strings.ContainsAny(val, "\r\n\x00") {
			return nil, needUser("connect: the value of header %q holds a line break or NUL byte", name)
		}
		r.headers[name] = val
		if len(val) >= 4 {
			r.secrets = append(r.secrets, val)
		}
	}
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if cfg.CAFile != "" {
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		pem, err := os.ReadFile(cfg.CAFile)
		if err != nil {
			return nil, needUser("connect: read ca_file: %v", err)
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, needUser("connect: ca_file %s holds no PEM certificate", cfg.CAFile)
		}
		tlsConf.RootCAs = pool
	}
	base := &http.Transport{
		Proxy:               nil, // the address check must see the real address
		DialContext:         dial,
		TLSClientConfig:     tlsConf,
		TLSHandshakeTimeout: 10 * time.Second,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}
	host := u.Host
	r.client = &http.Client{
		Transport: &recordingTransport{next: base, rec: r.status},
		// A redirect to another host is not followed: the entry's headers would
		// go with it. The same host may redirect a few times.
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if req.URL.Host != host {
				return fmt.Errorf("%w: the server redirected to %s; Hermes does not follow it with this entry's headers (put that URL in mcp.json if you trust it)", errRedirect, req.URL.Redacted())
			}
			if len(via) >= 3 {
				return fmt.Errorf("%w: more than 3 redirects", errRedirect)
			}
			return nil
		},
	}
	return r, nil
}

var errRedirect = errors.New("redirect refused")

// quiet is the logger given to mcp-go's transports: what matters reaches the
// user as errors and status, not as log lines on stderr.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// openRemote connects to a remote server over Streamable HTTP, falling back to
// the legacy HTTP+SSE transport when the entry asks for it or the server
// answers the Streamable HTTP initialize with a 4xx (other than 401/403), as
// the MCP specification's backwards-compatibility section describes.
func openRemote(ctx context.Context, cfg sessionConfig) (*session, error) {
	r := cfg.remote
	if !r.sse {
		r.status.reset()
		s, err := r.open(ctx, cfg, false)
		code := r.status.last()
		if err == nil || ctx.Err() != nil || code < 400 || code >= 500 || code == http.StatusUnauthorized || code == http.StatusForbidden {
			return s, err
		}
	}
	r.status.reset()
	r.status.withGET.Store(true)
	return r.open(ctx, cfg, true)
}

func (r *remote) open(ctx context.Context, cfg sessionConfig, legacy bool) (*session, error) {
	s := newSession(ctx, cfg)
	s.remote, s.legacy = r, legacy
	if legacy {
		tr, err := transport.NewSSE(r.url.String(), transport.WithHTTPClient(r.client), transport.WithHeaders(r.headers), transport.WithSSELogger(quiet))
		if err != nil {
			return nil, fmt.Errorf("connect: %s", r.redact(err.Error()))
		}
		tr.SetConnectionLostHandler(func(err error) {
			select {
			case s.fatal <- fmt.Errorf("the server's event stream closed: %s", r.explain(err)):
			default:
			}
		})
		s.tr = tr
	} else {
		tr, err := transport.NewStreamableHTTP(r.url.String(), transport.WithHTTPBasicClient(r.client),
			transport.WithHTTPHeaders(r.headers), transport.WithContinuousListening(), transport.WithHTTPLogger(quiet))
		if err != nil {
			return nil, fmt.Errorf("connect: %s", r.redact(err.Error()))
		}
		s.tr = tr
	}
	if err := s.initialize(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// remoteFailed explains a failed request to a remote server; a lost connection
// or session also ends the run, so the supervisor reconnects (with backoff)
// and registers the tools again.
func (s *session) remoteFailed(method string, err error) error {
	msg := fmt.Sprintf("%s: %s", method, s.remote.explain(err))
	var op *net.OpError
	if errors.Is(err, transport.ErrSessionTerminated) || errors.As(err, &op) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		select {
		case s.fatal <- errors.New(msg):
		default:
		}
	}
	return errors.New(msg)
}

// explain turns a transport error into the user's terms, without any header
// value.
func (r *remote) explain(err error) string {
	code := r.status.last()
	var auth *transport.AuthorizationRequiredError
	switch {
	case errors.As(err, &auth) || code == http.StatusUnauthorized:
		if len(r.names) == 0 {
			return fmt.Sprintf(`%s refused the request (HTTP 401): it needs credentials; add them to the entry in mcp.json as a header, e.g. "headers": {"Authorization": "Bearer ${MCP_TOKEN}"}, and set MCP_TOKEN in Hermes's environment`, r.url.Redacted())
		}
		return fmt.Sprintf("%s refused the credentials (HTTP 401); check the value of the header %s (and the environment variable it names)", r.url.Redacted(), strings.Join(r.names, ", "))
	case code == http.StatusForbidden:
		if len(r.names) == 0 {
			return fmt.Sprintf(`%s refused access (HTTP 403); if it needs a token, add it to the entry in mcp.json as a header, e.g. "headers": {"Authorization": "Bearer ${MCP_TOKEN}"}`, r.url.Redacted())
		}
		return fmt.Sprintf("%s refused access (HTTP 403); check the value of the header %s (and the environment variable it names)", r.url.Redacted(), strings.Join(r.names, ", "))
	case errors.Is(err, errRedirect), errors.Is(err, netguard.ErrRefused), errors.Is(err, netguard.ErrInternet), errors.Is(err, netguard.ErrOffline):
		return r.redact(innermost(err))
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("nothing answers at %s (connection refused); is the server running?", r.url.Redacted())
	}
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	if errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &invalid) {
		return r.redact(fmt.Sprintf("the TLS certificate of %s is not trusted (%s); for a LAN server with its own CA, set \"ca_file\" to the CA's PEM file", r.url.Host, innermost(err)))
	}
	if code >= 400 {
		return r.redact(fmt.Sprintf("%s answered HTTP %d: %s", r.url.Redacted(), code, err.Error()))
	}
	return r.redact(err.Error())
}

// innermost is the message of the error a chain wraps last that says
// something: for an *url.Error, the reason rather than "Post ...: ".
func innermost(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// redact replaces every header value in s by [REDACTED].
func (r *remote) redact(s string) string {
	for _, v := range r.secrets {
		s = strings.ReplaceAll(s, v, Redacted)
	}
	return s
}

// statusRecorder keeps the last HTTP status a server answered with that was
// not a success, to explain failures mcp-go reports only in words.
// Only POSTs count, and the event stream's GET of the legacy transport: the
// Streamable HTTP listening GET may be refused (405) by a server that works.
type statusRecorder struct {
	code    atomic.Int32
	withGET atomic.Bool
}

func (s *statusRecorder) reset()    { s.code.Store(0) }
func (s *statusRecorder) last() int { return int(s.code.Load()) }

type recordingTransport struct {
	next http.RoundTripper
	rec  *statusRecorder
}

func (t *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err == nil && (req.Method == http.MethodPost || t.rec.withGET.Load()) {
		if resp.StatusCode >= 400 {
			t.rec.code.Store(int32(resp.StatusCode))
		} else if req.Method == http.MethodPost {
			t.rec.code.Store(0)
		}
	}
	return resp, err
}
