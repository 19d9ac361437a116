package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"hermes/backend/llm"
)

func TestRedactArgs(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"no secrets", `{"city":"Paris","n":2}`, `{"city":"Paris","n":2}`},
		{"top-level keys", `{"password":"hunter2","api_key":"sk","apiKey":"sk","token":"t","Authorization":"Bearer x","client_secret":"s"}`,
			`{"Authorization":"[REDACTED]","apiKey":"[REDACTED]","api_key":"[REDACTED]","client_secret":"[REDACTED]","password":"[REDACTED]","token":"[REDACTED]"}`},
		{"nested objects and arrays", `{"headers":{"X-API-Key":"k","Accept":"json"},"users":[{"name":"a","passwd":"p"}]}`,
			`{"headers":{"Accept":"json","X-API-Key":"[REDACTED]"},"users":[{"name":"a","passwd":"[REDACTED]"}]}`},
		{"secret object replaced whole", `{"credentials":{"user":"u","pass":"p"}}`, `{"credentials":"[REDACTED]"}`},
		{"empty", ``, `{}`},
		{"not JSON is kept as a short string", `{"password": "oops`, `"{\"password\": \"oops"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RedactArgs(json.RawMessage(tt.in)); got != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	t.Run("huge arguments are capped", func(t *testing.T) {
		got := RedactArgs(json.RawMessage(`{"text":"` + strings.Repeat("a", 100<<10) + `"}`))
		if len(got) > maxStoredArgs+100 || !strings.Contains(got, "truncated") {
			t.Fatalf("stored %d bytes", len(got))
		}
	})
}

func TestAuditLog(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, Config{}, echoTool("echo", Annotations{ReadOnly: true}),
		&Func{ToolName: "login", ToolDescription: "Log in.", Annots: Annotations{ReadOnly: true},
			Params: json.RawMessage(`{"type":"object","properties":{"user":{"type":"string"},"password":{"type":"string"}}}`),
			Fn:     func(context.Context, json.RawMessage) (json.RawMessage, error) { return TextResult("in"), nil }})
	h.exec.NewTurn(TurnInfo{RequestID: "r1", SessionID: "s1"}).Run(ctx, call("login", `{"user":"ann","password":"hunter2"}`))
	h.clock.Advance(time.Second)
	h.exec.NewTurn(TurnInfo{RequestID: "r2", SessionID: "s1"}).Run(ctx, call("echo", `{}`))
	h.clock.Advance(time.Second)
	h.exec.NewTurn(TurnInfo{RequestID: "r3", SessionID: "s2"}).Run(ctx, call("echo", `{"text":"x"}`))
	h.exec.NewTurn(TurnInfo{RequestID: "r4"}).Run(ctx, call("echo", `{"text":"y"}`))

	t.Run("secrets never reach the log", func(t *testing.T) {
		rows := h.rows(t, AuditFilter{Tool: "login"})
		if len(rows) != 1 || strings.Contains(rows[0].Arguments, "hunter2") || rows[0].Arguments != `{"password":"[REDACTED]","user":"ann"}` {
			t.Fatalf("rows = %+v", rows)
		}
		r := rows[0]
		if r.RequestID != "r1" || r.SessionID != "s1" || r.Status != StatusOK || r.Breaker != BreakerClosed ||
			len(r.DefinitionHash) != 64 || !r.CreatedAt.Equal(newFakeClock().Now()) {
			t.Fatalf("row = %+v", r)
		}
	})
	t.Run("filters", func(t *testing.T) {
		tests := []struct {
			name string
			f    AuditFilter
			want []string // request ids, newest first
		}{
			{"all, newest first", AuditFilter{}, []string{"r4", "r3", "r2", "r1"}},
			{"by tool", AuditFilter{Tool: "echo"}, []string{"r4", "r3", "r2"}},
			{"by status", AuditFilter{Status: StatusError}, []string{"r2"}},
			{"by session", AuditFilter{SessionID: "s1"}, []string{"r2", "r1"}},
			{"by request", AuditFilter{RequestID: "r3"}, []string{"r3"}},
			{"limit", AuditFilter{Limit: 2}, []string{"r4", "r3"}},
			{"combined", AuditFilter{Tool: "echo", SessionID: "s1", Status: StatusError}, []string{"r2"}},
			{"no match", AuditFilter{Tool: "nope"}, nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var got []string
				for _, r := range h.rows(t, tt.f) {
					got = append(got, r.RequestID)
				}
				if strings.Join(got, ",") != strings.Join(tt.want, ",") {
					t.Fatalf("got %v; want %v", got, tt.want)
				}
			})
		}
		t.Run("paging", func(t *testing.T) {
			first := h.rows(t, AuditFilter{Limit: 2})
			next := h.rows(t, AuditFilter{Limit: 2, BeforeID: first[1].ID})
			if len(next) != 2 || next[0].RequestID != "r2" {
				t.Fatalf("next page = %+v", next)
			}
		})
	})
	t.Run("a row outside a session has no session", func(t *testing.T) {
		rows := h.rows(t, AuditFilter{RequestID: "r4"})
		if rows[0].SessionID != "" {
			t.Fatalf("session = %q", rows[0].SessionID)
		}
	})
}

func TestDeletingASessionErasesItsToolRows(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	log, grants := NewAuditLog(db), NewSQLGrants(db)
	now := time.Now().UTC().Format(time.RFC3339)
	if _, err := db.ExecContext(ctx, `INSERT INTO sessions(id, created_at, updated_at) VALUES ('s1', ?, ?), ('s2', ?, ?)`, now, now, now, now); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"s1", "s2", ""} {
		if err := log.Record(ctx, AuditEntry{RequestID: "r", SessionID: s, Tool: "t", Arguments: "{}", Status: StatusOK, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		if s != "" {
			if err := grants.Grant(ctx, s, "t", "h"); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := db.ExecContext(ctx, `DELETE FROM sessions WHERE id = 's1'`); err != nil {
		t.Fatal(err)
	}
	rows, _ := log.Query(ctx, AuditFilter{})
	if len(rows) != 2 || rows[0].SessionID != "" || rows[1].SessionID != "s2" {
		t.Fatalf("rows = %+v", rows)
	}
	if ok, _ := grants.Granted(ctx, "s1", "t", "h"); ok {
		t.Fatal("grant of the deleted session survived")
	}
	if ok, _ := grants.Granted(ctx, "s2", "t", "h"); !ok {
		t.Fatal("grant of another session lost")
	}
	if err := grants.Revoke(ctx, "s2"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := grants.Granted(ctx, "s2", "t", "h"); ok {
		t.Fatal("revoke did not revoke")
	}
}

func TestPrivateArgumentsAreKeptOnlyByShape(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, Config{}, &Func{ToolName: "remember", ToolDescription: "Save a memory.", Annots: Annotations{ReadOnly: true}, Private: true,
		Params: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},"k":{"type":"integer"}}}`),
		Fn: func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
			if strings.Contains(string(args), "fail") {
				return nil, errors.New("cannot save " + string(args)) // a failure that quotes its input
			}
			return json.RawMessage(`{"found":"my canary-7c1 is blue","id":"m1"}`), nil
		},
		Stored: func(json.RawMessage) json.RawMessage { return json.RawMessage(`{"id":"m1"}`) }})
	outs, _ := h.exec.NewTurn(TurnInfo{RequestID: "r1", SessionID: "s1"}).RunAll(ctx, []llm.ToolCall{
		call("remember", `{"text":"my canary-7c1 is blue","tags":["canary-7c1"],"k":3}`),
		call("remember", `{"text": not json canary-7c1`),
		call("remember", `{"text":"fail canary-7c1"}`),
	})
	want := `{"k":"[PRIVATE]","tags":["[PRIVATE]"],"text":"[PRIVATE]"}`
	if len(outs) != 3 || outs[0].StoredArgs != want || outs[1].StoredArgs != "{}" {
		t.Fatalf("outcomes = %+v", outs)
	}
	// The model gets the result and the failure; what is stored keeps neither text.
	if !strings.Contains(outs[0].Content, "canary-7c1") || outs[0].StoredContent != `{"id":"m1"}` {
		t.Fatalf("ok outcome: content %q, stored %q", outs[0].Content, outs[0].StoredContent)
	}
	if !strings.Contains(outs[2].Content, "canary-7c1") || strings.Contains(outs[2].StoredContent, "canary-7c1") ||
		outs[2].StoredError != PrivateError || outs[2].ErrorKind != KindToolError {
		t.Fatalf("failed outcome: %+v", outs[2])
	}
	// A refusal is the executor's own text: kept, so later turns know the call failed.
	if outs[1].StoredContent != outs[1].Content || outs[1].ErrorKind != KindInvalidArguments || strings.Contains(outs[1].StoredContent, "canary-7c1") {
		t.Fatalf("invalid outcome: %+v", outs[1])
	}
	rows := h.rows(t, AuditFilter{Tool: "remember"})
	for _, r := range rows {
		if strings.Contains(r.Arguments, "canary-7c1") {
			t.Fatalf("the audit log kept private text: %+v", r)
		}
	}
	if len(rows) != 3 {
		t.Fatalf("rows = %+v", rows)
	}
	for _, r := range rows {
		if strings.Contains(r.Error, "canary-7c1") || (r.Status == StatusOK && r.Arguments != want) {
			t.Fatalf("row = %+v", r)
		}
	}
}
