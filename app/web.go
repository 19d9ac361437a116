package app

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"hermes/backend/document"
)

// ContentSecurityPolicy is sent with every page; the frontend also sets it in a meta tag.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// tokenCookie is the name older versions kept the token under. A cookie is bound to
// the host, not the port, so the browser sent it to every other local server; the
// token now lives in the page's session storage and travels in a header only, and a
// leftover cookie is deleted.
const tokenCookie = "hermes_token"

// TokenHeader carries the per-run token on every API request (calls and the event stream).
const TokenHeader = "X-Hermes-Token"

// CodeHeader carries the one-time approval code the user typed.
const CodeHeader = "X-Hermes-Code"

// Web serves the UI and the App's methods over HTTP on loopback, guarded by a per-run token.
//
// The token is printed in the URL once; the page moves it into session storage, takes it
// out of the address bar and sends it in the X-Hermes-Token header. No cookie is set, so a
// page of another local server never receives it. The page itself (HTML, scripts, styles)
// holds no secret and loads without the token; every /api/ request needs it.
//
// Approving a new MCP server command (MCPApprove) or a call of a command tool
// (ResolveApproval with allow true) also needs a one-time code that is printed on the
// terminal running `hermes serve`: whoever holds the token alone cannot start a program.
type Web struct {
	app    *App
	assets fs.FS
	token  string
	hub    *hub
	// allowedHosts are the Host header values accepted (loopback names with the port).
	allowedHosts map[string]bool

	// Notices receives the one-time approval codes (the terminal's stderr by default).
	Notices io.Writer
	now     func() time.Time
	codes   *codeBook
	// mcpMu serialises the calls that change an MCP entry with the approval of one, so
	// an entry cannot change between the check of a code and the approval it grants.
	mcpMu sync.Mutex

	promptMu sync.Mutex
	prompts  map[string]ApprovalPrompt // approval:needed prompts still waiting, by id
}

// NewWeb prepares the web mode for a listener already bound to loopback.
func NewWeb(app *App, assets fs.FS, ln net.Listener) (*Web, error) {
	addr, ok := ln.Addr().(*net.TCPAddr)
	if !ok || !addr.IP.IsLoopback() {
		return nil, fmt.Errorf("serve: %s is not a loopback address; web mode only listens on this computer", ln.Addr())
	}
	tok := make([]byte, 32)
	if _, err := rand.Read(tok); err != nil {
		return nil, fmt.Errorf("serve: make token: %w", err)
	}
	port := fmt.Sprint(addr.Port)
	w := &Web{
		app: app, assets: assets, token: base64.RawURLEncoding.EncodeToString(tok), hub: newHub(),
		allowedHosts: map[string]bool{
			"127.0.0.1:" + port: true, "localhost:" + port: true, "[::1]:" + port: true,
			net.JoinHostPort(addr.IP.String(), port): true,
		},
		Notices: os.Stderr, now: time.Now, codes: newCodeBook(), prompts: map[string]ApprovalPrompt{},
	}
	if err := checkWebRules(w.webRuleNames(), app.methods()); err != nil {
		return nil, err
	}
	app.emit = w.emit
	return w, nil
}

// emit remembers the approval prompts that wait (to know which ones run a program)
// and sends every event to the connected pages.
func (w *Web) emit(name string, data any) {
	switch name {
	case string(evApprovalNeeded):
		if p, ok := data.(ApprovalPrompt); ok {
			w.promptMu.Lock()
			w.prompts[p.ID] = p
			w.promptMu.Unlock()
		}
	case string(evApprovalDone):
		if d, ok := data.(ApprovalDone); ok {
			w.promptMu.Lock()
			delete(w.prompts, d.ID)
			w.promptMu.Unlock()
		}
	}
	w.hub.broadcast(name, data)
}

// URL is the address to open, with the token. The page moves the token out of the
// address bar at once; the server never reads it from a query string.
func (w *Web) URL(ln net.Listener) string {
	return fmt.Sprintf("http://%s/?token=%s", ln.Addr(), w.token)
}

// Token is this run's secret.
func (w *Web) Token() string { return w.token }

