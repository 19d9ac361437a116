// Package netguard decides which network addresses Hermes may reach on the
// user's behalf: loopback and the private LAN freely, the internet only when
// the user allowed it, and link-local and cloud-metadata addresses never; while
// the setting offline_only is on, nothing beyond this machine (CheckOffline). The
// same rule applies when a URL is loaded (its host) and when a connection is
// made (the resolved address), so a name that resolves or redirects elsewhere
// is caught too.
package netguard

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
)

// Where classifies an address.
type Where int

// Classes of addresses.
const (
	Local    Where = iota // loopback or a private range (RFC 1918, fc00::/7)
	Internet              // anything else routable
	Refused               // link-local (169.254.0.0/16, fe80::/10), cloud metadata, unspecified, multicast
)

// metadata are cloud metadata endpoints that are not link-local.
var metadata = []netip.Addr{
	netip.MustParseAddr("fd00:ec2::254"),   // AWS IMDS over IPv6
	netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
}

// ErrRefused is wrapped by every refusal of a link-local or metadata address.
var ErrRefused = errors.New("link-local and cloud-metadata addresses are never reached")

// ErrInternet is wrapped by a refusal of an internet address without permission.
var ErrInternet = errors.New("the address is not on this machine or the local network")

// ErrOffline is wrapped by a refusal of any address beyond this machine while
// the setting offline_only is on.
var ErrOffline = errors.New("offline_only is on")

// Classify says where an address is.
func Classify(a netip.Addr) Where {
	a = a.Unmap()
	for _, m := range metadata {
		if a == m {
			return Refused
		}
	}
	switch {
	case !a.IsValid(), a.IsUnspecified(), a.IsMulticast(), a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast():
		return Refused
	case a.IsLoopback(), a.IsPrivate():
		return Local
	}
	return Internet
}

// LocalName reports whether a host name can only mean something local:
// localhost, a single label ("nas") or a local suffix (.local, .lan,
// .home.arpa, .internal). Where it resolves to is checked again at connect time.
func LocalName(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || !strings.Contains(host, ".") {
		return true
	}
	for _, suffix := range []string{".localhost", ".local", ".lan", ".home.arpa", ".internal"} {
		if strings.HasSuffix(host, suffix) {
			return true
		}
	}
	return false
}

// HostIsLocal reports whether host (an IP address or a name, without port) is
// loopback or LAN by its look alone.
func HostIsLocal(host string) bool {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return Classify(a) == Local
	}
	return LocalName(host)
}

// CheckHost is the load-time check of a URL's host: hint names the setting
// that allows internet hosts (e.g. "allow_internet: true").
func CheckHost(host string, internet bool, hint string) error {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		if err := allowed(a, internet); err != nil {
			return fmt.Errorf("host %s: %w (set %s to allow an internet host)", host, err, hint)
		}
		return nil
	}
	if !internet && !LocalName(host) {
		return fmt.Errorf("host %s is not a local name (localhost, a LAN IP address, or a name ending in .local or .lan): %w; set %s to allow it", host, ErrInternet, hint)
	}
	return nil
}

// Control returns a net.Dialer Control function that checks every address a
// connection is about to use.
func Control(internet bool, hint string) func(network, address string, c syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return fmt.Errorf("connect to %s: %w", address, err)
		}
		a, err := netip.ParseAddr(host)
		if err != nil {
			return fmt.Errorf("connect to %s: not an IP address", address)
		}
		if err := allowed(a, internet); err != nil {
			return fmt.Errorf("connect to %s: %w (set %s to allow an internet host)", address, err, hint)
		}
		return nil
	}
}

// Check is the rule for one address a connection is about to use: nil, or an
// error wrapping ErrRefused or ErrInternet.
func Check(a netip.Addr, internet bool) error { return allowed(a, internet) }

// CheckOffline is the rule while offline_only is on: only this machine
// (loopback) may be reached, the LAN included in what is refused.
func CheckOffline(a netip.Addr) error {
	if a.Unmap().IsLoopback() {
		return nil
	}
	return ErrOffline
}

// allowed is the rule for one address.
func allowed(a netip.Addr, internet bool) error {
	switch Classify(a) {
	case Refused:
		return ErrRefused
	case Internet:
		if !internet {
			return ErrInternet
		}
	}
	return nil
}
