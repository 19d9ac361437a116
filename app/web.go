package app

import (
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
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode"
)

// ContentSecurityPolicy is sent with every page; the frontend also sets it in a meta tag.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

const tokenCookie = "hermes_token"

// Web serves the UI and the App's methods over HTTP on loopback, guarded by a per-run token.
type Web struct {
	app    *App
	assets fs.FS
	token  string
	hub    *hub
	// allowedHosts are the Host header values accepted (loopback names with the port).
	allowedHosts map[string]bool
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
	}
	app.emit = w.hub.broadcast
	return w, nil
}

// URL is the address to open, with the token.
func (w *Web) URL(ln net.Listener) string {
	return fmt.Sprintf("http://%s/?token=%s", ln.Addr(), w.token)
}

// Token is this run's secret.
func (w *Web) Token() string { return w.token }

// ServeHTTP checks Host, Origin and the token on every request before routing it.
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
	if !w.authorized(rw, r) {
		http.Error(rw, "unauthorized: open the URL printed by `hermes serve` (it carries the token)", http.StatusUnauthorized)
		return
	}
	switch {
	case strings.HasPrefix(r.URL.Path, "/api/call/"):
		w.call(rw, r, strings.TrimPrefix(r.URL.Path, "/api/call/"))
	case r.URL.Path == "/api/events":
		w.events(rw, r)
	default:
		w.static(rw, r)
	}
}

// authorized accepts the token from the header, the cookie or the query; a valid
// query token also sets the cookie so the page's own assets load.
func (w *Web) authorized(rw http.ResponseWriter, r *http.Request) bool {
	if w.match(r.Header.Get("X-Hermes-Token")) {
		return true
	}
	if c, err := r.Cookie(tokenCookie); err == nil && w.match(c.Value) {
		return true
	}
	if w.match(r.URL.Query().Get("token")) {
		http.SetCookie(rw, &http.Cookie{Name: tokenCookie, Value: w.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		return true
	}
	return false
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

// call runs one bound method: POST /api/call/<Method> with a JSON array of string arguments.
func (w *Web) call(rw http.ResponseWriter, r *http.Request, method string) {
	if r.Method != http.MethodPost {
		http.Error(rw, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	var args []string
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err == nil && len(body) > 0 {
		err = json.Unmarshal(body, &args)
	}
	if err != nil {
		writeJSON(rw, http.StatusBadRequest, map[string]string{"error": "the request body must be a JSON array of strings"})
		return
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
		writeJSON(rw, status, map[string]string{"error": err.Error()})
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

// dispatch calls a bound method by name with string arguments, as Wails does for the
// window: every exported method of App is callable, and only those. SendMessage runs
// under the request's context, so a closed page stops its turn.
func (a *App) dispatch(ctx context.Context, method string, args []string) (any, error) {
	if method == "SendMessage" {
		if len(args) != 3 {
			return nil, fmt.Errorf("%w: SendMessage takes 3 arguments, got %d", errBadCall, len(args))
		}
		return a.send(ctx, args[0], args[1], args[2])
	}
	m := reflect.ValueOf(a).MethodByName(method)
	if !m.IsValid() || method == "" || !unicode.IsUpper(rune(method[0])) {
		return nil, fmt.Errorf("%w: unknown method %q", errBadCall, method)
	}
	t := m.Type()
	if t.IsVariadic() || t.NumIn() != len(args) {
		return nil, fmt.Errorf("%w: %s takes %d arguments, got %d", errBadCall, method, t.NumIn(), len(args))
	}
	in := make([]reflect.Value, len(args))
	for i, arg := range args {
		if t.In(i).Kind() != reflect.String {
			return nil, fmt.Errorf("%w: %s is not callable from the web", errBadCall, method)
		}
		in[i] = reflect.ValueOf(arg)
	}
	out := m.Call(in)
	var result any
	if len(out) == 2 {
		result = out[0].Interface()
	}
	if last := out[len(out)-1]; !last.IsNil() {
		err, _ := last.Interface().(error)
		return nil, err
	}
	return result, nil
}

// events streams every emitted event as server-sent events: data {"name","data"}.
func (w *Web) events(rw http.ResponseWriter, r *http.Request) {
	flusher, ok := rw.(http.Flusher)
	if !ok {
		http.Error(rw, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	rw.Header().Set("Content-Type", "text/event-stream")
	rw.WriteHeader(http.StatusOK)
	fmt.Fprint(rw, ": connected\n\n")
	flusher.Flush()
	ch := w.hub.subscribe()
	defer w.hub.unsubscribe(ch)
	ping := time.NewTicker(20 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-ping.C:
			fmt.Fprint(rw, ": ping\n\n")
		case msg, ok := <-ch:
			if !ok {
				return // too slow: the client reconnects
			}
			fmt.Fprintf(rw, "data: %s\n\n", msg)
		}
		flusher.Flush()
	}
}

// hub fans events out to the connected event streams.
type hub struct {
	mu   sync.Mutex
	subs map[chan []byte]bool
}

func newHub() *hub { return &hub{subs: map[chan []byte]bool{}} }

func (h *hub) subscribe() chan []byte {
	ch := make(chan []byte, 4096)
	h.mu.Lock()
	h.subs[ch] = true
	h.mu.Unlock()
	return ch
}

func (h *hub) unsubscribe(ch chan []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[ch] {
		delete(h.subs, ch)
		close(ch)
	}
}

func (h *hub) broadcast(name string, data any) {
	msg, err := json.Marshal(map[string]any{"name": name, "data": data})
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- msg:
		default: // a stuck client is dropped rather than blocking the chat
			delete(h.subs, ch)
			close(ch)
		}
	}
}
