package app

import (
	"context"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// extractionReply answers the memory extraction request (structured output) with one fact.
func extractionReply(req api.ChatRequest) (llmtest.Reply, bool) {
	if !strings.Contains(string(req.Format), `"facts"`) {
		return llmtest.Reply{}, false
	}
	return llmtest.Reply{Chunks: []string{`{"facts":[{"text":"I am allergic to peanuts","key":"allergy.peanuts","value":"peanuts",`,
		`"category":"health","scope":"lasting","asserted":"stated","confidence":0.95}]}`}}, true
}

// rememberPeanuts is an app whose model echoes and extracts one fact, after a turn
// that stated it and the memory job that kept it.
func rememberPeanuts(t *testing.T) (*App, *Core, *llmtest.Server, *events, TurnResult) {
	t.Helper()
	a, core, fake, ev := newTestApp(t, nil)
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if r, ok := extractionReply(req); ok {
			return r
		}
		return llmtest.Echo(0, 0)(req)
	}
	res, err := a.Chat.SendMessage("r1", "", "Please remember that I'm allergic to peanuts.")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := core.RunMemoryJobs(context.Background()); err != nil || n == 0 {
		t.Fatalf("jobs = %d, %v", n, err)
	}
	return a, core, fake, ev, res
}

func TestRememberThenRecallWithSource(t *testing.T) {
	a, _, fake, ev, res := rememberPeanuts(t)
	list, err := a.Memory.MemoryList(MemoryFilter{Statuses: []string{"active"}})
	if err != nil || len(list) != 1 || list[0].Text != "I am allergic to peanuts" || list[0].SourceMessageIDs[0] != res.User.ID {
		t.Fatalf("memories = %+v, %v", list, err)
	}
	changed := false
	for _, e := range ev.got {
		changed = changed || strings.HasPrefix(e, "memory:changed ")
	}
	if !changed {
		t.Fatal("no memory:changed event")
	}
	// A recall turn offers it to the model with its source.
	if _, err := a.Chat.SendMessage("r2", "", "what am I allergic to?"); err != nil {
		t.Fatal(err)
	}
	reqs := fake.ChatRequests()
	var sawMemory bool
	for _, m := range reqs[len(reqs)-1].Messages {
		sawMemory = sawMemory || (strings.Contains(m.Content, "allergic to peanuts") && strings.Contains(m.Content, "you told me on"))
	}
	if !sawMemory {
		t.Fatalf("the memory was not offered: %+v", reqs[len(reqs)-1].Messages)
	}
	// Incognito: nothing read.
	a.Chat.SetIncognito(true)
	if _, err := a.Chat.SendMessage("r3", "", "what am I allergic to?"); err != nil {
		t.Fatal(err)
	}
	reqs = fake.ChatRequests()
	for _, m := range reqs[len(reqs)-1].Messages {
		if strings.Contains(m.Content, "you told me on") {
			t.Fatal("incognito turn read memory")
		}
	}
	// Forget with a receipt proving it is gone.
	r, err := a.Memory.MemoryForget([]string{list[0].ID})
	if err != nil || r.Count != 1 || r.LexicalMatches != 0 || r.VectorMatches != 0 {
		t.Fatalf("receipt = %+v, %v", r, err)
	}
	if hits, _ := a.Memory.MemorySearch("peanuts", 5); len(hits) != 0 {
		t.Fatalf("still found: %+v", hits)
	}
}

func TestHypotheticalIsNeverRemembered(t *testing.T) {
	a, core, fake, _ := newTestApp(t, nil)
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if r, ok := extractionReply(req); ok {
			return r
		}
		return llmtest.Echo(0, 0)(req)
	}
	if _, err := a.Chat.SendMessage("r1", "", "What if I were allergic to peanuts? Just imagine."); err != nil {
		t.Fatal(err)
	}
	core.RunMemoryJobs(context.Background())
	if list, _ := a.Memory.MemoryList(MemoryFilter{}); len(list) != 0 {
		t.Fatalf("a hypothetical was written to memory: %+v", list)
	}
}

