package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"hermes/backend/config"
	"hermes/backend/egress"
	"hermes/backend/llm"
	"hermes/backend/netguard"
	"hermes/backend/ollamad"
)

// The connection to Ollama, as the window shows it: one state computed here
// (docs/architecture.md, "Connecting to Ollama"), the address checked before it is saved.

// Connection states (SetupState.Connection, Status.Connection).
const (
	ConnReady        = "ready"              // Ollama answers
	ConnNotInstalled = "not_installed"      // this computer, nothing answers, no ollama program: install it
	ConnStopped      = "stopped"            // this computer, an ollama program, never answered: Start Ollama
	ConnLost         = "not_responding"     // this computer, it answered before: Start again, the chat stays
	ConnRemoteDown   = "remote_unreachable" // another computer does not answer: check it or change the address
	ConnRefused      = "refused"            // Hermes's own rules refuse the address (offline_only, internet)
)

// connection is the state for what the supervisor found and the last probe.
func (c *Core) connection(st ollamad.State, host string) string {
	if st.Status == ollamad.Running {
		return ConnReady
	}
	if c.refusal(host) != nil {
		return ConnRefused
	}
	switch st.Status {
	case ollamad.Missing:
		return ConnNotInstalled
	case ollamad.Stopped:
		return ConnStopped
	case ollamad.Lost:
		return ConnLost
	}
	return ConnRemoteDown
}

// logTailLines is how much of a managed Ollama's log the window shows.
const logTailLines = 12

// setupConnection fills in what the setup says about the connection when
// Ollama does not answer; false when it answers (the models come next).
func (c *Core) setupConnection(out *SetupState, d *ollamad.Daemon, st ollamad.State, s config.Settings) bool {
	out.Connection = c.connection(st, s.OllamaHost)
	out.Remote = !isLoopbackHost(s.OllamaHost)
	out.Exited, out.Exit = st.Exited, st.Exit
	if out.Connection == ConnReady {
		return false
	}
	out.CanStart = d.CanStart(st)
	out.LogTail = d.LogTail(logTailLines)
	out.Code, out.Params = ollamaNotice(st, s)
	switch out.Connection {
	case ConnNotInstalled:
		out.Problem, out.Step = "Ollama, which runs the models, is not installed on this computer.", "install"
		if s.OllamaPath != "" {
			out.Problem = st.Hint // ollama_path points nowhere
		}
	case ConnStopped:
		out.Problem, out.Step = "Ollama is installed but not running. "+st.Hint, "start"
	case ConnLost:
		out.Problem, out.Step = st.Hint, "reconnect"
	case ConnRefused:
		ref := c.refusal(s.OllamaHost)
		out.Problem, out.Step = ref.Error(), "connect"
		out.Code, out.Params = refusedNotice(ref, s.OllamaHost)
	default:
		out.Problem, out.Step = st.Hint, "connect"
	}
	return true
}

// refusedNotice words a refusal of the Ollama host by Hermes's own rules.
func refusedNotice(ref *egress.RefusedError, host string) (string, map[string]string) {
	if ref.Offline() {
		return NoticeOfflineRefused, map[string]string{"host": host}
	}
	return NoticeOllamaRefused, map[string]string{"host": host, "reason": ref.Reason}
}

// isLoopbackHost reports whether an ollama_host URL is this computer.
func isLoopbackHost(host string) bool {
	u, err := url.Parse(host)
	if err != nil {
		return false
	}
	h := u.Hostname()
	ip := net.ParseIP(h)
	return h == "localhost" || (ip != nil && ip.IsLoopback())
}

// ollamaDial dials Ollama under ollamaRule, with the internet allowed while
// ollama_allow_internet is on (read at each dial, as offline_only is).
func (c *Core) ollamaDial() egress.DialFunc {
	local := c.outbound.Dialer(ollamaRule)
	wide := ollamaRule
	wide.Internet = true
	internet := c.outbound.Dialer(wide)
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		if s, err := c.settings.Load(ctx); err == nil && s.OllamaInternet {
			return internet(ctx, network, address)
		}
		return local(ctx, network, address)
	}
}

// OllamaCheck is what Hermes found at an Ollama address: its version and how
// many models it has, or why it cannot be used (Code, worded by the UI as
// "connection.problem.<code>" with Params; Problem in English).
type OllamaCheck struct {
	Host    string            `json:"host"` // the address as Hermes writes it (scheme://host:port)
	OK      bool              `json:"ok"`
	Version string            `json:"version"`
	Models  int               `json:"models"`
	Remote  bool              `json:"remote"` // not this computer
	Saved   bool              `json:"saved"`  // it is ollama_host now
	Code    string            `json:"code"`
	Params  map[string]string `json:"params"`
	Problem string            `json:"problem"`
	// Warning: "plain_http" for http:// to an internet host (messages travel unencrypted).
	Warning string `json:"warning"`
}

