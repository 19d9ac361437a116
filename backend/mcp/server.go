package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"hermes/backend/tools"
)

// server supervises one configured server: it runs it, restarts it after a
// crash with backoff until its breaker gives up, and keeps its tools registered
// while it is ready.
type server struct {
	name   string
	m      *Manager
	stderr *ring // survives restarts, so the UI shows why the last run ended

	applyMu sync.Mutex // one tool/prompt refresh at a time

	mu           sync.Mutex
	next         entry        // the entry as last read from mcp.json
	cfg          ServerConfig // the entry applied
	cfgErr       string       // why the entry is invalid
	cfgWarnings  []string     // problems of the entry that do not stop it
	state        State
	lastErr      string
	warnings     []string // runtime warnings of the current run
	sess         *session
	pid          int
	startedAt    time.Time
	restarts     int
	retryAt      time.Time
	info         mcp.Implementation
	protocol     string
	instructions string
	tools        []*toolState // the server's tools, in its order
	builtin      []*toolState // Hermes's resource and prompt tools
	regs         map[string]bool
	prompts      []mcp.Prompt
	hasResources bool
	resources    int // how many the server listed
	lastList     []remoteTool

	cancel context.CancelFunc
	done   chan struct{} // closed when the loop ends; nil when it never ran
}

// toolState is one tool and how it is offered.
type toolState struct {
	st   ToolStatus
	tool tools.Tool // nil when skipped
}

func newServer(name string, m *Manager) *server {
	return &server{name: name, m: m, stderr: newRing(m.opts.StderrBytes), state: StateStopped, regs: map[string]bool{}}
}

// running reports whether the supervising loop runs.
func (s *server) running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.runningLocked()
}