func TestContextReportSurvivesARestartWithoutKeepingForgottenText(t *testing.T) {
	a, core, _, ev, res := rememberPeanuts(t)
	ctx := context.Background()
	if _, err := a.Chat.SendMessage("r2", res.Session.ID, "what am I allergic to?"); err != nil {
		t.Fatal(err)
	}
	live, err := a.Sessions.LastContext(res.Session.ID)
	if err != nil || len(live.Items) == 0 {
		t.Fatalf("live report = %+v, %v", live, err)
	}
	// A new App over the same data is the app after a restart: no report in memory.
	restarted := NewApp(core, ev.emit)
	got, err := restarted.Sessions.LastContext(res.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Tokens != live.Tokens || got.Budget != live.Budget || got.Plan != live.Plan || len(got.Items) != len(live.Items) {
		t.Fatalf("rebuilt report = %+v\nlive = %+v", got, live)
	}
	memories := 0
	for i, it := range got.Items {
		want := live.Items[i]
		if it.Reason != want.Reason || it.Role != want.Role || it.Tokens != want.Tokens || it.MessageID != want.MessageID {
			t.Fatalf("item %d = %+v, live %+v", i, it, want)
		}
		switch it.Reason {
		case "memory":
			memories++
			if it.Preview != want.Preview { // the same line, source and all
				t.Fatalf("memory item preview = %q, live %q", it.Preview, want.Preview)
			}
		case "tool_schema":
			if !strings.HasPrefix(it.Preview, "tool ") {
				t.Fatalf("tool item preview = %q", it.Preview)
			}
		default:
			if it.Preview != want.Preview {
				t.Fatalf("item %d preview = %q, live %q", i, it.Preview, want.Preview)
			}
		}
	}
	if memories == 0 {
		t.Fatalf("the recall turn showed no memory: %+v", live.Items)
	}
	// Forgetting the memory leaves no copy of it in the report, live or stored. The
	// running app is the one wired last (NewApp above took the core's events).
	if _, err := restarted.Chat.SendMessage("r3", res.Session.ID, "what am I allergic to?"); err != nil {
		t.Fatal(err)
	}
	list, _ := restarted.Memory.MemoryList(MemoryFilter{Statuses: []string{"active"}})
	if _, err := restarted.Memory.MemoryForget([]string{list[0].ID}); err != nil {
		t.Fatal(err)
	}
	for _, app := range []*App{restarted, NewApp(core, ev.emit)} { // the running app, and after a restart
		got, _ = app.Sessions.LastContext(res.Session.ID)
		forgotten := false
		for _, it := range got.Items {
			if strings.Contains(it.Preview, "peanuts") && it.Reason == "memory" {
				t.Fatalf("a forgotten memory is still shown: %+v", it)
			}
			forgotten = forgotten || (it.Reason == "memory" && strings.Contains(it.Preview, "forgotten"))
		}
		if !forgotten {
			t.Fatalf("the report does not say the memory was forgotten: %+v", got.Items)
		}
	}
	var leaked, recipes int
	if err := core.db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM messages WHERE role <> 'user' AND details LIKE '%allergic%')
		+ (SELECT COUNT(*) FROM turn_contexts WHERE recipe LIKE '%allergic%'), (SELECT COUNT(*) FROM turn_contexts)`).Scan(&leaked, &recipes); err != nil || leaked != 0 || recipes < 3 {
		t.Fatalf("stored turns keeping memory text: %d (of %d recipes), %v", leaked, recipes, err)
	}
}

func TestContextReportOfANewChatIsEmpty(t *testing.T) {
	a, _, _, _ := newTestApp(t, nil)
	for _, id := range []string{"", "no-such-session"} {
		r, err := a.Sessions.LastContext(id)
		if err != nil || len(r.Items) != 0 {
			t.Fatalf("LastContext(%q) = %+v, %v", id, r, err)
		}
	}
}

func TestForgottenMemoryLeavesNoCopyInToolRecords(t *testing.T) {
	const canary = "my locker code is canary-5d2e"
	a, core, fake, _ := newTestApp(t, nil)
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if _, ok := extractionReply(req); ok {
			return llmtest.Reply{Chunks: []string{`{"facts":[]}`}}
		}
		switch n, _ := toolRounds(req); {
		case n == 0 && strings.Contains(req.Messages[len(req.Messages)-1].Content, "remember"):
			return llmtest.Reply{ToolCalls: []api.ToolCall{call("memory_save", map[string]any{"text": canary})}}
		case n == 0:
			return llmtest.Reply{ToolCalls: []api.ToolCall{call("memory_search", map[string]any{"query": "locker code"})}}
		case strings.Contains(req.Messages[len(req.Messages)-1].Content, "canary-5d2e"):
			return llmtest.Reply{Chunks: []string{"Found it."}} // the model got the memory's text
		}
		return llmtest.Reply{Chunks: []string{"Saved."}}
	}
	ctx := context.Background()
	res, err := a.Chat.SendMessage("r1", "", "Please remember: "+canary)
	if err != nil || len(res.Tools) != 1 || res.Tools[0].Tool != "memory_save" || res.Tools[0].Status != "ok" || res.Assistant.Content != "Saved." {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	list, err := a.Memory.MemoryList(MemoryFilter{})
	if err != nil || len(list) != 1 || list[0].Text != canary {
		t.Fatalf("memories = %+v, %v", list, err)
	}
	// A later search hands the model the memory's text, but the conversation keeps none of it.
	found, err := a.Chat.SendMessage("r2", res.Session.ID, "what do you know about my locker?")
	if err != nil || found.Assistant.Content != "Found it." || len(found.Tools) != 1 || found.Tools[0].Tool != "memory_search" {
		t.Fatalf("search turn = %+v, %v", found, err)
	}
	if _, err := a.Memory.MemoryForget([]string{list[0].ID}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`SELECT COUNT(*) FROM messages WHERE role <> 'user' AND (details LIKE '%canary-5d2e%' OR content LIKE '%canary-5d2e%')`,
		`SELECT COUNT(*) FROM tool_calls WHERE arguments LIKE '%canary-5d2e%'`,
		// Only the user's own message is indexed (minus that one).
		`SELECT COUNT(*) - 1 FROM messages_fts WHERE messages_fts MATCH '"5d2e"'`,
	} {
		var n int
		if err := core.db.QueryRowContext(ctx, q).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%s = %d, %v", q, n, err)
		}
	}
	// The reloaded cards still say what was called, by the arguments' shape; the stored
	// search result keeps the id of what it found (for later turns), not its text.
	d, _ := a.Sessions.LoadSession(res.Session.ID)
	if tool := d.Messages[1].Tool; tool == nil || tool.Tool != "memory_save" || tool.Args != `{"text":"[PRIVATE]"}` ||
		!strings.Contains(d.Messages[1].Content, `"saved":true`) {
		t.Fatalf("reloaded save card = %+v", d.Messages[1])
	}
	var search Message
	for _, m := range d.Messages {
		if m.ToolName == "memory_search" {
			search = m
		}
	}
	if search.Tool == nil || !strings.Contains(search.Content, list[0].ID) || !strings.Contains(search.Content, "search again") {
		t.Fatalf("reloaded search = %+v", search)
	}
}

func TestAMemoryForgottenDuringATurnIsNotQuotedByItsReport(t *testing.T) {
	a, core, fake, _, res := rememberPeanuts(t)
	list, _ := a.Memory.MemoryList(MemoryFilter{Statuses: []string{"active"}})
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if _, ok := extractionReply(req); ok {
			return llmtest.Reply{Chunks: []string{`{"facts":[]}`}}
		}
		// While the model answers (with the memory in its prompt), the user forgets it.
		m, err := core.memoryStore()
		if err == nil {
			_, err = m.Forget(context.Background(), list[0].ID)
		}
		if err != nil {
			t.Errorf("forget: %v", err)
		}
		return llmtest.Reply{Chunks: []string{"Noted."}}
	}
	if _, err := a.Chat.SendMessage("r2", res.Session.ID, "what am I allergic to?"); err != nil {
		t.Fatal(err)
	}
	rep, err := a.Sessions.LastContext(res.Session.ID)
	if err != nil || len(rep.Items) == 0 {
		t.Fatalf("report = %+v, %v", rep, err)
	}
	sawMemory := false
	for _, it := range rep.Items {
		if it.Reason == "memory" {
			sawMemory = true
			if strings.Contains(it.Preview, "peanuts") {
				t.Fatalf("the report quotes a memory forgotten during the turn: %+v", it)
			}
		}
	}
	if !sawMemory {
		t.Fatalf("the turn's prompt had no memory: %+v", rep.Items)
	}
}

func TestReplyContextShowsWhatEachReplySaw(t *testing.T) {
	a, _, _, _ := newTestApp(t, llmtest.Echo(2, 0))
	first, err := a.Chat.SendMessage("r1", "", "my first question")
	if err != nil {
		t.Fatal(err)
	}
	second, err := a.Chat.SendMessage("r2", first.Session.ID, "and a second one")
	if err != nil {
		t.Fatal(err)
	}
	last, _ := a.Sessions.LastContext(first.Session.ID)
	if last.MessageID != second.Assistant.ID {
		t.Fatalf("the live report is for %q, want the second reply %q", last.MessageID, second.Assistant.ID)
	}
	old, err := a.Chat.ReplyContext(first.Session.ID, first.Assistant.ID)
	if err != nil || old.MessageID != first.Assistant.ID || len(old.Items) == 0 {
		t.Fatalf("first reply's context = %+v, %v", old, err)
	}
	// The first reply saw no history; the second saw the first turn.
	for _, it := range old.Items {
		if it.MessageID == first.User.ID || it.MessageID == first.Assistant.ID {
			t.Fatalf("the first reply's context holds its own turn as history: %+v", it)
		}
	}
	sawFirst := false
	for _, it := range last.Items {
		sawFirst = sawFirst || it.MessageID == first.Assistant.ID
	}
	if !sawFirst || len(last.Items) <= len(old.Items) {
		t.Fatalf("second reply's context %+v vs first %+v", last.Items, old.Items)
	}
	if r, err := a.Chat.ReplyContext(first.Session.ID, "no-such-reply"); err != nil || len(r.Items) != 0 {
		t.Fatalf("unknown reply = %+v, %v", r, err)
	}
}
