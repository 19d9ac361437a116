package config

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/store"
)

func newStore(t *testing.T, env map[string]string) *Store {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return NewStore(db.DB, func(k string) string { return env[k] })
}

func TestSettingsValidation(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name, key, value string
		wantErr          string // substring; "" means valid
		want             string // normalized value when valid
	}{
		{"host without scheme gets http and port", "ollama_host", "localhost", "", "http://localhost:11434"},
		{"host with port", "ollama_host", "127.0.0.1:9999", "", "http://127.0.0.1:9999"},
		{"bind-all host means loopback", "ollama_host", "0.0.0.0", "", "http://127.0.0.1:11434"},
		{"bad scheme", "ollama_host", "ftp://x", "ollama_host: scheme", ""},
		{"bad port", "ollama_host", "http://h:99999", "ollama_host: port", ""},
		{"empty model", "chat_model", " ", "chat_model: the model name is empty", ""},
		{"model with space", "chat_model", "llama 3", "chat_model:", ""},
		{"fallback list normalized", "fallback_models", " qwen2.5 , mistral ,", "", "qwen2.5,mistral"},
		{"fallback list may be empty", "fallback_models", "", "", ""},
		{"duration", "token_gap_timeout", "45s", "", "45s"},
		{"duration not parseable", "first_token_timeout", "soon", "first_token_timeout: \"soon\" is not a duration", ""},
		{"duration too short", "connect_timeout", "1ms", "connect_timeout: 1ms is out of range", ""},
		{"unknown key", "colour", "blue", "unknown key \"colour\"", ""},
		{"offline_only on", "offline_only", " On ", "", "true"},
		{"offline_only off", "offline_only", "0", "", "false"},
		{"offline_only not a bool", "offline_only", "maybe", "offline_only: \"maybe\" is not true or false", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := newStore(t, nil)
			err := st.Set(ctx, tc.key, tc.value)
			if tc.wantErr != "" {
				if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Set(%q, %q) = %v; want ErrInvalid containing %q", tc.key, tc.value, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Set: %v", err)
			}
			got, err := st.Get(ctx, tc.key)
			if err != nil || got != tc.want {
				t.Fatalf("Get = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestSettingsDefaultsAndPersistence(t *testing.T) {
	ctx := context.Background()
	st := newStore(t, map[string]string{"OLLAMA_HOST": "127.0.0.1:7777"})
	s, err := st.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s.OllamaHost != "http://127.0.0.1:7777" || s.ChatModel != "llama3.2" || s.TokenGapTimeout != 30*time.Second || s.OfflineOnly {
		t.Fatalf("defaults = %+v", s)
	}
	if err := st.Set(ctx, "offline_only", "true"); err != nil {
		t.Fatal(err)
	}
	if s, _ = st.Load(ctx); !s.OfflineOnly { // a change is seen at once, past the cache
		t.Fatal("offline_only set to true loads as false")
	}
	if err := st.Set(ctx, "chat_model", "qwen2.5"); err != nil {
		t.Fatal(err)
	}
	if err := st.Set(ctx, "fallback_models", "llama3.2,qwen2.5,mistral"); err != nil {
		t.Fatal(err)
	}
	// A rejected value leaves the stored one alone.
	if err := st.Set(ctx, "chat_model", ""); err == nil {
		t.Fatal("empty model accepted")
	}
	s, _ = st.Load(ctx)
	if got := strings.Join(s.Models(), ","); got != "qwen2.5,llama3.2,mistral" {
		t.Fatalf("Models() = %s", got)
	}
}

func TestDataDir(t *testing.T) {
	env := map[string]string{"HOME": "/home/u"}
	getenv := func(k string) string { return env[k] }
	cases := []struct {
		name, flag, envDir, xdg, want string
	}{
		{"flag wins", "/tmp/a", "/tmp/b", "", "/tmp/a"},
		{"env next", "", "/tmp/b", "", "/tmp/b"},
		{"xdg data home", "", "", "/x/data", "/x/data/hermes"},
		{"home fallback", "", "", "", filepath.Join("/home/u", ".local", "share", "hermes")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env[DataDirEnv], env["XDG_DATA_HOME"] = tc.envDir, tc.xdg
			got, err := DataDir(tc.flag, getenv)
			if err != nil || got != tc.want {
				t.Fatalf("DataDir = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestUpdateLosesNoConcurrentEdit: two processes (two connections to one
// database file, each with its own cached store) add entries to one setting at
// the same time; every entry of both is there at the end. Read-modify-write
// through Load and Set loses some (the read may be another's stale one).
func TestUpdateLosesNoConcurrentEdit(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hermes.db")
	open := func() *Store {
		db, err := store.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return NewStore(db.DB, func(string) string { return "" })
	}
	a, b := open(), open()
	const n = 20
	add := func(st *Store, prefix string, done chan<- error) {
		for i := range n {
			if _, err := st.Load(ctx); err != nil { // a cached read in between, as the window makes on every turn
				done <- err
				return
			}
			err := st.Update(ctx, "fallback_models", func(cur string) (string, error) {
				item := fmt.Sprintf("%s%d", prefix, i)
				if cur == "" {
					return item, nil
				}
				return cur + "," + item, nil
			})
			if err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}
	done := make(chan error, 2)
	go add(a, "a", done)
	go add(b, "b", done)
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	got, err := a.Get(ctx, "fallback_models")
	if err != nil {
		t.Fatal(err)
	}
	if items := strings.Split(got, ","); len(items) != 2*n {
		t.Fatalf("%d of %d edits kept: %s", len(items), 2*n, got)
	}
	// An error from the change writes nothing.
	refused := errors.New("no")
	if err := a.Update(ctx, "fallback_models", func(string) (string, error) { return "", refused }); !errors.Is(err, refused) {
		t.Fatalf("err = %v", err)
	}
	if again, _ := b.Get(ctx, "fallback_models"); again != got {
		t.Fatalf("a refused change wrote %q", again)
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		15 * time.Minute:               "15m",
		168 * time.Hour:                "168h",
		2*time.Minute + 30*time.Second: "2m30s",
		90 * time.Minute:               "1h30m",
		30 * time.Second:               "30s",
		1500 * time.Millisecond:        "1.5s",
		100 * time.Millisecond:         "100ms",
	} {
		got := ShortDuration(d)
		if got != want {
			t.Errorf("ShortDuration(%v) = %q, want %q", d, got, want)
		}
		if back, err := time.ParseDuration(got); err != nil || back != d {
			t.Errorf("%q reads back as %v, %v", got, back, err)
		}
	}
	// A setting shows the short form.
	st := newStore(t, nil)
	if err := st.Set(context.Background(), "idle_timeout", "900s"); err != nil {
		t.Fatal(err)
	}
	if v, _ := st.Get(context.Background(), "idle_timeout"); v != "15m" {
		t.Fatalf("idle_timeout = %q", v)
	}
}

// TestOllamaHostRules: ollama_host takes loopback, LAN and internet addresses
// (the dial checks the internet permission, ollama_allow_internet), never a
// link-local or cloud-metadata one, as MCP over HTTP.
func TestOllamaHostRules(t *testing.T) {
	for _, c := range []struct{ in, want, reason string }{
		{"192.168.1.5", "http://192.168.1.5:11434", ""},
		{"http://[::]:11434", "http://127.0.0.1:11434", ""},
		{"https://ollama.example.org", "https://ollama.example.org:11434", ""},
		{"http://169.254.169.254", "", BadHostNever},
		{"http://[fe80::1]:11434", "", BadHostNever},
		{"ftp://nas:21", "", BadScheme},
	} {
		got, err := NormalizeHost(c.in)
		var ve *ValueError
		switch {
		case c.reason == "" && (err != nil || got != c.want):
			t.Errorf("%s: %q, %v", c.in, got, err)
		case c.reason != "" && (!errors.As(err, &ve) || ve.Reason != c.reason):
			t.Errorf("%s: %q, %v; want %s", c.in, got, err, c.reason)
		}
	}
}

// A change is seen by the next Load of the same store even while other Loads
// run beside it: one that read the table before the change must not cache
// what it read (a turn then ran with the old chat model for two seconds).
func TestAChangeIsNotHiddenByALoadBesideIt(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := NewStore(db.DB, func(string) string { return "" })
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					st.Load(ctx)
				}
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	for i := range 200 {
		want := fmt.Sprintf("model%d", i)
		if err := st.Set(ctx, "chat_model", want); err != nil {
			t.Fatal(err)
		}
		if s, err := st.Load(ctx); err != nil || s.ChatModel != want {
			t.Fatalf("change %d: Load gives %q, %v; want %q", i, s.ChatModel, err, want)
		}
	}
}

// A domain setting takes its rule from the Spec the composition root gives,
// keeps its place in the list, and without one refuses every value.
func TestDomainSettings(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	bare := NewStore(db.DB, func(string) string { return "" })
	var ve *ValueError
	if err := bare.Set(ctx, "memory_verifiers", "contact.=crm"); !errors.As(err, &ve) || ve.Key != "memory_verifiers" {
		t.Fatalf("a domain setting without its rule: %v", err)
	}
	upper := Spec{Key: "memory_verifiers", Description: "upper-cased",
		Parse: func(v string) (string, error) {
			if v == "no" {
				return "", Bad(BadChoice, map[string]string{"value": v}, "not %q", v)
			}
			return strings.ToUpper(v), nil
		},
		Apply: func(s *Settings, v string) { s.MemoryVerifiers = map[string]string{"all": v} }}
	st := NewStore(db.DB, func(string) string { return "" }, upper)
	if err := st.Set(ctx, "memory_verifiers", "contact.=crm"); err != nil {
		t.Fatal(err)
	}
	if err := st.Set(ctx, "memory_verifiers", "no"); !errors.As(err, &ve) || ve.Reason != BadChoice || ve.Key != "memory_verifiers" {
		t.Fatalf("refusal: %v", err)
	}
	s, _ := st.Load(ctx)
	if s.MemoryVerifiers["all"] != "CONTACT.=CRM" {
		t.Fatalf("applied %v", s.MemoryVerifiers)
	}
	items, _ := st.List(ctx)
	for i, it := range items {
		if it.Key == "memory_verifiers" && (it.Description != "upper-cased" || items[i-1].Key != "memory_half_lives") {
			t.Fatalf("listed as %+v after %s", it, items[i-1].Key)
		}
	}
}
