package memtool

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/memory"
	"hermes/backend/store"
	"hermes/backend/tools"
)

func newMemory(t *testing.T) *memory.Store {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := memory.Open(ctx, db, memory.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run calls a tool through a real registry and executor, as the model would.
func run(t *testing.T, ctx context.Context, reg *tools.Registry, name, args string, approve bool) tools.Outcome {
	t.Helper()
	ex := tools.NewExecutor(reg, tools.Config{})
	ex.Approver = tools.ApproverFunc(func(context.Context, tools.ApprovalRequest) (tools.Decision, error) {
		return tools.Decision{Allow: approve}, nil
	})
	o, _ := ex.NewTurn(tools.TurnInfo{}).Run(ctx, llm.ToolCall{Name: name, Arguments: json.RawMessage(args)})
	return o
}

func TestMemoryTools(t *testing.T) {
	ctx := context.Background()
	s := newMemory(t)
	reg := tools.NewRegistry()
	if err := Register(reg, s, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := reg.CheckSchemas(); err != nil { // compiled when first called: they must compile
		t.Fatal(err)
	}
	for name, want := range map[string]tools.Annotations{
		"memory_search": {ReadOnly: true}, "memory_save": {}, "memory_forget": {Destructive: true},
	} {
		tool, ok := reg.Get(name)
		if !ok || tool.Annotations() != want {
			t.Fatalf("%s: %v %+v", name, ok, tool)
		}
	}
	if !reg.InGroup(tools.GroupReadOnly)(mustGet(t, reg, "memory_search")) || reg.InGroup(tools.GroupReadOnly)(mustGet(t, reg, "memory_forget")) {
		t.Error("groups are wrong")
	}
	turn := Scope{Profile: "personal", SessionID: "s1", MessageID: "m1", Intent: "remember", MayWriteMemory: true,
		UserText: "Remember that I am allergic to peanuts"}
	cases := []struct {
		name  string
		scope *Scope
		args  string
		want  string
	}{
		{"save through the gate", &turn, `{"text": "I am allergic to peanuts", "key": "allergy.peanuts", "category": "health"}`, `"status":"active"`},
		{"save without asking waits", &Scope{Profile: "personal", Intent: "task", UserText: "Book a table at 7pm, I can't eat gluten"}, `{"text": "I cannot eat gluten"}`, `"status":"pending"`},
		{"hypothetical refused", &Scope{Intent: "hypothetical", UserText: "Remember: if I were a cat I'd sleep 20 hours"}, `{"text": "I am a cat"}`, `"saved":false`},
		{"incognito refused", &Scope{Intent: "remember", MayWriteMemory: true, Incognito: true, UserText: "Remember I'm vegan"}, `{"text": "I am vegan"}`, `"saved":false`},
		{"outside a turn refused", nil, `{"text": "I am vegan"}`, `"saved":false`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := ctx
			if tc.scope != nil {
				c = WithScope(ctx, *tc.scope)
			}
			o := run(t, c, reg, "memory_save", tc.args, true)
			if o.Status != tools.StatusOK || !strings.Contains(string(o.Result), tc.want) {
				t.Fatalf("outcome = %s %s %s", o.Status, o.Result, o.Error)
			}
		})
	}
	o := run(t, WithScope(ctx, turn), reg, "memory_search", `{"query": "peanut allergy"}`, false)
	var res struct {
		Memories []struct {
			ID   string `json:"id"`
			Text string `json:"text"`
		} `json:"memories"`
	}
	if err := json.Unmarshal(o.Result, &res); err != nil || len(res.Memories) == 0 || res.Memories[0].Text != "I am allergic to peanuts" {
		t.Fatalf("search = %s %s (%v)", o.Result, o.Error, err)
	}
	id := res.Memories[0].ID
	if o := run(t, ctx, reg, "memory_forget", `{"ids": ["`+id+`"]}`, false); o.Status == tools.StatusOK {
		t.Fatal("forget ran without the user's approval")
	}
	if _, err := s.Get(ctx, id); err != nil {
		t.Fatal("denied forget erased the memory")
	}
	o = run(t, ctx, reg, "memory_forget", `{"ids": ["`+id+`"]}`, true)
	if o.Status != tools.StatusOK || !strings.Contains(string(o.Result), `"lexical_matches":0`) {
		t.Fatalf("forget = %s %s %s", o.Status, o.Result, o.Error)
	}
	if _, err := s.Get(ctx, id); err == nil {
		t.Fatal("approved forget kept the memory")
	}
}

func mustGet(t *testing.T, reg *tools.Registry, name string) tools.Tool {
	t.Helper()
	tool, ok := reg.Get(name)
	if !ok {
		t.Fatalf("%s not registered", name)
	}
	return tool
}
