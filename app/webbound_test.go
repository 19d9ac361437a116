package app

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// TestWebLongCallsStopWithTheRequest: in web mode a turn belongs to the page's
// request; when the page goes away (the request is cancelled) the turn stops
// as Stop would stop it, its partial reply kept and marked cancelled — for a
// new message and for a regenerated reply alike.
func TestWebLongCallsStopWithTheRequest(t *testing.T) {
	var slow atomic.Bool
	rig := startWebRigWith(t, func(api.ChatRequest) llmtest.Reply {
		if !slow.Load() {
			return llmtest.Reply{Chunks: []string{"a quick answer"}}
		}
		return llmtest.Reply{Chunks: llmtest.Words(strings.Repeat("slowly ", 400)), Delay: 20 * time.Millisecond}
	})
	quick := rig.call(t, "SendMessage", "", "r0", "", "hello")
	if quick.status != http.StatusOK {
		t.Fatalf("first turn: %+v", quick)
	}
	res := quick.body["session"].(map[string]any)
	sid := res["id"].(string)
	reply := quick.body["assistant"].(map[string]any)["id"].(string)

	slow.Store(true)
	for _, c := range []struct {
		method string
		args   []string
	}{
		{"SendMessage", []string{"r1", sid, "tell me a long story"}},
		{"RegenerateReply", []string{"r2", sid, reply}},
	} {
		t.Run(c.method, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
			defer cancel()
			b, _ := json.Marshal(c.args)
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, rig.url+"/api/call/"+c.method, strings.NewReader(string(b)))
			req.Header.Set(TokenHeader, rig.web.Token())
			start := time.Now()
			if _, err := http.DefaultClient.Do(req); err == nil {
				t.Fatal("the call finished before the page went away")
			}
			for { // the turn stops and stores its partial reply
				d, err := rig.app.Sessions.LoadSession(sid)
				if err != nil {
					t.Fatal(err)
				}
				last := d.Messages[len(d.Messages)-1]
				if last.Role == "assistant" && last.Status == "cancelled" && strings.HasPrefix(last.Content, "slowly") {
					if len(last.Content) > 2000 {
						t.Errorf("the turn ran on after the page went away: %d bytes", len(last.Content))
					}
					break
				}
				if time.Since(start) > 5*time.Second {
					t.Fatalf("the turn did not stop: last message %+v", last)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}