func (s *server) runningLocked() bool {
	if s.done == nil {
		return false
	}
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// start runs the server (it must not be running).
func (s *server) start(parent context.Context) {
	ctx, cancel := context.WithCancel(parent)
	s.mu.Lock()
	s.cancel, s.done = cancel, make(chan struct{})
	s.state, s.restarts, s.retryAt, s.lastErr = StateStarting, 0, time.Time{}, ""
	cfg := s.cfg
	done := s.done
	s.mu.Unlock()
	go s.loop(ctx, cfg, done)
}

// stop ends the loop (stopping the process) and leaves the server in state.
func (s *server) stop(state State, msg string) {
	s.mu.Lock()
	cancel, done := s.cancel, s.done
	s.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	s.mu.Lock()
	s.state = state
	if msg != "" {
		s.lastErr = msg
	}
	s.retryAt = time.Time{}
	s.mu.Unlock()
	s.m.notify(s)
}

func (s *server) loop(ctx context.Context, cfg ServerConfig, done chan struct{}) {
	defer close(done)
	o := s.m.opts
	failures, attempt := 0, 0
	for {
		s.setState(StateStarting, "")
		began := time.Now()
		sess, err := s.connect(ctx, cfg)
		if err == nil {
			s.setState(StateReady, "")
			err = s.serve(ctx, sess)
			s.unregisterAll()
			_ = sess.close()
			s.detach(sess)
		}
		if ctx.Err() != nil {
			return
		}
		var fix *needsUser
		if errors.As(err, &fix) { // trying again cannot help until the user acts
			s.setState(StateCrashed, err.Error())
			return
		}
		if time.Since(began) >= o.StableAfter {
			failures, attempt = 0, 0
		}
		failures++
		// A remote server that is away (a LAN box asleep, a restart) is tried
		// again at the longest backoff without end; a local one that keeps
		// crashing waits for the user.
		if failures >= o.MaxFastCrashes && !cfg.Remote() {
			s.setState(StateCrashed, fmt.Sprintf("%v (gave up after %d failures in a row; fix the server or its config, then restart it)", err, failures))
			return
		}
		delay := min(o.BackoffMin<<attempt, o.BackoffMax)
		if attempt < 30 {
			attempt++
		}
		s.mu.Lock()
		s.state, s.lastErr, s.retryAt = StateBackingOff, err.Error(), time.Now().Add(delay)
		s.restarts++
		s.mu.Unlock()
		s.m.notify(s)
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

func (s *server) setState(st State, errMsg string) {
	s.mu.Lock()
	s.state = st
	if errMsg != "" {
		s.lastErr = errMsg
	}
	if st == StateReady {
		s.lastErr, s.retryAt = "", time.Time{}
	}
	s.mu.Unlock()
	s.m.notify(s)
}

// connect starts the process, initializes it and registers what it offers.
func (s *server) connect(ctx context.Context, cfg ServerConfig) (*session, error) {
	o := s.m.opts
	sc := sessionConfig{
		stderr: s.stderr, maxMessage: o.MaxMessageBytes, initTimeout: o.InitTimeout,
		requestTimeout: s.requestTimeout(cfg), stopTimeout: o.StopTimeout,
	}
	if cfg.Timeout > 0 { // the entry's own timeout bounds its start too
		sc.initTimeout = time.Duration(cfg.Timeout)
	}
	var missing []string
	if cfg.Remote() {
		r, err := newRemote(cfg, o.Environ(), o.Net.Dialer(remoteRule(s.name, cfg)))
		if err != nil {
			return nil, err
		}
		sc.remote = r
	} else {
		var env []string
		env, missing = childEnv(o.Environ(), cfg.Env)
		sc.launch = launch{command: cfg.Command, args: cfg.Args, env: env, dir: expandHome(cfg.Cwd, o.Environ()), records: s.m.records}
	}
	sess, err := openSession(ctx, sc)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.sess, s.pid, s.startedAt = sess, 0, time.Now()
	if sess.proc != nil {
		s.pid, s.startedAt = sess.proc.pid, sess.proc.started
	}
	s.info, s.protocol = sess.init.ServerInfo, sess.init.ProtocolVersion
	s.instructions = cleanText(sess.init.Instructions, 8<<10)
	s.warnings = nil
	if w := missingEnvWarning(missing); w != "" {
		s.warnings = append(s.warnings, w)
	}
	s.mu.Unlock()
	if err := s.refresh(ctx, sess); err != nil {
		s.unregisterAll()
		_ = sess.close()
		s.detach(sess)
		return nil, err
	}
	return sess, nil
}

// refresh lists tools and prompts and registers the tools.
func (s *server) refresh(ctx context.Context, sess *session) error {
	caps := sess.init.Capabilities
	var list []remoteTool
	if caps.Tools != nil {
		var err error
		if list, err = sess.listTools(ctx); err != nil {
			return err
		}
	}
	var prompts []mcp.Prompt
	if caps.Prompts != nil {
		var err error
		if prompts, err = sess.listPrompts(ctx); err != nil {
			s.warn(fmt.Sprintf("listing prompts failed: %v", err))
		}
	}
	s.mu.Lock()
	s.prompts, s.hasResources = prompts, caps.Resources != nil
	s.mu.Unlock()
	if caps.Resources != nil {
		s.countResources(ctx, sess)
	}
	s.applyTools(list)
	return nil
}

// countResources lists the resources once, for the status panel (the model
// lists them itself, fresh, through list_resources).
func (s *server) countResources(ctx context.Context, sess *session) {
	res, err := sess.listResources(ctx)
	if err != nil {
		s.warn(fmt.Sprintf("listing resources failed: %v", err))
		return
	}
	s.mu.Lock()
	s.resources = len(res)
	s.mu.Unlock()
}

func (s *server) warn(w string) {
	s.mu.Lock()
	if !slices.Contains(s.warnings, w) {
		s.warnings = append(s.warnings, w)
		if len(s.warnings) > 20 {
			s.warnings = s.warnings[len(s.warnings)-20:]
		}
	}
	s.mu.Unlock()
}

// detach forgets a session that ended.
func (s *server) detach(sess *session) {
	if sess.framer != nil {
		if over, last, _, _ := sess.framer.stats(); over > 0 {
			s.warn(fmt.Sprintf("%d oversized message(s) dropped; last: %s", over, last))
		}
	}
	s.mu.Lock()
	if s.sess == sess {
		s.sess, s.pid = nil, 0
	}
	s.mu.Unlock()
}

// serve watches a ready server until it fails or ctx ends; the error says why
// it stopped.
func (s *server) serve(ctx context.Context, sess *session) error {
	o := s.m.opts
	ping := time.NewTicker(o.PingInterval)
	defer ping.Stop()
	misses := 0
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-sess.exited():
			return fmt.Errorf("the server exited (%s)%s", sess.proc.exitDescription(), sess.hints())
		case err := <-sess.fatal:
			return err
		case <-sess.toolsChanged:
			if list, err := sess.listTools(ctx); err != nil {
				s.warn(fmt.Sprintf("refreshing tools after tools/list_changed failed: %v", err))
			} else {
				s.applyTools(list)
			}
		case <-sess.promptsChanged:
			if prompts, err := sess.listPrompts(ctx); err != nil {
				s.warn(fmt.Sprintf("refreshing prompts failed: %v", err))
			} else {
				s.mu.Lock()
				s.prompts = prompts
				list := s.lastList
				s.mu.Unlock()
				s.applyTools(list)
			}
		case <-sess.resourcesChanged:
			s.countResources(ctx, sess)
			s.m.notify(s)
		case <-ping.C:
			if err := sess.ping(ctx, o.pingTimeout()); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				misses++
				if misses >= 2 {
					return fmt.Errorf("the server stopped answering pings: %w", err)
				}
			} else {
				misses = 0
			}
		}
	}
}
