package session

import (
	"context"
	"errors"
	"testing"
)

func TestChatSettingsStored(t *testing.T) {
	st, _ := newStore(t)
	ctx := context.Background()
	s, err := st.Create(ctx, "chat")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := st.ChatSettings(ctx, s.ID); err != nil || got != (ChatSettings{}) {
		t.Fatalf("a new chat has settings %+v, %v", got, err)
	}
	temp := 0.4
	want := ChatSettings{System: "You are a pirate.", Model: "qwen2.5", Temperature: &temp, NumCtx: 16384}
	if err := st.SetChatSettings(ctx, s.ID, want); err != nil {
		t.Fatal(err)
	}
	got, err := st.ChatSettings(ctx, s.ID)
	if err != nil || got.System != want.System || got.Model != want.Model || got.Temperature == nil || *got.Temperature != 0.4 || got.NumCtx != 16384 {
		t.Fatalf("settings = %+v, %v", got, err)
	}
	if err := st.SetChatSettings(ctx, s.ID, ChatSettings{System: "  x  "}); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.ChatSettings(ctx, s.ID); got.System != "x" || got.Temperature != nil || got.NumCtx != 0 {
		t.Fatalf("replaced settings = %+v", got)
	}
	if err := st.SetChatSettings(ctx, "nope", ChatSettings{}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown session: %v", err)
	}
	if _, err := st.Delete(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM session_settings`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("settings rows after delete = %d, %v", n, err)
	}
}

func TestChatSettingsValidate(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		name string
		in   ChatSettings
		ok   bool
	}{
		{"empty", ChatSettings{}, true},
		{"all set", ChatSettings{System: "hi", Model: "llama3.2:3b", Temperature: f(2), NumCtx: 512}, true},
		{"temperature zero", ChatSettings{Temperature: f(0)}, true},
		{"temperature too high", ChatSettings{Temperature: f(2.1)}, false},
		{"temperature negative", ChatSettings{Temperature: f(-0.1)}, false},
		{"context too small", ChatSettings{NumCtx: 100}, false},
		{"context too large", ChatSettings{NumCtx: 1<<20 + 1}, false},
		{"model with a space", ChatSettings{Model: "llama 3"}, false},
		{"system too long", ChatSettings{System: string(make([]byte, MaxSystemBytes+1))}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.in.Validate()
			if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrInvalid)) {
				t.Fatalf("Validate() = %v, want ok=%v", err, c.ok)
			}
		})
	}
}

func TestSystemPresets(t *testing.T) {
	st, _ := newStore(t)
	ctx := context.Background()
	ps, err := st.Presets(ctx)
	if err != nil || len(ps) != 3 || !ps[0].Builtin {
		t.Fatalf("built-in presets = %+v, %v", ps, err)
	}
	if _, err := st.SavePreset(ctx, "Pirate", "Talk like a pirate."); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SavePreset(ctx, "pirate", "Arr."); err != nil { // same name in another case replaces it
		t.Fatal(err)
	}
	p, err := st.Preset(ctx, "PIRATE")
	if err != nil || p.Name != "pirate" || p.Text != "Arr." || p.Builtin {
		t.Fatalf("preset = %+v, %v", p, err)
	}
	for _, bad := range [][2]string{{"", "text"}, {"name", " "}} {
		if _, err := st.SavePreset(ctx, bad[0], bad[1]); !errors.Is(err, ErrInvalid) {
			t.Fatalf("SavePreset(%q, %q) = %v", bad[0], bad[1], err)
		}
	}
	if err := st.DeletePreset(ctx, "Concise"); err != nil {
		t.Fatal(err)
	}
	if err := st.DeletePreset(ctx, "Concise"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("deleting twice: %v", err)
	}
	if ps, _ := st.Presets(ctx); len(ps) != 3 {
		t.Fatalf("presets = %+v", ps)
	}
}
