package session

import (
	"context"
	"sync"
)

// historyCache keeps the messages of the sessions being talked in, so a turn does
// not read its whole history back from the database. An entry is tagged with the
// session's rev (bumped by a trigger on every change to its messages, from any
// process) and used only while the session is still at that rev.
type historyCache struct {
	mu      sync.Mutex
	entries map[string]*historyEntry
	tick    uint64
	bytes   int // text held by all entries
}

type historyEntry struct {
	rev   int64
	msgs  []Message
	used  uint64
	bytes int
}

const (
	historySessions    = 8        // sessions kept
	historyMaxMessages = 2000     // longer sessions are read each time
	historyMaxBytes    = 4 << 20  // so are sessions holding more text than this
	historyTotalBytes  = 16 << 20 // the most text the cache holds
)

// textBytes is about what a message holds in memory.
func textBytes(m Message) int { return len(m.Content) + len(m.Details) + len(m.Error) + 256 }

func (c *historyCache) get(id string, rev int64) ([]Message, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[id]
	if !ok || e.rev != rev {
		return nil, false
	}
	c.tick++
	e.used = c.tick
	return append([]Message(nil), e.msgs...), true
}

// put stores what was read at rev. Messages read after rev was may be newer than
// rev; that only makes the entry miss sooner, since rev never goes back.
func (c *historyCache) put(id string, rev int64, msgs []Message) {
	size := 0
	for _, m := range msgs {
		size += textBytes(m)
	}
	if len(msgs) > historyMaxMessages || size > historyMaxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]*historyEntry{}
	}
	c.drop(id)
	for len(c.entries) > 0 && (len(c.entries) >= historySessions || c.bytes+size > historyTotalBytes) {
		var oldest string
		var min uint64
		for k, e := range c.entries {
			if oldest == "" || e.used < min {
				oldest, min = k, e.used
			}
		}
		c.drop(oldest)
	}
	c.tick++
	c.entries[id] = &historyEntry{rev: rev, msgs: append([]Message(nil), msgs...), used: c.tick, bytes: size}
	c.bytes += size
}

// forget drops a session's entry (a deleted session's text leaves memory with it).
func (c *historyCache) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.drop(id)
}

func (c *historyCache) drop(id string) {
	if e, ok := c.entries[id]; ok {
		c.bytes -= e.bytes
		delete(c.entries, id)
	}
}

// appended records a message committed as the only change from rev-1 to rev.
func (c *historyCache) appended(m Message, rev int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[m.SessionID]
	if !ok || e.rev != rev-1 {
		return
	}
	if n := len(e.msgs); n > 0 && e.msgs[n-1].Seq >= m.Seq {
		// The entry was read after m committed (History raced the append) but is
		// tagged with the rev before: it already holds m. Read it again next time.
		c.drop(m.SessionID)
		return
	}
	size := textBytes(m)
	if len(e.msgs) >= historyMaxMessages || e.bytes+size > historyMaxBytes || c.bytes+size > historyTotalBytes {
		c.drop(m.SessionID)
		return
	}
	e.msgs = append(e.msgs, m)
	e.rev, e.bytes = rev, e.bytes+size
	c.bytes += size
}

// History returns the session's messages as shown (Visible: the selected branch of
// the main channel and the other channels), in order, from memory while s.Rev
// (from Get) says nothing changed since they were read.
func (st *Store) History(ctx context.Context, s Session) ([]Message, error) {
	if msgs, ok := st.hist.get(s.ID, s.Rev); ok {
		return Visible(msgs), nil
	}
	msgs, err := st.Messages(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	st.hist.put(s.ID, s.Rev, msgs)
	return Visible(msgs), nil
}
