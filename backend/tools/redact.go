package tools

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
)

// Redacted replaces a secret value in stored arguments.
const Redacted = "[REDACTED]"

// maxStoredArgs caps the arguments kept in one audit row.
const maxStoredArgs = 8 << 10

// secretKey reports whether an object key names a secret: password, token, secret,
// api key, authorization and their usual spellings (case, '-' and '_' ignored).
func secretKey(k string) bool {
	k = strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ', '.':
			return -1
		}
		return unicode.ToLower(r)
	}, k)
	for _, s := range []string{"password", "passwd", "passphrase", "token", "secret", "apikey", "authorization", "cookie", "privatekey", "credential", "pwd"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return k == "auth" || k == "pin" || k == "otp"
}

// RedactArgs returns the arguments as JSON for the audit log: values under secret
// keys, at any depth, replaced with Redacted; capped in size. Arguments that are
// not JSON are stored as a JSON string (they cannot be searched for keys, so they
// are cut short).
func RedactArgs(raw json.RawMessage) string {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return "{}"
	}
	v, err := DecodeArgs(trimmed)
	if err != nil {
		b, _ := json.Marshal(truncate(string(trimmed), 256))
		return string(b)
	}
	out := string(Canonical(redact(v)))
	if len(out) > maxStoredArgs {
		b, _ := json.Marshal(truncate(out, maxStoredArgs))
		return string(b)
	}
	return out
}

func redact(v any) any {
	return rewrite(v, func(key string) (any, bool) { return Redacted, secretKey(key) }, func(leaf any) any { return leaf })
}

// rewrite copies a decoded JSON value: an object member for which member says so
// is replaced whole, and every other scalar goes through leaf.
func rewrite(v any, member func(key string) (any, bool), leaf func(any) any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			if r, ok := member(k); ok {
				m[k] = r
			} else {
				m[k] = rewrite(e, member, leaf)
			}
		}
		return m
	case []any:
		a := make([]any, len(v))
		for i, e := range v {
			a[i] = rewrite(e, member, leaf)
		}
		return a
	}
	return leaf(v)
}

// Private replaces a value in the stored arguments of a tool with private arguments.
const Private = "[PRIVATE]"

// PrivateArgs returns the arguments' shape for the audit log: the keys, with every
// value replaced by Private (arrays keep their length).
func PrivateArgs(raw json.RawMessage) string {
	v, err := DecodeArgs(bytes.TrimSpace(raw))
	if _, isObject := v.(map[string]any); err != nil || !isObject {
		return "{}"
	}
	out := string(Canonical(hide(v)))
	if len(out) > maxStoredArgs {
		return "{}"
	}
	return out
}

func hide(v any) any {
	return rewrite(v, func(string) (any, bool) { return nil, false }, func(any) any { return Private })
}
