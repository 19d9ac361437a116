package app

import (
	"context"
	"encoding/json"
	"fmt"
	"hermes/backend/subagent"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
	"hermes/backend/session"
)

// delegationScript is the fake model of the sub-agent tests. The main model
// delegates "research" to the researcher (and "both" to the researcher and the
// editor at once); the researcher calls session_search once, then answers with
// what it found; the editor answers "EDITED"; a main request with a tool result
// answers "Done: <result>". "spin" makes the researcher call current_time
// forever; "stall" makes it stream without end.
type delegationScript struct {
	mu       sync.Mutex
	requests []api.ChatRequest
	starts   map[string]time.Time // sub-agent -> when its first request came
	ends     map[string]time.Time
	delay    time.Duration
}

func (s *delegationScript) reply(req api.ChatRequest) llmtest.Reply {
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	system := req.Messages[0].Content
	last := req.Messages[len(req.Messages)-1]
	firstUser := ""
	for _, m := range req.Messages {
		if m.Role == "user" {
			firstUser = m.Content
		}
	}
	call := func(name string, args map[string]any) api.ToolCall {
		var a api.ToolCallFunctionArguments
		b, _ := json.Marshal(args)
		_ = json.Unmarshal(b, &a)
		return api.ToolCall{ID: fmt.Sprintf("call_%s_%d", name, len(req.Messages)), Function: api.ToolCallFunction{Name: name, Arguments: a}}
	}
	switch {
	case strings.Contains(system, "Hermes' researcher"):
		s.mark("researcher")
		switch {
		case strings.Contains(firstUser, "stall"):
			return llmtest.Reply{Chunks: llmtest.Words(strings.Repeat("thinking ", 400)), Delay: 20 * time.Millisecond}
		case strings.Contains(firstUser, "spin"):
			return llmtest.Reply{ToolCalls: []api.ToolCall{call("current_time", map[string]any{"timezone": fmt.Sprint("UTC", len(req.Messages))})}}
		case last.Role == "tool":
			return llmtest.Reply{Chunks: []string{"Found: ", "zqxsecret notes"}}
		}
		return llmtest.Reply{ToolCalls: []api.ToolCall{call("session_search", map[string]any{"query": "invoice"})}, Delay: s.delay}
	case strings.Contains(system, "Hermes' editor"):
		s.mark("editor")
		return llmtest.Reply{Chunks: []string{"EDITED"}, Delay: s.delay}
	case last.Role == "tool":
		return llmtest.Reply{Chunks: []string{"Done: " + last.Content}}
	case strings.Contains(last.Content, "both"):
		return llmtest.Reply{ToolCalls: []api.ToolCall{
			call("agent__researcher", map[string]any{"task": "find the invoice"}),
			call("agent__editor", map[string]any{"task": "shorten", "context": "a long text"}),
		}}
	case strings.Contains(last.Content, "research"):
		return llmtest.Reply{ToolCalls: []api.ToolCall{call("agent__researcher", map[string]any{"task": last.Content})}}
	}
	return llmtest.Reply{Chunks: []string{"ok"}}
}

func (s *delegationScript) mark(agent string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.starts[agent]; !ok {
		s.starts[agent] = time.Now()
	}
	s.ends[agent] = time.Now().Add(s.delay)
}

// subRequests are the requests a sub-agent sent.
func (s *delegationScript) subRequests(marker string) []api.ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []api.ChatRequest
	for _, r := range s.requests {
		if strings.Contains(r.Messages[0].Content, marker) {
			out = append(out, r)
		}
	}
	return out
}

func newDelegationApp(t *testing.T) (*App, *Core, *delegationScript, *events) {
	s := &delegationScript{starts: map[string]time.Time{}, ends: map[string]time.Time{}}
	a, core, _, ev := newTestApp(t, s.reply)
	return a, core, s, ev
}

