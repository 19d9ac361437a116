package agent

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/prompt"
	"hermes/backend/session"
	"hermes/backend/store"
)

type fixture struct {
	agent    *Agent
	sessions *session.Store
	fake     *llmtest.Server
}

func newFixture(t *testing.T, script func(api.ChatRequest) llmtest.Reply) fixture {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	fake := llmtest.New()
	fake.Chat = script
	srv := fake.Start()
	t.Cleanup(func() { fake.Close(); srv.Close() })
	client, err := llm.New(llm.Config{Host: srv.URL, FirstTokenTimeout: 2 * time.Second, TokenGapTimeout: 2 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sessions := session.NewStore(db)
	return fixture{agent: &Agent{LLM: modelsLLM{client}, Sessions: sessions, Prompt: prompt.NewBuilder()}, sessions: sessions, fake: fake}
}

// modelsLLM fills in the configured model, as the composition root does.
type modelsLLM struct{ c *llm.Client }

func (m modelsLLM) Chat(ctx context.Context, req llm.ChatRequest, fn func(llm.Delta) error) (llm.Reply, error) {
	if len(req.Models) == 0 {
		req.Models = []string{"llama3.2"}
	}
	return m.c.Chat(ctx, req, fn)
}

func TestTurnStreamsAndPersists(t *testing.T) {
	f := newFixture(t, llmtest.Echo(3, 0))
	ctx := context.Background()
	var deltas []string
	res, err := f.agent.Turn(ctx, Input{Text: "hello there"}, func(d llm.Delta) error { deltas = append(deltas, d.Content); return nil })
	if err != nil {
		t.Fatal(err)
	}
	want := "Echo: hello there Hermes keeps everything"
	if res.Assistant.Content != want || strings.Join(deltas, "") != want || res.Assistant.Status != session.StatusOK {
		t.Fatalf("assistant = %+v, deltas = %q", res.Assistant, deltas)
	}
	// A second turn in the same session sends the history.
	if _, err := f.agent.Turn(ctx, Input{SessionID: res.Session.ID, Text: "again"}, nil); err != nil {
		t.Fatal(err)
	}
	reqs := f.fake.ChatRequests()
	last := reqs[len(reqs)-1]
	if len(last.Messages) != 4 || last.Messages[0].Role != "system" || last.Messages[2].Content != want {
		t.Fatalf("history sent = %+v", last.Messages)
	}
	msgs, _ := f.sessions.Messages(ctx, res.Session.ID)
	if len(msgs) != 4 || msgs[0].Role != "user" || msgs[0].Intent != "unknown" {
		t.Fatalf("stored = %+v", msgs)
	}
}

func TestTurnKeepsUserMessageWhenModelFails(t *testing.T) {
	f := newFixture(t, func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Status: 500, Error: "model crashed: out of memory"}
	})
	ctx := context.Background()
	res, err := f.agent.Turn(ctx, Input{Text: "please remember this"}, nil)
	if err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Fatalf("err = %v", err)
	}
	msgs, _ := f.sessions.Messages(ctx, res.Session.ID)
	if len(msgs) != 2 || msgs[0].Content != "please remember this" || msgs[1].Status != session.StatusFailed || !strings.Contains(msgs[1].Error, "out of memory") {
		t.Fatalf("stored = %+v", msgs)
	}
}

func TestTurnKeepsPartialReplyOnCancel(t *testing.T) {
	f := newFixture(t, func(api.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Chunks: llmtest.Words("one two three four five six seven eight"), Delay: 10 * time.Millisecond}
	})
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	res, err := f.agent.Turn(ctx, Input{Text: "count"}, func(llm.Delta) error {
		if n++; n == 2 {
			cancel()
		}
		return nil
	})
	if err != nil {
		t.Fatalf("cancel is not an error: %v", err)
	}
	msgs, _ := f.sessions.Messages(context.Background(), res.Session.ID)
	if len(msgs) != 2 || msgs[1].Status != session.StatusCancelled || msgs[1].Content != "one two" {
		t.Fatalf("stored = %+v", msgs)
	}
}

func TestTurnRejectsEmptyAndUnknownSession(t *testing.T) {
	f := newFixture(t, llmtest.Echo(0, 0))
	if _, err := f.agent.Turn(context.Background(), Input{Text: "  "}, nil); !errors.Is(err, ErrEmptyMessage) {
		t.Fatalf("empty: %v", err)
	}
	if _, err := f.agent.Turn(context.Background(), Input{SessionID: "nope", Text: "hi"}, nil); !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("unknown session: %v", err)
	}
}

// gatedSessions holds the user's message's commit until released, or fails it.
type gatedSessions struct {
	*session.Store
	release chan struct{}
	fail    error
}

func (g *gatedSessions) Append(ctx context.Context, m session.Message) (session.Message, error) {
	if m.Role == "user" {
		if g.release != nil {
			<-g.release
		}
		if g.fail != nil {
			return session.Message{}, g.fail
		}
	}
	return g.Store.Append(ctx, m)
}

func TestTurnShowsNothingBeforeTheUserMessageCommits(t *testing.T) {
	f := newFixture(t, llmtest.Echo(3, 0))
	g := &gatedSessions{Store: f.sessions, release: make(chan struct{})}
	f.agent.Sessions = g
	s, err := f.sessions.Create(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	var committedAtFirstDelta = -1
	go func() {
		// The model answers at once; the commit is released only once the request is out.
		for len(f.fake.ChatRequests()) == 0 {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond)
		close(g.release)
	}()
	res, err := f.agent.Turn(context.Background(), Input{SessionID: s.ID, Text: "hello"}, func(llm.Delta) error {
		if committedAtFirstDelta < 0 {
			msgs, _ := f.sessions.Messages(context.Background(), s.ID)
			committedAtFirstDelta = len(msgs)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if committedAtFirstDelta != 1 {
		t.Fatalf("messages stored when the first delta was shown = %d, want 1 (the user's)", committedAtFirstDelta)
	}
	msgs, _ := f.sessions.Messages(context.Background(), s.ID)
	if len(msgs) != 2 || msgs[0].Role != "user" || msgs[1].Role != "assistant" || res.User.ID != msgs[0].ID || res.User.Seq != 1 {
		t.Fatalf("stored = %+v, result user = %+v", msgs, res.User)
	}
}

func TestTurnFailsWithNothingShownWhenTheUserMessageCannotBeStored(t *testing.T) {
	f := newFixture(t, llmtest.Echo(3, 0))
	f.agent.Sessions = &gatedSessions{Store: f.sessions, fail: errors.New("disk full")}
	s, err := f.sessions.Create(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	shown := 0
	res, err := f.agent.Turn(context.Background(), Input{SessionID: s.ID, Text: "hello"}, func(llm.Delta) error { shown++; return nil })
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v", err)
	}
	msgs, _ := f.sessions.Messages(context.Background(), s.ID)
	if shown != 0 || len(msgs) != 0 || res.User.ID != "" || res.Assistant.ID != "" {
		t.Fatalf("shown %d deltas, stored %+v, result %+v", shown, msgs, res)
	}
}
