// Package cli is Hermes's command line: the same binary as the desktop app, for
// scripts and terminals. Results go to stdout, progress and errors to stderr; bad
// input exits non-zero with a one-line reason.
package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"hermes/app"
)

// Env is what a run of the CLI sees of the world.
type Env struct {
	Args   []string // without the program name
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	Assets fs.FS // the built frontend
	// IntentModel holds the built-in intent model files.
	IntentModel fs.FS
	Started     time.Time
	// Interrupts delivers Ctrl+C; nil means none.
	Interrupts <-chan os.Signal
	// Version is the build's version and commit ("dev" when not set).
	Version string

	rawStdout io.Writer // Stdout before termSafe (for output a script reads as stored)
}

// raw is stdout without the terminal filter.
func (e Env) raw() io.Writer {
	if e.rawStdout != nil {
		return e.rawStdout
	}
	return e.Stdout
}

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// usageError is bad input on the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// globals are the flags every command takes, in any position.
type globals struct {
	dataDir string
	json    bool
	yes     bool
}

// splitGlobals removes --data-dir, --json and --yes from args, wherever they are.
func splitGlobals(args []string) (globals, []string, error) {
	var g globals
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--json" || a == "-json":
			g.json = true
		case a == "--yes" || a == "-y":
			g.yes = true
		case a == "--data-dir" || a == "-data-dir":
			if i+1 >= len(args) {
				return g, nil, usagef("--data-dir needs a directory")
			}
			i++
			g.dataDir = args[i]
		case strings.HasPrefix(a, "--data-dir="):
			g.dataDir = strings.TrimPrefix(a, "--data-dir=")
		default:
			rest = append(rest, a)
		}
	}
	return g, rest, nil
}

const usage = `Hermes — a private assistant that runs on this computer.

Usage:
  hermes                                   open the desktop window
  hermes serve [--addr 127.0.0.1:PORT]     web UI on loopback (prints a URL with a per-run token)
  hermes --version                         the version and commit of this build
  hermes help [COMMAND]                    this text, or one command's (also: COMMAND --help)
  hermes doctor [--recover]                check Ollama, the models, the database; says how to fix each problem
  hermes chat [--session ID] [--attach FILE]... [--preset NAME|--system TEXT] [--model M] [--temperature T] [--num-ctx N]
              [--think default|on|off|low|medium|high] [--show-thinking] [TEXT]
                                           one turn (or a REPL without TEXT; /attach FILE there), streamed to stdout;
                                           the settings flags are stored as the chat's own settings; a thinking
                                           model's reasoning goes to stderr (on a terminal, or with --show-thinking)
  hermes preset list | save NAME --system TEXT | delete NAME   saved system prompts (the window's presets)
  hermes project list | create NAME [--system T] [--model M] [--knowledge C,…|none] [--memory-profile P] | show NAME
                 | move SESSION… --to NAME|--out | delete NAME --keep-chats|--delete-chats
                                           chats grouped with their own defaults (a chat's own settings win)
  hermes session list | show ID | search QUERY | export ID [--format md|json|html|pdf] [--out FILE]
  hermes session rename ID TITLE | pin ID | unpin ID | archive ID | delete ID...
  hermes session import --jsonl FILE | --from chatgpt|claude|openwebui FILE [--project P] [--dry-run]
                                           conversations from a file, all or nothing; --dry-run only counts them
  hermes session settings ID|--session ID [--system TEXT|--preset NAME] [--model M] [--temperature T] [--num-ctx N] [--think T]
                                           [--knowledge all|none|NAME,NAME]
                                           a chat's own settings ("default" clears one); without flags: show them
  hermes session context --session S --query Q --budget N | --batch FILE | --reply MESSAGE_ID | --session S --channel NAME
  hermes intent classify TEXT | --batch FILE
  hermes intent corrections list | clear    the labels you chose on the intent chip
  hermes intent train --with-corrections    retrain the intent model here, with your corrections
  hermes tools list | log [--tool T] [--status S] [--session S] [--limit N]
  hermes memory add TEXT | list | show ID | edit ID TEXT [--key K] [--value V] | forget ID... | forget --query Q [--limit N]
  hermes memory import --jsonl FILE | search QUERY [--k N] | search --batch FILE [--k N] | export [--out FILE]
  hermes memory profile list | create NAME | use NAME | rename OLD NEW | delete NAME
  hermes memory decay [--category C --half-life 30d]    (how fast facts fade; --half-life "" resets)
  hermes memory recall-log MESSAGE_ID                   (candidates kept and dropped, with scores and why)
  hermes kb add DIR [--name N] [--background] | list | status [N] | index [N] | reindex [N] | remove N
  hermes kb search QUERY [--collection N]... [--k K] | search --batch FILE [--k K] | export [--out FILE] | import FILE
                                           folders on this computer as a knowledge base the assistant cites
  hermes mcp list | tools [SERVER] | call SERVER TOOL [ARGS_JSON] | import [FILE] | approve NAME | accept NAME [TOOL]
  hermes model list | show NAME | pull NAME | import FILE.gguf --name NAME [--modelfile F]
  hermes model rm NAME... | use NAME [--embed]
  hermes agent list | enable NAME | disable NAME
  hermes workflow list | run NAME [--input JSON] | runs [--session S] | show RUN | resume RUN | cancel RUN
  hermes settings list | get KEY | set KEY VALUE
  hermes activity network                  every connection Hermes made, refused or failed to make (host, part,
                                           how many, first and last time); the setting offline_only refuses all
                                           but this computer's

Global flags (any position): --data-dir DIR (or HERMES_DATA_DIR), --json, --yes
`

