package toolfile

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
)

// localAddr reports whether an address is on this machine or the local network:
// loopback, private ranges (RFC 1918, fc00::/7) or link-local.
func localAddr(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast()
}

// localName reports whether a host name can only mean something local: localhost,
// a single label ("nas") or a local suffix (.local, .lan, .home.arpa, .internal).
// Where it resolves to is checked again when connecting.
func localName(host string) bool {
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

// checkHost is the load-time check of a URL's host.
func checkHost(host string) error {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		if !localAddr(a) {
			return fmt.Errorf("host %s is not on this machine or the local network; set allow_internet: true to allow it", host)
		}
		return nil
	}
	if !localName(host) {
		return fmt.Errorf("host %s is not a local name (localhost, a LAN IP address, or a name ending in .local or .lan); set allow_internet: true to allow it", host)
	}
	return nil
}

// dialControl refuses, at connect time, any address off the local network, so a
// name that resolves (or redirects) elsewhere is caught too.
func dialControl(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", address, err)
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("connect to %s: not an IP address", address)
	}
	if !localAddr(a) {
		return fmt.Errorf("connect to %s: the address is not on the local network (set allow_internet: true in tools.yaml to allow it)", address)
	}
	return nil
}
