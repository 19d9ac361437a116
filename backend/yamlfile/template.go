package yamlfile

import (
	"fmt"
	"strings"
)

// Piece is one run of a template string: literal text, or the trimmed text
// between a placeholder's braces.
type Piece struct {
	Text          string
	IsPlaceholder bool
}

// SplitTemplate splits s into literals and {{placeholders}} (spaces inside the
// braces are trimmed): the one rule tools.yaml and workflows.yaml share for
// where a placeholder starts and ends. What a placeholder may name is the
// caller's rule.
func SplitTemplate(s string) ([]Piece, error) {
	var out []Piece
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			if s != "" {
				out = append(out, Piece{Text: s})
			}
			return out, nil
		}
		if i > 0 {
			out = append(out, Piece{Text: s[:i]})
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return out, fmt.Errorf("%q has '{{' without a closing '}}'", s)
		}
		out = append(out, Piece{Text: strings.TrimSpace(s[i+2 : i+j]), IsPlaceholder: true})
		s = s[i+j+2:]
	}
}
