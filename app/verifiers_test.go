package app

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
	"hermes/backend/memory"
	"hermes/backend/subagent"
	"hermes/backend/workflow"
)

// A verifier configured in settings (memory_verifiers) is a real tool from
// tools.yaml, called through the tools engine: the worker's pass over the inbox
// asks it about inferred facts of its key prefix; confirmed facts become
// active, refuted ones wait with its words, facts of other keys wait for the user.
func TestVerifierFromSettingsRunsTheTool(t *testing.T) {
	var asked []string
	hr := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, value := r.URL.Query().Get("key"), r.URL.Query().Get("value")
		asked = append(asked, key+"="+value)
		w.Header().Set("Content-Type", "application/json")
		if value == "Acme" {
			fmt.Fprint(w, `{"confirmed": true}`)
			return
		}
		fmt.Fprint(w, `{"confirmed": false, "reason": "the HR record has no such floor"}`)
	}))
	defer hr.Close()

	dir := t.TempDir()
	yaml := fmt.Sprintf(`version: 1
tools:
  - name: hr_check
    description: Checks a work fact against the HR record.
    parameters:
      type: object
      properties:
        key: {type: string}
        value: {type: string}
        text: {type: string}
      required: [key, value]
    http: {method: GET, url: "%s/verify?key={{key}}&value={{value}}"}
`, hr.URL)
	if err := os.WriteFile(filepath.Join(dir, "tools.yaml"), []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	fake := llmtest.New()
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if strings.Contains(string(req.Format), `"facts"`) {
			return llmtest.Reply{Chunks: []string{`{"facts":[` +
				`{"text":"I work at Acme","key":"work.employer","value":"Acme","category":"work","scope":"lasting","asserted":"inferred","confidence":0.7},` +
				`{"text":"My desk is on floor 9","key":"work.desk","value":"9","category":"work","scope":"lasting","asserted":"inferred","confidence":0.7},` +
				`{"text":"I like green tea","key":"food.tea","value":"green tea","category":"preference","scope":"lasting","asserted":"inferred","confidence":0.7}]}`}}
		}
		return llmtest.Echo(0, 0)(req)
	}
	srv := fake.Start()
	defer func() { fake.Close(); srv.Close() }()
	core, err := Open(context.Background(), Options{DataDir: dir, Getenv: func(k string) string {
		return map[string]string{"OLLAMA_HOST": srv.URL}[k]
	}, IntentModel: os.DirFS("../models/intent")})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	a := NewApp(core, (&events{}).emit)
	if _, err := a.Settings.SetSetting("memory_verifiers", "work.=hr_check, contact.=no such tool"); err == nil {
		t.Fatal("a verifier that is not a tool name was accepted")
	}
	if _, err := a.Settings.SetSetting("memory_verifiers", "work.=hr_check"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.SendMessage("r1", "", "Please remember: I started at Acme, my desk is on floor 9, and I drink green tea every day."); err != nil {
		t.Fatal(err)
	}
	if _, err := core.RunMemoryJobs(context.Background()); err != nil {
		t.Fatal(err)
	}
	m, err := core.memoryStore()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.VerifyPending(context.Background()); err != nil {
		t.Fatal(err)
	}
	list, err := m.List(context.Background(), memory.Filter{Statuses: []memory.Status{memory.StatusActive, memory.StatusPending}})
	if err != nil {
		t.Fatal(err)
	}
	byText := map[string]memory.Memory{}
	for _, x := range list {
		byText[x.Text] = x
	}
	if got := byText["I work at Acme"]; got.Status != memory.StatusActive {
		t.Errorf("confirmed fact: %+v", got)
	}
	if got := byText["My desk is on floor 9"]; got.Status != memory.StatusPending || !strings.Contains(got.Note, "the HR record has no such floor") {
		t.Errorf("refuted fact: %+v", got)
	}
	if got := byText["I like green tea"]; got.Status != memory.StatusPending {
		t.Errorf("a fact with no verifier: %+v", got)
	}
	if strings.Join(asked, ",") != "work.employer=Acme,work.desk=9" && strings.Join(asked, ",") != "work.desk=9,work.employer=Acme" {
		t.Errorf("the tool was asked %v", asked)
	}
	// The call went through the tools engine: it is in the audit log.
	var audited int
	if err := core.db.QueryRowContext(context.Background(), `SELECT count(*) FROM tool_calls WHERE tool = 'hr_check'`).Scan(&audited); err != nil || audited != 2 {
		t.Errorf("audited calls = %d, %v", audited, err)
	}
	// A sub-agent, a workflow or a plan runs other tools of its own: never a verifier.
	for _, tool := range []string{subagent.ToolPrefix + "checker", workflow.ToolPrefix + "check", workflow.PlanTool} {
		if _, _, err := core.verifyWith(context.Background(), tool, byText["I like green tea"]); err == nil || !strings.Contains(err.Error(), "runs other tools") {
			t.Errorf("verifier %s: %v", tool, err)
		}
	}
}
