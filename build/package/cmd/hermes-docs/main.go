// Command hermes-docs writes the man page and the bash, zsh and fish
// completions of Hermes from the CLI's own help: it runs `BIN help` and
// `BIN --version` and turns the usage lines ("  hermes CMD sub | sub ...")
// into a command tree. Used by `go tool task package`.
//
//	go run ./build/package/cmd/hermes-docs -bin build/bin/hermes -out DIR
//
// DIR receives hermes.1.gz, hermes.bash, _hermes (zsh) and hermes.fish.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// command is one top-level command of the CLI.
type command struct {
	name  string
	desc  string   // from the usage line, may be empty
	subs  []string // subcommands, in help order
	flags []string // --flags seen on its lines
}

// globalFlags are taken in any position (see the help's last line).
var globalFlags = []string{"--data-dir", "--json", "--yes", "--help", "--version"}

func main() {
	bin := flag.String("bin", "build/bin/hermes", "the hermes binary to ask for its help")
	out := flag.String("out", "build/bin/pkg-gen", "directory to write into")
	flag.Parse()
	help, err := exec.Command(*bin, "help").Output()
	if err != nil {
		fail("run %s help: %v", *bin, err)
	}
	version := "dev"
	if v, err := exec.Command(*bin, "--version").Output(); err == nil {
		if f := strings.Fields(string(v)); len(f) > 0 {
			version = f[len(f)-1]
			if len(f) >= 2 && f[0] == "hermes" {
				version = f[1]
			}
		}
	}
	cmds := parse(string(help))
	if len(cmds) == 0 {
		fail("no commands found in the help of %s", *bin)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail("%v", err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // no name, no time: reproducible
	zw.Write([]byte(manPage(string(help), version)))
	zw.Close()
	write(filepath.Join(*out, "hermes.1.gz"), gz.Bytes())
	write(filepath.Join(*out, "hermes.bash"), []byte(bashCompletion(cmds)))
	write(filepath.Join(*out, "_hermes"), []byte(zshCompletion(cmds)))
	write(filepath.Join(*out, "hermes.fish"), []byte(fishCompletion(cmds)))
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "hermes-docs: "+format+"\n", args...)
	os.Exit(1)
}

func write(path string, data []byte) {
	if err := os.WriteFile(path, data, 0o644); err != nil {
		fail("%v", err)
	}
}

var (
	wordRe = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	flagRe = regexp.MustCompile(`--[a-z][a-z0-9-]*`)
)

// parse reads the usage lines of the help into commands, in help order.
func parse(help string) []*command {
	var cmds []*command
	byName := map[string]*command{}
	for _, line := range strings.Split(help, "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "hermes ") {
			continue
		}
		syn, desc := t, ""
		if i := strings.Index(t, "   "); i > 0 { // the description column
			syn, desc = strings.TrimSpace(t[:i]), strings.TrimSpace(t[i:])
		}
		f := strings.Fields(syn)
		if len(f) < 2 || !wordRe.MatchString(f[1]) {
			continue
		}
		c := byName[f[1]]
		if c == nil {
			c = &command{name: f[1], desc: desc}
			byName[f[1]] = c
			cmds = append(cmds, c)
		}
		// Subcommands: the word after the command and every word after a "|".
		// A line like "memory profile list | create NAME" is a nested group:
		// only its first word ("profile") is a subcommand of the command.
		alts := strings.Split(strings.Join(f[2:], " "), "|")
		if first := strings.Fields(alts[0]); len(first) >= 2 && wordRe.MatchString(first[0]) && wordRe.MatchString(first[1]) {
			alts = alts[:1]
		}
		for _, alt := range alts {
			w := strings.Fields(alt)
			if len(w) > 0 && wordRe.MatchString(w[0]) && !slices.Contains(c.subs, w[0]) {
				c.subs = append(c.subs, w[0])
			}
		}
		for _, fl := range flagRe.FindAllString(syn, -1) {
			if !slices.Contains(c.flags, fl) {
				c.flags = append(c.flags, fl)
			}
		}
	}
	return cmds
}

// roff escapes text for a man page line.
func roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

