package llm

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// MinSafeVersion is the oldest Ollama without the known memory-disclosure flaw.
const MinSafeVersion = "0.17.1"

// Health is what a status check found.
type Health struct {
	Host      string
	Reachable bool
	Version   string
	Models    []Model
	Warnings  []Warning
	Err       error
}

// Warning codes (the UI words a warning by its code; app/notice.go).
const (
	WarnNotLoopback = "host_not_loopback" // params: host
	WarnOldVersion  = "ollama_old"        // params: version, min
)

// Warning is something to tell the user that does not stop the chat: a code, its params,
// and the English text.
type Warning struct {
	Code   string
	Params map[string]string
	Text   string
}

// Check asks the server for its version and models and collects warnings.
func (c *Client) Check(ctx context.Context) Health {
	h := Health{Host: c.cfg.Host}
	h.Warnings = append(h.Warnings, HostWarnings(c.cfg.Host)...)
	v, err := c.api.Version(ctx)
	if err != nil {
		h.Err = classify("check ollama", err)
		return h
	}
	h.Reachable, h.Version = true, v
	if w := VersionWarning(v); w != "" {
		h.Warnings = append(h.Warnings, Warning{WarnOldVersion, map[string]string{"version": v, "min": MinSafeVersion}, w})
	}
	h.Models, h.Err = c.Models(ctx)
	return h
}

// HostWarnings warns when the host is not on this machine.
func HostWarnings(host string) []Warning {
	u, err := url.Parse(host)
	if err != nil {
		return nil
	}
	name := u.Hostname()
	if name == "localhost" {
		return nil
	}
	if ip := net.ParseIP(name); ip != nil && ip.IsLoopback() {
		return nil
	}
	return []Warning{{WarnNotLoopback, map[string]string{"host": host},
		fmt.Sprintf("Ollama host %s is not on this machine (not loopback): your messages leave this computer. Set ollama_host to http://127.0.0.1:11434 to stay private.", host)}}
}

// VersionWarning warns about servers older than MinSafeVersion.
func VersionWarning(v string) string {
	if CompareVersions(v, MinSafeVersion) < 0 {
		return fmt.Sprintf("Ollama %s is older than %s and has a known memory-disclosure flaw; update Ollama.", v, MinSafeVersion)
	}
	return ""
}

// CompareVersions compares dotted versions ("0.17.1", "v0.5.0-rc1"); unparseable parts count as 0.
func CompareVersions(a, b string) int {
	pa, pb := versionParts(a), versionParts(b)
	for i := 0; i < 3; i++ {
		if pa[i] != pb[i] {
			if pa[i] < pb[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

func versionParts(v string) [3]int {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	if i := strings.IndexAny(v, "-+ "); i >= 0 {
		v = v[:i]
	}
	var out [3]int
	for i, p := range strings.SplitN(v, ".", 3) {
		out[i], _ = strconv.Atoi(p)
	}
	return out
}
