package mcp

import "sync"

// ring keeps the last size bytes written to it: the stderr of a server, drained
// continuously so a chatty server never blocks on a full pipe. Safe for
// concurrent use; Write never blocks and never fails.
type ring struct {
	mu    sync.Mutex
	buf   []byte
	size  int
	start int   // index of the oldest byte when full
	full  bool  // buf has wrapped
	total int64 // bytes ever written
}

func newRing(size int) *ring {
	if size <= 0 {
		size = 64 << 10
	}
	return &ring{buf: make([]byte, 0, size), size: size}
}

// Write keeps the newest bytes of p.
func (r *ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(p)
	r.total += int64(n)
	if n >= r.size {
		r.buf = append(r.buf[:0], p[n-r.size:]...)
		r.start, r.full = 0, true
		return n, nil
	}
	if !r.full {
		if len(r.buf)+n <= r.size {
			r.buf = append(r.buf, p...)
			return n, nil
		}
		// Fill up to size, then wrap.
		k := r.size - len(r.buf)
		r.buf = append(r.buf, p[:k]...)
		p = p[k:]
		r.full, r.start = true, 0
	}
	for len(p) > 0 {
		k := copy(r.buf[r.start:], p)
		p = p[k:]
		r.start = (r.start + k) % r.size
	}
	return n, nil
}

// Bytes returns a copy of what the ring holds, oldest first.
func (r *ring) Bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.full {
		return append([]byte(nil), r.buf...)
	}
	out := make([]byte, 0, r.size)
	out = append(out, r.buf[r.start:]...)
	return append(out, r.buf[:r.start]...)
}

// Total is how many bytes were ever written.
func (r *ring) Total() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
}

// Tail returns the last max bytes as text, starting at a line boundary when one
// is near, for error messages and the status panel.
func (r *ring) Tail(max int) string {
	b := r.Bytes()
	if len(b) > max {
		b = b[len(b)-max:]
		for i, c := range b {
			if c == '\n' && i < len(b)-1 && i < 200 {
				b = b[i+1:]
				break
			}
		}
	}
	return StripInvisible(string(b))
}
