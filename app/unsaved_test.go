package app

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mattn/go-sqlite3"

	"hermes/backend/agent"
	"hermes/backend/llm/llmtest"
	"hermes/backend/session"
)

// fullDisk is the real session store whose writes of replies fail as SQLite
// fails them on a full disk, while full is set.
type fullDisk struct {
	agent.Sessions
	full atomic.Bool
}

func (f *fullDisk) Append(ctx context.Context, m session.Message) (session.Message, error) {
	if f.full.Load() && m.Role == "assistant" {
		return m, sqlite3.Error{Code: sqlite3.ErrFull}
	}
	return f.Sessions.Append(ctx, m)
}

// TestReplyKeptWhenTheDiskIsFull: a reply that streamed but could not be stored
// is said in words (data_disk_full, the folder), shown in its conversation as
// not saved, and stored before the next turn once there is room, in order.
func TestReplyKeptWhenTheDiskIsFull(t *testing.T) {
	a, core, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	disk := &fullDisk{Sessions: core.agent.Sessions}
	core.agent.Sessions = disk
	disk.full.Store(true)
	_, err := a.Chat.SendMessage("r1", "", "first question")
	if code, params := ErrorCode(err), errorParams(err); code != CodeDataDiskFull || params["dir"] == "" {
		t.Fatalf("err = %v (code %s, params %v)", err, code, params)
	}
	list, _ := a.Sessions.ListSessions()
	if len(list) != 1 {
		t.Fatalf("sessions: %+v", list)
	}
	sid := list[0].ID
	d, err := a.Sessions.LoadSession(sid)
	if err != nil || len(d.Messages) != 2 || d.Messages[1].Status != MessageUnsaved || !strings.Contains(d.Messages[1].Content, "first question") {
		t.Fatalf("shown after the failure: %+v, %v", d.Messages, err)
	}
	disk.full.Store(false) // room again
	if _, err := a.Chat.SendMessage("r2", sid, "second question"); err != nil {
		t.Fatal(err)
	}
	stored, err := core.sessions.Messages(context.Background(), sid)
	if err != nil || len(stored) != 4 {
		t.Fatalf("stored: %+v, %v", stored, err)
	}
	for i, want := range []string{"user:first", "assistant:Echo: first", "user:second", "assistant:Echo: second"} {
		role, text, _ := strings.Cut(want, ":")
		if stored[i].Role != role || !strings.HasPrefix(stored[i].Content, text) {
			t.Errorf("message %d = %s %q, want %s", i, stored[i].Role, stored[i].Content, want)
		}
	}
	if d, _ := a.Sessions.LoadSession(sid); len(d.Messages) != 4 || d.Messages[1].Status != MessageOK {
		t.Errorf("after saving: %+v", d.Messages)
	}
}

// TestDataDirDeletedUnderARunningHermes: a send after the data folder was
// deleted is refused in words that name it, not answered into a deleted file.
func TestDataDirDeletedUnderARunningHermes(t *testing.T) {
	a, core, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	if _, err := a.Chat.SendMessage("r1", "", "hello"); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(core.dataDir); err != nil {
		t.Fatal(err)
	}
	_, err := a.Chat.SendMessage("r2", "", "anyone there?")
	if code, params := ErrorCode(err), errorParams(err); code != CodeDataDirGone || !strings.Contains(params["path"], core.dataDir) {
		t.Fatalf("err = %v (code %s, params %v)", err, code, params)
	}
}

func errorParams(err error) map[string]string {
	var ue *UserError
	if errors.As(err, &ue) {
		return ue.Params
	}
	return nil
}
