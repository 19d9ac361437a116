package cli

import (
	"fmt"
	"strings"
)

// helpRequest reports whether args ask for help, and about which command ("" for
// all): `help [COMMAND]`, or -h / --help anywhere before a "--" (after it, "-h"
// is an argument like any other).
func helpRequest(args []string) (cmd string, ok bool) {
	if len(args) == 0 {
		return "", false
	}
	switch args[0] {
	case "help", "--help", "-h", "-help":
		if args[0] == "help" && len(args) > 1 {
			return args[1], true
		}
		return "", true
	}
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if a == "--help" || a == "-h" || a == "-help" {
			return args[0], true
		}
	}
	return "", false
}

// commandUsage is what the usage says of one command: its lines, each with the
// lines that continue it, and the global flags; false for a command it does not name.
func commandUsage(cmd string) (string, bool) {
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
