package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"hermes/app"
)

// positional is the rule for commands that take no flags: an argument that
// looks like one is an error (exit 2), unless it follows "--".
func positional(cmd string, args []string) ([]string, error) {
	for i, a := range args {
		if a == "--" {
			return append(args[:i:i], args[i+1:]...), nil
		}
		if len(a) > 1 && a[0] == '-' {
			return nil, usagef("%s: unknown flag %s (put -- before an argument that starts with -)", cmd, a)
		}
	}
	return args, nil
}

// noArgs refuses arguments a command does not take (exit 2): an extra word is
// a mistake to say, not to ignore.
func noArgs(cmd string, args []string) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments, got %q", cmd, strings.Join(args, " "))
	}
	return nil
}

// orJSON is err, or v printed as JSON: a listing's first step under --json.
func orJSON(env Env, v any, err error) error {
	if err != nil {
		return err
	}
	return printJSON(env.Stdout, v)
}

func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse accepts flags before, between and after positional arguments ("--" ends flags).
func parse(fs *flag.FlagSet, args []string) error {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				continue
			}
			if i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		}
	}
	if err := fs.Parse(append(append(flags, "--"), rest...)); err != nil {
		return usagef("%s: %v", fs.Name(), err)
	}
	return nil
}

func serve(core *app.Core, args []string, env Env) error {
	fs := newFlags("serve")
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	if err := parse(fs, args); err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return usagef("serve: --addr %q is not host:port", *addr)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return usagef("serve: --addr must be a loopback address such as 127.0.0.1:8080; web mode never listens on the network")
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer ln.Close()
	a := app.NewApp(core, nil)
	web, err := app.NewWeb(a, env.Assets, ln)
	if err != nil {
		return err
	}
	web.Notices = env.Stderr // the one-time approval codes
	fmt.Fprintf(env.Stdout, "Hermes is serving on %s\n", web.URL(ln))
	mctx, stopMaintenance := context.WithCancel(context.Background())
	defer stopMaintenance()
	go core.RunMaintenance(mctx, time.Minute)
	go core.RunMemoryWorker(mctx)
	if err := core.StartMCP(mctx); err != nil {
		fmt.Fprintf(env.Stderr, "hermes: MCP servers not started: %v\n", err)
	}
	srv := &http.Server{Handler: web, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-env.Interrupts:
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		return nil
	}
}

func settingsCmd(core *app.Core, g globals, args []string, env Env) error {
	a := app.NewApp(core, nil)
	if len(args) == 0 {
		args = []string{"list"}
	}
	if i := slices.Index(args, "--"); args[0] == "set" && len(args) == 4 && (i == 1 || i == 2) {
		args = slices.Delete(slices.Clone(args), i, i+1) // set KEY -- VALUE: a value that starts with -, as other commands take it
	}
	switch {
	case args[0] == "list" && len(args) == 1:
		items, err := a.Settings.GetSettings()
		if err != nil {
			return err
		}
		if g.json {
			return printJSON(env.Stdout, items)
		}
		tw := newTable(env.Stdout)
		for _, it := range items {
			fmt.Fprintf(tw, "%s\t%s\t# %s\n", it.Key, it.Value, it.Description)
		}
		return tw.Flush()
	case args[0] == "get" && len(args) == 2:
		v, err := core.Setting(context.Background(), args[1])
		if err != nil {
			return usagef("settings get: %s", app.DescribeError(err, "", ""))
		}
		if g.json {
			return printJSON(env.Stdout, map[string]string{"key": args[1], "value": v})
		}
		fmt.Fprintln(env.Stdout, v)
		return nil
	case args[0] == "set" && len(args) == 3:
		if _, err := a.Settings.SetSetting(args[1], args[2]); err != nil {
			if app.IsBadInput(err) {
				return usagef("settings set: %v", err) // bad input: exit 2
			}
			return fmt.Errorf("settings set: %w", err) // could not store it (e.g. the database stayed locked): exit 1
		}
		v, _ := core.Setting(context.Background(), args[1])
		fmt.Fprintf(env.Stderr, "%s = %s\n", args[1], v)
		return nil
	}
	return usagef("settings: use list, get KEY or set KEY VALUE")
}
