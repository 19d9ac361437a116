package egress

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/netguard"
)

// events collects what a Net reports.
type events struct {
	mu   sync.Mutex
	list []Event
}

func (e *events) record(ev Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, ev)
}

func (e *events) last(t *testing.T) Event {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.list) == 0 {
		t.Fatal("no event recorded")
	}
	return e.list[len(e.list)-1]
}

// listen is a loopback server that accepts and holds connections.
func listen(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	return ln.Addr().String()
}

func TestLoopbackIsMadeAndRecorded(t *testing.T) {
	addr := listen(t)
	var ev events
	n := New(nil, ev.record)
	c, err := n.Dialer(Rule{Part: "ollama", Timeout: time.Second})(context.Background(), "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	_, port, _ := net.SplitHostPort(addr)
	got := ev.last(t)
	if got.Part != "ollama" || got.Host != "127.0.0.1" || got.Port != port || got.Address != "127.0.0.1" || got.Outcome != Made || got.Reason != "" || got.At.IsZero() {
		t.Fatalf("event = %+v", got)
	}
}

func TestOfflineRefusesBeyondLoopbackAtTheDialer(t *testing.T) {
	var ev events
	offline := true
	asked := 0
	n := New(func(context.Context) bool { asked++; return offline }, ev.record)
	dial := n.Dialer(Rule{Part: "mcp:nas", Guard: true, Timeout: 5 * time.Second})
	start := time.Now()
	_, err := dial(context.Background(), "tcp", "10.255.255.1:8080")
	took := time.Since(start)
	var ref *RefusedError
	if !errors.As(err, &ref) || !errors.Is(err, netguard.ErrOffline) || ref.Reason != ReasonOffline {
		t.Fatalf("err = %v, want a refusal by offline_only", err)
	}
	if took > 500*time.Millisecond {
		t.Fatalf("the refusal took %s: it must come before any packet, not after the 5 s timeout", took)
	}
	for _, want := range []string{"10.255.255.1:8080", "offline_only is on", "hermes settings set offline_only false", "Settings"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("message %q lacks %q", err, want)
		}
	}
	if got := ev.last(t); got.Outcome != Refused || got.Reason != ReasonOffline || got.Address != "10.255.255.1" || got.Part != "mcp:nas" || got.Port != "8080" {
		t.Fatalf("event = %+v", got)
	}
	// Loopback stays allowed, by address and by a name the hosts file gives.
	addr := listen(t)
	_, port, _ := net.SplitHostPort(addr)
	for _, a := range []string{addr, net.JoinHostPort("localhost", port)} {
		c, err := dial(context.Background(), "tcp4", a)
		if err != nil {
			t.Fatalf("loopback %s with offline_only on: %v", a, err)
		}
		c.Close()
	}
	if got := ev.last(t); got.Outcome != Made || got.Host != "localhost" || got.Address != "127.0.0.1" {
		t.Fatalf("event = %+v", got)
	}
	// The setting is asked at every dial, so a change applies to the next
	// connection: off, the LAN passes the check again.
	if asked != 3 {
		t.Fatalf("offline_only asked %d times for 3 dials", asked)
	}
	offline = false
	a := &attempt{rule: Rule{Part: "mcp:nas", Guard: true}, host: "10.255.255.1", offline: n.offlineNow(context.Background())}
	if a.offline || a.check(netip.MustParseAddr("10.255.255.1"), "10.255.255.1:8080") != nil {
		t.Fatal("offline_only off still refuses the LAN")
	}
}

func TestOfflineRefusesAFarNameServer(t *testing.T) {
	a := &attempt{rule: Rule{Part: "ollama"}, host: "ollama.lan", offline: true}
	r := a.resolver()
	_, err := r.Dial(context.Background(), "udp", "10.255.255.53:53")
	var ref *RefusedError
	if !errors.As(err, &ref) || ref.Reason != ReasonOfflineDNS || !errors.Is(err, netguard.ErrOffline) {
		t.Fatalf("far name server: %v", err)
	}
	if !strings.Contains(err.Error(), "ollama.lan") || !strings.Contains(err.Error(), "10.255.255.53:53") {
		t.Fatalf("message %q names neither the host nor the name server", err)
	}
	if got := a.event("11434", nil, err); got.Outcome != Refused || got.Reason != ReasonOfflineDNS || got.Address != "10.255.255.53:53" {
		t.Fatalf("event = %+v", got)
	}
	c, err := r.Dial(context.Background(), "udp", "127.0.0.53:53") // UDP: no packet until a write
	if err != nil {
		t.Fatalf("name server on this machine: %v", err)
	}
	c.Close()
}

func TestGuardRefusesByThePartsRule(t *testing.T) {
	var ev events
	n := New(func(context.Context) bool { return false }, ev.record)
	cases := []struct {
		addr, reason, want string
		internet           bool
	}{
		{"8.8.8.8:53", ReasonInternet, "allow_internet: true in tools.yaml", false},
		{"169.254.169.254:80", ReasonNever, "never reached", true},
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			dial := n.Dialer(Rule{Part: "tool:lookup", Guard: true, Internet: c.internet, Hint: "allow_internet: true in tools.yaml", Timeout: 5 * time.Second})
			start := time.Now()
			_, err := dial(context.Background(), "tcp", c.addr)
			var ref *RefusedError
			if !errors.As(err, &ref) || ref.Reason != c.reason || !strings.Contains(err.Error(), c.want) || time.Since(start) > 500*time.Millisecond {
				t.Fatalf("err = %v (after %s)", err, time.Since(start))
			}
			if got := ev.last(t); got.Outcome != Refused || got.Reason != c.reason || got.Part != "tool:lookup" {
				t.Fatalf("event = %+v", got)
			}
		})
	}
}

func TestFailureIsRecordedWithItsReason(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	var ev events
	n := New(nil, ev.record)
	if _, err := n.Dialer(Rule{Part: "ollama", Timeout: time.Second})(context.Background(), "tcp", addr); err == nil {
		t.Fatal("dial to a closed port succeeded")
	}
	if got := ev.last(t); got.Outcome != Failed || got.Reason != FailRefused || got.Address != "127.0.0.1" {
		t.Fatalf("event = %+v", got)
	}
}

func TestNilNetDialsWithTheRuleAlone(t *testing.T) {
	var n *Net
	c, err := n.Dialer(Rule{Part: "ollama", Timeout: time.Second})(context.Background(), "tcp", listen(t))
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if _, err := n.Dialer(Rule{Guard: true})(context.Background(), "tcp", "8.8.8.8:53"); !errors.Is(err, netguard.ErrInternet) {
		t.Fatalf("guard without a Net: %v", err)
	}
	n.Observe(true) // no panic
}

// farConn is a connection that claims a LAN peer.
type farConn struct {
	net.Conn
	closed bool
}

func (f *farConn) RemoteAddr() net.Addr { return &net.TCPAddr{IP: net.ParseIP("10.0.0.7"), Port: 80} }
func (f *farConn) Close() error         { f.closed = true; return nil }

func TestOfflineClosesOpenFarConnections(t *testing.T) {
	n := New(nil, nil)
	far := &farConn{}
	c := n.track(far)
	if c == net.Conn(far) {
		t.Fatal("a far connection is not tracked")
	}
	n.Observe(false)
	if far.closed {
		t.Fatal("closed while offline_only is off")
	}
	n.Observe(true)
	if !far.closed {
		t.Fatal("offline_only on left a far connection open")
	}
	if len(n.remote) != 0 {
		t.Fatalf("%d connections still tracked", len(n.remote))
	}
}
