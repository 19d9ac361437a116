package egress

import (
	"fmt"
	"net"
)

// Reasons a connection was refused (Event.Reason with Refused).
const (
	ReasonOffline    = "offline_only"     // the address is not this machine and offline_only is on
	ReasonOfflineDNS = "offline_only_dns" // the name server is not this machine and offline_only is on
	ReasonInternet   = "internet"         // an internet address the part may not reach
	ReasonNever      = "never"            // link-local or cloud metadata: never reached
)

// OfflineFix is what to do about a refusal by offline_only.
const OfflineFix = "turn it off in Settings → Privacy → Offline only, or run `hermes settings set offline_only false`"

// RefusedError is a connection Hermes refused before sending any packet. It
// wraps netguard's error (ErrOffline, ErrInternet or ErrRefused).
type RefusedError struct {
	Part    string
	Host    string // as named
	Address string // the address refused, with its port (the name server for ReasonOfflineDNS)
	Reason  string // Reason*
	Hint    string // how to allow an internet host
	err     error
}

func (e *RefusedError) Unwrap() error { return e.err }

func (e *RefusedError) Error() string {
	where := e.Address
	if h, _, err := net.SplitHostPort(e.Address); err == nil && h != e.Host && e.Host != "" {
		where = fmt.Sprintf("%s (%s)", e.Host, e.Address)
	}
	switch e.Reason {
	case ReasonOffline:
		return fmt.Sprintf("connection to %s refused: offline_only is on, so Hermes connects only to this computer; %s", where, OfflineFix)
	case ReasonOfflineDNS:
		return fmt.Sprintf("connection to %s refused: finding its address would ask the name server %s, and offline_only is on, so Hermes connects only to this computer; %s", e.Host, e.Address, OfflineFix)
	case ReasonInternet:
		return fmt.Sprintf("connect to %s: %v (set %s to allow an internet host)", where, e.err, e.Hint)
	}
	return fmt.Sprintf("connect to %s: %v", where, e.err)
}

// Offline reports whether offline_only refused the connection.
func (e *RefusedError) Offline() bool {
	return e.Reason == ReasonOffline || e.Reason == ReasonOfflineDNS
}
