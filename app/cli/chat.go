package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"hermes/app"
)

// chat runs one turn (TEXT) or a REPL (no TEXT):
//
//	hermes chat [--session ID] [--attach FILE]... [--preset NAME|--system TEXT]
//	            [--model M] [--temperature T] [--num-ctx N] [--think CHOICE]
//	            [--show-thinking[=false]] [TEXT]
//
// A thinking model's reasoning goes to stderr, dimmed, as it streams when
// --show-thinking is given, or by default when stderr is a terminal (never in
// scripts unless asked); the answer alone goes to stdout.
//
// --attach reads a file as the window's attach button does (the same kinds,
// limits and errors) and sends it with the message; the settings flags are
// stored as the conversation's own settings, as the window's chat settings
// dialog stores them, before the turn. Bad input (an unreadable or refused
// file, an unknown preset, a value out of range) exits 2 with nothing stored.
func chat(core *app.Core, g globals, args []string, env Env) error {
	const cmd = "chat"
	fs := newFlags(cmd)
	sessionID := fs.String("session", "", "continue this session (id or ref)")
	var attach listFlag
	fs.Var(&attach, "attach", "send this file with the message (repeatable)")
	sf := addSettingsFlags(fs)
	showThinking := fs.Bool("show-thinking", false, "print a thinking model's reasoning on stderr (default: when stderr is a terminal)")
	if err := parse(fs, args); err != nil {
		return err
	}
	text := strings.Join(fs.Args(), " ")
	if text != "" {
		core.WarmIntent()
	}
	thoughts := newThinkingOut(env.Stderr, flagGiven(fs, "show-thinking"), *showThinking)
	ctx := context.Background()
	core.SetApprover(newTermApprover(g, env))
	id := *sessionID
	if id != "" {
		s, err := core.Session(ctx, id)
		if err != nil {
			return usagef("chat: no session %q; see `hermes session list`", id)
		}
		id = s.ID
	}
	// Everything is checked before anything is stored.
	settings, err := chatSettingsOf(ctx, core, sf, id)
	if err != nil {
		return err
	}
	files, err := readAttachments(attach)
	if err != nil {
		return err
	}
	pending, err := attachFiles(ctx, core, files, env)
	if err != nil {
		return err
	}
	if settings != nil {
		if id == "" {
			s, err := core.NewSession(ctx, false)
			if err != nil {
				return err
			}
			id = s.ID
		}
		if _, err := core.SetChatSettings(ctx, id, *settings); err != nil {
			return settingsErr(cmd, id, err)
		}
	}
	turn := chatTurns{ctx: ctx, core: core, g: g, env: env, thoughts: thoughts}.run
	// Facts stated in this run are extracted before the process exits (the queue would
	// resume them next time anyway).
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		core.RunMemoryJobs(ctx)
	}()
	if text != "" {
		res, err := turn(id, app.WithDocuments(text, pending))
		if res.Session.ID != "" && !g.json {
			fmt.Fprintf(env.Stderr, "session: %s\n", res.Session.ID)
		}
		return err
	}
	return repl(core, id, pending, turn, env)
}

// chatTurns runs the turns of one chat command: each streams its reply (and
// a thinking model's reasoning) as it comes; Ctrl+C stops the reply and keeps
// what came.
type chatTurns struct {
	ctx      context.Context
	core     *app.Core
	g        globals
	env      Env
	thoughts *thinkingOut
}

func (t chatTurns) run(id, text string) (app.TurnResult, error) {
	ctx, cancel := context.WithCancel(t.ctx)
	defer cancel()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-t.env.Interrupts:
			cancel() // Ctrl+C stops this reply; the partial text is kept
		case <-stop:
		}
	}()
	res, err := t.core.Chat(ctx, app.ChatInput{SessionID: id, Text: text}, func(d app.Delta) error {
		if t.g.json {
			return nil
		}
		t.thoughts.think(d.Thinking)
		if d.Text == "" {
			return nil
		}
		t.thoughts.end()
		_, err := io.WriteString(t.env.Stdout, d.Text)
		return err
	})
	t.thoughts.end()
	if !t.g.json && res.Assistant.Content != "" {
		fmt.Fprintln(t.env.Stdout)
	}
	if res.Assistant.Status == app.MessageCancelled {
		fmt.Fprintln(t.env.Stderr, "(stopped)")
	}
	if err != nil {
		if app.IsBadInput(err) {
			return res, usagef("%v", err) // exit 2: the message itself was refused
		}
		return res, err
	}
	if t.g.json {
		printJSON(t.env.Stdout, res)
	}
	return res, nil
}

