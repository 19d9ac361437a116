package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// TestStatusAndSetupCarryNoticeCodes: each case the status bar and the setup guide
// describe comes with its code and the params the UI's words use (the English stays
// for the command line).
func TestStatusAndSetupCarryNoticeCodes(t *testing.T) {
	a, _, fake, _ := newTestApp(t, llmtest.Echo(0, 0))
	set := func(k, v string) {
		t.Helper()
		if _, err := a.Settings.SetSetting(k, v); err != nil {
			t.Fatal(err)
		}
	}
	set("chat_model", "mistral")
	st, _ := a.Settings.Status()
	if st.Code != NoticeModelNotInstalled || st.Params["model"] != "mistral" || !strings.Contains(st.Params["installed"], "llama3.2") || st.Problem == "" {
		t.Errorf("model missing: %+v", st)
	}
	if su, _ := a.Models.Setup(); su.Code != NoticeModelNotInstalled || su.Params["model"] != "mistral" || su.Step != "choose" {
		t.Errorf("setup, model missing: %+v", su)
	}
	fake.Models = nil
	if st, _ = a.Settings.Status(); st.Code != NoticeNoModels || st.Params["model"] != "mistral" {
		t.Errorf("no models: %+v", st)
	}
	if su, _ := a.Models.Setup(); su.Code != NoticeNoChatModel || su.Step != "pull" {
		t.Errorf("setup, no models: %+v", su)
	}

	// Nothing answers at a loopback host: what the supervisor found decides the code.
	host := closedHost(t)
	set("manage_ollama", "never")
	set("ollama_host", host)
	dir := t.TempDir()
	notProgram := filepath.Join(dir, "notes.txt")
	standIn := filepath.Join(dir, "ollama")
	if err := os.WriteFile(notProgram, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(standIn, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path, manage, code, param, want string
	}{
		{notProgram, "never", NoticeOllamaPathBad, "path", notProgram},
		{standIn, "never", NoticeOllamaManual, "binary", standIn},
		{standIn, "auto", NoticeOllamaStopped, "binary", standIn}, // the stand-in exits at once
	}
	for _, tc := range cases {
		set("manage_ollama", tc.manage)
		if err := a.core.settings.Set(t.Context(), "ollama_path", tc.path); err != nil { // SetSetting asks for the terminal's code
			t.Fatal(err)
		}
		st, _ := a.Settings.Status()
		if st.Reachable || st.Code != tc.code || st.Params[tc.param] != tc.want || st.Params["host"] != host || st.Problem == "" || st.Fix == "" {
			t.Errorf("%s/%s: status %+v", tc.path, tc.manage, st)
		}
		su, _ := a.Models.Setup()
		if su.Code != tc.code || su.Params[tc.param] != tc.want || su.Problem == "" {
			t.Errorf("%s/%s: setup %+v", tc.path, tc.manage, su)
		}
	}
}

// TestNoticeCodesAreWordedByTheUI: every notice code the backend can send is one the
// UI has words for (frontend/src/lib/notices.ts); a code missing there would show English.
func TestNoticeCodesAreWordedByTheUI(t *testing.T) {
	src, err := os.ReadFile("notice.go")
	if err != nil {
		t.Fatal(err)
	}
	ui, err := os.ReadFile("../frontend/src/lib/notices.ts")
	if err != nil {
		t.Fatal(err)
	}
	llmCodes := map[string]string{"WarnNotLoopback": llm.WarnNotLoopback, "WarnOldVersion": llm.WarnOldVersion}
	n := 0
	for _, m := range regexp.MustCompile(`(?m)^\s*Notice\w+\s*=\s*(?:"([a-z_]+)"|llm\.(\w+))`).FindAllSubmatch(src, -1) {
		code := string(m[1])
		if code == "" {
			code = llmCodes[string(m[2])]
		}
		if code == "" {
			t.Fatalf("cannot read the code of %s", m[0])
		}
		n++
		if !strings.Contains(string(ui), "'"+code+"'") {
			t.Errorf("notice code %s is not in notices.ts", code)
		}
	}
	if n < 16 {
		t.Fatalf("read %d codes from notice.go", n)
	}
}

// TestRecommendationsAreWordedByTheUI: the UI has words in its dictionaries for why
// each recommended model suits ("models.rec.<name>", both languages), and the English
// there is the backend's own.
func TestRecommendationsAreWordedByTheUI(t *testing.T) {
	ui := uiDictionaries(t)
	for _, r := range recommendations {
		key := "'models.rec." + r.Name + "': "
		if n := strings.Count(string(ui), key); n != 2 {
			t.Errorf("%s is in the dictionaries %d times, want 2 (English and Chinese)", key, n)
		}
		if !strings.Contains(string(ui), key+"'"+r.Why+"'") {
			t.Errorf("the English for %s is not the backend's %q", r.Name, r.Why)
		}
	}
}

// TestSettingRefusalsAreWordedByTheUI: every reason a setting's value is refused for
// (config.Bad*) has its words in both of the UI's dictionaries, and SetSetting sends
// the setting, the reason and the value with the code.
func TestSettingRefusalsAreWordedByTheUI(t *testing.T) {
	wordedByUI(t, "../backend/config/settings.go", `(?m)^\s*Bad\w+\s*=\s*"([a-z_]+)"`, "err.bad_setting.", 10)
	wordedByUI(t, "../backend/memory/decay/decay.go", `(?m)^\s*Refused\w+\s*=\s*"([a-z_]+)"`, "err.bad_setting.", 4)
	a, _, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	for _, tc := range []struct{ key, value, reason, param string }{
		{"first_token_timeout", "120", "not_duration", "120"},
		{"context_window", "99", "whole_range", "99"},
		{"manage_ollama", "sometimes", "not_choice", "sometimes"},
		{"idle_timeout", "soon", "not_duration", "soon"},
		{"idle_timeout", "10s", "duration_range", "10s"},
		{"memory_half_lives", "health=90d,food=3d", "not_category", "food"},
		{"memory_half_lives", "health:90d", "not_half_life_pair", "health:90d"},
		{"memory_half_lives", "health=soon", "not_half_life", "soon"},
		{"memory_half_lives", "health=99999w", "half_life_range", "99999w"},
		{"memory_verifiers", "contact.=crm lookup", "not_tool_name", "crm lookup"},
		{"memory_verifiers", "contact.", "not_verifier_pair", "contact."},
		{"memory_verifiers", "work.=a,work.=b", "prefix_twice", "work."},
		{"memory_verifiers", manyVerifiers(51), "too_many", ""},
	} {
		_, err := a.Settings.SetSetting(tc.key, tc.value)
		b := errorBody(err)
		if b.Code != CodeBadSetting || b.Params["key"] != tc.key || b.Params["reason"] != tc.reason || b.Params["value"] != tc.param || !IsBadInput(err) ||
			tc.reason == "too_many" && (b.Params["count"] != "51" || b.Params["max"] != "50") {
			t.Errorf("%s=%s: %+v", tc.key, tc.value, b)
		}
	}
	// A model checked against the installed ones.
	_, err := a.Models.UseModel("nomic-embed-text", false)
	if b := errorBody(err); b.Code != CodeBadSetting || b.Params["reason"] != "not_chat_model" || b.Params["value"] != "nomic-embed-text" || b.Params["key"] != "chat_model" {
		t.Errorf("an embedder as the chat model: %+v", b)
	}
	_, err = a.Models.UseModel("mistral", false)
	if b := errorBody(err); b.Params["reason"] != "model_not_installed" || !strings.Contains(b.Params["installed"], "llama3.2") {
		t.Errorf("a model not installed: %+v", b)
	}
	// The memory panel's half-life editor writes memory_half_lives: refused alike.
	_, err = a.Memory.SetMemoryHalfLife("health", "3 months")
	if b := errorBody(err); b.Code != CodeBadSetting || b.Params["key"] != "memory_half_lives" || b.Params["reason"] != "not_half_life" ||
		b.Params["value"] != "3 months" || b.Params["category"] != "health" || !strings.Contains(b.Error, `"3 months" is not a half-life`) {
		t.Errorf("a half-life that does not parse: %+v", b)
	}
	_, err = a.Memory.SetMemoryHalfLife("mood", "3d")
	if b := errorBody(err); b.Code != CodeBadSetting || b.Params["reason"] != "not_category" || b.Params["value"] != "mood" || !strings.Contains(b.Params["choices"], "health") {
		t.Errorf("an unknown category: %+v", b)
	}
}

// TestToolErrorKindsAreWordedByTheUI: every kind a tool call can fail with
// (tools.Kind*) has its words in both of the UI's dictionaries.
func TestToolErrorKindsAreWordedByTheUI(t *testing.T) {
	wordedByUI(t, "../backend/tools/outcome.go", `(?m)^\s*Kind\w+\s*=\s*"([a-z_]+)"`, "tool.kind.", 10)
}

// wordedByUI checks that every value pattern reads from the Go file src (its
// first group; at least atLeast of them) has words in both of the UI's
// dictionaries under prefix.
func wordedByUI(t *testing.T, src, pattern, prefix string, atLeast int) {
	t.Helper()
	code, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	ui := uiDictionaries(t)
	values := regexp.MustCompile(pattern).FindAllSubmatch(code, -1)
	if len(values) < atLeast {
		t.Fatalf("read %d values from %s", len(values), src)
	}
	for _, m := range values {
		if n := strings.Count(string(ui), "'"+prefix+string(m[1])+"'"); n != 2 {
			t.Errorf("%s%s is in the dictionaries %d times, want 2 (English and Chinese)", prefix, m[1], n)
		}
	}
}

// manyVerifiers is a memory_verifiers value with n distinct prefixes.
func manyVerifiers(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("k%d.=check", i)
	}
	return strings.Join(parts, ",")
}

