package cli

import (
	"io"
	"strings"
	"unicode/utf8"
)

// termSafe writes text for a terminal: control characters from stored or
// model text (escape sequences that retitle the window, clear the screen,
// hide text or make links; carriage returns that overwrite a line; bidi
// overrides that reorder it) are dropped, so what a conversation holds cannot
// drive the terminal. Newlines and tabs stay. --json output is not filtered:
// JSON escapes its own control characters and scripts get the text as stored.
type termSafe struct {
	w       io.Writer
	pending []byte // the start of a character split across writes
}

func newTermSafe(w io.Writer) *termSafe { return &termSafe{w: w} }

// Write drops the control characters of p; it reports len(p) written when the
// rest was.
func (t *termSafe) Write(p []byte) (int, error) {
	in := p
	if len(t.pending) > 0 {
		in = append(t.pending, p...)
		t.pending = nil
	}
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); {
		r, n := utf8.DecodeRune(in[i:])
		if r == utf8.RuneError && n <= 1 && !utf8.FullRune(in[i:]) {
			t.pending = append([]byte(nil), in[i:]...)
			break
		}
		if !unsafeRune(r) {
			out = append(out, in[i:i+n]...)
		}
		i += n
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// unsafeRune is a character a terminal acts on instead of showing.
func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f: // C0 controls (ESC, BEL, CR, backspace …) and DEL
		return true
	case r >= 0x80 && r <= 0x9f: // C1 controls (CSI, OSC …)
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi embeddings, overrides, isolates
		return true
	}
	return false
}

// termText is s without the characters termSafe drops (for one-line messages).
func termText(s string) string {
	return strings.Map(func(r rune) rune {
		if unsafeRune(r) {
			return -1
		}
		return r
	}, s)
}
