package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestImportJSONL(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	in := `{"id": "n1", "text": "I am allergic to peanuts", "created_at": "2024-03-01T10:00:00Z"}
{"id": "n2", "text": "我住在成都", "created_at": "2025-01-02"}

{"id": "n3", "text": "My name is Sam", "layer": "profile"}
`
	res, err := e.s.ImportJSONL(ctx, strings.NewReader(in), ImportOptions{})
	if err != nil || res.Added != 3 {
		t.Fatalf("ImportJSONL = %+v, %v", res, err)
	}
	m, err := e.s.Get(ctx, "n1") // by ref
	if err != nil {
		t.Fatal(err)
	}
	if m.Ref != "n1" || m.Status != StatusActive || m.Origin != OriginImport || m.AssertedBy != AssertedByUser ||
		!m.CreatedAt.Equal(time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)) || !m.LastConfirmedAt.Equal(e.clock.Now()) || m.Strength != 1 {
		t.Fatalf("imported = %+v", m)
	}
	if m, _ := e.s.Get(ctx, "n2"); !m.CreatedAt.Equal(time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("date-only created_at = %v", m.CreatedAt)
	}
	if m, _ := e.s.Get(ctx, "n3"); m.Layer != LayerProfile {
		t.Errorf("layer = %s", m.Layer)
	}
	hits, err := e.s.Search(ctx, "", "peanut allergy", 3)
	if err != nil || len(hits) == 0 || hits[0].Ref != "n1" {
		t.Fatalf("search = %+v, %v", hits, err)
	}
	if rs := e.recall(Query{Text: "Can I eat peanuts?"}); len(rs) < 2 || !strings.HasPrefix(rs[1].Prompt, "from your imported notes (dated 2024-03-01)") {
		t.Fatalf("recall = %+v", rs)
	}
	t.Run("modes for an existing ref", func(t *testing.T) {
		again := `{"id": "n1", "text": "I am allergic to peanuts and cashews"}`
		cases := []struct {
			mode ImportMode
			want ImportResult
			text string
			hist int
		}{
			{ImportSkip, ImportResult{Skipped: 1}, "I am allergic to peanuts", 0},
			{ImportMerge, ImportResult{Merged: 1}, "I am allergic to peanuts and cashews", 1},
			{ImportReplace, ImportResult{Replaced: 1}, "I am allergic to peanuts and cashews", 0},
		}
		for _, tc := range cases {
			res, err := e.s.ImportJSONL(ctx, strings.NewReader(again), ImportOptions{Mode: tc.mode})
			if err != nil || res != tc.want {
				t.Fatalf("%s: %+v, %v", tc.mode, res, err)
			}
			d, err := e.s.Show(ctx, "n1")
			if err != nil || d.Memory.Text != tc.text || len(d.History) != tc.hist {
				t.Fatalf("%s: %+v, %v", tc.mode, d, err)
			}
		}
	})
}

func TestImportMalformedLine(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		in   string
		line int
	}{
		{"not JSON", `{"id": "a", "text": "ok"}` + "\n" + `{"id": "b", "text": ` + "\n", 2},
		{"missing text", `{"id": "a", "text": "ok"}` + "\n\n" + `{"id": "b"}`, 3},
		{"missing id", `{"text": "hello"}`, 1},
		{"bad date", `{"id": "a", "text": "ok"}` + "\n" + `{"id": "b", "text": "x", "created_at": "yesterday"}`, 2},
		{"bad layer", `{"id": "a", "text": "ok", "layer": "working"}`, 1},
		{"duplicate id", `{"id": "a", "text": "ok"}` + "\n" + `{"id": "a", "text": "again"}`, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			_, err := e.s.ImportJSONL(ctx, strings.NewReader(tc.in), ImportOptions{})
			var le *LineError
			if !errors.As(err, &le) || le.Line != tc.line || !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v; want line %d", err, tc.line)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("line %d", tc.line)) {
				t.Errorf("message %q does not name the line", err)
			}
			if n := len(e.list(Filter{})); n != 0 {
				t.Fatalf("half imported: %d memories", n)
			}
		})
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	a := newEnv(t, nil)
	m := a.add("I live in Berlin", func(in *AddInput) { in.Key = "home.city"; in.Value = "Berlin"; in.Category = "location" })
	a.s.Edit(ctx, m.ID, Edit{Text: "I live in Berlin-Mitte"})
	a.add("My name is Sam", func(in *AddInput) { in.Layer = LayerProfile })
	a.add("My email is sam@example.org") // pending, masked
	a.add("I play chess on Sundays", func(in *AddInput) { in.Profile = "hobbies" })
	a.observe("Remember I'm in a meeting now", facts(extracted{Text: "I am in a meeting", Key: "status", Scope: "session"}))
	var buf bytes.Buffer
	if err := a.s.Export(ctx, &buf, ""); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var head ExportHeader
	if err := json.Unmarshal([]byte(lines[0]), &head); err != nil || head.Format != ExportFormat || head.Version != ExportVersion || len(lines) != 5 {
		t.Fatalf("export = %s (%v)", buf.String(), err)
	}
	if strings.Contains(buf.String(), "sam@example.org") {
		t.Fatal("export holds unmasked data")
	}

	// What `memory export` writes, `memory import` reads; exported again, it is
	// the same file apart from the export's own time.
	b := newEnv(t, nil)
	b.clock.Advance(72 * time.Hour)
	res, err := b.s.Import(ctx, bytes.NewReader(buf.Bytes()), ImportOptions{})
	if err != nil || res.Added != 4 {
		t.Fatalf("Import = %+v, %v", res, err)
	}
	var again bytes.Buffer
	if err := b.s.Export(ctx, &again, ""); err != nil {
		t.Fatal(err)
	}
	lines2 := strings.Split(strings.TrimSpace(again.String()), "\n")
	if strings.Join(lines[1:], "\n") != strings.Join(lines2[1:], "\n") {
		t.Fatalf("the round trip changed the export:\n%s\n---\n%s", strings.Join(lines[1:], "\n"), strings.Join(lines2[1:], "\n"))
	}
	d, err := b.s.Show(ctx, m.ID) // the old id is the new ref
	if err != nil || d.Memory.Text != "I live in Berlin-Mitte" || d.Memory.Key != "home.city" || len(d.History) != 1 || d.Memory.Category != "location" {
		t.Fatalf("round trip = %+v, %v", d, err)
	}
	if ps := b.list(Filter{Statuses: []Status{StatusPending}}); len(ps) != 1 {
		t.Errorf("pending lost: %v", texts2(ps))
	}
	if hs := b.list(Filter{Profile: "hobbies"}); len(hs) != 1 {
		t.Errorf("the hobbies profile lost its memory: %v", texts2(hs))
	}

	// Version 1 documents are still read.
	v1 := `{"format": "hermes-memory", "version": 1, "memories": [{"id": "old-1", "profile": "personal", "layer": "fact", "status": "active",
  "text": "I keep bees", "category": "other", "confidence": 1, "created_at": "2025-01-02T03:04:05Z"}]}`
	if res, err := b.s.Import(ctx, strings.NewReader(v1), ImportOptions{}); err != nil || res.Added != 1 {
		t.Errorf("version 1 document: %+v, %v", res, err)
	}
	if _, err := b.s.Import(ctx, strings.NewReader("{\"format\": \"hermes-memory\", \"version\": 9}\n"), ImportOptions{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a newer export: %v", err)
	}
}
