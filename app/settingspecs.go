package app

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"hermes/backend/config"
	"hermes/backend/memory/decay"
	"hermes/backend/tools"
)

// domainSettings are the settings whose rules domain packages own, given to
// the settings store by the composition root (config imports no domain
// package; docs/architecture.md, "How to add …").
func domainSettings() []config.Spec {
	return []config.Spec{
		{
			Key:         "memory_half_lives",
			Description: "How fast remembered facts fade: a half-life per category, e.g. health=90d,preference=30d (defaults: " + decay.FormatHalfLives(decay.DefaultHalfLives()) + "; confirmed profile facts never fade)",
			Parse: func(v string) (string, error) {
				m, err := decay.ParseHalfLives(v)
				if r := (*decay.Refusal)(nil); errors.As(err, &r) {
					return "", config.Bad(r.Reason, r.Params, "%s", r)
				}
				if err != nil {
					return "", err
				}
				return decay.FormatHalfLives(m), nil
			},
			Apply: func(s *config.Settings, v string) { s.MemoryHalfLives, _ = decay.ParseHalfLives(v) },
		},
		{
			Key:         "memory_verifiers",
			Description: "Tools that verify pending facts before they become active, by key prefix, e.g. contact.=crm_lookup,work.=hr_check (the tool gets {key, value, text} and answers {\"confirmed\": true|false, \"reason\": \"...\"}; it must run without asking)",
			Parse: func(v string) (string, error) {
				m, err := parseVerifiers(v)
				if err != nil {
					return "", err
				}
				return formatVerifiers(m), nil
			},
			Apply: func(s *config.Settings, v string) { s.MemoryVerifiers, _ = parseVerifiers(v) },
		},
	}
}

// maxVerifiers bounds memory_verifiers.
const maxVerifiers = 50

// parseVerifiers reads memory_verifiers: "PREFIX=TOOL" pairs separated by
// commas (a key prefix such as "contact." and a tool's registry name).
func parseVerifiers(v string) (map[string]string, error) {
	out := map[string]string{}
	for _, pair := range strings.Split(v, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		prefix, tool, ok := strings.Cut(pair, "=")
		prefix, tool = strings.TrimSpace(prefix), strings.TrimSpace(tool)
		switch {
		case !ok || prefix == "" || tool == "":
			return nil, config.Bad(config.BadVerifierPair, map[string]string{"value": pair}, "%q is not PREFIX=TOOL, e.g. contact.=crm_lookup", pair)
		case !tools.ValidName(tool):
			return nil, config.Bad(config.BadToolName, map[string]string{"value": tool}, "%q is not a tool name (letters, digits, _ and -); `hermes tools list` names them", tool)
		case out[prefix] != "":
			return nil, config.Bad(config.BadPrefixTwice, map[string]string{"value": prefix}, "key prefix %q is given twice", prefix)
		}
		out[prefix] = tool
	}
	if len(out) > maxVerifiers {
		return nil, config.Bad(config.BadTooMany, map[string]string{"count": strconv.Itoa(len(out)), "max": strconv.Itoa(maxVerifiers)}, "%d verifiers; at most %d", len(out), maxVerifiers)
	}
	return out, nil
}

// formatVerifiers writes m as memory_verifiers (sorted by prefix).
func formatVerifiers(m map[string]string) string {
	prefixes := make([]string, 0, len(m))
	for p := range m {
		prefixes = append(prefixes, p)
	}
	sort.Strings(prefixes)
	parts := make([]string, len(prefixes))
	for i, p := range prefixes {
		parts[i] = p + "=" + m[p]
	}
	return strings.Join(parts, ",")
}
