package session

import (
	"context"
	"errors"
	"testing"
)

func ref(s string) *string { return &s }

// branchedLines is a conversation with an edited first prompt (u1, u1b) and a
// regenerated reply (a2, a2b) under the shown prompt; u1b and a2b are shown.
func branchedLines() []ImportLine {
	return []ImportLine{
		{Session: "c1", ID: "u1", Role: "user", Content: "first prompt", CreatedAt: "2024-01-01T10:00:00Z", Parent: ref(""), Alternative: true},
		{Session: "c1", ID: "a1", Role: "assistant", Content: "reply to the first prompt", CreatedAt: "2024-01-01T10:00:05Z", Parent: ref("u1")},
		{Session: "c1", ID: "u1b", Role: "user", Content: "edited prompt", CreatedAt: "2024-01-01T10:01:00Z", Parent: ref("")},
		{Session: "c1", ID: "a2", Role: "assistant", Content: "an answer", CreatedAt: "2024-01-01T10:01:05Z", Parent: ref("u1b"), Alternative: true},
		{Session: "c1", ID: "a2b", Role: "assistant", Content: "a regenerated answer", CreatedAt: "2024-01-01T10:02:00Z", Parent: ref("u1b")},
		{Session: "c1", ID: "u3", Role: "user", Content: "and then?", CreatedAt: "2024-01-01T10:03:00Z", Parent: ref("a2b")},
	}
}

// TestImportKeepsVersions: lines with parents become versions of one another,
// the shown path is the one the lines choose, the next message follows its end,
// and importing the same lines again adds nothing.
func TestImportKeepsVersions(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	res, err := st.Import(ctx, branchedLines(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Sessions != 1 || res.Messages != 6 {
		t.Fatalf("result %+v, want 1 session and 6 messages", res)
	}
	s, err := st.Get(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	all, _ := st.Messages(ctx, s.ID)
	var shown []string
	for _, m := range Visible(all) {
		shown = append(shown, m.Ref)
	}
	if got, want := join(shown), "u1b a2b u3"; got != want {
		t.Fatalf("shown %q, want %q", got, want)
	}
	ids := map[string]string{}
	for _, m := range all {
		ids[m.Ref] = m.ID
	}
	b := NewBranches(all)
	if v, at := b.Versions(ids["u1b"]); len(v) != 2 || v[0] != ids["u1"] || at != 1 {
		t.Fatalf("versions of the edited prompt %v (shown %d), want [u1 u1b] with the second shown", v, at)
	}
	if v, at := b.Versions(ids["a2b"]); len(v) != 2 || v[0] != ids["a2"] || at != 1 {
		t.Fatalf("versions of the reply %v (shown %d), want [a2 a2b] with the second shown", v, at)
	}
	if s.CreatedAt.Format("2006-01-02T15:04") != "2024-01-01T10:00" || s.UpdatedAt.Format("15:04") != "10:03" {
		t.Fatalf("dates %v .. %v, want the messages' own", s.CreatedAt, s.UpdatedAt)
	}
	next, err := st.Append(ctx, Message{SessionID: s.ID, Role: "assistant", Content: "a new reply"})
	if err != nil {
		t.Fatal(err)
	}
	if next.Parent != ids["u3"] {
		t.Fatalf("a new message follows %q, want the end of the shown path %q", next.Parent, ids["u3"])
	}
	if err := st.SelectVersion(ctx, s.ID, ids["u1"]); err != nil {
		t.Fatal(err)
	}
	all, _ = st.Messages(ctx, s.ID)
	shown = shown[:0]
	for _, m := range Visible(all) {
		shown = append(shown, m.Ref)
	}
	if got, want := join(shown), "u1 a1"; got != want {
		t.Fatalf("after choosing the first prompt, shown %q, want %q", got, want)
	}
	again, err := st.Import(ctx, branchedLines(), nil)
	if err != nil || again.Messages != 0 || again.Skipped != 6 {
		t.Fatalf("re-import: %+v, %v; want nothing added", again, err)
	}
	// A later import adds a turn under a message the first one wrote.
	more := []ImportLine{{Session: "c1", ID: "u5", Role: "user", Content: "back to the first answer", Parent: ref("a2")}}
	if res, err := st.Import(ctx, more, nil); err != nil || res.Messages != 1 {
		t.Fatalf("adding a turn: %+v, %v", res, err)
	}
	all, _ = st.Messages(ctx, s.ID)
	for _, m := range all {
		if m.Ref == "u5" && (!m.Linked || m.Parent != ids["a2"]) {
			t.Fatalf("the added turn follows %q, want a2 (%s)", m.Parent, ids["a2"])
		}
	}
}

// TestImportRefusesUnknownParent: a line that follows a message no earlier
// line gave is bad input, and nothing of the import stays.
func TestImportRefusesUnknownParent(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	lines := branchedLines()
	lines[5].Parent = ref("nowhere")
	if _, err := st.Import(ctx, lines, nil); !errors.Is(err, ErrInvalid) {
		t.Fatalf("err %v, want ErrInvalid", err)
	}
	if list, _ := st.List(ctx); len(list) != 0 {
		t.Fatalf("%d sessions left after a refused import", len(list))
	}
	if err := CheckLine(ImportLine{Session: "c", ID: "x", Role: "user", Parent: ref("x")}); err == nil {
		t.Fatal("a message that follows itself passed the check")
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}

// TestImportSkipsRepeatedLine: a message ref given twice in one new
// conversation is written once, and a title a line gives names the session
// and stays when its first turn changes.
func TestImportSkipsRepeatedLine(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	lines := []ImportLine{
		{Session: "c2", ID: "m1", Role: "user", Content: "hello", Title: "Greetings  from\nafar"},
		{Session: "c2", ID: "m1", Role: "user", Content: "hello again"},
		{Session: "c2", ID: "m2", Role: "assistant", Content: "hi"},
	}
	res, err := st.Import(ctx, lines, nil)
	if err != nil || res.Messages != 2 || res.Skipped != 1 {
		t.Fatalf("%+v, %v; want 2 messages and 1 skipped", res, err)
	}
	s, _ := st.Get(ctx, "c2")
	if s.Title != "Greetings from afar" {
		t.Fatalf("title %q, want the one the line gave", s.Title)
	}
}

// TestImportIntoProject: the conversations an import creates go into the
// project named (with its memory profile); an unknown one writes nothing.
func TestImportIntoProject(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	p, err := st.SaveProject(ctx, Project{Name: "Old chats", MemoryProfile: "work"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.ImportInto(ctx, &lineSlice{lines: branchedLines()}, "nope", nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown project: %v", err)
	}
	if list, _ := st.List(ctx); len(list) != 0 {
		t.Fatalf("%d sessions after a refused import", len(list))
	}
	if _, err := st.ImportInto(ctx, &lineSlice{lines: branchedLines()}, "old chats", nil); err != nil {
		t.Fatal(err)
	}
	ids, _ := st.ProjectChats(ctx, p.ID)
	s, _ := st.Get(ctx, "c1")
	if len(ids) != 1 || ids[0] != s.ID || s.Profile != "work" {
		t.Fatalf("project chats %v, session %s profile %q", ids, s.ID, s.Profile)
	}
}
