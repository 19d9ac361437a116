// Package egress is the one way Hermes connects to another machine. Every
// outgoing connection (Ollama, MCP servers over HTTP, HTTP tools) is dialled
// here: checked against netguard's rule for its part and, while the setting
// offline_only is on, against netguard.CheckOffline, at the moment the address
// is known (so a name that resolves elsewhere is caught too), and reported to
// a recorder as made, refused or failed: where and for which part of Hermes,
// never what was sent.
package egress

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"
)

// Outcome says what became of one connection.
type Outcome string

// Outcomes.
const (
	Made    Outcome = "made"    // connected
	Refused Outcome = "refused" // Hermes refused it before any packet was sent
	Failed  Outcome = "failed"  // tried, and the network or the other side said no
)

// Event is one connection attempt.
type Event struct {
	Part    string // which part of Hermes: "ollama", "mcp:<server>", "tool:<name>"
	Host    string // the host as named: a name or an address
	Port    string
	Address string // the address connected to or refused (for ReasonOfflineDNS, the name server); "" when none was tried
	Outcome Outcome
	Reason  string // why it was refused or failed (Reason*); "" when made
	At      time.Time
}

// DialFunc is what an http.Transport dials with.
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// Rule is one part's own rule.
type Rule struct {
	Part string
	// Guard applies netguard's rule: loopback and the LAN freely, internet
	// addresses only with Internet, link-local and metadata addresses never.
	// Without it (Ollama, whose host the user chose) any address may be reached
	// unless offline_only is on.
	Guard    bool
	Internet bool
	Hint     string // how the user allows an internet host, e.g. "allow_internet: true in tools.yaml"
	// Timeout bounds a dial; KeepAlive is the TCP keep-alive period (0: Go's default).
	Timeout, KeepAlive time.Duration
}

// Net is what every dial of one Hermes shares: the live setting offline_only
// and the recorder. It is built once in the composition root; a nil *Net dials
// with the part's rule alone and records nothing.
type Net struct {
	offline func(context.Context) bool
	record  func(Event)
	now     func() time.Time

	mu     sync.Mutex
	remote map[*conn]struct{} // open connections beyond this machine
}

// New returns a Net. offline reports the setting offline_only as it is now
// (asked at every dial, so a change applies to the next connection); record
// hears every attempt and must not block. Either may be nil.
func New(offline func(context.Context) bool, record func(Event)) *Net {
	return &Net{offline: offline, record: record, now: time.Now, remote: map[*conn]struct{}{}}
}

// Observe tells the Net what offline_only is now, when the caller read the
// settings anyway: turned on, it closes every open connection beyond this
// machine, so none outlives the setting in a connection pool.
func (n *Net) Observe(on bool) {
	if n == nil {
		return
	}
	if on {
		n.closeRemote()
	}
}

// Dialer returns the DialContext of one part of Hermes.
func (n *Net) Dialer(r Rule) DialFunc {
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		return n.dial(ctx, r, network, address)
	}
}

func (n *Net) dial(ctx context.Context, r Rule, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", address, err)
	}
	a := &attempt{rule: r, host: host, offline: n.offlineNow(ctx)}
	d := &net.Dialer{Timeout: r.Timeout, KeepAlive: r.KeepAlive, Control: a.control}
	if a.offline {
		d.Resolver = a.resolver() // the name server, too, must be on this machine
	}
	c, err := d.DialContext(ctx, network, address)
	n.report(a.event(port, c, err))
	if err != nil {
		if ref := a.refusal(); ref != nil {
			return nil, &net.OpError{Op: "dial", Net: network, Err: ref}
		}
		return nil, err
	}
	return n.track(c), nil
}

// offlineNow asks for offline_only (and closes what it no longer allows).
func (n *Net) offlineNow(ctx context.Context) bool {
	if n == nil || n.offline == nil {
		return false
	}
	on := n.offline(ctx)
	n.Observe(on)
	return on
}

func (n *Net) report(e Event) {
	if n == nil || n.record == nil {
		return
	}
	e.At = n.now()
	n.record(e)
}
