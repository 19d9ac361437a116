package egress

import (
	"io"
	"net"
	"net/netip"
	"sync"
)

// conn is an open connection beyond this machine, known to its Net until it
// is closed, so that offline_only turned on closes it.
type conn struct {
	net.Conn
	n    *Net
	once sync.Once
}

func (c *conn) Close() error {
	c.once.Do(func() {
		c.n.mu.Lock()
		delete(c.n.remote, c)
		c.n.mu.Unlock()
	})
	return c.Conn.Close()
}

// ReadFrom keeps the kernel's copy (sendfile) of a file sent to the server.
func (c *conn) ReadFrom(r io.Reader) (int64, error) { return io.Copy(c.Conn, r) }

// track wraps a connection beyond this machine; a loopback one is returned as it is.
func (n *Net) track(c net.Conn) net.Conn {
	if n == nil || isLoopback(c.RemoteAddr()) {
		return c
	}
	tc := &conn{Conn: c, n: n}
	n.mu.Lock()
	n.remote[tc] = struct{}{}
	n.mu.Unlock()
	return tc
}

// closeRemote closes every open connection beyond this machine.
func (n *Net) closeRemote() {
	n.mu.Lock()
	open := make([]*conn, 0, len(n.remote))
	for c := range n.remote {
		open = append(open, c)
	}
	n.mu.Unlock()
	for _, c := range open {
		_ = c.Close()
	}
}

func isLoopback(a net.Addr) bool {
	ap, err := netip.ParseAddrPort(a.String())
	return err == nil && ap.Addr().Unmap().IsLoopback()
}
