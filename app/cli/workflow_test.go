package cli

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

// workflowFixture writes, in a new data dir, tools.yaml with command tools
// (scripts in their own dir, counting their runs in NAME.count there) and
// workflows.yaml with the password reset, a workflow to kill in the
// middle, and a broken one. It returns the data dir and the scripts dir.
func workflowFixture(t *testing.T) (dataDir, dir string) {
	t.Helper()
	dataDir, dir = t.TempDir(), t.TempDir()
	scripts := map[string]string{
		"check_phone":  `echo "$1" >> DIR/check_phone.count; printf '{"registered": true}\n'`,
		"send_sms":     `echo "$1" >> DIR/send_sms.count; sleep 0.3; echo '{"code": "4321"}'`,
		"make_captcha": `echo $$ > DIR/make_captcha.pid; echo x >> DIR/make_captcha.count; exec sleep 30`,
		"verify_code": `echo "$1" >> DIR/verify_code.count
if [ ! -e DIR/verify_code.ok ]; then touch DIR/verify_code.ok; echo "the code service is unavailable" >&2; exit 1; fi
echo '{"verified": true}'`,
		"mark":      `echo "$1" >> DIR/mark.count; echo '{"marked": true}'`,
		"slow_once": `echo x >> DIR/slow_once.count; echo $$ > DIR/slow_once.pid; if [ ! -e DIR/slow_once.fast ]; then exec sleep 60; fi; echo '{"slow": "done"}'`,
	}
	for name, body := range scripts {
		body = "#!/bin/sh\n" + strings.ReplaceAll(body, "DIR", dir) + "\n"
		if err := os.WriteFile(filepath.Join(dir, name+".sh"), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	toolsYAML := strings.ReplaceAll(`version: 1
tools:
  - name: check_phone
    description: Check that a phone number is registered.
    parameters: {type: object, properties: {phone: {type: string}}, required: [phone]}
    command: {argv: [DIR/check_phone.sh, "{{phone}}"]}
  - name: send_sms
    description: Send a code by SMS.
    parameters: {type: object, properties: {phone: {type: string}}, required: [phone]}
    command: {argv: [DIR/send_sms.sh, "{{phone}}"]}
  - name: make_captcha
    description: Make a captcha.
    parameters: {type: object}
    command: {argv: [DIR/make_captcha.sh]}
  - name: verify_code
    description: Verify the code.
    parameters: {type: object, properties: {code: {type: string}}, required: [code]}
    command: {argv: [DIR/verify_code.sh, "{{code}}"]}
  - name: mark
    description: Leave a mark.
    parameters: {type: object, properties: {label: {type: string}}, required: [label]}
    command: {argv: [DIR/mark.sh, "{{label}}"]}
  - name: slow_once
    description: Slow the first time.
    parameters: {type: object}
    command: {argv: [DIR/slow_once.sh]}
`, "DIR", dir)
	workflowsYAML := `version: 1
workflows:
  - name: reset_password
    description: Reset a password after checking the phone number.
    inputs: {type: object, properties: {phone: {type: string}}, required: [phone]}
    phases:
      - name: pre_check
        steps:
          - {id: check, tool: check_phone, args: {phone: "{{inputs.phone}}"}}
      - name: action
        mode: first
        steps:
          - {id: sms, tool: send_sms, args: {phone: "{{inputs.phone}}"}, timeout: 5s}
          - {id: captcha, tool: make_captcha, args: {}}
      - name: post_update
        steps:
          - {id: verify, tool: verify_code, args: {code: "{{steps.sms.result.code}}"}}
  - name: crashy
    description: Killed in the middle.
    phases:
      - steps:
          - {id: a, tool: mark, args: {label: a}}
          - {id: b, tool: slow_once}
          - {id: c, tool: mark, args: {label: c}}
  - name: broken
    description: Refers to a step that runs later.
    phases:
      - steps:
          - {id: x, tool: mark, args: {label: "{{steps.y.result.marked}}"}}
          - {id: y, tool: mark, args: {label: y}}
`
	if err := os.WriteFile(filepath.Join(dataDir, "tools.yaml"), []byte(toolsYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, "workflows.yaml"), []byte(workflowsYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	return dataDir, dir
}

func countLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

type cliRun struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Error  string `json:"error"`
	Steps  []struct {
		ID, Status  string
		ErrorKind   string `json:"error_kind"`
		Attempts    int
		Error       string
		Interrupted bool
	} `json:"steps"`
}

func (r cliRun) statuses() string {
	var parts []string
	for _, s := range r.Steps {
		parts = append(parts, s.ID+"="+s.Status)
	}
	return strings.Join(parts, " ")
}

func decodeRun(t *testing.T, r result) cliRun {
	t.Helper()
	var run cliRun
	if err := json.Unmarshal([]byte(r.stdout), &run); err != nil || run.ID == "" {
		t.Fatalf("not a run: %v; %+v", err, r)
	}
	return run
}

// processGone waits until the process with the pid in file has ended (a zombie counts as ended).
func processGone(t *testing.T, pidFile string) bool {
	t.Helper()
	pid, err := strconv.Atoi(strings.Join(countLines(t, pidFile), ""))
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 && strings.HasPrefix(strings.TrimSpace(string(b[i+1:])), "Z") {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func TestWorkflowCLI(t *testing.T) {
	dataDir, dir := workflowFixture(t)
	env := map[string]string{"HERMES_DATA_DIR": dataDir}

	r := runCLI(t, env, "", "workflow", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "reset_password") || !strings.Contains(r.stdout, "action[first: sms (send_sms), captcha (make_captcha)]") ||
		!strings.Contains(r.stderr, "workflows.yaml:29: workflow broken: phase #1: step x: args: {{steps.y.result.marked}}: step y runs later") {
		t.Fatalf("list: %+v", r)
	}
	r = runCLI(t, env, "", "workflow", "list", "--json")
	var list []struct{ Name, Tool string }
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil || len(list) != 2 || list[0].Tool != "workflow__reset_password" {
		t.Fatalf("list --json: %+v", r)
	}

	// bad input exits 2 with the reason
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"workflow", "run", "nope"}, `no such workflow "nope"`},
		{[]string{"workflow", "run", "broken"}, "workflows.yaml:"},
		{[]string{"workflow", "run", "reset_password", "--input", "{bad"}, "not valid JSON"},
		{[]string{"workflow", "run", "reset_password", "--input", `{"phone": 5}`}, "inputs do not match"},
		{[]string{"workflow", "run", "reset_password"}, "phone"},
		{[]string{"workflow", "show", "wr_nope"}, `there is no workflow run "wr_nope"`},
		{[]string{"workflow", "frobnicate"}, "unknown subcommand"},
		{[]string{"workflow", "show", "--all"}, "unknown flag --all"},
		{[]string{"workflow", "runs", "--bogus"}, "bogus"},
	} {
		r := runCLI(t, env, "", c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 && c.args[1] != "run" {
			t.Errorf("%v: %+v (want exit 2 and %q)", c.args, r, c.want)
		}
	}

	// the verification fails the first time: exit 1, the snapshot kept
	r = runCLI(t, env, "", "--yes", "--json", "workflow", "run", "reset_password", "--input", `{"phone": "+15550100"}`)
	run := decodeRun(t, r)
	if r.code != 1 || run.Status != "failed" || run.statuses() != "check=done sms=done captcha=cancelled verify=failed" ||
		!strings.Contains(r.stderr, "resume it with `hermes workflow resume "+run.ID+"`") ||
		!strings.Contains(r.stderr, "[1/4] pre_check/check (check_phone): done") {
		t.Fatalf("run: %+v", r)
	}
	if !processGone(t, filepath.Join(dir, "make_captcha.pid")) {
		t.Fatal("the slow captcha process survived the first phase")
	}
	first := run.ID
	r = runCLI(t, env, "", "--yes", "--json", "workflow", "resume", first)
	if run = decodeRun(t, r); r.code != 0 || run.Status != "done" || run.statuses() != "check=done sms=done captcha=cancelled verify=done" {
		t.Fatalf("resume: %+v", r)
	}
	for name, want := range map[string]int{"check_phone": 1, "send_sms": 1, "make_captcha": 1, "verify_code": 2} {
		if got := len(countLines(t, filepath.Join(dir, name+".count"))); got != want {
			t.Errorf("%s ran %d times, want %d", name, got, want)
		}
	}

	// a second run; runs --json lists them newest first
	r = runCLI(t, env, "", "--yes", "workflow", "run", "reset_password", "--input", `{"phone": "+15550101"}`)
	if r.code != 0 || !strings.Contains(r.stdout, " done") {
		t.Fatalf("second run: %+v", r)
	}
	r = runCLI(t, env, "", "workflow", "runs", "--json")
	var runs []struct {
		ID, Status string
		StepsDone  int `json:"steps_done"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &runs) != nil || len(runs) != 2 || runs[1].ID != first || runs[0].Status != "done" || runs[1].StepsDone != 3 {
		t.Fatalf("runs: %+v", r)
	}
	r = runCLI(t, env, "", "workflow", "show", first)
	if r.code != 0 || !strings.Contains(r.stdout, "verify") || !strings.Contains(r.stdout, `{"verified": true}`) {
		t.Fatalf("show: %+v", r)
	}
	for _, sub := range []string{"resume", "cancel"} {
		if r = runCLI(t, env, "", "workflow", sub, first); r.code != 2 || !strings.Contains(r.stderr, "already done") {
			t.Fatalf("%s of a done run: %+v", sub, r)
		}
	}

	// without --yes in a script, the command tools are denied: the run fails; cancel gives it up for good
	r = runCLI(t, env, "", "--json", "workflow", "run", "reset_password", "--input", `{"phone": "+15550102"}`)
	run = decodeRun(t, r)
	if r.code != 1 || run.Status != "failed" || run.Steps[0].ErrorKind != "denied_by_user" || !strings.Contains(r.stderr, "run with --yes") {
		t.Fatalf("denied: %+v", r)
	}
	r = runCLI(t, env, "", "--json", "workflow", "cancel", run.ID)
	if r.code != 0 || !strings.Contains(r.stdout, `"status": "cancelled"`) {
		t.Fatalf("cancel: %+v", r)
	}
	if r = runCLI(t, env, "", "workflow", "resume", run.ID); r.code != 2 || !strings.Contains(r.stderr, "was cancelled") {
		t.Fatalf("resume of a cancelled run: %+v", r)
	}
}

// TestWorkflowChildProcess is the child of TestWorkflowKilledAndResumed: the CLI
// in a process of its own, to be killed.
func TestWorkflowChildProcess(t *testing.T) {
	args := os.Getenv("HERMES_TEST_WORKFLOW_CHILD")
	if args == "" {
		return
	}
	os.Exit(Main(Env{Args: strings.Split(args, "\n"), Stdin: strings.NewReader(""), Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv: os.Getenv, Assets: fstest.MapFS{}, Started: time.Now(), IntentModel: os.DirFS("../../models/intent")}))
}

// kill -9 of a real process in the middle of a run, then resume.
func TestWorkflowKilledAndResumed(t *testing.T) {
	dataDir, dir := workflowFixture(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestWorkflowChildProcess$")
	cmd.Env = append(os.Environ(), "HERMES_TEST_WORKFLOW_CHILD="+strings.Join([]string{"--data-dir", dataDir, "--yes", "workflow", "run", "crashy"}, "\n"))
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	pidFile := filepath.Join(dir, "slow_once.pid")
	deadline := time.Now().Add(60 * time.Second)
	for len(countLines(t, pidFile)) == 0 {
		select {
		case err := <-done:
			t.Fatalf("the run ended before it was killed: %v\n%s", err, out.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("step b never started:\n%s", out.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-done
	if !processGone(t, pidFile) {
		t.Fatal("the step's program outlived the killed Hermes")
	}

	// the next Hermes finds the run interrupted, with step b left running
	env := map[string]string{"HERMES_DATA_DIR": dataDir}
	r := runCLI(t, env, "", "workflow", "runs", "--json")
	var runs []struct{ ID, Status string }
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &runs) != nil || len(runs) != 1 || runs[0].Status != "interrupted" {
		t.Fatalf("runs after kill: %+v\nchild: %s", r, out.String())
	}
	id := runs[0].ID
	r = runCLI(t, env, "", "--json", "workflow", "show", id)
	if run := decodeRun(t, r); run.statuses() != "a=done b=running c=pending" {
		t.Fatalf("show after kill: %s", run.statuses())
	}
	// b is not idempotent: a script must confirm
	r = runCLI(t, env, "", "workflow", "resume", id)
	if r.code != 2 || !strings.Contains(r.stderr, "resuming needs confirmation to run b again; pass --yes") {
		t.Fatalf("resume without --yes: %+v", r)
	}
	if err := os.WriteFile(filepath.Join(dir, "slow_once.fast"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, env, "", "--yes", "--json", "workflow", "resume", id)
	if run := decodeRun(t, r); r.code != 0 || run.Status != "done" || run.statuses() != "a=done b=done c=done" {
		t.Fatalf("resume: %+v", r)
	}
	if got := countLines(t, filepath.Join(dir, "mark.count")); strings.Join(got, ",") != "a,c" {
		t.Fatalf("mark ran for %v; a must not run again", got)
	}
	if got := len(countLines(t, filepath.Join(dir, "slow_once.count"))); got != 2 {
		t.Fatalf("slow_once ran %d times", got)
	}
}

// `hermes workflow cancel` in one process stops a run that another process runs:
// its step's program is stopped, the run ends cancelled, that process exits 1.
func TestWorkflowCancelFromAnotherProcess(t *testing.T) {
	dataDir, dir := workflowFixture(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestWorkflowChildProcess$")
	cmd.Env = append(os.Environ(), "HERMES_TEST_WORKFLOW_CHILD="+strings.Join([]string{"--data-dir", dataDir, "--yes", "workflow", "run", "crashy"}, "\n"))
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	pidFile := filepath.Join(dir, "slow_once.pid")
	for deadline := time.Now().Add(60 * time.Second); len(countLines(t, pidFile)) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("step b never started:\n%s", out.String())
		}
	}
	env := map[string]string{"HERMES_DATA_DIR": dataDir}
	r := runCLI(t, env, "", "workflow", "runs", "--json")
	var runs []struct{ ID, Status string }
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &runs) != nil || len(runs) != 1 || runs[0].Status != "running" {
		t.Fatalf("runs while running: %+v", r)
	}
	r = runCLI(t, env, "", "--json", "workflow", "cancel", runs[0].ID)
	if r.code != 0 || !strings.Contains(r.stdout, `"status": "cancelled"`) {
		t.Fatalf("cancel: %+v\nchild: %s", r, out.String())
	}
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("the running process ended with %v:\n%s", err, out.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the running process did not stop:\n%s", out.String())
	}
	if !processGone(t, pidFile) {
		t.Fatal("the cancelled step's program is still running")
	}
	r = runCLI(t, env, "", "--json", "workflow", "show", runs[0].ID)
	if run := decodeRun(t, r); run.Status != "cancelled" || run.statuses() != "a=done b=cancelled c=skipped" {
		t.Fatalf("after cancel: %s %s", run.Status, run.statuses())
	}
}
