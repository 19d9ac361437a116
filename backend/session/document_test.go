package session

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hermes/backend/document/documenttest"
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

// pieces are n bytes from here and there in an image's entropy-coded body
// (past the headers every JPEG of one quality shares): an image's bytes lie on
// disk in pages with their own headers between, so the blob is looked for by
// pieces that each fit in one page.
func pieces(b []byte, n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		at := 1024 + i*(len(b)-1100)/n
		out = append(out, string(b[at:at+24]))
	}
	return out
}

// onDisk counts the pieces some file of the database (db, -wal, -shm) holds.
func onDisk(t *testing.T, file string, ps []string) int {
	t.Helper()
	n := 0
	for _, p := range ps {
		if len(storetest.DirHolds(t, filepath.Dir(file), p)) > 0 {
			n++
		}
	}
	return n
}

// An image is a document with no text: its bytes, media type and size are
// stored with it, exported in both formats, counted by the erasure receipt,
// and erased with the message to the last byte on disk.
func TestImageDocuments(t *testing.T) {
	ctx := context.Background()
	st, file := newStore(t)
	s, _ := st.Create(ctx, "")
	jpg := documenttest.JPEG(documenttest.Photo(640, 480), 85)
	img := func(name string) Document {
		d, err := st.AddDocument(ctx, Document{Name: name, Kind: KindImage, Tokens: 391, Data: jpg, Mime: "image/jpeg", Width: 640, Height: 480})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	send := func(text string, ds ...Document) Message {
		c := text
		for _, d := range ds {
			c += "\n\n" + DocumentRef{ID: d.ID, Name: d.Name, Kind: d.Kind, Tokens: d.Tokens}.Tag()
		}
		u, err := st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: c})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.LinkDocuments(ctx, u.ID, DocumentIDs(c)); err != nil {
			t.Fatal(err)
		}
		st.Append(ctx, Message{SessionID: s.ID, Role: "assistant", Content: "I see a yellow disc."})
		return u
	}

	d := img("photo.jpg")
	u := send("what is this?", d)
	ds, err := st.MessageDocuments(ctx, u.ID)
	if err != nil || len(ds) != 1 || !ds[0].IsImage() || !bytes.Equal(ds[0].Data, jpg) || ds[0].Mime != "image/jpeg" || ds[0].Width != 640 || ds[0].Height != 480 || ds[0].Text != "" {
		t.Fatalf("stored image: %+v %v", ds, err)
	}
	if got, _ := st.Documents(ctx, []string{d.ID}); len(got) != 1 || !bytes.Equal(got[0].Data, jpg) {
		t.Fatalf("documents by id lose the image")
	}

	t.Run("exported with its bytes", func(t *testing.T) {
		e, err := st.ExportJSON(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		ed := e.Messages[0].Documents
		if len(ed) != 1 || !bytes.Equal(ed[0].Data, jpg) || ed[0].Mime != "image/jpeg" || ed[0].Width != 640 || ed[0].Kind != KindImage {
			t.Fatalf("json export: %+v", ed)
		}
		js, _ := json.Marshal(e)
		if !strings.Contains(string(js), `"data":"`+base64.StdEncoding.EncodeToString(jpg)+`"`) {
			t.Error("json export lacks the image as base64")
		}
		md, err := st.ExportMarkdown(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(md, "![photo.jpg](data:image/jpeg;base64,"+base64.StdEncoding.EncodeToString(jpg)+")") || strings.Contains(md, "```text\n\n```") {
			t.Errorf("markdown export lacks the inline image:\n%.400s", md)
		}
	})

	t.Run("a deleted turn leaves no byte of its image", func(t *testing.T) {
		ps := pieces(jpg, 16)
		st.db.Checkpoint(ctx)
		if n := onDisk(t, file, ps); n < 12 {
			t.Fatalf("setup: only %d of 16 pieces of the image found on disk", n)
		}
		if _, err := st.DeleteTurn(ctx, s.ID, u.ID); err != nil {
			t.Fatal(err)
		}
		st.db.Checkpoint(ctx)
		if n := onDisk(t, file, ps); n > 0 {
			t.Errorf("%d pieces of the image still on disk", n)
		}
	})

	t.Run("a deleted conversation counts and erases its images", func(t *testing.T) {
		// A re-encoded copy: other bytes than the first image's.
		jpg = documenttest.JPEG(documenttest.Photo(600, 400), 80)
		a := img("a.jpg")
		txt, _ := st.AddDocument(ctx, Document{Name: "n.txt", Kind: "text", Text: "notes", Chars: 5, Tokens: 2})
		send("two files", a, txt)
		ps := pieces(jpg, 16)
		st.db.Checkpoint(ctx)
		if n := onDisk(t, file, ps); n < 12 {
			t.Fatalf("setup: only %d of 16 pieces of the image found on disk", n)
		}
		r, err := st.Delete(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Documents != 2 || r.Images != 1 || !strings.Contains(r.Summary(), "with 2 attached files (1 images)") {
			t.Errorf("receipt = %+v: %s", r, r.Summary())
		}
		if n := onDisk(t, file, ps); n > 0 || !r.Checkpointed {
			t.Errorf("%d pieces of the image still on disk (checkpointed %v)", n, r.Checkpointed)
		}
	})
}
