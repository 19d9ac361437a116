package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hermes/app"
)

// Check is one line of the doctor's report.
type Check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok, warn, fail
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// doctor checks every part Hermes needs and says how to fix each failure;
// `doctor --recover` copies what can be read of a damaged database into a new
// file.
func doctor(ctx context.Context, g globals, dir string, args []string, env Env) error {
	fs := newFlags("doctor")
	recoverFlag := fs.Bool("recover", false, "copy what can still be read of a damaged database into a new file beside it")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := noArgs("doctor", fs.Args()); err != nil {
		return err
	}
	if *recoverFlag {
		return recoverCmd(ctx, g, dir, env)
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	dirCheck, exists := dataDirCheck(dir)
	checks := []Check{dirCheck}
	if exists { // a data dir that cannot be written is opened too: the database check says more
		core, check := openCheck(ctx, dir, env)
		checks = append(checks, check)
		if core != nil {
			defer core.Close()
			checks = append(checks, coreChecks(ctx, core)...)
		}
	}
	checks = append(checks, tesseractCheck(ctx), windowCheck())
	return reportChecks(g, env, checks)
}

// dataDirCheck: the data dir exists (made if not: exists) and can be written.
func dataDirCheck(dir string) (c Check, exists bool) {
	if _, err := app.EnsureDataDir(dir); err != nil {
		return Check{"data dir", "fail", err.Error(), "Choose a writable directory with --data-dir or HERMES_DATA_DIR."}, false
	}
	probe, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		return Check{"data dir", "fail", fmt.Sprintf("%s is not writable: %v", dir, err), "Fix its permissions or choose another --data-dir."}, true
	}
	probe.Close()
	os.Remove(probe.Name())
	return Check{"data dir", "ok", dir, ""}, true
}

// openCheck opens the data dir (no MCP server started) and checks the
// database's integrity; the core is nil when it could not be opened.
func openCheck(ctx context.Context, dir string, env Env) (*app.Core, Check) {
	file, _ := app.EnsureDataDir(dir)
	core, err := app.Open(ctx, app.Options{DataDir: dir, Getenv: env.Getenv, IntentModel: env.IntentModel, MCPNoStart: true})
	if err != nil {
		kind, fix := app.DatabaseProblem(err, file)
		if kind == "" {
			fix = "See the message; run `hermes doctor` again once it is fixed. The file was not changed."
		}
		return nil, Check{"database", "fail", err.Error(), fix}
	}
	dc, ierr := core.CheckDatabase(ctx)
	if ierr != nil || dc.Integrity != "ok" {
		return core, Check{"database", "fail", fmt.Sprintf("%s: integrity check: %s %v", file, dc.Integrity, ierr), app.DamagedFix(file)}
	}
	return core, Check{"database", "ok", fmt.Sprintf("%s (schema %d, integrity ok)", file, dc.Schema), ""}
}

// coreChecks: the intent classifier, MCP's configuration, tools.yaml, Ollama
// and the models.
func coreChecks(ctx context.Context, core *app.Core) []Check {
	var checks []Check
	add := func(c Check) { checks = append(checks, c) }
	if im, err := core.IntentModel(); err != nil {
		problem, fix := core.IntentProblem()
		add(Check{"intent", "fail", problem, fix + " Chat still works; every message is classified as unknown."})
	} else {
		add(Check{"intent", "ok", fmt.Sprintf("classifier loaded (%d labels, threshold %.2f)", im.Labels, im.Threshold), ""})
	}
	if err := core.StartMCP(ctx); err == nil { // reads mcp.json; MCPNoStart keeps every server stopped
		add(mcpCheck(core))
	}
	if errs := core.ToolFileErrors(); len(errs) > 0 {
		add(Check{"tools.yaml", "warn", errs[0].Error(), fmt.Sprintf("%d mistake(s); the broken tools are left out. `hermes tools list` shows them all.", len(errs))})
	}
	st, err := core.Status(ctx)
	switch {
	case err != nil:
		add(Check{"ollama", "fail", err.Error(), "Check the ollama_host setting."})
	case !st.Reachable:
		add(Check{"ollama", "fail", st.Problem, st.Fix})
	default:
		managed := "not started by Hermes"
		if st.OllamaManaged { // Status asked the local Ollama supervisor
			managed = "started by Hermes; stopped when it exits"
		}
		add(Check{"ollama", "ok", fmt.Sprintf("%s, version %s (%s)", st.Host, st.Version, managed), ""})
		if st.ModelAvailable {
			add(Check{"chat model", "ok", fmt.Sprintf("%s is installed", st.Model), ""})
		} else {
			add(Check{"chat model", "fail", st.Problem, st.Fix})
		}
		add(modelsCheck(app.NewApp(core, nil)))
	}
	for _, w := range st.Warnings {
		add(Check{"warning", "warn", w.Text, ""})
	}
	return checks
}

