package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"net"
	"net/http"
	"os"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode"

	"hermes/backend/mcp"
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
// (ResolveApproval with allow "true") also needs a one-time code that is printed on the
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
	app.emit = w.emit
	return w, nil
}

// emit remembers the approval prompts that wait (to know which ones run a program)
// and sends every event to the connected pages.
func (w *Web) emit(name string, data any) {
	switch name {
	case "approval:needed":
		if p, ok := data.(ApprovalPrompt); ok {
			w.promptMu.Lock()
			w.prompts[p.ID] = p
			w.promptMu.Unlock()
		}
	case "approval:done":
		if m, ok := data.(map[string]string); ok {
			w.promptMu.Lock()
			delete(w.prompts, m["id"])
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
		writeJSON(rw, http.StatusUnauthorized, map[string]string{
			"error": "unauthorized: open the URL printed by `hermes serve` (it carries the token) in this tab"})
		return
	}
	switch {
	case strings.HasPrefix(r.URL.Path, "/api/call/"):
		w.call(rw, r, strings.TrimPrefix(r.URL.Path, "/api/call/"))
	case r.URL.Path == "/api/events":
		w.events(rw, r)
	default:
		writeJSON(rw, http.StatusNotFound, map[string]string{"error": "not found"})
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
	if mcpWrites[method] {
		w.mcpMu.Lock()
		defer w.mcpMu.Unlock()
	}
	if g, ok := w.gate(method, args); ok {
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
	// Subscribe before the page hears "connected": no event falls in between.
	ch := w.hub.subscribe()
	defer w.hub.unsubscribe(ch)
	rw.Header().Set("Content-Type", "text/event-stream")
	rw.WriteHeader(http.StatusOK)
	fmt.Fprint(rw, ": connected\n\n")
	flusher.Flush()
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

// The one-time approval codes of web mode.
const (
	codeTTL = 5 * time.Minute
	// codeTries is how many wrong tries one code takes before it is used up.
	codeTries = 3
	// codeLockAfter wrong codes in one run lock approvals from the browser until
	// `hermes serve` restarts: a script cannot guess its way through.
	codeLockAfter = 20
	// codeIssueLimit new codes per codeTTL keep a script from flooding the terminal.
	codeIssueLimit = 30
)

// mcpWrites are the calls that change or approve an MCP entry (see Web.mcpMu).
var mcpWrites = map[string]bool{"MCPAddServer": true, "MCPApprove": true, "MCPRemove": true, "MCPSetDisabled": true}

// guarded is a call that needs a one-time code: key names the action, what says it in
// words on the terminal, and fingerprint is what the user approves; a code is void for
// anything else (an entry edited after its code was printed gets a new code).
type guarded struct {
	key, what, fingerprint string
}

// gate says whether a web call needs a one-time code: approving an MCP server, or
// allowing a call of a tool that runs a program.
func (w *Web) gate(method string, args []string) (guarded, bool) {
	switch method {
	case "MCPApprove":
		if len(args) != 1 {
			return guarded{}, false // dispatch refuses it
		}
		name := args[0]
		g := guarded{key: "MCPApprove\x00" + name, what: fmt.Sprintf("start the MCP server %q", name)}
		if m := w.app.core.MCP(); m != nil {
			if st, err := m.Server(name); err == nil {
				b, _ := json.Marshal(st.Config)
				sum := sha256.Sum256(b)
				g.fingerprint = hex.EncodeToString(sum[:])
				if st.Config.Remote() {
					g.what = fmt.Sprintf("connect to the MCP server %q: %s", name, mcp.CommandLine(st.Config))
				} else {
					g.what = fmt.Sprintf("start the MCP server %q: %s", name, mcp.CommandLine(st.Config))
				}
			}
		}
		return g, true
	case "ResolveApproval":
		if len(args) != 3 || args[1] != "true" {
			return guarded{}, false // a refusal needs no code
		}
		w.promptMu.Lock()
		p, ok := w.prompts[args[0]]
		w.promptMu.Unlock()
		if !ok || !p.Annotations.Command {
			return guarded{}, false
		}
		callArgs := string(p.Args)
		if r := []rune(callArgs); len(r) > 300 {
			callArgs = string(r[:300]) + "…"
		}
		return guarded{key: "ResolveApproval\x00" + p.ID, fingerprint: p.DefinitionHash,
			what: fmt.Sprintf("let the tool %q run its program with %s", p.Tool, callArgs)}, true
	case "SetSetting":
		// ollama_path names the program Hermes starts as Ollama.
		if len(args) != 2 || args[0] != "ollama_path" {
			return guarded{}, false
		}
		return guarded{key: "SetSetting\x00ollama_path", fingerprint: args[1],
			what: fmt.Sprintf("let Hermes start %q as Ollama", args[1])}, true
	}
	return guarded{}, false
}

// codeBook holds the codes that wait to be typed, one per action.
type codeBook struct {
	mu      sync.Mutex
	pending map[string]*oneTimeCode
	wrong   int         // wrong codes typed in this run
	issued  []time.Time // when the recent codes were printed
}

type oneTimeCode struct {
	code        string
	fingerprint string
	expires     time.Time
	tries       int
}

func newCodeBook() *codeBook { return &codeBook{pending: map[string]*oneTimeCode{}} }

// confirm checks the code typed for a guarded call. It returns status 0 when the call
// may run (the code is then used up); otherwise the HTTP status and the body to send,
// whose "confirm" field tells the page why: "required" (a code was just printed),
// "expired" (the code typed is no longer valid; a new one was printed), "wrong",
// "locked" or "busy".
func (w *Web) confirm(g guarded, typed string) (int, map[string]any) {
	c := w.codes
	c.mu.Lock()
	defer c.mu.Unlock()
	now := w.now()
	if c.wrong >= codeLockAfter {
		return http.StatusTooManyRequests, lockedBody()
	}
	typed = strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, typed)
	reason := "required"
	if typed != "" {
		reason = "expired"
	}
	if p := c.pending[g.key]; typed != "" && p != nil && now.Before(p.expires) && p.fingerprint == g.fingerprint {
		if subtle.ConstantTimeCompare([]byte(typed), []byte(p.code)) == 1 {
			delete(c.pending, g.key)
			return 0, nil
		}
		c.wrong++
		p.tries++
		if c.wrong >= codeLockAfter {
			clear(c.pending)
			fmt.Fprintf(w.Notices, "hermes: %d wrong approval codes were typed; approvals from the browser are locked until `hermes serve` restarts\n", c.wrong)
			return http.StatusTooManyRequests, lockedBody()
		}
		if left := codeTries - p.tries; left > 0 {
			return http.StatusForbidden, map[string]any{"confirm": "wrong", "tries_left": left,
				"error": fmt.Sprintf("That code is not right (%d %s left). Type the code printed in the terminal that runs `hermes serve`.", left, plural(left, "try", "tries"))}
		}
		delete(c.pending, g.key)
		reason = "used"
	}
	recent := c.issued[:0]
	for _, at := range c.issued {
		if now.Sub(at) < codeTTL {
			recent = append(recent, at)
		}
	}
	c.issued = recent
	if len(c.issued) >= codeIssueLimit {
		return http.StatusTooManyRequests, map[string]any{"confirm": "busy",
			"error": "Too many approval codes were asked for in the last few minutes. Wait a few minutes and try again."}
	}
	code, err := newCode()
	if err != nil {
		return http.StatusInternalServerError, map[string]any{"error": "make an approval code: " + err.Error()}
	}
	c.issued = append(c.issued, now)
	c.pending[g.key] = &oneTimeCode{code: code, fingerprint: g.fingerprint, expires: now.Add(codeTTL)}
	fmt.Fprintf(w.Notices, "\nhermes: approval code %s %s (valid %d minutes, once) to %s\n"+
		"hermes: type it in the browser only if you asked for this there\n\n",
		code[:3], code[3:], int(codeTTL/time.Minute), g.what)
	msg := map[string]string{
		"required": "To approve this, type the one-time code just printed in the terminal that runs `hermes serve`.",
		"expired":  "That code has expired or was already used; a new code was printed in the terminal that runs `hermes serve`.",
		"used":     "That code is not right and can no longer be used; a new code was printed in the terminal that runs `hermes serve`.",
	}[reason]
	if reason == "used" {
		reason = "wrong"
	}
	return http.StatusPreconditionRequired, map[string]any{"confirm": reason, "error": msg, "expires_in": int(codeTTL / time.Second)}
}

func lockedBody() map[string]any {
	return map[string]any{"confirm": "locked",
		"error": "Too many wrong approval codes: approving programs from the browser is locked until `hermes serve` restarts " +
			"(an MCP server can still be approved in the terminal with `hermes mcp approve NAME`)."}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// newCode is six random digits.
func newCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}
