package mcp

import (
	"fmt"
	"hermes/backend/lazyre"
	"sort"
	"strings"
)

// inherited are the only variables a server gets from Hermes's own environment.
var inherited = []string{"PATH", "HOME", "LANG", "TMPDIR"}

var envRef = lazyre.New(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// childEnv builds a server's environment: PATH, HOME, LANG and TMPDIR from
// parent (when set) and the entry's declared variables, whose ${VAR} references
// are expanded from parent. Nothing else is inherited. It also returns the
// references that parent does not define (they expand to "").
func childEnv(parent []string, declared map[string]string) (env []string, missing []string) {
	lookup := make(map[string]string, len(parent))
	for _, kv := range parent {
		if k, v, ok := strings.Cut(kv, "="); ok {
			if _, dup := lookup[k]; !dup { // the first wins, as in getenv
				lookup[k] = v
			}
		}
	}
	vars := map[string]string{}
	for _, k := range inherited {
		if v, ok := lookup[k]; ok {
			vars[k] = v
		}
	}
	seen := map[string]bool{}
	for k, v := range declared {
		vars[k] = envRef.ReplaceAllStringFunc(v, func(ref string) string {
			name := ref[2 : len(ref)-1]
			val, ok := lookup[name]
			if !ok && !seen[name] {
				seen[name] = true
				missing = append(missing, name)
			}
			return val
		})
	}
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	env = make([]string, 0, len(keys))
	for _, k := range keys {
		env = append(env, k+"="+vars[k])
	}
	sort.Strings(missing)
	return env, missing
}

// missingEnvWarning says which ${VAR} references expanded to nothing.
func missingEnvWarning(missing []string) string {
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("environment variables referenced in env are not set: %s (they expand to an empty string)", strings.Join(missing, ", "))
}
