package app

import (
	"context"
	"time"

	"hermes/backend/egress"
	"hermes/backend/llm"
	"hermes/backend/netlog"
)

// Every connection Hermes makes beyond its own process goes through one
// egress.Net, built here: it refuses what offline_only forbids and records
// each attempt in the network log (backend/netlog), which every door lists.

// ollamaRule is how connections to Ollama are dialled and recorded: the rule
// of MCP over HTTP (loopback and the LAN freely, link-local and metadata
// never), the internet only with ollama_allow_internet (ollamaDial picks).
var ollamaRule = egress.Rule{Part: "ollama", Guard: true, Hint: "ollama_allow_internet to true in Settings → Connection",
	Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}

// openNetwork builds the network log, the Net every dial shares and the
// transport of the Ollama clients.
func (c *Core) openNetwork() {
	c.netLog = netlog.Open(c.db.DB, netlog.Options{})
	c.outbound = egress.New(c.offlineOnly, c.netLog.Record)
	c.transport = llm.NewTransport(c.ollamaDial())
}

// offlineOnly is the setting offline_only as it is now (asked at every dial, so
// a change applies to the next connection); when the settings cannot be read,
// the last answer stands.
func (c *Core) offlineOnly(ctx context.Context) bool {
	s, err := c.settings.Load(ctx)
	if err != nil {
		return c.offline.Load()
	}
	c.offline.Store(s.OfflineOnly)
	return s.OfflineOnly
}

// NetworkEntry is one line of the network activity: one part of Hermes's
// connections to one host and port with one outcome, over the days kept.
type NetworkEntry struct {
	Part    string `json:"part"` // "ollama", "mcp:<server>" or "tool:<name>"
	Host    string `json:"host"` // as named: a name or an address
	Port    string `json:"port"`
	Address string `json:"address,omitempty"` // the last address connected to or refused
	Outcome string `json:"outcome"`           // made, refused or failed
	Reason  string `json:"reason,omitempty"`  // why refused or failed (egress.Reason*, egress.Fail*)
	Count   int64  `json:"count"`
	First   string `json:"first"` // RFC 3339, UTC
	Last    string `json:"last"`
}

// NetworkActivity is the list of connections and the setting that limits them.
type NetworkActivity struct {
	OfflineOnly bool           `json:"offlineOnly"`
	Entries     []NetworkEntry `json:"entries"`
}

// networkLimit bounds the list a door shows.
const networkLimit = 500

// NetworkActivity lists every connection Hermes made, refused or failed to
// make (this process's and the others' on the data dir), the latest first.
func (c *Core) NetworkActivity(ctx context.Context) (NetworkActivity, error) {
	list, err := c.netLog.List(ctx, networkLimit)
	if err != nil {
		return NetworkActivity{}, userError(err, "", "")
	}
	out := NetworkActivity{OfflineOnly: c.offlineOnly(ctx), Entries: make([]NetworkEntry, 0, len(list))}
	for _, e := range list {
		out.Entries = append(out.Entries, NetworkEntry{Part: e.Part, Host: e.Host, Port: e.Port, Address: e.Address,
			Outcome: string(e.Outcome), Reason: e.Reason, Count: e.Count,
			First: e.First.UTC().Format(time.RFC3339), Last: e.Last.UTC().Format(time.RFC3339)})
	}
	return out, nil
}
