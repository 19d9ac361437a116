package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Errors callers can test for.
var (
	// ErrTimeout: a request got no answer in time (a cancellation notice was sent).
	ErrTimeout = errors.New("the MCP server did not answer in time")
	// ErrNotRunning: the server is not running (starting, backing off, crashed, stopped).
	ErrNotRunning = errors.New("the MCP server is not running")
	// ErrExited: the server's process ended while a request was waiting.
	ErrExited = errors.New("the MCP server exited")
)

// RPCError is an error the server answered a request with.
type RPCError struct {
	Method  string
	Code    int
	Message string
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("%s: the server answered with error %d: %s", e.Method, e.Code, e.Message)
}

// sessionConfig is what one run of a server needs: a process to launch, or a
// remote server to connect to.
type sessionConfig struct {
	launch         launch
	remote         *remote // set for a remote server: nothing is launched
	stderr         *ring
	maxMessage     int
	initTimeout    time.Duration
	requestTimeout time.Duration
	stopTimeout    time.Duration
}

// session is one run of a server: its process and the mcp-go client speaking
// over the process's pipes (through the framer), or one connection to a remote
// server (proc and framer are nil).
type session struct {
	proc   *process
	framer *framer
	remote *remote
	legacy bool // a remote server reached over the legacy HTTP+SSE transport
	tr     transport.Interface
	client *client.Client
	init   *mcp.InitializeResult
	cfg    sessionConfig

	ctx    context.Context // handlers of the server's own requests; ends at close
	cancel context.CancelFunc

	toolsChanged     chan struct{} // 1-buffered signals from notifications
	promptsChanged   chan struct{}
	resourcesChanged chan struct{}
	fatal            chan error // the connection cannot go on (stdin stalled, remote session lost)

	nextID   atomic.Int64
	progMu   sync.Mutex
	progress map[string]func(Progress)

	wgMu      sync.Mutex     // guards closing against a late wg.Add
	closing   bool           // no new cancellation notices
	wg        sync.WaitGroup // cancellation notices in flight
	closeOnce sync.Once
	closeErr  error
}

// stdinStall is how long one write to a server's stdin may block before the
// server counts as hung.
const stdinStall = 10 * time.Second

func newSession(ctx context.Context, cfg sessionConfig) *session {
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	return &session{
		cfg: cfg, ctx: sctx, cancel: cancel,
		toolsChanged: make(chan struct{}, 1), promptsChanged: make(chan struct{}, 1), resourcesChanged: make(chan struct{}, 1),
		fatal: make(chan error, 1), progress: map[string]func(Progress){},
	}
}

// openSession starts the process (or connects to the remote server) and
// initializes it. On error the process is already stopped.
func openSession(ctx context.Context, cfg sessionConfig) (*session, error) {
	if cfg.remote != nil {
		return openRemote(ctx, cfg)
	}
	proc, err := startProcess(cfg.launch, cfg.stderr)
	if err != nil {
		return nil, err
	}
	s := newSession(ctx, cfg)
	s.proc, s.framer = proc, newFramer(proc.output(), cfg.maxMessage)
	s.tr = transport.NewIO(s.framer, &stdinWriter{s: s}, nil)
	if err := s.initialize(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// protocolVersion is the MCP version Hermes asks for. Over HTTP it is
// 2025-06-18: from 2025-11-25 a server opens every response stream with a
// priming event (for resuming a stream that breaks before its first message),
// which server-everything makes cost 1.2 ms of its 1.4 ms round trip, and
// Hermes uses nothing newer (a stream is still resumed from its last message's
// event id). Over stdio there are no streams: the newest version.
func (s *session) protocolVersion() string {
	if s.remote != nil {
		return mcp.ProtocolVersion20250618
	}
	return mcp.LATEST_LEGACY_PROTOCOL_VERSION
}

// initialize starts the client over s.tr and runs the initialize handshake;
// on error the session is closed.
func (s *session) initialize(ctx context.Context) error {
	version := s.protocolVersion()
	s.client = client.NewClient(s.tr, client.WithProtocolVersion(version))
	// A transport's start may hold a stream open for the session's life (legacy
	// SSE), so it runs under the session's context, bounded here by the
	// initialize timeout.
	stop := context.AfterFunc(ctx, s.cancel)
	defer stop()
	timer := time.AfterFunc(s.cfg.initTimeout, s.cancel)
	err := s.client.Start(s.ctx)
	timer.Stop()
	if err != nil {
		err = s.startError(ctx, err)
		s.close()
		return err
	}
	s.client.OnNotification(s.onNotification)

	ictx, icancel := context.WithTimeout(ctx, s.cfg.initTimeout)
	defer icancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcp.Implementation{Name: "hermes", Version: "1"}
	res, err := s.client.Initialize(ictx, req)
	if err != nil {
		err = s.initError(ctx, ictx, err)
		s.close()
		return err
	}
	s.init = res
	return nil
}

// startError explains why the transport could not start.
func (s *session) startError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("initialize: %w", ctx.Err())
	case s.ctx.Err() != nil:
		return fmt.Errorf("initialize: the server did not open its event stream within %s", s.cfg.initTimeout)
	case s.remote != nil:
		return fmt.Errorf("initialize: %s", s.remote.explain(err))
	}
	return fmt.Errorf("initialize: %w", err)
}

