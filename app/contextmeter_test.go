package app

import (
	"testing"

	"hermes/backend/llm/llmtest"
)

// The composer's meter: a new chat takes its system prompt only; after a turn
// the history counts too; the budget is the model's context less the reply's
// reserve, the same the turn is built with.
func TestContextMeterMeasuresTheNextTurn(t *testing.T) {
	a, _, _, _ := newTestApp(t, llmtest.Echo(0, 0))
	fresh, err := a.Chat.ContextMeter("")
	if err != nil || fresh.Budget <= 0 || fresh.ContextSize <= fresh.Budget || fresh.Used <= 0 || fresh.Model == "" {
		t.Fatalf("a new chat: %+v %v", fresh, err)
	}
	res, err := a.Chat.SendMessage("r1", "", "Tell me about the pumps on the north field, the ones that need new seals every spring.")
	if err != nil {
		t.Fatal(err)
	}
	after, err := a.Chat.ContextMeter(res.Session.ID)
	if err != nil || after.Used <= fresh.Used || after.Budget != fresh.Budget {
		t.Fatalf("after a turn: %+v (%v), a new chat %+v", after, err, fresh)
	}
	rep, _ := a.Sessions.LastContext(res.Session.ID)
	if rep.Budget != after.Budget {
		t.Fatalf("the meter's budget %d, the turn's %d", after.Budget, rep.Budget)
	}
	if _, err := a.Chat.ContextMeter("no-such-chat"); err != nil {
		t.Fatalf("an unknown chat: %v", err)
	}
}
