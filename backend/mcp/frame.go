package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hermes/backend/lazyre"
	"io"
	"sync"
)

// framer sits between a server's stdout and mcp-go's reader, which reads lines
// without a limit. It passes one newline-terminated message at a time; a message
// over max bytes is never held in memory: it is discarded as it streams past and
// replaced by a JSON-RPC error response to the same request id when the id can
// be found at either end of the line, so the caller gets a clear error instead of
// an out-of-memory. Lines that are not JSON objects are dropped and counted.
//
// Read is called by one goroutine (mcp-go's reader); the counters are safe to
// read from others.
type framer struct {
	src *bufio.Reader
	max int

	frame   []byte // the message being assembled
	pending []byte // what Read still has to hand out
	err     error  // sticky read error

	mu        sync.Mutex
	oversized int
	lastOver  string // description of the last oversized message
	noise     int
	lastNoise string // the start of the last line that was not JSON
}

// minFrameBuffer is the read buffer; a message longer than it is assembled from
// several reads.
const minFrameBuffer = 64 << 10

func newFramer(r io.Reader, max int) *framer {
	if max <= 0 {
		max = 4 << 20
	}
	return &framer{src: bufio.NewReaderSize(r, minFrameBuffer), max: max}
}

// Read hands out whole messages (with their newline), one after the other.
func (f *framer) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		f.pending, f.err = f.next()
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// edge is how much of an oversized line is kept at each end to find its id.
const edge = 256

// next reads one line and returns what to hand out for it: the line, a
// replacement error response, or nothing (a dropped line).
func (f *framer) next() ([]byte, error) {
	f.frame = f.frame[:0]
	if cap(f.frame) > 1<<20 { // do not keep a big buffer after a big message
		f.frame = nil
	}
	var (
		discarding bool
		head       []byte
		tail       []byte
		total      int64
	)
	for {
		chunk, err := f.src.ReadSlice('\n')
		total += int64(len(chunk))
		if !discarding && len(f.frame)+len(chunk) > f.max {
			discarding = true
			head = append(head, f.frame[:min(len(f.frame), edge)]...)
			if len(head) < edge {
				head = append(head, chunk[:min(len(chunk), edge-len(head))]...)
			}
			tail = keepTail(tail, f.frame)
			f.frame = f.frame[:0]
		}
		if discarding {
			tail = keepTail(tail, chunk)
		} else {
			f.frame = append(f.frame, chunk...)
		}
		switch {
		case err == nil: // a whole line
			if discarding {
				return f.oversize(head, tail, total), nil
			}
			return f.check(f.frame), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default: // the stream ended (a partial last line is dropped)
			return nil, err
		}
	}
}

func keepTail(tail, chunk []byte) []byte {
	if len(chunk) >= edge {
		return append(tail[:0], chunk[len(chunk)-edge:]...)
	}
	tail = append(tail, chunk...)
	if len(tail) > edge {
		tail = append(tail[:0], tail[len(tail)-edge:]...)
	}
	return tail
}

// check passes JSON objects and drops (and counts) anything else.
func (f *framer) check(line []byte) []byte {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil
	}
	if trimmed[0] == '{' || trimmed[0] == '[' {
		return line
	}
	f.mu.Lock()
	f.noise++
	f.lastNoise = StripInvisible(string(trimmed[:min(len(trimmed), 120)]))
	f.mu.Unlock()
	return nil
}

var (
	// headID finds the id of a message that starts {"jsonrpc":"2.0","id":... (Go and most encoders).
	headID = lazyre.New(`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?[0-9]+|"[^"\\]{0,100}")`)
	// tailID finds the id of a message that ends ..."id":5} (the TypeScript SDK).
	tailID = lazyre.New(`[,{]\s*"id"\s*:\s*(-?[0-9]+|"[^"\\]{0,100}")\s*\}\s*$`)
)

// oversize records a message over the cap and returns the error response that
// replaces it, or nothing when it had no id to answer.
func (f *framer) oversize(head, tail []byte, total int64) []byte {
	var id []byte
	if m := headID.FindSubmatch(head); m != nil {
		id = m[1]
	} else if m := tailID.FindSubmatch(tail); m != nil {
		id = m[1]
	}
	desc := fmt.Sprintf("the server sent a message of %s, over the %s limit; Hermes dropped it", byteSize(total), byteSize(int64(f.max)))
	f.mu.Lock()
	f.oversized++
	f.lastOver = desc
	f.mu.Unlock()
	if id == nil {
		return nil
	}
	resp, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcErrorBody    `json:"error"`
	}{"2.0", id, rpcErrorBody{Code: codeMessageTooLarge, Message: desc}}) // id is a JSON number or string
	return append(resp, '\n')
}

// codeMessageTooLarge is the JSON-RPC error code of a reply that was too large
// (in the range JSON-RPC leaves to implementations).
const codeMessageTooLarge = -32099

type rpcErrorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// stats reports the dropped messages: oversized ones and lines that were not JSON.
func (f *framer) stats() (oversized int, lastOver string, noise int, lastNoise string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.oversized, f.lastOver, f.noise, f.lastNoise
}

// byteSize renders n bytes for people: 4 MiB, 200.0 MiB, 512 bytes.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