func manPage(help, version string) string {
	var b strings.Builder
	lines := strings.Split(strings.TrimRight(help, "\n"), "\n")
	summary := "a private assistant that runs on this computer"
	if len(lines) > 0 {
		if _, after, ok := strings.Cut(lines[0], " — "); ok {
			summary = strings.TrimSuffix(strings.TrimSpace(after), ".")
		}
	}
	fmt.Fprintf(&b, ".TH HERMES 1 \"\" \"hermes %s\" \"User Commands\"\n", roff(version))
	fmt.Fprintf(&b, ".SH NAME\nhermes \\- %s\n", roff(summary))
	b.WriteString(".SH SYNOPSIS\n.nf\n")
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "hermes") || (strings.HasPrefix(l, "    ") && strings.TrimSpace(l) != "") {
			b.WriteString(roff(strings.TrimPrefix(l, "  ")) + "\n")
		}
	}
	b.WriteString(".fi\n")
	b.WriteString(`.SH DESCRIPTION
Hermes chats with a local Ollama model, keeps every conversation in one SQLite
file in the data directory, and sends nothing to any cloud. Without arguments it
opens the desktop window; the commands above are the same features for scripts
and terminals. Results go to standard output, progress and errors to standard
error.
.SH OPTIONS
Global flags may appear in any position.
.TP
.BI \-\-data\-dir " DIR"
the data directory (default: \fB$XDG_DATA_HOME/hermes\fR, usually \fB~/.local/share/hermes\fR)
.TP
.B \-\-json
machine\-readable output
.TP
.B \-\-yes
do not ask before destructive steps
.TP
.B \-\-version
print the version and commit
.TP
.BR help ", " \-\-help
print the usage
.SH ENVIRONMENT
.TP
.B HERMES_DATA_DIR
the data directory, as \fB\-\-data\-dir\fR
.TP
.B HERMES_ORT_LIB
the ONNX Runtime library used by the intent classifier
.TP
.B OLLAMA_HOST
the Ollama server to talk to
.SH FILES
.TP
.I ~/.local/share/hermes/hermes.db
conversations and settings; back it up by copying it while Hermes is closed
.TP
.I /usr/lib/hermes/
the ONNX Runtime library and the intent model of the installed package
.SH EXIT STATUS
0 on success, 1 on failure, 2 on bad input (with a one\-line reason).
.SH SEE ALSO
.BR ollama (1)
`)
	return b.String()
}

func bashCompletion(cmds []*command) string {
	var b strings.Builder
	b.WriteString("# bash completion for hermes (generated from `hermes help`)\n")
	b.WriteString("_hermes() {\n")
	b.WriteString("  local cur prev cmd sub i\n")
	b.WriteString("  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n")
	b.WriteString("  prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n")
	b.WriteString("  case \"$prev\" in\n    --data-dir|--out|--jsonl|--batch|--modelfile) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n  esac\n")
	b.WriteString("  cmd=\"\"; sub=\"\"\n")
	b.WriteString("  for ((i = 1; i < COMP_CWORD; i++)); do\n")
	b.WriteString("    case \"${COMP_WORDS[i]}\" in\n      --data-dir) ((i++)) ;;\n      -*) ;;\n      *) if [[ -z $cmd ]]; then cmd=\"${COMP_WORDS[i]}\"; elif [[ -z $sub ]]; then sub=\"${COMP_WORDS[i]}\"; fi ;;\n    esac\n")
	b.WriteString("  done\n")
	b.WriteString("  if [[ $cur == -* ]]; then\n    case \"$cmd\" in\n")
	for _, c := range cmds {
		if len(c.flags) > 0 {
			fmt.Fprintf(&b, "      %s) COMPREPLY=($(compgen -W \"%s %s\" -- \"$cur\")); return ;;\n", c.name, strings.Join(c.flags, " "), strings.Join(globalFlags, " "))
		}
	}
	fmt.Fprintf(&b, "      *) COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return ;;\n    esac\n  fi\n", strings.Join(globalFlags, " "))
	b.WriteString("  if [[ -z $cmd ]]; then\n")
	fmt.Fprintf(&b, "    COMPREPLY=($(compgen -W \"help %s\" -- \"$cur\")); return\n  fi\n", strings.Join(names(cmds), " "))
	b.WriteString("  if [[ -z $sub ]]; then\n    case \"$cmd\" in\n")
	for _, c := range cmds {
		if len(c.subs) > 0 {
			fmt.Fprintf(&b, "      %s) COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return ;;\n", c.name, strings.Join(c.subs, " "))
		}
	}
	b.WriteString("    esac\n  fi\n")
	b.WriteString("  COMPREPLY=($(compgen -f -- \"$cur\"))\n}\n")
	b.WriteString("complete -o filenames -F _hermes hermes\n")
	return b.String()
}