// TestDelegationRunsTheSubAgentInItsOwnChannel: the researcher's request carries
// its own system prompt and only its tools (no agent__ tool); the main reply uses
// its answer; its messages are stored in its channel, the main channel keeps the
// delegation and the answer only, and the main window holds none of its inner
// messages; a reloaded conversation shows them as the delegation's thread.
func TestDelegationRunsTheSubAgentInItsOwnChannel(t *testing.T) {
	a, core, s, ev := newDelegationApp(t)
	res, err := a.Chat.SendMessage("r1", "", "please research what we decided about the invoices")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Assistant.Content, "Found: zqxsecret notes") {
		t.Fatalf("main reply %q does not use the sub-agent's answer", res.Assistant.Content)
	}
	subs := s.subRequests("Hermes' researcher")
	if len(subs) != 2 {
		t.Fatalf("researcher sent %d requests, want 2", len(subs))
	}
	for _, tl := range subs[0].Tools {
		if n := tl.Function.Name; strings.HasPrefix(n, "agent__") || (n != "session_search" && n != "memory_search" && n != "current_time") {
			t.Errorf("researcher was offered %q", n)
		}
	}
	if len(subs[0].Tools) == 0 {
		t.Error("researcher was offered no tools")
	}
	// The main turn and the sub-agent run the one loop (agent.Loop): each
	// follow-up request ends with the model's own call, then that call's result.
	followUps := map[string]api.ChatRequest{"researcher": subs[1]}
	for _, r := range s.subRequests("") {
		if m := r.Messages; !strings.Contains(m[0].Content, "Hermes' researcher") && m[len(m)-1].Role == "tool" {
			followUps["main"] = r
		}
	}
	for who, r := range followUps {
		m := r.Messages
		if n := len(m); n < 2 || m[n-2].Role != "assistant" || len(m[n-2].ToolCalls) != 1 || m[n-1].Role != "tool" || m[n-1].ToolName != m[n-2].ToolCalls[0].Function.Name {
			t.Errorf("%s follow-up request ends %+v", who, m[max(0, len(m)-2):])
		}
	}
	if len(followUps) != 2 {
		t.Errorf("follow-ups of %v only", followUps)
	}

	msgs, err := core.sessions.Messages(context.Background(), res.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	var main, researcher []string
	for _, m := range msgs {
		entry := m.Role + ":" + m.ToolName
		if m.Channel == "researcher" {
			researcher = append(researcher, entry)
		} else if m.Channel == "main" {
			main = append(main, entry)
		} else {
			t.Errorf("message in channel %q", m.Channel)
		}
	}
	if got := strings.Join(main, ","); got != "user:,tool:agent__researcher,assistant:" {
		t.Errorf("main channel = %s", got)
	}
	if got := strings.Join(researcher, ","); got != "user:,tool:session_search,assistant:" {
		t.Errorf("researcher channel = %s", got)
	}

	mainCtx, err := core.ChannelContext(context.Background(), res.Session.ID, "main")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range mainCtx.Items {
		if it.Role == "tool" && strings.Contains(it.Content, "invoice") && !strings.Contains(it.Content, "Found") {
			t.Errorf("main window holds the researcher's inner message %q", it.Content)
		}
	}
	subCtx, err := core.ChannelContext(context.Background(), res.Session.ID, "researcher")
	if err != nil {
		t.Fatal(err)
	}
	if subCtx.Items[0].Content != s.subRequests("Hermes' researcher")[0].Messages[0].Content || len(subCtx.Items) < 3 {
		t.Errorf("researcher window = %+v", subCtx.Items)
	}
	if ch, _ := a.Agents.SessionChannels(res.Session.ID); strings.Join(ch, ",") != "main,researcher" {
		t.Errorf("channels = %v", ch)
	}

	d, err := a.Sessions.LoadSession(res.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Messages) != 3 || d.Messages[1].Tool == nil || len(d.Messages[1].Thread) != 3 || d.Messages[1].Thread[1].Tool == nil ||
		d.Messages[1].Thread[1].Tool.Tool != "session_search" || d.Messages[1].Thread[2].Content != "Found: zqxsecret notes" {
		t.Fatalf("loaded conversation = %+v", d.Messages)
	}
	kinds := map[string]int{}
	for _, e := range ev.got {
		if name, payload, _ := strings.Cut(e, " "); name == "chat:agent:r1" {
			var ae AgentEvent
			_ = json.Unmarshal([]byte(payload), &ae)
			if ae.Agent != "researcher" || ae.CallID != d.Messages[1].Tool.CallID {
				t.Errorf("event %s", payload)
			}
			kinds[ae.Kind]++
		}
	}
	if kinds["start"] != 1 || kinds["tool"] != 1 || kinds["delta"] == 0 || kinds["done"] != 1 {
		t.Errorf("live events = %v", kinds)
	}
}