// initError explains why initialize failed, in the user's terms.
func (s *session) initError(ctx, ictx context.Context, err error) error {
	var reason string
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("initialize: %w", ctx.Err())
	case s.remote != nil && ictx.Err() != nil:
		reason = fmt.Sprintf("the server did not answer initialize within %s", s.cfg.initTimeout)
	case s.remote != nil:
		reason = s.remote.explain(err)
	case ictx.Err() != nil && s.proc.running():
		reason = fmt.Sprintf("the server did not answer initialize within %s", s.cfg.initTimeout)
	case s.proc.wait(time.Second):
		reason = fmt.Sprintf("the server exited during initialize (%s)", s.proc.exitDescription())
	case ictx.Err() != nil:
		reason = fmt.Sprintf("the server did not answer initialize within %s", s.cfg.initTimeout)
	default:
		reason = err.Error()
	}
	return fmt.Errorf("initialize: %s%s", reason, s.hints())
}

// hints adds what the server wrote that explains a failure: a line of stdout
// that was not JSON-RPC and the end of its stderr.
func (s *session) hints() string {
	var b strings.Builder
	if s.framer == nil {
		return ""
	}
	if _, _, noise, last := s.framer.stats(); noise > 0 {
		fmt.Fprintf(&b, "; it wrote %d line(s) to stdout that are not JSON-RPC, e.g. %q (MCP servers must log to stderr)", noise, last)
	}
	if line := lastLine(s.cfg.stderr.Tail(2048)); line != "" {
		fmt.Fprintf(&b, "; stderr: %s", line)
	}
	return b.String()
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return capText(s, 300)
}

// exited is closed when the server's process ends; a remote session has none
// (nil: never ready).
func (s *session) exited() <-chan struct{} {
	if s.proc == nil {
		return nil
	}
	return s.proc.exited
}

// stdinWriter writes to the server's stdin with a deadline, so a server that
// stops reading cannot block Hermes; a stalled write ends the connection.
type stdinWriter struct{ s *session }

func (w *stdinWriter) Write(b []byte) (int, error) {
	f := w.s.proc.stdin
	_ = f.SetWriteDeadline(time.Now().Add(stdinStall)) // pipes support deadlines
	n, err := f.Write(b)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		select {
		case w.s.fatal <- fmt.Errorf("the server stopped reading its input (a write blocked for %s)", stdinStall):
		default:
		}
	}
	return n, err
}

func (w *stdinWriter) Close() error {
	w.s.proc.closeStdin()
	return nil
}

