package app

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"time"

	"hermes/backend/mcp"
)

// guarded is a call that needs a one-time code: key names the action, what says it in
// words on the terminal, and fingerprint is what the user approves; a code is void for
// anything else (an entry edited after its code was printed gets a new code).
type guarded struct {
	key, what, fingerprint string
}

// gate says whether a web call needs a one-time code: approving an MCP server, or
// allowing a call of a tool that runs a program.
func (w *Web) gate(method string, args []string) (guarded, bool) {
	switch method {
	case "MCPApprove":
		if len(args) != 1 {
			return guarded{}, false // dispatch refuses it
		}
		name := args[0]
		g := guarded{key: "MCPApprove\x00" + name, what: fmt.Sprintf("start the MCP server %q", name)}
		if m := w.app.core.mcpManager(); m != nil {
			if st, err := m.Server(name); err == nil {
				b, _ := json.Marshal(st.Config)
				sum := sha256.Sum256(b)
				g.fingerprint = hex.EncodeToString(sum[:])
				if st.Config.Remote() {
					g.what = fmt.Sprintf("connect to the MCP server %q: %s", name, mcp.CommandLine(st.Config))
				} else {
					g.what = fmt.Sprintf("start the MCP server %q: %s", name, mcp.CommandLine(st.Config))
				}
			}
		}
		return g, true
	case "ResolveApproval":
		if len(args) != 3 || args[1] != "true" {
			return guarded{}, false // a refusal needs no code
		}
		w.promptMu.Lock()
		p, ok := w.prompts[args[0]]
		w.promptMu.Unlock()
		if !ok || !p.Annotations.Command {
			return guarded{}, false
		}
		callArgs := string(p.Args)
		if r := []rune(callArgs); len(r) > 300 {
			callArgs = string(r[:300]) + "…"
		}
		return guarded{key: "ResolveApproval\x00" + p.ID, fingerprint: p.DefinitionHash,
			what: fmt.Sprintf("let the tool %q run its program with %s", p.Tool, callArgs)}, true
	case "SetSetting":
		// ollama_allow_internet on lets the chats go to an Ollama on the internet.
		if len(args) == 2 && args[0] == "ollama_allow_internet" {
			on := strings.ToLower(strings.TrimSpace(args[1]))
			if on != "true" && on != "on" && on != "yes" && on != "1" {
				return guarded{}, false // turning it off needs no code
			}
			return guarded{key: "SetSetting\x00ollama_allow_internet", fingerprint: "true",
				what: "let Hermes send your chats to an Ollama on the internet (ollama_allow_internet)"}, true
		}
		// ollama_path names the program Hermes starts as Ollama.
		if len(args) != 2 || args[0] != "ollama_path" {
			return guarded{}, false
		}
		return guarded{key: "SetSetting\x00ollama_path", fingerprint: args[1],
			what: fmt.Sprintf("let Hermes start %q as Ollama", args[1])}, true
	}
	return guarded{}, false
}

// codeBook holds the codes that wait to be typed, one per action.
type codeBook struct {
	mu      sync.Mutex
	pending map[string]*oneTimeCode
	wrong   int         // wrong codes typed in this run
	issued  []time.Time // when the recent codes were printed
}

type oneTimeCode struct {
	code        string
	fingerprint string
	expires     time.Time
	tries       int
}

func newCodeBook() *codeBook { return &codeBook{pending: map[string]*oneTimeCode{}} }

// confirm checks the code typed for a guarded call. It returns status 0 when the call
// may run (the code is then used up); otherwise the HTTP status and the body to send,
// whose "confirm" field tells the page why: "required" (a code was just printed),
// "expired" (the code typed is no longer valid; a new one was printed), "wrong",
// "locked" or "busy".
func (w *Web) confirm(g guarded, typed string) (int, map[string]any) {
	c := w.codes
	c.mu.Lock()
	defer c.mu.Unlock()
	now := w.now()
	if c.wrong >= codeLockAfter {
		return http.StatusTooManyRequests, lockedBody()
	}
	typed = strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, typed)
	reason := "required"
	if typed != "" {
		reason = "expired"
	}
	if p := c.pending[g.key]; typed != "" && p != nil && now.Before(p.expires) && p.fingerprint == g.fingerprint {
		if subtle.ConstantTimeCompare([]byte(typed), []byte(p.code)) == 1 {
			delete(c.pending, g.key)
			return 0, nil
		}
		c.wrong++
		p.tries++
		if c.wrong >= codeLockAfter {
			clear(c.pending)
			fmt.Fprintf(w.Notices, "hermes: %d wrong approval codes were typed; approvals from the browser are locked until `hermes serve` restarts\n", c.wrong)
			return http.StatusTooManyRequests, lockedBody()
		}
		if left := codeTries - p.tries; left > 0 {
			return http.StatusForbidden, map[string]any{"confirm": "wrong", "tries_left": left,
				"error": fmt.Sprintf("That code is not right (%d %s left). Type the code printed in the terminal that runs `hermes serve`.", left, plural(left, "try", "tries"))}
		}
		delete(c.pending, g.key)
		reason = "used"
	}
	recent := c.issued[:0]
	for _, at := range c.issued {
		if now.Sub(at) < codeTTL {
			recent = append(recent, at)
		}
	}
	c.issued = recent
	if len(c.issued) >= codeIssueLimit {
		return http.StatusTooManyRequests, map[string]any{"confirm": "busy",
			"error": "Too many approval codes were asked for in the last few minutes. Wait a few minutes and try again."}
	}
	code, err := newCode()
	if err != nil {
		return http.StatusInternalServerError, map[string]any{"error": "make an approval code: " + err.Error()}
	}
	c.issued = append(c.issued, now)
	c.pending[g.key] = &oneTimeCode{code: code, fingerprint: g.fingerprint, expires: now.Add(codeTTL)}
	fmt.Fprintf(w.Notices, "\nhermes: approval code %s %s (valid %d minutes, once) to %s\n"+
		"hermes: type it in the browser only if you asked for this there\n\n",
		code[:3], code[3:], int(codeTTL/time.Minute), g.what)
	msg := map[string]string{
		"required": "To approve this, type the one-time code just printed in the terminal that runs `hermes serve`.",
		"expired":  "That code has expired or was already used; a new code was printed in the terminal that runs `hermes serve`.",
		"used":     "That code is not right and can no longer be used; a new code was printed in the terminal that runs `hermes serve`.",
	}[reason]
	if reason == "used" {
		reason = "wrong"
	}
	return http.StatusPreconditionRequired, map[string]any{"confirm": reason, "error": msg, "expires_in": int(codeTTL / time.Second)}
}

func lockedBody() map[string]any {
	return map[string]any{"confirm": "locked",
		"error": "Too many wrong approval codes: approving programs from the browser is locked until `hermes serve` restarts " +
			"(an MCP server can still be approved in the terminal with `hermes mcp approve NAME`)."}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// newCode is six random digits.
func newCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}
