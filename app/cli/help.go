package cli

import (
	"fmt"
	"slices"
	"strings"
)

// commands are the commands run() knows (doctor, version and help are
// answered before it opens anything, serve too is one).
var commands = []string{"serve", "doctor", "chat", "preset", "project", "session", "settings", "intent", "tools", "mcp", "kb", "memory", "model", "workflow", "agent", "activity"}

// helpRequest reports whether args ask for help, and about which command ("" for
// all): `help [COMMAND]`, or -h / --help right after the command or as the last
// argument, unless the arguments hold a "--" (then -h is an argument like any
// other); `memory add -h` asks for help, `chat --system -h hi` gives -h to --system.
func helpRequest(args []string) (cmd string, ok bool) {
	if len(args) == 0 {
		return "", false
	}
	isHelp := func(a string) bool { return a == "--help" || a == "-h" || a == "-help" }
	if args[0] == "help" {
		if len(args) > 1 {
			return args[1], true
		}
		return "", true
	}
	if isHelp(args[0]) {
		return "", true
	}
	if slices.Contains(args, "--") {
		return "", false
	}
	if len(args) > 1 && (isHelp(args[1]) || isHelp(args[len(args)-1])) {
		return args[0], true
	}
	return "", false
}

// commandUsage is what the usage says of one command: its lines, each with the
// lines that continue it, and the global flags; false for a command it does not name.
func commandUsage(cmd string) (string, bool) {
	if !slices.Contains(commands, cmd) && cmd != "help" && cmd != "version" {
		return "", false
	}
	var b strings.Builder
	global := ""
	taking := false
	for _, l := range strings.Split(usage, "\n") {
		if strings.HasPrefix(l, "Global flags") {
			global = l
		}
		switch {
		case strings.HasPrefix(l, "  hermes "):
			f := strings.Fields(l)
			taking = len(f) > 1 && (f[1] == cmd || f[1] == "--"+cmd)
		case !strings.HasPrefix(l, "    "):
			taking = false // a heading or a blank line ends a command's lines
		}
		if taking {
			b.WriteString(l + "\n")
		}
	}
	if b.Len() == 0 {
		return "", false
	}
	return "Usage:\n" + b.String() + "\n" + global + "\n", true
}

// printHelp writes the help asked for: the whole usage, or one command's.
func printHelp(env Env, cmd string) int {
	if cmd == "" {
		fmt.Fprint(env.Stdout, usage)
		return exitOK
	}
	text, ok := commandUsage(cmd)
	if !ok {
		fmt.Fprintf(env.Stderr, "hermes: help: unknown command %q (see `hermes help`)\n", cmd)
		return exitUsage
	}
	fmt.Fprint(env.Stdout, text)
	return exitOK
}