// TestTwoDelegationsRunInParallel: the researcher and the editor, asked in one
// reply, run at the same time.
func TestTwoDelegationsRunInParallel(t *testing.T) {
	a, _, s, _ := newDelegationApp(t)
	s.delay = 300 * time.Millisecond
	res, err := a.Chat.SendMessage("r1", "", "research both: find the invoice from March and shorten my notes about it")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 2 || res.Tools[0].Status != "ok" || res.Tools[1].Status != "ok" {
		t.Fatalf("tools = %+v", res.Tools)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r0, e0 := s.starts["researcher"], s.starts["editor"]
	if r0.IsZero() || e0.IsZero() {
		t.Fatalf("starts = %v", s.starts)
	}
	if r0.After(s.ends["editor"]) || e0.After(s.ends["researcher"]) {
		t.Errorf("the delegations ran one after the other: researcher %v, editor %v", r0, e0)
	}
}

// TestCancelStopsTheSubAgent: cancelling the turn mid-delegation cancels the
// sub-agent; its partial reply is kept, marked cancelled, in its channel.
func TestCancelStopsTheSubAgent(t *testing.T) {
	a, core, _, ev := newDelegationApp(t)
	ev.ch = make(chan string, 1000)
	go func() {
		for name := range ev.ch {
			if name != "chat:agent:r1" {
				continue
			}
			ev.mu.Lock()
			streaming := strings.Contains(ev.got[len(ev.got)-1], `"kind":"delta"`)
			ev.mu.Unlock()
			if streaming { // the researcher is streaming its reply
				a.Chat.CancelMessage("r1")
				return
			}
		}
	}()
	start := time.Now()
	res, err := a.Chat.SendMessage("r1", "", "research and stall")
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("the turn took %v after the cancel", time.Since(start))
	}
	if len(res.Tools) != 1 || res.Tools[0].Status != "cancelled" {
		t.Fatalf("tools = %+v", res.Tools)
	}
	// The turn returns at once; the sub-agent stores where it stopped right after.
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		msgs, _ := core.sessions.Messages(context.Background(), res.Session.ID)
		var reply *session.Message
		for i, m := range msgs {
			if m.Channel == "researcher" && m.Role == "assistant" {
				reply = &msgs[i]
			}
		}
		if reply != nil {
			if reply.Status != "cancelled" || !strings.Contains(reply.Content, "thinking") {
				t.Errorf("researcher's reply = %+v", *reply)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the researcher's partial reply was not kept")
		}
	}
}

// TestLoopingSubAgentIsStopped: a sub-agent that keeps calling tools is stopped
// by its loop guard, and the main agent gets a clear tool error.
func TestLoopingSubAgentIsStopped(t *testing.T) {
	a, _, s, _ := newDelegationApp(t)
	res, err := a.Chat.SendMessage("r1", "", "research and spin")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Status != "error" || !strings.Contains(res.Tools[0].Error, "loop guard") {
		t.Fatalf("tools = %+v", res.Tools)
	}
	if n := len(s.subRequests("Hermes' researcher")); n > 6 {
		t.Errorf("the researcher asked the model %d times", n)
	}
	if !strings.Contains(res.Assistant.Content, "loop guard") {
		t.Errorf("the main model was not told: %q", res.Assistant.Content)
	}
}

// TestAgentsFileIsWatchedAndEdited: an agent added in agents.yaml is offered as
// a tool; switching it off takes the tool away; a bad definition is refused
// with its field.
func TestAgentsFileIsWatchedAndEdited(t *testing.T) {
	a, core, _, _ := newDelegationApp(t)
	if _, ok := core.tools.reg.Get("agent__researcher"); !ok {
		t.Fatal("the built-in researcher is not offered")
	}
	os.WriteFile(filepath.Join(core.dataDir, "agents.yaml"), []byte("version: 1\nagents:\n  - name: travel\n    description: Plans trips.\n    system: You plan trips.\n"), 0o600)
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, ok := core.tools.reg.Get("agent__travel"); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("agents.yaml change was not picked up")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := a.Agents.SetAgentEnabled("researcher", false); err != nil {
		t.Fatal(err)
	}
	if _, ok := core.tools.reg.Get("agent__researcher"); ok {
		t.Error("a switched-off agent is still offered")
	}
	if _, err := a.Agents.SaveAgent("", subagent.Definition{Name: "Bad Name", Description: "x", System: "y"}); err == nil || !strings.Contains(err.Error(), "name") {
		t.Errorf("bad definition: %v", err)
	}
	info, err := a.Agents.SaveAgent("travel", subagent.Definition{Name: "trips", Description: "Plans trips.", System: "You plan trips.", Tools: []string{"current_time"}, Memory: "read"})
	if err != nil || info.Tool != "agent__trips" {
		t.Fatalf("rename = %+v, %v", info, err)
	}
	if _, ok := core.tools.reg.Get("agent__travel"); ok {
		t.Error("the renamed agent's old tool is still offered")
	}
	// The form edits a switched-off agent: it stays off (the form has no switch).
	if err := a.Agents.SetAgentEnabled("trips", false); err != nil {
		t.Fatal(err)
	}
	info, err = a.Agents.SaveAgent("trips", subagent.Definition{Name: "trips", Description: "Plans journeys.", System: "You plan trips."})
	if err != nil || !info.Disabled {
		t.Fatalf("a switched-off agent the form edited = %+v, %v; want it still off", info, err)
	}
	if _, ok := core.tools.reg.Get("agent__trips"); ok {
		t.Error("an edited switched-off agent is offered again")
	}
}

