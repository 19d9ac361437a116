package session

import (
	"context"
	"slices"
	"testing"
	"time"

	"hermes/backend/store/storetest"
)

func TestDocumentRefsRoundTrip(t *testing.T) {
	r := DocumentRef{ID: "d1", Name: `a "quoted" <name>&.pdf`, Kind: "pdf", Tokens: 12, Chars: 40}
	msg := "typed text\n\n" + r.Tag()
	got := DocumentRefs(msg)
	if len(got) != 1 || got[0] != r {
		t.Fatalf("refs = %+v", got)
	}
	if WithoutDocumentRefs(msg) != "typed text" {
		t.Errorf("without refs = %q", WithoutDocumentRefs(msg))
	}
	if TitleFrom(r.Tag()) != r.Name {
		t.Errorf("title = %q", TitleFrom(r.Tag()))
	}
}

func TestDocumentsStoredWithTheirMessage(t *testing.T) {
	ctx := context.Background()
	st, file := newStore(t)
	s, _ := st.Create(ctx, "")
	d, err := st.AddDocument(ctx, Document{Name: "n.txt", Kind: "text", Text: "the qwvdocumentcanary text", Chars: 26, Tokens: 7})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: "see\n\n" + DocumentRef{ID: d.ID, Name: "n.txt"}.Tag()})
	st.Append(ctx, Message{SessionID: s.ID, Role: "assistant", Content: "ok"})
	if err := st.LinkDocuments(ctx, u.ID, []string{d.ID}); err != nil {
		t.Fatal(err)
	}
	if ds, _ := st.MessageDocuments(ctx, u.ID); len(ds) != 1 || ds[0].Text != "the qwvdocumentcanary text" {
		t.Fatalf("message documents = %+v", ds)
	}

	t.Run("a deleted turn takes its documents", func(t *testing.T) {
		if _, err := st.DeleteTurn(ctx, s.ID, u.ID); err != nil {
			t.Fatal(err)
		}
		if ds, _ := st.Documents(ctx, []string{d.ID}); len(ds) != 0 {
			t.Fatalf("left: %+v", ds)
		}
	})
	t.Run("a deleted conversation leaves no bytes of them", func(t *testing.T) {
		d2, _ := st.AddDocument(ctx, Document{Name: "m.txt", Kind: "text", Text: "zqjsecondcanary words", Chars: 21, Tokens: 6})
		u2, _ := st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: DocumentRef{ID: d2.ID, Name: "m.txt"}.Tag()})
		st.LinkDocuments(ctx, u2.ID, []string{d2.ID})
		st.db.Checkpoint(ctx)
		if len(storetest.Holds(t, file, "qjsecondcanary")) == 0 {
			t.Fatal("setup: canary not on disk")
		}
		if _, err := st.Delete(ctx, s.ID); err != nil {
			t.Fatal(err)
		}
		if files := storetest.Holds(t, file, "qjsecondcanary"); len(files) > 0 {
			t.Errorf("document text still in %v", files)
		}
	})
	t.Run("pending documents expire", func(t *testing.T) {
		old, _ := st.AddDocument(ctx, Document{Name: "old.txt", Kind: "text", Text: "x", Chars: 1, Tokens: 1})
		st.Now = func() time.Time { return time.Now().Add(PendingDocumentTTL + time.Hour) }
		defer func() { st.Now = time.Now }()
		st.AddDocument(ctx, Document{Name: "new.txt", Kind: "text", Text: "y", Chars: 1, Tokens: 1})
		if ds, _ := st.Documents(ctx, []string{old.ID}); len(ds) != 0 {
			t.Errorf("a day-old pending document is kept")
		}
	})
}

// TestShownDocumentIDs: the prompt's documents follow the shown path: the
// query's first, then those of shown user messages newest first, each once;
// a version that is not chosen, a reply and another channel name none.
func TestShownDocumentIDs(t *testing.T) {
	tag := func(id string) string { return "\n\n" + DocumentRef{ID: id, Name: id + ".txt", Kind: "text"}.Tag() }
	all := []Message{
		{ID: "u1", Role: "user", Content: "first" + tag("A"), Linked: true, Parent: "", Selected: false, Seq: 1},
		{ID: "r1", Role: "assistant", Content: "reply" + tag("R"), Linked: true, Parent: "u1", Selected: true, Seq: 2},
		{ID: "u1b", Role: "user", Content: "first, edited" + tag("B"), Linked: true, Parent: "", Selected: true, Seq: 3},
		{ID: "r1b", Role: "assistant", Content: "reply b", Linked: true, Parent: "u1b", Selected: true, Seq: 4},
		{ID: "s1", Role: "user", Content: "to a helper" + tag("S"), Channel: "researcher", Seq: 5},
		{ID: "u2", Role: "user", Content: "again" + tag("B") + tag("C"), Linked: true, Parent: "r1b", Selected: true, Seq: 6},
	}
	got := ShownDocumentIDs("next"+tag("D")+tag("C"), Visible(all))
	if want := []string{"D", "C", "B"}; !slices.Equal(got, want) {
		t.Fatalf("ids = %v, want %v", got, want)
	}
	all[0].Selected, all[2].Selected = true, false // the first version chosen again
	if got := ShownDocumentIDs("next", Visible(all)); !slices.Equal(got, []string{"A"}) {
		t.Fatalf("first version: ids = %v, want [A]", got)
	}
}
