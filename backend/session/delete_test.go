package session

import (
	"context"
	"fmt"
	"testing"

	"hermes/backend/store/storetest"
)

// TestDeleteLeavesNoBytes writes canary words into a conversation (English and
// Chinese, in messages, the title and the summary) next to another one that
// stays, deletes it, and checks the bytes of the database, -wal and -shm
// files: the canaries are gone, the other conversation is still found.
func TestDeleteLeavesNoBytes(t *testing.T) {
	ctx := context.Background()
	for run := range 4 { // the campaign saw 4 of 4 runs leak: each must be clean
		t.Run(fmt.Sprint("run ", run), func(t *testing.T) {
			st, file := newStore(t)
			keep, _ := st.Create(ctx, "")
			st.Append(ctx, Message{SessionID: keep.ID, Role: "user", Content: "The boiler service is due in March"})
			// Canaries start with letters no other word starts with: the index
			// stores a term after the prefix it shares with the previous one, so a
			// byte search finds a term only past that prefix (checked from [2:]).
			gone, _ := st.Create(ctx, "Plans for wyvtitlegamma")
			for i := range 30 {
				st.Append(ctx, Message{SessionID: gone.ID, Role: "user", Content: fmt.Sprintf("note %d: the code is xylocanary%dalpha and 鑫淼垚犇", i, run)})
				st.Append(ctx, Message{SessionID: gone.ID, Role: "assistant", Content: "Noted: qjxreplybeta"})
			}
			if err := st.SetSummary(ctx, gone.ID, "the user keeps zkvsummarydelta", "extractive", 3); err != nil {
				t.Fatal(err)
			}
			// Later writes put the canaries' index segments under newer ones, where
			// a plain delete only records a tombstone.
			for i := range 200 {
				st.Append(ctx, Message{SessionID: keep.ID, Role: "user", Content: fmt.Sprintf("other note %d about the garden", i)})
			}
			if hits, _ := st.Search(ctx, "qjxreplybeta", 10); len(hits) == 0 {
				t.Fatal("setup: the canary is not searchable")
			}
			st.db.Checkpoint(ctx)
			canaries := []string{fmt.Sprintf("locanary%dalpha", run), "xreplybeta", "vtitlegamma", "vsummarydelta", "鑫淼垚犇"}
			for _, c := range canaries {
				if len(storetest.Holds(t, file, c)) == 0 {
					t.Fatalf("setup: canary %s not on disk", c)
				}
			}
			r, err := st.Delete(ctx, gone.ID)
			if err != nil {
				t.Fatal(err)
			}
			if r.Messages != 60 || r.LexicalMatches != 0 || !r.Checkpointed {
				t.Fatalf("receipt = %+v", r)
			}
			for _, c := range canaries {
				if files := storetest.Holds(t, file, c); len(files) > 0 {
					t.Errorf("canary %s still in %v", c, files)
				}
			}
			if hits, err := st.Search(ctx, "boiler", 10); err != nil || len(hits) != 1 {
				t.Errorf("the other conversation: %d hits, %v", len(hits), err)
			}
		})
	}
}
