package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// invisible reports whether r is a character a reader cannot see but a model
// reads: tag characters, zero-width characters, bidi controls, the BOM and C0
// controls other than tab and newline. They can smuggle instructions past the
// user, so they never reach the model.
func invisible(r rune) bool {
	switch {
	case r >= 0xE0000 && r <= 0xE007F: // tag characters
		return true
	case r >= 0x200B && r <= 0x200F: // zero width space/joiners, LRM, RLM
		return true
	case r >= 0x2060 && r <= 0x2064: // word joiner, invisible operators
		return true
	case r >= 0x202A && r <= 0x202E: // bidi embeddings and overrides
		return true
	case r >= 0x2066 && r <= 0x2069: // bidi isolates
		return true
	case r == 0xFEFF, r == 0x061C, r == 0x00AD: // BOM, Arabic letter mark, soft hyphen
		return true
	case r < 0x20 && r != '\n' && r != '\t' && r != '\r', r == 0x7F:
		return true
	}
	return false
}

// StripInvisible removes invisible characters (see the package doc) and replaces
// invalid UTF-8 with U+FFFD.
func StripInvisible(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || invisible(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if !invisible(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// capText cuts s to at most max bytes on a rune boundary and says how much was
// cut; max <= 0 means no cap.
func capText(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[truncated by Hermes: %d of %d bytes shown]", cut, len(s))
}

// cleanText is what every server-supplied text goes through before a model or a
// user sees it.
func cleanText(s string, max int) string { return capText(StripInvisible(s), max) }

// sanitizeJSON strips invisible characters from every string (keys included)
// of a JSON document; invalid JSON is returned as it is (the caller rejects it).
func sanitizeJSON(raw json.RawMessage) json.RawMessage {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return raw
	}
	out, err := json.Marshal(sanitizeValue(v))
	if err != nil {
		return raw
	}
	return out
}

func sanitizeValue(v any) any {
	switch v := v.(type) {
	case string:
		return StripInvisible(v)
	case []any:
		for i := range v {
			v[i] = sanitizeValue(v[i])
		}
		return v
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[StripInvisible(k)] = sanitizeValue(x)
		}
		return out
	}
	return v
}