// Main runs the CLI and returns the process exit code.
func Main(env Env) int {
	g, args, err := splitGlobals(env.Args)
	env.rawStdout = env.Stdout
	if !g.json {
		env.Stdout = newTermSafe(env.Stdout)
	}
	if err == nil && len(args) > 0 && (args[0] == "version" || args[0] == "--version") {
		if err = noArgs(args[0], args[1:]); err == nil {
			fmt.Fprintf(env.Stdout, "hermes %s\n", cmp.Or(env.Version, "dev"))
			return exitOK
		}
	}
	if cmd, ok := helpRequest(args); err == nil && ok {
		return printHelp(env, cmd) // before the data dir is opened: help touches nothing
	}
	if err == nil {
		err = run(g, args, env)
	}
	if err == nil {
		return exitOK
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(env.Stderr, "hermes: %s (see `hermes help`)\n", termText(err.Error()))
		return exitUsage
	}
	var ce codeError
	if errors.As(err, &ce) {
		return ce.code
	}
	fmt.Fprintf(env.Stderr, "hermes: %s\n", termText(oneLine(err)))
	return exitFail
}

// codeError ends the program with a code after the command printed its own report.
type codeError struct{ code int }

func (e codeError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

func run(g globals, args []string, env Env) error {
	dir, err := app.DataDir(g.dataDir, env.Getenv)
	if err != nil {
		return err
	}
	cmd := ""
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	if cmd == "doctor" {
		return doctor(context.Background(), g, dir, args, env)
	}
	if cmd != "" && !slices.Contains(commands, cmd) {
		return usagef("unknown command %q", cmd)
	}
	if cmd == "" && !app.DesktopLinked {
		return openWindow(env)
	}
	opts := app.Options{DataDir: dir, Getenv: env.Getenv, IntentModel: env.IntentModel}
	if cmd != "" && cmd != "serve" { // the window and web mode show it in the status bar
		opts.OnDBWait = func(waiting bool) {
			if waiting {
				fmt.Fprintln(env.Stderr, "waiting for another Hermes process (an import or forget?) to finish writing…")
			}
		}
	}
	opts.OnIndexRewrite = func() {
		fmt.Fprintln(env.Stderr, "hermes: writing the search indexes again in this version's form (once; seconds for a large history)…")
	}
	if cmd == "mcp" && len(args) >= 2 && (args[0] == "call" || args[0] == "tools" || args[0] == "accept") {
		opts.MCPOnly = []string{args[1]} // start only the server the command talks to
	}
	if cmd == "mcp" && len(args) >= 1 && (args[0] == "import" || args[0] == "approve" || args[0] == "list") {
		opts.MCPNoStart = true // read and edit the config only
	}
	if cmd == "session" && len(args) >= 1 && (args[0] == "list" || args[0] == "show" || args[0] == "search") {
		opts.ReadConversations = true // no tools, MCP, sub-agents or workflows to open
	}
	if cmd == "activity" || cmd == "kb" {
		opts.MCPNoStart = true // a list of connections makes none; the knowledge base needs no MCP server
	}
	trace := newStartTrace(env)
	opts.OnStage = trace.stage
	core, err := app.Open(context.Background(), opts)
	if err != nil {
		return err
	}
	defer trace.closing(core.Close)
	for _, r := range core.ResumedErasures() {
		fmt.Fprintf(env.Stderr, "finished an erasure that was interrupted: %s\n", r.Summary())
	}
	for _, r := range core.ErasedIncognito() {
		fmt.Fprintf(env.Stderr, "erased an incognito chat left by a Hermes that stopped: %d messages (receipt %s)\n", r.Messages, r.ID)
	}
	defer trace.stage(cmp.Or(cmd, "window"), 0)
	switch cmd {
	case "":
		return app.RunDesktop(app.NewApp(core, nil), app.DesktopOptions{
			Assets: env.Assets, Smoke: env.Getenv("HERMES_SMOKE") == "1", SmokeHold: smokeHold(env.Getenv),
			Started: started(env), Log: env.Stdout, Getenv: env.Getenv, OnStage: trace.stage,
		})
	case "serve":
		return serve(core, args, env)
	case "chat":
		return chat(core, g, args, env)
	case "preset":
		return presetCmd(core, g, args, env)
	case "project":
		return projectCmd(core, g, args, env)
	case "session":
		return sessionCmd(core, g, args, env)
	case "settings":
		return settingsCmd(core, g, args, env)
	case "intent":
		return intentCmd(core, g, args, env)
	case "tools":
		return toolsCmd(core, g, args, env)
	case "mcp":
		return mcpCmd(core, g, args, env)
	case "kb":
		return kbCmd(core, g, args, env)
	case "memory":
		return memoryCmd(core, g, args, env)
	case "model":
		return modelCmd(core, g, args, env)
	case "workflow":
		return workflowCmd(core, g, args, env)
	case "agent":
		return agentCmd(core, g, args, env)
	case "activity":
		return activityCmd(core, g, args, env)
	}
	return nil
}

func smokeHold(getenv func(string) string) time.Duration {
	if d, err := time.ParseDuration(getenv("HERMES_SMOKE_HOLD")); err == nil {
		return d
	}
	return 2 * time.Second
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