// chatSettingsOf are the chat settings the flags give (nil: none), checked
// against the chat's current ones (id, "" for a new chat).
func chatSettingsOf(ctx context.Context, core *app.Core, sf *settingsFlags, id string) (*app.ChatSettingsInput, error) {
	if !sf.given() {
		return nil, nil
	}
	cur := app.ChatSettings{}
	if id != "" {
		var err error
		if cur, err = core.ChatSettings(ctx, id); err != nil {
			return nil, settingsErr("chat", id, err)
		}
	}
	in, err := sf.input("chat", cur)
	if err != nil {
		return nil, err
	}
	if err := core.CheckChatSettings(ctx, in); err != nil {
		return nil, settingsErr("chat", id, err)
	}
	return &in, nil
}

// repl runs one turn per line until EOF; "/attach FILE" attaches a file to the
// next message (as --attach does). Read from a script (not a terminal), the run
// exits with the worst failure: 2 if a line was refused, else 1.
func repl(core *app.Core, id string, pending []app.DocumentInfo, turn func(id, text string) (app.TurnResult, error), env Env) error {
	f, isFile := env.Stdin.(*os.File)
	interactive := isFile && isTerminal(f)
	var worst error
	fail := func(err error) {
		fmt.Fprintf(env.Stderr, "hermes: %v\n", oneLine(err))
		var ue usageError
		if worst == nil || (errors.As(err, &ue) && !errors.As(worst, &ue)) {
			worst = err
		}
	}
	sc := bufio.NewScanner(env.Stdin)
	sc.Buffer(make([]byte, 64*1024), 2*app.MaxMessageBytes)
	fmt.Fprintln(env.Stderr, "Type a message and press Enter; /attach FILE sends a file with the next one; Ctrl+C stops a reply, Ctrl+D quits.")
	for {
		fmt.Fprint(env.Stderr, "> ")
		if !sc.Scan() {
			fmt.Fprintln(env.Stderr)
			if len(pending) > 0 {
				fmt.Fprintf(env.Stderr, "hermes: %d attached file(s) were not sent: no message followed\n", len(pending))
			}
			if errors.Is(sc.Err(), bufio.ErrTooLong) {
				return usagef("chat: a line is over %d KiB; the limit for a message is %d KiB", 2*app.MaxMessageBytes>>10, app.MaxMessageBytes>>10)
			}
			if sc.Err() != nil || interactive {
				return sc.Err()
			}
			return worst
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if line == "/attach" || strings.HasPrefix(line, "/attach ") {
			path := strings.TrimSpace(strings.TrimPrefix(line, "/attach"))
			if path == "" {
				fail(usagef("/attach: give a file, e.g. /attach notes.md"))
				continue
			}
			files, err := readAttachments([]string{path})
			if err == nil {
				var docs []app.DocumentInfo
				if docs, err = attachFiles(context.Background(), core, files, env); err == nil {
					pending = append(pending, docs...)
				}
			}
			if err != nil {
				fail(err)
			}
			continue
		}
		res, err := turn(id, app.WithDocuments(line, pending))
		if res.User.ID != "" { // stored with the message, or left to expire with a refused one
			pending = nil
		}
		if res.Session.ID != "" {
			id = res.Session.ID
		}
		if err != nil {
			fail(err)
		}
	}
}

// listFlag is a flag given any number of times.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// readAttachments reads the files to attach; one that cannot be read is bad
// input (exit 2).
func readAttachments(paths []string) ([]app.DocumentFile, error) {
	files := make([]app.DocumentFile, 0, len(paths))
	for _, p := range paths {
		st, err := os.Stat(p)
		if err == nil && st.IsDir() {
			err = errors.New("it is a directory")
		}
		var data []byte
		if err == nil {
			data, err = os.ReadFile(p)
		}
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, usagef("chat: cannot read %s (%v); attach a readable text, Markdown, code, CSV or PDF file, or a PNG, JPEG, WebP or GIF image", p, err)
		}
		files = append(files, app.DocumentFile{Name: filepath.Base(p), Data: data})
	}
	return files, nil
}

// attachFiles stores the files' text until the message that names them is
// sent (the window's AttachDocument); a refused file stores none (exit 2).
func attachFiles(ctx context.Context, core *app.Core, files []app.DocumentFile, env Env) ([]app.DocumentInfo, error) {
	if len(files) == 0 {
		return nil, nil
	}
	docs, err := core.AttachDocuments(ctx, files)
	if err != nil {
		if app.IsBadInput(err) {
			return nil, usagef("chat: %v", err)
		}
		return nil, err
	}
	for _, d := range docs {
		fmt.Fprintf(env.Stderr, "attached %s (%s, %d tokens)\n", d.Name, d.Kind, d.Tokens)
	}
	return docs, nil
}
