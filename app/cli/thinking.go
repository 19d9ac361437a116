package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
)

// thinkingOut prints a thinking model's reasoning on stderr as it streams,
// dimmed on a terminal, and closes it with a line break when the answer starts.
type thinkingOut struct {
	w      io.Writer
	show   bool
	dim    bool
	inside bool // reasoning printed and not yet closed
}

// newThinkingOut shows reasoning when asked (--show-thinking given: its value),
// else when w is a terminal: a script sees only what it asked for.
func newThinkingOut(w io.Writer, given, asked bool) *thinkingOut {
	f, isFile := w.(*os.File)
	tty := isFile && isTerminal(f)
	show := tty
	if given {
		show = asked
	}
	return &thinkingOut{w: w, show: show, dim: tty}
}

func (t *thinkingOut) think(s string) {
	if !t.show || s == "" {
		return
	}
	if !t.inside {
		t.inside = true
		if t.dim {
			fmt.Fprint(t.w, "\x1b[2m")
		}
		fmt.Fprint(t.w, "Thinking… ")
	}
	fmt.Fprint(t.w, termText(s))
}

// end closes the reasoning printed so far (nothing when there was none).
func (t *thinkingOut) end() {
	if !t.inside {
		return
	}
	t.inside = false
	if t.dim {
		fmt.Fprint(t.w, "\x1b[0m")
	}
	fmt.Fprintln(t.w)
}

// flagGiven reports whether the command line set the flag name.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