// reportChecks prints the checks (JSON with --json); a failed one makes the
// command fail (exit 1).
func reportChecks(g globals, env Env, checks []Check) error {
	failed := 0
	for _, c := range checks {
		if c.Status == "fail" {
			failed++
		}
	}
	if g.json {
		printJSON(env.Stdout, map[string]any{"ok": failed == 0, "checks": checks})
	} else {
		for _, c := range checks {
			mark := map[string]string{"ok": "✓", "warn": "!", "fail": "✗"}[c.Status]
			fmt.Fprintf(env.Stdout, "%s %-11s %s\n", mark, c.Name, c.Detail)
			if c.Fix != "" {
				fmt.Fprintf(env.Stdout, "  %-11s → %s\n", "", c.Fix)
			}
		}
	}
	if failed > 0 {
		if !g.json {
			fmt.Fprintf(env.Stderr, "hermes: doctor found %d problem(s)\n", failed)
		}
		return codeError{exitFail}
	}
	return nil
}

// recoverCmd runs `hermes doctor --recover`.
func recoverCmd(ctx context.Context, g globals, dir string, env Env) error {
	file := filepath.Join(dir, "hermes.db")
	if _, err := os.Stat(file); err != nil {
		return usagef("doctor --recover: %s does not exist", file)
	}
	fmt.Fprintf(env.Stderr, "copying what can be read of %s…\n", file)
	rep, err := app.RecoverDatabase(ctx, file)
	if err != nil {
		return err
	}
	if g.json {
		return printJSON(env.Stdout, rep)
	}
	for _, t := range rep.Tables {
		line := fmt.Sprintf("%-22s %d rows", t.Table, t.Rows)
		if t.Failed != "" {
			line += "; rows that could not be read are left out: " + t.Failed
		}
		fmt.Fprintln(env.Stdout, line)
	}
	damaged := filepath.Join(dir, "hermes.damaged.db")
	fmt.Fprintf(env.Stdout, "recovered into %s (the damaged file was not changed). To use it, with Hermes closed:\n  mv %s %s && rm -f %s-wal %s-shm %s-check && mv %s %s\n",
		rep.Into, file, damaged, file, file, file, rep.Into, file)
	return nil
}

// modelsCheck lists the installed models with their roles, and warns when no
// embedding model is there (recall then runs on the offline embedder).
func modelsCheck(a *app.App) Check {
	models, err := a.Models.ListModelDetails()
	if err != nil {
		return Check{"models", "warn", err.Error(), ""}
	}
	var names []string
	embedder := false
	embedInstalled := ""
	for _, m := range models {
		n := m.Name
		switch {
		case m.IsChat:
			n += " (chat)"
		case m.IsEmbed:
			n += " (embeddings)"
		}
		embedder = embedder || (m.IsEmbed && m.Can("embedding"))
		if m.Can("embedding") && embedInstalled == "" {
			embedInstalled = m.Name
		}
		names = append(names, n)
	}
	detail := fmt.Sprintf("%d installed: %s", len(models), strings.Join(names, ", "))
	switch {
	case embedder:
		return Check{"models", "ok", detail, ""}
	case embedInstalled != "":
		return Check{"models", "warn", detail + "; the embedding model is not installed",
			fmt.Sprintf("Use the installed one: `hermes model use %s --embed`.", embedInstalled)}
	}
	return Check{"models", "warn", detail + "; no embedding model: memory recall runs on the offline embedder",
		"For better recall: `hermes model pull nomic-embed-text`."}
}