// TestWorkflowStepDelegates: a workflow step with agent: runs the sub-agent
// through the tools engine; its answer is the step's result and its messages
// go to its channel of the run's conversation.
func TestWorkflowStepDelegates(t *testing.T) {
	_, core, _, _ := newDelegationApp(t)
	os.WriteFile(filepath.Join(core.dataDir, "workflows.yaml"), []byte(`version: 1
workflows:
  - name: dig
    description: Dig up a topic.
    inputs: {type: object, properties: {topic: {type: string}}, required: [topic]}
    phases:
      - steps:
          - {id: r, agent: researcher, task: "find {{inputs.topic}}"}
`), 0o600)
	ctx := context.Background()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, ok := core.tools.reg.Get("workflow__dig"); ok {
			break
		}
		if time.Now().After(deadline) {
			list, errs := core.Workflows()
			t.Fatalf("workflow not loaded: %v %v", list, errs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	sess, err := core.sessions.Create(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	run, err := core.RunWorkflow(ctx, "dig", json.RawMessage(`{"topic":"the invoice"}`), WorkflowOptions{SessionID: sess.ID})
	if err != nil || run.Status != "done" || !strings.Contains(string(run.Steps[0].Result), "Found: zqxsecret notes") {
		t.Fatalf("run = %+v, %v", run, err)
	}
	msgs, _ := core.sessions.Messages(ctx, sess.ID)
	if len(msgs) == 0 || msgs[0].Channel != "researcher" || msgs[0].Content != "find the invoice" {
		t.Fatalf("messages = %+v", msgs)
	}
}

// TestDeletingTheConversationReachesEveryChannel: the researcher recalled a
// memory for its task (memory: read) and its channel has a summary; deleting
// the conversation deletes every channel, the channel summary and the recall
// log of the sub-agent's task too.
func TestDeletingTheConversationReachesEveryChannel(t *testing.T) {
	a, core, s, _ := newDelegationApp(t)
	if _, err := a.Memory.MemoryAdd("my invoice number is zq4471"); err != nil {
		t.Fatal(err)
	}
	res, err := a.Chat.SendMessage("r1", "", "please research my invoice number")
	if err != nil {
		t.Fatal(err)
	}
	subs := s.subRequests("Hermes' researcher")
	if len(subs) == 0 || !strings.Contains(fmt.Sprint(subs[0].Messages), "zq4471") {
		t.Fatalf("the researcher was not offered the memory: %v", subs)
	}
	ctx := context.Background()
	if err := core.sessions.SetChannelSummary(ctx, res.Session.ID, "researcher", "the user asked about zqcanary77", "extractive", 3); err != nil {
		t.Fatal(err)
	}
	count := func(q string) int {
		var n int
		if err := core.db.QueryRowContext(ctx, q, res.Session.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if count(`SELECT count(*) FROM memory_recalls WHERE session_id = ?`) == 0 || count(`SELECT count(*) FROM messages WHERE session_id = ? AND channel = 'researcher'`) == 0 {
		t.Fatal("nothing to delete: the test proves nothing")
	}
	r, err := a.Sessions.DeleteSession(res.Session.ID)
	if err != nil || r.LexicalMatches != 0 {
		t.Fatalf("delete = %+v, %v", r, err)
	}
	for _, q := range []string{`SELECT count(*) FROM messages WHERE session_id = ?`, `SELECT count(*) FROM channel_summaries WHERE session_id = ?`,
		`SELECT count(*) FROM memory_recalls WHERE session_id = ?`} {
		if n := count(q); n != 0 {
			t.Errorf("%s: %d left", q, n)
		}
	}
}