// ServeHTTP checks Host and Origin on every request, and the token header on every API
// request, before routing it.
func (w *Web) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	h := rw.Header()
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	if !w.allowedHosts[r.Host] {
		http.Error(rw, "forbidden: wrong Host header", http.StatusForbidden)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && !(strings.HasPrefix(o, "http://") && w.allowedHosts[strings.TrimPrefix(o, "http://")]) {
		http.Error(rw, "forbidden: cross-origin request", http.StatusForbidden)
		return
	}
	if _, err := r.Cookie(tokenCookie); err == nil {
		// An older Hermes left the token in a cookie every local port receives: delete it.
		http.SetCookie(rw, &http.Cookie{Name: tokenCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	}
	if !strings.HasPrefix(r.URL.Path, "/api/") {
		w.static(rw, r)
		return
	}
	if !w.match(r.Header.Get(TokenHeader)) {
		writeJSON(rw, http.StatusUnauthorized, ErrorBody{Code: CodeUnauthorized,
			Error: "unauthorized: open the URL printed by `hermes serve` (it carries the token) in this tab"})
		return
	}
	switch {
	case strings.HasPrefix(r.URL.Path, "/api/call/"):
		w.call(rw, r, strings.TrimPrefix(r.URL.Path, "/api/call/"))
	case r.URL.Path == "/api/events":
		w.events(rw, r)
	default:
		writeJSON(rw, http.StatusNotFound, ErrorBody{Code: CodeNotFound, Error: "not found"})
	}
}

func (w *Web) match(got string) bool {
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(w.token)) == 1
}

func (w *Web) static(rw http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(rw, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(r.URL.Path, "/")
	if name == "" {
		name = "index.html"
	}
	if _, err := fs.Stat(w.assets, name); err != nil {
		name = "index.html" // single-page app
	}
	if _, err := fs.Stat(w.assets, "index.html"); err != nil {
		http.Error(rw, "the web UI is not built into this binary; run `go tool task build`", http.StatusNotFound)
		return
	}
	http.ServeFileFS(rw, r, w.assets, name)
}

// bodyLimit is the most a call's JSON body may hold: a file to attach comes
// whole, base64 (4/3 of its bytes), up to the largest file a reader takes.
// largeBodies are the calls that take more than 1 MiB (bodyLimit).
var largeBodies = []string{"AttachDocument"}

func bodyLimit(method string) int64 {
	if slices.Contains(largeBodies, method) {
		return (document.MaxImageBytes*4/3 + 1<<20) &^ (1<<20 - 1)
	}
	return 1 << 20
}

// call runs one bound method: POST /api/call/<Method> with a JSON array of its
// arguments, each decoded into the method's own parameter type (as Wails does).
func (w *Web) call(rw http.ResponseWriter, r *http.Request, method string) {
	if r.Method != http.MethodPost {
		http.Error(rw, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	var args []json.RawMessage
	limit := bodyLimit(method)
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err == nil && int64(len(body)) > limit {
		writeJSON(rw, http.StatusRequestEntityTooLarge, errorBody(&UserError{Code: CodeRequestTooBig, Params: map[string]string{"limit": fmt.Sprint(limit >> 20)},
			Message: fmt.Sprintf("That is more than Hermes takes at once (%d MiB). Attach long text as a file instead, or send it in parts.", limit>>20)}))
		return
	}
	if err == nil && len(body) > 0 {
		err = json.Unmarshal(body, &args)
	}
	if err != nil {
		writeJSON(rw, http.StatusBadRequest, map[string]string{"error": "the request body must be a JSON array of arguments"})
		return
	}
	if mcpWrites[method] {
		w.mcpMu.Lock()
		defer w.mcpMu.Unlock()
	}
	if g, ok := w.gate(method, argTexts(args)); ok {
		if status, body := w.confirm(g, r.Header.Get(CodeHeader)); status != 0 {
			writeJSON(rw, status, body)
			return
		}
	}
	res, err := w.app.dispatch(r.Context(), method, args)
	if err != nil {
		status := http.StatusInternalServerError
		var ue *UserError
		if errors.Is(err, errBadCall) {
			status = http.StatusBadRequest
		} else if errors.As(err, &ue) {
			status = http.StatusUnprocessableEntity
		}
		writeJSON(rw, status, errorBody(err))
		return
	}
	writeJSON(rw, http.StatusOK, res)
}

func writeJSON(rw http.ResponseWriter, status int, v any) {
	rw.Header().Set("Content-Type", "application/json; charset=utf-8")
	rw.WriteHeader(status)
	_ = json.NewEncoder(rw).Encode(v)
}

var errBadCall = errors.New("bad call")

// dispatch calls a bound method with JSON arguments, as Wails does for the
// window: every exported method of App is callable (the generated table holds
// each, none else), each argument decoded into its parameter's type. The
// request-bound ones run under the request's context, so a closed page stops
// a turn.
func (a *App) dispatch(ctx context.Context, method string, args []json.RawMessage) (any, error) {
	m, ok := a.bound()[method]
	if !ok {
		m, ok = a.methods()[method]
	}
	if !ok {
		return nil, fmt.Errorf("%w: unknown method %q", errBadCall, method)
	}
	if len(args) != m.args {
		return nil, fmt.Errorf("%w: %s takes %d arguments, got %d", errBadCall, method, m.args, len(args))
	}
	res, err := m.call(ctx, args)
	if errors.Is(err, errBadCall) { // its arguments did not decode
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return res, err
}

// argTexts are args as a gate reads them: a string's value, and any other
// value's JSON (true, 5, ["a"]).
func argTexts(args []json.RawMessage) []string {
	v := make([]string, len(args))
	for i, arg := range args {
		if json.Unmarshal(arg, &v[i]) != nil {
			v[i] = string(bytes.TrimSpace(arg))
		}
	}
	return v
}
