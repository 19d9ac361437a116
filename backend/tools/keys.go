package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// checkKeys refuses objects with a key twice, or two keys that differ only in
// case. Validators keep the last duplicate while Go's encoding/json also matches
// keys without regard to case, so such input could pass the schema and reach a
// tool as something else. raw must already be known to be valid JSON.
func checkKeys(raw []byte) error {
	type frame struct {
		object bool
		keys   []string
		folded map[string]string // used once an object has many keys
	}
	var stack []frame
	expectKey := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '{', '[':
			stack = append(stack, frame{object: c == '{'})
			expectKey = c == '{'
		case '}', ']':
			stack = stack[:len(stack)-1]
			expectKey = false
		case ',':
			expectKey = len(stack) > 0 && stack[len(stack)-1].object
		case '"':
			end, hasEscape := scanString(raw, i)
			if expectKey && len(stack) > 0 {
				k := string(raw[i+1 : end])
				if hasEscape {
					_ = json.Unmarshal(raw[i:end+1], &k)
				}
				if err := addKey(&stack[len(stack)-1].keys, &stack[len(stack)-1].folded, k); err != nil {
					return err
				}
				expectKey = false
			}
			i = end
		}
	}
	return nil
}

// scanString returns the index of the closing quote of the string at raw[start].
func scanString(raw []byte, start int) (end int, hasEscape bool) {
	for j := start + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			hasEscape = true
			j++
		case '"':
			return j, hasEscape
		}
	}
	return len(raw) - 1, hasEscape
}

func addKey(keys *[]string, folded *map[string]string, k string) error {
	clash := func(prev string) error {
		if prev == k {
			return fmt.Errorf("the key %q appears twice in one object", k)
		}
		return fmt.Errorf("the keys %q and %q differ only in case; use one", prev, k)
	}
	if *folded == nil && len(*keys) < 16 {
		for _, prev := range *keys {
			if strings.EqualFold(prev, k) {
				return clash(prev)
			}
		}
		*keys = append(*keys, k)
		return nil
	}
	if *folded == nil {
		*folded = make(map[string]string, 32)
		for _, prev := range *keys {
			(*folded)[strings.ToLower(prev)] = prev
		}
	}
	if prev, ok := (*folded)[strings.ToLower(k)]; ok {
		return clash(prev)
	}
	(*folded)[strings.ToLower(k)] = k
	return nil
}
