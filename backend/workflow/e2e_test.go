package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"hermes/backend/tools"
	"hermes/backend/tools/toolfile"
)

// resetScripts writes the password-reset example's tools as programs in dir:
// check_phone and send_sms are quick, make_captcha is slow (it records its pid
// and sleeps), verify_code fails the first time it runs (a marker file says it
// ran before). Each counts its runs in DIR/NAME.count.
func resetScripts(t testing.TB, dir string) string {
	t.Helper()
	scripts := map[string]string{
		"check_phone":  `echo "$1" >> DIR/check_phone.count; printf '{"registered": true, "phone": "%s"}\n' "$1"`,
		"send_sms":     `echo "$1" >> DIR/send_sms.count; sleep 0.3; echo '{"code": "4321"}'`,
		"make_captcha": `echo $$ > DIR/make_captcha.pid; echo x >> DIR/make_captcha.count; exec sleep 30`,
		"verify_code": `echo "$1" >> DIR/verify_code.count
if [ ! -e DIR/verify_code.ok ]; then touch DIR/verify_code.ok; echo "the code service is unavailable" >&2; exit 1; fi
echo '{"verified": true}'`,
	}
	for name, body := range scripts {
		body = "#!/bin/sh\n" + strings.ReplaceAll(body, "DIR", dir) + "\n"
		if err := os.WriteFile(filepath.Join(dir, name+".sh"), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return strings.ReplaceAll(`version: 1
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
`, "DIR", dir)
}

// ResetWorkflow is the example; retries is verify's.
func resetWorkflow(retries int) string {
	return `version: 1
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
          - {id: verify, tool: verify_code, args: {code: "{{steps.sms.result.code}}"}, retries: ` + strconv.Itoa(retries) + `, backoff: 50ms}
`
}

// commandHarness is an engine whose tools are the command tools of a tools.yaml.
func commandHarness(t *testing.T, toolsYAML string) *harness {
	t.Helper()
	h := newHarness(t)
	path := filepath.Join(t.TempDir(), toolfile.FileName)
	if err := os.WriteFile(path, []byte(toolsYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	declared, errs := toolfile.Load(path, toolfile.Options{})
	if len(errs) > 0 {
		t.Fatalf("tools.yaml: %v", errs)
	}
	if errs := toolfile.Register(h.reg, declared); len(errs) > 0 {
		t.Fatal(errs)
	}
	h.exec.Approver = tools.AllowAll{} // command tools always ask; the test says yes
	return h
}

func lines(t testing.TB, path string) []string {
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

// gone waits until the process with the pid in file has ended (and been reaped).
func gone(t testing.TB, pidFile string) bool {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(strings.Join(lines(t, pidFile), "")))
	if err != nil {
		t.Fatalf("pid file %s: %v", pidFile, err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// The password reset end to end: first ends at the quick SMS, the slow captcha's
// process is killed, and the flaky verification passes on its retry.
func TestWorkflowResetPasswordEndToEnd(t *testing.T) {
	dir := t.TempDir()
	h := commandHarness(t, resetScripts(t, dir))
	w := h.parse(resetWorkflow(1))
	start := time.Now()
	r, err := h.eng.Start(context.Background(), w, json.RawMessage(`{"phone":"+15550100"}`), StartOptions{})
	took := time.Since(start)
	if err != nil || r.Status != StatusDone {
		t.Fatalf("run = %+v, %v", r, err)
	}
	if got := stepStatuses(r); got != "check=done sms=done captcha=cancelled verify=done" {
		t.Fatalf("steps = %s", got)
	}
	if took > 5*time.Second {
		t.Fatalf("took %s: the first phase waited for the slow step", took)
	}
	if !gone(t, filepath.Join(dir, "make_captcha.pid")) {
		t.Fatal("the slow captcha process is still running")
	}
	check, _ := r.Step("check")
	verify, _ := r.Step("verify")
	if string(check.Result) != `{"registered": true, "phone": "+15550100"}` || verify.Attempts != 2 || string(verify.Result) != `{"verified": true}` {
		t.Fatalf("check = %+v, verify = %+v", check, verify)
	}
	if got := lines(t, filepath.Join(dir, "verify_code.count")); len(got) != 2 || got[0] != "4321" {
		t.Fatalf("verify ran with %v", got)
	}
}

// A failing step leaves a snapshot; resume completes without running the done
// steps again (their side effects are counted in files).
func TestWorkflowResetPasswordFailThenResume(t *testing.T) {
	dir := t.TempDir()
	h := commandHarness(t, resetScripts(t, dir))
	w := h.parse(resetWorkflow(0))
	r, err := h.eng.Start(context.Background(), w, json.RawMessage(`{"phone":"+15550100"}`), StartOptions{})
	if err != nil || r.Status != StatusFailed || stepStatuses(r) != "check=done sms=done captcha=cancelled verify=failed" {
		t.Fatalf("run = %s %+v, %v", stepStatuses(r), r, err)
	}
	if !strings.Contains(r.Error, "step verify failed") || !strings.Contains(r.Error, "the code service is unavailable") {
		t.Fatalf("error = %q", r.Error)
	}
	// the snapshot is in SQLite, as a new engine (another process) sees it
	other := New(h.db, h.exec)
	snap, err := other.Get(context.Background(), r.ID)
	if err != nil || snap.Status != StatusFailed || stepStatuses(snap) != stepStatuses(r) {
		t.Fatalf("snapshot = %+v, %v", snap, err)
	}
	r, err = other.Resume(context.Background(), r.ID, ResumeOptions{})
	if err != nil || r.Status != StatusDone || stepStatuses(r) != "check=done sms=done captcha=cancelled verify=done" {
		t.Fatalf("resume = %s %+v, %v", stepStatuses(r), r, err)
	}
	for name, want := range map[string]int{"check_phone": 1, "send_sms": 1, "make_captcha": 1, "verify_code": 2} {
		if got := len(lines(t, filepath.Join(dir, name+".count"))); got != want {
			t.Errorf("%s ran %d times, want %d", name, got, want)
		}
	}
}

// All with one failure, with real processes: the others finish, the failed one
// alone runs again on resume.
func TestWorkflowAllWithCommands(t *testing.T) {
	dir := t.TempDir()
	h := commandHarness(t, resetScripts(t, dir))
	w := h.parse(`version: 1
workflows:
  - name: fan
    description: d
    phases:
      - mode: all
        steps:
          - {id: a, tool: check_phone, args: {phone: "1"}}
          - {id: b, tool: verify_code, args: {code: "x"}}
          - {id: c, tool: send_sms, args: {phone: "2"}}
`)
	r, err := h.eng.Start(context.Background(), w, nil, StartOptions{})
	if err != nil || r.Status != StatusFailed || stepStatuses(r) != "a=done b=failed c=done" {
		t.Fatalf("run = %s, %v", stepStatuses(r), err)
	}
	r, err = h.eng.Resume(context.Background(), r.ID, ResumeOptions{})
	if err != nil || r.Status != StatusDone {
		t.Fatalf("resume = %s, %v", stepStatuses(r), err)
	}
	for name, want := range map[string]int{"check_phone": 1, "send_sms": 1, "verify_code": 2} {
		if got := len(lines(t, filepath.Join(dir, name+".count"))); got != want {
			t.Errorf("%s ran %d times, want %d", name, got, want)
		}
	}
}
