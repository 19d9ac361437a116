package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// TestMemoryWriteGateFollowsTheIntent sends realistic messages through real chat
// turns with a model that claims a fact for every extraction request: every
// first-person statement is stored, whether or not it says "remember", and no
// question about oneself, what-if, role-play, test, example, other person's fact
// or other message is, whatever the model returns (issue 16, point 6).
func TestMemoryWriteGateFollowsTheIntent(t *testing.T) {
	statements := []string{
		"I'm allergic to penicillin",
		"I work night shifts at the hospital",
		"I moved to Amsterdam last spring",
		"my flat is on the 4th floor and there's no lift",
		"fyi i eat fish but no meat",
		"i prefer answers in bullet points",
		"I'm a vegetarian",
		"i have two cats, miso and tofu",
		"my favourite band is radiohead",
		"I drive a blue Toyota Corolla",
		"just so you know, I'm left-handed",
		"我平时不吃辣",
		"我去年搬到了苏州",
		"我每天早上六点起床跑步",
		"我养了一只柯基叫豆豆",
		"我是做前端开发的",
		"我血型是O型",
		"我在学日语",
		"我住在杭州",
		"我对青霉素过敏",
		"我是一名小学老师",
		"I'm learning to play the cello",
	}
	// Realistic first-person statements the committed model misroutes:
	// reported in issue 16, not stored while it does. None at present.
	var misrouted []string
	others := []string{
		"Am I allergic to anything?",
		"what do you know about me?",
		"where do I live again?",
		"我对什么过敏来着？",
		"我住在哪里？",
		"What if I were allergic to peanuts?",
		"Suppose I lived in Tokyo, how long would my commute be?",
		"Let's play a game: you're a pirate and I'm the captain of a ship",
		"This is just a test: I am allergic to cats",
		"For example, a sentence like 'I love pizza' is a first-person statement",
		"my friend is allergic to shellfish",
		"my sister prefers tea over coffee",
		"my boss hates meetings on mondays",
		"假如我是一名医生，我每天会做什么？",
		"我朋友对芒果过敏",
		"我同事住在深圳",
		"我妈不吃香菜",
		"扮演一个海盗，我是船长",
		"测试一下：我对猫过敏",
		"Hello! What can you do for me?",
		"thanks, that helps a lot",
		"how do I boil an egg?",
		"what time is it in Tokyo?",
		"你好呀",
		"怎么煮鸡蛋？",
		"现在几点了",
	}
	a, core, fake, _ := newTestApp(t, nil)
	var n atomic.Int64
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if !strings.Contains(string(req.Format), `"facts"`) {
			return llmtest.Echo(0, 0)(req)
		}
		i := n.Add(1) // a different fact each time, so none merges with another
		return llmtest.Reply{Chunks: []string{fmt.Sprintf(`{"facts":[{"text":"The user owns %d kites","key":"kites.n%d","value":"%d",`, i, i, i),
			`"category":"other","scope":"lasting","asserted":"stated","confidence":0.95}]}`}}
	}
	stored := func(t *testing.T, messageID string) bool {
		t.Helper()
		list, err := a.Memory.MemoryList(MemoryFilter{Statuses: []string{"active", "pending", "archived", "superseded"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range list {
			if slices.Contains(m.SourceMessageIDs, messageID) {
				return true
			}
		}
		return false
	}
	turn := func(t *testing.T, text string) (TurnResult, bool) {
		t.Helper()
		res, err := a.Chat.SendMessage("req-"+t.Name(), "", text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := core.RunMemoryJobs(context.Background()); err != nil {
			t.Fatal(err)
		}
		return res, stored(t, res.User.ID)
	}
	for _, text := range statements {
		t.Run("stored "+text, func(t *testing.T) {
			if res, ok := turn(t, text); !ok {
				t.Errorf("a first-person statement (intent %s %.2f) was not stored", res.User.Intent, res.User.IntentConfidence)
			}
		})
	}
	for _, text := range misrouted {
		t.Run("misrouted "+text, func(t *testing.T) {
			// The committed model misroutes these (#16's open bars): they are not stored
			// yet. When a better model routes one right, move it to statements.
			res, ok := turn(t, text)
			if ok {
				t.Errorf("now stored (intent %s %.2f): move it to statements", res.User.Intent, res.User.IntentConfidence)
			}
			t.Logf("known misroute, not stored: intent %s %.2f", res.User.Intent, res.User.IntentConfidence)
		})
	}
	for _, text := range others {
		t.Run("never stored "+text, func(t *testing.T) {
			if res, ok := turn(t, text); ok {
				t.Errorf("stored (intent %s %.2f)", res.User.Intent, res.User.IntentConfidence)
			}
		})
	}
	if got := len(statements) + len(others) + len(misrouted); got < 30 {
		t.Fatalf("only %d messages", got)
	}
}