// onNotification runs on mcp-go's reader goroutine: it only signals.
func (s *session) onNotification(n mcp.JSONRPCNotification) {
	switch n.Method {
	case mcp.MethodNotificationToolsListChanged:
		signal(s.toolsChanged)
	case mcp.MethodNotificationPromptsListChanged:
		signal(s.promptsChanged)
	case mcp.MethodNotificationResourcesListChanged:
		signal(s.resourcesChanged)
	case string(mcp.MethodNotificationProgress):
		s.onProgress(n.Params.AdditionalFields)
	case string(mcp.MethodNotificationMessage):
		f := n.Params.AdditionalFields
		data, _ := json.Marshal(f["data"]) // decoded JSON: marshals
		line := fmt.Sprintf("[log %v] %s\n", f["level"], capText(string(data), 2048))
		_, _ = s.cfg.stderr.Write([]byte(line))
	}
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Progress is a progress notice of a long call.
type Progress struct {
	Server   string  `json:"server"`
	Tool     string  `json:"tool"`
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
}

func (s *session) onProgress(f map[string]any) {
	token := fmt.Sprint(f["progressToken"])
	s.progMu.Lock()
	fn := s.progress[token]
	s.progMu.Unlock()
	if fn == nil {
		return
	}
	num := func(k string) float64 {
		v, _ := f[k].(float64)
		return v
	}
	msg, _ := f["message"].(string)
	fn(Progress{Progress: num("progress"), Total: num("total"), Message: cleanText(msg, 512)})
}

// request sends one request and waits for its answer, at most timeout (the
// session's default when 0) or until ctx ends; then it sends the server a
// cancellation notice and returns.
func (s *session) request(ctx context.Context, timeout time.Duration, method string, params any) (json.RawMessage, error) {
	if timeout <= 0 {
		timeout = s.cfg.requestTimeout
	}
	rctx, cancel := context.WithTimeoutCause(ctx, timeout, ErrTimeout)
	defer cancel()
	id := mcp.NewRequestId("hermes-" + strconv.FormatInt(s.nextID.Add(1), 10))
	resp, err := s.tr.SendRequest(rctx, transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: id, Method: method, Params: params})
	if err != nil {
		if rctx.Err() != nil {
			s.cancelled(id, context.Cause(rctx))
			if ctx.Err() == nil && errors.Is(context.Cause(rctx), ErrTimeout) {
				return nil, fmt.Errorf("%s: no answer within %s: %w", method, timeout, ErrTimeout)
			}
			return nil, fmt.Errorf("%s: %w", method, context.Cause(rctx))
		}
		if errors.Is(err, transport.ErrTransportClosed) {
			return nil, s.closedError(method)
		}
		if s.remote != nil {
			return nil, s.remoteFailed(method, err)
		}
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if resp.Error != nil {
		return nil, &RPCError{Method: method, Code: resp.Error.Code, Message: cleanText(resp.Error.Message, 1024)}
	}
	return resp.Result, nil
}

// cancelled tells the server to stop working on an abandoned request.
func (s *session) cancelled(id mcp.RequestId, cause error) {
	reason := "abandoned by the client"
	if cause != nil {
		reason = cause.Error()
	}
	n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{
		Method: string(mcp.MethodNotificationCancelled),
		Params: mcp.NotificationParams{AdditionalFields: map[string]any{"requestId": id, "reason": reason}},
	}}
	s.wgMu.Lock()
	defer s.wgMu.Unlock()
	if s.closing {
		return // the process is being stopped: nothing to cancel
	}
	s.wg.Add(1)
	go func() { // off the caller's path; bounded by the stdin deadline
		defer s.wg.Done()
		_ = s.tr.SendNotification(s.ctx, n)
	}()
}

// closedError explains a request that ended because the connection closed.
func (s *session) closedError(method string) error {
	if s.proc != nil && s.proc.wait(time.Second) {
		return fmt.Errorf("%s: %w (%s)%s", method, ErrExited, s.proc.exitDescription(), s.hints())
	}
	select {
	case err := <-s.fatal:
		s.fatal <- err
		return fmt.Errorf("%s: %w", method, err)
	default:
	}
	return fmt.Errorf("%s: the connection to the server closed%s", method, s.hints())
}

// close ends the session: in-flight requests fail, then the process is stopped
// (stdin closed, SIGTERM, SIGKILL) and reaped.
func (s *session) close() error {
	s.closeOnce.Do(func() {
		s.wgMu.Lock()
		s.closing = true
		s.wgMu.Unlock()
		s.cancel()
		_ = s.tr.Close() // in-flight requests end; closes stdin (ends a remote session)
		if s.proc != nil {
			s.closeErr = s.proc.stop(s.cfg.stopTimeout)
		}
		s.wg.Wait()
	})
	return s.closeErr
}