func zshCompletion(cmds []*command) string {
	var b strings.Builder
	b.WriteString("#compdef hermes\n# zsh completion for hermes (generated from `hermes help`)\n")
	b.WriteString("_hermes() {\n  local -a cmds words2\n  local i cmd sub\n")
	b.WriteString("  cmds=(\n    'help:print the usage'\n")
	for _, c := range cmds {
		d := c.desc
		if d == "" {
			d = c.name + " commands"
		}
		fmt.Fprintf(&b, "    %s\n", zshQuote(c.name+":"+d))
	}
	b.WriteString("  )\n")
	b.WriteString("  words2=()\n  for ((i = 2; i < CURRENT; i++)); do\n    case ${words[i]} in\n      --data-dir) ((i++)) ;;\n      -*) ;;\n      *) words2+=(${words[i]}) ;;\n    esac\n  done\n")
	b.WriteString("  cmd=${words2[1]}; sub=${words2[2]}\n")
	fmt.Fprintf(&b, "  if [[ ${words[CURRENT]} == -* ]]; then\n    compadd -- %s", strings.Join(globalFlags, " "))
	b.WriteString("\n    case $cmd in\n")
	for _, c := range cmds {
		if len(c.flags) > 0 {
			fmt.Fprintf(&b, "      %s) compadd -- %s ;;\n", c.name, strings.Join(c.flags, " "))
		}
	}
	b.WriteString("    esac\n    return\n  fi\n")
	b.WriteString("  if [[ ${words[CURRENT-1]} == (--data-dir|--out|--jsonl|--batch|--modelfile) ]]; then _files; return; fi\n")
	b.WriteString("  if [[ -z $cmd ]]; then _describe 'command' cmds; return; fi\n")
	b.WriteString("  if [[ -z $sub ]]; then\n    case $cmd in\n")
	for _, c := range cmds {
		if len(c.subs) > 0 {
			fmt.Fprintf(&b, "      %s) compadd -- %s; return ;;\n", c.name, strings.Join(c.subs, " "))
		}
	}
	b.WriteString("    esac\n  fi\n  _files\n}\n")
	b.WriteString("_hermes \"$@\"\n")
	return b.String()
}

func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func fishCompletion(cmds []*command) string {
	var b strings.Builder
	b.WriteString("# fish completion for hermes (generated from `hermes help`)\n")
	all := strings.Join(append([]string{"help"}, names(cmds)...), " ")
	b.WriteString("complete -c hermes -l data-dir -r -F -d 'data directory'\n")
	b.WriteString("complete -c hermes -l json -d 'machine-readable output'\n")
	b.WriteString("complete -c hermes -l yes -d 'do not ask'\n")
	b.WriteString("complete -c hermes -l version -d 'print the version'\n")
	b.WriteString("complete -c hermes -l help -d 'print the usage'\n")
	fmt.Fprintf(&b, "complete -c hermes -f -n 'not __fish_seen_subcommand_from %s' -a help -d 'print the usage'\n", all)
	for _, c := range cmds {
		d := c.desc
		if d == "" {
			d = c.name + " commands"
		}
		fmt.Fprintf(&b, "complete -c hermes -f -n 'not __fish_seen_subcommand_from %s' -a %s -d %s\n", all, c.name, fishQuote(d))
		if len(c.subs) > 0 {
			fmt.Fprintf(&b, "complete -c hermes -f -n '__fish_seen_subcommand_from %s; and not __fish_seen_subcommand_from %s' -a %s\n",
				c.name, strings.Join(c.subs, " "), fishQuote(strings.Join(c.subs, " ")))
		}
		for _, fl := range c.flags {
			if slices.Contains(globalFlags, fl) {
				continue
			}
			fmt.Fprintf(&b, "complete -c hermes -n '__fish_seen_subcommand_from %s' -l %s\n", c.name, strings.TrimPrefix(fl, "--"))
		}
	}
	return b.String()
}

func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

func names(cmds []*command) []string {
	var n []string
	for _, c := range cmds {
		n = append(n, c.name)
	}
	return n
}