// TestNetworkReasonsAreWordedByTheUI: every reason a connection is refused or
// fails for (egress.Reason*, egress.Fail*) has its words in both of the UI's
// dictionaries (the Network tab of the activity panel).
func TestNetworkReasonsAreWordedByTheUI(t *testing.T) {
	wordedByUI(t, "../backend/egress/refused.go", `(?m)^\s*Reason\w+\s*=\s*"([a-z_]+)"`, "network.reason.", 4)
	wordedByUI(t, "../backend/egress/attempt.go", `(?m)^\s*Fail\w+\s*=\s*"([a-z_]+)"`, "network.reason.", 7)
}

// uiDictionaries is the UI's two dictionaries (frontend/src/lib/i18n), English
// then Chinese, as one text.
func uiDictionaries(t *testing.T) []byte {
	t.Helper()
	var out []byte
	for _, f := range []string{"en.ts", "zh.ts"} {
		b, err := os.ReadFile("../frontend/src/lib/i18n/" + f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
	}
	return out
}

// TestStatusDoesNotWaitForTheClassifier: the window's first Status (which ends
// its start) does not load ONNX Runtime; it starts the load, and a later Status
// tells what the load found (here: no library at HERMES_ORT_LIB).
func TestStatusDoesNotWaitForTheClassifier(t *testing.T) {
	fake := llmtest.New()
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	env := map[string]string{"OLLAMA_HOST": srv.URL, "HERMES_ORT_LIB": filepath.Join(t.TempDir(), "libonnxruntime.so.1")}
	core, err := Open(context.Background(), Options{DataDir: t.TempDir(), Getenv: func(k string) string { return env[k] },
		IntentModel: os.DirFS("../models/intent")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	a := NewApp(core, nil)
	st, err := a.Settings.Status()
	if err != nil || st.IntentCode != "" || !st.Reachable {
		t.Fatalf("first status: %+v, %v; want Ollama's, with no intent notice yet", st, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for st.IntentCode == "" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		st, _ = a.Settings.Status()
	}
	if st.IntentCode != NoticeIntentNoLibrary || st.IntentProblem == "" {
		t.Fatalf("later status: %+v; want the missing library told", st)
	}
	if problem, _ := core.IntentProblem(); problem != st.IntentProblem {
		t.Errorf("IntentProblem %q, Status %q", problem, st.IntentProblem)
	}
}
