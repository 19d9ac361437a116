package app

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm/llmtest"
)

// A message that does not ask to delete anything is never offered a tool that
// erases, whatever the classifier makes of it (issue 32: "Please research what
// I said about peanuts" was labelled forget); one that asks in so many words
// is, in English and in Chinese.
func TestOnlyAnExplicitRequestIsOfferedErasingTools(t *testing.T) {
	var mu sync.Mutex
	offered := map[string][]string{}
	a, _, fake, _ := newTestApp(t, nil)
	fake.Chat = func(req api.ChatRequest) llmtest.Reply {
		if len(req.Format) > 0 {
			return llmtest.Reply{Chunks: []string{`{"facts": []}`}}
		}
		var user string
		for _, m := range req.Messages {
			if m.Role == "user" {
				user = m.Content
			}
		}
		var names []string
		for _, tl := range req.Tools {
			names = append(names, tl.Function.Name)
		}
		mu.Lock()
		offered[user] = names
		mu.Unlock()
		return llmtest.Reply{Chunks: []string{"OK."}}
	}
	ask := func(text string) (intent string, tools []string) {
		t.Helper()
		res, err := a.Chat.SendMessage("r-"+text, "", text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		mu.Lock()
		defer mu.Unlock()
		return res.User.Intent, offered[text]
	}
	for _, text := range []string{
		"Please research what I said about peanuts",
		"What does the document say about the pump?",
		"Remember that I'm allergic to peanuts",
		"Don't forget that I'm allergic to peanuts",
		"请研究一下我说过的关于花生的事",
		"文档里关于水泵说了什么？",
		"记住我对花生过敏",
		"别忘了我对花生过敏",
	} {
		intent, tools := ask(text)
		if slices.Contains(tools, "memory_forget") {
			t.Errorf("%q (intent %s) was offered memory_forget: %v", text, intent, tools)
		}
	}
	for _, text := range []string{
		"Forget that I'm allergic to peanuts",
		"Please delete what you know about my address",
		"忘掉我对花生过敏这件事",
		"删掉你记得的我的地址",
	} {
		intent, tools := ask(text)
		if intent == "forget" && !slices.Contains(tools, "memory_forget") {
			t.Errorf("%q (intent forget) was not offered memory_forget: %v", text, tools)
		}
		if intent != "forget" {
			t.Logf("%q was labelled %s (offered %s)", text, intent, strings.Join(tools, ", "))
		}
	}
}
