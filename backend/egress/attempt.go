package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"sync"
	"syscall"

	"hermes/backend/netguard"
)

// attempt is one dial: the rule, the host as named, and what its checks found
// (the Go dialer may try several addresses, some side by side).
type attempt struct {
	rule    Rule
	host    string
	offline bool

	mu      sync.Mutex
	refused *RefusedError // the first refusal
	tried   string        // the last address tried
}

// control runs when the address is known and before any packet is sent.
func (a *attempt) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("connect to %s: not an IP address", address)
	}
	a.mu.Lock()
	a.tried = address
	a.mu.Unlock()
	if ref := a.check(ap.Addr(), address); ref != nil {
		a.refuse(ref)
		return ref
	}
	return nil
}

// check is the rule for one address: offline_only first, then the part's own.
func (a *attempt) check(ip netip.Addr, address string) *RefusedError {
	if a.offline {
		if err := netguard.CheckOffline(ip); err != nil {
			return &RefusedError{Part: a.rule.Part, Host: a.host, Address: address, Reason: ReasonOffline, err: err}
		}
	}
	if !a.rule.Guard {
		return nil
	}
	if err := netguard.Check(ip, a.rule.Internet); err != nil {
		reason := ReasonInternet
		if errors.Is(err, netguard.ErrRefused) {
			reason = ReasonNever
		}
		return &RefusedError{Part: a.rule.Part, Host: a.host, Address: address, Reason: reason, Hint: a.rule.Hint, err: err}
	}
	return nil
}

// resolver looks a name up (the hosts file first, as the system does) and asks
// a name server only when it is on this machine: with offline_only on, a
// lookup sent to the LAN's or the internet's name server would say where
// Hermes is about to go.
func (a *attempt) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, server string) (net.Conn, error) {
		ap, err := netip.ParseAddrPort(server)
		if err != nil || netguard.CheckOffline(ap.Addr()) != nil {
			ref := &RefusedError{Part: a.rule.Part, Host: a.host, Address: server, Reason: ReasonOfflineDNS, err: netguard.ErrOffline}
			a.refuse(ref)
			return nil, ref
		}
		var d net.Dialer
		return d.DialContext(ctx, network, server)
	}}
}

func (a *attempt) refuse(r *RefusedError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.refused == nil {
		a.refused = r
	}
}

func (a *attempt) refusal() *RefusedError {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.refused
}

// event is what the recorder hears of the attempt.
func (a *attempt) event(port string, c net.Conn, err error) Event {
	e := Event{Part: a.rule.Part, Host: a.host, Port: port}
	ref := a.refusal()
	switch {
	case err == nil:
		e.Outcome, e.Address = Made, addressOnly(c.RemoteAddr().String())
	case ref != nil:
		e.Outcome, e.Reason, e.Address = Refused, ref.Reason, ref.Address
		if ref.Reason != ReasonOfflineDNS {
			e.Address = addressOnly(ref.Address)
		}
	default:
		a.mu.Lock()
		e.Outcome, e.Reason, e.Address = Failed, failure(err), addressOnly(a.tried)
		a.mu.Unlock()
	}
	return e
}

// addressOnly drops the port of "ip:port" ("" stays "").
func addressOnly(s string) string {
	if h, _, err := net.SplitHostPort(s); err == nil {
		return h
	}
	return s
}

// Reasons a connection failed (Event.Reason with Failed).
const (
	FailRefused     = "connection_refused" // nothing listens there
	FailTimeout     = "timeout"
	FailNoSuchHost  = "no_such_host"
	FailLookup      = "lookup_failed"
	FailUnreachable = "unreachable"
	FailCancelled   = "cancelled"
	FailOther       = "error"
)

// failure names why a dial failed, in a word a UI can translate.
func failure(err error) string {
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.Is(err, context.Canceled):
		return FailCancelled
	case errors.As(err, &dns) && dns.IsNotFound:
		return FailNoSuchHost
	case errors.As(err, &dns) && !dns.IsTimeout:
		return FailLookup
	case errors.Is(err, syscall.ECONNREFUSED):
		return FailRefused
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return FailUnreachable
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return FailTimeout
	}
	return FailOther
}
