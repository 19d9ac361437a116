package toolfile

import (
	"hermes/backend/lazyre"
	"strings"
)

// An interpreter runs program text given on its command line. A placeholder
// inside that text lets the model write code (code injection), as a shell's
// -c does; a placeholder as an argument of its own is data (sys.argv, ARGV).
type interpreter struct {
	flags    string   // short options whose value (or attached rest) is program text, e.g. "c" or "eE"
	long     []string // long options that take program text (--eval, --expression)
	firstArg bool     // the first operand is the program unless a file option is given (awk, sed)
	valued   string   // short options that take a value that is not a program (awk -v x=1, -F:)
	file     string   // short options that name a program file instead (awk -f, sed -f)
}

var interpreters = map[string]interpreter{
	"python": {flags: "c", valued: "WX"}, "python2": {flags: "c", valued: "WX"}, "python3": {flags: "c", valued: "WX"},
	"pypy": {flags: "c", valued: "WX"}, "pypy3": {flags: "c", valued: "WX"},
	"node": {flags: "ep", long: []string{"--eval", "--print"}, valued: "r"}, "nodejs": {flags: "ep", long: []string{"--eval", "--print"}, valued: "r"},
	"bun": {flags: "e", long: []string{"--eval", "--print"}}, "deno": {long: []string{"eval"}},
	"perl": {flags: "eE", valued: "MmIix"}, "ruby": {flags: "e", valued: "rIE"}, "php": {flags: "rB", long: []string{"--run"}},
	"lua": {flags: "e"}, "luajit": {flags: "e"}, "rscript": {flags: "e"}, "r": {flags: "e"},
	"osascript": {flags: "e"}, "julia": {flags: "eE", long: []string{"--eval", "--print"}},
	"elixir": {flags: "e", long: []string{"--eval"}}, "erl": {long: []string{"-eval"}},
	"tclsh": {}, "groovy": {flags: "e"}, "scala": {flags: "e"},
	"awk": {firstArg: true, valued: "vF", file: "f"}, "gawk": {firstArg: true, valued: "vF", file: "f"},
	"mawk": {firstArg: true, valued: "vF", file: "f"}, "nawk": {firstArg: true, valued: "vF", file: "f"},
	"sed": {flags: "e", long: []string{"--expression"}, firstArg: true, valued: "l", file: "f"},
	"vim": {flags: "c"}, "vi": {flags: "c"}, "nvim": {flags: "c"}, "ex": {flags: "c"},
}

// versioned are names such as python3.12 or lua5.4, read as their family.
var versioned = lazyre.New(`^(python|pypy|lua|ruby|perl|php)[0-9.]*$`)

func interpreterNamed(s string) (string, interpreter, bool) {
	name := programName(s)
	if m := versioned.FindStringSubmatch(name); m != nil {
		if _, ok := interpreters[name]; !ok {
			name = m[1]
		}
	}
	it, ok := interpreters[name]
	return name, it, ok
}

// inlineProgram finds an interpreter in argv whose program text, given on the
// command line, holds a placeholder: the argv index of that text, the
// interpreter's name and how the text was given (its flag, or "program" for
// awk's and sed's first operand); at is -1 when there is none. Any position
// counts, so wrappers (env, nice, timeout) do not hide it.
func inlineProgram(argv []string) (at int, name, how string) {
	for i, a := range argv {
		words := strings.Fields(a)
		if len(words) == 0 || strings.Contains(words[0], "{{") {
			continue
		}
		if len(words) > 1 { // env -S "python3 -c 'print({{q}})'"
			if _, n, how := inlineProgram(words); n != "" {
				return i, n, how
			}
		}
		n, it, ok := interpreterNamed(words[0])
		if !ok {
			continue
		}
		if at, how := it.program(argv[i+1:]); at >= 0 && strings.Contains(argv[i+1+at], "{{") {
			return i + 1 + at, n, how
		}
	}
	return -1, "", ""
}

// program is the index in args (after the interpreter) of its inline program
// text, and the option that gave it; -1 when it runs a file or reads stdin.
func (it interpreter) program(args []string) (int, string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		for _, l := range it.long {
			if a == l && i+1 < len(args) {
				return i + 1, l
			}
			if strings.HasPrefix(a, l+"=") {
				return i, l
			}
		}
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			if it.firstArg && a != "--" {
				return i, "program"
			}
			if it.firstArg && a == "--" && i+1 < len(args) {
				return i + 1, "program"
			}
			return -1, ""
		}
		if strings.HasPrefix(a, "--") {
			continue
		}
		// a cluster of short options: -Ic, -ne, -lne'print', -F: -v x=1
		for j, r := range a[1:] {
			rest := a[2+j:]
			switch {
			case strings.ContainsRune(it.file, r):
				return -1, ""
			case strings.ContainsRune(it.flags, r):
				if rest != "" {
					return i, "-" + string(r)
				}
				if i+1 < len(args) {
					return i + 1, "-" + string(r)
				}
				return -1, ""
			case strings.ContainsRune(it.valued, r):
				if rest == "" {
					i++ // the value is the next argument
				}
			default:
				continue
			}
			break
		}
	}
	return -1, ""
}