// mcpCheck reports mistakes in mcp.json and the servers awaiting approval.
func mcpCheck(core *app.Core) Check {
	probs, perr := core.MCPProblems()
	servers := core.MCPList()
	path := core.MCPConfigPath()
	waiting := 0
	for _, s := range servers {
		if !s.Approved {
			waiting++
		}
	}
	switch {
	case perr != nil:
		return Check{"mcp", "fail", perr.Error(), "Fix " + path + " (Claude Desktop's mcpServers format)."}
	case len(probs) > 0:
		return Check{"mcp", "warn", probs[0].Error(), fmt.Sprintf("Fix %s; %d problem(s) in all, each entry with a problem is disabled.", path, len(probs))}
	}
	return Check{"mcp", "ok", fmt.Sprintf("%d server(s) configured, %d awaiting approval (%s)", len(servers), waiting, path), ""}
}

// tesseractCheck says whether the knowledge base can read scanned PDFs and
// images: Tesseract's version and installed languages (as the parser cage
// runs it: no environment of the user's), and pdftoppm. Missing, it is a
// warning, not a failure: everything else works without it.
func tesseractCheck(ctx context.Context) Check {
	const all = "sudo apt-get install tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim poppler-utils"
	path, err := exec.LookPath("tesseract")
	if err != nil {
		return Check{"tesseract", "warn", "not installed: scanned PDFs and images cannot be read into the knowledge base", "Install it with its English and Chinese data: " + all}
	}
	run := func(arg string) ([]string, error) {
		cmd := exec.CommandContext(ctx, path, arg)
		cmd.Env = []string{"OMP_THREAD_LIMIT=1"}
		out, err := cmd.CombinedOutput() // Tesseract 4 writes these on stderr
		return strings.Split(strings.TrimSpace(string(out)), "\n"), err
	}
	version, err := run("--version")
	if err != nil {
		return Check{"tesseract", "warn", fmt.Sprintf("%s does not run: %v", path, err), "Reinstall it: " + all}
	}
	lines, err := run("--list-langs")
	if err != nil || len(lines) < 1 {
		return Check{"tesseract", "warn", fmt.Sprintf("%s --list-langs: %v", path, err), "Reinstall it: " + all}
	}
	var langs []string // after "List of available languages in …"
	for _, l := range lines[1:] {
		langs = append(langs, strings.TrimSpace(l))
	}
	detail := fmt.Sprintf("%s, languages: %s", strings.TrimSpace(version[0]), strings.Join(langs, ", "))
	var missing []string
	for lang, pkg := range map[string]string{"eng": "tesseract-ocr-eng", "chi_sim": "tesseract-ocr-chi-sim"} {
		if !slices.Contains(langs, lang) {
			missing = append(missing, pkg)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		return Check{"tesseract", "warn", detail + "; English or Chinese is missing", "sudo apt-get install " + strings.Join(missing, " ")}
	}
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		return Check{"tesseract", "warn", detail + "; pdftoppm is missing: scanned PDFs cannot be read", "sudo apt-get install poppler-utils"}
	}
	return Check{"tesseract", "ok", detail, ""}
}

// windowCheck reports the two executables: this one (with or without the
// window linked in) and the window's.
func windowCheck() Check {
	self, err := os.Executable()
	if err != nil {
		return Check{"window", "warn", err.Error(), ""}
	}
	if app.DesktopLinked {
		return Check{"window", "ok", self + " (the window is part of this executable)", ""}
	}
	exe, err := app.WindowExecutable(self)
	if err != nil {
		return Check{"window", "warn", err.Error(), "The command line and `hermes serve` work without it."}
	}
	return Check{"window", "ok", fmt.Sprintf("%s opens it (%s is the command line, without the desktop libraries)", exe, self), ""}
}
