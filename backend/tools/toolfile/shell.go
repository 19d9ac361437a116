package toolfile

import (
	"path"
	"strings"
)

// ShellNote starts the description of a command tool that runs a shell with the
// model's arguments (allow_shell: true), so the approval shows it; the UI may
// also ask Tool.Shell.
const ShellNote = "⚠ Runs a shell with the model's arguments (allow_shell)."

// shells are programs that run their argument as a script, by base name (lower
// case, without .exe).
var shells = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "fish": true, "ksh": true, "mksh": true,
	"ash": true, "csh": true, "tcsh": true, "rbash": true, "yash": true, "busybox": true,
	"cmd": true, "powershell": true, "pwsh": true,
}

// programName is a program's base name in lower case, without .exe; a Windows
// path's backslashes count as separators too.
func programName(s string) string {
	s = path.Base(strings.ReplaceAll(s, `\`, "/"))
	return strings.TrimSuffix(strings.ToLower(s), ".exe")
}

// shellScript finds a shell in argv that is given a script to run: the argv
// index of the shell, its name and its script flag (-c, /c, -Command, ...); at
// is -1 when there is none.
// Any position counts, so wrappers (env, nice, timeout, sudo, busybox ...) do not
// hide it, and an item with spaces counts word by word (env -S "sh -c ...").
// Windows PowerShell runs its bare arguments as a command, so it counts without
// a flag.
func shellScript(argv []string) (at int, shell, flag string) {
	type word struct {
		s  string
		at int // index in argv
	}
	var words []word
	for i, a := range argv {
		for _, w := range strings.Fields(a) {
			words = append(words, word{w, i})
		}
		if strings.TrimSpace(a) == "" {
			words = append(words, word{a, i})
		}
	}
	for i, w := range words {
		name := programName(w.s)
		if !shells[name] || strings.Contains(w.s, "{{") {
			continue
		}
		for _, next := range words[i+1:] {
			if scriptFlag(name, next.s) {
				return w.at, name, next.s
			}
		}
		if name == "powershell" && i+1 < len(words) {
			return w.at, name, words[i+1].s
		}
	}
	return -1, "", ""
}

// scriptFlag reports whether arg tells the shell name to run a script given on
// its command line.
func scriptFlag(name, arg string) bool {
	lower := strings.ToLower(arg)
	switch name {
	case "cmd":
		return lower == "/c" || lower == "/k" || lower == "/r"
	case "powershell", "pwsh":
		// Parameters may be shortened: -c, -co, -command, -e, -ec, -encodedcommand,
		// -cwa, -commandwithargs; "/" works as "-" on Windows.
		if len(lower) < 2 || (lower[0] != '-' && lower[0] != '/') {
			return false
		}
		p := strings.TrimLeft(lower, "-/")
		for _, full := range []string{"command", "commandwithargs", "cwa", "encodedcommand", "ec"} {
			if strings.HasPrefix(full, p) {
				return true
			}
		}
		return false
	}
	if arg == "--command" || arg == "--init-command" {
		return true
	}
	// -c, or a cluster of short options with c in it: -ec, -lc, -xc
	if len(arg) > 1 && arg[0] == '-' && arg[1] != '-' {
		opts := arg[1:]
		for _, r := range opts {
			if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
				return false
			}
		}
		return strings.ContainsRune(opts, 'c')
	}
	return false
}