// Why an address cannot be used (OllamaCheck.Code).
const (
	CheckBadURL        = "bad_url"        // params: value, reason (config.Bad*)
	CheckNever         = "never"          // a link-local or cloud-metadata address; params: host
	CheckNeedsInternet = "needs_internet" // an internet host, ollama_allow_internet is off; params: host
	CheckOffline       = "offline"        // not this computer, offline_only is on; params: host
	CheckNoAnswer      = "no_answer"      // nothing answers there; params: host
	CheckNotOllama     = "not_ollama"     // something answers, not Ollama; params: host, detail
	CheckError         = "error"          // params: host, detail
)

// CheckOllama checks an Ollama address without saving it: the network rules
// first (as MCP over HTTP: netguard), then Ollama's version and models.
func (c *Core) CheckOllama(ctx context.Context, raw string) (OllamaCheck, error) {
	host, err := config.NormalizeHost(raw)
	if err != nil {
		var ve *config.ValueError
		if !errors.As(err, &ve) {
			return OllamaCheck{}, err
		}
		return OllamaCheck{Host: raw, Code: CheckBadURL, Params: map[string]string{"value": raw, "reason": ve.Reason}, Problem: err.Error()}, nil
	}
	s, err := c.settings.Load(ctx)
	if err != nil {
		return OllamaCheck{}, err
	}
	out := OllamaCheck{Host: host, Remote: !isLoopbackHost(host), Params: map[string]string{"host": host}}
	u, _ := url.Parse(host)
	if u.Scheme == "http" && !netguard.HostIsLocal(u.Hostname()) {
		out.Warning = "plain_http"
	}
	if err := netguard.CheckHost(u.Hostname(), s.OllamaInternet, "ollama_allow_internet"); err != nil {
		return refused(out, err), nil
	}
	if err := c.probe(ctx, host); err != nil {
		return failedCheck(out, err), nil
	}
	client, err := llm.New(llm.Config{Host: host, ConnectTimeout: s.ConnectTimeout, FirstTokenTimeout: 10 * time.Second,
		TokenGapTimeout: 10 * time.Second}, c.transport)
	if err != nil {
		return OllamaCheck{}, fmt.Errorf("check ollama: %w", err)
	}
	h := client.Check(ctx)
	if h.Err != nil {
		return failedCheck(out, h.Err), nil
	}
	out.OK, out.Version, out.Models = true, h.Version, len(h.Models)
	out.Params["version"], out.Params["models"] = h.Version, strconv.Itoa(len(h.Models))
	return out, nil
}

// refused is a check the network rules stopped (netguard's errors).
func refused(out OllamaCheck, err error) OllamaCheck {
	out.Problem = err.Error()
	switch {
	case errors.Is(err, netguard.ErrOffline):
		out.Code = CheckOffline
	case errors.Is(err, netguard.ErrRefused):
		out.Code = CheckNever
	default:
		out.Code = CheckNeedsInternet
	}
	return out
}

// failedCheck words a probe or a check that failed.
func failedCheck(out OllamaCheck, err error) OllamaCheck {
	var ref *egress.RefusedError
	switch {
	case errors.As(err, &ref):
		return refused(out, ref)
	case errors.Is(err, errNotOllama):
		out.Code = CheckNotOllama
	case isConnFailure(err):
		out.Code = CheckNoAnswer
	default:
		out.Code = CheckError
	}
	out.Problem = err.Error()
	if out.Code != CheckNoAnswer {
		out.Params["detail"] = err.Error()
	}
	return out
}

// isConnFailure: nothing answered (refused, timed out, no route, no such name).
func isConnFailure(err error) bool {
	var ne net.Error
	var op *net.OpError
	var dns *net.DNSError
	return errors.Is(err, llm.ErrUnreachable) || errors.As(err, &op) || errors.As(err, &dns) ||
		(errors.As(err, &ne) && ne.Timeout()) || errors.Is(err, context.DeadlineExceeded)
}

// UseOllama checks an address and saves it as ollama_host when Ollama answers
// there, or when anyway (a computer that is off now); an address the network
// rules refuse is never saved.
func (c *Core) UseOllama(ctx context.Context, raw string, anyway bool) (OllamaCheck, error) {
	out, err := c.CheckOllama(ctx, raw)
	if err != nil {
		return out, err
	}
	switch out.Code {
	case "":
	case CheckNoAnswer, CheckNotOllama, CheckError:
		if !anyway {
			return out, nil
		}
	default:
		return out, nil
	}
	if err := c.settings.Set(ctx, "ollama_host", out.Host); err != nil {
		return out, err
	}
	out.Saved = true
	return out, nil
}

// CheckOllamaHost checks an Ollama address (Settings → Connection, the setup
// screen) without saving it.
func (a *ModelsService) CheckOllamaHost(raw string) (OllamaCheck, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	out, err := a.core.CheckOllama(ctx, raw)
	if err != nil {
		return OllamaCheck{}, a.core.userErr(ctx, err)
	}
	return out, nil
}

// UseOllamaHost checks an Ollama address and saves it as ollama_host when it
// answers (or anyway is true); the setup follows (setup:changed).
func (a *ModelsService) UseOllamaHost(raw string, anyway bool) (OllamaCheck, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	out, err := a.core.UseOllama(ctx, raw, anyway)
	if err != nil {
		return OllamaCheck{}, a.core.userErr(ctx, err)
	}
	if out.Saved {
		_, _ = a.setupChanged(ctx)
	}
	return out, nil
}
